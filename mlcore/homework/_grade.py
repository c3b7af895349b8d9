"""Grade submissions against an autograder: specification, runs, scores and statuses.

A submission's own code cells run in order in one kernel (``_worker.py``),
which saves its namespace after the last solution cell of each question.
Its test cells are ignored. The checks (the autograder's public and hidden
tests and the teacher's extra tests) then run in a fresh plain-Python
process on those saved namespaces (``_checker.py``), each question's on its
own. The tests are never in the kernel, and the kernel's IPython hooks are
not in the checks' process. A question's points are shared equally by its
test cells.
"""

from __future__ import annotations

import ast
import builtins
import json
import operator
import os
import re
import shutil
import stat
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ._format import META_KEY, TEST_TAGS, check_notebook, tags_of
from ._sandbox import Limits, bubblewrap_available, run_script
from ._spec import (SPEC_NAME, _source, add_extra_tests, build_spec,  # noqa: F401 -- re-exported
                    check_spec, load_spec)

__all__ = ["Submission", "build_spec", "check_spec", "load_spec", "add_extra_tests", "SPEC_NAME",
           "read_notebook", "safe_failure", "grade_one", "grade_submissions", "default_jobs",
           "STATUSES"]

STATUSES = ("ok", "error", "timeout", "unreadable", "unreadable: symlink")
MAX_BYTES = 50 * 1024 * 1024
ERROR_NAMES = {name for name, value in vars(builtins).items()
               if isinstance(value, type) and issubclass(value, BaseException)} | {"LinAlgError"}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")
_UNDEFINED = re.compile(r"name '([A-Za-z_]\w*)' is not defined(\. Did you mean: '\w+'\?)?")


def md_text(text, limit: int = 300) -> str:
    """Show untrusted text in Markdown as one inert code span, truncated.

    Examples
    --------
    >>> md_text("a `b`\\n<script>")
    "`a 'b' ⏎ <script>`"
    """
    text = _CONTROL.sub(" ", str(text)).replace("\r\n", "\n").replace("\n", " ⏎ ")
    text = text.replace("`", "'").strip()
    if len(text) > limit:
        text = text[:limit] + " [...]"
    return f"`{text}`" if text else "`(empty)`"


@dataclass
class Submission:
    """A graded submission: its scores (None for ungraded manual ones), status and feedback."""

    file: str
    scores: dict
    status: str
    notes: list = field(default_factory=list)
    failures: dict = field(default_factory=dict)

    @property
    def total(self) -> float:
        """Sum of the scores given so far."""
        return sum(v for v in self.scores.values() if v is not None)


def read_notebook(data: bytes):
    """Return ``(notebook, None)``, or ``(None, why)`` without quoting the file's content.

    A UTF-8 byte-order mark is accepted (Jupyter opens such files).

    Examples
    --------
    >>> read_notebook(b"root:x:0:0:root:/root:/bin/bash")[1]
    'it is not valid JSON (line 1, column 1: Expecting value)'
    """
    import nbformat
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"data must be the file's bytes, got {type(data).__name__}.")
    if len(data) > MAX_BYTES:
        return None, f"the file is larger than {MAX_BYTES // 2**20} MiB"
    try:
        text = bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return None, f"it is not UTF-8 text (position {error.start})"
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return None, f"it is not valid JSON (line {error.lineno}, column {error.colno}: " \
                     f"{error.msg})"
    except RecursionError:
        return None, "it is not a notebook (nested too deeply)"
    try:
        nb = nbformat.reads(text, as_version=4)
        check_notebook(nb, "the notebook")
    except Exception as error:   # any other way a file fails to be a notebook
        return None, f"it is not a Jupyter notebook ({type(error).__name__})"
    return nb, None


def _plan(nb, spec: dict):
    """The student's code cells, and after which of them each question's state is saved."""
    coded = [q for q in spec["questions"] if not q["manual"]]
    sources, index_of, notes = [], {}, []
    for i, cell in enumerate(nb["cells"]):
        if cell.get("cell_type") != "code" or tags_of(cell) & (TEST_TAGS | {"heavy"}):
            continue
        index_of[i] = len(sources)
        sources.append(_source(cell))
    snapshots = []
    for number, q in enumerate(coded):
        last = None
        for i, cell in enumerate(nb["cells"]):
            meta = (cell.get("metadata") or {}).get(META_KEY) or {}
            mine = (isinstance(meta, dict) and meta.get("question") == q["name"]) or \
                cell.get("id") in q["anchors"]
            if mine and i in index_of:
                last = index_of[i]
        if last is None:
            notes.append(f"The solution cell of {q['name']} was not found (deleted, or its "
                         "metadata removed); its tests ran after your last cell.")
            last = len(sources) - 1
        snapshots.append([last, number])
    return sources, snapshots, coded, notes


def _first_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[0][:70] if lines else "(empty)"


def _strings_and_names(source: str):
    """The check's string constants, its f-strings as patterns, and the names it uses."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return set(), [], set()
    inside = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    strings = {n.value.strip() for n in ast.walk(tree) if isinstance(n, ast.Constant)
               and isinstance(n.value, str) and id(n) not in inside}
    patterns = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts = [re.escape(v.value) if isinstance(v, ast.Constant) else ".{0,40}?"
                     for v in node.values]
            patterns.append(re.compile("".join(parts).strip(), re.DOTALL))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return strings, patterns, names


def safe_failure(source: str, ename, evalue, hidden: bool = True) -> str:
    """Describe a failed check without showing text the check did not write.

    The exception's name is shown if it is a built-in one; its message only
    when it is a string written in the check itself (the teacher's message),
    Python's "name '...' is not defined" for a name the check uses, or, for
    a public check, the check's own f-string with each value at most 40
    characters. So code that reads a hidden test and raises it as its message
    shows nothing.

    Examples
    --------
    >>> safe_failure("assert f(0) == 1, 'f(0) should be 1'", "AssertionError", "f(0) should be 1")
    'AssertionError: `f(0) should be 1`'
    >>> safe_failure("assert f(0) == 1", "AssertionError", "assert secret == 42")
    'AssertionError (its message is not shown: the check did not write it)'
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be the check's source code (a str), got "
                        f"{type(source).__name__}.")
    if type(hidden).__name__ not in ("bool", "bool_"):      # Python or NumPy booleans only
        raise TypeError(f"hidden must be True or False, got hidden={hidden!r} of type "
                        f"{type(hidden).__name__}; it says whether the check is hidden.")
    name = ename if isinstance(ename, str) and ename in ERROR_NAMES else "an exception"
    message = str(evalue or "").strip()
    if not message:
        return name
    strings, patterns, names = _strings_and_names(source)
    undefined = _UNDEFINED.fullmatch(message)
    if (message in strings or (undefined and undefined.group(1) in names)
            or (not hidden and any(p.fullmatch(message) for p in patterns))):
        return f"{name}: {md_text(message, 200)}"
    return f"{name} (its message is not shown: the check did not write it)"


def _limits_job(limits: Limits) -> dict:
    return {"memory_mb": limits.memory_mb, "cpu_seconds": limits.cpu_seconds,
            "file_mb": limits.file_mb}


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _timeout_note(kind: str, limits: Limits, what: str) -> str:
    if kind == "cpu":
        return (f"{what} used more than {limits.timeout:g} s of CPU time and was stopped; the "
                "checks it had not reached score zero. Look for a loop that never ends or a "
                "computation much larger than the exercise asks for.")
    return (f"{what} ran longer than {limits.wall_seconds:g} s of wall-clock time (the limit "
            "for a stalled run: it may have been waiting, sleeping or the machine was "
            "overloaded) and was stopped; the checks it had not reached score zero.")


def _run_checks(coded, ready, limits: Limits, workdir: Path, hide, state: Path):
    """Run the checks of the questions in ``ready`` (one process); return verdicts, problems."""
    questions = [{"number": number, "state": str(state / f"{number}.pkl"),
                  "tests": [t["source"] for t in coded[number]["tests"]]}
                 for number in ready]
    job = {"questions": questions, "limits": _limits_job(limits)}
    result = run_script("_checker.py", job, limits, workdir, hide=hide, writable=False,
                        state=state)
    verdicts, finished = {}, set()
    for event in result.events:
        q, n = event.get("q"), event.get("n")
        if not (isinstance(q, int) and q in ready):
            continue
        if event.get("event") == "question" and event.get("finished") is True:
            finished.add(q)
        elif (event.get("event") == "check" and isinstance(n, int) and not isinstance(n, bool)
                and 0 <= n < len(coded[q]["tests"]) and (q, n) not in verdicts
                and isinstance(event.get("ok"), bool)):
            verdicts[q, n] = event
    problems = []
    if result.timed_out:
        problems.append(("timeout", _timeout_note(result.timed_out, limits, "The checks")))
    stopped = [coded[q]["name"] for q in ready if q not in finished]
    if stopped and not result.timed_out:
        problems.append(("error", f"The checks of {', '.join(stopped)} stopped early: your code "
                                  "exited, crashed or hit a resource limit while a check used "
                                  "it."))
    return verdicts, problems


def grade_one(name: str, data: bytes, spec: dict, limits: Limits, hide=()) -> Submission:
    """Grade one submission given as bytes; never raises for anything the submission does.

    Parameters
    ----------
    name : str
        The file's name (the ``file`` column of grades.csv).
    data : bytes
        The file's content.
    spec : dict
        From :func:`load_spec` or :func:`build_spec`.
    limits : Limits
    hide : list of path-like
        Paths to hide from the submission's code.

    Returns
    -------
    Submission
    """
    check_spec(spec)
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}.")
    if not isinstance(limits, Limits):
        raise TypeError(f"limits must be a Limits, got {type(limits).__name__}.")
    questions = spec["questions"]
    scores = {q["name"]: (None if q["manual"] else 0.0) for q in questions}
    nb, problem = read_notebook(data)
    if nb is None:
        return Submission(name, scores, "unreadable",
                          [f"Your file could not be graded: {problem}."])
    sources, snapshots, coded, notes = _plan(nb, spec)
    failures, student_errors = {q["name"]: [] for q in questions}, []
    workdir = Path(tempfile.mkdtemp(prefix="mlcore-grade-"))
    state = Path(tempfile.mkdtemp(prefix="mlcore-state-"))
    statuses = set()
    try:
        job = {"cells": sources, "snapshots": snapshots, "cell_timeout": limits.wall_seconds,
               "workdir": str(workdir), "state": str(state), "limits": _limits_job(limits)}
        first = run_script("_worker.py", job, limits, workdir, hide=hide, state=state)
        saved = {e.get("n") for e in first.events
                 if e.get("event") == "snapshot" and e.get("ok") is True}
        cells = [i for i, c in enumerate(nb["cells"]) if c.get("cell_type") == "code"
                 and not tags_of(c) & (TEST_TAGS | {"heavy"})]
        for event in first.events:
            n = event.get("n")
            if (event.get("event") == "cell" and event.get("ok") is False
                    and isinstance(n, int) and 0 <= n < len(sources)):
                student_errors.append(
                    f"Cell {cells[n] + 1} (starting {md_text(_first_line(sources[n]), 70)}) "
                    f"raised {md_text(event.get('ename'), 80)}: {md_text(event.get('evalue'))}")
        dead = [e for e in first.events if e.get("event") == "dead"]
        if first.timed_out:
            statuses.add("timeout")
            notes.append(_timeout_note(first.timed_out, limits, "Your notebook"))
        elif dead or not first.finished:
            statuses.add("error")
            for event in dead[:1]:
                notes.append(f"Grading stopped: {md_text(event.get('reason'))}.")
            if not dead:
                notes.append(f"The grading process ended early (exit code {first.returncode}):"
                             " the notebook exited, crashed or hit a resource limit; the checks"
                             " it had not reached score zero.")
        elif student_errors:
            statuses.add("error")
        ready = [number for number in range(len(coded))
                 if number in saved and _regular(state / f"{number}.pkl")]
        verdicts, problems = (_run_checks(coded, ready, limits, workdir, hide, state)
                              if ready else ({}, []))
        for kind, note in problems:
            statuses.add(kind)
            notes.append(note)
        for number, q in enumerate(coded):
            tests = q["tests"]
            for k, test in enumerate(tests):
                event = verdicts.get((number, k))
                if event and event["ok"]:
                    scores[q["name"]] += q["points"] / len(tests)
                    continue
                if number not in ready:
                    why = "not run (the notebook stopped before this question)"
                elif event:
                    why = safe_failure(test["source"], event.get("ename"), event.get("evalue"),
                                       test["hidden"])
                else:
                    why = "not run (the checks stopped before it)"
                kind = "hidden check" if test["hidden"] else "public check"
                failures[q["name"]].append(f"{kind} {k + 1} of {len(tests)}: {why}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        shutil.rmtree(state, ignore_errors=True)
    for q in questions:
        if scores[q["name"]] is not None:
            scores[q["name"]] = round(scores[q["name"]], 4)
    status = "timeout" if "timeout" in statuses else "error" if statuses else "ok"
    return Submission(name, scores, status, notes + student_errors, failures)


def default_jobs() -> int:
    """Submissions graded at once by default: the CPU cores this process may use.

    Time limits count CPU time, so running as many submissions as there are
    cores does not take time from any of them; the wall-clock margin
    (``Limits.wall_factor``) absorbs other load on the machine.
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def check_jobs(jobs) -> int:
    """Return ``jobs`` as an int >= 1 (numpy integers accepted), or the default for None."""
    if jobs is None:
        return default_jobs()
    if isinstance(jobs, bool) or not hasattr(jobs, "__index__"):
        raise TypeError(f"jobs must be a positive integer or None, got jobs={jobs!r}.")
    value = operator.index(jobs)
    if value < 1:
        raise ValueError(f"jobs must be a positive integer or None, got jobs={jobs!r}; it is "
                         "the number of submissions graded at once.")
    return value


def grade_submissions(spec: dict, submissions: list, limits: Limits, *, jobs: int | None = None,
                      hide=(), progress=None) -> list:
    """Grade ``(name, bytes)`` pairs in parallel, each in its own sandbox.

    Parameters
    ----------
    spec : dict
        From :func:`load_spec` or :func:`build_spec`.
    submissions : list of (str, bytes)
    limits : Limits
    jobs : int, optional
        Submissions graded at once; default :func:`default_jobs`.
    hide : list of path-like
        Paths to hide from the submissions' code.
    progress : callable, optional
        Called with each finished :class:`Submission`.

    Returns
    -------
    list of Submission
        In the order given. A run that fails in the grader itself gives that
        submission the status ``error``; the others are still graded.
    """
    check_spec(spec)
    jobs = check_jobs(jobs)
    if not isinstance(limits, Limits):
        raise TypeError(f"limits must be a Limits, got {type(limits).__name__}.")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable or None, got progress={progress!r}.")
    if limits.sandbox == "bwrap" and not bubblewrap_available():
        raise RuntimeError("sandbox='bwrap' was asked for, but bwrap is missing or may not "
                           "create user namespaces here; install Debian's 'bubblewrap' or use "
                           "sandbox='auto'.")
    items = list(submissions)
    for i, item in enumerate(items):
        if not (isinstance(item, (tuple, list)) and len(item) == 2 and isinstance(item[0], str)
                and isinstance(item[1], (bytes, bytearray))):
            raise TypeError(f"submissions[{i}] must be a (file name, bytes) pair, got "
                            f"{str(item)[:80]}.")

    def work(item):
        try:
            graded = grade_one(item[0], item[1], spec, limits, hide)
        except (OSError, RuntimeError, ValueError) as error:
            scores = {q["name"]: (None if q["manual"] else 0.0) for q in spec["questions"]}
            graded = Submission(item[0], scores, "error", [
                f"The grader could not run this submission ({type(error).__name__}: "
                f"{md_text(error)}); grade it again."])
        if progress:
            progress(graded)
        return graded

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(work, items))
