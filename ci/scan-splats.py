#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Scan a kernel console log for splats.

Usage: ci/scan-splats.py DENYLIST WINDOWS LOG

Prints each offending line; exit 0 clean, 1 splats found, 2 no usable
denylist, window list or log.

DENYLIST holds extended regular expressions, one a line: a console line
that matches one fails the run. An empty console log fails too: a guest
that printed nothing proved nothing.

Tests that make the kernel warn on purpose bracket those calls with the
console lines "expected splats begin: NAME" and "expected splats end".
Inside such a window a denylisted line is let through only when it
matches one of the patterns WINDOWS lists for NAME ("NAME | ERE"), or for
every window ("* | ERE"). Everything else still fails there: a lockdep
report, KASAN, BUG or Oops inside a window is as fatal as outside. A
window with no entry in WINDOWS, a nested window and a window left open
fail as well.
"""
import re
import sys

BEGIN = re.compile(r"expected splats begin: (.*?)\s*$")
END = "expected splats end"


def patterns(path):
    with open(path) as f:
        return [l.rstrip("\n") for l in f if l.strip() and not l.lstrip().startswith("#")]


def main(argv):
    if len(argv) != 4:
        sys.stderr.write("usage: scan-splats.py DENYLIST WINDOWS LOG\n")
        return 2
    try:
        deny = [re.compile(p) for p in patterns(argv[1])]
        allow = {}
        for entry in patterns(argv[2]):
            name, sep, pat = (s.strip() for s in entry.partition("|"))
            if not sep or not pat:
                raise ValueError("%s: cannot read %r" % (argv[2], entry))
            allow.setdefault(name, []).append(re.compile(pat))
        with open(argv[3], errors="replace") as f:
            log = f.read().splitlines()
    except (OSError, ValueError, re.error) as e:
        sys.stderr.write("splats: %s\n" % e)
        return 2
    if not deny:
        sys.stderr.write("splats: denylist %s is empty\n" % argv[1])
        return 2

    bad = []
    if not any(l.strip() for l in log):
        bad.append("0: the console log is empty")
    window, opened = None, 0
    for n, line in enumerate(log, 1):
        m = BEGIN.search(line)
        if m:
            if window is not None:
                bad.append("%d: window %r opened inside window %r" % (n, m.group(1), window))
            window, opened = m.group(1), n
            if window not in allow:
                bad.append("%d: window %r has no entry in %s" % (n, window, argv[2]))
            continue
        if END in line:
            window = None
            continue
        if not any(d.search(line) for d in deny):
            continue
        if window is not None and any(a.search(line) for a in
                                      allow.get(window, []) + allow.get("*", [])):
            continue
        bad.append("%d:%s" % (n, line))
    if window is not None:
        bad.append("expected splats window %r opened at line %d never closed" % (window, opened))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
