#!/usr/bin/env bash
# Mutation check: for each line of tests/mutants/list, put the defect into
# a scratch worktree of the series, check that every part of the edit
# applied (the count of changed lines), build x86_64, boot, and require
# the named check to fail on its own (ci/mutant-verdict.sh).
#
# A check is either a KUnit case (booted mode=kunit) or PROFILE:CHECK, a
# result of the guest suite: the step CHECK begins with runs alone
# (only=STEP) in the boot PROFILE names (see profile() below), and the
# boot is judged against that step's manifest lines (ci/guest.sh). Such a
# mutant is caught when the guest ran to its end and CHECK says FAIL.
#
# Before any mutant, the unmutated tree is built and booted the same
# ways, and every check the list names must pass there: a check that
# fails on the control would "catch" every mutant. A guest that times
# out, or dies before the check reports, is a harness error, never a
# catch.
# Usage: ci/mutants.sh TREE WORKDIR [REPORT.md]
# MUTANTS="name ..." runs only those mutants (after the control boots of
# their checks) and writes no report. FLEET says what BPF's text is on
# (make guest's fleet=, execmem on x86_64). Prints PASS/FAIL lines. Exit 0
# when every mutant was judged, 2 on a harness error.
set -euo pipefail
tree=$(realpath "$1") work=$2 report=${3:-}
here=$(dirname "$(realpath "$0")")
list=$here/../tests/mutants/list
only=${MUTANTS:-}
[ -z "$only" ] || report=
mkdir -p "$work"
work=$(realpath "$work")
wt=$work/tree
"$here/worktree.sh" "$tree" "$wt" HEAD >/dev/null
trap 'git -C "$tree" worktree remove --force "$wt"' EXIT
rows=$work/rows
: >"$rows"

die() { echo "mutants: $*" >&2; exit 2; }

# A guest boot profile: the manifest it is judged by, QEMU's CPU, and
# what it adds to the kernel's command line. "guest" is make guest's boot;
# "pti" is make layout's boot with PTI on (LAYOUT_pti in the Makefile:
# QEMU_CPU=Nehalem, a CPU that needs it).
profile() {
	case $1 in
	guest)	pname=x86_64 pcpu=max pappend="fleet=${FLEET:?FLEET= is not set}" ;;
	pti)	pname=x86_64-pti pcpu=Nehalem pappend="mode=layout fleet=execmem tail=off user=yes" ;;
	*)	die "no boot profile '$1'" ;;
	esac
}

# The lines of the list: name, file, lines changed, sed expression, check.
# Fields are separated by " | " (a sed expression may hold "||").
awk -F' [|] ' '!/^[[:space:]]*(#|$)/ && (NF != 5 || $3 !~ /^[1-9][0-9]*$/) {
	print "mutants: bad line: " $0; bad = 1 } END { exit bad }' "$list" >&2 || exit 2
names=$(awk -F' [|] ' '!/^[[:space:]]*(#|$)/ { print $1 }' "$list")
for n in $only; do
	grep -qxF -- "$n" <<<"$names" || die "MUTANTS names '$n', which the list does not"
done
# The entries to run, tab-separated: all, or those MUTANTS names.
entries() {
	awk -F' [|] ' -v only=" $only " '!/^[[:space:]]*(#|$)/ &&
		(only ~ /^ *$/ || index(only, " " $1 " ")) {
		print $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5 }' "$list"
}

# Put mutant NAME's edit into the worktree; every part of it must apply.
# The count is of lines the edit changed or deleted (git's numstat), so
# an edit must change lines, not only add them.
mutate() {
	local name=$1 file=$2 lines=$3 expr=$4 got
	git -C "$wt" checkout -q -f HEAD -- . || die "cannot reset $wt"
	sed -i "$expr" "$wt/$file" || die "$name: sed cannot apply its expression to $file"
	got=$(git -C "$wt" diff --numstat -- "$file" | awk '{ n += $2 } END { print n + 0 }')
	[ "$got" = "$lines" ] ||
		die "$name: the expression changed $got lines of $file, the list says $lines"
}

build() {
	"$here/build.sh" "$wt" "$work/out" x86_64 >/dev/null || return 1
	"$here/kmod.sh" "$work/out" x86_64 "$here/../tests/kmod" "$work/kmod" >/dev/null ||
		return 1
	"$here/initramfs.sh" "$here/../build/gen_init_cpio" "$here/../build" x86_64 \
		"$work/out" "$work/initramfs.cpio" "$work/kmod" >/dev/null
}

# Boot the built kernel into LOGS the way CHECK needs.
boot() {
	local check=$1 logs=$2 rc=0
	rm -rf "$logs" && mkdir -p "$logs" || return 2
	if [[ $check != *:* ]]; then
		BOOT_TIMEOUT=${MUTANT_TIMEOUT:-300} "$here/boot.sh" x86_64 \
			"$work/out/arch/x86/boot/bzImage" "$work/initramfs.cpio" "$logs" \
			mode=kunit 2>"$logs/boot.err" || rc=$?
	else
		profile "${check%%:*}"
		local step=${check#*:}
		step=${step%%/*}
		"$here/step-manifest.sh" "$here/../tests/manifest/$pname" "$step" \
			>"$logs/manifest" || return 2
		GUEST_MANIFEST=$logs/manifest QEMU_CPU=$pcpu BOOT_TIMEOUT=${MUTANT_TIMEOUT:-600} \
			BOOT_APPEND="$pappend only=$step" \
			"$here/guest.sh" x86_64 "$pname" "$work/out/arch/x86/boot/bzImage" \
			"$work/initramfs.cpio" "$logs" "$tree" "$logs/results" 2>"$logs/boot.err" ||
			rc=$?
	fi
	echo "$rc" >"$logs/rc"
}

# What the boot in LOGS says of CHECK: "caught" (CHECK failed) or
# "missed" (CHECK passed). Anything else is a harness error, exit 2.
verdict() {
	local check=$1 logs=$2 rc
	rc=$(cat "$logs/rc")
	if [[ $check != *:* ]]; then
		"$here/mutant-verdict.sh" "$check" "$logs/verdict.ktap" "$logs/console.log" "$rc" ||
			{ cat "$logs/boot.err" >&2; return 2; }
		return 0
	fi
	profile "${check%%:*}"
	"$here/guest-verdict.sh" "$pname" "${check#*:}" "$logs/results" "$rc" ||
		{ echo "mutants: see $logs" >&2; return 2; }
}

# Every edit first, so that a stale one stops the run before any boot.
while IFS=$'\t' read -r name file lines expr _; do
	mutate "$name" "$file" "$lines" "$expr"
done < <(entries)

# The control: the unmutated tree, booted once for the KUnit cases and
# once for each step the guest checks belong to. Every check named must
# pass there.
git -C "$wt" checkout -q -f HEAD -- . || die "cannot reset $wt"
build || die "the unmutated tree does not build"
declare -A boots=()
while IFS=$'\t' read -r _ _ _ _ check; do
	if [[ $check == *:* ]]; then key=${check%%/*}; else key=kunit; fi
	[[ " ${boots[$key]:-} " == *" $check "* ]] || boots[$key]+="$check "
done < <(entries)
for key in "${!boots[@]}"; do
	logs=$work/logs-control-${key//[:\/]/-}
	read -ra checks <<<"${boots[$key]}"
	boot "${checks[0]}" "$logs" || die "control: cannot boot for ${checks[0]}"
	for check in "${checks[@]}"; do
		got=$(verdict "$check" "$logs") || die "control: no verdict from $check; see $logs"
		[ "$got" = missed ] || die "control: $check fails on the unmutated tree; see $logs"
	done
	echo "PASS mutants/control/$key (${#checks[@]} checks pass unmutated)"
done

while IFS=$'\t' read -r name file lines expr check; do
	mutate "$name" "$file" "$lines" "$expr"
	logs=$work/logs-$name
	build || die "$name does not build"
	boot "$check" "$logs" || die "$name: cannot boot for $check"
	got=$(verdict "$check" "$logs") || die "$name: no verdict from $check; see $logs"
	if [ "$got" = caught ]; then
		echo "PASS mutants/$name (caught by $check)"
	else
		echo "FAIL mutants/$name (not caught by $check)"
	fi
	printf '| %s | `%s` | %s | %s |\n' "$name" "$check" "$file" "$got" >>"$rows"
	# For the record: everything else the mutant made fail.
	{ grep -h "^ *not ok" "$logs/verdict.ktap" 2>/dev/null || true
	  grep -h "^FAIL" "$logs/results" 2>/dev/null || true; } | sed "s/^ */  $name: /" >&2
done < <(entries)

[ -n "$report" ] || exit 0
{
	echo "# Mutants"
	echo
	echo "The last \`make mutants\`, run on $(date -u +%Y-%m-%d) against the series at"
	echo "\`$(git -C "$tree" rev-parse --short=12 HEAD)\`. Each row is one defect put back into the"
	echo "tree (\`tests/mutants/list\` has the exact edit, and the number of lines it"
	echo "must change), the check that must catch it, and what happened. A check is"
	echo "a KUnit case, booted \`mode=kunit\`, or a result of the guest suite"
	echo "(\`PROFILE:STEP/CHECK\`), its step run alone in that boot. \"caught\" means"
	echo "that check failed on its own: a KUnit case printed its own \`not ok\`; a"
	echo "guest check said FAIL in a guest that ran to its end. Before the first"
	echo "mutant, the unmutated tree was booted the same ways and every check named"
	echo "here passed. A boot that timed out, or a guest that died before the check"
	echo "reported, would have stopped the run as a harness error."
	echo
	echo "| mutant | check | file | verdict |"
	echo "| --- | --- | --- | --- |"
	cat "$rows"
	echo
	echo "$(grep -c '| caught |' "$rows") of $(wc -l <"$rows") caught; the run took $(( (SECONDS + 59) / 60 )) minutes."
	echo
	sed -n 's/^#: \{0,1\}//p' "$list"
} >"$report"
