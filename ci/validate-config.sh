#!/usr/bin/env bash
# Check that every option a fragment asks for survived into .config.
# Usage: ci/validate-config.sh [--known-in SRC] DOTCONFIG FRAGMENT...
# With --known-in, options that SRC's Kconfig files do not define are let
# through: bisect builds of early prefixes predate the series' own symbols.
set -euo pipefail
known=/dev/null
if [ "$1" = --known-in ]; then
	known=$(mktemp)
	trap 'rm -f "$known"' EXIT
	grep -rhoE --include='Kconfig*' '^[[:space:]]*(menu)?config [A-Za-z0-9_]+' "$2" |
		awk '{ print "CONFIG_" $2 }' >"$known"
	shift 2
fi
config=$1; shift
# A later fragment overrides an earlier one, as in merge_config.sh, so each
# option is checked against the last fragment that names it.
awk -v lenient="$([ "$known" = /dev/null ] && echo 0 || echo 1)" '
FILENAME == ARGV[1] { defined[$0] = 1; next }
FILENAME == ARGV[2] { have[$0] = 1; if ($0 ~ /^CONFIG_/) { split($0, kv, "="); set[kv[1]] = 1 }; next }
/^CONFIG_[A-Za-z0-9_]+=/ { split($0, kv, "="); want[kv[1]] = $0; from[kv[1]] = FILENAME; next }
/^# CONFIG_[A-Za-z0-9_]+ is not set/ { want[$2] = ""; from[$2] = FILENAME }
END {
	for (opt in want) {
		if (want[opt] != "") {
			if (!(want[opt] in have) && !(lenient && !(opt in defined))) {
				printf "config: %s requested by %s but missing from .config\n", want[opt], from[opt]; bad = 1
			}
		} else if (opt in set) {
			printf "config: %s requested unset by %s but set in .config\n", opt, from[opt]; bad = 1
		}
	}
	exit bad
}
' "$known" "$config" "$@" >&2 || { echo "config: validation failed" >&2; exit 2; }
