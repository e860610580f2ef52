#!/usr/bin/env bash
# Reset the kernel tree to its base commit and apply the series with git am
# (no fuzz). On failure name the patch and the file, and leave the tree at
# base. Usage: ci/apply.sh TREE SERIES STAMP
set -euo pipefail
tree=$1 series=$2 stamp=$3
root=$(dirname "$(realpath "$series")")
here=$(dirname "$(realpath "$0")")
git=(git -C "$tree" -c user.name=execmem-ci -c user.email=ci@execmem.invalid)

rm -f "$stamp"
"${git[@]}" am --abort >/dev/null 2>&1 || true
"${git[@]}" checkout -q -f series
"${git[@]}" reset -q --hard base
"${git[@]}" clean -q -fdx
"${git[@]}" config --unset branch.series.description || true

n=0
while read -r p; do
	n=$((n + 1))
	if [ ! -f "$root/$p" ]; then
		echo "apply: series lists $p, which does not exist" >&2
		"${git[@]}" reset -q --hard base
		exit 2
	fi
	case $p in
	*/0000-cover-letter.patch)
		# The cover letter's prose lives in the branch description, which
		# export hands back to format-patch.
		"$here/cover-text.sh" "$root/$p" | "${git[@]}" config branch.series.description "$(cat)"
		continue ;;
	esac
	if ! out=$("${git[@]}" am -q --keep-cr "$root/$p" 2>&1); then
		file=$(sed -n 's/^error: patch failed: \([^:]*\):.*/\1/p; s/^error: \([^:]*\): does not exist in index/\1/p' <<<"$out" | head -1)
		echo "apply: $p does not apply${file:+ (fails in $file)}" >&2
		sed 's/^/apply:   /' <<<"$out" | head -5 >&2
		"${git[@]}" am --abort >/dev/null 2>&1 || true
		"${git[@]}" reset -q --hard base
		exit 2
	fi
done < <("$here/series.sh" "$series")
"${git[@]}" rev-parse HEAD >"$stamp"
echo "apply: $n entries from $series on $("${git[@]}" describe --always --tags HEAD)"
