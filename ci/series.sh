#!/usr/bin/env bash
# Print the patches the series file lists, in order, one path a line.
# Usage: ci/series.sh SERIES
set -euo pipefail
sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$1" | grep -v '^$' || true
