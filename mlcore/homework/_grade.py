"""Grade submissions against an autograder: scores, statuses, CSV and feedback.

A submission's own code cells run in order in one kernel; its test cells are
ignored and the autograder's copies (public, hidden and the teacher's extra
tests) run right after the question's solution cell. A question's points are
shared equally by its test cells.
"""

from __future__ import annotations

import csv
import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ._format import META_KEY, TEST_TAGS, parse_questions, tags_of
from ._sandbox import Limits, run_cells

__all__ = ["Submission", "build_spec", "load_spec", "add_extra_tests", "grade_one",
           "grade_submissions",
           "write_grades", "write_feedback", "merge_manual_scores", "STATUSES"]

STATUSES = ("ok", "error", "timeout", "unreadable")
MAX_BYTES = 50 * 1024 * 1024
SPEC_NAME = "autograder.json"


def _source(cell) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def build_spec(nb, chapter: str) -> dict:
    """Return the autograder's specification of a chapter: questions, points, tests, anchors.

    Parameters
    ----------
    nb : dict
        The chapter (or the autograder notebook derived from it).
    chapter : str
        The chapter's file stem.

    Returns
    -------
    dict
        JSON-serialisable; written as ``autograder.json``.
    """
    questions = []
    for q in parse_questions(nb):
        cells = nb["cells"]
        questions.append({
            "name": q.name, "points": q.points, "manual": q.manual,
            "anchors": [cells[i].get("id") or f"cell-{i}" for i in q.solution_cells],
            "tests": [{"source": _source(cells[i]), "hidden": hidden, "origin": "chapter"}
                      for i, hidden in q.test_cells]})
    return {"format": 1, "chapter": chapter, "questions": questions}


def load_spec(path) -> dict:
    """Read an autograder folder (or its ``autograder.json``).

    Examples
    --------
    >>> load_spec("no/such/folder")
    Traceback (most recent call last):
    ...
    FileNotFoundError: autograder='no/such/folder' is not an autograder folder: no/such/folder/autograder.json does not exist; make one with `python -m mlcore.homework assign`.
    """
    path = Path(path)
    file = path if path.suffix == ".json" else path / SPEC_NAME
    if not file.is_file():
        raise FileNotFoundError(f"autograder={str(path)!r} is not an autograder folder: {file} "
                                "does not exist; make one with `python -m mlcore.homework assign`.")
    spec = json.loads(file.read_text(encoding="utf-8"))
    if spec.get("format") != 1 or not isinstance(spec.get("questions"), list):
        raise ValueError(f"{file} is not an autograder specification of format 1.")
    return spec


def add_extra_tests(spec: dict, folder) -> dict:
    """Return a copy of ``spec`` with a teacher's private tests added as hidden tests.

    ``folder/<question>.py`` is one test cell of that question, and so is
    each ``folder/<question>/*.py``.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"extra_tests={str(folder)!r} is not a folder.")
    spec = json.loads(json.dumps(spec))
    by_name = {q["name"]: q for q in spec["questions"]}
    files = sorted(folder.glob("*.py")) + sorted(folder.glob("*/*.py"))
    if not files:
        raise ValueError(f"extra_tests={str(folder)!r} holds no <question>.py or "
                         "<question>/*.py files.")
    for file in files:
        name = file.stem if file.parent == folder else file.parent.name
        question = by_name.get(name)
        if question is None or question["manual"]:
            coded = ", ".join(q["name"] for q in spec["questions"] if not q["manual"])
            raise ValueError(f"extra test {file} names question {name!r}, which is not an "
                             f"autograded question of chapter {spec['chapter']}; use one of: "
                             f"{coded}.")
        question["tests"].append({"source": file.read_text(encoding="utf-8"), "hidden": True,
                                  "origin": str(file)})
    return spec


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


def _read(name: str, data: bytes):
    import nbformat
    if len(data) > MAX_BYTES:
        return None, f"the file is larger than {MAX_BYTES // 2**20} MiB"
    try:
        nb = nbformat.reads(data.decode("utf-8"), as_version=4)
        cells = nb["cells"]
        if not isinstance(cells, list) or not all(isinstance(c, dict) and "cell_type" in c
                                                   for c in cells):
            raise ValueError("its 'cells' are not a list of notebook cells")
    except Exception as error:   # any way a file fails to be a notebook
        return None, f"not a readable Jupyter notebook ({type(error).__name__}: {error})"[:400]
    return nb, None


def _plan(nb, spec: dict):
    """Cells to run and what each is: ('student', cell index) or ('test', question, k)."""
    coded = [q for q in spec["questions"] if not q["manual"]]
    last = {}
    for i, cell in enumerate(nb["cells"]):
        meta = (cell.get("metadata") or {}).get(META_KEY) or {}
        for q in coded:
            if meta.get("question") == q["name"] or cell.get("id") in q["anchors"]:
                last[q["name"]] = i
    sources, slots, notes = [], [], []

    def add_tests(q):
        for k, test in enumerate(q["tests"]):
            sources.append(test["source"])
            slots.append(("test", q["name"], k))

    for i, cell in enumerate(nb["cells"]):
        if cell.get("cell_type") != "code" or tags_of(cell) & (TEST_TAGS | {"heavy"}):
            continue
        sources.append(_source(cell))
        slots.append(("student", i))
        for q in coded:
            if last.get(q["name"]) == i:
                add_tests(q)
    for q in coded:
        if q["name"] not in last:
            notes.append(f"The solution cell of {q['name']} was not found (deleted, or its "
                         "metadata removed); its tests ran after your last cell.")
            add_tests(q)
    return sources, slots, notes


def _first_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return (lines[0][:70] if lines else "(empty)")


def grade_one(name: str, data: bytes, spec: dict, limits: Limits, hide=()) -> Submission:
    """Grade one submission given as bytes; never raises for anything the submission does."""
    questions = spec["questions"]
    scores = {q["name"]: (None if q["manual"] else 0.0) for q in questions}
    nb, problem = _read(name, data)
    if nb is None:
        return Submission(name, scores, "unreadable", [f"Your file could not be graded: "
                                                       f"{problem}."])
    sources, slots, notes = _plan(nb, spec)
    result = run_cells(sources, limits, hide=hide)
    outcome = {e["n"]: e for e in result.events if e.get("event") == "cell"}
    dead = [e for e in result.events if e.get("event") == "dead"]
    failures, student_errors = {q["name"]: [] for q in questions}, []
    for n, slot in enumerate(slots):
        event = outcome.get(n)
        passed = bool(event and event.get("ok"))
        if slot[0] == "student":
            if event and not passed:
                cell = nb["cells"][slot[1]]
                student_errors.append(f"Cell {slot[1] + 1} (starting `{_first_line(_source(cell))}`)"
                                      f" raised {event.get('ename')}: {event.get('evalue')}")
            continue
        question = next(q for q in questions if q["name"] == slot[1])
        test = question["tests"][slot[2]]
        if passed:
            scores[slot[1]] += question["points"] / len(question["tests"])
            continue
        kind = "hidden check" if test["hidden"] else "public check"
        why = (f"{event.get('ename')}: {event.get('evalue')}".rstrip(": ") if event
               else "not run (the notebook stopped before it)")
        failures[slot[1]].append(f"{kind} {slot[2] + 1} of {len(question['tests'])}: {why}")
    for q in questions:
        if scores[q["name"]] is not None:
            scores[q["name"]] = round(scores[q["name"]], 4)
    if result.timed_out:
        status = "timeout"
        notes.append(f"Your notebook ran longer than {limits.timeout:g} s and was stopped; the "
                     "checks it had not reached score zero. Look for a loop that never ends.")
    elif dead or not result.finished or student_errors:
        status = "error"
        for event in dead:
            notes.append(f"Grading stopped: {event.get('reason')}.")
        if not result.finished and not dead:
            last = (result.stderr.strip().splitlines() or [""])[-1][:300]
            notes.append("The grading process ended early (exit code "
                         f"{result.returncode}): the notebook exited, crashed or hit a resource "
                         "limit; the checks it had not reached score zero."
                         + (f" Its last message: {last}" if last else ""))
    else:
        status = "ok"
    return Submission(name, scores, status, notes + student_errors, failures)


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
        Submissions graded at once; default: the number of CPU cores.
    hide : list of path-like
        Folders to hide from the submissions' code (under bubblewrap).
    progress : callable, optional
        Called with each finished :class:`Submission`.

    Returns
    -------
    list of Submission
        In the order given.
    """
    jobs = jobs or os.cpu_count() or 1
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got jobs={jobs!r}.")

    def work(item):
        graded = grade_one(item[0], item[1], spec, limits, hide)
        if progress:
            progress(graded)
        return graded

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(work, submissions))


def _number(value) -> str:
    if value is None:
        return ""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def write_grades(path, spec: dict, graded: list) -> None:
    """Write grades.csv: ``file``, one column per question, ``total``, ``status``."""
    names = [q["name"] for q in spec["questions"]]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", *names, "total", "status"])
        for g in graded:
            writer.writerow([g.file, *(_number(g.scores[n]) for n in names), _number(g.total),
                             g.status])


def write_feedback(folder, spec: dict, graded: list) -> None:
    """Write one Markdown feedback file per submission: scores and every failed check."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    explain = {"ok": "your notebook ran to the end without errors",
               "error": "some of your cells raised an error or the notebook stopped early",
               "timeout": "your notebook ran out of time",
               "unreadable": "your file is not a notebook that can be read"}
    for g in graded:
        total = sum(q["points"] for q in spec["questions"] if not q["manual"])
        lines = [f"# Feedback on {g.file} (chapter {spec['chapter']})", "",
                 f"Status: **{g.status}**: {explain[g.status]}.", "",
                 f"Autograded score: {_number(g.total)} / {_number(total)}", ""]
        for q in spec["questions"]:
            if q["manual"]:
                lines.append(f"- {q['name']}: graded by your teacher (out of {_number(q['points'])})")
                continue
            lines.append(f"- {q['name']}: {_number(g.scores[q['name']])} / "
                         f"{_number(q['points'])}")
            lines += [f"  - failed {line}" for line in g.failures.get(q["name"], [])]
        if g.notes:
            lines += ["", "## Notes", ""] + [f"- {note}" for note in g.notes]
        stem = Path(g.file).stem or "submission"
        (folder / f"{stem}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def merge_manual_scores(grades_csv, manual_csv, spec: dict, out=None) -> list:
    """Add a teacher's scores for pen-and-paper questions to grades.csv and recompute ``total``.

    Parameters
    ----------
    grades_csv : path-like
        Written by ``grade``.
    manual_csv : path-like
        Columns ``file`` and one or more manual questions' names; a score
        per cell, between 0 and the question's points (empty: not graded).
    spec : dict
        The chapter's autograder specification (for the points).
    out : path-like, optional
        Where to write the merged table; default: overwrite ``grades_csv``.

    Returns
    -------
    list of dict
        The merged rows.
    """
    manual = {q["name"]: q["points"] for q in spec["questions"] if q["manual"]}
    with open(grades_csv, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
        header = list(rows[0].keys()) if rows else []
    with open(manual_csv, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        columns = reader.fieldnames or []
        given = list(reader)
    if "file" not in columns:
        raise ValueError(f"manual_csv={str(manual_csv)!r} needs a 'file' column naming each "
                         f"submission, got columns {columns}.")
    unknown = [c for c in columns if c != "file" and c not in manual]
    if unknown:
        raise ValueError(f"manual_csv={str(manual_csv)!r} has columns {unknown} that are not "
                         f"pen-and-paper questions of chapter {spec['chapter']}; those are: "
                         f"{sorted(manual) or 'none'}.")
    by_file = {row["file"]: row for row in rows}
    for line, entry in enumerate(given, start=2):
        row = by_file.get(entry["file"])
        if row is None:
            raise ValueError(f"manual_csv line {line}: file {entry['file']!r} is not in "
                             f"{grades_csv}.")
        for name in columns[1:]:
            text = (entry.get(name) or "").strip()
            if not text:
                continue
            try:
                value = float(text)
            except ValueError:
                value = float("nan")
            if not 0 <= value <= manual[name]:
                raise ValueError(f"manual_csv line {line}: {name}={text!r} for "
                                 f"{entry['file']!r} must be a number in [0, {manual[name]:g}].")
            row[name] = _number(value)
    questions = [q["name"] for q in spec["questions"]]
    for row in rows:
        row["total"] = _number(sum(float(row[n]) for n in questions if row.get(n, "") != ""))
    with open(out or grades_csv, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)
    return rows

