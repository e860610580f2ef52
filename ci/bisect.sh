#!/usr/bin/env bash
# Build every prefix of the applied series for each arch, and leave the
# tree at its tip (so the last build is the one that gets tested).
# Usage: ci/bisect.sh TREE BUILDDIR "ARCH..."
# The arches of one prefix build at the same time, from the same checkout:
# one's serial link steps (vmlinux, kallsyms, objtool) overlap the other's
# compiles. Each build is incremental on the last prefix built for that
# arch. A patch that changes nothing an arch's build reads (only
# Documentation/ text, MAINTAINERS, or another arch's arch/ folder) is not
# rebuilt for that arch: its sources there are those of the previous
# prefix, byte for byte, and its PASS line says so. The tip is always
# built for every arch, boot images included. Earlier prefixes build
# vmlinux and the modules: the boot image adds the compressed vmlinux, the
# decompressor and the setup code, so a prefix whose patch touches an
# arch/*/boot/ folder builds it too. Writes PASS lines to
# BUILDDIR/results/bisect; a broken prefix is a harness error (exit 2)
# that names the patch and the arch. The floor: base..series must hold as
# many commits as the series file lists patches, at least one, or nothing
# is built and that is a harness error too; each arch closes with a
# "prefixes" line that counts what it passed. TIP_VARIANTS="ARCH:VARIANT
# ..." builds an arch's tip as that variant (arm64:nomod: every earlier
# prefix with modules, the tip, which make check boots, without).
set -euo pipefail
tree=$1 b=$2 arches=$3
here=$(dirname "$(realpath "$0")")
results=$b/results/bisect
mkdir -p "$b/results"
: >"$results"

# Does the commit whose changed files are $files change one that arch
# $1's build reads?
reads() {
	local karch=$1; [ "$karch" = x86_64 ] && karch=x86
	awk -v karch="$karch" '
		/^Documentation\// && !/Kconfig/ { next }
		$0 == "MAINTAINERS" { next }
		/^arch\// { split($0, d, "/"); if (d[2] != karch) next }
		{ found = 1 }
		END { exit !found }' <<<"$files"
}

# Run CMD... and, if it succeeds, write to FILE the CPU seconds of all it
# ran (ci/cputime.sh): each arch's share of a prefix, whose builds
# overlap. Usage: timed FILE CMD...
timed() {
	local out=$1; shift
	(
		"$@"
		"$here/cputime.sh" $BASHPID >"$out"
	)
}

list=$(git -C "$tree" rev-list --reverse base..series)
want=$("$here/series.sh" "$here/../series" | grep -vc '/0000-cover-letter\.patch$' || true)
mapfile -t commits < <([ -z "$list" ] || echo "$list")
if [ ${#commits[@]} = 0 ] || [ "${#commits[@]}" != "$want" ]; then
	echo "bisect: base..series holds ${#commits[@]} commits, the series file $want patches" >&2
	exit 2
fi
trap 'git -C "$tree" checkout -q series' EXIT
declare -A last=()
k=1
for c in "${commits[@]}"; do
	git -C "$tree" checkout -q --detach "$c"
	name=$(printf '%04d-%s' $k "$(git -C "$tree" log -1 --format=%f "$c")")
	files=$(git -C "$tree" diff --name-only "$c^" "$c")
	validate=known targets="vmlinux modules"
	[ $k = ${#commits[@]} ] && validate=strict targets=
	grep -q '^arch/[^/]*/boot/' <<<"$files" && targets=
	start=$(date +%s)
	declare -A pid=()
	built=
	for a in $arches; do
		if [ -n "${last[$a]:-}" ] && [ $k != ${#commits[@]} ] && ! reads "$a"; then
			echo "PASS $a/bisect/$name # $a sources as in ${last[$a]%%-*}" >>"$results"
			continue
		fi
		built="$built $a"
		last[$a]=$name
		mkdir -p "$b/out-$a"
		variant=
		if [ $k = ${#commits[@]} ]; then
			for tv in ${TIP_VARIANTS:-}; do
				[ "${tv%%:*}" = "$a" ] && variant=${tv#*:}
			done
		fi
		VALIDATE=$validate TARGETS=$targets timed "$b/out-$a/bisect.cpu" \
			"$here/build.sh" "$tree" "$b/out-$a" "$a" $variant >"$b/out-$a/bisect.log" 2>&1 &
		pid[$a]=$!
	done
	broken=
	for a in $built; do
		wait "${pid[$a]}" || broken="$broken $a"
	done
	for a in $broken; do
		sed 's/^/  /' "$b/out-$a/bisect.log" >&2
		echo "bisect: prefix $name does not build for $a" >&2
	done
	[ -z "$broken" ] || exit 2
	cpu=
	for a in $built; do
		cpu="$cpu, $a $(cat "$b/out-$a/bisect.cpu")s"
	done
	echo "bisect: [$k/${#commits[@]}]${built:- (none)} $name ($(($(date +%s) - start))s${cpu:+; cpu ${cpu#, }})" >&2
	for a in $built; do
		echo "PASS $a/bisect/$name" >>"$results"
	done
	k=$((k + 1))
done
for a in $arches; do
	n=$(grep -c "^PASS $a/bisect/" "$results" || true)
	if [ "$n" = ${#commits[@]} ]; then
		echo "PASS $a/bisect/prefixes ($n)"
	else
		echo "FAIL $a/bisect/prefixes ($n of ${#commits[@]})"
	fi >>"$results"
done
