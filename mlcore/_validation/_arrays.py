"""Checks of array arguments: numeric arrays, integer arrays, class labels, lengths
(part of :mod:`mlcore._validation`; import them from there).
"""

from __future__ import annotations

import numbers

import numpy as np

from ._messages import _describe, _suffix
from ._numbers import check_int


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
