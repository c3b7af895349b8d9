"""Review flags: what a teacher should look at, found by reading the submissions' code.

Flags never change a grade; they fill the ``flags`` column of grades.csv:

* ``wrong chapter (NN_x)``: the notebook's metadata names another chapter;
* ``no exercise found``: none of the chapter's solution or test cells is there;
* ``published solution: Q``: question Q's answer is the chapter's own solution
  (the same normalised syntax tree: comments, layout and docstrings ignored,
  local names and arguments renamed to placeholders);
* ``same as FILE: Q``: question Q's answer is, normalised, another student's
  in the same batch (not when both are the published solution);
* ``similar to FILE (J): Q``: the two answers share a fraction J >= 0.9 of
  their normalised token shingles (Jaccard); answers shorter than
  ``MIN_TOKENS`` tokens beyond the stub are not compared;
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
import io
import tokenize

from ._parse import parse_or_none

__all__ = ["suspicious", "answer_hash", "similarity", "flags_for", "mark_identical"]

SHINGLE = 4           # tokens per shingle
SIMILAR = 0.9         # Jaccard similarity of shingles from which answers are "similar"
MIN_TOKENS = 30       # an answer shorter than this beyond its stub is everybody's answer
MAX_SHINGLES = 512    # shingles kept per answer (a bottom-k sketch beyond)

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
    for tree in filter(None, map(parse_or_none, sources)):
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


class _Normaliser(ast.NodeTransformer):
    """Strip docstrings; rename each function's, lambda's and comprehension's local
    names and arguments to placeholders numbered in order of appearance. Globals,
    attributes, keywords and constants are kept: they are what the code does."""

    def __init__(self):
        self.scopes, self.count = [], 0

    def _name(self, name):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return name

    def _enter(self, names):
        scope = {}
        for name in names:
            if name not in scope:
                self.count += 1
                scope[name] = f"_v{self.count}"
        self.scopes.append(scope)

    @staticmethod
    def _strip(body):
        """A body without its string statements (docstrings), never empty."""
        return [node for node in body if not (
            isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str))] or [ast.Pass()]

    def generic_visit(self, node):
        for field in ("body", "orelse", "finalbody"):
            value = getattr(node, field, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, field, self._strip(value))
        return super().generic_visit(node)

    def visit_Name(self, node):
        node.id = self._name(node.id)
        return node

    def _function(self, node):
        arguments = node.args
        arguments.defaults = [self.visit(d) for d in arguments.defaults]
        arguments.kw_defaults = [d if d is None else self.visit(d)
                                 for d in arguments.kw_defaults]
        if not isinstance(node, ast.Lambda):
            node.decorator_list = [self.visit(d) for d in node.decorator_list]
            node.name, node.returns = self._name(node.name), None
        self._enter(_local_order(node))
        for a in _arguments(arguments):
            a.arg, a.annotation = self._name(a.arg), None
        if isinstance(node.body, list):
            node.body = [self.visit(n) for n in self._strip(node.body)]
        else:
            node.body = self.visit(node.body)
        self.scopes.pop()
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_ClassDef(self, node):
        node.name = self._name(node.name)
        return self.generic_visit(node)

    def _comprehension(self, node):
        self._enter(n.id for g in node.generators for n in ast.walk(g.target)
                    if isinstance(n, ast.Name))
        node = super().generic_visit(node)
        self.scopes.pop()
        return node

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension


def _arguments(arguments) -> list:
    return (arguments.posonlyargs + arguments.args + arguments.kwonlyargs
            + [x for x in (arguments.vararg, arguments.kwarg) if x is not None])


def _local_order(scope) -> list:
    """A function's (or lambda's) arguments and local names, in order of appearance."""
    found = [(a.lineno, a.col_offset, a.arg) for a in _arguments(scope.args)]
    declared, todo = set(), list(scope.body) if isinstance(scope.body, list) else []
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared |= set(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.append((node.lineno, node.col_offset, node.id))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found += [(node.lineno, node.col_offset, (a.asname or a.name).split(".")[0])
                      for a in node.names]
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found.append((node.lineno, node.col_offset, node.name))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append((node.lineno, node.col_offset, node.name))
            continue
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                             ast.GeneratorExp)):
            continue
        todo += ast.iter_child_nodes(node)
    return [name for *_, name in sorted(found) if name not in declared]


def _normalised(sources):
    """The answer's statements as one normalised module, or None without any."""
    trees = [t for t in map(parse_or_none, sources) if t is not None]
    body = [node for tree in trees for node in tree.body]
    if not body:
        return None
    try:
        return ast.fix_missing_locations(_Normaliser().visit(ast.Module(body, [])))
    except RecursionError:
        return None


def _tokens(tree) -> list:
    """The token stream of a normalised tree, as the code reads once unparsed."""
    skip = {tokenize.NL, tokenize.COMMENT, tokenize.ENCODING, tokenize.ENDMARKER}
    marks = {tokenize.NEWLINE: "<nl>", tokenize.INDENT: "<in>", tokenize.DEDENT: "<de>"}
    try:
        text = ast.unparse(tree)
        return [marks.get(t.type, t.string) for t in tokenize.generate_tokens(
            io.StringIO(text).readline) if t.type not in skip]
    except (ValueError, SyntaxError, RecursionError, tokenize.TokenError):
        return []


def answer_hash(sources) -> str | None:
    """A fingerprint of an answer: the hash of its normalised syntax tree and its shingles.

    The tree is normalised (docstrings stripped at every level, local names
    and arguments renamed to placeholders; comments and layout never count),
    so renaming ``e`` to ``t`` does not change it. The fingerprint reads
    ``n2:<sha256>:<tokens>:<shingles>``: the shingles are hashes of the
    normalised token stream's ``SHINGLE``-grams (the ``MAX_SHINGLES``
    smallest).

    Examples
    --------
    >>> a = answer_hash(['def f(x):\\n    "Doc."\\n    e = x + 1\\n    return e'])
    >>> a == answer_hash(["def f(y):\\n    t = y + 1  # renamed\\n    return t"])
    True
    >>> a == answer_hash(["def f(x):\\n    return x + 2"])
    False
    """
    tree = _normalised(sources)
    if tree is None:
        return None
    try:
        digest = hashlib.sha256(ast.dump(tree).encode()).hexdigest()
    except RecursionError:     # nested too deeply to compare: no flag rather than a crash
        return None
    tokens = _tokens(tree)
    shingles = sorted({hashlib.blake2b(" ".join(tokens[i:i + SHINGLE]).encode(),
                                       digest_size=4).hexdigest()
                       for i in range(max(len(tokens) - SHINGLE + 1, 1))})[:MAX_SHINGLES]
    return f"n2:{digest}:{len(tokens)}:{''.join(shingles)}"


def _legacy_hash(sources) -> str | None:
    """The hash an autograder.json written before fingerprints holds (exact trees)."""
    trees = [t for t in map(parse_or_none, sources) if t is not None]
    try:
        body = [ast.dump(node) for tree in trees for node in tree.body
                if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
    except RecursionError:
        return None
    return hashlib.sha256("\n".join(body).encode()).hexdigest() if body else None


def _parts(fingerprint):
    """``(digest, tokens, shingles)`` of a fingerprint; a legacy hash has no shingles."""
    if not isinstance(fingerprint, str) or not fingerprint:
        return None, 0, None
    if not fingerprint.startswith("n2:"):
        return fingerprint, 0, None
    _, digest, tokens, packed = fingerprint.split(":", 3)
    return digest, int(tokens), frozenset(packed[i:i + 8] for i in range(0, len(packed), 8))


def similarity(a, b) -> float:
    """Jaccard similarity of two fingerprints' shingles (0 without shingles).

    Exact for answers of fewer than ``MAX_SHINGLES`` shingles; a bottom-k
    estimate beyond.

    Examples
    --------
    >>> one = "def f(x):\\n    y = x * 2 + 1\\n    z = y ** 2 - 3 * y\\n    return z / 4 + x"
    >>> round(similarity(answer_hash([one]), answer_hash([one.replace("/ 4", "/ 5")])), 2)
    0.77
    """
    (_, _, one), (_, _, two) = _parts(a), _parts(b)
    if not one or not two:
        return 0.0
    union = one | two
    if len(one) < MAX_SHINGLES and len(two) < MAX_SHINGLES:
        return len(one & two) / len(union)
    sample = sorted(union)[:MAX_SHINGLES]
    return sum(1 for s in sample if s in one and s in two) / len(sample)


def flags_for(nb, spec, plan, published, check_names) -> tuple:
    """Flags of one readable submission, and its per-question answer fingerprints.

    ``plan`` is ``(sources, cells, points, spans, coded, notes)`` from the
    grader; ``published`` maps a question to the fingerprint of the chapter's
    solution. An answer left as the stub gets no fingerprint.
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
        answer = [sources[i] for i in spans[number]]
        digest = answer_hash(answer)
        if _same(answer, digest, q.get("stub_hash")):
            digest = None
        hashes[q["name"]] = digest
        if digest and _same(answer, digest, published.get(q["name"])):
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


def _same(answer, fingerprint, reference) -> bool:
    """Whether an answer is the one a spec's fingerprint (or legacy hash) describes."""
    theirs = _parts(reference)[0]
    if theirs is None or fingerprint is None:
        return False
    if reference.startswith("n2:"):
        return _parts(fingerprint)[0] == theirs
    return _legacy_hash(answer) == theirs


def mark_identical(entries, published=None) -> dict:
    """``{file: [flags]}``: answers identical or similar to another student's.

    ``entries`` is a list of ``(file, {question: fingerprint}, {question: stub
    fingerprint})``; ``published`` maps a question to the fingerprint of the
    chapter's solution. Answers left as the stub, and answers of fewer than
    ``MIN_TOKENS`` tokens beyond the stub's (what everybody writes alike), are
    not compared. Two copies of the published solution are not "same as" each
    other: their "published solution" flag says it.
    """
    published = published or {}
    by_question = {}
    for file, hashes, stubs in entries:
        for question, fingerprint in hashes.items():
            digest, tokens, _ = _parts(fingerprint)
            stub, stub_tokens, _ = _parts(stubs.get(question))
            if digest and digest != stub and tokens - stub_tokens >= MIN_TOKENS:
                by_question.setdefault(question, []).append((file, fingerprint, digest))
    flags = {}
    for question, answers in by_question.items():
        solution = _parts(published.get(question))[0]
        for file, fingerprint, digest in answers:
            same, similar = [], []
            for other, theirs, their_digest in answers:
                if other == file:
                    continue
                if their_digest == digest:
                    if digest != solution:
                        same.append(other)
                elif similarity(fingerprint, theirs) >= SIMILAR:
                    similar.append((-similarity(fingerprint, theirs), other))
            if same:
                flags.setdefault(file, []).append(
                    f"same as {', '.join(same[:3])}{' ...' if len(same) > 3 else ''}: "
                    f"{question}")
            if similar:
                named = [f"{other} ({-score:.2f})" for score, other in sorted(similar)[:3]]
                flags.setdefault(file, []).append(
                    f"similar to {', '.join(named)}{' ...' if len(similar) > 3 else ''}: "
                    f"{question}")
    return flags
