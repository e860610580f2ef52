#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the make bench rows the changelogs quote are the data's.

Usage: ci/changelog-rows.py SERIES BENCH.json DIR

Each DIR/NNNN.in (docs/changelog-rows/) is the table that patch NNNN's
changelog quotes, written as ci/cover.py's templates are: fields over
BENCH.json (docs/bench.json, the last make bench run). Its rendering must
stand in that patch's file, among the patches SERIES lists, line for
line. Prints "PASS|FAIL host/changelog-rows/NNNN" for each; a changelog
that quotes another run's figures fails, so a new bench run means new
changelogs. Exit 0 when judged, 2 on a harness error (no template, a
template that does not render, no such patch).
"""
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import cover  # noqa: E402 - ci/cover.py, beside this script


def main(argv):
    if len(argv) != 4:
        sys.stderr.write("usage: changelog-rows.py SERIES BENCH.json DIR\n")
        return 2
    series, bench, folder = argv[1:]
    root = os.path.dirname(os.path.realpath(series))
    here = os.path.dirname(os.path.realpath(__file__))
    patches = subprocess.run([os.path.join(here, "series.sh"), series], check=True,
                             capture_output=True, text=True).stdout.split()
    templates = sorted(glob.glob(os.path.join(folder, "[0-9][0-9][0-9][0-9].in")))
    if not templates:
        sys.stderr.write("changelog-rows: no templates in %s\n" % folder)
        return 2
    with open(bench) as f:
        run = json.load(f)
    scope = cover.scope_of(run)
    out = []
    for t in templates:
        num = os.path.basename(t)[:4]
        match = [p for p in patches if os.path.basename(p).startswith(num + "-")]
        if len(match) != 1:
            sys.stderr.write("changelog-rows: no patch %s in %s\n" % (num, series))
            return 2
        try:
            with open(t) as f:
                rows = cover.render_lines(f.read().splitlines(), scope)
        except Exception as e:  # noqa: BLE001 - a template that cannot render
            sys.stderr.write("changelog-rows: %s: %s\n" % (t, e))
            return 2
        with open(os.path.join(root, match[0])) as f:
            text = f.read()
        block = "\n".join(rows) + "\n"
        if block in text:
            out.append("PASS host/changelog-rows/%s" % num)
        else:
            out.append("FAIL host/changelog-rows/%s (its rows are not %s's)" % (num, bench))
            sys.stderr.write("changelog-rows: %s should quote:\n%s" % (match[0], block))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
