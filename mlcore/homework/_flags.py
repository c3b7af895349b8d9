"""Review flags: what a teacher should look at, found by reading the submissions' code.

Flags never change a grade; they fill the ``flags`` column of grades.csv:

* ``wrong chapter (NN_x)``: the notebook's metadata names another chapter;
* ``no exercise found``: none of the chapter's solution or test cells is there;
* ``published solution: Q``: question Q's answer is the chapter's own solution
  (same syntax tree, comments and layout ignored);
* ``same as FILE: Q``: question Q's answer is identical to another student's;
* ``suspicious: ...``: constructs that graders' attacks use (``__reduce__``,
  ``os._exit``, ``/proc``, ``ctypes``, ``sys.modules``, IPython hooks, ...),
  names computed at run time or code run from text, which a ``forbid`` rule
  cannot follow (``globals()``, ``vars()``, ``__import__``, ``importlib``,
  ``getattr`` with a computed name, ``exec``, ``eval``), or rebinding a name
  the checks use (``np = ...``);
* ``N new cells outside the exercises``: code cells the chapter does not have,
  outside any question's solution span.

Examples
--------
>>> suspicious(["import ctypes", "x = 1"], set())
['ctypes']
"""

from __future__ import annotations

import ast
import hashlib

__all__ = ["suspicious", "answer_hash", "flags_for", "mark_identical"]

CALLS = {"os._exit", "os.write", "os.fdopen", "os.kill", "os.killpg", "sys._getframe",
         "gc.get_referrers", "gc.get_objects", "signal.signal", "sys.modules",
         "builtins", "__builtins__", "ctypes", "set_custom_exc", "input_transformers_post",
         "input_transformers_cleanup", "ast_transformers", "sys.excepthook", "inspect.stack"}
# names computed at run time or code run from text: a forbid rule cannot follow them
DYNAMIC = {"globals": "globals()", "vars": "vars()", "locals": "locals()",
           "__import__": "__import__", "exec": "exec", "eval": "eval", "compile": "compile"}
# the chapters' setup cell asks whether mlcore is installed: that imports nothing
SAFE_IMPORTLIB = {"util"}
SAFE_IMPORTLIB_USES = {"importlib.util", "importlib.util.find_spec"}
DUNDERS = {"__reduce__", "__reduce_ex__", "__getstate__", "__setstate__", "__eq__",
           "__array_ufunc__", "__array_function__", "__del__", "__init_subclass__"}


def _parse(source):
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _dotted(node) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _dynamic(node):
    """The name of a dynamic lookup or code execution in ``node``, if it is one."""
    if isinstance(node, ast.Call):
        called = _dotted(node.func)
        called = called[len("builtins."):] if called.startswith("builtins.") else called
        if called in DYNAMIC:
            return DYNAMIC[called]
        if called == "getattr" and len(node.args) >= 2 and not (
                isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
            return "getattr with a computed name"
    elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "importlib":
        if any(a.name not in SAFE_IMPORTLIB for a in node.names):
            return "importlib"
    elif isinstance(node, ast.Attribute):
        dotted = _dotted(node)
        if dotted.startswith("importlib.") and dotted not in SAFE_IMPORTLIB_USES:
            return "importlib"
    return None


def suspicious(sources, check_names) -> list:
    """The suspicious constructs in these code cells, and rebound names the checks use."""
    found = []
    for tree in filter(None, map(_parse, sources)):
        inner = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                inner.add(id(node.value))    # only whole dotted names, not their parts
            what = _dynamic(node) if id(node) not in inner else None
            if what is None:
                what = _construct(node, tree, check_names)
            if what and what not in found:
                found.append(what)
    return found


def _construct(node, tree, check_names):
    """The attack construct ``node`` is (an import, a call, a dunder, ...), if any."""
    what = None
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        module = getattr(node, "module", None) or ""
        names = [a.name for a in node.names] + [module]
        what = next((n for n in names if n.split(".")[0] in ("ctypes", "gc", "signal")),
                    None)
    elif isinstance(node, (ast.Attribute, ast.Name)):
        dotted = _dotted(node)
        what = next((c for c in CALLS if dotted == c or dotted.endswith("." + c)), None)
    elif isinstance(node, ast.FunctionDef) and node.name in DUNDERS:
        what = node.name
    elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
            and "/proc/" in node.value:
        what = "/proc"
    elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) \
            and node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for sub in ast.walk(target):
                if isinstance(sub, ast.Name) and sub.id in check_names:
                    what = f"rebinds {sub.id}"
    return what


def answer_hash(sources) -> str | None:
    """A hash of code cells' syntax trees (comments, blank lines and layout ignored)."""
    trees = [t for t in map(_parse, sources) if t is not None]
    body = [ast.dump(node) for tree in trees for node in tree.body
            if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
    if not body:
        return None
    return hashlib.sha256("\n".join(body).encode()).hexdigest()


def flags_for(nb, spec, plan, published, check_names) -> tuple:
    """Flags of one readable submission, and its per-question answer hashes.

    ``plan`` is ``(sources, cells, points, spans, coded, notes)`` from the
    grader; ``published`` maps a question to the hash of the chapter's solution.
    """
    sources, cells, points, spans, coded, _ = plan
    flags = []
    meta = (nb.get("metadata") or {}).get("homework") or {}
    chapter = meta.get("chapter") if isinstance(meta, dict) else None
    if isinstance(chapter, str) and chapter != spec["chapter"]:
        flags.append(f"wrong chapter ({chapter[:40]})")
    known = set(spec.get("cells") or [])
    ids = {c.get("id") for c in nb["cells"]}
    anchors = {a for q in coded for a in q["anchors"] + q.get("test_anchors", [])}
    if anchors and not anchors & ids:
        flags.append("no exercise found")
    hashes = {}
    for number, q in enumerate(coded):
        digest = answer_hash([sources[i] for i in spans[number]])
        hashes[q["name"]] = digest
        if digest and published.get(q["name"]) == digest:
            flags.append(f"published solution: {q['name']}")
    inside = {i for span in spans for i in span}
    new = [k for k in range(len(sources)) if nb["cells"][cells[k]].get("id") not in known]
    if known:    # the student's code: solution spans and cells the chapter does not have
        found = suspicious([sources[k] for k in sorted(inside | set(new))], check_names)
    else:        # no cell ids: every cell, without the rebinding check
        found = suspicious(sources, set())
    if found:
        flags.append("suspicious: " + ", ".join(found[:6]))
    outside = [k for k in new if k not in inside and sources[k].strip()]
    if outside and known:
        flags.append(f"{len(outside)} new cells outside the exercises")
    return flags, hashes


def mark_identical(entries) -> dict:
    """``{file: [flags]}`` for answers identical between students (stubs excluded).

    ``entries`` is a list of ``(file, {question: hash}, {question: stub hash})``.
    """
    groups = {}
    for file, hashes, stubs in entries:
        for question, digest in hashes.items():
            if digest and digest != stubs.get(question):
                groups.setdefault((question, digest), []).append(file)
    flags = {}
    for (question, _), files in groups.items():
        if len(files) > 1:
            for file in files:
                others = [f for f in files if f != file]
                flags.setdefault(file, []).append(
                    f"same as {', '.join(others[:3])}{' ...' if len(others) > 3 else ''}: "
                    f"{question}")
    return flags
