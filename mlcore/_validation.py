"""Parameter checks shared by every mlcore module.

Each check raises an error that names the parameter, the value received and
what is allowed, e.g.
``ValueError: delta must be in (0, 1), got delta=1.5; it is the probability that the bound fails.``
The optional ``why`` sentence tells a student what the parameter means.
"""

from __future__ import annotations

import numbers
import os

import numpy as np

__all__ = [
    "check_int",
    "check_real",
    "check_probability",
    "check_option",
    "quiet",
]


def _suffix(why: str | None) -> str:
    return f"; {why}" if why else ""


def check_int(value, name: str, *, low: int | None = None, high: int | None = None,
              why: str | None = None) -> int:
    """Return ``value`` as an int after checking ``low <= value <= high``.

    Examples
    --------
    >>> check_int(5, "n_splits", low=2)
    5
    >>> check_int(1, "n_splits", low=2)
    Traceback (most recent call last):
    ...
    ValueError: n_splits must be an integer >= 2, got n_splits=1.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {name}={value!r} "
                        f"of type {type(value).__name__}{_suffix(why)}.")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            allowed = f"in [{low}, {high}]"
        elif low is not None:
            allowed = f">= {low}"
        else:
            allowed = f"<= {high}"
        raise ValueError(f"{name} must be an integer {allowed}, got {name}={value}{_suffix(why)}.")
    return value


def check_real(value, name: str, *, low: float | None = None, high: float | None = None,
               low_open: bool = False, high_open: bool = False,
               why: str | None = None) -> float:
    """Return ``value`` as a finite float inside the given (half-)open interval.

    Examples
    --------
    >>> check_real(0.1, "gamma", low=0, low_open=True)
    0.1
    >>> check_real(0.0, "gamma", low=0, low_open=True)
    Traceback (most recent call last):
    ...
    ValueError: gamma must be > 0, got gamma=0.0.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {name}={value!r} "
                        f"of type {type(value).__name__}{_suffix(why)}.")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {name}={value}{_suffix(why)}.")
    too_low = low is not None and (value <= low if low_open else value < low)
    too_high = high is not None and (value >= high if high_open else value > high)
    if too_low or too_high:
        if low is not None and high is not None:
            allowed = f"in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
        elif low is not None:
            allowed = f"{'>' if low_open else '>='} {low:g}"
        else:
            allowed = f"{'<' if high_open else '<='} {high:g}"
        raise ValueError(f"{name} must be {allowed}, got {name}={value!r}{_suffix(why)}.")
    return value


def check_probability(value, name: str, *, why: str | None = None) -> float:
    """Return ``value`` after checking it lies in the open interval (0, 1).

    Examples
    --------
    >>> check_probability(1.5, "delta", why="it is the probability that the bound fails")
    Traceback (most recent call last):
    ...
    ValueError: delta must be in (0, 1), got delta=1.5; it is the probability that the bound fails.
    """
    return check_real(value, name, low=0.0, high=1.0, low_open=True, high_open=True, why=why)


def check_option(value, name: str, options) -> object:
    """Return ``value`` after checking it is one of ``options``.

    Examples
    --------
    >>> check_option("oob", "method", ["oob", ".632", ".632+"])
    'oob'
    >>> check_option("632", "method", ["oob", ".632", ".632+"])
    Traceback (most recent call last):
    ...
    ValueError: method must be one of 'oob', '.632', '.632+', got method='632'.
    """
    options = list(options)
    if value not in options:
        listed = ", ".join(repr(o) for o in options)
        raise ValueError(f"{name} must be one of {listed}, got {name}={value!r}.")
    return value


def quiet() -> bool:
    """True when progress bars should stay off (the site build and the tests set MLCORE_QUIET=1).

    Examples
    --------
    >>> isinstance(quiet(), bool)
    True
    """
    return os.environ.get("MLCORE_QUIET", "") not in ("", "0")
