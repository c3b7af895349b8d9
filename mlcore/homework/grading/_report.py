"""Files in and out of grading: the submissions folder, grades.csv, feedback, merge.

Submissions are opened without following symlinks (a symlink is refused:
it could point at the teacher's autograder or at any file the grader may
read). Outputs are written after every run has ended, each to a fresh
temporary file renamed over its target, so a link planted at an output
path is replaced, never followed; an output path that is a symlink or not
a regular file when grading starts is refused.

A file name is the student's own text, so it cannot crash a run: a name
that is not UTF-8 or is longer than 200 bytes gets the row ``unreadable``
(its name shown with escapes), feedback files have a name cut to a safe
length, and every CSV cell that a spreadsheet would take for a formula
(starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, and not a
number) is written with a leading ``'`` (OWASP's rule against CSV
injection), which reading removes again.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import os
import re
import stat
import tempfile
import warnings
from pathlib import Path

from ._grade import MAX_FILE_BYTES, STATUSES, Submission, check_spec, md_text

__all__ = ["check_output_paths", "write_grades", "write_feedback",
           "merge_manual_scores"]

SYMLINK = "unreadable: symlink"
MAX_NAME_BYTES = 200
FEEDBACK_STEM_BYTES = 120
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def csv_cell(value, *, round_trip: bool = True) -> str:
    """A CSV cell a spreadsheet shows as text: ``'`` before a would-be formula.

    Numbers stay numbers. With ``round_trip`` (the grader's own files), a
    cell starting with ``'`` gets another, so that :func:`csv_value` reads
    every cell back exactly; without it (a gradebook that goes back to the
    LMS, which reads its cells as they are) such a cell is left as it is.

    Examples
    --------
    >>> [csv_cell(v) for v in ["=HYPERLINK(1)", "-1.5", "@x", "'q", "alice.ipynb", 2]]
    ["'=HYPERLINK(1)", '-1.5', "'@x", "''q", 'alice.ipynb', '2']
    >>> csv_cell("'t Hooft", round_trip=False)
    "'t Hooft"
    """
    text = "" if value is None else str(value)
    starts = ("=", "+", "-", "@", "\t", "\r") + (("'",) if round_trip else ())
    # a lone "-" is no formula but the LMS's empty grade, which an import must read
    if text[:1] in starts and text != "-" and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_value(text: str) -> str:
    """The value of a cell written by :func:`csv_cell`."""
    return text[1:] if isinstance(text, str) and text.startswith("'") else text


def shown_name(name: str) -> str:
    """A file name as text that any output can hold (undecodable bytes as ``\\xNN``)."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def name_problem(name: str):
    """Why a file name cannot be a row of grades.csv, or None."""
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError:
        return "its name is not valid UTF-8 text; rename the file"
    if size > MAX_NAME_BYTES:
        return (f"its name is {size} bytes long, more than {MAX_NAME_BYTES}; rename the "
                "file")
    return None


def _path(value, name: str) -> Path:
    if isinstance(value, bool) or not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name} must be a path (str or os.PathLike), got {value!r:.80}.")
    return Path(value)


def _read_nofollow(path: Path):
    """The bytes of a regular file, or None and why; never follows a symlink."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        return None, f"it cannot be opened ({error.strerror})"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, "it is not a regular file"
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks), None
    finally:
        os.close(fd)


def refused_submission(name: str, reason: str, spec: dict) -> Submission:
    """The row of a file that was not run: zero on every autograded question."""
    scores = {q["name"]: (None if q["manual"] else 0.0) for q in spec["questions"]}
    why = ("it is a symbolic link; hand in the notebook file itself" if reason == SYMLINK
           else reason.removeprefix("unreadable: "))
    status = SYMLINK if reason == SYMLINK else "unreadable"
    return Submission(name, scores, status, [f"Your file could not be graded: {why}."])


def check_output_paths(*paths) -> None:
    """Refuse output paths the grader did not create: symlinks and non-regular files.

    A folder output (feedback) must be a real folder if it exists; a file
    output must be a regular file if it exists.
    """
    for path in paths:
        path = Path(path)
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            parent = path.parent
            if parent.is_symlink():
                raise RuntimeError(f"refusing to write under {parent}: it is a symbolic "
                                   "link; give an output path in a real folder.") from None
            continue
        if stat.S_ISLNK(info.st_mode):
            raise RuntimeError(f"refusing to write {path}: it is a symbolic link, not a file "
                               "the grader wrote; remove it or choose another output path.")
        if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
            raise RuntimeError(f"refusing to write {path}: it is not a regular file or folder.")


def _write_nofollow(path: Path, text: str) -> None:
    """Write ``text`` to a fresh file next to ``path``, then rename it over ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    check_output_paths(path)
    if path.is_dir() and not path.is_symlink():
        raise IsADirectoryError(f"refusing to write {str(path)!r}: it is a folder; give a "
                                "file name such as grades.csv.")
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(temporary, path)       # replaces a planted link, never writes through it
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _number(value) -> str:
    if value is None:
        return ""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _check_graded(spec, graded) -> list:
    check_spec(spec)
    names = [q["name"] for q in spec["questions"]]
    graded = list(graded)
    for i, g in enumerate(graded):
        if not isinstance(g, Submission):
            raise TypeError(f"graded[{i}] must be a Submission, got {type(g).__name__}.")
        if g.status not in STATUSES:
            raise ValueError(f"graded[{i}] ({g.file!r}) has status={g.status!r}; a status is "
                             f"one of {', '.join(STATUSES)}.")
        missing = [n for n in names if n not in g.scores]
        if missing:
            raise ValueError(f"graded[{i}] ({g.file!r}) has no score for {missing}; it was "
                             f"graded against another specification than chapter "
                             f"{spec['chapter']}.")
    return graded


def write_grades(path, spec: dict, graded: list) -> None:
    """Write grades.csv: ``file``, one column per question, ``total``, ``status``, ``flags``
    (for review; see ``_flags.py``), ``cpu_seconds`` and ``peak_mb`` (resident memory)."""
    path = _path(path, "path")
    if not str(path).strip() or str(path) in (".", os.sep) or path.is_dir():
        raise IsADirectoryError(f"path={str(path)!r} is a folder, not a CSV file to write; "
                                "give a file name such as grades.csv.")
    graded = _check_graded(spec, graded)
    names = [q["name"] for q in spec["questions"]]
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    roster = any(g.student for g in graded)
    late = any(g.late for g in graded)
    writer.writerow(map(csv_cell, ["file", *(["student"] if roster else []), *names, "total",
                                   "status", *(["late"] if late else []), "flags",
                                   "cpu_seconds", "peak_mb"]))
    for g in graded:
        writer.writerow(map(csv_cell, [
            g.file, *([g.student] if roster else []), *(_number(g.scores[n]) for n in names),
            _number(g.total), g.status, *([g.late] if late else []), "; ".join(g.flags),
            f"{g.cpu:.1f}", f"{g.peak_mb:.0f}"]))
    _write_nofollow(path, buffer.getvalue())


EXPLAIN = {"ok": "your notebook ran to the end without errors",
           "tampered": "the checks' results were tampered with, so the autograded questions "
                       "score zero; your teacher will read your notebook",
           "error": "some of your cells raised an error or the notebook stopped early",
           "timeout": "your notebook ran out of time",
           "unreadable": "your file is not a notebook that can be read",
           SYMLINK: "your file is a symbolic link, not a notebook"}


def feedback_stem(file: str) -> str:
    """The feedback file's name for a submission: its stem, cut to a safe length.

    A stem longer than 120 bytes is cut and given 8 hex digits of the name's
    hash, so that every file system can hold it and names stay distinct.
    """
    stem = Path(file).stem.replace(os.sep, "_") or "submission"
    stem = shown_name(stem)
    data = stem.encode("utf-8")
    if len(data) > FEEDBACK_STEM_BYTES:
        digest = hashlib.sha256(file.encode("utf-8", "surrogateescape")).hexdigest()[:8]
        stem = data[:FEEDBACK_STEM_BYTES].decode("utf-8", "ignore") + "-" + digest
    return stem


def write_feedback(folder, spec: dict, graded: list) -> list:
    """Write one Markdown feedback file per submission: scores and every failed check.

    Returns ``[(file, why)]`` for the feedback files that could not be
    written; the others are written.
    """
    folder = _path(folder, "folder")
    graded = _check_graded(spec, graded)
    check_output_paths(folder)
    folder.mkdir(parents=True, exist_ok=True)
    total = sum(q["points"] for q in spec["questions"] if not q["manual"])
    used, failed = set(), []
    for g in graded:
        lines = [f"# Feedback on {md_text(g.file, 120)} (chapter {spec['chapter']})", "",
                 f"Status: **{g.status}**: {EXPLAIN.get(g.status, g.status)}.", "",
                 f"Autograded score: {_number(g.total)} / {_number(total)}", ""]
        for q in spec["questions"]:
            if q["manual"]:
                lines.append(f"- {q['name']}: graded by your teacher "
                             f"(out of {_number(q['points'])})")
                continue
            lines.append(f"- {q['name']}: {_number(g.scores[q['name']])} / "
                         f"{_number(q['points'])}")
            lines += [f"  - failed {line}" for line in g.failures.get(q["name"], [])]
        if g.notes:
            lines += ["", "## Notes", ""] + [f"- {note}" for note in g.notes]
        stem = feedback_stem(g.file)
        if stem in used:
            stem = f"{stem}-{len(used)}"
        used.add(stem)
        try:
            _write_nofollow(folder / f"{stem}.md", "\n".join(lines) + "\n")
        except (OSError, UnicodeError, RuntimeError) as error:
            failed.append((g.file, f"{type(error).__name__}: {error}"))
    return failed


def _read_csv(path: Path, name: str):
    try:
        text = path.read_bytes().decode("utf-8-sig")     # Excel's "CSV UTF-8" starts with a BOM
    except UnicodeDecodeError:
        raise ValueError(f"{name}={str(path)!r} is not UTF-8 text; save it as 'CSV UTF-8'.") \
            from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    rows = [{csv_value(k): csv_value(v) for k, v in row.items()} for row in reader]
    return [csv_value(c) for c in reader.fieldnames or []], rows


def merge_manual_scores(grades_csv, manual_csv, spec: dict, out=None) -> list:
    """Add a teacher's scores for pen-and-paper questions to grades.csv and recompute ``total``.

    Every problem of the manual CSV is reported at once (row and column
    named); nothing is written unless it has none. A student of grades.csv
    with no manual score is named in a warning.

    Parameters
    ----------
    grades_csv : path-like
        Written by ``grade``.
    manual_csv : path-like
        Columns ``file`` and one or more manual questions' names; a score
        per cell, between 0 and the question's points (empty: not graded).
        A column ``<question>_comment`` is allowed; ``merge`` writes it into
        the feedback (``_class.refresh_feedback``).
        A UTF-8 byte-order mark (Excel's "CSV UTF-8") is accepted.
    spec : dict
        The chapter's autograder specification (for the points).
    out : path-like, optional
        Where to write the merged table; default: overwrite ``grades_csv``.

    Returns
    -------
    list of dict
        The merged rows.
    """
    check_spec(spec)
    grades_csv, manual_csv = _path(grades_csv, "grades_csv"), _path(manual_csv, "manual_csv")
    out = grades_csv if out is None else _path(out, "out")
    manual = {q["name"]: q["points"] for q in spec["questions"] if q["manual"]}
    header, rows = _read_csv(grades_csv, "grades_csv")
    if "file" not in header or "total" not in header:
        raise ValueError(f"grades_csv={str(grades_csv)!r} is not a grades.csv written by "
                         f"grade: got columns {header}.")
    columns, given = _read_csv(manual_csv, "manual_csv")
    if "file" not in columns:
        raise ValueError(f"manual_csv={str(manual_csv)!r} needs a 'file' column naming each "
                         f"submission, got columns {columns}.")
    unknown = [c for c in columns
               if c != "file" and c.removesuffix("_comment") not in manual]
    if unknown:
        raise ValueError(f"manual_csv={str(manual_csv)!r} has columns {unknown} that are not "
                         f"pen-and-paper questions of chapter {spec['chapter']}; those are: "
                         f"{sorted(manual) or 'none'}.")
    by_file = {row["file"]: row for row in rows}
    old_manual = {row["file"]: {n: row.get(n, "") for n in manual} for row in rows}
    problems, seen = [], {}
    for line, entry in enumerate(given, start=2):
        file = (entry.get("file") or "").strip()
        if file in seen:
            problems.append(f"line {line}: file {file!r} already has a row on line "
                            f"{seen[file]}; keep one row per student.")
            continue
        seen[file] = line
        row = by_file.get(file)
        if row is None:
            problems.append(f"line {line}: file {file!r} is not in {grades_csv}.")
            continue
        for name in columns:
            if name not in manual:        # "file", or a comment (_class.read_comments)
                continue
            text = (entry.get(name) or "").strip()
            if not text:
                continue
            try:
                value = float(text)
            except ValueError:
                value = math.nan
            if not 0 <= value <= manual[name]:
                problems.append(f"line {line}, column {name}: {text!r} for {file!r} must be a "
                                f"number in [0, {manual[name]:g}].")
                continue
            row[name] = _number(value)
    if problems:
        raise ValueError(f"manual_csv={str(manual_csv)!r} has {len(problems)} problem(s); "
                         "nothing was merged:\n  " + "\n  ".join(problems))
    missing = [row["file"] for row in rows
               if row["file"] not in seen and row.get("status") != "missing"]
    if missing and manual:
        warnings.warn(f"no manual scores for {len(missing)} student(s) of {grades_csv}: "
                      f"{', '.join(missing)}; their total counts autograded points only.",
                      UserWarning, stacklevel=2)
    for row in rows:
        # The autograded part of the total is kept as grade computed it (unrounded); only
        # the manual part changes, so merging never moves an autograded total by rounding.
        before = sum(float(old_manual[row["file"]].get(n) or 0) for n in manual)
        after = sum(float(row.get(n) or 0) for n in manual)
        row["total"] = _number(float(row["total"] or 0) - before + after)
    _write_nofollow(out, csv_text(header, rows))
    return rows


def csv_lines(rows, ending: str = "\r\n", *, round_trip: bool = True,
              as_is=()) -> str:
    r"""CSV text of list rows, every cell through :func:`csv_cell` (with ``round_trip``).

    Every CSV the grader writes (grades.csv, the LMS export it fills) goes
    through here, so that no cell a student chose (a file name, a name in
    the LMS) reaches a spreadsheet as a formula. The cells of the columns
    numbered in ``as_is`` are written as they are: the ids an LMS matches
    its students by on import, which a ``'`` would change.

    Examples
    --------
    >>> csv_lines([["Student", "Grade"], ["=HYPERLINK(1)", "-2"]], "\n")
    "Student,Grade\n'=HYPERLINK(1),-2\n"
    >>> csv_lines([["Login", "Name"], ["-ann", "-ann"]], "\n", as_is={0})
    "Login,Name\n-ann,'-ann\n"
    """
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator=ending).writerows(
        [cell if i in as_is else csv_cell(cell, round_trip=round_trip)
         for i, cell in enumerate(row)] for row in rows)
    return buffer.getvalue()


def csv_text(columns, rows) -> str:
    """CSV text of dict rows, every cell through :func:`csv_cell`."""
    return csv_lines([list(columns)] + [[row.get(c, "") for c in columns]
                                        for row in rows])
