"""A chapter notebook's cells as tests, judged on the build's run of the notebook.

``python scripts/tasks.py test`` builds the site first, and the build runs
every chapter (``scripts/execute_notebooks.py``, ``allow_errors=False``, one
BLAS thread, the project's kernel profile) into ``_build/.jupyter_cache``: a
cell that raises fails the build, naming the cell. Running each notebook
again under nbval in the same command checked the same thing a second time
(305 worker-seconds of a 2-core budget). With ``--notebooks-from-cache``
each code cell of ``chapters/NN_*.ipynb`` is still one test, named as nbval
names it (``chapters/NN_name.ipynb::Cell K``), and it passes when the cached
run of that exact code shows no error output for the cell. A notebook whose
code is not in the cache (edited since the build) fails every cell with the
command that brings the cache up to date; nothing is skipped.

Outside the test command, ``pytest --nbval-lax --nbval-current-env
chapters/NN_name.ipynb`` still runs a notebook afresh under nbval.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "_build" / ".jupyter_cache"


class CachedCellError(Exception):
    """A cell whose cached run raised, or that has no cached run."""


class NotebookCachePlugin:
    def pytest_collect_file(self, file_path, parent):
        if (file_path.suffix == ".ipynb" and file_path.parent.name == "chapters"
                and file_path.name[:2].isdigit()):
            return CachedNotebook.from_parent(parent, path=file_path)
        return None


def cached_run(path: Path, cache_folder: Path = CACHE):
    """``(notebook, the same with its cached outputs, None)``, or ``(notebook, None, why)``."""
    import nbformat
    from jupyter_cache import get_cache

    notebook = nbformat.read(str(path), as_version=4)
    if not cache_folder.is_dir():
        return notebook, None, f"there is no execution cache {cache_folder}"
    try:
        _, merged = get_cache(str(cache_folder)).merge_match_into_notebook(notebook)
    except KeyError:
        return notebook, None, ("the build's execution cache holds no run of this code (not "
                                "built yet, or the notebook changed since the last build)")
    return notebook, merged, None


def cell_failure(source, cached, why=None):
    """Why a code cell fails, judged on its cached run (``cached``); None when it passed."""
    if cached is None:
        return (f"{why or 'no cached run'}: run `python scripts/tasks.py book` (or "
                "`scripts/execute_notebooks.py`) first")
    if cached.source != source.source:
        return "the cached run is of other code than this cell's"
    for output in cached.get("outputs", []):
        if output.get("output_type") == "error":
            return (f"{output.get('ename')}: {output.get('evalue')}\n"
                    + "\n".join(output.get("traceback", []))[-3000:])
    return None


class CachedNotebook(pytest.File):
    def collect(self):
        source, merged, why = cached_run(self.path)
        code = [i for i, cell in enumerate(source.cells) if cell.cell_type == "code"]
        for number, index in enumerate(code):
            cell = merged.cells[index] if merged is not None else None
            yield CachedCell.from_parent(self, name=f"Cell {number}", source=source.cells[index],
                                         cached=cell, why=why)


class CachedCell(pytest.Item):
    def __init__(self, *, source, cached, why, **kwargs):
        super().__init__(**kwargs)
        self.source, self.cached, self.why = source, cached, why

    def runtest(self):
        failure = cell_failure(self.source, self.cached, self.why)
        if failure:
            raise CachedCellError(failure)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CachedCellError):
            return f"{self.nodeid}:\n{self.source.source[:500]}\n-> {excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, self.nodeid
