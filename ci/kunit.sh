#!/usr/bin/env bash
# Run the execmem and BPF KUnit suites the kernel's own way: the tree's
# kunit.py builds a kernel from mm/execmem.kunitconfig, boots it in QEMU
# and parses its KTAP. Its console is then judged as every guest's is:
# each result through ci/ktap-report.py --kunit, held to a manifest, and
# the console through the splat scanner.
# Usage: ci/kunit.sh TREE REV ARCH BUILDDIR NAME RESULTS
# REV is a commit of TREE (a prefix of the series, or its tip), checked
# out in the worktree BUILDDIR/kunit-src so that TREE never moves (one
# run at a time holds it); the kernel is built in BUILDDIR/NAME and held
# to tests/manifest/NAME.
# Writes result lines to RESULTS, among them "PASS|FAIL NAME/kunit.py",
# kunit.py's own verdict (it fails a run that crashed or lost a test).
# Exit 0 when judged, 2 for harness errors (no manifest, no console).
set -euo pipefail
tree=$1 rev=$2 arch=$3 b=$4 name=$5 results=$6
here=$(dirname "$(realpath "$0")")
manifest=$here/../tests/manifest/$name
rm -f "$results"
[ -f "$manifest" ] || { echo "kunit: no manifest $manifest" >&2; exit 2; }

case $arch in
x86_64)	cross=() cc=gcc ;;
arm64)	cross=(--cross_compile=aarch64-linux-gnu-) cc=aarch64-linux-gnu-gcc ;;
*)	echo "kunit: unknown ARCH '$arch' (x86_64 or arm64)" >&2; exit 2 ;;
esac
src=$b/kunit-src out=$(realpath -m "$b/$name")
exec 9>"$b/kunit-src.lock"
flock 9
"$here/worktree.sh" "$tree" "$src" "$rev" >&2 || exit 2
mkdir -p "$out"
rm -f "$out/test.log"

export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(realpath "$b")}
export CCACHE_NOHASHDIR=true CCACHE_DEPEND=true CCACHE_NOCOMPRESS=true
unset MAKEFLAGS MFLAGS
rc=0
(cd "$src" && python3 tools/testing/kunit/kunit.py run --arch="$arch" "${cross[@]}" \
	--kunitconfig=mm/execmem.kunitconfig --build_dir="$out" --jobs="$(nproc)" \
	--timeout=1200 --make_options CC="ccache $cc") >"$out/kunit.txt" 2>&1 || rc=$?
[ -s "$out/test.log" ] || {
	tail -n 20 "$out/kunit.txt" >&2
	echo "kunit: kunit.py left no console in $out/test.log (exit $rc)" >&2
	exit 2
}

tmp=$results.tmp
{
	if [ $rc = 0 ]; then echo "PASS $name/kunit.py"; else echo "FAIL $name/kunit.py (exit $rc)"; fi
	python3 "$here/ktap-report.py" --kunit "$src" "$name" "$out/test.log" /dev/null \
		>"$out/report.txt" || exit 2
	python3 "$here/manifest.py" --all "$manifest" "$name" "$out/report.txt" "$out/test.log" ||
		exit 2
	src_rc=0
	"$here/scan-splats.py" "$here/splat-denylist" "$here/splat-windows" "$out/test.log" \
		>"$out/splats.txt" || src_rc=$?
	case $src_rc in
	0) echo "PASS $name/splats" ;;
	1) echo "FAIL $name/splats"
	   { sed 's/^/splat: /' "$out/splats.txt" | head -20 >&2; } || true ;;
	*) exit 2 ;;
	esac
} >"$tmp"
mv "$tmp" "$results"
grep -v '^PASS' "$results" >&2 || true
