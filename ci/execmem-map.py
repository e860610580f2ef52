#!/usr/bin/env python3
"""Draw execmem's chunks: a row per chunk, 64 cells each, from the
"execmem/chunks:" lines in which a guest printed
/sys/kernel/debug/execmem/chunks as it read (tests/guest/bpf_fleet.c). A cell is a 64th of its chunk: '.' holds no
code, '1' to '9' the tenths in use, '#' is full.

Usage: ci/execmem-map.py VERDICT [--svg OUT]
Prints the map as text; with --svg, also writes it as an SVG picture.
Exits 1 if VERDICT has no chunk line, 2 if a chunk line is malformed.
"""
import re
import sys

LINE = re.compile(r'^\s*# execmem/chunks: (0x[0-9a-f]+) size=\d+ node=-?\d+ '
                  r'kind=(tail|spare|chunk) pool=\S+ map=(pmd|pte|bad|unknown) '
                  r'used=(\d+) free=(\d+) longest=(\d+) epoch=\d+ cells=([.1-9#]{64})$')
SHADE = {'.': 0.0, '#': 1.0, **{str(d): d / 10 for d in range(1, 10)}}


def read(path):
    rows = []
    with open(path, encoding='utf-8', errors='replace') as f:
        for n, line in enumerate(f, 1):
            if '# execmem/chunks: ' not in line:
                continue
            m = LINE.match(line.rstrip('\n'))
            if not m:
                print(f'execmem-map: {path}:{n}: malformed chunk line', file=sys.stderr)
                sys.exit(2)
            addr, kind, mapping, used, free, longest, cells = m.groups()
            rows.append(dict(addr=addr, kind=kind, map=mapping, used=int(used),
                             free=int(free), longest=int(longest), cells=cells))
    return rows


def text(rows):
    out = ["execmem's chunks: 64 cells each; '.' empty, 1-9 tenths used, '#' full"]
    for r in rows:
        total = r['used'] + r['free']
        out.append(f"{r['addr']} {r['kind']:5} {r['map']:4} |{r['cells']}| "
                   f"{r['used']}/{total} units, longest free run {r['longest']}")
    return '\n'.join(out)


def svg(rows):
    cw, ch, left, top = 10, 16, 250, 30
    width, height = left + 64 * cw + 20, top + len(rows) * (ch + 4) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           'font-family="monospace" font-size="11">',
           f'<text x="4" y="16">execmem chunks: a row per chunk, each cell 1/64 of it, '
           'darker = fuller</text>']
    for i, r in enumerate(rows):
        y = top + i * (ch + 4)
        out.append(f'<text x="4" y="{y + 12}">{r["addr"]} {r["kind"]} {r["map"]}</text>')
        for j, c in enumerate(r['cells']):
            level = int(255 - 200 * SHADE[c])
            out.append(f'<rect x="{left + j * cw}" y="{y}" width="{cw - 1}" height="{ch}" '
                       f'fill="rgb({level},{level},255)"/>')
    out.append('</svg>')
    return '\n'.join(out) + '\n'


def main():
    args = sys.argv[1:]
    if len(args) not in (1, 3) or (len(args) == 3 and args[1] != '--svg'):
        print('usage: ci/execmem-map.py VERDICT [--svg OUT]', file=sys.stderr)
        sys.exit(2)
    rows = read(args[0])
    if not rows:
        print(f'execmem-map: no chunk line in {args[0]}', file=sys.stderr)
        sys.exit(1)
    print(text(rows))
    if len(args) == 3:
        with open(args[2], 'w', encoding='utf-8') as f:
            f.write(svg(rows))


if __name__ == '__main__':
    main()
