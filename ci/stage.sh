#!/usr/bin/env bash
# Run one stage of a pipeline and print its wall time, and the CPU time
# (user and system) of everything it ran, waited-for descendants
# included: on two cores, where make check's stages run side by side,
# the CPU time says what a stage costs the others.
# Usage: ci/stage.sh NAME CMD...
set -uo pipefail
name=$1; shift
start=$(date +%s)
"$@"
rc=$?
cpu=$("$(dirname "$0")/cputime.sh" $$)
echo "stage $name: $(($(date +%s) - start))s (cpu ${cpu}s)$([ $rc = 0 ] || echo " (exit $rc)")" >&2
exit $rc
