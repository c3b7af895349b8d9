"""The class around the grades: roster, lateness, missing students, feedback.

``grade`` calls :class:`ClassOptions` to pick each student's file and mark
it late (``_roster.py``, ``_late.py``), and after grades.csv is written,
:meth:`ClassOptions.finish` adds a row with status ``missing`` (0 points)
for every enrolled student with no file and the late-policy columns:
``late_penalty_pct`` (percent of the score deducted), ``late_penalty``
(points) and ``final`` (``total`` minus the penalty; ``total`` stays the
raw score). ``merge`` calls :func:`refresh_penalties` (the total changed)
and :func:`refresh_feedback`, which writes each manual score and the
optional ``<question>_comment`` into the student's feedback file.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ._late import (check_deadline, lateness, parse_policy, read_extensions,
                    read_submission_times)
from ._roster import (MISSING, _mtime, check_roster, late_marker, latest_per_student,
                      missing_students, read_enrolment, student_of)

__all__ = ["ClassOptions", "refresh_penalties", "refresh_feedback", "read_comments",
           "merge_followups", "note_missing", "PENALTY_COLUMNS"]

PENALTY_COLUMNS = ["late_penalty_pct", "late_penalty", "final"]


def _warn(text: str) -> None:
    print(f"warning: {text}", file=sys.stderr)


def _number(value) -> str:
    from ..grading import _number as number
    return number(value)


def _read(path: Path):
    from ..grading import _read_csv
    return _read_csv(path, "grades_csv")


def _write(path: Path, header, rows) -> None:
    # _read removed the quotes against formulas; csv_text puts them back
    from ..grading import _write_nofollow, csv_text
    _write_nofollow(Path(path), csv_text(header, rows))


class ClassOptions:
    """``grade``'s class options, all read and checked before any notebook runs."""

    def __init__(self, args, folder, out, download=None):
        get = lambda name: getattr(args, name, None)      # noqa: E731
        self.folder, self.out = Path(folder), Path(out)
        # the files' times as the download gave them (a zip's, a Moodle folder's)
        self.mtimes = download.mtimes if download is not None else {}
        roster = get("roster")
        if not roster and download is not None and download.moodle:
            from ._download import MOODLE_ROSTER
            roster = MOODLE_ROSTER
            print("Moodle's download: each file's student is its folder's participant "
                  f"number (--roster {MOODLE_ROSTER!r})", flush=True)
        self.pattern = check_roster(roster) if roster else None
        self.deadline = check_deadline(args.deadline) if get("deadline") else None
        needs = [f"--{n.replace('_', '-')}" for n in ("late_policy", "extensions",
                                                       "submission_times") if get(n)]
        if needs and self.deadline is None:
            raise ValueError(f"{', '.join(needs)} need(s) --deadline (the class's "
                             "deadline, ISO 8601).")
        needs += ["--roster-file"] if get("roster_file") else []
        needs = [n for n in needs if n != "--late-policy"]
        if needs and self.pattern is None:
            raise ValueError(f"{', '.join(needs)} need(s) --roster: its (?P<id>...) "
                             "group gives each file's student id.")
        tz = self.deadline.tzinfo if self.deadline else None
        self.policy = parse_policy(args.late_policy) if get("late_policy") else None
        self.extensions = (read_extensions(args.extensions, tz) if get("extensions")
                           else {})
        self.times = (read_submission_times(args.submission_times, tz)
                      if get("submission_times") else {})
        self.enrolled = read_enrolment(args.roster_file) if get("roster_file") else None
        if get("update") and self.policy is None and self.out.is_file():
            header, _ = _read(self.out)
            if "late_penalty_pct" in header:
                raise ValueError(f"{self.out} has late penalties: give the same "
                                 "--late-policy (and --extensions) again with "
                                 "--update, so the regraded rows get theirs.")
        self.manual, self.executed = get("manual_scores"), get("keep_executed")
        if self.executed:
            from ..grading import check_output_paths
            check_output_paths(self.executed)
        self.owners, self.late = {}, {}

    def select(self, files):
        """Each student's latest file (with ``--roster``); warnings on stderr."""
        if self.pattern is None:
            return files
        files, self.owners, superseded, notes = latest_per_student(
            self.folder, files, self.pattern, self.mtimes)
        for name, reason in superseded:
            print(f"skipped {name!r}: {reason}", file=sys.stderr)
        for note in notes:
            _warn(note)
        owners = {s for s in self.owners.values() if s}
        if self.enrolled is not None:
            strangers = sorted(owners - set(self.enrolled))
            if strangers:
                _warn(f"students not in --roster-file: {', '.join(strangers)}")
        known = owners | set(self.enrolled or ())
        unused = sorted(set(self.extensions) - known)
        if unused:           # a typo in an id would silently cost a student a penalty
            _warn(f"--extensions names students with no file: {', '.join(unused)}")
        return files

    def _lateness(self, name: str):
        from datetime import datetime
        student = self.owners.get(name) or (student_of(name, self.pattern)
                                            if self.pattern else None)
        if student in self.times:
            when, basis = self.times[student], "the LMS's time"
        else:
            when = datetime.fromtimestamp(self.mtimes.get(name) or
                                          _mtime(self.folder, name)).astimezone()
            basis = "modification time"
        due = self.extensions.get(student, self.deadline)
        marker = None
        if student not in self.extensions:
            marker = late_marker(name, self.pattern) if self.pattern else None
            if marker is None and "LATE" in name.replace(".", "_").split("_"):
                marker = True         # Canvas's marker, with a pattern that ignores it
        late, percent, note = lateness(when, due, marker, self.policy)
        if note:
            _warn(f"{name!r}: {note} ({basis} {when.isoformat(timespec='minutes')})")
        return late, percent, basis

    def annotate(self, graded) -> None:
        """Set each Submission's ``student`` and ``late``, before grades.csv."""
        based_on_disk = []
        for g in graded:
            if self.pattern is not None:
                g.student = self.owners.get(g.file, "")
            if self.deadline is not None:
                late, percent, basis = self.late[g.file] = self._lateness(g.file)
                g.late = "yes" if late else "no"
                if percent and basis == "modification time":
                    based_on_disk.append(g.file)
        if based_on_disk:
            _warn(f"{len(based_on_disk)} late penalties count from the files' "
                  "modification times on this disk (no --submission-times for them): "
                  "right only if every copy kept the times (unzip does, cp without -p "
                  "does not): " + ", ".join(based_on_disk[:5])
                  + (" ..." if len(based_on_disk) > 5 else ""))

    def private_executed(self, hide: list):
        """With ``--keep-executed``: a private, hidden folder for the runs' output."""
        if not self.executed:
            return None
        from ..sandbox import make_dir
        # the class's notebooks: removed by main's remove_all if the run stops
        folder = make_dir("mlcore-executed-")
        hide += [folder, Path(self.executed)]    # no run sees another's notebook
        return folder

    def finish(self, spec, feedback, kept=None) -> list:
        """Add the missing students' rows and the penalties to grades.csv.

        Returns the missing students, ``[(id, name)]``.

        Also moves the executed notebooks from ``kept`` to ``--keep-executed``.
        """
        if kept is not None:
            count = publish_executed(kept, self.executed)
            print(f"Kept {count} executed notebook(s) in {self.executed}/")
        header, rows = _read(self.out)
        handed_in = {r.get("student") for r in rows if r.get("status") != MISSING}
        # a student listed as missing by an earlier run who has handed in since
        stale = [r for r in rows if r.get("status") == MISSING
                 and (self.enrolled is not None or r.get("student") in handed_in)]
        rows = [r for r in rows if not any(r is s for s in stale)]
        missing = []
        if self.enrolled is not None:
            missing = missing_students(self.enrolled, rows)
            rows += [_missing_row(header, spec, ident, name) for ident, name in missing]
            header = _with_column(header, "student", after="file")
        if self.policy is not None:
            for row in rows:
                if row["file"] in self.late:
                    row["late_penalty_pct"] = _number(self.late[row["file"]][1])
            header = _with_penalties(header)
        if self.enrolled is not None or self.policy is not None or stale:
            _penalise(rows)
            rows.sort(key=lambda r: (r.get("status") == MISSING, r["file"]))
            _write(self.out, header, rows)
        if self.manual:
            comments = read_comments(self.manual, spec)
            _absent(refresh_feedback(feedback, spec, rows, comments), feedback)
        elif self.policy is not None:
            refresh_feedback(feedback, spec, rows, {}, only_late=True)
        return missing


def _with_column(header, name, after):
    return header if name in header else (
        header[:header.index(after) + 1] + [name] + header[header.index(after) + 1:])


def _with_penalties(header):
    if "late_penalty_pct" in header:
        return header
    at = header.index("late") + 1 if "late" in header else header.index("status") + 1
    return header[:at] + PENALTY_COLUMNS + header[at:]


def _missing_row(header, spec, ident, name) -> dict:
    row = {column: "" for column in header}
    row.update({q["name"]: "0" for q in spec["questions"] if not q["manual"]})
    label = f"(missing) {ident}" + (f" {name}" if name else "")
    row.update({"file": label, "student": ident, "total": "0", "status": MISSING,
                "late_penalty_pct": "0", "cpu_seconds": "0", "peak_mb": "0"})
    return row


def _penalise(rows) -> None:
    for row in rows:
        if "late_penalty_pct" not in row and "final" not in row:
            continue
        total = float(row.get("total") or 0)
        percent = float(row.get("late_penalty_pct") or 0)
        row["late_penalty"] = _number(total * percent / 100)
        row["final"] = _number(total - float(row["late_penalty"]))


def refresh_penalties(grades) -> bool:
    """Recompute ``late_penalty`` and ``final`` from ``total`` (after a merge)."""
    header, rows = _read(Path(grades))
    if "late_penalty_pct" not in header:
        return False
    _penalise(rows)
    _write(Path(grades), header, rows)
    return True


def read_comments(manual_csv, spec) -> dict:
    """``{file: {question: comment}}`` of every file of the manual CSV."""
    from ..grading import _read_csv
    manual = {q["name"] for q in spec["questions"] if q["manual"]}
    columns, given = _read_csv(Path(manual_csv), "manual_csv")
    found = {}
    for entry in given:
        found.setdefault((entry.get("file") or "").strip(), {})
        for column in columns:
            question = column.removesuffix("_comment")
            text = (entry.get(column) or "").strip()
            if column.endswith("_comment") and question in manual and text:
                found.setdefault((entry.get("file") or "").strip(), {})[question] = text
    return found


def _stem(file: str) -> str:
    import os
    return Path(file).stem.replace(os.sep, "_") or "submission"


def refresh_feedback(folder, spec, rows, comments, only_late=False) -> list:
    """Write manual scores, comments and the late penalty into the feedback files.

    The line "- q: graded by your teacher (out of N)" becomes "- q: S / N
    (graded by your teacher)" and the comment follows it; after the autograded
    score come the total with the manual scores and the penalty. Running it
    again replaces what it wrote. Only the files in ``comments`` (the
    manual CSV's) are touched, or with ``only_late`` those with a penalty.
    Returns the files with no feedback file.
    """
    from ..grading import md_text
    folder = Path(folder)
    manual = [q for q in spec["questions"] if q["manual"]]
    possible = sum(q["points"] for q in spec["questions"])
    absent = []
    for row in rows:
        percent = float(row.get("late_penalty_pct") or 0)
        scored = [q for q in manual if (row.get(q["name"]) or "").strip()]
        if row.get("status") == MISSING or (only_late and not percent) or (
                not only_late and row["file"] not in comments):
            continue
        path = folder / f"{_stem(row['file'])}.md"
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError:
            absent.append(row["file"])
            continue
        if not lines or not lines[0].startswith("# Feedback on "
                                                f"{md_text(row['file'], 120)}"):
            absent.append(row["file"])         # another file's feedback: leave it alone
            continue
        lines = _manual_lines(lines, manual, row, comments.get(row["file"], {}))
        ours = ("Total with your teacher", "Late penalty:")
        lines = [line for line in lines if not line.startswith(ours)]
        at = next((i + 1 for i, line in enumerate(lines)
                   if line.startswith("Autograded score:")), len(lines))
        extra = []
        if scored:
            extra.append(f"Total with your teacher's scores: {row['total']} / "
                         f"{_number(possible)}")
        if percent:
            extra.append(f"Late penalty: {row['late_penalty_pct']}% of your score "
                         f"({row['late_penalty']} points); final score {row['final']} "
                         f"/ {_number(possible)}")
        lines[at:at] = extra
        from ..grading import _write_nofollow
        _write_nofollow(path, "\n".join(lines) + "\n")
    return absent


def _manual_lines(lines, manual, row, comments):
    for q in manual:
        at = next((i for i, line in enumerate(lines)
                   if line.startswith(f"- {q['name']}: ")), None)
        if at is None:
            continue
        end = at + 1
        while end < len(lines) and lines[end].startswith("  - your teacher's comment"):
            end += 1
            while end < len(lines) and lines[end].startswith("    "):
                end += 1
        score = (row.get(q["name"]) or "").strip()
        new = [f"- {q['name']}: {score} / {_number(q['points'])} (graded by your "
               "teacher)"
               if score else f"- {q['name']}: graded by your teacher (out of "
                             f"{_number(q['points'])})"]
        text = comments.get(q["name"], "").splitlines()
        if text:
            new.append(f"  - your teacher's comment: {text[0]}")
            new += [f"    {line}" for line in text[1:]]
        lines[at:end] = new
    return lines


def _absent(files, folder) -> None:
    if files:
        _warn(f"no feedback file in {folder} for {len(files)} row(s), so their manual "
              "scores are not in any feedback: " + ", ".join(files[:10]))


def merge_followups(args, spec) -> None:
    """After ``merge``: penalties, the feedback files and, if asked, the LMS export."""
    from ..grading import check_output_paths
    grades = Path(args.out or args.grades)
    refresh_penalties(grades)
    source = Path(args.grades)
    feedback = (Path(args.feedback) if args.feedback
                else source.parent / f"{source.stem}_feedback")
    check_output_paths(feedback)
    if feedback.is_dir():
        _, rows = _read(grades)
        comments = read_comments(args.manual, spec)
        _absent(refresh_feedback(feedback, spec, rows, comments), feedback)
        print(f"Wrote the manual scores and comments into {feedback}/")
    else:
        _warn(f"no feedback folder {feedback}: the students' feedback files were not "
              "updated (give --feedback DIR, the folder grade wrote).")
    if args.gradebook:
        from ._gradebook import fill_from_grades
        for line in fill_from_grades(grades, args.gradebook, args.gradebook_column):
            print(line, file=sys.stderr if line.startswith("warning:") else sys.stdout)


def note_missing(summary, missing) -> list:
    """Add the enrolled students with no submission to the class summary."""
    if not missing:
        return []
    line = (f"Missing: {len(missing)} enrolled student(s) handed in nothing (status "
            f"missing, 0 points; not in the table above): "
            + ", ".join(f"{n or i} ({i})" if n else i for i, n in missing) + ".")
    path = Path(summary)
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next((k + 1 for k, text in enumerate(lines) if text.startswith("Status: ")),
              len(lines))
    lines[at:at] = ["", line]
    from ..grading import _write_nofollow
    _write_nofollow(path, "\n".join(lines) + "\n")
    return [line]


def keep_executed(source: Path, folder: Path, name: str, cells) -> bool:
    """Copy a run's executed notebook into the grader's private ``folder``.

    The submission's code could reach ``source``, so it is read without
    following a link and at most ``MAX_FILE_BYTES``, must be a notebook, and each
    cell's outputs are capped again; each cell records its number in the
    submission (``metadata.homework.cell``). Returns whether it was kept.
    """
    import json

    from ..grading import MAX_FILE_BYTES
    from ..grading import _read_nofollow, _write_nofollow
    from ..sandbox import capped
    data, _ = _read_nofollow(Path(source))
    if data is None or len(data) > MAX_FILE_BYTES:
        return False
    try:
        nb = json.loads(data.decode("utf-8"))
        for cell, number in zip(nb["cells"], cells):
            cell["outputs"] = capped(list(cell.get("outputs") or []))
            cell.setdefault("metadata", {})["homework"] = {"cell": number + 1}
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return False
    _write_nofollow(Path(folder) / name, json.dumps(nb, indent=1) + "\n")
    return True


def executed_keeper(folder):
    """``keep(executed, name, cells)`` for :func:`grade_submissions`: keeps into ``folder``.

    None without ``--keep-executed`` (``folder`` None).
    """
    if folder is None:
        return None
    return lambda executed, name, cells: keep_executed(executed, Path(folder), name, cells)


def publish_executed(private, target) -> int:
    """Move the kept notebooks into ``--keep-executed DIR`` once every run has ended."""
    from ..grading import _write_nofollow, check_output_paths
    from ..sandbox import remove_dir
    target = Path(target)
    check_output_paths(target)
    count = 0
    for path in sorted(Path(private).iterdir()):
        _write_nofollow(target / path.name, path.read_text(encoding="utf-8"))
        count += 1
    remove_dir(private)
    return count
