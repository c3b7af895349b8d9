"""Static rules on a submission's code: the names a solution binds, and forbidden calls.

An exercise may forbid calls or imports (``"forbid"`` in the ``homework``
metadata of its exercise cell, e.g. ``["scipy.special.expit", "mlcore"]``).
The grader reads the syntax tree of the question's solution cells and of
every function of the notebook they call, resolves names through the
notebook's imports (``from scipy.special import expit`` makes ``expit``
mean ``scipy.special.expit``), and reports each use of a forbidden name.
It is a rubric rule, not a sandbox: code that hides a call
(``getattr(__import__("mlcore"), ...)``) is not found; read a surprising answer.

Examples
--------
>>> answer_names("import math\\n\\ndef f(x):\\n    # BEGIN SOLUTION\\n    return x\\n    # END SOLUTION")
['f']
>>> forbidden_uses(["from scipy.special import expit"], ["def f(z):\\n    return expit(z)"],
...                ["scipy.special.expit"])
['`scipy.special.expit` (written `expit`)']
"""

from __future__ import annotations

import ast
import re

__all__ = ["answer_names", "forbidden_uses", "check_forbid"]

_BEGIN = re.compile(r"^\s*#\s*BEGIN SOLUTION\s*$")
_END = re.compile(r"^\s*#\s*END SOLUTION\s*$")
_ONE_LINE = re.compile(r"#\s*SOLUTION\s*$")


def _parse(source: str):
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _bound(node) -> list:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"]
    names = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            names.append(sub.id)
        if sub is not node and isinstance(sub, (ast.FunctionDef, ast.ClassDef)):
            names.append(sub.name)
    return names


def answer_names(source: str, marked_only: bool = True) -> list:
    """Names bound by the statements of a solution cell that hold its solution part
    (by all its statements if ``marked_only`` is False)."""
    tree = _parse(source)
    if tree is None:
        return []
    if not marked_only:
        return [n for statement in tree.body for n in _bound(statement)]
    marked, inside = set(), False
    for number, line in enumerate(source.split("\n"), start=1):
        if _BEGIN.match(line):
            inside = True
        if inside or _ONE_LINE.search(line):
            marked.add(number)
        if _END.match(line):
            inside = False
    names = []
    for statement in tree.body:
        if any(statement.lineno <= n <= (statement.end_lineno or statement.lineno)
               for n in marked):
            names += [n for n in _bound(statement) if n not in names]
    if not names:
        for statement in tree.body:
            names += [n for n in _bound(statement) if n not in names]
    return names


def check_forbid(value, where: str) -> list:
    """Return a ``forbid`` rule as a list of dotted names; raise ValueError if malformed."""
    if value is None:
        return []
    if not (isinstance(value, list) and all(isinstance(v, str) and re.fullmatch(
            r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*", v) for v in value)):
        raise ValueError(f"{where}: 'forbid' must be a list of dotted names such as "
                         f"'scipy.special.expit' or 'mlcore', got {value!r:.100}.")
    return list(value)


def _aliases(trees) -> dict:
    aliases = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        aliases[a.asname] = a.name
                    else:
                        aliases.setdefault(a.name.split(".")[0], a.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for a in node.names:
                    if a.name != "*":
                        aliases[a.asname or a.name] = f"{node.module}.{a.name}"
    return aliases


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return node.id, list(reversed(parts))
    return None, []


def _hits(name: str, rule: str) -> bool:
    return (name == rule or name.startswith(rule + ".")
            or ("." not in rule and name.rsplit(".", 1)[-1] == rule))


def forbidden_uses(all_sources, solution_sources, forbid) -> list:
    """Each forbidden name the solution (or a notebook function it calls) uses, described."""
    if not forbid:
        return []
    trees = [t for t in map(_parse, all_sources) if t is not None]
    aliases = _aliases(trees)
    functions = {}
    for tree in trees:
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions[node.name] = node
    todo = [t for t in map(_parse, solution_sources) if t is not None]
    seen, found = set(), []
    while todo:
        tree, inner = todo.pop(), set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                inner.add(id(node.value))
            if id(node) in inner:
                continue
            written, qualified = None, []
            if isinstance(node, ast.Import):
                qualified = [(a.name, "an import") for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                qualified = [(f"{node.module}.{a.name}", "an import") for a in node.names] \
                    + [(node.module, "an import")]
            elif isinstance(node, (ast.Attribute, ast.Name)):
                base, parts = _dotted(node)
                if base is None:
                    continue
                written = ".".join([base] + parts)
                qualified = [(".".join([aliases.get(base, base)] + parts), written)]
                if isinstance(node, ast.Name) and base in functions and base not in seen:
                    seen.add(base)
                    todo.append(functions[base])
            for name, text in qualified:
                for rule in forbid:
                    if _hits(name, rule):
                        entry = (f"`{rule}` ({text})" if text == "an import" else
                                 f"`{rule}` (written `{text}`)")
                        if entry not in found:
                            found.append(entry)
    return found
