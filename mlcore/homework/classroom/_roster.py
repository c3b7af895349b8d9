"""Students behind the files: ``--roster`` (file-name pattern) and ``--roster-file``.

``--roster`` is a regular expression matched against each file name, with a
named group ``student`` (or ``id``, which then names the student). Two more
groups are read when the pattern has them:

- ``order``: a number that orders one student's files (Canvas puts the
  submission's attachment id in the name; a resubmission gets a larger
  one). A student's file with the largest ``order`` is graded; without this
  group, the latest by modification time on this disk (then by name).
- ``late``: the LMS's own late marker (Canvas's ``LATE_``): the file is late
  when the group matched, on time when it did not, whatever its time on
  this disk (see ``_late.py``).

For Canvas's "Download submissions" (``studentname_LATE_userid_id_file``)::

    (?P<student>[^_]+)_(?P<late>LATE_)?(?P<id>\\d+)_(?P<order>\\d+)_.*

For Moodle's "Download all submissions", with or without its folders
(``Full Name_12345_assignsubmission_file_file``; ``_download.py`` names a
file in a student folder so), the default when the download has Moodle's
folders::

    (?P<student>[^_]+)_(?P<id>\\d+)_assignsubmission_file_.*

The older files of a student are listed as skipped. ``--roster-file`` is the
enrolment list (:func:`read_enrolment`): every student on it with no file
gets a row with status ``missing`` and 0 points.

Examples
--------
>>> pattern = check_roster(r"(?P<student>[a-z]+)_v(?P<order>\\d+)\\.ipynb")
>>> student_of("alice_v2.ipynb", pattern)
'alice'
>>> latest_per_student(".", [("alice_v10.ipynb", b""), ("alice_v9.ipynb", b"")],
...                    pattern)[0]
[('alice_v10.ipynb', b'')]
"""

from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path

__all__ = ["check_roster", "student_of", "latest_per_student", "read_enrolment",
           "missing_students", "MISSING"]

MISSING = "missing"


def check_roster(pattern: str):
    """Compile a roster pattern; it needs a named group ``student`` (or ``id``)."""
    try:
        compiled = re.compile(pattern)
    except re.error as error:
        raise ValueError(f"--roster {pattern!r} is not a regular expression: "
                         f"{error}.") from None
    if not {"student", "id"} & set(compiled.groupindex):
        raise ValueError(f"--roster {pattern!r} needs a named group (?P<student>...) "
                         "or (?P<id>...) that matches the student's name or id in a "
                         "file name.")
    return compiled


def student_of(name: str, pattern) -> str | None:
    """The student a file name belongs to, or None if the pattern does not match it."""
    match = pattern.fullmatch(name)
    if match is None:
        return None
    groups = match.groupdict()
    return groups.get("id") or groups.get("student")


def late_marker(name: str, pattern):
    """True/False from the pattern's ``late`` group; None without one (or no match)."""
    if "late" not in pattern.groupindex:
        return None
    match = pattern.fullmatch(name)
    return None if match is None else bool(match.group("late"))


def _mtime(folder, name: str) -> float:
    try:
        return os.lstat(Path(folder) / name).st_mtime
    except OSError:
        return 0.0


def latest_per_student(folder, files, pattern, mtimes=None):
    """Keep each student's latest file.

    Returns ``(files, {file: student}, skipped, notes)``.

    The latest is the one with the largest ``order`` group when the pattern
    has one (a file where it did not match counts as the oldest), otherwise
    the one modified last: its time in ``mtimes`` (``{file: POSIX time}``,
    the download's own: a zip entry's) or else on this disk; ties go to the
    name.
    """
    mtimes = mtimes or {}
    ordered = "order" in pattern.groupindex
    owners, by_student, skipped, notes = {}, {}, [], []
    for name, data in files:
        match = pattern.fullmatch(name)
        student = student_of(name, pattern)
        owners[name] = student or ""
        if student is None:
            notes.append(f"{name!r} does not match --roster: graded with no student")
            by_student[("", name)] = [((0,), name, data)]
            continue
        if ordered:
            order = match.group("order")
            key = (int(order) if order else -1,
                   mtimes.get(name) or _mtime(folder, name))
        else:
            key = (mtimes.get(name) or _mtime(folder, name),)
        by_student.setdefault(student, []).append((key, name, data))
    why = "larger submission number" if ordered else "later"
    kept = []
    for entries in by_student.values():
        entries.sort(key=lambda e: (e[0], e[1]))
        kept.append((entries[-1][1], entries[-1][2]))
        for _, old, _ in entries[:-1]:
            skipped.append((old, f"superseded by {entries[-1][1]} (same student, "
                                 f"{why})"))
    kept.sort()
    return kept, owners, skipped, notes


def _read_table(path, option: str):
    try:
        text = Path(path).read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"{option} {str(path)!r} is not UTF-8 text; save it as "
                         "'CSV UTF-8'.") from None
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows:
        raise ValueError(f"{option} {str(path)!r} is empty.")
    return [h.strip() for h in rows[0]], rows[1:]


def participant(identifier: str) -> str:
    """Moodle's worksheet ``Identifier`` ("Participant 12345") as its file names' id."""
    return re.sub(r"^\s*Participant\s+", "", identifier or "").strip()


def read_enrolment(path) -> dict:
    """``{student id: name}`` of an enrolment list, in its order.

    Accepted, by their columns: a plain CSV with ``id`` (or ``student``) and
    an optional ``name``; Canvas's gradebook export (``Student``, ``ID``: the
    user id of its file names; the ``Points Possible`` row and the
    ``Test Student`` are left out); Moodle's grading worksheet
    (``Identifier``, "Participant 12345": the id of its file names, and
    ``Full name``).
    """
    header, rows = _read_table(path, "--roster-file")
    lower = [h.lower() for h in header]
    if "Identifier" in header and "Full name" in header:
        key, name = header.index("Identifier"), header.index("Full name")
        kind = "moodle"
    elif "Student" in header and "ID" in header:
        key, name, kind = header.index("ID"), header.index("Student"), "canvas"
    elif "id" in lower or "student" in lower:
        key = lower.index("id") if "id" in lower else lower.index("student")
        name, kind = (lower.index("name") if "name" in lower else None), "plain"
    else:
        raise ValueError(f"--roster-file {str(path)!r} has columns {header[:8]}; "
                         "expected 'id' (or 'student') and 'name', a Canvas gradebook "
                         "export (Student, ID, ...) or a Moodle grading worksheet "
                         "(Identifier, Full name, ...).")
    students = {}
    for line, row in enumerate(rows, start=2):
        row = row + [""] * (len(header) - len(row))
        label = row[name].strip() if name is not None else ""
        if kind == "canvas" and (label.startswith("Points Possible")
                                 or label == "Test Student"):
            continue
        ident = participant(row[key]) if kind == "moodle" else row[key].strip()
        if not ident:
            if any(cell.strip() for cell in row):
                raise ValueError(f"--roster-file {str(path)!r}, line {line}: no "
                                 f"student id in column {header[key]!r}.")
            continue
        if ident in students:
            raise ValueError(f"--roster-file {str(path)!r}, line {line}: student id "
                             f"{ident!r} is listed twice.")
        students[ident] = label
    return students


def missing_students(enrolled: dict, rows) -> list:
    """``(id, name)`` of the enrolled students with no row but a ``missing`` one."""
    present = {(r.get("student") or "").strip() for r in rows
               if r.get("status") != MISSING}
    return [(ident, name) for ident, name in enrolled.items() if ident not in present]
