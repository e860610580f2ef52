#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hold a run's results to its manifest: what must run, and what may skip.

Usage: ci/manifest.py [--all] MANIFEST PREFIX RESULTS KTAP

MANIFEST (tests/manifest/RUN) lists, one a line, every result the run
must report, by its path below PREFIX:
    test NAME             must be there, and pass
    skip NAME | REASON    must be there, and skip with REASON in its line
    fail NAME | WHY       must be there, and fail: a check of what the
                          kernel under test lacks (make control boots the
                          base kernel); WHY says what that is
RESULTS holds ci/ktap-report.py's lines, KTAP the verdict they came from
(skip reasons are read there). Prints one line, "PASS|FAIL PREFIX/manifest",
with the reasons of a failure after it on stderr: a listed result that is
missing, a skip that is not listed (or has another reason), a listed skip
that ran, a listed failure that passed or skipped, and a result the
manifest does not know. The floor is the manifest itself: a run that
reports fewer results cannot match it.

With --all, RESULTS' lines come first, each as the run's verdict:
a listed failure that failed reads "PASS NAME (fails, as it must: WHY)",
one that passed "FAIL NAME (passes, but must fail: WHY)"; a group that
failed, and the guest's count of failures, pass when every failure under
them is a listed one.
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
            if kind not in ("test", "skip", "fail") or not name or \
                    (kind != "test") != bool(reason):
                raise ValueError("%s:%d: cannot read %r" % (path, n, line))
            want[name] = (kind, reason or None)
    return want


DONE = re.compile(r"^FAIL (\S+)/done \(the guest counts (\d+) failed, the host (\d+)\)$")


def turned(lines, prefix, want):
    """RESULTS' lines as the run's verdicts: listed failures turned around.

    A group that failed is turned only when a listed failure failed under
    it and nothing else did (never for the parser's errors); the guest's
    count of failures, only when a listed failure failed and no other line
    still says FAIL."""
    expected = {n for n, (k, _) in want.items() if k == "fail"}

    def name_of(line):
        return line.partition(" ")[2].split(" ")[0][len(prefix) + 1:]

    failed = {name_of(l) for l in lines if l.startswith("FAIL ")}
    leaves = {n for n in failed if not n.endswith("/(group)") and n != "done"}
    hit, unexpected = leaves & expected, leaves - expected
    out = []
    for line in lines:
        verdict, name = line.partition(" ")[0], name_of(line)
        if name in expected:
            why = want[name][1]
            if verdict == "FAIL":
                line = "PASS %s/%s (fails, as it must: %s)" % (prefix, name, why)
            elif verdict == "PASS":
                line = "FAIL %s/%s (passes, but must fail: %s)" % (prefix, name, why)
        elif verdict == "FAIL" and line.endswith("/(group)"):
            group = name[:-len("(group)")]
            if any(n.startswith(group) for n in hit) and \
                    not any(n.startswith(group) for n in unexpected):
                line = "PASS %s/%s (fails only where the manifest says)" % (prefix, name)
        out.append(line)
    for i, line in enumerate(out):
        m = DONE.match(line)
        others = [l for l in out if l.startswith("FAIL ") and l is not line]
        if m and m.group(2) == m.group(3) and hit and not others:
            out[i] = "PASS %s/done (%s failed, each listed)" % (prefix, m.group(2))
    return out


def main(argv):
    every = argv[1:2] == ["--all"]
    if every:
        argv = argv[:1] + argv[2:]
    if len(argv) != 5:
        sys.stderr.write("usage: manifest.py [--all] MANIFEST PREFIX RESULTS KTAP\n")
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
        lines = f.read().splitlines()
        for line in lines:
            verdict, _, name = line.strip().partition(" ")
            name = name.split(" ")[0]
            if name.startswith(prefix + "/") and verdict in ("PASS", "FAIL", "SKIP"):
                got[name[len(prefix) + 1:]] = verdict
    with open(ktap, errors="replace") as f:
        skip_lines = [l for l in f if "# SKIP" in l]

    why = []
    for name, (kind, reason) in want.items():
        if name not in got:
            why.append("missing: %s" % name)
        elif kind == "fail":
            if got[name] != "FAIL":
                why.append("%s, but the manifest wants it to fail: %s" %
                           ("passed" if got[name] == "PASS" else "skipped", name))
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
    if every:
        print("\n".join(turned(lines, prefix, want)))
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
