#!/usr/bin/env bash
# Boot one guest N times in a row with one step of its run (only=STEP),
# each boot judged like make guest, against the lines of the run's
# manifest that belong to STEP. For a check that once failed and passed
# on a rerun: the count of passing boots is the evidence.
# Usage: ci/repeat.sh ARCH NAME KERNEL INITRAMFS LOGDIR TREE RESULTS N STEP
# BOOT_APPEND is passed on, with only=STEP added. Writes each boot's
# lines to LOGDIR/N/results and one line to RESULTS:
# "PASS|FAIL NAME/repeat/STEP (K of N boots passed)". Exit 2 for harness
# errors of its own (no manifest lines for STEP). STEP is a step's name in
# tests/guest/init.c whose results the manifest lists under that name
# (a KUnit module's results carry its suite's name instead).
set -euo pipefail
arch=$1 name=$2 kernel=$3 initrd=$4 logs=$5 tree=$6 results=$7 n=$8 step=$9
here=$(dirname "$(realpath "$0")")
manifest=$here/../tests/manifest/$name

[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "repeat: N must be a positive count, not '$n'" >&2; exit 2; }
[ -n "$step" ] || { echo "repeat: no STEP" >&2; exit 2; }
mkdir -p "$logs"
rm -f "$results"
"$here/step-manifest.sh" "$manifest" "$step" >"$logs/manifest"

passed=0
for i in $(seq 1 "$n"); do
	rm -rf "${logs:?}/$i"
	# A boot that hung or crashed QEMU (a harness error for make guest)
	# is a failed boot here: the count goes on.
	rc=0
	GUEST_MANIFEST=$logs/manifest BOOT_APPEND="${BOOT_APPEND:-} only=$step" \
		"$here/guest.sh" "$arch" "$name" "$kernel" "$initrd" "$logs/$i" "$tree" \
		"$logs/$i/results" || rc=$?
	if [ $rc = 0 ] && grep -q '^PASS' "$logs/$i/results" &&
	   ! grep -qv '^PASS\|^SKIP' "$logs/$i/results"; then
		passed=$((passed + 1))
	fi
	echo "repeat: $name $step: boot $i of $n, $passed passed so far" >&2
done
if [ "$passed" = "$n" ]; then v=PASS; else v=FAIL; fi
echo "$v $name/repeat/$step ($passed of $n boots passed)" >"$results"
