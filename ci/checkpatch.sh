#!/usr/bin/env bash
# Style gate for the series: checkpatch --strict on every patch in series
# (0 errors, 0 warnings, 0 checks), kernel-doc on every C file and
# header the series touches, and a reST lint of its documentation. Usage: ci/checkpatch.sh TREE SERIES
# Prints PASS/FAIL result lines.
set -euo pipefail
tree=$(realpath "$1") series=$2
root=$(dirname "$(realpath "$series")")
here=$(dirname "$(realpath "$0")")
# checkpatch's SPDX check runs python3 with Debian's python3-ply;
# rst-lint.py wants Debian's python3-docutils.
export PATH=/usr/bin:$PATH

while read -r p; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	name=$(basename "$p" .patch)
	if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --terse --no-summary \
		"$root/$p" 2>&1) && [ -z "$out" ]; then
		echo "PASS host/checkpatch/$name"
	else
		echo "FAIL host/checkpatch/$name"
		sed 's/^/checkpatch: /' <<<"$out" | head -5 >&2
	fi
done < <("$here/series.sh" "$series")

mapfile -t files < <(git -C "$tree" diff --name-only --diff-filter=AM base..series -- '*.c' '*.h')
if [ ${#files[@]} = 0 ]; then
	:
elif out=$(cd "$tree" && scripts/kernel-doc -none "${files[@]}" 2>&1) && [ -z "$out" ]; then
	echo "PASS host/kernel-doc"
else
	echo "FAIL host/kernel-doc"
	sed 's/^/kernel-doc: /' <<<"$out" | head -10 >&2
fi

# Documentation: every reST file the series touches must parse cleanly.
mapfile -t docs < <(git -C "$tree" diff --name-only --diff-filter=AM base..series -- '*.rst')
[ ${#docs[@]} = 0 ] && exit 0
if out=$(cd "$tree" && python3 "$here/rst-lint.py" "${docs[@]}" 2>&1); then
	echo "PASS host/rst-lint"
else
	echo "FAIL host/rst-lint"
	sed 's/^/rst-lint: /' <<<"$out" | head -10 >&2
fi
