#!/usr/bin/env bash
# Build a guest initramfs from a gen_init_cpio list: the static PID 1, the
# guest test programs and the modules the kernel build under test produced,
# as its modules.order lists them. A .ko that only lies around in the build
# folder (left by another prefix of a bisect, say) is never packed, nor is
# any module for a kernel without modules (whose folder may still hold
# the modules.order of an earlier build with them).
# Usage: ci/initramfs.sh GEN_INIT_CPIO BINDIR ARCH KERNEL_OUT OUTPUT [MODDIR...]
# (BINDIR holds init-ARCH, bpf_fleet-ARCH, bpf_tramp-ARCH, cbpf_where-ARCH,
# jit_free-ARCH and harden-refusals, the tests the hardened test_bpf run may refuse; each
# MODDIR adds the out-of-tree modules built there.)
set -euo pipefail
gen=$1 bin=$2 arch=$3 kout=$4 output=$5
shift 5

list=$output.list
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "dir /proc 0755 0 0"
	echo "dir /sys 0755 0 0"
	echo "dir /modules 0755 0 0"
	echo "dir /bin 0755 0 0"
	echo "dir /etc 0755 0 0"
	echo "file /etc/harden-refusals $(realpath "$bin/harden-refusals") 0644 0 0"
	echo "file /init $(realpath "$bin/init-$arch") 0755 0 0"
	echo "file /bin/bpf_fleet $(realpath "$bin/bpf_fleet-$arch") 0755 0 0"
	echo "file /bin/bpf_tramp $(realpath "$bin/bpf_tramp-$arch") 0755 0 0"
	echo "file /bin/cbpf_where $(realpath "$bin/cbpf_where-$arch") 0755 0 0"
	echo "file /bin/jit_free $(realpath "$bin/jit_free-$arch") 0755 0 0"
	modular=$(grep -qx 'CONFIG_MODULES=y' "$kout/.config" && echo 1 || true)
	for d in "$kout" "$@"; do
		[ -n "$modular" ] && [ -f "$d/modules.order" ] || continue
		# The kernel's own lines are relative to its build folder; an
		# external module's (M=) are absolute.
		sed "s|\.o\$|.ko|; \|^/|!s|^|$d/|" "$d/modules.order" | while read -r ko; do
			[ -f "$ko" ] || { echo "initramfs: $ko is in modules.order but missing" >&2; exit 2; }
			echo "file /modules/$(basename "$ko") $(realpath "$ko") 0644 0 0"
		done
	done
} >"$list"
if grep -q '^CONFIG_MODULES=y' "$kout/.config" && [ ! -f "$kout/modules.order" ]; then
	echo "initramfs: $kout has modules but no modules.order" >&2; exit 2
fi
"$gen" "$list" >"$output"
echo "initramfs: $output ($(grep -c '^file /modules' "$list") modules)"
