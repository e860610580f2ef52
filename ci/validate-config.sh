#!/usr/bin/env bash
# Check that every option a fragment asks for survived into .config.
# Usage: ci/validate-config.sh DOTCONFIG FRAGMENT...
set -euo pipefail
config=$1; shift
awk '
FNR == NR { have[$0] = 1; if ($0 ~ /^CONFIG_/) { split($0, kv, "="); set[kv[1]] = 1 }; next }
/^CONFIG_[A-Za-z0-9_]+=/ {
	if (!($0 in have)) { split($0, kv, "="); printf "config: %s requested by %s but missing from .config\n", $0, FILENAME; bad = 1 }
	next
}
/^# CONFIG_[A-Za-z0-9_]+ is not set/ {
	if ($2 in set) { printf "config: %s requested unset by %s but set in .config\n", $2, FILENAME; bad = 1 }
}
END { exit bad }
' "$config" "$@" >&2 || { echo "config: validation failed" >&2; exit 2; }
