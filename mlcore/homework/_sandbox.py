"""Run a list of code cells in an isolated process: the grader's sandbox.

Every run gets its own temporary folder (its working directory and HOME),
a wall-clock timeout, rlimits on address space, CPU time and file size, one
BLAS thread, and, where ``bwrap`` (bubblewrap) works, a mount namespace in
which the whole filesystem is read-only except that folder and a private
``/tmp``, the folders of the other submissions, the tests and the outputs
are hidden, and there is no network and no view of other processes.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .._validation import check_real

__all__ = ["Limits", "RunResult", "bubblewrap_available", "run_cells"]

WORKER = Path(__file__).with_name("_worker.py")
MARK = "@@mlcore-homework@@ "


@dataclass(frozen=True)
class Limits:
    """Resource limits of one submission.

    Parameters
    ----------
    timeout : float
        Wall-clock seconds for the whole notebook; the process tree is then killed.
    memory_mb : float
        Address-space limit (``RLIMIT_AS``) of the worker and of the kernel, in MiB.
    file_mb : float
        Largest file the submission may write (``RLIMIT_FSIZE``), in MiB.
    sandbox : {"auto", "bwrap", "none"}
        ``"auto"`` uses bubblewrap when it works, ``"bwrap"`` requires it.

    Examples
    --------
    >>> Limits(timeout=60).cpu_seconds
    70
    >>> Limits(timeout=0)
    Traceback (most recent call last):
    ...
    ValueError: timeout must be > 0, got timeout=0.0; it is the wall-clock time allowed per submission, in seconds.
    """

    timeout: float = 120.0
    memory_mb: float = 4096.0
    file_mb: float = 64.0
    sandbox: str = "auto"

    def __post_init__(self):
        check_real(self.timeout, "timeout", low=0, low_open=True,
                   why="it is the wall-clock time allowed per submission, in seconds")
        check_real(self.memory_mb, "memory_mb", low=256,
                   why="the kernel alone needs a few hundred MiB of address space")
        check_real(self.file_mb, "file_mb", low=0, low_open=True)
        if self.sandbox not in ("auto", "bwrap", "none"):
            raise ValueError(f"sandbox must be one of 'auto', 'bwrap', 'none', "
                             f"got sandbox={self.sandbox!r}.")

    @property
    def cpu_seconds(self) -> int:
        """CPU-time limit per process: the timeout plus a margin for start-up."""
        return int(self.timeout) + 10


@dataclass
class RunResult:
    """What happened to one run: the worker's events and how the process ended."""

    events: list
    timed_out: bool
    returncode: int | None
    isolation: str
    stderr: str = ""

    @property
    def finished(self) -> bool:
        """True when the worker reported that it got to the end."""
        return any(e.get("event") == "done" for e in self.events)


@lru_cache(maxsize=1)
def bubblewrap_available() -> bool:
    """Return True when ``bwrap`` is installed and may create namespaces here.

    Examples
    --------
    >>> isinstance(bubblewrap_available(), bool)
    True
    """
    exe = shutil.which("bwrap")
    if exe is None or not sys.platform.startswith("linux"):
        return False
    probe = [exe, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
             "--unshare-all", "--die-with-parent", "--new-session", "true"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@lru_cache(maxsize=1)
def _matplotlib_cache() -> str | None:
    """Build matplotlib's font cache once, so each sandbox copies it instead of rebuilding it."""
    folder = Path(tempfile.gettempdir()) / f"mlcore-homework-mpl-{os.getuid() if hasattr(os, 'getuid') else 0}"
    folder.mkdir(exist_ok=True)
    env = dict(os.environ, MPLCONFIGDIR=str(folder), MPLBACKEND="Agg")
    try:
        subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"], env=env,
                       capture_output=True, timeout=120, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return str(folder)


def _environment(workdir: Path) -> dict:
    env = {key: os.environ[key] for key in ("PATH", "LANG", "LC_ALL", "SYSTEMROOT",
                                            "VIRTUAL_ENV", "PYTHONPATH") if key in os.environ}
    mpl = workdir / ".matplotlib"
    cache = _matplotlib_cache()
    if cache:
        shutil.copytree(cache, mpl, dirs_exist_ok=True)
    # One BLAS thread before RLIMIT_AS: OpenBLAS reserves memory per thread and
    # fails to start its threads under an address-space limit.
    for key in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[key] = "1"
    env.update(HOME=str(workdir), TMPDIR=str(workdir / "tmp"), MPLBACKEND="Agg",
               MPLCONFIGDIR=str(mpl), IPYTHONDIR=str(workdir / ".ipython"),
               JUPYTER_RUNTIME_DIR=str(workdir / ".jupyter-runtime"),
               JUPYTER_PLATFORM_DIRS="1", MLCORE_QUIET="1", PYTHONDONTWRITEBYTECODE="1",
               PYDEVD_DISABLE_FILE_VALIDATION="1", PYTHONHASHSEED="0")
    (workdir / "tmp").mkdir(exist_ok=True)
    return env


def _hideable(path: Path, workdir: Path) -> bool:
    """A folder can be hidden unless the run needs what is under it (itself, Python, mlcore)."""
    needed = [workdir, Path(sys.prefix), Path(sys.base_prefix), WORKER.parent,
              Path(tempfile.gettempdir())]
    path = path.resolve()
    if not path.is_dir() or path == Path(path.anchor):
        return False
    return not any(n.resolve() == path or path in n.resolve().parents for n in needed)


def _command(workdir: Path, hide: list, isolation: str) -> list:
    command = [sys.executable, str(WORKER)]
    if isolation != "bwrap":
        return command
    wrap = [shutil.which("bwrap"), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            "--tmpfs", "/tmp"]
    # The private /tmp hides whatever lives under the real one; the Python
    # environment and the mlcore checkout (an editable install) may be there
    # (e.g. a repository cloned into /tmp), so show them again, read-only.
    tmp = Path("/tmp").resolve()
    for path in sorted({Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(),
                        WORKER.parent.parent.parent.resolve()}):
        if tmp in path.parents:
            wrap += ["--ro-bind", str(path), str(path)]
    hidden = sorted({Path(p).resolve() for p in hide if _hideable(Path(p), workdir)})
    for path in hidden:
        if not any(other in path.parents for other in hidden):
            # An empty, read-only folder in place of the real one.
            wrap += ["--tmpfs", str(path), "--remount-ro", str(path)]
    wrap += ["--bind", str(workdir), str(workdir), "--chdir", str(workdir),
             "--unshare-all", "--die-with-parent", "--new-session", "--"]
    return wrap + command


def _kill(process: subprocess.Popen, events: list, isolation: str) -> None:
    """Kill what is left of the run: the worker's process group and the kernel's.

    The kernel starts its own session, so killing the worker's group misses
    it. Under bubblewrap the kernel's pid belongs to the sandbox's pid
    namespace, and killing bwrap (``--die-with-parent``) ends everything inside.
    """
    groups = {process.pid}
    if isolation != "bwrap":
        groups |= {e["pid"] for e in events
                   if e.get("event") == "kernel" and isinstance(e.get("pid"), int)}
    for group in groups:
        try:
            if hasattr(os, "killpg"):
                os.killpg(group, signal.SIGKILL)
            else:
                process.kill()
        except (ProcessLookupError, PermissionError, OSError):
            pass


def _parse(stdout: str) -> list:
    events = []
    for line in stdout.splitlines():
        if line.startswith(MARK):
            try:
                event = json.loads(line[len(MARK):])
            except ValueError:
                continue
            if isinstance(event, dict):
                events.append(event)
    return events


def run_cells(cells: list, limits: Limits, *, hide: list = ()) -> RunResult:
    """Execute code cells in a fresh kernel inside the sandbox.

    Parameters
    ----------
    cells : list of str
        Code of each cell, run in order in one kernel; errors do not stop the run.
    limits : Limits
        Timeout, rlimits and which sandbox to use.
    hide : list of path-like
        Folders the code must not see (other submissions, tests, outputs);
        hidden only under bubblewrap.

    Returns
    -------
    RunResult
    """
    if limits.sandbox == "bwrap" and not bubblewrap_available():
        raise RuntimeError("sandbox='bwrap' was asked for, but bwrap is missing or may not "
                           "create user namespaces here; install Debian's 'bubblewrap' or use "
                           "sandbox='auto'.")
    isolation = "bwrap" if limits.sandbox != "none" and bubblewrap_available() else "process"
    workdir = Path(tempfile.mkdtemp(prefix="mlcore-grade-"))
    try:
        job = {"cells": list(cells), "cell_timeout": limits.timeout, "workdir": str(workdir),
               "limits": {"memory_mb": limits.memory_mb, "cpu_seconds": limits.cpu_seconds,
                          "file_mb": limits.file_mb}}
        process = subprocess.Popen(
            _command(workdir, list(hide), isolation), cwd=workdir, env=_environment(workdir),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, encoding="utf-8", errors="replace", start_new_session=True)
        timed_out = False
        try:
            stdout, stderr = process.communicate(json.dumps(job), timeout=limits.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            # The kernel's pid is in the events read so far; communicate keeps them.
            process.kill()
            stdout, stderr = process.communicate()
        events = _parse(stdout)
        _kill(process, events, isolation)
        return RunResult(events, timed_out, process.returncode, isolation, stderr[-2000:])
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
