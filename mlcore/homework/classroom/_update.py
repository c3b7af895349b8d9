"""Regrade part of a class without losing the rest: ``grade --update``, backups, hashes.

``grade`` records the SHA-256 of every submission it graded in
``<out>.sha256.json``. ``grade --update`` then grades only the files that
are new or changed since (or those named with ``--only``), and writes
grades.csv with every other row kept as it was and every merged manual
score kept, the total recomputed from the new autograded scores. Without
``--update``, a grades.csv that holds manual scores is not overwritten unless
``--force`` is given. Every write first copies the old grades.csv to
``grades.csv.bak``.

Every row's full record (scores, failed checks, answer hashes) is kept in
``<out>.rows.json``, so that a partial regrade rebuilds the class summary
and the "same as" flags from the whole class, not from the files it ran.
The journal of an interrupted run (``<out>.progress.jsonl``) records with each
row a key of everything that decides a grade (:func:`grading_key`); a row is
resumed only under the same key.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from ..grading import _number, _read_csv, _write_nofollow, csv_text, write_grades

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


def write_updated(out, spec, graded, files, flags=None) -> None:
    """Write grades.csv: the new rows replace theirs, the others and manual scores stay.

    ``flags`` (``{file: [flags]}``, optional) replaces the flags of those rows,
    kept ones included (the "same as" flags of the whole class).
    """
    out = Path(out)
    manual = [q["name"] for q in spec["questions"] if q["manual"]]
    header, old = (_read_csv(out, "out") if out.is_file() else ([], []))
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
    for file, found in (flags or {}).items():
        if file in rows and "flags" in columns:
            rows[file]["flags"] = "; ".join(found)
    backup(out)
    _write_nofollow(out, csv_text(columns, [rows[name] for name in sorted(rows)]))
    record = read_hashes(out)
    record.update({name: digest(data) for name, data in files})
    _write_nofollow(hashes_path(out), json.dumps(record, indent=1, sort_keys=True) + "\n")


def journal_path(out) -> Path:
    out = Path(out)
    return out.with_name(out.name + ".progress.jsonl")


def grading_key(spec, limits) -> str:
    """A hash of everything that decides a grade besides the file itself.

    The specification (its tests, the ``--extra-tests`` added to it, the
    rules and points), the limits, and the code that grades and that the
    chapters call: mlcore's version and the text of every module of mlcore.
    """
    from importlib import metadata
    try:
        version = metadata.version("mlcore")
    except metadata.PackageNotFoundError:
        version = "unknown"
    package = Path(__file__).resolve().parents[2]
    code = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        code.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    material = {"spec": spec, "mlcore": version, "code": code.hexdigest(),
                "limits": [float(limits.timeout), float(limits.memory_mb),
                           float(limits.file_mb), limits.sandbox, float(limits.wall_factor),
                           float(limits.stall_seconds)]}
    return digest(json.dumps(material, sort_keys=True, default=str).encode())


def read_journal(out, spec, files, key=None) -> tuple:
    """Submissions already graded by an interrupted run under the same key, unchanged since.

    Returns ``(found, stale)``: ``{file: Submission}`` to resume, and how many
    entries were dropped because the tests, limits or grader changed since.
    """
    from ..grading import Submission
    found, stale, want = {}, 0, {name: digest(data) for name, data in files}
    try:
        lines = journal_path(out).read_text(encoding="utf-8").splitlines()
    except OSError:
        return found, stale
    for line in lines:
        try:
            entry = json.loads(line)
            if entry["chapter"] != spec["chapter"] or want.get(entry["file"]) != entry["sha256"]:
                continue
            if entry.get("key") != key:
                stale += 1
                continue
            found[entry["file"]] = Submission(**entry["submission"])
        except (ValueError, KeyError, TypeError):
            continue
    return found, stale


def append_journal(out, spec, graded, data: bytes, key=None) -> None:
    """Record one finished submission, so that an interrupted run resumes after it."""
    import dataclasses
    import os
    line = json.dumps({"chapter": spec["chapter"], "file": graded.file, "sha256": digest(data),
                       "key": key, "submission": dataclasses.asdict(graded)}) + "\n"
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(journal_path(out), flags, 0o600)
    try:
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)


def rows_path(out) -> Path:
    out = Path(out)
    return out.with_name(out.name + ".rows.json")


def write_rows(out, graded) -> None:
    """Keep every row's full record (failed checks, answer hashes) beside grades.csv."""
    import dataclasses
    _write_nofollow(rows_path(out), json.dumps(
        {g.file: dataclasses.asdict(g) for g in graded}, indent=0, sort_keys=True) + "\n")


def read_rows(out, spec) -> dict:
    """``{file: Submission}`` of every row of ``out``, from its record or, without one, the CSV.

    Rows of the CSV with no record (written by an older grader) get their
    scores, status and flags from the CSV, with no list of failed checks.
    """
    from ..grading import Submission
    out = Path(out)
    if not out.is_file():
        return {}
    _, rows = _read_csv(out, "out")
    try:
        records = json.loads(rows_path(out).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        records = {}
    found = {}
    for row in rows:
        file = row.get("file") or ""
        try:
            found[file] = Submission(**records[file])
            continue
        except (KeyError, TypeError):
            pass
        scores = {}
        for q in spec["questions"]:
            text = (row.get(q["name"]) or "").strip()
            scores[q["name"]] = None if q["manual"] else float(text or 0)
        flags = [f for f in (row.get("flags") or "").split("; ") if f]
        found[file] = Submission(file, scores, row.get("status") or "ok", flags=flags)
    return found
