#!/usr/bin/env python3
"""Collect the "metric: NAME VALUE" lines of a bench guest's KTAP verdict.

Usage: ci/bench-metrics.py VERDICT.ktap  > metrics.json
Every top-level result must be ok and the done marker present: figures
from a run that failed prove nothing, so that exits 1 with the reason.
"""
import json
import re
import sys

METRIC = re.compile(r'^\s*#\s*metric:\s+(\S+)\s+(-?\d+(?:\.\d+)?)\s*$')
RESULT = re.compile(r'^(not )?ok \d+ (\S+)')


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


def main():
    with open(sys.argv[1], encoding='utf-8', errors='replace') as f:
        run = parse(f.read())
    if not run['done'] or run['failed'] or not run['metrics']:
        why = ('no done marker' if not run['done'] else
               'failed: ' + ', '.join(run['failed']) if run['failed'] else 'no metrics')
        print(f'bench-metrics: {sys.argv[1]}: {why}', file=sys.stderr)
        return 1
    json.dump({'guest': run['guest'], 'metrics': run['metrics']}, sys.stdout,
              indent=1, sort_keys=True)
    print()
    return 0


if __name__ == '__main__':
    sys.exit(main())
