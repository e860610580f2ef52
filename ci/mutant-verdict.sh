#!/usr/bin/env bash
# Judge one mutant's boot: was it caught by the case that must catch it?
# Usage: ci/mutant-verdict.sh CASE VERDICT_KTAP CONSOLE_LOG BOOT_RC
# Prints "caught" (CASE printed its own "not ok") or "missed" (CASE printed
# "ok") and exits 0. The guest's verdict channel is read first; a guest
# that dies after the case reported (a mutant that breaks the kernel
# for whatever runs next) never copies the suite there, so the kernel's
# own KTAP line on the console counts too, its PRINTK_TIME stamp taken
# off. Anything else is a harness error, exit 2, never a catch: a boot
# that timed out or whose QEMU failed (BOOT_RC 2), and a guest that died
# or stopped before CASE reported at all.
set -euo pipefail
case=$1 ktap=$2 console=$3 rc=$4

if [ "$rc" = 2 ]; then
	echo "mutant-verdict: the boot failed (timeout or QEMU error)" >&2; exit 2
fi
lines=$( { cat "$ktap" 2>/dev/null || true
	   sed -n 's/^\[ *[0-9]*\.[0-9]*\] //p' "$console" 2>/dev/null || true; } |
	grep -E "^ *(not )?ok [0-9]+ $case( |\$)" || true)
if grep -q "not ok" <<<"$lines"; then
	echo caught
elif [ -n "$lines" ]; then
	echo missed
else
	echo "mutant-verdict: $case never reported (boot rc $rc)" >&2; exit 2
fi
