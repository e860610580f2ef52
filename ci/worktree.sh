#!/usr/bin/env bash
# Hold DIR as a worktree of TREE, detached at REV (resolved in TREE) and
# clean: added on first use, reset on every later one. Builds that must
# not see TREE's checkout move (the variant kernels beside bisect, the
# bench baseline, the mutants) work in such a worktree.
# Usage: ci/worktree.sh TREE DIR REV
set -euo pipefail
tree=$1 dir=$2 rev=$(git -C "$1" rev-parse --verify "$3^{commit}")
# DIR/.git, not 'git -C DIR': an empty DIR would find the repository around it.
if [ ! -e "$dir/.git" ]; then
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$(realpath -m "$dir")" "$rev"
fi
git -C "$dir" checkout -q -f --detach "$rev"
git -C "$dir" clean -q -fd
echo "worktree: $dir at $(git -C "$dir" log -1 --format='%h %s')"
