#!/usr/bin/env bash
# The reviewer's demo: boot the x86_64 kernel, load a few hundred BPF
# programs and show where their text lives, how it is mapped, and how
# full execmem's chunks are (ci/execmem-map.py).
# Usage: ci/demo.sh KERNEL INITRAMFS LOGDIR
set -euo pipefail
kernel=$1 initrd=$2 logs=$3
here=$(dirname "$(realpath "$0")")

"$here/boot.sh" x86_64 "$kernel" "$initrd" "$logs" "mode=demo fleet=execmem" || {
	echo "demo: the guest did not finish; see $logs/console.log" >&2; exit 2; }
v=$logs/verdict.ktap
grep -q ' execmem: text tail' "$logs/console.log" && tail="registered" || tail="none (baseline kernel)"
map=$("$here/execmem-map.py" "$v" 2>&1) || map="no chunks to draw: $map"
cat <<EOT
== execmem demo: 300 BPF programs on $(sed -n 's/^# guest: //p' "$v")
text tail:  $tail
$(sed -n 's/^ *# report: kallsyms /kernel:     /p' "$v")
$(sed -n 's/^ *# report: BPF text spans /BPF text:   /p' "$v")
$(sed -n 's/^ *# report: fleet_/  fleet_/p' "$v")

Page tables over the BPF text (/sys/kernel/debug/page_tables/kernel):
$(sed -n 's/^ *# report: page_tables /  /p' "$v" | head -n 20)

Inside execmem (/sys/kernel/debug/execmem/chunks, with the programs loaded):
$(sed 's/^/  /' <<<"$map")

Figures:
$(sed -n 's/^ *# metric: /  /p' "$v" | grep -E 'text_pages|pmd_permille|directmap|chunks')
$(sed -n 's/^ *\(not ok\|ok\) \([0-9]\) /  \1 \2 /p' "$v" | grep -v bpf_fleet)
EOT
