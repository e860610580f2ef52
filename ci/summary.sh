#!/usr/bin/env bash
# Print every result line, a tally per group (each arch, host) and the
# closing total. Usage: ci/summary.sh RESULTS... ; exit 0 all passed, 1 not.
set -euo pipefail
cat "$@" | awk '
$1 ~ /^(PASS|FAIL|SKIP)$/ {
	print
	split($2, part, "/"); g = part[1]
	if (!(g in seen)) { seen[g] = 1; order[++ng] = g }
	n[g, $1]++; total[$1]++
}
END {
	print ""
	for (i = 1; i <= ng; i++) {
		g = order[i]
		line = sprintf("%s: %d passed, %d failed", g, n[g, "PASS"], n[g, "FAIL"])
		if (n[g, "SKIP"]) line = line sprintf(", %d skipped", n[g, "SKIP"])
		print line
	}
	line = sprintf("total: %d passed, %d failed", total["PASS"], total["FAIL"])
	if (total["SKIP"]) line = line sprintf(", %d skipped", total["SKIP"])
	print line
	exit (total["FAIL"] > 0 || total["PASS"] == 0)
}'
