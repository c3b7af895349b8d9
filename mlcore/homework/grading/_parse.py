"""``ast.parse`` for the grader's threads: one parse at a time in this process.

``grade --jobs N`` grades N submissions in threads of one process, and each
thread reads code with :mod:`ast` (the plan, the flags, the forbid rules,
the checks' names). CPython 3.11 keeps the recursion depth of the C code
that turns a parse into ``ast`` objects in state shared by the interpreter's
threads, so two threads parsing at once can fail with ``SystemError: AST
constructor recursion depth mismatch`` (python/cpython#106905): the test
command met it once, and it stopped a whole class's grading. A parse takes
well under a millisecond to a few milliseconds; the submissions' runs, which
take seconds, still overlap.
"""

from __future__ import annotations

import ast
import threading

_ONE_AT_A_TIME = threading.Lock()


def parse(source: str) -> ast.Module:
    """``ast.parse(source)``, never at the same time as another thread's; raises as it does."""
    with _ONE_AT_A_TIME:
        return ast.parse(source)


def parse_or_none(source: str) -> ast.Module | None:
    """The module's tree, or None for code that does not parse (or nests too deeply)."""
    try:
        return parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None
