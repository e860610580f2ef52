#!/usr/bin/env bash
# Side-by-side benchmark: the pristine base kernel against the patched one,
# same config fragments, same QEMU settings, same workload, one run.
# Usage: ci/bench.sh TREE BASE_OUT PATCHED_OUT BENCHDIR BINDIR
#   TREE         the kernel git tree
#   BASE_OUT     the baseline: the pristine base kernel (make base)
#   PATCHED_OUT  the patched x86_64 build (make build ARCH=x86_64)
#   BENCHDIR     where the baseline tree, logs and results go
#   BINDIR       holds gen_init_cpio, init-x86_64 and bpf_fleet-x86_64
# Writes BENCHDIR/{baseline,patched}/metrics.json; exit 2 on any error.
set -euo pipefail
tree=$(realpath "$1") base=$(realpath "$2") patched=$(realpath "$3") bench=$4 bin=$5
here=$(dirname "$(realpath "$0")")
mkdir -p "$bench"
bench=$(realpath "$bench")

# boot KERNEL LOGDIR MODE: boot the baseline or the patched kernel.
boot() {
	local out=$base fleet=plain
	[ "$1" = patched ] && out=$patched fleet=execmem
	"$here/boot.sh" x86_64 "$out/arch/x86/boot/bzImage" "$bench/$1/initramfs.cpio" \
		"$2" "mode=$3 fleet=$fleet" || { echo "bench: the $1 guest gave no verdict" >&2; exit 2; }
}

for k in baseline patched; do
	out=$base
	[ $k = patched ] && out=$patched
	mkdir -p "$bench/$k"
	rm -rf "$bench/$k"/cycles-* "$bench/$k/alloc"
	"$here/kmod.sh" "$out" x86_64 "$here/../tests/bench/kmod" "$bench/$k/kmod"
	"$here/kmod.sh" "$out" x86_64 "$here/../tests/kmod" "$bench/$k/kmod-test"
	"$here/initramfs.sh" "$bin/gen_init_cpio" "$bin" x86_64 "$out" \
		"$bench/$k/initramfs.cpio" "$bench/$k/kmod" "$bench/$k/kmod-test" >/dev/null
	echo "bench: booting the $k kernel" >&2
	boot $k "$bench/$k/logs" bench
done

# The allocator microbenchmark, a boot of its own per kernel on one vCPU
# in QEMU's instruction-counting mode: its TSC then counts instructions
# executed (ICOUNT=3: 8 ns each), not the host's wall clock, so that the
# figures repeat from run to run on a loaded machine. Two vCPUs do not
# come up under icount, which is why the other boots run without it.
for k in baseline patched; do
	echo "bench: allocator, the $k kernel under icount" >&2
	QEMU_SMP=1 ICOUNT=3 boot $k "$bench/$k/alloc" alloc
done

# The wall-clock rows, interleaved: five boots of each kernel in turn
# (baseline, patched, baseline, ...), each timing two load+run+unload
# cycles after an untimed one and then two runs of two loaders at once,
# so that a slow spell of the host hits both alike.
for r in 1 2 3 4 5; do
	for k in baseline patched; do
		echo "bench: cycles, boot $r of the $k kernel" >&2
		boot $k "$bench/$k/cycles-$r" cycles
	done
done
for k in baseline patched; do
	python3 "$here/bench-metrics.py" "$bench/$k/logs/verdict.ktap" \
		"$bench/$k/alloc/verdict.ktap" "$bench/$k"/cycles-?/verdict.ktap >"$bench/$k/metrics.json"
done
