#!/usr/bin/env bash
# KASLR for execmem: the first chunk must not sit at the same address on
# every boot. Compares the "first_chunk" metric of bpf_fleet across boots
# of one kernel and passes when not all of them agree.
# Usage: ci/chunks-moved.sh NAME VERDICT.KTAP... ; prints PASS|FAIL NAME.
# A boot without the metric, or with no chunk (0), fails. With KASLR the
# base is one of ~500 PMDs of the module area, so two boots agree by
# chance once in ~500 runs; a kernel without the randomisation always
# agrees.
set -euo pipefail
name=$1; shift
bases=()
for v in "$@"; do
	b=$(sed -n 's/^ *# metric: first_chunk \(0x[0-9a-f]*\)$/\1/p' "$v" 2>/dev/null | head -1)
	if [ -z "$b" ] || [ "$b" = 0x0 ] || [ "$b" = 0 ]; then
		echo "chunks-moved: no first_chunk in $v" >&2
		echo "FAIL $name"; exit 0
	fi
	bases+=("$b")
done
echo "chunks-moved: first chunk at ${bases[*]}" >&2
if [ "$#" -ge 2 ] && [ "$(printf '%s\n' "${bases[@]}" | sort -u | wc -l)" -gt 1 ]; then
	echo "PASS $name"
else
	echo "FAIL $name"
fi
