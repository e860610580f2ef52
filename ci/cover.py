#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Render the cover letter from its template and a make bench run.

Usage: ci/cover.py TEMPLATE BENCH.json

Every figure in the cover letter comes from BENCH.json (docs/bench.json,
which make bench writes), never from a hand: ci/export.sh renders
TEMPLATE (docs/cover-letter.in) into the branch description that
becomes patches-core/0000-cover-letter.patch, and make roundtrip fails
when the committed letter is not that rendering.

In TEMPLATE:
  {{EXPR}} or {{EXPR|SPEC}}  the value of EXPR, a Python expression over
        b and p, the metrics of the baseline and the patched kernel
        (b.directmap4k_kb_load), and the helpers below, formatted with
        SPEC (a format() spec; by default integers as they are, floats
        with two decimals). A metric the run does not have is an
        error, never a blank.
  lines between "@table" and "@end"  a table: "LABEL | BASELINE |
        PATCHED" (bars inside a field do not count), aligned in columns
        as wide as their widest cell; a row with one cell after its label
        puts it under PATCHED, one with none is a heading. A label's
        leading spaces are kept.
  lines that start with "@ "  comments, dropped.
Helpers: ratio(a, b) (a / b), iqr(samples) ("median (q1-q3)"),
median(samples), itlb(m) (iTLB entries that map the fleet's text), and
len(), sum(), min(), max() and round().
Exit 0 when rendered, 2 on any error.
"""
import importlib.util
import json
import os
import re
import statistics
import sys

FIELD = re.compile(r"\{\{(.*?)\}\}")
CELL_WIDTH = 13


def bench_report():
    """ci/bench-report.py as a module: its helpers define the figures."""
    path = os.path.join(os.path.dirname(os.path.realpath(__file__)), "bench-report.py")
    spec = importlib.util.spec_from_file_location("bench_report", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Metrics:
    """A run's metrics, read as attributes; a missing one is an error."""

    def __init__(self, metrics):
        self._metrics = metrics

    def __getattr__(self, key):
        if key.startswith("_") or key not in self._metrics:
            raise KeyError("the run has no metric '%s'" % key)
        return self._metrics[key]

    def get(self, key, default=None):
        """dict.get(), for ci/bench-report.py's helpers."""
        return self._metrics.get(key, default)


def iqr(quartiles, xs):
    """"median (q1-q3)" of @xs, by ci/bench-report.py's quartiles()."""
    q1, q2, q3 = quartiles(xs)
    return "%.0f (%.0f-%.0f)" % (q2, q1, q3)


def render_field(match, scope):
    expr, _, spec = match.group(1).partition("|")
    value = eval(expr.strip(), {"__builtins__": {}}, scope)  # the repo's own template
    if value is None:
        raise ValueError("{{%s}} has no value in this run" % match.group(1))
    if not isinstance(value, (int, float, str)):
        raise ValueError("{{%s}} is no figure: %r" % (match.group(1), value))
    if spec:
        return format(value, spec)
    if isinstance(value, float):
        return "%.2f" % value
    return str(value)


def render(text, scope):
    return FIELD.sub(lambda m: render_field(m, scope), text)


CELL = re.compile(r"\{\{.*?\}\}|\|")


def cells_of(line):
    """@line split at the bars that stand outside {{fields}}."""
    cells, start = [], 0
    for m in CELL.finditer(line):
        if m.group(0) == "|":
            cells.append(line[start:m.start()])
            start = m.end()
    return cells + [line[start:]]


def table(lines, scope):
    """A table's rows, rendered and aligned: the label column as wide as
    its longest label, each value column as its widest cell."""
    rows = []
    for line in lines:
        cells = [render(c, scope) for c in cells_of(line)]
        label, values = cells[0].rstrip(), [c.strip() for c in cells[1:]]
        if len(values) == 1:
            values = ["", values[0]]
        if len(values) > 2:
            raise ValueError("a table row has a label and at most two cells: %r" % line)
        rows.append((label, values))
    width = max([len(label) for label, values in rows if values] + [0])
    cols = [max([len(v[i]) + 2 for _, v in rows if v] + [CELL_WIDTH]) for i in (0, 1)]
    out = []
    for label, values in rows:
        if not values:
            out.append(("  " + label).rstrip())
            continue
        out.append(("  %-*s%*s%*s" % (width, label, cols[0], values[0], cols[1],
                                      values[1])).rstrip())
    return out


def scope_of(run):
    """What a field may name: both kernels' metrics of @run, the helpers."""
    report = bench_report()
    return {"b": Metrics(run["baseline"]["metrics"]),
            "p": Metrics(run["patched"]["metrics"]),
            "ratio": report.ratio, "itlb": report.itlb,
            "iqr": lambda xs: iqr(report.quartiles, xs),
            "median": statistics.median, "len": len, "sum": sum, "min": min,
            "max": max, "round": round}


def render_lines(lines, scope):
    """The template's @lines, rendered: comments dropped, tables aligned."""
    out, rows = [], None
    for line in lines:
        if line.startswith("@ ") or line == "@":
            continue
        if line == "@table":
            if rows is not None:
                raise ValueError("@table inside a table")
            rows = []
        elif line == "@end":
            if rows is None:
                raise ValueError("@end outside a table")
            out += table(rows, scope)
            rows = None
        elif rows is not None:
            rows.append(line)
        else:
            out.append(render(line, scope))
    if rows is not None:
        raise ValueError("@table without @end")
    return out


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: cover.py TEMPLATE BENCH.json\n")
        return 2
    try:
        with open(argv[1]) as f:
            lines = f.read().splitlines()
        with open(argv[2]) as f:
            run = json.load(f)
        out = render_lines(lines, scope_of(run))
    except Exception as e:  # noqa: BLE001 - any failure is the harness's
        sys.stderr.write("cover: %s: %s\n" % (argv[1], e))
        return 2
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
