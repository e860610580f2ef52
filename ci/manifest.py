#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hold a run's results to its manifest: what must run, and what may skip.

Usage: ci/manifest.py MANIFEST PREFIX RESULTS KTAP

MANIFEST (tests/manifest/RUN) lists, one a line, every result the run
must report, by its path below PREFIX:
    test NAME             must be there, and pass
    skip NAME | REASON    must be there, and skip with REASON in its line
RESULTS holds ci/ktap-report.py's lines, KTAP the verdict they came from
(skip reasons are read there). Prints one line, "PASS|FAIL PREFIX/manifest",
with the reasons of a failure after it on stderr: a listed result that is
missing, a skip that is not listed (or has another reason), a listed skip
that ran, and a result the manifest does not know. The floor is the
manifest itself: a run that reports fewer results cannot match it.
Exit 0 when judged, 2 when the manifest is missing or empty.
"""
import re
import sys


def load(path):
    want = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            kind, _, rest = line.partition(" ")
            name, _, reason = (s.strip() for s in rest.partition("|"))
            if kind not in ("test", "skip") or not name or \
                    (kind == "skip") != bool(reason):
                raise ValueError("%s:%d: cannot read %r" % (path, n, line))
            want[name] = reason if kind == "skip" else None
    return want


def main(argv):
    if len(argv) != 5:
        sys.stderr.write("usage: manifest.py MANIFEST PREFIX RESULTS KTAP\n")
        return 2
    path, prefix, results, ktap = argv[1:]
    try:
        want = load(path)
    except (OSError, ValueError) as e:
        sys.stderr.write("manifest: %s\n" % e)
        return 2
    if not want:
        sys.stderr.write("manifest: %s lists nothing\n" % path)
        return 2
    got = {}
    with open(results) as f:
        for line in f:
            verdict, _, name = line.strip().partition(" ")
            name = name.split(" ")[0]
            if name.startswith(prefix + "/") and verdict in ("PASS", "FAIL", "SKIP"):
                got[name[len(prefix) + 1:]] = verdict
    with open(ktap, errors="replace") as f:
        skip_lines = [l for l in f if "# SKIP" in l]

    why = []
    for name, reason in want.items():
        if name not in got:
            why.append("missing: %s" % name)
        elif reason is None and got[name] == "SKIP":
            why.append("skipped, but the manifest wants it run: %s" % name)
        elif reason is not None and got[name] != "SKIP":
            why.append("ran, but the manifest wants it skipped: %s" % name)
        elif reason is not None:
            leaf = re.escape(name.split("/")[-1])
            # A skip is "ok N NAME # SKIP REASON"; "not ok ... # SKIP"
            # is a failure that KTAP parsers may still call a skip.
            pat = re.compile(r"\s*ok \d+ %s # SKIP .*%s" % (leaf, re.escape(reason)))
            if not any(pat.match(l) for l in skip_lines):
                why.append("skipped without the reason %r: %s" % (reason, name))
    # "done" and ".../(group)" are ktap-report's own verdicts, not results.
    for name, verdict in got.items():
        if name not in want and name != "done" and not name.endswith("/(group)"):
            why.append("not in the manifest (%s): %s" % (verdict, name))
    if why:
        print("FAIL %s/manifest (%d of %d listed results; %d problems)" %
              (prefix, sum(n in got for n in want), len(want), len(why)))
        for w in why:
            sys.stderr.write("manifest: %s\n" % w)
    else:
        print("PASS %s/manifest" % prefix)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
