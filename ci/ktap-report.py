#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge a guest's KTAP verdict with the kernel tree's own KUnit parser.

Usage: ci/ktap-report.py [--kunit] TREE PREFIX KTAP [HUMAN]

Parses KTAP with TREE/tools/testing/kunit/kunit_parser.py (what
`kunit.py parse` runs) and prints one line per result for ci/summary.sh:
"PASS|FAIL|SKIP PREFIX/group/test". The human-readable parse goes to
HUMAN (default: stderr).

Nothing that went wrong may read as a pass:
 - every leaf result is a line; a result the plan promised but the guest
   never printed is "FAIL .../missing-N";
 - a group whose own result line says "not ok" (a TAP program that exited
   non-zero after printing only "ok" lines, a KUnit suite line) fails as
   ".../group/(group)", whatever its children said, and one the parser
   found errors in as ".../group/(group) (errors)";
 - a group the parser could not close (no result line, 0 tests run) fails;
 - a result line the parser did not take (one past its group's plan, say)
   fails as "FAIL PREFIX/unparsed": each line must be a result the tree
   holds;
 - the guest's closing line "# execmem-guest: done (N failed)" must be
   there, N must be 0 and must equal the host's count of failed top-level
   results: "PASS|FAIL PREFIX/done".
With --kunit, KTAP is the console of a kernel that kunit.py built and
booted (ci/kunit.sh): no guest of ours runs there, so there is no done
line to wait for, and none is reported. The kernel's own top-level plan
(one result per suite) is the floor: a suite it promised and never
printed still fails as missing.
Exit 0 when judged (pass or fail), 2 when the parser itself crashed or
the KTAP file cannot be read: a harness error, never a verdict.
"""
import os
import re
import sys

OK = ("SUCCESS", "SKIPPED")
DONE = re.compile(r"^# execmem-guest: done \((\d+) failed\)\s*$")
RESULT = re.compile(r"^\s*(not )?ok \d+\b")


def taken(test):
    """How many result lines the parse of @test's subtests accounts for."""
    return sum(bool(sub.name) + taken(sub) for sub in test.subtests)


def walk(test, path, out):
    """Append result lines for @test's subtests; return how many failed."""
    bad = 0
    for n, sub in enumerate(test.subtests, 1):
        name = sub.name or "missing-%d" % n
        status = sub.status.name
        if sub.subtests:
            bad += walk(sub, path + [name], out)
            if sub.counts.errors:
                # The parser's own complaint, never a child's failure.
                out.append("FAIL %s/(group) (errors)" % "/".join(path + [name]))
                bad += 1
            elif status not in OK:
                out.append("FAIL %s/(group)" % "/".join(path + [name]))
                bad += 1
            continue
        verdict = {"SUCCESS": "PASS", "SKIPPED": "SKIP"}.get(status, "FAIL")
        if status == "NO_TESTS":
            verdict = "FAIL"	# a group that ran nothing is not a pass
        out.append("%s %s" % (verdict, "/".join(path + [name])))
        bad += verdict == "FAIL"
    return bad


def main(argv):
    kunit = len(argv) > 1 and argv[1] == "--kunit"
    if kunit:
        argv = argv[:1] + argv[2:]
    if len(argv) not in (4, 5):
        sys.stderr.write("usage: ktap-report.py [--kunit] TREE PREFIX KTAP [HUMAN]\n")
        return 2
    tree, prefix, ktap = argv[1:4]
    sys.path.insert(0, os.path.join(tree, "tools/testing/kunit"))
    try:
        import kunit_parser
        import kunit_printer
        with open(ktap, errors="replace") as f:
            lines = f.read().splitlines()
        human = open(argv[4], "w") if len(argv) == 5 else sys.stderr
        kunit_parser.stdout = kunit_printer.Printer(human)
        top = kunit_parser.parse_run_tests(lines)
    except Exception as e:	# the parser crashed: a harness error
        sys.stderr.write("ktap-report: cannot parse %s: %r\n" % (ktap, e))
        return 2

    out = []
    walk(top, [prefix], out)
    if not out:
        out.append("FAIL %s/no-results" % prefix)
    lost = sum(1 for l in lines if RESULT.match(l)) - taken(top)
    if lost:
        out.append("FAIL %s/unparsed (%d result lines the parser did not take)" %
                   (prefix, lost))
    if not kunit:
        out.append(done_line(top, lines, prefix))
    print("\n".join(out))
    return 0


def done_line(top, lines, prefix):
    """The verdict on the guest's closing line."""
    # Failed top-level results, as the guest counts them in its done line.
    host_failed = sum(1 for t in top.subtests if t.status.name not in OK)
    done = [m for m in map(DONE.match, lines) if m]
    if not done:
        return "FAIL %s/done (no done marker)" % prefix
    if int(done[-1].group(1)) or host_failed:
        return "FAIL %s/done (the guest counts %s failed, the host %d)" % (
            prefix, done[-1].group(1), host_failed)
    return "PASS %s/done" % prefix


if __name__ == "__main__":
    sys.exit(main(sys.argv))
