"""Errors translated at the boundary: the context managers that turn an error raised by
NumPy, SciPy or scikit-learn into a ``ValueError``/``TypeError`` naming the parameter
(part of :mod:`mlcore._validation`; import them from there).
"""

from __future__ import annotations

import re

import numpy as np

from ._messages import _suffix


_NOT_2D = re.compile(r"Expected 2D array, got (1D|scalar) array instead:\narray=.*?\.\nReshape",
                     re.DOTALL)
_INCONSISTENT = re.compile(r"Found input variables with inconsistent numbers of samples: \[(\d+), (\d+)\]$")


def _reword_sklearn(message: str, name: str) -> str | None:
    """Two of scikit-learn's messages said in this package's words, or None to keep the message.

    Its "Expected 2D array" prints the whole array (thousands of numbers for
    a real data set), and its "inconsistent numbers of samples" names no
    parameter; ``name`` is what :class:`naming` was given (``"X and y"`` for
    a pair).
    """
    pair = re.fullmatch(r"(\w+) (?:and|or) (\w+)", name)
    not_2d = _NOT_2D.match(message)
    if not_2d:
        # only the data matrix is checked for two dimensions: of "X and y" it is X
        array = pair.group(1) if pair else name
        got = "a 1-D array" if not_2d.group(1) == "1D" else "a single number"
        # "Reshape your data" is what scikit-learn's check_estimator looks for
        return (f"{array} must be a 2-D array of shape (n_samples, n_features), got {got}. "
                f"Reshape your data: {array}.reshape(-1, 1) for a single feature, "
                f"{array}.reshape(1, -1) for a single sample.")
    inconsistent = _INCONSISTENT.match(message)
    if inconsistent and pair:
        first, second = pair.groups()
        return (f"{first} and {second} must have the same number of samples, got "
                f"{inconsistent.group(1)} in {first} and {inconsistent.group(2)} in {second}.")
    return None


class user_errors:
    """Context manager translating NumPy/SciPy errors a user's input can cause into ``ValueError``.

    ``LinAlgError``, ``IndexError``, ``KeyError``, ``ZeroDivisionError`` and
    ``OverflowError`` raised inside become ``ValueError`` naming ``name`` (the
    parameter, or parameters, that caused it), the original message kept.

    Examples
    --------
    >>> with user_errors("X", "the design matrix must have full column rank"):
    ...     np.linalg.inv(np.zeros((2, 2)))
    Traceback (most recent call last):
    ...
    ValueError: X is not usable: Singular matrix; the design matrix must have full column rank.
    """

    def __init__(self, name: str, why: str | None = None):
        self.name, self.why = name, why

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if kind is not None and issubclass(kind, (np.linalg.LinAlgError, IndexError, KeyError,
                                                  ZeroDivisionError, OverflowError,
                                                  FloatingPointError)):
            raise ValueError(f"{self.name} is not usable: {error}{_suffix(self.why)}.") from error
        return False


class naming:
    """Context manager rewording a library's ``ValueError``/``TypeError`` to name ``name``.

    For messages from scikit-learn's or NumPy's own validation, which describe
    the problem but not which parameter has it. A message that already names
    the parameter keeps its words. Either way the error is raised as a plain
    ``ValueError`` or ``TypeError``: a library's subclass (scikit-learn's
    ``InvalidParameterError``, NumPy's ``UFuncTypeError``) does not leak out.

    Examples
    --------
    >>> from sklearn.utils.validation import check_array as sk_check_array
    >>> with naming("X"):
    ...     sk_check_array([1.0, 2.0])
    Traceback (most recent call last):
    ...
    ValueError: X must be a 2-D array of shape (n_samples, n_features), got a 1-D array. Reshape your data: X.reshape(-1, 1) for a single feature, X.reshape(1, -1) for a single sample.
    >>> with naming("X"):
    ...     sk_check_array([[1.0, 2.0]], ensure_min_features=3)
    Traceback (most recent call last):
    ...
    ValueError: X is not valid: Found array with 2 feature(s) (shape=(1, 2)) while a minimum of 3 is required.
    """

    def __init__(self, name: str):
        self.name = name

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        from sklearn.exceptions import NotFittedError
        if kind is None or not issubclass(kind, (ValueError, TypeError)) or \
                issubclass(kind, NotFittedError):   # callers test for NotFittedError itself
            return False
        message, name = str(error), self.name
        plain = ValueError if issubclass(kind, ValueError) else TypeError
        reworded = _reword_sklearn(message, name)
        if reworded is not None:
            raise plain(reworded) from error
        if message.startswith(name) or f" {name} " in message or f"{name}=" in message:
            if kind in (ValueError, TypeError):
                return False
            raise plain(message) from error
        raise plain(f"{name} is not valid: {message}") from error
