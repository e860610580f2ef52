#!/usr/bin/env bash
# Boot one guest under QEMU (TCG) and collect its console log and verdict.
# Usage: ci/boot.sh ARCH KERNEL INITRAMFS LOGDIR [EXTRA_CMDLINE]
# Writes LOGDIR/console.log and LOGDIR/verdict.ktap. Exit: 0 when the guest
# delivered a complete verdict, 1 when it did not (panic, crash), 2 for
# harness errors (QEMU missing or failing, timeout). QEMU_CPU picks the
# x86_64 CPU model (default: max). QEMU_NODES=2 splits the guest into two
# NUMA nodes, 1 GiB and one vCPU each (CPU k on node k). QEMU_SMP sets
# the number of vCPUs (default 2). ICOUNT=N runs the guest in QEMU's
# instruction-counting mode (-icount shift=N): its clocks, the TSC
# included, then advance by 2^N ns per instruction executed, whatever the
# load on the host. (On x86_64 the second vCPU does not come up so: use
# QEMU_SMP=1 with it.) FTRACE_SELFTESTS=1 lets a kernel built with
# ftrace's startup selftests run them; otherwise trace_event= on the
# command line turns them off. Under TCG on two vCPUs they hung in 3 of
# 17 boots, with or without the series, in the function tracer's
# whole-kernel phases: they run on one vCPU only (make ftrace).
set -euo pipefail
arch=$1 kernel=$2 initrd=$3 logdir=$4 extra=${5:-}
timeout=${BOOT_TIMEOUT:-1200}
accel=${ACCEL:-tcg}

# The NUMA layout, then the per-arch table: machine, console, and the
# verdict channel.
smp=${QEMU_SMP:-2} numa=() icount=()
[ -n "${ICOUNT:-}" ] && icount=(-icount "shift=$ICOUNT")
case ${QEMU_NODES:-1} in
1)	;;
# A socket per node: CPUs that share a last-level cache on different
# nodes make the kernel warn about the topology.
2)	smp=2,sockets=2,cores=1,threads=1
	numa=(-object memory-backend-ram,id=m0,size=1G -object memory-backend-ram,id=m1,size=1G
	      -numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1) ;;
*)	echo "boot: QEMU_NODES=$QEMU_NODES: 1 or 2" >&2; exit 2 ;;
esac

case $arch in
x86_64)
	qemu=(qemu-system-x86_64 -accel "$accel" "${icount[@]}" -cpu "${QEMU_CPU:-max}"
	      -bios /usr/share/qemu/qboot.rom -smp "$smp" -m 2G "${numa[@]}")
	console=ttyS0 verdict=/dev/ttyS1
	chan=(-serial "file:$logdir/console.log" -serial "file:$logdir/verdict.ktap") ;;
arm64)
	qemu=(qemu-system-aarch64 -M virt -accel "$accel" "${icount[@]}" -cpu max -smp "$smp" -m 2G
	      "${numa[@]}")
	console=ttyAMA0 verdict=/dev/hvc0
	chan=(-serial "file:$logdir/console.log" -device virtio-serial-device
	      -chardev "file,id=verdict,path=$logdir/verdict.ktap"
	      -device virtconsole,chardev=verdict) ;;
*)	echo "boot: unknown ARCH '$arch'" >&2; exit 2 ;;
esac
command -v "${qemu[0]}" >/dev/null || {
	echo "boot: ${qemu[0]} not found; run make deps" >&2; exit 2; }
for f in "$kernel" "$initrd"; do
	[ -f "$f" ] || { echo "boot: $f is missing" >&2; exit 2; }
done

mkdir -p "$logdir"
rm -f "$logdir/console.log" "$logdir/verdict.ktap"
selftests=trace_event=
[ "${FTRACE_SELFTESTS:-}" = 1 ] && selftests=
cmdline="console=$console panic=-1 oops=panic log_buf_len=16M $selftests verdict=$verdict $extra"
echo "${qemu[*]} -append '$cmdline'" >"$logdir/qemu.cmd"
rc=0
timeout --foreground "$timeout" "${qemu[@]}" -nographic -monitor none -no-reboot \
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline" "${chan[@]}" \
	</dev/null >"$logdir/qemu.log" 2>&1 || rc=$?
tr -d '\r' <"$logdir/console.log" >"$logdir/console.tmp" && mv "$logdir/console.tmp" "$logdir/console.log"
[ -f "$logdir/verdict.ktap" ] && tr -d '\r' <"$logdir/verdict.ktap" >"$logdir/v.tmp" \
	&& mv "$logdir/v.tmp" "$logdir/verdict.ktap"

if [ "$rc" = 124 ]; then
	echo "boot: $arch guest timed out after ${timeout}s; last 40 console lines:" >&2
	tail -n 40 "$logdir/console.log" >&2
	exit 2
fi
if [ "$rc" != 0 ]; then
	echo "boot: ${qemu[0]} exited with $rc:" >&2
	tail -n 5 "$logdir/qemu.log" >&2
	exit 2
fi
if ! grep -q '^# execmem-guest: done' "$logdir/verdict.ktap" 2>/dev/null; then
	echo "boot: $arch guest gave no verdict; last 40 console lines:" >&2
	tail -n 40 "$logdir/console.log" >&2
	exit 1
fi
