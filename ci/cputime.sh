#!/usr/bin/env bash
# The CPU seconds (user and system) of the children process PID has
# waited for, with their own waited-for descendants: fields 16 and 17 of
# /proc/PID/stat, in clock ticks. A shell asks it of itself ($$, or
# $BASHPID in a subshell) once its command has ended.
# Usage: ci/cputime.sh PID
set -euo pipefail
read -r -a st </proc/"$1"/stat
echo $(((st[15] + st[16]) / $(getconf CLK_TCK)))
