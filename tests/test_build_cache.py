"""Every build reads the one execution cache (``_ext/shared_cache.py``).

The site, the student site (``--path-output _build/student``), the PDF and a
translated edition must find the notebooks that ``scripts/execute_notebooks.py``
executed into ``_build/.jupyter_cache``, whatever their output path or the
working directory; before, the student site started an empty cache and
executed every chapter again.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))
sys.path.insert(0, str(ROOT / "scripts"))
import execute_notebooks  # noqa: E402
from shared_cache import resolve_cache_path  # noqa: E402


def test_the_config_names_the_cache_that_execute_notebooks_fills():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert (ROOT / config["execute"]["cache"]).resolve() == execute_notebooks.CACHE.resolve()
    assert "shared_cache" in config["sphinx"]["local_extensions"]


def test_a_relative_cache_is_the_books_whatever_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # e.g. jupyter-book run from another folder
    app = SimpleNamespace(srcdir=str(ROOT))
    config = SimpleNamespace(nb_execution_cache_path="_build/.jupyter_cache")
    resolve_cache_path(app, config)
    assert config.nb_execution_cache_path == str(execute_notebooks.CACHE.resolve())
    absolute = SimpleNamespace(nb_execution_cache_path=str(tmp_path / "elsewhere"))
    resolve_cache_path(app, absolute)
    assert absolute.nb_execution_cache_path == str(tmp_path / "elsewhere")
    unset = SimpleNamespace(nb_execution_cache_path="")
    resolve_cache_path(app, unset)  # myst-nb's own default then applies
    assert unset.nb_execution_cache_path == ""


def test_the_student_sites_config_keeps_the_shared_cache(tmp_path):
    from mlcore.homework.sphinx_student import write_student_config

    written = yaml.safe_load(write_student_config(ROOT, tmp_path / "student.yml").read_text(
        encoding="utf-8"))
    assert written["execute"]["cache"] == "_build/.jupyter_cache"
    assert Path(written["sphinx"]["local_extensions"]["shared_cache"]) == ROOT / "_ext"


def _git_project(root: Path) -> None:
    import subprocess

    root.mkdir()
    for name, text in {"requirements.txt": "numpy==2.0\n", "pyproject.toml": "[project]\n",
                       ".gitignore": "_build/\n", "chapters/01.ipynb": "{}\n"}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "."], cwd=root, check=True)


def test_a_build_is_skipped_only_when_no_input_changed(tmp_path, monkeypatch):
    """``test`` after ``book`` builds nothing; any edited, new or deleted input (not a test) rebuilds."""
    import tasks

    root = tmp_path / "book"
    _git_project(root)
    monkeypatch.setattr(tasks, "ROOT", root)
    monkeypatch.setattr(tasks, "BUILD", root / "_build")
    (root / "_build").mkdir()
    index = root / "_build" / "index.html"
    index.write_text("<html></html>")
    built = tasks.build_inputs_hash()
    assert not tasks._up_to_date("site-en", built, index)  # never built
    tasks._record_built("site-en", built)
    assert tasks._up_to_date("site-en", tasks.build_inputs_hash(), index)
    (root / "_build" / "cache.db").write_text("ignored by git: not an input")
    assert tasks._up_to_date("site-en", tasks.build_inputs_hash(), index)
    assert not tasks._up_to_date("pdf", tasks.build_inputs_hash(), index)  # its own stamp
    (root / "tests").mkdir()
    (root / "tests" / "test_x.py").write_text("def test_x(): pass\n")  # no build reads it
    assert tasks._up_to_date("site-en", tasks.build_inputs_hash(), index)
    for change in (lambda: (root / "chapters" / "01.ipynb").write_text('{"cells": []}\n'),
                   lambda: (root / "chapters" / "02.ipynb").write_text("{}\n"),  # untracked
                   lambda: (root / "chapters" / "02.ipynb").unlink(),
                   lambda: (root / "requirements.txt").write_text("numpy==2.1\n")):
        change()
        now = tasks.build_inputs_hash()
        assert not tasks._up_to_date("site-en", now, index)
        tasks._record_built("site-en", now)
    index.unlink()  # an output removed by hand is built again
    assert not tasks._up_to_date("site-en", tasks.build_inputs_hash(), index)
