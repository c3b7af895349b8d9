"""When was it handed in, and what does lateness cost: ``--deadline`` and its options.

A submission's time is taken from the LMS's own record when
``--submission-times`` gives one (Moodle's grading worksheet, column
"Last modified (submission)"; or a CSV of ``id`` and ``submitted``, ISO
8601), otherwise from the file's modification time on this disk, which is
the time of the last copy unless every copy kept it (``unzip`` does, ``cp``
without ``-p`` does not). ``late`` is then:

- with ``--extensions`` (``id`` and ``deadline``), for a student listed
  there: handed in after their own deadline;
- else, when the ``--roster`` pattern has a group ``late`` (Canvas's
  ``LATE_``): whether it matched, since the LMS knew the real time;
- else: after ``--deadline``, or ``LATE`` in the file name.

``--late-policy`` (e.g. ``"10%/day cap=50% grace=15min"``) deducts, for
each started day (or hour: ``2%/hour``) after the student's deadline, that
percentage of the student's score, at most ``cap``; a submission less than
``grace`` late costs nothing. Its time decides how many periods; a file the
LMS marked late whose time is not after the deadline is charged one period
(and named in a warning).

Examples
--------
>>> policy = parse_policy("10%/day cap=25% grace=1h")
>>> [policy.percent(hours * 3600) for hours in (0.5, 2, 30, 200)]
[0.0, 10.0, 20.0, 25.0]
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime

from ._roster import _read_table, participant

__all__ = ["check_deadline", "parse_policy", "LatePolicy", "read_extensions",
           "read_submission_times", "lateness"]

UNITS = {"s": 1, "sec": 1, "min": 60, "m": 60, "h": 3600, "hour": 3600, "hours": 3600,
         "d": 86400, "day": 86400, "days": 86400}
# Moodle writes dates with the user's language pack; English ones in both orders.
MOODLE_FORMATS = ("%A, %d %B %Y, %I:%M %p", "%A, %d %B %Y, %H:%M",
                  "%A, %B %d, %Y, %I:%M %p", "%A, %B %d, %Y, %H:%M")


def check_deadline(text: str, option: str = "--deadline", tz=None) -> datetime:
    """An ISO 8601 time; without an offset, in ``tz`` (default: this machine's zone)."""
    try:
        when = datetime.fromisoformat(str(text).strip())
    except ValueError:
        raise ValueError(f"{option} {text!r} is not an ISO 8601 date and time such as "
                         "2026-12-01T23:59.") from None
    if when.tzinfo:
        return when
    return when.replace(tzinfo=tz) if tz is not None else when.astimezone()


@dataclass(frozen=True)
class LatePolicy:
    """``rate`` % per started ``period`` (s), at most ``cap``; ``grace`` s are free."""

    rate: float
    period: float
    cap: float = 100.0
    grace: float = 0.0

    def periods(self, seconds: float) -> int:
        """Started periods of a submission ``seconds`` late (0 within the grace)."""
        if seconds <= self.grace or seconds <= 0:
            return 0
        return math.ceil(seconds / self.period)

    def percent(self, seconds: float) -> float:
        """The percentage of the score deducted for being ``seconds`` late."""
        return min(self.cap, self.rate * self.periods(seconds))


def _duration(text: str, what: str) -> float:
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([a-z]*)", text.strip().lower())
    if match is None or (match.group(2) or "s") not in UNITS:
        raise ValueError(f"--late-policy: {what} {text!r} is not a duration such as "
                         "15min, 2h or 1d (units: s, min, h, d).")
    return float(match.group(1)) * UNITS[match.group(2) or "s"]


def parse_policy(text: str) -> LatePolicy:
    """Read ``RATE%/day|hour [cap=PCT%] [grace=DURATION]`` (spaces or commas)."""
    allowed = ("allowed: '10%/day', '2%/hour', then optionally 'cap=50%' and "
               "'grace=15min' (e.g. '10%/day cap=50% grace=1h')")
    parts = [p for p in re.split(r"[,\s]+", str(text).strip()) if p]
    rate = re.fullmatch(r"(\d+(?:\.\d+)?)%/(day|hour)", parts[0]) if parts else None
    if rate is None:
        raise ValueError(f"--late-policy {text!r} must start with a rate; {allowed}.")
    values = {"cap": 100.0, "grace": 0.0}
    for part in parts[1:]:
        key, _, value = part.partition("=")
        if key == "cap" and re.fullmatch(r"\d+(?:\.\d+)?%", value):
            values["cap"] = float(value[:-1])
        elif key == "grace" and value:
            values["grace"] = _duration(value, "grace")
        else:
            raise ValueError(f"--late-policy {text!r}: {part!r} is not understood; "
                             f"{allowed}.")
    if not 0 < float(rate.group(1)) <= 100 or values["cap"] > 100:
        raise ValueError(f"--late-policy {text!r}: the rate must be in (0, 100]% and "
                         "the cap at most 100%.")
    return LatePolicy(float(rate.group(1)), UNITS[rate.group(2)], values["cap"],
                      values["grace"])


def _column(header, option, path, *names):
    lower = [h.lower() for h in header]
    for name in names:
        if name.lower() in lower:
            return lower.index(name.lower())
    raise ValueError(f"{option} {str(path)!r} needs a column {' or '.join(names)}; its "
                     f"columns are {header[:8]}.")


def read_extensions(path, tz) -> dict:
    """``{student id: deadline}`` from a CSV: ``id`` (or ``student``), ``deadline``."""
    header, rows = _read_table(path, "--extensions")
    key = _column(header, "--extensions", path, "id", "student")
    due = _column(header, "--extensions", path, "deadline", "due")
    found = {}
    for line, row in enumerate(rows, start=2):
        row = row + [""] * (len(header) - len(row))
        ident = row[key].strip()
        if not ident and not row[due].strip():
            continue
        if ident in found:
            raise ValueError(f"--extensions {str(path)!r}, line {line}: student "
                             f"{ident!r} is listed twice.")
        found[ident] = check_deadline(row[due], f"--extensions line {line}:", tz)
    return found


def _moodle_time(text: str, line: int, path, tz):
    for form in MOODLE_FORMATS:
        try:
            return datetime.strptime(text, form).replace(tzinfo=tz)
        except ValueError:
            continue
    try:
        return check_deadline(text, "", tz)
    except ValueError:
        raise ValueError(f"--submission-times {str(path)!r}, line {line}: 'Last "
                         f"modified (submission)' is {text!r}, not a date such as "
                         "'Tuesday, 1 December 2026, 11:59 PM'; download the worksheet "
                         "with the English language pack.") from None


def read_submission_times(path, tz) -> dict:
    """``{student id: submission time}`` from the LMS.

    Moodle's grading worksheet (columns ``Identifier``, "Participant 12345",
    and ``Last modified (submission)``; rows with "-" or "No submission" are
    left out), or a CSV with ``id`` (or ``student``) and ``submitted``
    (ISO 8601). Times without an offset are in ``tz``.
    """
    header, rows = _read_table(path, "--submission-times")
    moodle = "Identifier" in header and "Last modified (submission)" in header
    if moodle:
        key = header.index("Identifier")
        when = header.index("Last modified (submission)")
        status = header.index("Status") if "Status" in header else None
    else:
        key = _column(header, "--submission-times", path, "id", "student")
        when = _column(header, "--submission-times", path, "submitted")
        status = None
    found = {}
    for line, row in enumerate(rows, start=2):
        row = row + [""] * (len(header) - len(row))
        ident = participant(row[key]) if moodle else row[key].strip()
        text = row[when].strip()
        if not ident or text in ("", "-") or (
                status is not None and row[status].startswith("No submission")):
            continue
        found[ident] = (_moodle_time(text, line, path, tz) if moodle else
                        check_deadline(text, f"--submission-times line {line}:", tz))
    return found


def lateness(when: datetime, due: datetime, marker, policy) -> tuple:
    """``(late, percent, note)`` of a submission at ``when`` for deadline ``due``.

    ``marker`` is the LMS's verdict (True, False) or None; it decides ``late``
    when given. The percentage comes from the time; a marked file whose time
    is not after ``due`` is charged one period, with a note saying so.
    """
    seconds = (when - due).total_seconds()
    late = seconds > 0 if marker is None else bool(marker)
    if not late or policy is None:
        return late, 0.0, None
    if seconds <= 0:
        return late, min(policy.cap, policy.rate), (
            "marked late by the LMS, but its time here is not after the deadline: "
            "charged one period")
    return late, policy.percent(seconds), None
