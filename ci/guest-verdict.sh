#!/usr/bin/env bash
# Judge one mutant's guest boot by a check of the guest suite: was it
# caught? The boot must have run to its end ("PASS NAME/boot"): a guest
# that died, however many checks failed before it did, is a harness
# error. Then CHECK's own line decides, by its exact name.
# Usage: ci/guest-verdict.sh NAME CHECK RESULTS BOOT_RC
# (NAME: the run's name, x86_64 or x86_64-pti; CHECK: STEP/CHECK as the
# manifest names it; RESULTS: what ci/guest.sh wrote; BOOT_RC: its exit.)
# Prints "caught" (CHECK said FAIL) or "missed" (PASS) and exits 0;
# exit 2 for anything else.
set -euo pipefail
name=$1 check=$2 results=$3 rc=$4

if [ "$rc" != 0 ] || ! grep -qxF "PASS $name/boot" "$results" 2>/dev/null; then
	echo "guest-verdict: the guest did not run to its end (rc $rc)" >&2; exit 2
fi
if grep -qxF "FAIL $name/guest/$check" "$results"; then
	echo caught
elif grep -qxF "PASS $name/guest/$check" "$results"; then
	echo missed
else
	echo "guest-verdict: $check never reported" >&2; exit 2
fi
