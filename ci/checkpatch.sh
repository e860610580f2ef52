#!/usr/bin/env bash
# Style gate for the series: checkpatch --strict on every patch in series
# (0 errors, 0 warnings, 0 checks), kernel-doc on every C file and
# header the series touches, and a reST lint of its documentation.
# Usage: ci/checkpatch.sh TREE SERIES
# Prints PASS/FAIL result lines. Each check has a floor: "patches" fails
# unless it checked as many patches as TREE has commits in base..series,
# at least one, and kernel-doc and the reST lint fail with nothing to read.
set -euo pipefail
tree=$(realpath "$1") series=$2
root=$(dirname "$(realpath "$series")")
here=$(dirname "$(realpath "$0")")
# checkpatch's SPDX check runs python3 with Debian's python3-ply;
# rst-lint.py wants Debian's python3-docutils.
export PATH=/usr/bin:$PATH

list=$("$here/series.sh" "$series")
commits=$(git -C "$tree" rev-list --count base..series)
checked=0
while read -r p; do
	case $p in ""|*/0000-cover-letter.patch) continue ;; esac
	checked=$((checked + 1))
	name=$(basename "$p" .patch)
	if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --terse --no-summary \
		"$root/$p" 2>&1) && [ -z "$out" ]; then
		echo "PASS host/checkpatch/$name"
	else
		echo "FAIL host/checkpatch/$name"
		sed 's/^/checkpatch: /' <<<"$out" | head -5 >&2
	fi
done <<<"$list"
if [ "$checked" -gt 0 ] && [ "$checked" = "$commits" ]; then
	echo "PASS host/checkpatch/patches ($checked)"
else
	echo "FAIL host/checkpatch/patches ($checked checked, $commits commits in base..series)"
fi

list=$(git -C "$tree" diff --name-only --diff-filter=AM base..series -- '*.c' '*.h')
mapfile -t files < <([ -z "$list" ] || echo "$list")
if [ ${#files[@]} = 0 ]; then
	echo "FAIL host/kernel-doc (the series touches no C file)"
elif out=$(cd "$tree" && scripts/kernel-doc -none "${files[@]}" 2>&1) && [ -z "$out" ]; then
	echo "PASS host/kernel-doc"
else
	echo "FAIL host/kernel-doc"
	sed 's/^/kernel-doc: /' <<<"$out" | head -10 >&2
fi

# Documentation: every reST file the series touches must parse cleanly.
list=$(git -C "$tree" diff --name-only --diff-filter=AM base..series -- '*.rst')
mapfile -t docs < <([ -z "$list" ] || echo "$list")
if [ ${#docs[@]} = 0 ]; then
	echo "FAIL host/rst-lint (the series touches no reST file)"
elif out=$(cd "$tree" && python3 "$here/rst-lint.py" "${docs[@]}" 2>&1); then
	echo "PASS host/rst-lint"
else
	echo "FAIL host/rst-lint"
	sed 's/^/rst-lint: /' <<<"$out" | head -10 >&2
fi
