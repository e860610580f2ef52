#!/usr/bin/env bash
# Mutation check of the KUnit suite: for each line of tests/mutants/list,
# put the defect into a scratch worktree of the series, build x86_64,
# boot mode=kunit and require the named case to fail.
# A guest that dies (a hang the mutant causes, say) before the named case
# reports also counts as caught: a missing verdict is a failure.
# Usage: ci/mutants.sh TREE WORKDIR ; prints PASS/FAIL lines.
set -euo pipefail
tree=$(realpath "$1") work=$2
here=$(dirname "$(realpath "$0")")
list=$here/../tests/mutants/list
mkdir -p "$work"
work=$(realpath "$work")
wt=$work/tree
git -C "$tree" worktree remove --force "$wt" 2>/dev/null || true
git -C "$tree" worktree add -q --detach "$wt" HEAD
trap 'git -C "$tree" worktree remove --force "$wt"' EXIT

grep -vE '^[[:space:]]*(#|$)' "$list" | while IFS='|' read -r name expr case; do
	name=$(echo $name) case=$(echo $case) expr=${expr# }; expr=${expr% }
	git -C "$wt" checkout -q -f HEAD -- mm/execmem.c
	sed -i "$expr" "$wt/mm/execmem.c"
	if git -C "$wt" diff --quiet; then
		echo "FAIL mutants/$name (the expression changed nothing)"; continue
	fi
	logs=$work/logs-$name
	"$here/build.sh" "$wt" "$work/out" x86_64 >/dev/null
	"$here/initramfs.sh" "$here/../build/gen_init_cpio" "$here/../build" x86_64 \
		"$work/out" "$work/initramfs.cpio" >/dev/null
	BOOT_TIMEOUT=240 "$here/boot.sh" x86_64 "$work/out/arch/x86/boot/bzImage" \
		"$work/initramfs.cpio" "$logs" mode=kunit 2>/dev/null || true
	if grep -q "^ *not ok [0-9]* $case\b" "$logs/verdict.ktap" 2>/dev/null; then
		echo "PASS mutants/$name (caught by $case)"
	elif ! grep -q '^# execmem-guest: done' "$logs/verdict.ktap" 2>/dev/null &&
	     ! grep -q "^ *ok [0-9]* $case\b" "$logs/console.log"; then
		echo "PASS mutants/$name (the guest died before $case reported)"
	else
		echo "FAIL mutants/$name (not caught by $case)"
	fi
	grep -h "^ *not ok" "$logs/verdict.ktap" 2>/dev/null | sed "s/^ */  $name: /" >&2 || true
done
