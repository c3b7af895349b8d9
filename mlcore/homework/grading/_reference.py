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
import io
import pickle
import pickletools
import re
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

    def modules(self) -> list:
        """The modules loading the snapshots imports, read from their pickle opcodes.

        Nothing is unpickled here. The checks' process imports these before it
        reads its job (the submission's process is forked from it there).

        Examples
        --------
        >>> import cloudpickle, numpy, pickle
        >>> blob = pickle.dumps({"each": {"np": cloudpickle.dumps(numpy)}})
        >>> "numpy" in Reference({0: blob}).modules()
        True
        """
        if getattr(self, "_modules", None) is not None:
            return list(self._modules)        # read once per grading, not per submission
        found = set()
        for blob in self.blobs.values():
            try:
                inner = _PlainUnpickler(io.BytesIO(blob)).load().get("each") or {}
                for value in inner.values():
                    found |= _imported(bytes(value))
            except Exception:   # noqa: BLE001 -- not a snapshot: the checks import as they go
                continue
        self._modules = sorted(name for name in found if _MODULE.fullmatch(name)
                               and name.split(".")[0] not in ("__main__", "builtins"))
        return list(self._modules)

    def job(self, number: int):
        """What the checks' process receives for one question: the data and its SHA-256."""
        if number not in self.blobs:
            return None
        return {"data": base64.b64encode(self.blobs[number]).decode("ascii"),
                "sha256": self.sha256[number]}


_MODULE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
_STRINGS = {"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE", "SHORT_BINSTRING",
            "BINSTRING", "STRING"}


class _PlainUnpickler(pickle.Unpickler):
    """Dicts, strings and bytes only: a snapshot's outer layer."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"{module}.{name} in a snapshot's outer layer")


def _imported(blob: bytes) -> set:
    """Modules a (cloud)pickle imports: globals' modules and ``subimport`` arguments."""
    found, memo, pushed, want = set(), {}, [], False
    for op, arg, _ in pickletools.genops(blob):
        name = op.name
        if name in ("MEMOIZE", "PUT", "BINPUT", "LONG_BINPUT"):
            memo[len(memo) if name == "MEMOIZE" else arg] = pushed[-1] if pushed else None
            continue
        if name in _STRINGS or name in ("GET", "BINGET", "LONG_BINGET"):
            value = arg if name in _STRINGS else memo.get(arg)
            if want and isinstance(value, str):
                found.add(value)
            want = False
            pushed.append(value)
            continue
        if name == "STACK_GLOBAL" and len(pushed) >= 2:
            module, attribute = pushed[-2], pushed[-1]
        elif name == "GLOBAL" and isinstance(arg, str):
            module, _, attribute = arg.partition(" ")
        else:
            pushed.append(None)
            continue
        if isinstance(module, str):
            found.add(module)
        want = attribute == "subimport"
        pushed.append(None)
    return found
