#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the log of one make check run into the table docs/ keeps of it.

Usage: ci/stage-report.py TITLE LOG [WALL]

LOG is what make check printed (.ci/run's output): the "stage NAME: Ns
(cpu Ns)" lines of ci/stage.sh (older logs lack the CPU time), the
bisect's "bisect: [k/n] ARCHES NAME (Ns[; cpu ARCH Ns, ...])" lines
and the closing "total: N passed, N failed[, N skipped]" of
ci/summary.sh. Prints a Markdown section: TITLE, the total, and every
stage's wall time (and CPU time, where the log has it) in the order the
stages ended, with the bisect's first prefix and the sum of the others
apart, and each prefix's CPU time per arch where the log has it ("?" where an entry is
malformed); WALL,
the run's wall time in seconds as its wrapper measured it,
heads the table, and when every stage has its CPU time, the report says
how busy the machine's cores were on average. Exit 2 when the log
has no stage or no total: a run that did not finish has no table.
"""
import re
import sys

STAGE = re.compile(r"^stage (\S+): (\d+)s(?: \(cpu (\d+)s\))?( \(exit \d+\))?$")
PREFIX = re.compile(r"^bisect: \[(\d+)/(\d+)\]\s*(.*?) (\S+) \((\d+)s(?:; cpu ([^)]*))?\)$")
ARCH_CPU = re.compile(r"^(\S+) (?:(\d+)s|.*)$")
TOTAL = re.compile(r"^total: \d+ passed, \d+ failed(, \d+ skipped)?$")


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and not argv[3].isdigit()):
        sys.stderr.write("usage: stage-report.py TITLE LOG [WALL]\n")
        return 2
    stages, prefixes, total = [], [], None
    with open(argv[2], errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = STAGE.match(line)
            if m:
                cpu = int(m.group(3)) if m.group(3) is not None else None
                stages.append((m.group(1), int(m.group(2)), cpu, m.group(4) or ""))
            m = PREFIX.match(line)
            if m:
                cpu = {}
                for part in (m.group(6).split(", ") if m.group(6) else []):
                    # An entry that does not read as seconds shows as "?".
                    a = ARCH_CPU.match(part)
                    if a:
                        cpu[a.group(1)] = int(a.group(2)) if a.group(2) else None
                prefixes.append((int(m.group(1)), m.group(4), int(m.group(5)), cpu))
            if TOTAL.match(line):
                total = line
    if not stages or total is None:
        sys.stderr.write("stage-report: %s has no stage lines or no total\n" % argv[2])
        return 2
    print("## %s\n" % argv[1])
    print("%s%s.\n" % (total[0].upper(), total[1:]))
    cpus = [s[2] for s in stages if s[2] is not None]
    if len(argv) == 4:
        print("Wall time: %d s (%.0f minutes).\n" % (int(argv[3]), int(argv[3]) / 60))
        if cpus and len(cpus) == len(stages):
            print("CPU time of all stages together: %d s, %.2f cores busy on average.\n" %
                  (sum(cpus), sum(cpus) / max(int(argv[3]), 1)))
    # The CPU column only for logs that have CPU times at all.
    print("| stage | wall time |%s" % (" CPU time |" if cpus else ""))
    print("| --- | ---: |%s" % (" ---: |" if cpus else ""))
    for name, secs, cpu, err in stages:
        cell = (" %s |" % ("" if cpu is None else "%d s" % cpu)) if cpus else ""
        print("| %s%s | %d s |%s" % (name, err, secs, cell))
    if prefixes:
        first = prefixes[0]
        rest = sum(p[2] for p in prefixes[1:])
        print("\nOf bisect: the first prefix (%s), built from nothing for each "
              "arch, %d s; the other %d prefixes %d s together." %
              (first[1], first[2], len(prefixes) - 1, rest))
        arches = sorted({a for p in prefixes for a in p[3]})
        if arches:
            # Each arch's CPU time, where the log has it: what a prefix
            # cost, which wall time hides when two builds overlap.
            print("\n| prefix | wall time |%s" % "".join(" %s CPU |" % a for a in arches))
            print("| --- | ---: |%s" % (" ---: |" * len(arches)))
            def cell(v):
                return "?" if v is None else "%d s" % v

            for k, name, secs, cpu in prefixes:
                print("| %s | %d s |%s" % (name[:4], secs, "".join(
                    " %s |" % (cell(cpu[a]) if a in cpu else "") for a in arches)))
            sums = []
            for a in arches:
                vals = [p[3][a] for p in prefixes if a in p[3]]
                sums.append(None if None in vals else sum(vals))
            print("| all | %d s |%s" % (sum(p[2] for p in prefixes),
                                        "".join(" %s |" % cell(v) for v in sums)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
