#!/usr/bin/env bash
# Judge one mutant's boot: was it caught by the case that must catch it?
# Usage: ci/mutant-verdict.sh CASE VERDICT_KTAP BOOT_RC
# Prints "caught" (CASE printed its own "not ok") or "missed" (CASE printed
# "ok") and exits 0. Anything else is a harness error, exit 2, never a
# catch: a boot that timed out or whose QEMU failed (BOOT_RC 2), and a
# guest that died or stopped before CASE reported at all. A mutant that
# kills the guest has to be caught by a case that reports first.
set -euo pipefail
case=$1 ktap=$2 rc=$3

if [ "$rc" = 2 ]; then
	echo "mutant-verdict: the boot failed (timeout or QEMU error)" >&2; exit 2
fi
[ -f "$ktap" ] || { echo "mutant-verdict: no verdict file $ktap" >&2; exit 2; }
if grep -Eq "^ *not ok [0-9]+ $case( |\$)" "$ktap"; then
	echo caught
elif grep -Eq "^ *ok [0-9]+ $case( |\$)" "$ktap"; then
	echo missed
else
	echo "mutant-verdict: $case never reported (boot rc $rc)" >&2; exit 2
fi
