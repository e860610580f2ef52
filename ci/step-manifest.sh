#!/usr/bin/env bash
# Print the lines of a guest manifest that belong to one step of its run:
# "test STEP", "test STEP/...", "skip STEP/... | ..." (and "fail" lines
# alike). For boots that run that step alone (only=STEP): make repeat,
# and the mutants judged by a step.
# Usage: ci/step-manifest.sh MANIFEST STEP
# Exit 2 when the manifest lists nothing of STEP.
set -euo pipefail
manifest=$1 step=$2
lines=$(awk -v s="$step" '$1 ~ /^(test|skip|fail)$/ && ($2 == s || index($2, s "/") == 1)' "$manifest")
[ -n "$lines" ] || { echo "step-manifest: $manifest lists no $step" >&2; exit 2; }
printf '%s\n' "$lines"
