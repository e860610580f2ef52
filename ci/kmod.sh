#!/usr/bin/env bash
# Build a folder of out-of-tree test modules against one kernel build.
# Usage: ci/kmod.sh KERNEL_OUT ARCH SRCDIR DEST
# SRCDIR (a Kbuild folder) is copied to DEST and built there, with ccache;
# DEST/modules.order then lists the modules for ci/initramfs.sh. A kernel
# without loadable modules gets none: DEST is removed.
set -euo pipefail
kout=$(realpath "$1") arch=$2 src=$3 dest=$4

case $arch in
x86_64)	cross= ;;
arm64)	cross=aarch64-linux-gnu- ;;
*)	echo "kmod: unknown ARCH '$arch' (x86_64 or arm64)" >&2; exit 2 ;;
esac
rm -rf "$dest"
grep -q '^CONFIG_MODULES=y' "$kout/.config" || exit 0
mkdir -p "$dest"
cp "$src"/* "$dest"/
dest=$(realpath "$dest")
unset MAKEFLAGS MFLAGS
export CCACHE_NOHASHDIR=true CCACHE_DEPEND=true CCACHE_NOCOMPRESS=true
if ! make -C "$kout" M="$dest" ARCH="$arch" CROSS_COMPILE="$cross" \
	CC="ccache ${cross}gcc" modules >"$dest/build.log" 2>&1; then
	cat "$dest/build.log" >&2
	echo "kmod: building $src against $kout failed" >&2
	exit 2
fi
