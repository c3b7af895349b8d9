"""Students behind the files: ``--roster`` (file-name pattern) and ``--deadline`` (``late``).

``--roster`` is a regular expression with a named group ``student`` matched
against each file name (for Canvas's "Download submissions",
``(?P<student>[^_]+)_(?:LATE_)?(?P<id>\\d+)_\\d+_.*``; a group ``id``, if
present, names the student instead). Only each student's latest file (by
modification time, then name) is graded; the older ones are listed as
skipped. grades.csv gets a ``student`` column. ``--deadline`` (ISO 8601, e.g.
``2026-12-01T23:59``, local time unless it gives an offset) adds a ``late``
column: ``yes`` when the file was modified after it, or when its name holds
Canvas's ``LATE`` marker.

Examples
--------
>>> pattern = check_roster(r"(?P<student>[a-z]+)_v\\d+\\.ipynb")
>>> student_of("alice_v2.ipynb", pattern)
'alice'
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path

__all__ = ["check_roster", "student_of", "latest_per_student", "check_deadline", "is_late"]


def check_roster(pattern: str):
    """Compile a roster pattern; it needs a named group ``student`` (or ``id``)."""
    try:
        compiled = re.compile(pattern)
    except re.error as error:
        raise ValueError(f"--roster {pattern!r} is not a regular expression: {error}.") from None
    if not {"student", "id"} & set(compiled.groupindex):
        raise ValueError(f"--roster {pattern!r} needs a named group (?P<student>...) or "
                         "(?P<id>...) that matches the student's name or id in a file name.")
    return compiled


def student_of(name: str, pattern) -> str | None:
    """The student a file name belongs to, or None if the pattern does not match it."""
    match = pattern.fullmatch(name)
    if match is None:
        return None
    groups = match.groupdict()
    return groups.get("id") or groups.get("student")


def latest_per_student(folder, files, pattern):
    """Keep each student's latest file; return ``(files, {file: student}, skipped, notes)``."""
    owners, by_student, skipped, notes = {}, {}, [], []
    for name, data in files:
        student = student_of(name, pattern)
        owners[name] = student or ""
        if student is None:
            notes.append(f"{name!r} does not match --roster: graded with no student")
            by_student[("", name)] = [(0, name, data)]
            continue
        try:
            mtime = os.lstat(Path(folder) / name).st_mtime
        except OSError:
            mtime = 0
        by_student.setdefault(student, []).append((mtime, name, data))
    kept = []
    for student, entries in by_student.items():
        entries.sort(key=lambda e: (e[0], e[1]))
        kept.append((entries[-1][1], entries[-1][2]))
        for _, old, _ in entries[:-1]:
            skipped.append((old, f"superseded by {entries[-1][1]} (same student, later)"))
    kept.sort()
    return kept, owners, skipped, notes


def check_deadline(text: str) -> datetime:
    try:
        deadline = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"--deadline {text!r} is not an ISO 8601 date and time such as "
                         "2026-12-01T23:59.") from None
    return deadline if deadline.tzinfo else deadline.astimezone()


def is_late(folder, name: str, deadline: datetime) -> bool:
    """After the deadline by modification time, or marked LATE in its name (Canvas)."""
    if re.search(r"(^|_)LATE(_|$)", name):
        return True
    try:
        mtime = os.lstat(Path(folder) / name).st_mtime
    except OSError:
        return False
    return mtime > deadline.timestamp()
