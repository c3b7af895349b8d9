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

import json
import operator
import os
import secrets
import shutil
import stat
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ._flags import flags_for, mark_identical
from ._plan import MAX_BYTES, MAX_FILE_BYTES, adopt_chapter_ids, first_line, names_used, \
    plan_notebook, read_notebook
from ._rules import question_uses
from ._text import ERROR_NAMES, md_text, safe_failure  # noqa: F401 -- re-exported
from ._reference import Reference, ReferenceTampered
from ..sandbox import Limits, isolation_for, run_script
from ..sandbox import make_dir, remove_dir
from ._spec import (SPEC_NAME, _source, add_extra_tests, build_spec,  # noqa: F401 -- re-exported
                    check_spec, load_spec, test_weights)

__all__ = ["Submission", "build_spec", "check_spec", "load_spec", "add_extra_tests", "SPEC_NAME",
           "read_notebook", "safe_failure", "grade_one", "grade_submissions", "default_jobs",
           "make_reference",
           "STATUSES"]

STATUSES = ("ok", "error", "timeout", "tampered", "unreadable", "unreadable: symlink")
__all__ += ["MAX_BYTES", "MAX_FILE_BYTES", "Reference", "ReferenceTampered"]


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


def _run_checks(coded, ready, limits, hide, state, reference, answers):
    """Run the checks of the questions in ``ready``; return verdicts, problems, tampering.

    The checks' process gets its own empty, read-only folder as HOME and working
    folder (never the one the submission's kernel wrote), the submission's
    snapshots read-only, and the teacher's reference namespaces on its stdin
    with their SHA-256, which it checks before loading them.
    """
    if not isinstance(reference, Reference):
        reference = Reference.read(reference)
    reference.verify()
    nonces = {(q, n): secrets.token_hex(16) for q in ready for n in range(len(coded[q]["tests"]))}
    questions = [{"number": q, "state": str(state / f"{q}.pkl"),
                  "reference": reference.job(q), "answers": answers[q],
                  "tests": [t["source"] for t in coded[q]["tests"]],
                  "nonces": [nonces[q, n] for n in range(len(coded[q]["tests"]))]}
                 for q in ready]
    job = {"questions": questions, "limits": _limits_job(limits)}
    home = make_dir("mlcore-checks-")
    try:
        # What the checks' process may know before it reads the job: it forks the
        # submission's process from itself then (see _checker.main).
        setup = {"limits": job["limits"], "preload": reference.modules()}
        result = run_script("_checker.py", job, limits, home, hide=hide, writable=False,
                            state=state, args=[json.dumps(setup)])
    finally:
        remove_dir(home)               # run_script made it read-only: remove_dir undoes it
    if any(e.get("event") == "reference" and e.get("ok") is False for e in result.events):
        raise ReferenceTampered("the teacher's reference snapshot that the checks' process "
                                "read does not have the SHA-256 recorded when it was made: "
                                "grading stopped, nothing was loaded from it.")
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
    reference : Reference or path-like, optional
        The teacher's namespaces (:class:`Reference`, or the folder
        :func:`make_reference` wrote, read at once): the checks take every
        name but the question's answers from it. Without
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
    nb = adopt_chapter_ids(nb, spec)
    plan = plan_notebook(nb, spec)
    sources, cells, points, spans, coded, notes = plan
    used = names_used([t["source"] for q in coded for t in q["tests"]])
    bound = {a for q in coded for a in (q.get("answers") or []) + (q.get("binds") or [])}
    flags, hashes = flags_for(nb, spec, plan, {q["name"]: q.get("solution_hash") for q in coded},
                              used - bound)
    answers, bound = [], []
    for q in coded:
        bound += [a for a in q.get("answers") or [] if a not in bound]
        answers.append(list(bound))
    failures, student_errors = {q["name"]: [] for q in questions}, []
    own = reference is None
    if not own and not isinstance(reference, Reference):
        reference = Reference.read(reference)     # before any folder that it could leave
    statuses, cost, peak = set(), 0.0, 0.0
    workdir = make_dir("mlcore-grade-")
    state = make_dir("mlcore-state-")        # main's remove_all, if stopped just here
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
                    f"Cell {cells[n] + 1} (starting {md_text(first_line(sources[n]), 70)}) "
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
        if own:       # the notebook is its own (trusted) reference
            reference = Reference.read(state)
        verdicts, problems, tampered, checked = (
            _run_checks(coded, ready, limits, hide, state, reference, answers)
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
        remove_dir(workdir)
        remove_dir(state)
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
                      hide=(), progress=None, reference=None, same_as: bool = True,
                      keep_executed=None) -> list:
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
    reference : Reference or path-like, optional
        The teacher's namespaces (:class:`Reference`, or the folder written by
        :func:`make_reference`, read at once). Give it whenever the
        submissions are not trusted: without it each notebook is its own
        reference (see :func:`grade_one`).
    same_as : bool
        Add the "same as" flags among these submissions (``grade`` computes
        them over every row of grades.csv instead).
    keep_executed : callable, optional
        Keeps each executed notebook (see :func:`grade_one`).

    Returns
    -------
    list of Submission
        In the order given. A run that fails in the grader itself gives that
        submission the status ``error``; the others are still graded.

    Raises
    ------
    RuntimeError
        With ``limits.sandbox`` ``"auto"`` or ``"bwrap"`` where bubblewrap does
        not work: grading other people's code without isolation must be asked
        for by name (``"none"``). :class:`ReferenceTampered` (a RuntimeError)
        when a reference snapshot changed: grading stops.
    """
    jobs = check_jobs(jobs)
    items = check_batch(spec, submissions, limits, progress, reference)
    if items:
        isolation_for(limits)          # refuses "auto" without a working bubblewrap
    if reference is not None and not isinstance(reference, Reference):
        reference = Reference.read(reference)
    stop = threading.Event()

    def work(item):
        if stop.is_set():
            return None
        try:
            graded = grade_one(item[0], item[1], spec, limits, hide,
                               reference=reference, keep_executed=keep_executed)
        except ReferenceTampered:
            stop.set()
            raise
        except (OSError, RuntimeError, ValueError) as error:
            graded = grader_error(item[0], spec, error)
        if progress:
            progress(graded)
        return graded

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        graded = list(pool.map(work, items))
    if same_as:
        add_same_as(spec, graded)
    return graded


def check_batch(spec: dict, submissions, limits: Limits, progress, reference) -> list:
    """Check the arguments of a class's grading; return the ``(name, bytes)`` pairs."""
    check_spec(spec)
    if not isinstance(limits, Limits):
        raise TypeError(f"limits must be a Limits, got {type(limits).__name__}.")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable or None, got progress={progress!r}.")
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
    return items


def grader_error(name: str, spec: dict, error: Exception) -> Submission:
    """The row of a submission the grader itself could not run (its own failure)."""
    scores = {q["name"]: (None if q["manual"] else 0.0) for q in spec["questions"]}
    return Submission(name, scores, "error", [
        f"The grader could not run this submission ({type(error).__name__}: "
        f"{md_text(error)}); grade it again."])


def add_same_as(spec: dict, graded: list) -> None:
    """Set the "same as" and "similar to" flags among ``graded`` (answers shared by students).

    The flags of an earlier comparison are replaced, not kept: ``grade
    --update`` compares the whole class again, rows kept from before included.
    """
    stubs = {q["name"]: q.get("stub_hash") for q in spec["questions"]}
    same = mark_identical([(g.file, g.hashes, stubs) for g in graded],
                          published={q["name"]: q.get("solution_hash") for q in spec["questions"]})
    for g in graded:
        g.flags = [f for f in g.flags
                   if not f.startswith(("same as ", "similar to "))] + same.get(g.file, [])
