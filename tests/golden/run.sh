#!/usr/bin/env bash
# Golden-file tests for the harness's log parsers. Each canned input names
# the verdict it must get; a parser that changes its mind fails here.
# Usage: tests/golden/run.sh TREE ; prints PASS/FAIL result lines.
set -euo pipefail
tree=$(realpath "$1")
g=$(dirname "$(realpath "$0")")
ci=$g/../../ci
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

say() { if [ "$2" = "$3" ]; then echo "PASS host/golden/$1"; else
	echo "FAIL host/golden/$1 (expected $3, got $2)"; fi; }

# Splat scanner: NAME.pass.log must exit 0, NAME.fail.log must exit 1.
for log in "$g"/splats/*.log; do
	want=$(basename "$log" .log); want=${want##*.}
	rc=0; "$ci/scan-splats.py" "$ci/splat-denylist" "$ci/splat-windows" "$log" >/dev/null || rc=$?
	got=pass; [ $rc = 1 ] && got=fail; [ $rc -gt 1 ] && got=error$rc
	say "splats/$(basename "$log" .log)" $got "$want"
done
# ...and a denylist with nothing in it is an error, never a clean scan.
printf '# only comments\n\n' >"$tmp/empty-deny"
rc=0; "$ci/scan-splats.py" "$tmp/empty-deny" "$ci/splat-windows" "$g/splats/warn.fail.log" \
	>/dev/null 2>&1 || rc=$?
say splats/empty-denylist "$rc" 2

# test_bpf summaries: NAME.MODE.{pass,fail}.log. The hardened ones are
# judged against the long-jump tests of this tree's lib/test_bpf.c.
gcc -O2 -Wall -o "$tmp/bpfsum-check" "$g/bpfsum-check.c" "$g/../guest/bpfsum.c"
"$ci/harden-refusals.sh" "$tree" >"$tmp/refusals"
for log in "$g"/bpfsum/*.log; do
	IFS=. read -r name mode want _ <<<"$(basename "$log")"
	rc=0; "$tmp/bpfsum-check" "$mode" "$log" "$tmp/refusals" >/dev/null || rc=$?
	got=pass; [ $rc = 1 ] && got=fail; [ $rc -gt 1 ] && got=error$rc
	say "bpfsum/$name.$mode" $got "$want"
done
# ...and the list is pinned: a test_bpf.c with one more long-jump test is an error.
mkdir -p "$tmp/tree/lib"
sed '0,/^\t\t"Staggered jumps: JMP_JA",$/s//&\n\t},\n\t{\n\t\t"Staggered jumps: JMP_JA again",/' \
	"$tree/lib/test_bpf.c" >"$tmp/tree/lib/test_bpf.c"
rc=0; "$ci/harden-refusals.sh" "$tmp/tree" >/dev/null 2>&1 || rc=$?
say harden-refusals/pinned "$rc" 2

# test_vmalloc summaries: NAME.TESTS.WORKERS.{pass,fail}.log (xN: must fail).
gcc -O2 -Wall -o "$tmp/vmsum-check" "$g/vmsum-check.c" "$g/../guest/vmsum.c"
for log in "$g"/vmsum/*.log; do
	IFS=. read -r name tests workers want _ <<<"$(basename "$log")"
	rc=0; "$tmp/vmsum-check" "$tests" "$workers" "$log" >/dev/null || rc=$?
	got=pass; [ $rc = 1 ] && got=fail; [ $rc -gt 1 ] && got=error$rc
	say "vmsum/$name" $got "$want"
done

# Dynamic text a test made itself: owntext/NAME.{pmd|any}.{pass,fail}/
# holds its ranges and textalias.ko's answers, judged against one
# page-table dump.
gcc -O2 -Wall -Wextra -Werror -o "$tmp/owntext-check" "$g/owntext-check.c"
for d in "$g"/owntext/*/; do
	IFS=. read -r name mode want _ <<<"$(basename "$d")"
	rc=0; "$tmp/owntext-check" "$mode" "$d/ranges" "$g/owntext/ptdump" "$d/aliases" \
		>/dev/null || rc=$?
	got=pass; [ $rc = 1 ] && got=fail; [ $rc -gt 1 ] && got=error$rc
	say "owntext/$name.$mode" $got "$want"
done

# execmem's debugfs files: NAME.{chunks,users,stats}.{pass,fail}, read
# by tests/guest/execstat.h; a passing file with NAME.KIND.expected beside
# it must read as that.
gcc -O2 -Wall -Wextra -Werror -o "$tmp/execstat-check" "$g/execstat-check.c"
for f in "$g"/execstat/*.pass "$g"/execstat/*.fail; do
	IFS=. read -r name kind want <<<"$(basename "$f")"
	rc=0; "$tmp/execstat-check" "$kind" "$f" >"$tmp/execstat.out" || rc=$?
	got=pass; [ $rc = 1 ] && got=fail; [ $rc -gt 1 ] && got=error$rc
	if [ -f "$g/execstat/$name.$kind.expected" ]; then
		diff -u "$g/execstat/$name.$kind.expected" "$tmp/execstat.out" >&2 || got=different
	fi
	say "execstat/$name.$kind" $got "$want"
done

# The picture of execmem's chunks: execmem-map/NAME.RC.ktap must exit RC
# (0 drawn, 1 no chunk line, 2 a malformed one), and print NAME.RC.expected
# where there is one.
for k in "$g"/execmem-map/*.ktap; do
	IFS=. read -r name want _ <<<"$(basename "$k")"
	rc=0; "$ci/execmem-map.py" "$k" --svg "$tmp/map.svg" >"$tmp/map.out" 2>/dev/null || rc=$?
	got=$rc
	if [ -f "${k%.ktap}.expected" ]; then
		diff -u "${k%.ktap}.expected" "$tmp/map.out" >&2 || got=different
		grep -q '</svg>' "$tmp/map.svg" || got=no-svg
	fi
	say "execmem-map/$name" "$got" "$want"
done

# ftrace's startup selftests in a boot log: NAME.{pass,fail}.log.
gcc -O2 -Wall -o "$tmp/ftracelog-check" "$g/ftracelog-check.c" "$g/../guest/ftracelog.c"
for log in "$g"/ftracelog/*.log; do
	IFS=. read -r name want _ <<<"$(basename "$log")"
	rc=0; "$tmp/ftracelog-check" "$log" >/dev/null || rc=$?
	got=pass; [ $rc = 1 ] && got=fail; [ $rc -gt 1 ] && got=error$rc
	say "ftracelog/$name" $got "$want"
done

# Planning the hardened run: harden/NAME.log (a JIT run's log) ->
# NAME.expected; and the quick run: quick/NAME.log (the log of the load
# that looks up BPFSUM_QUICK_END) -> NAME.expected.
for plan in harden quick; do
	for log in "$g/$plan"/*.log; do
		name=$(basename "$log" .log)
		got=same
		"$tmp/bpfsum-check" $plan-loads "$log" | diff -u "$g/$plan/$name.expected" - >&2 ||
			got=different
		say "$plan/$name" $got same
	done
done

# KTAP through the tree's KUnit parser and ci/ktap-report.py: NAME.ktap ->
# NAME.expected. A parser that cannot read its input is a harness error.
for k in "$g"/ktap/*.ktap; do
	name=$(basename "$k" .ktap)
	rc=0; python3 "$ci/ktap-report.py" "$tree" g "$k" /dev/null >"$tmp/$name.out" || rc=$?
	got=same; [ $rc = 0 ] && diff -u "$g/ktap/$name.expected" "$tmp/$name.out" >&2 ||
		got=different
	say "ktap/$name" $got same
done
rc=0; python3 "$ci/ktap-report.py" "$tree" g "$tmp/no-such.ktap" /dev/null >/dev/null 2>&1 || rc=$?
say ktap/unreadable "$rc" 2

# kunit.py's consoles (ci/kunit.sh): ktap-report.py --kunit, NAME.console
# -> NAME.expected, with no done line of ours; a suite the plan promised
# and never printed is missing. Each arch's console must meet its own
# manifest (tests/manifest/kunit-ARCH) and fail the other's: the stub's
# skips are not a backend's passes.
for k in "$g"/kunit/*.console; do
	name=$(basename "$k" .console)
	rc=0; python3 "$ci/ktap-report.py" --kunit "$tree" g "$k" /dev/null >"$tmp/kunit-$name.out" ||
		rc=$?
	got=same; [ $rc = 0 ] && diff -u "$g/kunit/$name.expected" "$tmp/kunit-$name.out" >&2 ||
		got=different
	say "kunit/$name" $got same
done
for t in x86_64:x86_64:PASS arm64:arm64:PASS x86_64:arm64:FAIL arm64:x86_64:FAIL; do
	IFS=: read -r con man want <<<"$t"
	got=$(python3 "$ci/manifest.py" "$g/../manifest/kunit-$man" g "$tmp/kunit-$con.out" \
		"$g/kunit/$con.console" 2>/dev/null | cut -d' ' -f1) || got=error
	say "kunit/$con-console-vs-$man-manifest" "$got" "$want"
done

# Manifests: NAME.{pass,fail}.ktap, reported, held to manifest/manifest
# (a plain one) or manifest-control/manifest (with expected failures:
# make control), the way ci/guest.sh does (--all): "pass" when no line of
# the run's verdicts says FAIL.
for k in "$g"/manifest/*.ktap "$g"/manifest-control/*.ktap; do
	IFS=. read -r name want _ <<<"$(basename "$k")"
	dir=$(basename "$(dirname "$k")")
	python3 "$ci/ktap-report.py" "$tree" g "$k" /dev/null >"$tmp/$name.res"
	if out=$(python3 "$ci/manifest.py" --all "$g/$dir/manifest" g "$tmp/$name.res" "$k" \
		 2>/dev/null); then
		got=pass; grep -q '^FAIL' <<<"$out" && got=fail
	else
		got="error$?"
	fi
	say "$dir/$name" "$got" "$want"
done
printf '# nothing\n' >"$tmp/empty-manifest"
rc=0; python3 "$ci/manifest.py" "$tmp/empty-manifest" g "$tmp/ok.res" "$g/manifest/ok.pass.ktap" \
	>/dev/null 2>&1 || rc=$?
say manifest/empty "$rc" 2

# Mutant verdicts: NAME.BOOTRC.{caught,missed,error}.ktap (the verdict
# channel) and, where there is one, .console (the console log), for a
# mutant that execmem_test_give_back must catch. Only the case's own
# "not ok" is a catch.
for k in "$g"/mutants/*.ktap; do
	IFS=. read -r name rc want _ <<<"$(basename "$k")"
	con=${k%.ktap}.console; [ -f "$con" ] || con=/dev/null
	got=$("$ci/mutant-verdict.sh" execmem_test_give_back "$k" "$con" "$rc" 2>/dev/null) ||
		got=error
	say "mutants/$name" "$got" "$want"
done

# Mutants judged by a guest check: NAME.BOOTRC.{caught,missed,error}.results,
# what ci/guest.sh wrote for run x86_64, judged by bpf_fleet/placement.
for r in "$g"/guest-verdict/*.results; do
	IFS=. read -r name rc want _ <<<"$(basename "$r")"
	got=$("$ci/guest-verdict.sh" x86_64 bpf_fleet/placement "$r" "$rc" 2>/dev/null) ||
		got=error
	say "guest-verdict/$name" "$got" "$want"
done

# reST lint: NAME.{pass,fail}.rst, their kernel-doc directives run on
# demo.c with this tree's scripts/kernel-doc.
for r in "$g"/rst/*.rst; do
	IFS=. read -r name want _ <<<"$(basename "$r")"
	rc=0; python3 "$ci/rst-lint.py" --srctree "$g/rst" --kernel-doc "$tree/scripts/kernel-doc" \
		"$r" >/dev/null 2>&1 || rc=$?
	got=pass; [ $rc = 1 ] && got=fail; [ $rc -gt 1 ] && got=error$rc
	say "rst/$name" $got "$want"
done

# Config validation: NAME.{pass,fail}.config against a canned .config;
# NAME.known-{pass,fail}.config with --known-in a tiny Kconfig tree;
# NAME.first, where there is one, is merged before NAME's fragment.
for c in "$g"/config/*.config; do
	IFS=. read -r name want _ <<<"$(basename "$c")"
	opt=() frags=("$c")
	case $want in known-*) opt=(--known-in "$g/config/tree"); want=${want#known-} ;; esac
	[ -f "$g/config/$name.first" ] && frags=("$g/config/$name.first" "$c")
	rc=0; "$ci/validate-config.sh" "${opt[@]}" "$g/config/dotconfig" "${frags[@]}" 2>/dev/null || rc=$?
	got=pass; [ $rc != 0 ] && got=fail
	say "config/$name" $got "$want"
done

# Bench: metrics of a clean run, with those of its further boots (the
# interleaved cycles, the allocator under icount) from NAME.more/ ->
# NAME.expected.json; a run with a failed result or no done marker, or
# whose boots report a figure twice, is refused; the report table of the
# two.
for k in "$g"/bench/*.ktap; do
	name=$(basename "$k" .ktap)
	more=(); [ -d "$g/bench/$name.more" ] && more=("$g/bench/$name.more"/*.ktap)
	rc=0; python3 "$ci/bench-metrics.py" "$k" "${more[@]}" >"$tmp/$name.json" 2>/dev/null || rc=$?
	if [ -f "$g/bench/$name.expected.json" ]; then
		got=same; [ $rc = 0 ] && diff -u "$g/bench/$name.expected.json" "$tmp/$name.json" >&2 ||
			got=different
		say "bench/$name" $got same
	else
		say "bench/$name" $rc 1
	fi
done
python3 "$ci/bench-report.py" "$g/bench/baseline.expected.json" "$g/bench/patched.expected.json" \
	"$tmp/bench" "$tmp/bench.md" >"$tmp/table" 2>&1 || true
got=same; diff -u "$g/bench/table.expected" "$tmp/table" >&2 || got=different
say bench/report-table $got same
# ...and the page's closing lines: the goals missed, each named by the
# figure it judges, and the undecided ones.
got=same
grep -E '^(Goals missed|Undecided)' "$tmp/bench.md" | diff -u "$g/bench/summary.expected" - >&2 ||
	got=different
say bench/report-summary $got same

# The cover letter's fields (ci/cover.py) over a bench run made of the
# two golden metrics above: letter.in -> letter.expected; a metric the
# run lacks (or a name that is no metric), a table left open, one opened
# inside another, an @end outside one and a row of three value cells are
# errors.
python3 -c 'import json, sys
json.dump({"baseline": json.load(open(sys.argv[1])), "patched": json.load(open(sys.argv[2]))},
          open(sys.argv[3], "w"))' "$g/bench/baseline.expected.json" \
	"$g/bench/patched.expected.json" "$tmp/bench-run.json"
rc=0; python3 "$ci/cover.py" "$g/cover/letter.in" "$tmp/bench-run.json" >"$tmp/letter" || rc=$?
got=same; [ $rc = 0 ] && diff -u "$g/cover/letter.expected" "$tmp/letter" >&2 || got=different
say cover/letter $got same
for t in missing-metric not-a-metric open-table nested-table stray-end four-cells; do
	rc=0; python3 "$ci/cover.py" "$g/cover/$t.in" "$tmp/bench-run.json" >/dev/null 2>&1 || rc=$?
	say "cover/$t" "$rc" 2
done

# The changelogs' bench rows (ci/changelog-rows.py) over the same run:
# 0001 quotes its rows, 0002 another run's; no template is an error.
got=$(python3 "$ci/changelog-rows.py" "$g/changelog-rows/series" "$tmp/bench-run.json" \
	"$g/changelog-rows/rows" 2>/dev/null | cut -d' ' -f1 | tr '\n' ' ') || got=error
say changelog-rows/one-quotes-another-run "$got" "PASS FAIL "
rc=0; python3 "$ci/changelog-rows.py" "$g/changelog-rows/series" "$tmp/bench-run.json" \
	"$tmp" >/dev/null 2>&1 || rc=$?
say changelog-rows/no-templates "$rc" 2

# The stage table of a make check log (ci/stage-report.py): a finished
# run -> finished.expected, with its wall time -> finished-wall.expected,
# one whose stages report CPU time (but one) -> finished-cpu.expected,
# one whose bisect lines report each arch's CPU time (one of them
# malformed, shown as "?") -> prefix-cpu.expected; a log without its
# closing total is an error.
rc=0; python3 "$ci/stage-report.py" "A run" "$g/stages/finished.log" >"$tmp/stages" || rc=$?
got=same; [ $rc = 0 ] && diff -u "$g/stages/finished.expected" "$tmp/stages" >&2 || got=different
say stages/finished $got same
rc=0; python3 "$ci/stage-report.py" "A run" "$g/stages/finished.log" 2285 >"$tmp/stages" || rc=$?
got=same; [ $rc = 0 ] && diff -u "$g/stages/finished-wall.expected" "$tmp/stages" >&2 ||
	got=different
say stages/finished-wall $got same
rc=0; python3 "$ci/stage-report.py" "A run" "$g/stages/finished-cpu.log" 2285 >"$tmp/stages" || rc=$?
got=same; [ $rc = 0 ] && diff -u "$g/stages/finished-cpu.expected" "$tmp/stages" >&2 ||
	got=different
say stages/finished-cpu $got same
rc=0; python3 "$ci/stage-report.py" "A run" "$g/stages/prefix-cpu.log" 900 >"$tmp/stages" || rc=$?
got=same; [ $rc = 0 ] && diff -u "$g/stages/prefix-cpu.expected" "$tmp/stages" >&2 ||
	got=different
say stages/prefix-cpu $got same
rc=0; python3 "$ci/stage-report.py" "A run" "$g/stages/unfinished.log" >/dev/null 2>&1 || rc=$?
say stages/unfinished "$rc" 2

# KASLR for chunks: first_chunk metrics of two boots. Different bases
# pass; the same base twice, a boot with no chunk (0) or none reported,
# and a single boot fail.
c=$g/chunks
for t in a,b:PASS a,a:FAIL a,none:FAIL a,missing:FAIL a:FAIL; do
	files=(); IFS=, read -ra names <<<"${t%%:*}"
	for n in "${names[@]}"; do files+=("$c/$n.ktap"); done
	got=$("$ci/chunks-moved.sh" g "${files[@]}" 2>/dev/null | cut -d' ' -f1) || got=error
	say "chunks-moved/${t%%:*}" "$got" "${t##*:}"
done

# Exports: NAME.WANT/ holds a build's .config and Module.symvers; WANT is
# pass, fail, none (no modules: no verdict) or error.
for d in "$g"/exports/*/; do
	d=${d%/}; rc=0
	out=$("$ci/exports.sh" "$d" g 2>/dev/null) || rc=$?
	case $rc:$out in
	"0:PASS g/exports") got=pass ;;
	"0:FAIL g/exports") got=fail ;;
	0:) got=none ;;
	2:*) got=error ;;
	*) got="rc$rc:$out" ;;
	esac
	say "exports/$(basename "$d")" "$got" "${d##*.}"
done

# The tally: a run with no passes, or any failure, must not exit 0.
printf 'PASS a/x\nFAIL a/y\n' >"$tmp/r1"; printf 'SKIP a/x\n' >"$tmp/r2"
printf 'PASS a/x\nSKIP b/y\n' >"$tmp/r3"
for r in r1:1 r2:1 r3:0; do
	rc=0; "$ci/summary.sh" "$tmp/${r%%:*}" >/dev/null || rc=$?
	say "summary/${r%%:*}" $rc "${r##*:}"
done
