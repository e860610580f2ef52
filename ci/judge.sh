#!/usr/bin/env bash
# Judge a target run on its own by the results it wrote: print their
# failures and the tally, and exit 1 when they hold a FAIL or no PASS.
# Under make check (IN_CHECK=1) the targets skip this and the closing
# tally decides, so that every stage still runs.
# Usage: ci/judge.sh RESULTS...
set -euo pipefail
rc=0
out=$("$(dirname "$0")/summary.sh" "$@") || rc=$?
grep '^FAIL ' <<<"$out" || true
tail -n 1 <<<"$out"
exit $rc
