#!/usr/bin/env bash
# The series exports to modules only what its KUnit tests call, and only
# when those tests are modules: never to any module that imports the
# KUnit namespace because KUNIT is on. Reads one kernel build's
# Module.symvers and .config.
# Usage: ci/exports.sh KERNEL_OUT NAME
# Prints "PASS|FAIL NAME/exports", nothing for a kernel without modules.
# Exit 0 when judged, 2 when KERNEL_OUT has no .config.
set -euo pipefail
kout=$1 name=$2
config=$kout/.config symvers=$kout/Module.symvers
[ -f "$config" ] || { echo "exports: no $config" >&2; exit 2; }
grep -qx 'CONFIG_MODULES=y' "$config" || exit 0
[ -f "$symvers" ] || { echo "exports: $kout has modules but no Module.symvers" >&2; exit 2; }

module() { grep -qx "CONFIG_$1=m" "$config" && echo 1 || echo 0; }
# Which test module may import what: execmem's functions go to any of
# the three suites, BPF's JIT-text helpers to their own suite only.
execmem=$(($(module EXECMEM_KUNIT_TEST) | $(module EXECMEM_WARN_KUNIT_TEST) |
	   $(module BPF_JIT_TEXT_KUNIT_TEST)))
bpf=$(module BPF_JIT_TEXT_KUNIT_TEST)

# Module.symvers: CRC, symbol, exporter, export type, namespace.
bad=$(awk -F'\t' -v execmem="$execmem" -v bpf="$bpf" '
	{
		if ($2 ~ /^(arch_)?execmem_/)
			allowed = execmem
		else if ($2 ~ /^(bpf_jit_text_alloc|bpf_pred_flush_test_[a-z_]+)$/)
			allowed = bpf
		else
			next
		if (!allowed)
			print $2 " (no test module needs it)"
		else if ($5 != "EXPORTED_FOR_KUNIT_TESTING")
			print $2 " (namespace \"" $5 "\", not EXPORTED_FOR_KUNIT_TESTING)"
	}' "$symvers")
if [ -z "$bad" ]; then
	echo "PASS $name/exports"
else
	echo "FAIL $name/exports"
	sed 's/^/exports: /' <<<"$bad" >&2
fi
