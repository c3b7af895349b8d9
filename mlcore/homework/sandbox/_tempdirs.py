"""The grader's temporary folders: each one removed, whatever stops the run.

A run leaves in its folders a student's code, outputs and executed notebook
(``mlcore-executed-*`` holds the whole class's), so none may outlive the
command. Every folder the grader makes in ``tempfile.gettempdir()`` comes from
:func:`make_dir` and is removed by :func:`remove_dir` in a ``finally``;
:func:`remove_all`, which ``python -m mlcore.homework`` calls when a command
ends (an error, ``KeyboardInterrupt``), removes those still there, such as
one made in the moment before its ``try``. :func:`remove_dir` first makes
every folder inside writable again (a notebook may ``chmod`` its own), without
following a link out of the folder.

A process killed outright (``SIGKILL``, out of memory) runs no ``finally``.
A Dask worker grades inside :func:`made_under` its own local directory, so
the folders a killed worker leaves are removed with that directory when the
next worker starts in the same workspace (Dask purges the directories of
dead workers).

Examples
--------
>>> folder = make_dir("mlcore-example-")
>>> (folder / "x.txt").write_text("x")
1
>>> remove_dir(folder)
>>> folder.exists()
False
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import threading
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

__all__ = ["make_dir", "made_under", "remove_dir", "remove_all"]

_LIVE: set = set()
_LOCK = threading.Lock()          # grading threads make and remove folders at once
# Per thread (a context variable), not per process: a Dask worker may run in
# the teacher's own process (processes=False), whose other folders stay in /tmp.
_BASE: ContextVar = ContextVar("mlcore_homework_tempdir_base", default=None)


@contextmanager
def made_under(folder):
    """Make this thread's :func:`make_dir` folders inside ``folder`` while the block runs.

    Dask's ``_grade_task`` grades inside the worker's ``local_directory``:
    should the worker be killed mid-run, its successor's workspace removes
    that directory, and with it the submission's code and outputs.
    """
    token = _BASE.set(os.fspath(folder))
    try:
        yield
    finally:
        _BASE.reset(token)


def base_dir() -> str | None:
    """The folder :func:`make_dir` makes folders in now (None: the temporary folder)."""
    return _BASE.get()


def make_dir(prefix: str) -> Path:
    """A new private folder in the temporary folder (or :func:`made_under`'s folder),
    removed by :func:`remove_all`."""
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=_BASE.get()))
    with _LOCK:
        _LIVE.add(path)
    return path


def _writable(folder: Path) -> None:
    for root, dirs, _ in os.walk(folder):
        for name in dirs:
            path = os.path.join(root, name)
            # a link to a folder is listed here too: never chmod through it
            if not os.path.islink(path):
                os.chmod(path, stat.S_IRWXU)


def remove_dir(path) -> None:
    """Remove a folder made by :func:`make_dir`, whatever a run did to its modes."""
    path = Path(path)
    try:
        if path.is_dir() and not path.is_symlink():
            os.chmod(path, stat.S_IRWXU)
            _writable(path)
    except OSError:
        pass                      # rmtree below still removes what it can
    shutil.rmtree(path, ignore_errors=True)
    with _LOCK:
        _LIVE.discard(path)


def remove_all() -> None:
    """Remove every folder :func:`make_dir` made that is still there."""
    with _LOCK:
        live = sorted(_LIVE)
    for path in live:
        remove_dir(path)
