"""Fill a gradebook CSV exported from Canvas or Moodle with the autograded totals.

Export the gradebook from the LMS (Canvas: Grades, Export, "Export Entire
Gradebook"; Moodle: Grades, Export, "Plain text file"), grade with
``--roster`` so that each row of grades.csv has the student's id, and pass
``--gradebook FILE --gradebook-column COLUMN``. The file is copied with that
column filled, as ``<FILE stem>_filled.csv`` next to grades.csv, ready to
import. The student's id is matched against, for Canvas, the columns ``ID``
(the number in Canvas's submission file names), ``SIS User ID`` and
``SIS Login ID``; for Moodle, ``ID number``, ``Email address`` and
``Username``; for Moodle's grading worksheet (Assignment, View all
submissions, "Download grading worksheet", uploaded back with "Upload
grading worksheet"), ``Identifier`` ("Participant 12345", the number in
Moodle's submission file names). Canvas's ``Points Possible`` row is kept
as it is. Each student gets the ``final`` column of grades.csv when it has
one (after a late penalty), else ``total``; an enrolled student with no
submission (a ``missing`` row, from ``--roster-file``) gets 0.
Every other cell is copied as it was, except that a cell a spreadsheet would
take for a formula (a student's name ``=HYPERLINK(...)`` in the LMS) is
quoted with ``'`` as in grades.csv (``_report.csv_lines``); a cell that
already starts with ``'`` (a name such as ``'t Hooft``) is copied as it is,
and so is every cell of the id columns above (a login ``-ann``), which the
LMS matches its students by when the file is imported.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

__all__ = ["fill_gradebook", "fill_from_grades"]

KEYS = {"canvas": ("ID", "SIS User ID", "SIS Login ID"),
        "moodle": ("ID number", "Email address", "Username"),
        "worksheet": ("Identifier",)}


def _kind(header) -> str:
    if "Student" in header and "ID" in header and "SIS User ID" in header:
        return "canvas"
    if "Identifier" in header and "Full name" in header:
        return "worksheet"
    if "Email address" in header or "ID number" in header:
        return "moodle"
    raise ValueError(f"--gradebook has columns {header[:8]}; expected a Canvas export "
                     "(Student, ID, SIS User ID, ...) or a Moodle export (First name, "
                     "Last name, ID number, ..., Email address, ...).")


def _key(text: str, kind: str) -> str:
    if kind == "worksheet":
        from ._roster import participant
        text = participant(text)
    return text.strip().lower()


def fill_gradebook(gradebook, column: str, totals: dict, out) -> tuple:
    """Copy ``gradebook`` to ``out`` with ``column`` set to ``totals[student id]``.

    Returns ``(filled, unmatched_ids, ungraded_rows)``.
    """
    from ..grading import _number, _write_nofollow, csv_lines
    text = Path(gradebook).read_bytes().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows:
        raise ValueError(f"--gradebook {str(gradebook)!r} is empty.")
    header = rows[0]
    kind = _kind(header)
    if column not in header:
        raise ValueError(f"--gradebook-column {column!r} is not a column of "
                         f"{gradebook}; its columns are {header}.")
    target = header.index(column)
    keys = [header.index(k) for k in KEYS[kind] if k in header]
    wanted = {str(k).strip().lower(): v for k, v in totals.items() if str(k).strip()}
    seen, ungraded, filled = set(), [], 0
    for row in rows[1:]:
        if kind == "canvas" and row and row[0].strip().startswith("Points Possible"):
            continue
        row += [""] * (len(header) - len(row))
        found = next((_key(row[k], kind) for k in keys if _key(row[k], kind) in wanted),
                     None)
        if found is None:
            ungraded.append(row[0])
            continue
        row[target] = _number(wanted[found])
        seen.add(found)
        filled += 1
    # the LMS's names are the students' own text: quoted like grades.csv's cells,
    # but a cell that starts with ' is the LMS's own text, not doubled for csv_value;
    # the id columns go back as the LMS wrote them, since its import matches on them
    # (a login '-ann' would match no one)
    _write_nofollow(Path(out), csv_lines(rows, "\r\n" if "\r\n" in text else "\n",
                                         round_trip=False, as_is=set(keys)))
    return filled, sorted(set(wanted) - seen), ungraded


def fill_from_grades(grades, gradebook, column: str, out=None) -> list:
    """Fill ``gradebook`` from grades.csv; return the lines to print (warnings first).

    Writes ``<gradebook stem>_filled.csv`` next to ``grades`` unless ``out``
    is given. Uses ``final`` when grades.csv has it (late penalty), else
    ``total``.
    """
    from ..grading import _read_csv
    grades = Path(grades)
    header, rows = _read_csv(grades, "grades_csv")
    if "student" not in header:
        raise ValueError("--gradebook needs a 'student' column in grades.csv: grade "
                         "with --roster (its (?P<id>...) group is the LMS user id).")
    score = "final" if "final" in header else "total"
    totals = {r["student"]: float(r[score] or 0) for r in rows if r["student"]}
    target = (Path(out) if out
              else grades.with_name(f"{Path(gradebook).stem}_filled.csv"))
    filled, unmatched, ungraded = fill_gradebook(gradebook, column, totals, target)
    absent = sum(r.get("status") == "missing" and bool(r["student"]) for r in rows)
    lines = [f"Filled {filled} rows of {target} ({column}, from grades.csv's '{score}')"
             + (f"; {absent} enrolled student(s) with no submission get 0" if absent
                else "")]
    if unmatched:
        lines.append("warning: graded students not in the gradebook: "
                     + ", ".join(unmatched))
    if ungraded:
        lines.append("warning: gradebook rows with no graded submission (left empty; "
                     "give --roster-file to fill them with 0): " + ", ".join(ungraded))
    return lines
