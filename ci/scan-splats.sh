#!/usr/bin/env bash
# Scan a kernel console log for splats listed in a denylist.
# Usage: ci/scan-splats.sh DENYLIST LOG
# Prints each offending line; exit 0 clean, 1 splats found, 2 no usable
# denylist or log.
#
# Tests that make the kernel warn on purpose bracket those calls with
# console lines containing "expected splats begin" and "expected splats
# end"; lines between them are not scanned. A window left open is a
# failure, so a test that dies inside one cannot hide what follows.
set -euo pipefail
deny=$1 log=$2

[ -f "$log" ] || { echo "splats: no log $log" >&2; exit 2; }
pats=$(grep -vE '^[[:space:]]*(#|$)' "$deny" 2>/dev/null || true)
[ -n "$pats" ] || { echo "splats: denylist $deny is missing or empty" >&2; exit 2; }

# Blank out the windows, keeping line numbers; report one left open.
scan=$(awk '
	/expected splats begin/ { open = NR }
	{ print open ? "" : $0 }
	/expected splats end/ { open = 0 }
	END { if (open) printf "expected splats window opened at line %d never closed\n", open }
' "$log")
rc=0
grep -nE -f <(printf '%s\n' "$pats") <<<"$scan" || rc=$?
case $rc in 1) ;; 0) exit 1 ;; *) exit 2 ;; esac
if grep -q '^expected splats window' <<<"$scan"; then
	grep '^expected splats window' <<<"$scan"
	exit 1
fi
exit 0
