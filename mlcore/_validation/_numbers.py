"""Checks of scalar parameters: integers, real numbers, options, booleans and ``n_jobs``
(part of :mod:`mlcore._validation`; import them from there).
"""

from __future__ import annotations

import numbers

import numpy as np

from ._messages import _describe, _suffix


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
    value = float(value) + 0.0   # -0.0 becomes 0.0: it passes ">= 0", and NumPy refuses a negative zero scale
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {name}={value}{_suffix(why)}.")
    too_low = low is not None and (value <= low if low_open else value < low)
    too_high = high is not None and (value >= high if high_open else value > high)
    if too_low or too_high:
        allowed = _interval_text(low, high, low_open, high_open)
        raise ValueError(f"{name} must be {allowed}, got {name}={value!r}{_suffix(why)}.")
    return value


def _interval_text(low, high, low_open, high_open) -> str:
    """The allowed interval in words: ``"in (0, 1]"``, ``">= 0"``, ``"< 1"``, or "" for any number."""
    if low is not None and high is not None:
        return f"in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
    if low is not None:
        return f"{'>' if low_open else '>='} {low:g}"
    if high is not None:
        return f"{'<' if high_open else '<='} {high:g}"
    return ""


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


def check_real_or_option(value, name: str, options, *, low: float | None = None,
                         high: float | None = None, low_open: bool = False,
                         high_open: bool = False, why: str | None = None):
    """Return ``value`` if it is one of ``options`` (strings), else as a float checked like :func:`check_real`.

    For parameters such as ``learning_rate="auto"``: a refusal lists the
    options beside the numbers allowed.

    Examples
    --------
    >>> check_real_or_option("auto", "learning_rate", ["auto"], low=0, low_open=True)
    'auto'
    >>> check_real_or_option("fast", "learning_rate", ["auto"], low=0, low_open=True)
    Traceback (most recent call last):
    ...
    TypeError: learning_rate must be 'auto' or a real number > 0, got learning_rate='fast' of type str.
    """
    options = list(options)
    if isinstance(value, str) and value in options:
        return value
    bounds = _interval_text(low, high, low_open, high_open)
    allowed = " or ".join(repr(o) for o in options) + " or a real number" + (f" {bounds}" if bounds else "")
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be {allowed}, got {name}={_describe(value)} "
                        f"of type {type(value).__name__}{_suffix(why)}.")
    try:
        return check_real(value, name, low=low, high=high, low_open=low_open,
                          high_open=high_open, why=why)
    except ValueError:
        raise ValueError(f"{name} must be {allowed}, got {name}={float(value)!r}"
                         f"{_suffix(why)}.") from None


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
    # an array compares element-wise and a list or dict is unhashable: neither is an option
    try:
        hash(value)
        found = not isinstance(value, np.ndarray) and any(
            value == o and type(value) is not bool for o in options)
    except TypeError:
        found = False
    if not found:
        listed = ", ".join(repr(o) for o in options)
        raise ValueError(f"{name} must be one of {listed}, got {name}={value!r}.")
    return value


def check_bool(value, name: str, *, why: str | None = None) -> bool:
    """Return ``value`` as a bool; only ``True``/``False`` (or NumPy's) are accepted.

    A string such as ``'False'`` is truthy, so it is rejected rather than guessed.

    Examples
    --------
    >>> check_bool(np.True_, "shuffle")
    True
    >>> check_bool("False", "return_X_y")
    Traceback (most recent call last):
    ...
    TypeError: return_X_y must be True or False, got return_X_y='False' of type str.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {name}={value!r} "
                        f"of type {type(value).__name__}{_suffix(why)}.")
    return bool(value)


def check_n_jobs(value, name: str = "n_jobs") -> int | None:
    """Return ``value`` checked as joblib's ``n_jobs``: None, or a nonzero integer.

    None or 1 runs in this process; -1 uses every core, -2 all but one.

    Examples
    --------
    >>> check_n_jobs(np.int64(2)) , check_n_jobs(None)
    (2, None)
    >>> check_n_jobs("2")
    Traceback (most recent call last):
    ...
    TypeError: n_jobs must be None or a nonzero integer, got n_jobs='2' of type str.
    """
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be None or a nonzero integer, got {name}={value!r} "
                        f"of type {type(value).__name__}.")
    if int(value) == 0 or abs(int(value)) >= 2**31:
        raise ValueError(f"{name} must be None or a nonzero integer (-1 for every core) below "
                         f"2**31 in size, got {name}={int(value)}.")
    return int(value)
