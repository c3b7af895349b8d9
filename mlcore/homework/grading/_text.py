"""Feedback text from untrusted strings: inert Markdown, and check failures that leak nothing."""

from __future__ import annotations

import ast
import builtins
import re

from ._parse import parse_or_none

__all__ = ["md_text", "safe_failure", "ERROR_NAMES"]

ERROR_NAMES = {name for name, value in vars(builtins).items()
               if isinstance(value, type) and issubclass(value, BaseException)} | {"LinAlgError"}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")
_UNDEFINED = re.compile(r"name '([A-Za-z_]\w*)' is not defined(\. Did you mean: '\w+'\?)?")


def md_text(text, limit: int = 300) -> str:
    """Show untrusted text in Markdown as one inert code span, truncated.

    Examples
    --------
    >>> md_text("a `b`\\n<script>")
    "`a 'b' ⏎ <script>`"
    """
    text = _CONTROL.sub(" ", str(text)).replace("\r\n", "\n").replace("\n", " ⏎ ")
    text = text.replace("`", "'").strip()
    if len(text) > limit:
        text = text[:limit] + " [...]"
    return f"`{text}`" if text else "`(empty)`"


def _strings_and_names(source: str):
    """The check's string constants, its f-strings as patterns, and the names it uses."""
    tree = parse_or_none(source)
    if tree is None:
        return set(), [], set()
    inside = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    strings = {n.value.strip() for n in ast.walk(tree) if isinstance(n, ast.Constant)
               and isinstance(n.value, str) and id(n) not in inside}
    patterns = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts = [re.escape(v.value) if isinstance(v, ast.Constant) else ".{0,40}?"
                     for v in node.values]
            patterns.append(re.compile("".join(parts).strip(), re.DOTALL))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return strings, patterns, names


def safe_failure(source: str, ename, evalue, hidden: bool = True) -> str:
    """Describe a failed check without showing text the check did not write.

    The exception's name is shown if it is a built-in one; its message only
    when it is a string written in the check itself (the teacher's message),
    Python's "name '...' is not defined" for a name the check uses, or, for
    a public check, the check's own f-string with each value at most 40
    characters. So code that reads a hidden test and raises it as its message
    shows nothing.

    Examples
    --------
    >>> safe_failure("assert f(0) == 1, 'f(0) should be 1'", "AssertionError", "f(0) should be 1")
    'AssertionError: `f(0) should be 1`'
    >>> safe_failure("assert f(0) == 1", "AssertionError", "assert secret == 42")
    'AssertionError (its message is not shown: the check did not write it)'
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be the check's source code (a str), got "
                        f"{type(source).__name__}.")
    if type(hidden).__name__ not in ("bool", "bool_"):      # Python or NumPy booleans only
        raise TypeError(f"hidden must be True or False, got hidden={hidden!r} of type "
                        f"{type(hidden).__name__}; it says whether the check is hidden.")
    name = ename if isinstance(ename, str) and ename in ERROR_NAMES else "an exception"
    message = str(evalue or "").strip()
    if not message:
        return name
    strings, patterns, names = _strings_and_names(source)
    undefined = _UNDEFINED.fullmatch(message)
    if (message in strings or (undefined and undefined.group(1) in names)
            or (not hidden and any(p.fullmatch(message) for p in patterns))):
        return f"{name}: {md_text(message, 200)}"
    return f"{name} (its message is not shown: the check did not write it)"
