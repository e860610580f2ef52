#!/usr/bin/env bash
# Refuse to build a tree that is not exactly the applied series: edits in
# the tree must go through 'make export' first, or be dropped by
# 'make apply'. Usage: ci/tree-clean.sh TREE STAMP
set -euo pipefail
tree=$1 stamp=$2
head=$(git -C "$tree" rev-parse HEAD)
if [ "$head" != "$(cat "$stamp")" ] || ! git -C "$tree" diff --quiet HEAD; then
	echo "tree: $tree differs from the exported series; run 'make export' to keep the change or 'make apply' to drop it" >&2
	exit 2
fi
