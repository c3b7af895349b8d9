"""Hide the homework markers in solution code on the website.

Solution cells mark the part a student writes with ``# BEGIN SOLUTION`` and
``# END SOLUTION`` lines (or a line ending in ``# SOLUTION``) so that
``python -m mlcore.homework`` can derive the student edition. A reader of
the site needs none of that: this extension drops the marker lines, and the
trailing ``# SOLUTION`` comments, from every code block before it is written.
"""

from __future__ import annotations

import re

from docutils import nodes

__all__ = ["strip_markers", "setup"]

_MARKER_LINE = re.compile(r"^\s*#\s*(BEGIN|END) SOLUTION\s*$")
_MARKER_TAIL = re.compile(r"\s*#\s*SOLUTION\s*$")


def strip_markers(code: str) -> str:
    """Return ``code`` without solution-marker lines and trailing ``# SOLUTION`` comments.

    >>> strip_markers("def f(x):\\n    # BEGIN SOLUTION\\n    return x  # SOLUTION\\n    # END SOLUTION")
    'def f(x):\\n    return x'
    """
    lines = [_MARKER_TAIL.sub("", line) for line in code.split("\n")
             if not _MARKER_LINE.match(line)]
    return "\n".join(lines)


def _strip_in_doctree(app, doctree) -> None:
    for block in doctree.findall(nodes.literal_block):
        text = block.astext()
        if "SOLUTION" not in text:
            continue
        cleaned = strip_markers(text)
        if cleaned != text:
            block.children = [nodes.Text(cleaned)]
            block.rawsource = cleaned


def setup(app):
    app.connect("doctree-read", _strip_in_doctree)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
