#!/usr/bin/env bash
# Build every prefix of the applied series, base first, for each arch, and
# leave the tree at its tip (so the last build is the one that gets tested).
# Usage: ci/bisect.sh TREE BUILDDIR "ARCH..."
# The arches of one prefix build at the same time, from the same checkout:
# one's serial link steps (vmlinux, kallsyms, objtool) overlap the other's
# compiles. Writes PASS lines to BUILDDIR/results/bisect; a broken prefix
# is a harness error (exit 2) that names the patch and the arch.
set -euo pipefail
tree=$1 b=$2 arches=$3
here=$(dirname "$(realpath "$0")")
results=$b/results/bisect
mkdir -p "$b/results"
: >"$results"

mapfile -t commits < <(git -C "$tree" rev-list --reverse base..series)
trap 'git -C "$tree" checkout -q series' EXIT
k=0
for c in base "${commits[@]}"; do
	git -C "$tree" checkout -q --detach "$c"
	name=$(printf '%04d-%s' $k "$(git -C "$tree" log -1 --format=%f "$c")")
	[ $k = 0 ] && name=0000-base
	validate=known; [ $k = ${#commits[@]} ] && validate=strict
	start=$(date +%s)
	declare -A pid=()
	for a in $arches; do
		mkdir -p "$b/out-$a"
		VALIDATE=$validate "$here/build.sh" "$tree" "$b/out-$a" "$a" \
			>"$b/out-$a/bisect.log" 2>&1 &
		pid[$a]=$!
	done
	broken=
	for a in $arches; do
		wait "${pid[$a]}" || broken="$broken $a"
	done
	for a in $arches; do
		case " $broken " in
		*" $a "*) sed 's/^/  /' "$b/out-$a/bisect.log" >&2
			  echo "bisect: prefix $name does not build for $a" >&2 ;;
		esac
	done
	[ -z "$broken" ] || exit 2
	echo "bisect: [$k/${#commits[@]}] $arches $name ($(($(date +%s) - start))s)" >&2
	for a in $arches; do
		echo "PASS $a/bisect/$name" >>"$results"
	done
	k=$((k + 1))
done
