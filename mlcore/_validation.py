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
    "check_real_or_option",
    "refuse_text",
    "check_bool",
    "check_n_jobs",
    "check_random_state",
    "as_generator",
    "as_random_state",
    "check_array",
    "check_int_array",
    "check_labels",
    "check_same_length",
    "check_splitter",
    "check_cv",
    "check_estimator_object",
    "num_rows",
    "user_errors",
    "naming",
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


def refuse_text(value, name: str, allowed: str) -> None:
    """Raise ``TypeError`` when ``value`` is a string or bytes, where ``allowed`` (an array) is wanted.

    NumPy turns ``'abc'`` into a 0-D array and ``len('abc')`` is 3, so a
    string passed for an array otherwise fails later with a message about
    shapes or lengths that does not say what went wrong.

    Examples
    --------
    >>> refuse_text("scores", "y_score", "a 1-D array of real-valued scores")
    Traceback (most recent call last):
    ...
    TypeError: y_score must be a 1-D array of real-valued scores, got y_score='scores' of type str.
    """
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be {allowed}, got {name}={_describe(value)} "
                        f"of type {type(value).__name__}.")


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


_RANDOM_STATE_TYPES = (np.random.Generator, np.random.RandomState, np.random.BitGenerator,
                       np.random.SeedSequence)


def check_random_state(value, name: str = "random_state"):
    """Return ``value`` after checking it can seed a random generator.

    The convention of every mlcore function: ``random_state`` may be None
    (fresh entropy), a non-negative integer of any size (NumPy integers
    included), or an existing ``numpy.random.Generator``, ``RandomState``,
    ``BitGenerator`` or ``SeedSequence``. A generator object is used, and
    advanced, in place; an integer gives the same draws on every call.
    :func:`as_generator` and :func:`as_random_state` convert the accepted
    value to the kind of generator a function needs.

    Examples
    --------
    >>> check_random_state(np.int32(3))
    3
    >>> check_random_state(-1)
    Traceback (most recent call last):
    ...
    ValueError: random_state must be None, a non-negative integer or a numpy random generator, got random_state=-1.
    """
    allowed = "None, a non-negative integer or a numpy random generator"
    if value is None or isinstance(value, _RANDOM_STATE_TYPES):
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be {allowed}, got {name}={value!r} "
                        f"of type {type(value).__name__}.")
    if int(value) < 0:
        raise ValueError(f"{name} must be {allowed}, got {name}={int(value)}.")
    return int(value)


def as_generator(value, name: str = "random_state") -> np.random.Generator:
    """A ``numpy.random.Generator`` from any value :func:`check_random_state` accepts.

    Integers and None give ``numpy.random.default_rng(value)``; a ``RandomState``
    is wrapped, sharing (and advancing) its state.

    Examples
    --------
    >>> bool(as_generator(0).integers(10) == np.random.default_rng(0).integers(10))
    True
    """
    value = check_random_state(value, name)
    if isinstance(value, np.random.RandomState):
        return np.random.Generator(value._bit_generator)
    return np.random.default_rng(value)


def as_random_state(value, name: str = "random_state") -> np.random.RandomState:
    """A ``numpy.random.RandomState`` (what scikit-learn uses) from any accepted value.

    Integers below 2**32 and None give what ``sklearn.utils.check_random_state``
    gives; a ``Generator`` or ``BitGenerator`` is wrapped, sharing its state.

    Examples
    --------
    >>> bool(as_random_state(0).randint(10) == np.random.RandomState(0).randint(10))
    True
    """
    value = check_random_state(value, name)
    if isinstance(value, np.random.RandomState):
        return value
    if isinstance(value, np.random.Generator):
        return np.random.RandomState(value.bit_generator)
    if isinstance(value, np.random.BitGenerator):
        return np.random.RandomState(value)
    if isinstance(value, np.random.SeedSequence) or (value is not None and value >= 2 ** 32):
        return np.random.RandomState(np.random.MT19937(value))
    return np.random.RandomState(value)


def _describe(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_array(value, name: str, *, ndim: int | tuple | None = None, allow_nan: bool = False,
                min_length: int = 0, length: int | None = None, n_columns: int | None = None,
                why: str | None = None) -> np.ndarray:
    """Return ``value`` as a float array after checking dtype, finiteness and shape.

    Lists and NumPy arrays of real numbers (or booleans) are accepted; strings,
    bytes, complex numbers and objects raise ``TypeError``. NaN and infinity
    raise ``ValueError`` unless ``allow_nan``. ``ndim`` may be a tuple of
    allowed dimensions, ``length`` and ``min_length`` bound ``len(value)``.

    Examples
    --------
    >>> check_array([1, 2], "x", ndim=1)
    array([1., 2.])
    >>> check_array([1.0, float("nan")], "y")
    Traceback (most recent call last):
    ...
    ValueError: y must hold finite numbers, got NaN or infinity at index 1 in y=[1.0, nan].
    >>> check_array(["1.5"], "x")
    Traceback (most recent call last):
    ...
    TypeError: x must be an array of real numbers, got x=['1.5'] with dtype <U3.
    """
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be an array of real numbers, got {name}={_describe(value)} "
                        f"of type {type(value).__name__}{_suffix(why)}.")
    try:
        array = np.asarray(value)
    except (ValueError, TypeError) as error:  # ragged nesting
        raise ValueError(f"{name} must be a rectangular array of real numbers, got "
                         f"{name}={_describe(value)} ({error}){_suffix(why)}.") from None
    if array.dtype.kind == "O":
        try:  # Python ints too large for int64 and Fractions are still real numbers
            if all(isinstance(v, numbers.Real) and not isinstance(v, bool)
                   for v in array.flat):
                array = array.astype(float)
        except (OverflowError, TypeError):
            pass
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be an array of real numbers, got {name}={_describe(value)} "
                        f"with dtype {array.dtype}{_suffix(why)}.")
    array = array.astype(float)
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
        if array.ndim not in allowed:
            wanted = " or ".join(f"{d}-D" for d in allowed)
            raise ValueError(f"{name} must be a {wanted} array, got a {array.ndim}-D array of "
                             f"shape {array.shape}{_suffix(why)}.")
    size = len(array) if array.ndim else 1
    if length is not None and size != length:
        raise ValueError(f"{name} must have length {length}, got length {size}{_suffix(why)}.")
    if size < min_length:
        raise ValueError(f"{name} must have at least {min_length} element(s), got "
                         f"{name}={_describe(value)} of length {size}{_suffix(why)}.")
    if n_columns is not None and array.ndim == 2 and array.shape[1] != n_columns:
        raise ValueError(f"{name} must have {n_columns} column(s), got shape "
                         f"{array.shape}{_suffix(why)}.")
    if not allow_nan and not np.isfinite(array).all():
        where = np.argwhere(~np.isfinite(array))[0]
        index = int(where[0]) if len(where) == 1 else tuple(int(i) for i in where)
        raise ValueError(f"{name} must hold finite numbers, got NaN or infinity at index "
                         f"{index} in {name}={_describe(value if not isinstance(value, np.ndarray) else value.tolist())}"
                         f"{_suffix(why)}.")
    return array


def check_int_array(value, name: str, *, low: int | None = None, why: str | None = None):
    """Return ``value`` as an int (scalar) or an integer array, each ``>= low``.

    Python ints of any size are kept exact: an array holding one too large
    for int64 is returned with ``dtype=object``.

    Examples
    --------
    >>> check_int_array([1, np.uint8(3)], "m", low=1)
    array([1, 3])
    >>> check_int_array(2 ** 70, "m", low=1)
    1180591620717411303424
    """
    if np.ndim(value) == 0 and not isinstance(value, np.ndarray):
        return check_int(value, name, low=low, why=why)
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):
        array = np.asarray(value, dtype=object)
    if array.dtype.kind == "O":
        for v in array.flat:
            check_int(v, name, low=low, why=why)
        try:
            return array.astype(np.int64)
        except OverflowError:
            return array
    if array.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, got {name}={_describe(value)} with dtype "
                        f"{array.dtype}{_suffix(why)}.")
    if low is not None and array.size and (array < low).any():
        check_int(array[array < low].flat[0].item(), name, low=low, why=why)
    return array.astype(np.int64) if array.dtype.kind == "u" and array.size and \
        array.max() < 2 ** 63 else array


def check_labels(value, name: str = "y", *, n_samples: int | None = None,
                 min_classes: int = 1, why: str | None = None) -> np.ndarray:
    """Return class labels as a 1-D array: numbers (finite) or strings, not None or NaN.

    Examples
    --------
    >>> check_labels([0, 1, 1], "y")
    array([0, 1, 1])
    >>> check_labels([0, float("nan")], "y")
    Traceback (most recent call last):
    ...
    ValueError: y must hold finite numbers, got NaN or infinity at index 1 in y=[0.0, nan].
    """
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be a 1-D array of class labels, got {name}={value!r}"
                        f"{_suffix(why)}.")
    array = np.asarray(value)
    if array.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of class labels, got a {array.ndim}-D "
                         f"array of shape {array.shape}{_suffix(why)}.")
    if array.dtype.kind in "fc" or array.dtype.kind == "O":
        if array.dtype.kind == "c" or (array.dtype.kind == "O" and not all(
                isinstance(v, (numbers.Real, str)) and not isinstance(v, bool) for v in array)):
            raise TypeError(f"{name} must hold numbers or strings, got {name}={_describe(value)}"
                            f"{_suffix(why)}.")
        if array.dtype.kind == "f":
            check_array(array, name, why=why)
    elif array.dtype.kind not in "biuUS":
        raise TypeError(f"{name} must hold numbers or strings, got {name}={_describe(value)} "
                        f"with dtype {array.dtype}{_suffix(why)}.")
    if n_samples is not None and len(array) != n_samples:
        raise ValueError(f"{name} must have one label per sample ({n_samples}), got "
                         f"{len(array)} labels{_suffix(why)}.")
    if len(np.unique(array)) < min_classes:
        raise ValueError(f"{name} must hold at least {min_classes} classes, got "
                         f"{name}={_describe(value)}{_suffix(why)}.")
    return array


def check_same_length(first, first_name: str, second, second_name: str) -> None:
    """Raise ``ValueError`` unless two arrays have the same number of rows.

    Examples
    --------
    >>> check_same_length(np.zeros((3, 2)), "X", np.zeros(2), "y")
    Traceback (most recent call last):
    ...
    ValueError: X and y must have the same number of samples, got len(X)=3 and len(y)=2.
    """
    if len(first) != len(second):
        raise ValueError(f"{first_name} and {second_name} must have the same number of samples, "
                         f"got len({first_name})={len(first)} and len({second_name})={len(second)}.")


def quiet() -> bool:
    """True when progress bars should stay off (the site build and the tests set MLCORE_QUIET=1).

    Examples
    --------
    >>> isinstance(quiet(), bool)
    True
    """
    return os.environ.get("MLCORE_QUIET", "") not in ("", "0")


# The checks of scikit-learn objects (splitters, estimators, sample counts) and
# the error-translating context managers live in their own file to keep this
# one short; they are part of this module's interface.
from ._validation_sklearn import (check_cv, check_estimator_object, check_splitter,  # noqa: E402
                                  naming, num_rows, user_errors)
