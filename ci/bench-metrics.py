#!/usr/bin/env python3
"""Collect the "metric: NAME VALUE" lines of a bench guest's KTAP verdict.

Usage: ci/bench-metrics.py VERDICT.ktap [MORE.ktap ...]  > metrics.json
Every top-level result must be ok and the done marker present: figures
from a run that failed prove nothing, so that exits 1 with the reason.
The MORE verdicts come from further boots of the same kernel: those in
mode=cycles add their "cycle_ms_K" and "two_loaders_ps_K" figures, in the
order given, to one list each (SAMPLES); any other figure is added as it
is, and a figure that two boots both report is an error.
"""
import json
import re
import sys

METRIC = re.compile(r'^\s*#\s*metric:\s+(\S+)\s+(-?\d+(?:\.\d+)?)\s*$')
RESULT = re.compile(r'^(not )?ok \d+ (\S+)')
# Figures sampled once per timed run: prefix of each sample, list it joins.
SAMPLES = {'cycle_ms_': 'cycles_ms', 'two_loaders_ps_': 'two_loaders_ps'}


def parse(text):
    metrics, failed, guest, done = {}, [], '', False
    for line in text.splitlines():
        m = METRIC.match(line)
        if m:
            value = float(m.group(2))
            metrics[m.group(1)] = int(value) if value.is_integer() else value
            continue
        m = RESULT.match(line)
        if m and m.group(1):
            failed.append(m.group(2))
        if line.startswith('# guest: '):
            guest = line[len('# guest: '):]
        if line.startswith('# execmem-guest: done'):
            done = True
    return {'guest': guest, 'metrics': metrics, 'failed': failed, 'done': done}


def load(path):
    """The run in @path, or None after saying why it does not count."""
    with open(path, encoding='utf-8', errors='replace') as f:
        run = parse(f.read())
    if not run['done'] or run['failed'] or not run['metrics']:
        why = ('no done marker' if not run['done'] else
               'failed: ' + ', '.join(run['failed']) if run['failed'] else 'no metrics')
        print(f'bench-metrics: {path}: {why}', file=sys.stderr)
        return None
    return run


def main():
    run = load(sys.argv[1])
    if run is None:
        return 1
    samples = {}
    for path in sys.argv[2:]:
        extra = load(path)
        if extra is None:
            return 1
        for k, v in sorted(extra['metrics'].items()):
            series = [s for prefix, s in SAMPLES.items() if k.startswith(prefix)]
            if series:
                samples.setdefault(series[0], []).append(v)
            elif k in run['metrics']:
                print(f'bench-metrics: {path}: {k} is reported twice', file=sys.stderr)
                return 1
            else:
                run['metrics'][k] = v
    for series, values in samples.items():
        if series in run['metrics']:
            print(f'bench-metrics: {series} is reported as a figure too', file=sys.stderr)
            return 1
        run['metrics'][series] = values
    json.dump({'guest': run['guest'], 'metrics': run['metrics']}, sys.stdout,
              indent=1, sort_keys=True)
    print()
    return 0


if __name__ == '__main__':
    sys.exit(main())
