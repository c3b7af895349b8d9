"""``assign --bundle FILE.zip``: what a class needs, without any solution or hidden test.

The zip holds the ``mlcore`` wheel (built from this checkout, without the
chapters), the student notebooks, a ``requirements.txt`` with what running
the notebooks needs (the libraries they import, pinned as in the course's
``requirements.txt``, and JupyterLab; not the book's build tools) and a
``README.txt`` with the one ``pip install`` line. It is checked before it is
written: no hidden test, no solution line and no chapter notebook is in it.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

__all__ = ["write_bundle", "student_requirements", "INSTALL"]

DISTRIBUTIONS = {"numpy": "numpy", "scipy": "scipy", "sklearn": "scikit-learn",
                 "pandas": "pandas", "matplotlib": "matplotlib", "ipywidgets": "ipywidgets",
                 "statsmodels": "statsmodels", "mlxtend": "mlxtend",
                 "imblearn": "imbalanced-learn", "joblib": "joblib", "tqdm": "tqdm"}
INSTALL = "pip install -r requirements.txt mlcore-*.whl"


def _root() -> Path:
    return Path(__file__).resolve().parents[3]


def student_requirements(notebooks) -> str:
    """Pinned requirements of these notebooks' imports, plus JupyterLab."""
    names = {"jupyterlab", "ipykernel", "ipywidgets"}
    for path in notebooks:
        nb = json.loads(Path(path).read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell.get("cell_type") != "code":
                continue
            try:
                tree = ast.parse("".join(cell["source"]) if isinstance(cell["source"], list)
                                 else cell["source"])
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                modules = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                           [node.module] if isinstance(node, ast.ImportFrom) and node.module
                           else [])
                names |= {DISTRIBUTIONS[m.split(".")[0]] for m in modules
                          if m.split(".")[0] in DISTRIBUTIONS}
    pins = {}
    lock = _root() / "requirements.txt"
    if lock.is_file():
        for line in lock.read_text(encoding="utf-8").splitlines():
            match = re.match(r"^([A-Za-z0-9_.-]+)==(\S+)", line)
            if match:
                pins[match.group(1).lower()] = match.group(2)
    return "".join(f"{n}=={pins[n.lower()]}\n" if n.lower() in pins else f"{n}\n"
                   for n in sorted(names))


def _wheel(folder: Path) -> Path:
    import shutil
    source = folder / "source"      # a copy: the build leaves nothing in the checkout
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (_root() / name).is_file():
            shutil.copy(_root() / name, source / name)
    shutil.copytree(_root() / "mlcore", source / "mlcore",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "--no-build-isolation", "--no-index", "-q", "-w", str(folder),
                           str(source)], capture_output=True, text=True, timeout=600)
    wheels = sorted(folder.glob("mlcore-*.whl"))
    if done.returncode != 0 or not wheels:
        raise RuntimeError("could not build the mlcore wheel (pip wheel --no-build-isolation "
                           f"needs setuptools): {done.stderr.strip()[-500:]}")
    return wheels[0]


def _text(cell) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _secrets(items) -> list:
    """Text that must not be handed out: hidden tests and solution lines of each chapter."""
    from ..grading import parse_questions
    found = []
    for item in items:
        nb = json.loads((item.autograder / f"{item.chapter}.ipynb").read_text(encoding="utf-8"))
        for q in parse_questions(nb):
            for i, hidden in q.test_cells:
                if hidden:
                    found += [line.strip() for line in _text(nb["cells"][i]).splitlines()
                              if len(line.strip()) > 30]
            for i in q.solution_cells:
                source, inside = _text(nb["cells"][i]), False
                for line in source.splitlines():
                    if re.match(r"^\s*#\s*(BEGIN|END) SOLUTION", line):
                        inside = "BEGIN" in line
                    elif (inside or re.search(r"#\s*SOLUTION\s*$", line)) \
                            and len(line.strip()) > 30:
                        found.append(re.sub(r"#\s*SOLUTION\s*$", "", line).strip())
    return found


def write_bundle(items, path) -> str:
    """Write the zip for these assigned chapters; return the install line."""
    path = Path(path)
    with tempfile.TemporaryDirectory() as folder:
        wheel = _wheel(Path(folder))
        notebooks = [item.student for item in items]
        texts = {f"student/{p.name}": Path(p).read_text(encoding="utf-8") for p in notebooks}
        texts["requirements.txt"] = student_requirements(notebooks)
        texts["README.txt"] = (f"Install (in a fresh virtual environment):\n\n    {INSTALL}\n\n"
                               "then run `jupyter lab student`.\n")
        leaked = [s for s in _secrets(items) if any(s in t for t in texts.values())]
        if leaked:
            raise RuntimeError(f"the bundle would hand out solution or hidden-test text, e.g. "
                               f"{leaked[0][:80]!r}; not written.")
        with zipfile.ZipFile(wheel) as packed:
            bad = [n for n in packed.namelist() if n.endswith(".ipynb") or "chapters/" in n]
        if bad:
            raise RuntimeError(f"the mlcore wheel holds notebooks {bad[:3]}; not written.")
        path.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bundle:
            bundle.write(wheel, wheel.name)
            for name, text in texts.items():
                bundle.writestr(name, text)
    return f"unzip {path.name} && {INSTALL}"
