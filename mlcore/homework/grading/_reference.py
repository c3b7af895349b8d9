"""The teacher's reference namespaces, kept in the grader's memory and checked by SHA-256.

``make_reference`` runs the teacher's notebook once and saves, per question,
its namespace right before the question's tests (``ref<N>.pkl``). The
checks restore every name but the answers from it, so it decides grades: a
submission that could rewrite it (with ``--sandbox none`` every run can
reach the grader's temporary folder) would grade everyone after it. So it is
read into memory once, before any submission runs, with the SHA-256 of each
snapshot; the folder is then removed. Each checks' process receives the
snapshots on its stdin (an unlinked file) with their SHA-256 and checks it
before loading them; a mismatch stops the grading (:class:`ReferenceTampered`).
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

__all__ = ["Reference", "ReferenceTampered"]


class ReferenceTampered(RuntimeError):
    """A reference snapshot no longer has the SHA-256 it had when it was made."""


class Reference:
    """Snapshots ``{question number: bytes}`` and the SHA-256 each had when it was read.

    Examples
    --------
    >>> ref = Reference({0: b"data"})
    >>> ref.verify()
    >>> ref.blobs[0] = b"other"
    >>> ref.verify()
    Traceback (most recent call last):
    ...
    mlcore.homework.grading._reference.ReferenceTampered: the reference snapshot of question 0 changed since it was made (its SHA-256 differs): grading stopped, nothing was loaded from it.
    """

    def __init__(self, blobs: dict):
        self.blobs = {int(n): bytes(b) for n, b in blobs.items()}
        self.sha256 = {n: hashlib.sha256(b).hexdigest() for n, b in self.blobs.items()}

    @classmethod
    def read(cls, folder) -> "Reference":
        """Read every ``ref<N>.pkl`` of a folder written by ``make_reference``."""
        blobs = {}
        for path in Path(folder).glob("ref*.pkl"):
            number = path.stem[3:]
            if number.isdigit() and path.is_file() and not path.is_symlink():
                blobs[int(number)] = path.read_bytes()
        return cls(blobs)

    def verify(self) -> None:
        """Raise :class:`ReferenceTampered` if a snapshot's bytes changed since reading."""
        for n, blob in self.blobs.items():
            if hashlib.sha256(blob).hexdigest() != self.sha256[n]:
                raise ReferenceTampered(
                    f"the reference snapshot of question {n} changed since it was made (its "
                    "SHA-256 differs): grading stopped, nothing was loaded from it.")

    def job(self, number: int):
        """What the checks' process receives for one question: the data and its SHA-256."""
        if number not in self.blobs:
            return None
        return {"data": base64.b64encode(self.blobs[number]).decode("ascii"),
                "sha256": self.sha256[number]}
