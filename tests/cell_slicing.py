"""Which of a chapter's code cells its exercises need: one backward slice for the tests.

``tests/test_wrong_solutions.py`` runs only these cells in process, and
``tests/test_homework.py`` tags the others ``heavy`` before the grader runs a
sliced edition (``sliced_for_grading``). The slice is over the names cells
bind and read, and errs on the side of keeping a cell: a cell that is not
plain Python (an IPython magic), declares ``global`` or star-imports is
kept; a cell that may change an object in place (a method of ``_MUTATORS``,
a bare method call, an attribute or item assignment, a generator handed on
as ``random_state``) counts as binding it; a draw from a module's global
random state binds and reads ``GLOBAL_RANDOM``, so every such cell before a
kept one is kept. The set of names to provide only grows towards the top, so
every earlier cell that binds a needed name is kept, even one a later cell
rebinds.
"""

from __future__ import annotations

import ast
import copy
import re
import symtable

# Methods that change their object: numpy generators' draws and in-place updates.
_MUTATORS = {"normal", "uniform", "integers", "random", "choice", "permutation",
             "permuted", "shuffle", "binomial", "standard_normal",
             "multivariate_normal",
             "exponential", "poisson", "beta", "gamma", "multinomial", "dirichlet",
             "laplace", "spawn", "fit", "partial_fit", "append", "extend", "update",
             "setdefault", "insert", "sort", "pop", "remove", "clear", "add"}
# Keyword arguments that hand a generator on: the callee draws from it.
_GENERATOR_KEYWORDS = {"random_state", "rng"}
# A pseudo-name: the global state of numpy's and Python's `random` modules.
GLOBAL_RANDOM = "<global random state>"
_CONSTRUCTOR = re.compile(r"^(default_rng|[A-Z])")


def _scope_reads(table) -> set:
    """Global names that the functions, lambdas and comprehensions of ``table`` read."""
    found = set()
    for child in table.get_children():
        found |= {s.get_name() for s in child.get_symbols()
                  if s.is_global() and s.is_referenced()}
        found |= _scope_reads(child)
    return found


def _base(node):
    """The name at the root of ``a.b[c].d(...)``, or None."""
    while isinstance(node, (ast.Subscript, ast.Attribute, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _chain(node) -> list:
    """The attribute names of a call's function, root first: np.random.normal -> 3."""
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        names.append(node.id)
    return names[::-1]


def bound_and_read(source: str, modules=frozenset(), imports_bind: bool = False):
    """Names a cell binds (or may change in place) and names it reads from earlier.

    Scopes come from :mod:`symtable`, so a function's parameters and locals and a
    comprehension's variables are not read from earlier cells; a module-level
    name whose first use is a binding (a loop variable) is not read either.
    ``modules`` are the names the notebook imports: a call of a module's
    function (``np.mean(...)``) changes nothing a later cell reads, except a
    draw from a global random state. Imports bind their names only when
    ``imports_bind`` (the grader skips a cell whole; the in-process run of
    ``test_wrong_solutions`` runs every cell's imports anyway). Returns
    ``(bound, read)``, or None when the cell must be kept whatever it reads.
    """
    try:
        tree = ast.parse(source)
        table = symtable.symtable(source, "<cell>", "exec")
    except (SyntaxError, ValueError):       # IPython magics
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.Global, ast.Nonlocal)) or (
                isinstance(node, ast.ImportFrom)
                and any(a.name == "*" for a in node.names)):
            return None
    symbols = {s.get_name(): s for s in table.get_symbols()}
    imported = {name for name, s in symbols.items() if s.is_imported()}
    bound = {name for name, s in symbols.items()
             if s.is_assigned() and not s.is_imported()}
    if imports_bind:
        bound |= imported
    first = {}
    for node in sorted((n for n in ast.walk(tree) if isinstance(n, ast.Name)),
                       key=lambda n: (n.lineno, n.col_offset)):
        first.setdefault(node.id, isinstance(node.ctx, ast.Load))
        if isinstance(node.ctx, ast.Del):
            bound.add(node.id)
    read = {name for name, s in symbols.items()
            if s.is_referenced() and first.get(name, True)} | _scope_reads(table)
    for node in ast.walk(tree):
        # x.a = ..., x[i] = ..., del x[i] change x.
        if isinstance(node, (ast.Subscript, ast.Attribute)) and not isinstance(
                node.ctx, ast.Load):
            name = _base(node.value)
            if name is not None:
                bound.add(name)
        # A bare call `model.fit(X, y)`, at any depth, may change its object (a
        # module's functions, `np.mean(...)`, change nothing the checks read).
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and \
                isinstance(node.value.func, ast.Attribute):
            name = _base(node.value.func.value)
            if name is not None and name not in modules:
                bound.add(name)
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        # A draw from a generator changes it, and so does handing it on as a
        # random_state: the cells after it see another state.
        if (isinstance(func, ast.Attribute) and func.attr in _MUTATORS
                and isinstance(func.value, ast.Name)
                and func.value.id not in modules):
            bound.add(func.value.id)
        bound |= {k.value.id for k in node.keywords
                  if k.arg in _GENERATOR_KEYWORDS and isinstance(k.value, ast.Name)}
        chain = _chain(func)
        # np.random.normal(...) draws from numpy's global state (a constructor,
        # np.random.default_rng(0), does not).
        if chain and chain[0] in modules and not _CONSTRUCTOR.match(chain[-1]) and (
                "random" in chain[1:-1] or (chain[0] == "random" and len(chain) > 1)):
            bound.add(GLOBAL_RANDOM)
            read.add(GLOBAL_RANDOM)
    return bound, read - imported


def imports_of(source: str) -> str:
    """The cell's top-level import statements (cheap, run even when the cell is not)."""
    tree = ast.parse(source)
    return "\n".join(ast.unparse(node) for node in tree.body
                     if isinstance(node, (ast.Import, ast.ImportFrom)))


def imported_names(sources) -> set:
    """The names the cells' top-level imports bind (plain-Python cells only)."""
    modules = set()
    for source in sources:
        try:
            body = ast.parse(source).body
        except (SyntaxError, ValueError):
            continue
        modules |= {alias.asname or alias.name.split(".")[0]
                    for statement in body
                    if isinstance(statement, (ast.Import, ast.ImportFrom))
                    for alias in statement.names}
    return modules


def needed_cells(sources: list, wanted: dict, keep=(),
                 imports_bind: bool = False) -> set:
    """Indices of the cells to run: a backward slice from each question's own code.

    ``wanted`` maps a cell index (a question's snapshot point) to the code whose
    names must be defined there (its solution cells and its checks); the
    cells of ``keep`` and of ``wanted`` are kept whatever they bind.
    """
    modules = imported_names(sources)
    kept, need = set(), set()
    for k in range(len(sources) - 1, -1, -1):
        for code in wanted.get(k, []):
            found = bound_and_read(code, modules, imports_bind)
            if found is not None:
                need |= found[1]
        found = bound_and_read(sources[k], modules, imports_bind)
        if k in wanted or k in keep or found is None or found[0] & need:
            kept.add(k)
            if found is not None:
                need |= found[1]
    return kept


def sliced_for_grading(nb, spec: dict, checks: bool):
    """``nb`` with every code cell its questions do not need tagged ``heavy``.

    The grader skips cells tagged ``heavy``. The slice starts from each
    question's solution (or stub) cells, at its snapshot point, and, when
    ``checks``, from the names its checks read there (the grader saves the
    reference's names there; without ``checks`` the checks take them from
    another run's reference). Returns the edited copy and how many code cells
    it skips.
    """
    from mlcore.homework.grading._plan import adopt_chapter_ids, plan_notebook

    nb = adopt_chapter_ids(copy.deepcopy(nb), spec)
    sources, where, points, spans, coded, _ = plan_notebook(nb, spec)
    wanted, solutions = {}, set()
    for n, q in enumerate(coded):
        solutions |= set(spans[n])
        code = [sources[k] for k in spans[n]]
        if checks:
            code += [t["source"] for t in q["tests"]]
        wanted.setdefault(points[n], []).extend(code)
    keep = needed_cells(sources, wanted, solutions, imports_bind=True)
    skipped = 0
    for k, i in enumerate(where):
        if k not in keep:
            cell = nb["cells"][i] = copy.deepcopy(nb["cells"][i])
            cell.setdefault("metadata", {}).setdefault("tags", []).append("heavy")
            skipped += 1
    return nb, skipped
