#!/usr/bin/env bash
# The tests the hardened test_bpf run may refuse, by name, from the tree's
# lib/test_bpf.c: the long-jump tests. Under bpf_jit_harden=2 constant
# blinding grows their programs until a conditional jump no longer fits
# 16 bits, blinding fails, and 6.1.192 refuses a program whose JIT was
# required (err=-524) rather than interpret it. Nothing else may be
# refused. The count is pinned: a test_bpf that gains or loses such tests
# is a change to review, not to absorb.
# Usage: ci/harden-refusals.sh TREE ; prints one name a line.
set -euo pipefail
src=$1/lib/test_bpf.c
pinned=49

[ -f "$src" ] || { echo "harden-refusals: no $src" >&2; exit 2; }
names=$(sed -n 's/^\t\t"\(Long conditional jump: [^"]*\|Staggered jumps: [^"]*\)",$/\1/p' "$src")
n=$(grep -c . <<<"$names" || true)
if [ "$n" != "$pinned" ]; then
	echo "harden-refusals: $src has $n long-jump tests, the list is pinned at $pinned" >&2
	exit 2
fi
printf '%s\n' "$names"
