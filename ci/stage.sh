#!/usr/bin/env bash
# Run one stage of a pipeline and print its wall time.
# Usage: ci/stage.sh NAME CMD...
set -uo pipefail
name=$1; shift
start=$(date +%s)
"$@"
rc=$?
echo "stage $name: $(($(date +%s) - start))s$([ $rc = 0 ] || echo " (exit $rc)")" >&2
exit $rc
