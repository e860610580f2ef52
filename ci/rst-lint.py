#!/usr/bin/env python3
"""reST lint for kernel documentation without Sphinx: parse each file with
docutils and fail on any warning. Sphinx-only directives (kernel-doc,
toctree) are accepted and their options checked for shape, not run.
Usage: ci/rst-lint.py FILE...  Exit 0 clean, 1 with the messages printed."""
import sys

from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import Directive, directives
from docutils.utils import SystemMessage


class Opaque(Directive):
    """Stand-in for a Sphinx directive: any argument, any option, content."""
    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = {k: directives.unchanged for k in
                   ('export', 'internal', 'identifiers', 'functions', 'doc',
                    'maxdepth', 'glob', 'hidden', 'numbered', 'caption')}

    def run(self):
        return [nodes.comment()]


for name in ('kernel-doc', 'toctree', 'only'):
    directives.register_directive(name, Opaque)

bad = 0
for path in sys.argv[1:]:
    with open(path, encoding='utf-8') as f:
        text = f.read()
    try:
        publish_doctree(text, source_path=path, settings_overrides={
            'report_level': 2, 'halt_level': 2, 'warning_stream': sys.stderr})
    except SystemMessage as e:
        print(f'{path}: {e}')
        bad = 1
sys.exit(bad)
