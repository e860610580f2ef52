#!/usr/bin/env bash
# Scan a kernel console log for splats listed in a denylist.
# Usage: ci/scan-splats.sh DENYLIST LOG
# Prints each offending line; exit 0 clean, 1 splats found, 2 no usable
# denylist or log.
set -euo pipefail
deny=$1 log=$2

[ -f "$log" ] || { echo "splats: no log $log" >&2; exit 2; }
pats=$(grep -vE '^[[:space:]]*(#|$)' "$deny" 2>/dev/null || true)
[ -n "$pats" ] || { echo "splats: denylist $deny is missing or empty" >&2; exit 2; }

if grep -nE -f <(printf '%s\n' "$pats") "$log"; then
	exit 1
fi
exit 0
