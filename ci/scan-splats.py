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
WINDOWS says, per NAME, which reports the window expects, by their exact
message: "NAME | ERE" matches the message that heads a report (the text
a WARN() prints after "cut here", or warn_alloc()'s line), searched in
the line without its timestamp; "NAME | at ERE" matches the location of
a WARN_ON() that prints no message ("WARNING: CPU: n PID: n at LOCATION").
Inside a window, a report's furniture ("cut here", its WARNING line and
one "Call Trace:") is let through only for a report that one of those
heads; everything else that the denylist matches still fails there: a
warning with another message, a lockdep report, KASAN, BUG or Oops. A
window with no entry in WINDOWS, a nested window and a window left open
fail as well.
"""
import re
import sys

BEGIN = re.compile(r"expected splats begin: (.*?)\s*$")
END = "expected splats end"
STAMP = re.compile(r"^\[\s*[0-9.]+\]\s?")
CUT = "------------[ cut here ]------------"
WARNING = re.compile(r"WARNING: CPU: [0-9]+ PID: [0-9]+ at (.*)$")
TRACE = re.compile(r"Call [Tt]race:")


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
            kind = "at" if pat.startswith("at ") else "msg"
            if kind == "at":
                pat = pat[3:].strip()
            allow.setdefault(name, {"msg": [], "at": []})[kind].append(re.compile(pat))
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
    # In a window: the report whose head was expected (its WARNING line
    # and one Call Trace may follow), and a "cut here" awaiting its head.
    armed, cut, prev = None, None, 0
    for n, line in enumerate(log, 1):
        denied = any(d.search(line) for d in deny)
        m = BEGIN.search(line)
        if m:
            if window is not None:
                bad.append("%d: window %r opened inside window %r" % (n, m.group(1), window))
            window, opened, armed, cut = m.group(1), n, None, None
            if window not in allow:
                bad.append("%d: window %r has no entry in %s" % (n, window, argv[2]))
            continue
        if END in line:
            if cut is not None:
                bad.append("%d:%s" % cut)
            window, cut, armed = None, None, None
            continue
        if window is not None:
            want = allow.get(window, {"msg": [], "at": []})
            text = STAMP.sub("", line)
            w = WARNING.search(text)
            if not text.strip():
                continue
            # Nothing but blank lines since this report's "cut here".
            after_cut = cut is not None and cut[0] == prev
            prev = n
            # A head is never a line the denylist matches itself; a WARN()'s
            # message comes right after its "cut here", and only it may
            # arm a WARNING line; any other head arms one Call Trace.
            if not denied and any(p.search(text) for p in want["msg"]) and (cut is None or after_cut):
                armed, cut = "warn" if after_cut else "trace", None
                continue
            if CUT in text:
                if cut is not None:
                    bad.append("%d:%s" % cut)
                armed, cut = None, (n, line)
                continue
            if w and (armed == "warn" or (after_cut and any(p.search(w.group(1)) for p in want["at"]))):
                armed, cut = "trace", None
                continue
            if TRACE.search(text) and armed:
                armed = None
                continue
            if cut is not None and denied:
                bad.append("%d:%s" % cut)
                cut = None
        if denied:
            bad.append("%d:%s" % (n, line))
    if window is not None:
        bad.append("expected splats window %r opened at line %d never closed" % (window, opened))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
