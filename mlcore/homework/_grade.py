"""Grade submissions against an autograder: specification, runs, scores and statuses.

A submission's own code cells run in order in one kernel (``_worker.py``),
which saves, right before each question's first test cell, the names that
question's solution binds (its answers). Its test cells are ignored. The
checks (the autograder's public and hidden tests and the teacher's extra
tests) then run in a plain-Python process (``_checker.py``) where no code of
the submission runs: every other name comes from a trusted run of the
teacher's notebook (:func:`make_reference`), and the answers live in another
process (``_server.py``) that the checks call, getting back plain data only.
Each verdict carries a nonce the grader gave that check; a verdict without
it, or a second one, gives the status ``tampered``. A question's points are
shared equally by its test cells (a test cell tagged ``points:N`` is worth N,
the others share the rest); a use of a name the exercise forbids
(``forbid``) makes the question score zero.
"""

from __future__ import annotations

import ast
import json
import operator
import os
import secrets
import shutil
import stat
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ._format import META_KEY, TEST_TAGS, check_notebook, tags_of
from ._flags import flags_for, mark_identical
from ._rules import question_uses
from ._text import ERROR_NAMES, md_text, safe_failure  # noqa: F401 -- re-exported
from ._sandbox import Limits, bubblewrap_available, run_script
from ._spec import (SPEC_NAME, _source, add_extra_tests, build_spec,  # noqa: F401 -- re-exported
                    check_spec, load_spec, test_weights)

__all__ = ["Submission", "build_spec", "check_spec", "load_spec", "add_extra_tests", "SPEC_NAME",
           "read_notebook", "safe_failure", "grade_one", "grade_submissions", "default_jobs",
           "make_reference",
           "STATUSES"]

STATUSES = ("ok", "error", "timeout", "tampered", "unreadable", "unreadable: symlink")
MAX_BYTES = 50 * 1024 * 1024


@dataclass
class Submission:
    """A graded submission: its scores (None for ungraded manual ones), status and feedback."""

    file: str
    scores: dict
    status: str
    notes: list = field(default_factory=list)
    failures: dict = field(default_factory=dict)
    cpu: float = 0.0
    peak_mb: float = 0.0
    flags: list = field(default_factory=list)
    hashes: dict = field(default_factory=dict)
    student: str = ""
    late: str = ""

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
    """The student's code cells, each question's snapshot point and its solution cells.

    A question's answers are saved right before its first test cell (found by
    cell id or by the public test's source), as Jupyter would run them, so an
    answer written in a new cell below the stub counts. Test cells never run.
    """
    coded = [q for q in spec["questions"] if not q["manual"]]
    public, anchors = {}, {}
    for number, q in enumerate(coded):
        for test in q["tests"]:
            if not test["hidden"]:
                public.setdefault(test["source"].strip(), number)
        for anchor in q.get("test_anchors", []):
            anchors.setdefault(anchor, number)
    sources, first_test, solution_at, where, ids = [], {}, {}, [], []
    known, solution_cells = set(spec.get("cells") or []), set()
    for i, cell in enumerate(nb["cells"]):
        if cell.get("cell_type") != "code":
            continue
        tags, text = tags_of(cell), _source(cell)
        owner = anchors.get(cell.get("id"))
        if owner is None:
            owner = public.get(text.strip())
        if owner is not None or tags & TEST_TAGS:
            if owner is not None:
                first_test.setdefault(owner, len(sources))
            continue
        if "heavy" in tags:
            continue
        meta = (cell.get("metadata") or {}).get(META_KEY) or {}
        for number, q in enumerate(coded):
            if (isinstance(meta, dict) and meta.get("question") == q["name"]) or \
                    cell.get("id") in q["anchors"]:
                solution_at.setdefault(number, len(sources))
                solution_at[number, "last"] = len(sources)
                solution_cells.add(len(sources))
        sources.append(text)
        where.append(i)
        ids.append(cell.get("id"))
    points, spans, notes, previous = [], [], [], 0
    for number, q in enumerate(coded):
        if number in first_test:
            at = first_test[number] - 1
        elif (number, "last") in solution_at:
            at = solution_at[number, "last"]
        else:
            notes.append(f"The solution and test cells of {q['name']} were not found (deleted, "
                         "or their metadata removed); its tests ran after your last cell.")
            at = len(sources) - 1
        start = solution_at.get(number, previous)
        # the solution cells and the student's own cells up to the tests (not the chapter's)
        spans.append([k for k in range(min(start, at + 1), at + 1)
                      if k in solution_cells or ids[k] not in known])
        previous = at + 1
        points.append(at)
    return sources, where, points, spans, coded, notes


def _names_used(sources) -> set:
    """Every name the checks' code mentions: what the reference must provide."""
    names = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError):
            continue
        names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return names


def _first_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[0][:70] if lines else "(empty)"


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
    if kind == "stall":
        return (f"{what} stalled: its CPU time grew by less than 1 s in "
                f"{limits.stall_seconds:g} s (sleeping, or waiting for input), so it was "
                "stopped; the checks it had not reached score zero.")
    return (f"{what} ran longer than {limits.wall_seconds:g} s of wall-clock time and was "
            "stopped; the checks it had not reached score zero.")


def _run_checks(coded, ready, limits, workdir, hide, state, reference, answers):
    """Run the checks of the questions in ``ready``; return verdicts, problems, tampering."""
    nonces = {(q, n): secrets.token_hex(16) for q in ready for n in range(len(coded[q]["tests"]))}
    questions = [{"number": q, "state": str(state / f"{q}.pkl"),
                  "reference": str(reference / f"ref{q}.pkl"), "answers": answers[q],
                  "tests": [t["source"] for t in coded[q]["tests"]],
                  "nonces": [nonces[q, n] for n in range(len(coded[q]["tests"]))]}
                 for q in ready]
    job = {"questions": questions, "limits": _limits_job(limits)}
    result = run_script("_checker.py", job, limits, workdir, hide=hide, writable=False,
                        state=state, readonly=[reference] if reference != state else [])
    verdicts, finished, started, tampered, crashed = {}, set(), [], [], []
    for event in result.events:
        q, n, kind = event.get("q"), event.get("n"), event.get("event")
        if kind == "question" and event.get("finished") is True and q in ready:
            finished.add(q)
            continue
        if kind not in ("start", "check"):
            continue
        key = (q, n) if isinstance(q, int) and isinstance(n, int) else None
        if key not in nonces or event.get("nonce") != nonces[key]:
            tampered.append(f"a result line for no check that was running ({md_text(event)})")
        elif kind == "start":
            started.append(key)
        elif key in verdicts or not isinstance(event.get("ok"), bool):
            tampered.append(f"a second result for check {n + 1} of {coded[q]['name']}")
        else:
            verdicts[key] = event
            if event.get("crashed") is True:
                crashed.append(key)
    problems = []
    running = [key for key in started if key not in verdicts]
    if result.timed_out:
        what = "The checks"
        if running:
            q, n = running[-1]
            kind = "hidden" if coded[q]["tests"][n]["hidden"] else "public"
            what = f"The checks ({kind} check {n + 1} of {coded[q]['name']} was running)"
        problems.append(("timeout", _timeout_note(result.timed_out, limits, what)))
        for key in running[-1:]:
            verdicts[key] = {"running": True}
    for q, n in crashed:
        problems.append(("error", f"Your code ended its process (it exited, crashed or hit a "
                                  f"resource limit) while check {n + 1} of {coded[q]['name']} "
                                  "used it; that check failed, the next ones ran."))
    stopped = [coded[q]["name"] for q in ready if q not in finished]
    if stopped and not result.timed_out:
        problems.append(("error", f"The checks of {', '.join(stopped)} stopped early: your code "
                                  "ended the checks' process or hit a resource limit."))
    return verdicts, problems, tampered, result


def make_reference(spec: dict, data: bytes, limits: Limits, folder, hide=()) -> Submission:
    """Run the teacher's notebook (trusted) and keep its namespaces for the checks in ``folder``.

    Returns the notebook's own grade: it should get full marks.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return grade_one("reference", data, spec, limits, hide, keep_reference=folder)


def grade_one(name: str, data: bytes, spec: dict, limits: Limits, hide=(), *,
              reference=None, keep_reference=None, keep_executed=None) -> Submission:
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
    reference : path-like, optional
        A folder written by :func:`make_reference` from the teacher's notebook:
        the checks take every name but the question's answers from it. Without
        it the notebook is its own reference, which trusts it: use that only
        for the teacher's notebook and for a student's ``check``.
    keep_reference : path-like, optional
        Where to keep this notebook's namespaces as a reference.
    keep_executed : callable, optional
        ``keep_executed(executed, name, cells)`` keeps the executed notebook
        (``--keep-executed``: ``_class.executed_keeper``); the grader calls it
        after the run and knows nothing of where it goes.

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
    missing = [q["name"] for q in questions if not q["manual"] and not q.get("answers")]
    if reference is not None and missing:
        raise ValueError(f"the specification names no answers for {missing} (an "
                         "autograder.json written before answers were recorded, or a solution "
                         "cell that binds no name): run assign again.")
    scores = {q["name"]: (None if q["manual"] else 0.0) for q in questions}
    nb, problem = read_notebook(data)
    if nb is None:
        return Submission(name, scores, "unreadable",
                          [f"Your file could not be graded: {problem}."])
    plan = _plan(nb, spec)
    sources, cells, points, spans, coded, notes = plan
    used = _names_used([t["source"] for q in coded for t in q["tests"]])
    bound = {a for q in coded for a in (q.get("answers") or []) + (q.get("binds") or [])}
    flags, hashes = flags_for(nb, spec, plan, {q["name"]: q.get("solution_hash") for q in coded},
                              used - bound)
    answers, bound = [], []
    for q in coded:
        bound += [a for a in q.get("answers") or [] if a not in bound]
        answers.append(list(bound))
    failures, student_errors = {q["name"]: [] for q in questions}, []
    workdir = Path(tempfile.mkdtemp(prefix="mlcore-grade-"))
    state = Path(tempfile.mkdtemp(prefix="mlcore-state-"))
    own = reference is None
    reference = state if own else Path(reference)
    statuses, cost, peak = set(), 0.0, 0.0
    try:
        snapshots = [[at, n, str(state / f"{n}.pkl"), answers[n]] for n, at in enumerate(points)]
        if own:
            snapshots += [[at, n, str(state / f"ref{n}.pkl"), sorted(used)]
                          for n, at in enumerate(points)]
        job = {"cells": sources, "snapshots": snapshots, "workdir": str(workdir),
               "limits": _limits_job(limits),
               "keep": str(state / "executed.ipynb") if keep_executed else None}
        first = run_script("_worker.py", job, limits, workdir, hide=hide, state=state)
        if keep_executed:
            keep_executed(state / "executed.ipynb", name, cells)
        cost, peak = cost + first.cpu, max(peak, first.peak_mb)
        saved = {e.get("n") for e in first.events
                 if e.get("event") == "snapshot" and e.get("ok") is True}
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
        ready = [n for n in range(len(coded))
                 if n in saved and _regular(state / f"{n}.pkl")]
        verdicts, problems, tampered, checked = (
            _run_checks(coded, ready, limits, workdir, hide, state, reference, answers)
            if ready else ({}, [], [], None))
        if checked is not None:
            cost, peak = cost + checked.cpu, max(peak, checked.peak_mb)
        if keep_reference is not None:
            for n in range(len(coded)):
                if _regular(state / f"ref{n}.pkl"):
                    shutil.copyfile(state / f"ref{n}.pkl", Path(keep_reference) / f"ref{n}.pkl")
        for kind, note in problems:
            statuses.add(kind)
            notes.append(note)
        for number, q in enumerate(coded):
            tests, weights = q["tests"], test_weights(q)
            hits = question_uses(plan, number, q)
            for hit in hits:
                failures[q["name"]].append(f"rule: the exercise forbids {hit}; this question "
                                           "scores zero")
            for k, test in enumerate(tests):
                event = verdicts.get((number, k))
                if event and event.get("ok") is True:
                    if not hits:
                        scores[q["name"]] += weights[k]
                    continue
                if number not in ready:
                    why = "not run (the notebook stopped before this question)"
                elif event and event.get("running"):
                    why = "did not finish: it was running when the checks were stopped"
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
    if tampered:
        for q in coded:
            scores[q["name"]] = 0.0
        notes.insert(0, "The checks' results were tampered with (" + "; ".join(tampered[:3])
                     + "): every autograded question scores zero. Your teacher will read "
                       "your notebook.")
        return Submission(name, scores, "tampered", notes + student_errors, failures, cost,
                          peak, flags, hashes)
    for q in questions:
        if scores[q["name"]] is not None:
            scores[q["name"]] = round(scores[q["name"]], 4)
    status = "timeout" if "timeout" in statuses else "error" if statuses else "ok"
    return Submission(name, scores, status, notes + student_errors, failures, cost, peak, flags,
                      hashes)


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
                      hide=(), progress=None, reference=None, keep_executed=None) -> list:
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
    reference : path-like, optional
        Folder written by :func:`make_reference` from the teacher's notebook.
        Give it whenever the submissions are not trusted: without it each
        notebook is its own reference (see :func:`grade_one`).
    keep_executed : callable, optional
        Keeps each executed notebook (see :func:`grade_one`).

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
    missing = [q["name"] for q in spec["questions"] if not q["manual"] and not q.get("answers")]
    if reference is not None and missing:
        raise ValueError(f"the specification names no answers for {missing}: run assign "
                         "again (autograder.json is older than this grader).")
    items = list(submissions)
    for i, item in enumerate(items):
        if not (isinstance(item, (tuple, list)) and len(item) == 2 and isinstance(item[0], str)
                and isinstance(item[1], (bytes, bytearray))):
            raise TypeError(f"submissions[{i}] must be a (file name, bytes) pair, got "
                            f"{str(item)[:80]}.")

    def work(item):
        try:
            graded = grade_one(item[0], item[1], spec, limits, hide,
                               reference=reference, keep_executed=keep_executed)
        except (OSError, RuntimeError, ValueError) as error:
            scores = {q["name"]: (None if q["manual"] else 0.0) for q in spec["questions"]}
            graded = Submission(item[0], scores, "error", [
                f"The grader could not run this submission ({type(error).__name__}: "
                f"{md_text(error)}); grade it again."])
        if progress:
            progress(graded)
        return graded

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        graded = list(pool.map(work, items))
    stubs = {q["name"]: q.get("stub_hash") for q in spec["questions"]}
    same = mark_identical([(g.file, g.hashes, stubs) for g in graded],
                          published={q["name"]: q.get("solution_hash") for q in spec["questions"]})
    for g in graded:
        g.flags += same.get(g.file, [])
    return graded
