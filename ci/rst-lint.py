#!/usr/bin/env python3
"""reST lint for kernel documentation without Sphinx: parse each file with
docutils and fail on any warning. Sphinx-only directives (toctree, only)
are accepted and their options checked for shape, not run. kernel-doc
directives are run, with scripts/kernel-doc and the options Sphinx's
kerneldoc extension would pass: one that warns or renders nothing fails
(":export:" on a file whose functions are exported only to KUnit renders
nothing, and Sphinx only says so in a warning).
Usage: ci/rst-lint.py [--srctree DIR] [--kernel-doc SCRIPT] FILE...
(DIR: where kernel-doc paths start, default "."; SCRIPT: default
DIR/scripts/kernel-doc.) Exit 0 clean, 1 with the messages printed."""
import os
import subprocess
import sys

from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import Directive, directives
from docutils.utils import SystemMessage

OPTIONS = ('export', 'internal', 'identifiers', 'functions', 'doc',
           'maxdepth', 'glob', 'hidden', 'numbered', 'caption')

args = sys.argv[1:]
srctree, kerneldoc = '.', None
while args and args[0] in ('--srctree', '--kernel-doc'):
    if args[0] == '--srctree':
        srctree = args[1]
    else:
        kerneldoc = args[1]
    args = args[2:]
kerneldoc = kerneldoc or os.path.join(srctree, 'scripts', 'kernel-doc')


class Opaque(Directive):
    """Stand-in for a Sphinx directive: any argument, any option, content."""
    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = {k: directives.unchanged for k in OPTIONS}

    def run(self):
        return [nodes.comment()]


class KernelDoc(Opaque):
    """Run kernel-doc as Documentation/sphinx/kerneldoc.py would."""

    def run(self):
        opts = self.options
        cmd = [kerneldoc, '-rst', '-enable-lineno', '-sphinx-version', '3.0.0']
        if 'export' in opts:
            cmd.append('-export')
        elif 'internal' in opts:
            cmd.append('-internal')
        elif 'doc' in opts:
            cmd += ['-function', opts['doc']]
        elif 'functions' in opts or 'identifiers' in opts:
            names = (opts.get('functions') or opts.get('identifiers') or '').split()
            for name in names:
                cmd += ['-function', name]
            if not names:
                cmd.append('-no-doc-sections')
        path = self.arguments[0]
        res = subprocess.run(cmd + [os.path.join(srctree, path)],
                             capture_output=True, text=True)
        what = ' '.join(f':{k}: {v}'.strip() for k, v in opts.items())
        if res.returncode or res.stderr.strip():
            raise self.error(f'kernel-doc {path} {what}: '
                             + (res.stderr.strip().splitlines() or ['failed'])[0])
        if not res.stdout.strip() or ('doc' not in opts and '.. c:' not in res.stdout):
            raise self.error(f'kernel-doc {path} {what}: renders nothing')
        return [nodes.comment()]


directives.register_directive('kernel-doc', KernelDoc)
for name in ('toctree', 'only'):
    directives.register_directive(name, Opaque)

bad = 0
for path in args:
    with open(path, encoding='utf-8') as f:
        text = f.read()
    try:
        publish_doctree(text, source_path=path, settings_overrides={
            'report_level': 2, 'halt_level': 2, 'warning_stream': sys.stderr})
    except SystemMessage as e:
        print(f'{path}: {e}')
        bad = 1
sys.exit(bad)
