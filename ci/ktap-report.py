#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the JSON that `kunit.py parse --json` writes into result lines.

Usage: ci/ktap-report.py PREFIX JSON

Prints one line per leaf test, "PASS|FAIL|SKIP PREFIX/group/test", for
ci/summary.sh to count. kunit.py reports a result the guest promised in
its plan but never printed as an unnamed ERROR case; those become FAIL
lines named "missing-N", so a guest that stopped early cannot pass.
"""
import json
import sys

STATUS = {"PASS": "PASS", "SKIP": "SKIP"}


def walk(group, path, out):
    for sub in group.get("sub_groups", []):
        walk(sub, path + [sub["name"]], out)
    for n, case in enumerate(group.get("test_cases", []), 1):
        name = case["name"] or "missing-%d" % n
        out.append("%s %s" % (STATUS.get(case["status"], "FAIL"),
                              "/".join(path + [name])))


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: ktap-report.py PREFIX JSON")
    prefix, path = argv[1], argv[2]
    with open(path) as f:
        top = json.load(f)
    out = []
    walk(top, [prefix], out)
    if not out:
        out.append("FAIL %s/no-results" % prefix)
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv)
