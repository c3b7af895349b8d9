"""Regrade part of a class without losing the rest: ``grade --update``, backups, hashes.

``grade`` records the SHA-256 of every submission it graded in
``<out>.sha256.json``. ``grade --update`` then grades only the files that
are new or changed since (or those named with ``--only``), and writes
grades.csv with every other row kept as it was and every merged manual
score kept, the total recomputed from the new autograded scores. Without
``--update``, a grades.csv that holds manual scores is not overwritten unless
``--force`` is given. Every write first copies the old grades.csv to
``grades.csv.bak``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
from pathlib import Path

from ._report import _number, _read_csv, _write_nofollow, write_grades

__all__ = ["hashes_path", "read_hashes", "select_changed", "check_overwrite", "write_updated"]


def hashes_path(out) -> Path:
    out = Path(out)
    return out.with_name(out.name + ".sha256.json")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_hashes(out) -> dict:
    """``{file: sha256}`` recorded by the last grading into ``out`` (empty if none)."""
    try:
        data = json.loads(hashes_path(out).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def select_changed(files, out, only=()) -> list:
    """The ``(name, bytes)`` pairs to regrade: those named in ``only``, else new or changed."""
    if only:
        names = {Path(n).name for n in only}
        missing = names - {name for name, _ in files}
        if missing:
            raise FileNotFoundError(f"--only names files that are not in the submissions "
                                    f"folder: {sorted(missing)}.")
        return [(name, data) for name, data in files if name in names]
    known = read_hashes(out)
    return [(name, data) for name, data in files if known.get(name) != digest(data)]


def _manual_scores(rows, spec) -> bool:
    manual = [q["name"] for q in spec["questions"] if q["manual"]]
    return any((row.get(n) or "").strip() for row in rows for n in manual)


def check_overwrite(out, spec, *, update: bool, force: bool) -> None:
    """Refuse to replace a grades.csv holding manual scores unless updating or forced."""
    out = Path(out)
    if update or force or not out.is_file():
        return
    _, rows = _read_csv(out, "out")
    if _manual_scores(rows, spec):
        raise RuntimeError(f"{out} holds merged manual scores: grading into it again would "
                           "lose them. Use --update to regrade (changed files, or those named "
                           "with --only) and keep every other row and the manual scores, or "
                           "--force to overwrite it (a copy is kept as .bak).")


def backup(out) -> None:
    out = Path(out)
    if out.is_file() and not out.is_symlink():
        shutil.copyfile(out, out.with_name(out.name + ".bak"))


def write_updated(out, spec, graded, files) -> None:
    """Write grades.csv: the new rows replace theirs, the others and manual scores stay."""
    out = Path(out)
    manual = [q["name"] for q in spec["questions"] if q["manual"]]
    header, old = (_read_csv(out, "out") if out.is_file() else ([], []))
    buffer = io.StringIO()
    names = [q["name"] for q in spec["questions"]]
    fresh = Path(out.parent / f".{out.name}.fresh")
    try:
        write_grades(fresh, spec, graded)
        _, new = _read_csv(fresh, "new")
    finally:
        fresh.unlink(missing_ok=True)
    columns = ["file", *names, "total", "status"]
    columns += [c for c in header if c not in columns]
    for c in new[0].keys() if new else []:
        if c not in columns:
            columns.insert(columns.index("status") + 1, c)
    rows = {row["file"]: row for row in old}
    for row in new:
        kept = rows.get(row["file"], {})
        for n in manual:
            row[n] = kept.get(n, "")
        row["total"] = _number(float(row["total"] or 0)
                               + sum(float(row[n]) for n in manual if row[n]))
        rows[row["file"]] = {**kept, **row}
    writer = csv.DictWriter(buffer, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows[name] for name in sorted(rows))
    backup(out)
    _write_nofollow(out, buffer.getvalue())
    record = read_hashes(out)
    record.update({name: digest(data) for name, data in files})
    _write_nofollow(hashes_path(out), json.dumps(record, indent=1, sort_keys=True) + "\n")


def journal_path(out) -> Path:
    out = Path(out)
    return out.with_name(out.name + ".progress.jsonl")


def read_journal(out, spec, files) -> dict:
    """Submissions already graded by an interrupted run of the same chapter, unchanged since."""
    from ._grade import Submission
    found, want = {}, {name: digest(data) for name, data in files}
    try:
        lines = journal_path(out).read_text(encoding="utf-8").splitlines()
    except OSError:
        return found
    for line in lines:
        try:
            entry = json.loads(line)
            if entry["chapter"] == spec["chapter"] and want.get(entry["file"]) == entry["sha256"]:
                found[entry["file"]] = Submission(**entry["submission"])
        except (ValueError, KeyError, TypeError):
            continue
    return found


def append_journal(out, spec, graded, data: bytes) -> None:
    """Record one finished submission, so that an interrupted run resumes after it."""
    import dataclasses
    import os
    line = json.dumps({"chapter": spec["chapter"], "file": graded.file, "sha256": digest(data),
                       "submission": dataclasses.asdict(graded)}) + "\n"
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(journal_path(out), flags, 0o600)
    try:
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)
