#!/usr/bin/env bash
# Boot one guest and judge it: the guest's KTAP through the tree's
# kunit.py parse, and the console log through the splat scanner.
# Usage: ci/guest.sh ARCH NAME KERNEL INITRAMFS LOGDIR TREE RESULTS
# Writes result lines to RESULTS. Exit 0 when judged (pass or fail),
# 2 for harness errors.
set -euo pipefail
arch=$1 name=$2 kernel=$3 initrd=$4 logs=$5 tree=$6 results=$7
here=$(dirname "$(realpath "$0")")

rc=0
"$here/boot.sh" "$arch" "$kernel" "$initrd" "$logs" "${BOOT_APPEND:-}" || rc=$?
[ $rc = 2 ] && exit 2
{
	if [ $rc = 0 ]; then echo "PASS $name/boot"; else echo "FAIL $name/boot"; fi
	if [ -s "$logs/verdict.ktap" ]; then
		python3 "$tree/tools/testing/kunit/kunit.py" parse \
			--json="$(realpath "$logs")/verdict.json" \
			"$(realpath "$logs")/verdict.ktap" >"$logs/kunit.txt" 2>&1 || true
		python3 "$here/ktap-report.py" "$name/guest" "$logs/verdict.json"
	else
		echo "FAIL $name/guest/no-verdict"
	fi
	src=0
	"$here/scan-splats.sh" "$here/splat-denylist" "$logs/console.log" \
		>"$logs/splats.txt" || src=$?
	case $src in
	0) echo "PASS $name/splats" ;;
	1) echo "FAIL $name/splats"
	   sed 's/^/splat: /' "$logs/splats.txt" | head -20 >&2 ;;
	*) exit 2 ;;
	esac
} >"$results"
grep -v '^PASS' "$results" >&2 || true
