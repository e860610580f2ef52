#!/usr/bin/env bash
# The control run: the pristine base kernel (make base: TREE's tag
# 'base', built from the same config fragments as the x86_64 kernel
# under test), booted with the same guest and the same command line,
# and judged against tests/manifest/x86_64-control. There the peer
# suites must pass and every check of what execmem brings must fail: a
# check that passes on a kernel without execmem cannot tell the series
# from no series. The manifest says, for each check that passes on both,
# why it must.
# Usage: ci/control.sh TREE BASE_OUT BINDIR WORKDIR RESULTS BOOT_APPEND
# (BINDIR: gen_init_cpio and the guest programs.) Writes result lines to
# RESULTS; exit 0 when judged, 2 on a harness error.
set -euo pipefail
tree=$(realpath "$1") out=$2 bin=$3 work=$4 results=$5 append=$6
here=$(dirname "$(realpath "$0")")
mkdir -p "$work"
work=$(realpath "$work")

"$here/kmod.sh" "$out" x86_64 "$here/../tests/kmod" "$work/kmod"
"$here/initramfs.sh" "$bin/gen_init_cpio" "$bin" x86_64 "$out" \
	"$work/initramfs.cpio" "$work/kmod" >/dev/null
BOOT_APPEND=$append "$here/guest.sh" x86_64 x86_64-control \
	"$out/arch/x86/boot/bzImage" "$work/initramfs.cpio" "$work/logs" "$tree" "$results"
