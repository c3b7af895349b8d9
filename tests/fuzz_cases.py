"""What the fuzz-report reproducer tests share: a case, and its verdict.

Each reproducer of a reliability fuzz report (``tests/test_fuzz2_reproducers.py``,
``tests/test_fuzz3_reproducers.py``) is one :class:`Case`, classified as

* ``value`` -- it returns, and an independent check of the value holds;
* ``error`` -- it raises a plain ``ValueError``/``TypeError`` (or an mlcore
  subclass) whose message names one of the parameters responsible;
* ``DEFECT`` -- anything else: a wrong value, a RuntimeWarning as the only
  signal, another exception type or a leaked third-party subclass, a message
  that does not name the parameter, invalid input accepted, or (hang groups
  only) more CPU time than a generous guard.
"""

from __future__ import annotations

import re
import signal
import warnings
from dataclasses import dataclass

import numpy as np

CPU_GUARD = 30.0     # seconds of CPU for one hang-group case (the report's runs took 16-96 s)


@dataclass
class Case:
    id: str
    call: object                 # zero-argument callable
    params: tuple = ()           # names an error may name
    check: object = None         # predicate on the returned value
    expect: str = "either"       # "value", "error" or "either"
    allow: tuple = ()            # further exception types the report accepts
    cpu_guard: bool = False


def collector(cases: list):
    """A ``case(id, call, params, check, expect, allow, cpu_guard)`` that appends to ``cases``.

    ``expect`` defaults to "value" without ``params``, "error" with params and
    no ``check``, and "either" with both.
    """
    def case(id, call, params=(), check=None, expect=None, allow=(), cpu_guard=False):
        params = (params,) if isinstance(params, str) else tuple(params)
        if expect is None:
            expect = "value" if not params else ("error" if check is None else "either")
        cases.append(Case(id, call, params, check, expect, allow, cpu_guard))
    return case


class _CPUTimeout(Exception):
    pass


def _on_prof(signum, frame):
    raise _CPUTimeout


def _clean_type(error):
    kind = type(error)
    return kind in (ValueError, TypeError) or kind.__module__.startswith("mlcore")


def classify(c: Case) -> tuple[str, str]:
    if c.cpu_guard:
        old = signal.signal(signal.SIGPROF, _on_prof)
        signal.setitimer(signal.ITIMER_PROF, CPU_GUARD)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = c.call()
    except _CPUTimeout:
        return "DEFECT", f"hang: over {CPU_GUARD} s of CPU"
    except (ValueError, TypeError) as error:
        message = f"{type(error).__module__}.{type(error).__name__}: {str(error)[:200]}"
        if c.expect == "value":
            return "DEFECT", f"valid input rejected: {message}"
        if not _clean_type(error):
            return "DEFECT", f"leaked subclass: {message}"
        if not any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(p)}(?![A-Za-z0-9_])", str(error))
                   for p in c.params):
            return "DEFECT", f"message names none of {c.params}: {message}"
        return "error", message
    except c.allow as error:
        return "error", f"{type(error).__name__}: {error}"
    except Exception as error:  # noqa: BLE001 -- classifying every other exception is the point
        return "DEFECT", f"{type(error).__module__}.{type(error).__name__}: {str(error)[:200]}"
    finally:
        if c.cpu_guard:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, old)
    runtime = [w for w in caught if issubclass(w.category, RuntimeWarning)]
    if runtime:
        return "DEFECT", f"RuntimeWarning: {runtime[0].message}"
    if c.expect == "error" or c.check is None:
        return "DEFECT", f"invalid input accepted, returned {_short(value)}"
    try:
        ok = bool(c.check(value))
    except Exception as error:  # noqa: BLE001
        return "DEFECT", f"check raised {error!r} on {_short(value)}"
    return ("value", _short(value)) if ok else ("DEFECT", f"wrong value {_short(value)}")


def _short(value) -> str:
    if isinstance(value, int) and value.bit_length() > 300:
        return f"<int of {value.bit_length()} bits>"
    text = repr(value).replace("\n", " ")
    return text if len(text) < 160 else text[:157] + "..."


def finite(value) -> bool:
    arrays = value if isinstance(value, (tuple, list)) else (value,)
    return all(np.isfinite(np.asarray(a, dtype=float)).all() for a in arrays)


def close(a, b, rtol=1e-9, atol=0.0):
    return np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=rtol, atol=atol)
