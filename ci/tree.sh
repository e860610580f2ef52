#!/usr/bin/env bash
# Unpack Debian's linux-source-6.1 into a git tree with a single base commit.
# Usage: ci/tree.sh TARBALL DEST
set -euo pipefail
tarball=$1 dest=$2

if [ ! -f "$tarball" ]; then
	echo "tree: $tarball is missing; install the Debian package linux-source-6.1 (make deps)" >&2
	exit 2
fi

tmp=$dest.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
tar -xaf "$tarball" -C "$tmp" --strip-components=1
# Debian's top-level .gitignore ignores everything ("/*"); drop that rule so
# the tree can be tracked.
sed -i '\#^/\*$#d' "$tmp/.gitignore"
git -C "$tmp" init -q -b series
git -C "$tmp" add -A
git -C "$tmp" -c user.name=execmem-ci -c user.email=ci@execmem.invalid \
	-c commit.gpgsign=false commit -q -m "linux-source-6.1 $(basename "$tarball")"
git -C "$tmp" tag base
rm -rf "$dest"
mv "$tmp" "$dest"
echo "tree: $dest at $(git -C "$dest" rev-parse --short base)"
