"""The shape of mlcore's imports: no circle, private modules stay private, notebooks use public faces.

The imports are read with :mod:`ast`, not executed: every ``import`` and
``from ... import`` in a file counts, at module level or inside a function
(a deferred import still ties two modules together; it only hides a circle
until the function runs). A module's private modules (a name starting with
``_``) may be imported only from inside the package that holds them, so a
topic package uses another topic through its ``__init__`` (its public
face). The top-level private modules (``mlcore._validation``,
``mlcore._parallel``, ...) are the shared layer, open to every module of
``mlcore``. ``mlcore.homework``'s subpackages are layers (``HOMEWORK_LAYERS``,
bottom up): each imports only the ones below it.

Each rule is also run on a small package written to ``tmp_path`` that breaks
it, so that the test can be seen to fail.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


# -- the graph ---------------------------------------------------------------------
def package_modules(package_dir: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file under ``package_dir``."""
    modules = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _imported_names(tree: ast.AST, module: str, is_package: bool):
    """The absolute module names an AST imports (each ``import`` node, at any depth)."""
    here = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = here.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                yield base, alias.name


def import_graph(package_dir: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports.

    ``from pkg.a import b`` points at ``pkg.a.b`` when that is a module,
    else at ``pkg.a`` (a name defined there). The parent packages Python
    also initializes on the way are not counted: every module would
    otherwise depend on the package's ``__init__``.
    """
    modules = package_modules(package_dir)
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets = set()
        for base, member in _imported_names(tree, name, path.name == "__init__.py"):
            if member is not None and f"{base}.{member}" in modules:
                targets.add(f"{base}.{member}")
            elif base in modules:
                targets.add(base)
        targets.discard(name)
        graph[name] = targets
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index, low, on_stack, stack, cycles = {}, {}, set(), [], []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(cycles)


def private_owner(module: str) -> str | None:
    """The package a module is private to: the parent of its last ``_`` component, if any.

    ``mlcore.linear._estimator`` is private to ``mlcore.linear``;
    ``mlcore._validation._numbers`` to ``mlcore._validation``;
    ``mlcore._validation`` to ``mlcore`` (the shared layer); ``mlcore.lda``
    to nobody. The deepest private component is the tightest restriction.
    """
    parts = module.split(".")
    for depth in range(len(parts) - 1, 0, -1):
        if parts[depth].startswith("_"):
            return ".".join(parts[:depth])
    return None


def private_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, imported) pairs where a module imports a private module of a package it is not in."""
    found = []
    for importer, targets in sorted(graph.items()):
        for target in sorted(targets):
            owner = private_owner(target)
            if owner is not None and importer != owner and not importer.startswith(owner + "."):
                found.append((importer, target))
    return found


def layer_imports(graph: dict[str, set[str]], package: str,
                  layers: tuple[str, ...]) -> list[tuple[str, str]]:
    """(importer, imported) pairs where a subpackage of ``package`` imports upwards.

    ``layers`` names ``package``'s subpackages from the bottom up: a module
    of one may import the ones below it (and what is outside ``package``),
    never one above it, nor the modules at ``package``'s top (its
    ``__init__``, the command line), which sit above every layer.
    """
    rank = {f"{package}.{name}": number for number, name in enumerate(layers)}

    def layer(module):
        for prefix, number in rank.items():
            if module == prefix or module.startswith(prefix + "."):
                return number
        return len(layers) if module == package or module.startswith(package + ".") \
            else None

    return [(importer, target) for importer, targets in sorted(graph.items())
            if importer.startswith(package + ".") and layer(importer) < len(layers)
            for target in sorted(targets)
            if layer(target) is not None and layer(target) > layer(importer)]


# -- notebooks -----------------------------------------------------------------------
_MAGIC = re.compile(r"^\s*[%!]")


def private_uses_in_code(source: str, package: str = "mlcore") -> list[str]:
    """The private modules or names of ``package`` a code cell imports or reaches by attribute."""
    code = "\n".join("" if _MAGIC.match(line) else line for line in source.splitlines())
    found = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names
                      if a.name.split(".")[0] == package and private_owner(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and \
                (node.module or "").split(".")[0] == package:
            if private_owner(node.module):
                found.append(node.module)
            found += [f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and \
                not node.attr.startswith("__"):
            chain, value = [node.attr], node.value
            while isinstance(value, ast.Attribute):
                chain.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id == package:
                found.append(".".join([package, *reversed(chain)]))
    return found


def notebook_private_uses(notebook: Path) -> list[str]:
    """``cell N: name`` for each private mlcore module or name a notebook's code cells use."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return [f"cell {number}: {name}" for number, cell in enumerate(cells)
            if cell["cell_type"] == "code"
            for name in private_uses_in_code("".join(cell["source"]))]


# -- mlcore ----------------------------------------------------------------------------
@functools.cache
def _mlcore_graph() -> dict[str, set[str]]:
    return import_graph(ROOT / "mlcore")


def test_mlcore_has_no_import_circle():
    graph = _mlcore_graph()
    assert len(graph) > 50 and "mlcore.lda._fisher" in graph["mlcore.lda"]   # the walk saw mlcore
    assert find_cycles(graph) == []


def test_mlcore_private_modules_are_imported_only_inside_their_package():
    assert private_imports(_mlcore_graph()) == []


# mlcore.homework's subpackages, bottom up: the sandbox runs code, grading uses it,
# editions are checked by grading, and the class is built on grades. Editions and
# the sandbox know nothing of the class; no layer knows the command line.
HOMEWORK_LAYERS = ("sandbox", "grading", "editions", "classroom")
# What stays at mlcore.homework's top: the public API, the command line, and the
# Sphinx extension (its module name is written in the site's configuration).
HOMEWORK_TOP = {"mlcore.homework", "mlcore.homework.__main__",
                "mlcore.homework.sphinx_student"}


def test_homework_layers_import_only_downwards():
    graph = _mlcore_graph()
    layers = {f"mlcore.homework.{name}" for name in HOMEWORK_LAYERS}
    outside = sorted(module for module in graph if module.startswith("mlcore.homework")
                     and module not in HOMEWORK_TOP and module not in layers
                     and module.rpartition(".")[0] not in layers)
    assert outside == []           # every module has its room (or is named at the top)
    assert "mlcore.homework.sandbox" in graph["mlcore.homework.grading._grade"]
    assert layer_imports(graph, "mlcore.homework", HOMEWORK_LAYERS) == []


def test_chapters_import_mlcore_from_public_faces_only():
    notebooks = sorted((ROOT / "chapters").glob("*.ipynb"))
    assert len(notebooks) >= 12
    found = {nb.name: uses for nb in notebooks if (uses := notebook_private_uses(nb))}
    assert found == {}


def test_multiclass_and_imbalance_stay_importable_as_faces_of_chapter_11():
    import mlcore
    import mlcore.imbalance
    import mlcore.lda
    import mlcore.multiclass
    for face in (mlcore.multiclass, mlcore.imbalance):
        assert face.__all__, face
        for name in face.__all__:
            assert getattr(face, name) is getattr(mlcore.lda, name) is getattr(mlcore, name), name
    # each name is listed by one face only, so the API page documents it once
    faces = [mlcore.lda.__all__, mlcore.multiclass.__all__, mlcore.imbalance.__all__]
    assert sum(map(len, faces)) == len(set().union(*faces))


# -- the rules can fail ------------------------------------------------------------------
def _write_package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pkg"


def test_a_circle_is_found_through_a_deferred_or_bottom_import(tmp_path):
    package = _write_package(tmp_path, {
        "pkg/__init__.py": "from . import topic\n",
        "pkg/topic/__init__.py": "from ._first import f\n",
        "pkg/topic/_first.py": "def f():\n    from ._second import g   # deferred: still an edge\n"
                               "    return g()\n",
        "pkg/topic/_second.py": "import os\n\ndef g():\n    return 1\n\nfrom ._first import f  # bottom\n",
        "pkg/other.py": "import pkg.topic\nfrom pkg import topic as t\n",
    })
    graph = import_graph(package)
    assert graph["pkg.topic._first"] == {"pkg.topic._second"}
    assert graph["pkg.other"] == {"pkg.topic"}
    assert find_cycles(graph) == [["pkg.topic._first", "pkg.topic._second"]]
    (package / "topic" / "_second.py").write_text("def g():\n    return 1\n")
    assert find_cycles(import_graph(package)) == []


def test_a_topic_importing_another_topics_private_module_is_found(tmp_path):
    package = _write_package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/_shared.py": "",
        "pkg/_layer/__init__.py": "from ._inner import check\n",
        "pkg/_layer/_inner.py": "check = 1\n",
        "pkg/linear/__init__.py": "from ._estimator import Model, _helper\n",
        "pkg/linear/_estimator.py": "from .._shared import *\nfrom .._layer import check\nModel = _helper = 1\n",
        "pkg/bayes/__init__.py": "from ._logistic import Bayes\n",
        "pkg/bayes/_logistic.py": "from ..linear import Model, _helper   # the public face: fine\n"
                                  "from .. import _shared                 # the shared layer: fine\n"
                                  "Bayes = 1\n",
    })
    assert private_imports(import_graph(package)) == []
    (package / "bayes" / "_logistic.py").write_text(
        "from ..linear._estimator import Model\nimport pkg._layer._inner\nBayes = 1\n")
    assert private_imports(import_graph(package)) == [
        ("pkg.bayes._logistic", "pkg._layer._inner"), ("pkg.bayes._logistic", "pkg.linear._estimator")]


def test_an_import_up_the_layers_is_found(tmp_path):
    package = _write_package(tmp_path, {
        "pkg/__init__.py": "from .high import h\n",
        "pkg/__main__.py": "from .low import f\n",
        "pkg/low/__init__.py": "from ._a import f\n",
        "pkg/low/_a.py": "def f():\n    return 1\n",
        "pkg/high/__init__.py": "from ._b import h\n",
        "pkg/high/_b.py": "from ..low import f\nh = f\n",
    })
    layers = ("low", "high")
    assert layer_imports(import_graph(package), "pkg", layers) == []
    (package / "low" / "_a.py").write_text(
        "def f():\n    from ..high import h  # deferred: still up\n    return h\n")
    (package / "low" / "__init__.py").write_text(
        "from ._a import f\nfrom .. import __main__\n")
    assert layer_imports(import_graph(package), "pkg", layers) == [
        ("pkg.low", "pkg.__main__"), ("pkg.low._a", "pkg.high")]


def test_a_notebook_reaching_a_private_module_or_name_is_found(tmp_path):
    cells = [
        {"cell_type": "markdown", "source": ["from mlcore.lda._fisher import x"]},
        {"cell_type": "code", "source": ["%matplotlib inline\n", "from mlcore.lda import FisherLDA\n",
                                         "import mlcore\n", "mlcore.lda.FisherLDA\n"]},
        {"cell_type": "code", "source": ["from mlcore.lda._fisher import scatter_matrices\n"]},
        {"cell_type": "code", "source": ["import mlcore._validation as v\n",
                                         "from mlcore.lda import _check_two_class\n",
                                         "mlcore.divergence._kl.gaussian_kl\n"]},
    ]
    notebook = tmp_path / "chapter.ipynb"
    notebook.write_text(json.dumps({"cells": cells}))
    assert notebook_private_uses(notebook) == [
        "cell 2: mlcore.lda._fisher", "cell 3: mlcore._validation",
        "cell 3: mlcore.lda._check_two_class", "cell 3: mlcore.divergence._kl"]
