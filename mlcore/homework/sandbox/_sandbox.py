"""Run an untrusted Python script in an isolated process: the grader's sandbox.

Every run gets a limit on the CPU time of its whole process tree
(measured by the grader from ``/proc``, so a busy machine does not eat a
submission's time), is stopped when it stalls (in 30 s of wall-clock time
it neither runs nor waits for a CPU for 1 s), a wall-clock limit only where CPU time
cannot be measured, rlimits on address space, CPU time and file
size, a capped capture of stdout and stderr, and its own session, killed as
a group (with everything it started) when the run ends.

Where ``bwrap`` (bubblewrap) works, the run is also inside a new user, mount,
pid, network, IPC and UTS namespace with every capability dropped (also as
root), an unprivileged uid, no further user namespaces and nothing of the
host filesystem but the system folders, the Python environment, the
``mlcore`` package and the run's own folder; ``/tmp`` is a private tmpfs of
bounded size. The submissions, the tests, the outputs, the course's chapters,
the host's sockets (``/run``, ``/var``, ``/tmp``, the network) are not there.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..._validation import check_option, check_real
from ._tempdirs import base_dir

__all__ = ["Limits", "RunResult", "bubblewrap_available", "run_script",
           "isolation_for", "describe_isolation", "remove_matplotlib_cache"]

PACKAGE = Path(__file__).parent  # mlcore/homework/sandbox (the scripts), unresolved:
MLCORE = PACKAGE.parents[1]      # a symlink may lead to it; MLCORE: the mlcore package
MARK = "@@mlcore-homework@@ "
STDOUT_CAP = 16 * 2**20                     # events: far more than 10,000 cells need
STDERR_CAP = 64 * 2**10                     # the tail is kept
TMPFS_BYTES = 512 * 2**20
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
SYSTEM_FOLDERS = ("usr", "etc", "bin", "sbin", "lib", "lib32", "lib64", "libx32")


@dataclass(frozen=True)
class Limits:
    """Resource limits of one submission.

    Parameters
    ----------
    timeout : float
        CPU seconds for the whole notebook (its process tree), and again for
        its checks.
    memory_mb : float
        Address-space limit (``RLIMIT_AS``) of every process, in MiB.
    file_mb : float
        Largest file the submission may write (``RLIMIT_FSIZE``), in MiB.
    sandbox : {"auto", "bwrap", "none"}
        ``"bwrap"`` requires bubblewrap; ``"auto"`` uses it when it works, and
        where it does not, grading other people's work refuses to run
        (:func:`isolation_for`) while a student's ``check`` runs without it;
        ``"none"`` runs plain processes.
    wall_factor : float
        Wall-clock limit as a multiple of ``timeout`` (plus 30 s), used only
        where the CPU time cannot be measured (not Linux).
    stall_seconds : float
        A run whose CPU time grows by less than 1 s in this much wall-clock
        time is stalled (sleeping, waiting) and stopped with ``timeout``
        (Linux). A run that computes is never stopped by the clock.

    Examples
    --------
    >>> Limits(timeout=60).wall_seconds
    210.0
    >>> Limits(timeout=0)
    Traceback (most recent call last):
    ...
    ValueError: timeout must be > 0, got timeout=0.0; it is the CPU time allowed per submission, in seconds.
    """

    timeout: float = 120.0
    memory_mb: float = 4096.0
    file_mb: float = 64.0
    sandbox: str = "auto"
    wall_factor: float = 3.0
    stall_seconds: float = 30.0

    def __post_init__(self):
        object.__setattr__(self, "timeout", check_real(
            self.timeout, "timeout", low=0, low_open=True,
            why="it is the CPU time allowed per submission, in seconds"))
        check_real(self.memory_mb, "memory_mb", low=256,
                   why="the kernel alone needs a few hundred MiB of address space")
        check_real(self.file_mb, "file_mb", low=0, low_open=True)
        check_real(self.wall_factor, "wall_factor", low=1)
        check_real(self.stall_seconds, "stall_seconds", low=1)
        check_option(self.sandbox, "sandbox", ("auto", "bwrap", "none"))

    @property
    def cpu_seconds(self) -> int:
        """RLIMIT_CPU of each process: a backstop above the tree's CPU limit."""
        return int(self.timeout) + 5

    @property
    def wall_seconds(self) -> float:
        """Wall-clock limit of one run."""
        return float(self.wall_factor * self.timeout + 30)


@dataclass
class RunResult:
    """What happened to one run: its events, how it ended and what it cost."""

    events: list
    timed_out: str | None        # None, "cpu", "stall" or "wall"
    returncode: int | None
    isolation: str
    stderr: str = ""
    cpu: float = 0.0
    wall: float = 0.0
    peak_mb: float = 0.0          # largest resident memory of the process tree, sampled

    @property
    def finished(self) -> bool:
        """True when the script reported that it got to the end."""
        return any(e.get("event") == "done" for e in self.events)


def _system_binds() -> list:
    args = []
    for name in SYSTEM_FOLDERS:
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    return args


def _python_paths() -> list:
    """Folders the sandboxed Python needs, as Python names them (maybe through symlinks)."""
    paths = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).parent,
             MLCORE}
    for entry in sys.path:
        packages = "site-packages" in entry or "dist-packages" in entry
        if entry and packages and Path(entry).is_dir():
            paths.add(Path(entry))
    return sorted(paths)


def _bind_args(paths, flag="--ro-bind") -> list:
    """Bind each path at its real location and, if it differs, at the name used for it."""
    args, done = [], set()
    for path in paths:
        real = Path(os.path.realpath(path))
        for where in (real, Path(os.path.abspath(path))):
            if str(where) not in done:
                done.add(str(where))
                args += [flag, str(real), str(where)]
    return args


def _bwrap_base() -> list:
    return [shutil.which("bwrap"), "--unshare-all", "--unshare-user", "--uid", "65534",
            "--gid", "65534", "--disable-userns", "--cap-drop", "ALL", "--die-with-parent",
            "--new-session", "--as-pid-1", *_system_binds(), "--dev", "/dev", "--proc", "/proc",
            "--size", str(TMPFS_BYTES), "--tmpfs", "/tmp"]


@lru_cache(maxsize=1)
def bubblewrap_available() -> bool:
    """Return True when ``bwrap`` is installed and may create its namespaces here.

    Examples
    --------
    >>> isinstance(bubblewrap_available(), bool)
    True
    """
    if shutil.which("bwrap") is None or not sys.platform.startswith("linux"):
        return False
    probe = _bwrap_base() + _bind_args(_python_paths()) + [sys.executable, "-c", "pass"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@lru_cache(maxsize=1)
def _matplotlib_cache() -> str | None:
    """Build matplotlib's font cache once, so each sandbox copies it instead of rebuilding it.

    The command line removes it when its command ends (:func:`remove_matplotlib_cache`);
    a program that grades through the Python API has it removed when it exits. A
    Dask worker's is in the worker's own directory (:func:`made_under`), removed
    with it should the worker be killed; :func:`_environment` builds it again if
    that directory is gone.
    """
    folder = Path(tempfile.mkdtemp(prefix="mlcore-homework-mpl-", dir=base_dir()))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    env = dict(os.environ, MPLCONFIGDIR=str(folder), MPLBACKEND="Agg")
    try:
        subprocess.run([sys.executable, "-I", "-c", "import matplotlib.font_manager"], env=env,
                       capture_output=True, timeout=120, check=True)
    except (OSError, subprocess.SubprocessError):
        shutil.rmtree(folder, ignore_errors=True)
        return None
    return str(folder)


def remove_matplotlib_cache() -> None:
    """Remove the font cache :func:`_matplotlib_cache` built (at the end of a command)."""
    if _matplotlib_cache.cache_info().currsize:
        folder = _matplotlib_cache()
        if folder:
            shutil.rmtree(folder, ignore_errors=True)
        _matplotlib_cache.cache_clear()


@lru_cache(maxsize=1)
def _compile_package() -> bool:
    """Write mlcore's bytecode once, before any run: the runs read mlcore read-only and
    may not write bytecode, so without it every kernel and checks' process compiled it
    again. An unwritable package (a normal install, compiled by pip) is left as is.
    ``force``: the grader's own bytecode, whatever an earlier ``--sandbox none`` run left."""
    import compileall
    try:
        return bool(compileall.compile_dir(str(MLCORE), quiet=2, force=True))
    except OSError:
        return False


INSTALL_BWRAP = "sudo apt-get install bubblewrap"


def isolation_for(limits: Limits, *, fallback: bool = False) -> str:
    """The isolation runs under ``limits`` get: ``"bwrap"`` or ``"process"``.

    ``sandbox="auto"`` refuses to run without a working bubblewrap unless
    ``fallback`` (a student's ``check`` of their own notebook): grading other
    people's code without it must be asked for by name (``sandbox="none"``).
    """
    if limits.sandbox == "none":
        return "process"
    if bubblewrap_available():
        return "bwrap"
    if limits.sandbox == "auto" and fallback:
        return "process"
    raise RuntimeError(
        f"sandbox={limits.sandbox!r} needs bubblewrap, which is missing here or may not create "
        f"user namespaces. Install it ({INSTALL_BWRAP} on Debian or Ubuntu), or, to grade "
        "with no isolation at all (the submissions' code can then read and change every file "
        "you can, and forge grades), give sandbox='none' (--sandbox none) explicitly.")


def describe_isolation(isolation: str) -> str:
    """One line naming the isolation of a run, for the grader's output and summary."""
    if isolation == "bwrap":
        return ("bubblewrap (new namespaces, no network, read-only system, only the run's "
                "folder writable)")
    return ("none (--sandbox none): plain processes of your user; the code of a submission "
            "can read and change your files")


def _environment(workdir: Path, token: str, writable: bool = True) -> dict:
    """The run's environment; a read-only run's folder is left empty (the checks' own)."""
    env = {key: os.environ[key] for key in ("PATH", "LANG", "LC_ALL", "SYSTEMROOT",
                                            "VIRTUAL_ENV") if key in os.environ}
    mpl = workdir / ".matplotlib"
    if writable:
        cache = _matplotlib_cache()
        if cache and not os.path.isdir(cache):      # its Dask worker's folder was removed
            _matplotlib_cache.cache_clear()
            cache = _matplotlib_cache()
        if cache and not mpl.exists():
            shutil.copytree(cache, mpl, dirs_exist_ok=True)
    # One BLAS thread before RLIMIT_AS: OpenBLAS reserves memory per thread and
    # fails to start its threads under an address-space limit.
    for key in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[key] = "1"
    env.update(HOME=str(workdir), TMPDIR=str(workdir / "tmp" if writable else "/tmp"),
               MPLBACKEND="Agg", IPYTHONDIR=str(workdir / ".ipython"),
               JUPYTER_RUNTIME_DIR=str(workdir / ".jupyter-runtime"),
               JUPYTER_PLATFORM_DIRS="1", MLCORE_QUIET="1", PYTHONDONTWRITEBYTECODE="1",
               PYDEVD_DISABLE_FILE_VALIDATION="1", PYTHONHASHSEED="0",
               MLCORE_HOMEWORK_RUN=token,
               # The grader's scripts run with -I; the kernel they start does not, so it is
               # kept off the user site (which a cell could fill with code for the next
               # process) and given the grader's own mlcore, not an inherited PYTHONPATH.
               PYTHONNOUSERSITE="1", PYTHONPATH=str(MLCORE.parent))
    if writable:
        env["MPLCONFIGDIR"] = str(mpl)
        (workdir / "tmp").mkdir(exist_ok=True)
    return env


def _masks(hide, bound) -> list:
    """Hide folders and files that would otherwise be visible under a bound folder."""
    args = []
    for path in sorted({Path(os.path.realpath(p)) for p in hide}):
        if not any(b == path or b in path.parents for b in bound):
            continue
        if any(path == b or path in b.parents for b in bound):
            continue            # the run needs what is under it
        if path.is_dir() and not path.is_symlink():
            args += ["--tmpfs", str(path), "--remount-ro", str(path)]
        elif path.exists():
            args += ["--ro-bind", "/dev/null", str(path)]
    return args


def _command(script: str, workdir: Path, hide, isolation: str, writable: bool,
             state: Path | None, readonly=(), args=()) -> list:
    # -I: no user site-packages, no PYTHON* variables, no script or working folder on
    # sys.path, so nothing a run wrote (HOME, TMPDIR, cwd) is imported at start-up.
    command = [sys.executable, "-I", str(PACKAGE / script), *args]
    if isolation != "bwrap":
        return command
    paths = _python_paths()
    bound = [Path(os.path.realpath(p)) for p in paths] + [Path("/") / n for n in SYSTEM_FOLDERS]
    return (_bwrap_base() + _bind_args(paths) + _masks(hide, bound)
            + _bind_args([workdir], "--bind" if writable else "--ro-bind")
            + (_bind_args([state], "--bind" if writable else "--ro-bind") if state else [])
            + _bind_args(list(readonly))
            + ["--chdir", str(workdir), "--"] + command)


def _proc_read(path: str) -> bytes:
    """The bytes of a small /proc file, read with two system calls.

    A run's watch reads every process's ``stat`` a few times a second; a
    Python file object (fstat, isatty, seek, a buffer) took ~75 % more CPU.
    """
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, 1 << 16)
    finally:
        os.close(fd)


def _process_table() -> dict:
    """pid -> (ppid, CPU seconds of the process and its reaped children)."""
    table, tick = {}, os.sysconf("SC_CLK_TCK")
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = _proc_read(f"/proc/{name}/stat").rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # after the command: state ppid ... utime(11) stime(12) cutime(13) cstime(14)
        table[int(name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]) / tick)
    return table


def _resident_mb(pids) -> float:
    """Resident memory of these processes together, in MiB (0 for those gone)."""
    total = 0
    for pid in pids:
        try:
            total += int(_proc_read(f"/proc/{pid}/statm").split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return total * PAGE / 2**20


def _note_runqueue_waits(pids, waited: dict) -> float:
    """Seconds these processes have spent ready to run but waiting for a CPU, in all.

    Read from ``/proc/PID/schedstat`` (its second field, in ns) into
    ``waited``, which keeps the last figure of processes that have ended, so
    the sum never goes down. 0 where the kernel does not report it.
    """
    for pid in pids:
        try:
            waited[pid] = int(_proc_read(f"/proc/{pid}/schedstat").split()[1]) / 1e9
        except (OSError, ValueError, IndexError):
            continue
    return sum(waited.values())


def _tree(root: int, table: dict) -> list:
    children = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid in table:
            found.append(pid)
            todo += children.get(pid, [])
    return found


def _tagged(token: str, table: dict) -> list:
    """Processes carrying this run's token in their environment (detached ones included)."""
    needle = f"MLCORE_HOMEWORK_RUN={token}".encode()
    found = []
    for pid in table:
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                if needle in handle.read().split(b"\0"):
                    found.append(pid)
        except OSError:
            continue
    return found


def _kill_all(process: subprocess.Popen, token: str) -> None:
    """Kill the run's session, its process tree, and every process carrying its token."""
    for _ in range(3):
        table = _process_table() if sys.platform.startswith("linux") else {}
        victims = set(_tree(process.pid, table)) | set(_tagged(token, table))
        victims.discard(os.getpid())
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass
        for pid in victims:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if not victims:
            break
        time.sleep(0.05)


def _parse(stdout: bytes) -> list:
    events = []
    for line in stdout.decode("utf-8", "replace").splitlines():
        if line.startswith(MARK):
            try:
                event = json.loads(line[len(MARK):])
            except ValueError:
                continue
            if isinstance(event, dict):
                events.append(event)
    return events


def run_script(script: str, job: dict, limits: Limits, workdir, *, hide=(),
               writable: bool = True, state=None, readonly=(), args=()) -> RunResult:
    """Run ``mlcore/homework/<script>`` on ``job`` (JSON on its stdin) inside the sandbox.

    Parameters
    ----------
    script : str
        ``"_worker.py"`` (a student's cells) or ``"_checker.py"`` (one question's checks).
    job : dict
        Sent on stdin from an unlinked temporary file.
    limits : Limits
    workdir : path-like
        The run's folder: its working directory and HOME (read-only, also
        without bubblewrap, when ``writable`` is False).
    hide : list of path-like
        Folders and files the code must not see even if they sit under a
        folder the run needs (under bubblewrap).
    writable : bool
        Whether the run may write to ``workdir`` and ``state``.
    state : path-like, optional
        A second folder the run sees (where the namespace is saved).
    readonly : list of path-like
        More folders the run sees, read-only (the teacher's reference snapshots).
    args : list of str
        The script's command-line arguments: what it may know before it reads
        ``job`` (the checks' limits and the modules to import first).

    Returns
    -------
    RunResult
    """
    isolation = isolation_for(limits, fallback=True)
    _compile_package()
    workdir = Path(workdir)
    token = os.urandom(12).hex()
    stdin = tempfile.TemporaryFile()
    stdin.write(json.dumps(job).encode())
    stdin.seek(0)
    env = _environment(workdir, token, writable)
    if not writable and isolation != "bwrap":
        os.chmod(workdir, 0o555)    # bubblewrap binds it read-only; here, its mode does
    start = time.monotonic()
    process = subprocess.Popen(
        _command(script, workdir, hide, isolation, writable, Path(state) if state else None,
                 [Path(p) for p in readonly], [str(a) for a in args]),
        cwd=workdir, env=env, stdin=stdin, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True, close_fds=True)
    stdin.close()
    out, err, kept = bytearray(), bytearray(), 0
    open_fds = {process.stdout.fileno(): out, process.stderr.fileno(): err}
    timed_out, cpu, ended_at, progress, peak, waited = None, 0.0, None, [], 0.0, {}
    linux = sys.platform.startswith("linux")
    try:
        while open_fds:
            ready, _, _ = select.select(list(open_fds), [], [], 0.25)
            for fd in ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    del open_fds[fd]
                    continue
                buffer = open_fds[fd]
                if buffer is out:
                    room = STDOUT_CAP - len(out)
                    out += chunk[:max(room, 0)]
                else:
                    err += chunk
                    if len(err) > 2 * STDERR_CAP:
                        del err[:-STDERR_CAP]
                kept += len(chunk)
            now = time.monotonic()
            if ended_at is None and process.poll() is not None:
                ended_at = now
            if ended_at is not None:
                if now - ended_at > 2:          # a detached process holds the pipes
                    break
                continue
            if linux:
                table = _process_table()
                tree = _tree(process.pid, table)
                cpu = max(cpu, sum(table[p][1] for p in tree))
                peak = max(peak, _resident_mb(tree))
                if cpu > limits.timeout:
                    timed_out = "cpu"
                # A stall: in stall_seconds of wall time the tree neither ran nor
                # waited for a CPU for 1 s (it sleeps, or waits for input). A run
                # that computes, however little of the CPU a busy machine lets it
                # have, is never cut by the clock: its time in the run queue counts.
                demand = cpu + _note_runqueue_waits(tree, waited)
                progress.append((now, demand))
                while len(progress) > 1 and now - progress[1][0] >= limits.stall_seconds:
                    progress.pop(0)
                if (now - progress[0][0] >= limits.stall_seconds
                        and demand - progress[0][1] < 1.0):
                    timed_out = "stall"
            elif now - start > limits.wall_seconds:
                timed_out = "wall"
            if timed_out:
                break
    finally:
        _kill_all(process, token)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        process.stdout.close()
        process.stderr.close()
    return RunResult(_parse(bytes(out)), timed_out, process.returncode, isolation,
                     bytes(err[-STDERR_CAP:]).decode("utf-8", "replace")[-2000:], cpu,
                     time.monotonic() - start, peak)
