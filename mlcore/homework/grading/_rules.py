"""Static rules on a submission's code: the names a solution binds, and forbidden calls.

An exercise may forbid calls or imports (``"forbid"`` in the ``homework``
metadata of its exercise cell, e.g. ``["scipy.special.expit", "mlcore"]``).
The grader reads the syntax trees of the notebook's code cells, in notebook
order up to the question's tests, and follows every name the answer reads
to the statement that binds it: imports and their aliases, assignments
(``act = ss.expit``, ``H, G = L.hessian, L.gradient``), functions, lambdas
and classes, wherever they are, as Python would at the tests. Only the code
the answer reaches counts, so the chapter's own cells are never blamed for
what the answer does not use. A rule matches a dotted name and everything
below it, private submodules included (``scipy.special._ufuncs.expit`` is
``scipy.special.expit``); a rule without a dot matches any name ending in it.
It is a rubric rule, not a sandbox: code that computes a name at run time
(``getattr(m, name)``, ``globals()[name]``, ``exec``) is not followed; the
review flags mark such code as suspicious.

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
from collections import deque

from ._parse import parse_or_none

__all__ = ["answer_names", "forbidden_uses", "question_uses", "check_forbid"]

_BEGIN = re.compile(r"^\s*#\s*BEGIN SOLUTION\s*$")
_END = re.compile(r"^\s*#\s*END SOLUTION\s*$")
_ONE_LINE = re.compile(r"#\s*SOLUTION\s*$")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith)
if hasattr(ast, "TryStar"):
    _COMPOUND += (ast.TryStar,)
if hasattr(ast, "Match"):
    _COMPOUND += (ast.Match,)




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
    tree = parse_or_none(source)
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


def _public(name: str) -> str:
    """The dotted name without its private parts: ``a._b.c`` -> ``a.c``."""
    parts = name.split(".")
    return ".".join([parts[0]] + [p for p in parts[1:]
                                  if not p.startswith("_") or p.startswith("__")])


def _hits(name: str, rule: str) -> bool:
    if "." not in rule and name.rsplit(".", 1)[-1] == rule:
        return True
    return any(n == r or n.startswith(r + ".")
               for n in {name, _public(name)} for r in {rule, _public(rule)})


def _dotted(node):
    """``(base name, [attributes])`` of ``a.b.c`` (``getattr(a, "b")`` too), else None."""
    parts = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "getattr" and len(node.args) >= 2
              and _constant(node.args[1]) is not None):
            parts.append(_constant(node.args[1]))
            node = node.args[0]
        elif isinstance(node, ast.Name):
            return node.id, list(reversed(parts))
        else:
            return None


def _constant(node):
    """The string a constant expression spells (``"ex" + "pit"`` too), else None."""
    parts = []
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # (a + b) + c
        if not (isinstance(node.right, ast.Constant) and isinstance(node.right.value, str)):
            return None
        parts.append(node.right.value)
        node = node.left
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value + "".join(reversed(parts))
    return None


def _imported(node):
    """The module a call such as ``importlib.import_module("m")`` returns, else None."""
    if not (isinstance(node, ast.Call) and node.args and _constant(node.args[0])):
        return None
    called, module = _dotted(node.func), _constant(node.args[0])
    if called == ("__import__", []):
        fromlist = any(k.arg == "fromlist" for k in node.keywords) or len(node.args) > 3
        return module if fromlist else module.split(".")[0]
    if called in (("importlib", ["import_module"]), ("import_module", [])):
        return module
    return None


def _locals(scope) -> set:
    """Names local to a function, lambda or comprehension (not its nested scopes)."""
    names, declared = set(), set()
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        a = scope.args
        names |= {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
        names |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
        body = scope.body if isinstance(scope.body, list) else [scope.body]
    else:   # a comprehension
        return {n.id for g in scope.generators for n in ast.walk(g.target)
                if isinstance(n, ast.Name)}
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared |= set(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            todo += node.decorator_list
            continue
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                             ast.GeneratorExp)):
            continue
        todo += ast.iter_child_nodes(node)
    return names - declared


class _Binding:
    """One top-level binding of a name: what binds it, where, and with which value."""

    def __init__(self, position, kind, node, value=None, module=None, conditional=False):
        self.position, self.kind, self.node, self.value = position, kind, node, value
        self.module, self.conditional = module, conditional


class _Notebook:
    """The top-level bindings of a notebook's code cells, in notebook order."""

    def __init__(self, trees):
        self.names, self.attributes, self.order, self.count = {}, {}, {}, 0
        for cell, tree in enumerate(trees):
            for statement in (tree.body if tree is not None else []):
                self._statement(cell, statement, False)

    def _add(self, name, binding, table=None):
        (self.names if table is None else table).setdefault(name, []).append(binding)

    def _position(self, cell):
        self.count += 1
        return (cell, self.count)

    def _statement(self, cell, node, conditional):
        where = self.order[id(node)] = self._position(cell)
        if isinstance(node, ast.Import):
            for a in node.names:
                module = a.name if a.asname else a.name.split(".")[0]
                self._add(a.asname or module, _Binding(where, "import", node, module=module,
                                                       conditional=conditional))
        elif isinstance(node, ast.ImportFrom):
            module = node.module if node.module and not node.level else None
            for a in node.names:
                if a.name != "*":
                    self._add(a.asname or a.name, _Binding(
                        where, "import", node, conditional=conditional,
                        module=f"{module}.{a.name}" if module else None))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self._add(node.name, _Binding(where, "def", node, conditional=conditional))
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                self._target(where, target, node.value, conditional
                             or isinstance(node, ast.AugAssign))
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    self._add(target.id, _Binding(where, "del", node, conditional=conditional))
        elif isinstance(node, _COMPOUND):
            # a binding inside a branch or a loop may not happen: it hides no earlier one
            for field in ("target", "items", "handlers"):
                for part in _as_list(getattr(node, field, None)):
                    if isinstance(part, ast.withitem) and part.optional_vars is not None:
                        self._target(where, part.optional_vars, part.context_expr, True)
                    elif isinstance(part, ast.ExceptHandler):
                        if part.name:
                            self._add(part.name, _Binding(where, "value", part, None, True))
                        for sub in part.body:
                            self._statement(cell, sub, True)
                    elif isinstance(part, ast.expr):
                        self._target(where, part, getattr(node, "iter", None), True)
            for field in ("body", "orelse", "finalbody"):
                for sub in getattr(node, field, None) or []:
                    self._statement(cell, sub, True)
            for case in getattr(node, "cases", None) or []:
                for sub in case.body:
                    self._statement(cell, sub, True)
        for sub in ast.walk(node):
            if isinstance(sub, ast.NamedExpr) and not isinstance(node, _SCOPES):
                self._target(where, sub.target, sub.value, True)

    def _target(self, where, target, value, conditional):
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
                and len(target.elts) == len(value.elts) \
                and not any(isinstance(e, ast.Starred) for e in target.elts + value.elts):
            for one, its in zip(target.elts, value.elts):
                self._target(where, one, its, conditional)
        elif isinstance(target, ast.Name):
            self._add(target.id, _Binding(where, "value", target, value, None, conditional))
        elif isinstance(target, ast.Attribute) and _dotted(target):
            base, parts = _dotted(target)
            self._add(".".join([base] + parts), _Binding(where, "value", target, value,
                                                         None, conditional), self.attributes)
        elif isinstance(target, (ast.Tuple, ast.List, ast.Starred)):
            for sub in (target.elts if not isinstance(target, ast.Starred) else [target.value]):
                self._target(where, sub, value, conditional)
        else:   # d[k] = value: d may now hold the value
            for sub in ast.walk(target):
                if isinstance(sub, ast.Name):
                    self._add(sub.id, _Binding(where, "value", sub, value, None, True))

    def resolve(self, name, position, table=None):
        """The bindings of ``name`` that may be in effect at ``position``."""
        found = []
        for binding in reversed((self.names if table is None else table).get(name, [])):
            if binding.position >= position:
                continue
            if binding.kind != "del":
                found.append(binding)
            if not binding.conditional:
                break
        return found


def _as_list(value):
    return value if isinstance(value, list) else [] if value is None else [value]


class _Reach:
    """Walk the code an answer reaches and describe each forbidden name it uses."""

    def __init__(self, notebook, forbid, tests, own):
        self.notebook, self.forbid, self.tests, self.own = notebook, forbid, tests, set(own)
        self.todo, self.done, self.found, self.qualifying = deque(), set(), {}, set()
        self.roots = set()     # the answers' own bindings: what they compute counts

    def report(self, names, text):
        for name in names:
            for rule in self.forbid:
                if rule not in self.found and _hits(name, rule):
                    self.found[rule] = f"`{rule}` ({text})"

    def follow(self, binding):
        if id(binding) not in self.done:
            self.done.add(id(binding))
            self.todo.append(binding)

    def qualify(self, binding) -> list:
        """The dotted names a binding's value stands for (an import, or an alias of one)."""
        if binding.kind == "import":
            return [binding.module] if binding.module else []
        value = binding.value
        if binding.kind != "value" or value is None or id(binding) in self.qualifying:
            return []
        self.qualifying.add(id(binding))
        try:
            module = _imported(value)
            if module:
                return [module]
            dotted = _dotted(value)
            if dotted is None:
                return []
            base, parts = dotted
            bindings = self.notebook.resolve(base, binding.position)
            if not bindings:
                return [".".join([base] + parts)]
            return [".".join([q] + parts) for b in bindings for q in self.qualify(b)]
        finally:
            self.qualifying.discard(id(binding))

    def read(self, base, parts, position, text):
        """A read of ``base.parts`` at ``position``: check it, and follow its bindings."""
        bindings = self.notebook.resolve(base, position)
        names = [".".join([base] + parts)]
        for binding in bindings:
            names += [".".join([q] + parts) for q in self.qualify(binding)]
            self.follow(binding)
        self.report(names, f"written `{text}`")
        for k in range(1, len(parts) + 1):
            for binding in self.notebook.resolve(".".join([base] + parts[:k]), position,
                                                 self.notebook.attributes):
                self.follow(binding)

    def scan(self, node, position, local=frozenset()):
        """Check the code of ``node``; function bodies run at the tests' position."""
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for sub in node.args.defaults + [d for d in node.args.kw_defaults if d]:
                self.scan(sub, position, local)
            for sub in getattr(node, "decorator_list", []):
                self.scan(sub, position, local)
            inner = local | _locals(node)
            for sub in _as_list(node.body):
                self.scan(sub, self.tests, inner)
            return
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            local = local | _locals(node)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            if isinstance(node, ast.ImportFrom) and (node.level or not module):
                return
            self.report([f"{module}.{a.name}" if module else a.name for a in node.names]
                        + ([module] if module else []), "an import")
            return
        module = _imported(node)
        if module:
            self.report([module], "an import")
        if isinstance(node, ast.Subscript) and _constant(node.slice) is not None \
                and isinstance(node.value, ast.Call) and _dotted(node.value.func) in (
                    ("globals", []), ("vars", []), ("locals", [])):
            self.read(_constant(node.slice), [], position, _constant(node.slice))
        dotted = _dotted(node) if isinstance(node, (ast.Attribute, ast.Name, ast.Call)) else None
        if dotted and isinstance(getattr(node, "ctx", ast.Load()), ast.Load) \
                and (not isinstance(node, ast.Call) or dotted[1]):
            base, parts = dotted
            if base not in local:
                self.read(base, parts, position, ".".join([base] + parts))
            if not isinstance(node, ast.Call):
                return
            node = node.args[0]   # getattr(x, "name"): x's own code was not read yet
            while isinstance(node, ast.Attribute):
                node = node.value
        for sub in ast.iter_child_nodes(node):
            self.scan(sub, position, local)

    def run(self):
        while self.todo:
            item = self.todo.popleft()
            if isinstance(item, tuple):          # a statement of the answer's own cells
                self.scan(*item)
                continue
            if item.kind == "def":
                self.scan(item.node, item.position)
            elif item.kind == "value" and item.value is not None:
                if item.position[0] in self.own or id(item) in self.roots \
                        or not _computed(item.value):
                    self.scan(item.value, item.position)
                else:
                    # data computed outside the question's cells (the chapter's, say) is
                    # data: only an instance of a notebook class brings its code along
                    for call in _calls(item.value):
                        dotted = _dotted(call.func)
                        for binding in self.notebook.resolve(dotted[0], item.position) \
                                if dotted and not dotted[1] else []:
                            if isinstance(binding.node, ast.ClassDef):
                                self.follow(binding)
        return list(self.found.values())


def _calls(node):
    """The calls of an expression, outside the lambdas it defines."""
    todo, found = [node], []
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Call):
            found.append(node)
        todo += ast.iter_child_nodes(node)
    return found


def _computed(value) -> bool:
    """Whether a value is the result of a call (data), not a reference to code."""
    return not (_dotted(value) or _imported(value)) and bool(_calls(value))


def forbidden_uses(all_sources, solution_sources, forbid, *, span=None, until=None,
                   answers=None) -> list:
    """Each forbidden name the answer (or code it reaches) uses, described.

    Parameters
    ----------
    all_sources : list of str
        The notebook's code cells, in order.
    solution_sources : list of str
        The question's own cells. Without ``span`` they are read as cells
        after ``all_sources``.
    forbid : list of str
        The exercise's rule: dotted names.
    span : list of int, optional
        Indices in ``all_sources`` of the question's cells (``solution_sources``
        is then not used).
    until : int, optional
        Index of the last cell before the question's tests (default: the last).
    answers : list of str, optional
        The names the question's answer binds. When given, the code checked is
        what these names reach at the tests, wherever it is; otherwise every
        statement of the question's cells and what it reaches.

    Returns
    -------
    list of str
        One description per rule broken: ``"`mlcore` (written `ml.sigmoid`)"``.
    """
    if not forbid:
        return []
    sources = list(all_sources)
    if span is None:
        span = list(range(len(sources), len(sources) + len(solution_sources)))
        sources += list(solution_sources)
        until = len(sources) - 1
    elif until is None:
        until = len(sources) - 1
    trees = [parse_or_none(s) for s in sources[:until + 1]]
    notebook = _Notebook(trees)
    tests = (until + 1, 0)
    reach = _Reach(notebook, list(forbid), tests, span)
    if answers:
        for name in answers:
            for binding in notebook.resolve(name, tests):
                reach.roots.add(id(binding))
                reach.follow(binding)
    else:
        for cell in span:
            if cell <= until and trees[cell] is not None:
                for statement in trees[cell].body:
                    reach.todo.append((statement, notebook.order[id(statement)]))
    try:
        return reach.run()
    except RecursionError:    # code nested too deeply to follow: what was found so far
        return list(reach.found.values())


def question_uses(plan, number: int, question: dict) -> list:
    """:func:`forbidden_uses` of question ``number`` of a plan from ``_grade._plan``."""
    sources, _, points, spans, _, _ = plan
    span = spans[number]
    return forbidden_uses(sources, [sources[i] for i in span], question.get("forbid"),
                          span=span, until=points[number], answers=question.get("answers"))
