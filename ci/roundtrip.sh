#!/usr/bin/env bash
# Prove that export reproduces the committed series byte for byte from the
# applied tree. Usage: ci/roundtrip.sh TREE REPO
set -euo pipefail
tree=$1 repo=$2
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$here/export.sh" "$tree" "$tmp" >/dev/null
diff -ru "$repo/series" "$tmp/series"
for d in patches-core patches-x86 patches-arm64-stub; do
	diff -ru -x .gitkeep -x README "$repo/$d" "$tmp/$d"
done
