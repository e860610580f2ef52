#!/usr/bin/env bash
# Mutation check of the KUnit suites: for each line of tests/mutants/list,
# put the defect into a scratch worktree of the series, build x86_64, boot
# mode=kunit and require the named case to print its own "not ok"
# (ci/mutant-verdict.sh). A guest that times out, or dies before the case
# reports, is a harness error, never a catch.
# Usage: ci/mutants.sh TREE WORKDIR [REPORT.md]
# Prints PASS/FAIL lines; with REPORT.md, also writes the table there.
# Exit 0 when every mutant was judged, 2 on a harness error.
set -euo pipefail
tree=$(realpath "$1") work=$2 report=${3:-}
here=$(dirname "$(realpath "$0")")
list=$here/../tests/mutants/list
mkdir -p "$work"
work=$(realpath "$work")
wt=$work/tree
"$here/worktree.sh" "$tree" "$wt" HEAD >/dev/null
trap 'git -C "$tree" worktree remove --force "$wt"' EXIT
rows=$work/rows
: >"$rows"

# Fields are separated by " | " (a sed expression may hold "||").
while IFS=$'\t' read -r name file expr case; do
	git -C "$wt" checkout -q -f HEAD -- .
	sed -i "$expr" "$wt/$file"
	if git -C "$wt" diff --quiet; then
		echo "mutants: $name: the expression changed nothing in $file" >&2; exit 2
	fi
	logs=$work/logs-$name
	if ! "$here/build.sh" "$wt" "$work/out" x86_64 >/dev/null; then
		echo "mutants: $name does not build" >&2; exit 2
	fi
	"$here/initramfs.sh" "$here/../build/gen_init_cpio" "$here/../build" x86_64 \
		"$work/out" "$work/initramfs.cpio" >/dev/null
	rc=0
	BOOT_TIMEOUT=${MUTANT_TIMEOUT:-300} "$here/boot.sh" x86_64 \
		"$work/out/arch/x86/boot/bzImage" "$work/initramfs.cpio" "$logs" \
		mode=kunit 2>"$logs.boot" || rc=$?
	if ! got=$("$here/mutant-verdict.sh" "$case" "$logs/verdict.ktap" "$logs/console.log" "$rc"); then
		cat "$logs.boot" >&2
		echo "mutants: $name: no verdict from $case; see $logs" >&2
		exit 2
	fi
	if [ "$got" = caught ]; then
		echo "PASS mutants/$name (caught by $case)"
	else
		echo "FAIL mutants/$name (not caught by $case)"
	fi
	printf '| %s | `%s` | %s | %s |\n' "$name" "$case" "$file" "$got" >>"$rows"
	grep -h "^ *not ok" "$logs/verdict.ktap" | sed "s/^ */  $name: /" >&2 || true
done < <(awk -F' [|] ' '!/^[[:space:]]*(#|$)/ { print $1 "\t" $2 "\t" $3 "\t" $4 }' "$list")

[ -n "$report" ] || exit 0
{
	echo "# Mutants"
	echo
	echo "The last \`make mutants\`, run on $(date -u +%Y-%m-%d) against the series at"
	echo "\`$(git -C "$tree" rev-parse --short=12 HEAD)\`. Each row is one defect put back into the"
	echo "tree (\`tests/mutants/list\` has the exact edit), the KUnit case that must"
	echo "catch it, and what happened: \"caught\" means that case printed its own"
	echo "\`not ok\`, on the verdict channel or, when the mutant then killed the"
	echo "guest, on the console. A boot that timed out, or a guest that died before"
	echo "the case reported, would have stopped the run as a harness error."
	echo
	echo "| mutant | case | file | verdict |"
	echo "| --- | --- | --- | --- |"
	cat "$rows"
	echo
	echo "$(grep -c '| caught |' "$rows") of $(wc -l <"$rows") caught."
	echo
	sed -n 's/^#: \{0,1\}//p' "$list"
} >"$report"
