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
