#!/usr/bin/env bash
# Hold a worktree of TREE at the applied series' tip. The variant kernels
# build from it, so that make check can build them while bisect walks TREE
# through the prefixes. Nobody edits it: every call resets it to the tip.
# Usage: ci/tip.sh TREE TIP STAMP (STAMP holds the tip's commit)
set -euo pipefail
tree=$1 tip=$2 rev=$(cat "$3")
if ! git -C "$tip" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$(realpath -m "$tip")" "$rev"
fi
git -C "$tip" checkout -q -f --detach "$rev"
git -C "$tip" clean -q -fd
echo "tip: $tip at $(git -C "$tip" log -1 --format='%h %s')"
