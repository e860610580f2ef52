#!/usr/bin/env bash
# Build a guest initramfs from a gen_init_cpio list: the static PID 1, the
# guest test programs and every module the kernel build produced.
# Usage: ci/initramfs.sh GEN_INIT_CPIO BINDIR ARCH KERNEL_OUT OUTPUT [MODDIR...]
# (BINDIR holds init-ARCH and bpf_fleet-ARCH; each MODDIR adds the
# out-of-tree modules built there.)
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
	echo "file /init $(realpath "$bin/init-$arch") 0755 0 0"
	echo "file /bin/bpf_fleet $(realpath "$bin/bpf_fleet-$arch") 0755 0 0"
	find "$kout" "$@" -name '*.ko' | sort | while read -r ko; do
		echo "file /modules/$(basename "$ko") $(realpath "$ko") 0644 0 0"
	done
} >"$list"
"$gen" "$list" >"$output"
echo "initramfs: $output ($(grep -c '^file /modules' "$list") modules)"
