#!/usr/bin/env bash
# Boot one guest and judge it: the guest's KTAP through the tree's KUnit
# parser (ci/ktap-report.py), held to the run's manifest (whose "fail"
# lines turn expected failures into passes: make control), and the
# console log through the splat scanner.
# Usage: ci/guest.sh ARCH NAME KERNEL INITRAMFS LOGDIR TREE RESULTS
# Writes result lines to RESULTS. Exit 0 when judged (pass or fail),
# 2 for harness errors (QEMU, a timeout, a parser that crashed, no
# manifest). Nothing from an earlier run survives into this one.
# With EXPORTS_OF=KERNEL_OUT, also judges that build's exports
# (ci/exports.sh): the boot that first runs a kernel does, once. With
# GUEST_MANIFEST=FILE, the run is held to FILE (ci/repeat.sh and
# ci/mutants.sh: one step's lines).
set -euo pipefail
arch=$1 name=$2 kernel=$3 initrd=$4 logs=$5 tree=$6 results=$7
here=$(dirname "$(realpath "$0")")
manifest=${GUEST_MANIFEST:-$here/../tests/manifest/$name}

rm -f "$results"
mkdir -p "$logs"
rm -f "$logs"/{verdict.ktap,verdict.json,kunit.txt,report.txt,splats.txt,console.log}
[ -f "$manifest" ] || { echo "guest: no manifest $manifest" >&2; exit 2; }

rc=0
"$here/boot.sh" "$arch" "$kernel" "$initrd" "$logs" "${BOOT_APPEND:-}" || rc=$?
[ $rc = 2 ] && exit 2
tmp=$results.tmp
{
	if [ $rc = 0 ]; then echo "PASS $name/boot"; else echo "FAIL $name/boot"; fi
	if [ -s "$logs/verdict.ktap" ]; then
		python3 "$here/ktap-report.py" "$tree" "$name/guest" "$logs/verdict.ktap" \
			"$logs/kunit.txt" >"$logs/report.txt" || exit 2
		python3 "$here/manifest.py" --all "$manifest" "$name/guest" "$logs/report.txt" \
			"$logs/verdict.ktap" || exit 2
	else
		echo "FAIL $name/guest/no-verdict"
	fi
	src=0
	"$here/scan-splats.py" "$here/splat-denylist" "$here/splat-windows" \
		"$logs/console.log" >"$logs/splats.txt" || src=$?
	case $src in
	0) echo "PASS $name/splats" ;;
	1) echo "FAIL $name/splats"
	   { sed 's/^/splat: /' "$logs/splats.txt" | head -20 >&2; } || true ;;
	*) exit 2 ;;
	esac
	if [ -n "${EXPORTS_OF:-}" ]; then
		"$here/exports.sh" "$EXPORTS_OF" "$name" || exit 2
	fi
} >"$tmp"
mv "$tmp" "$results"
grep -v '^PASS' "$results" >&2 || true
