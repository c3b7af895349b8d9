"""Input checks for scikit-learn objects: a splitter or ``cv`` argument, an estimator
object, the number of samples of an array-like (part of :mod:`mlcore._validation`;
import them from there).
"""

from __future__ import annotations

import numbers

import numpy as np

from ._errors import naming
from ._messages import _describe
from ._numbers import check_int


def check_splitter(value, name: str = "cv"):
    """Return ``value`` after checking it is a splitter object with a ``split`` method.

    A class (rather than an instance), a string (``str.split`` is not a
    splitter) or a number is refused with a message naming the parameter.

    Examples
    --------
    >>> from sklearn.model_selection import KFold
    >>> check_splitter(KFold(3))
    KFold(n_splits=3, random_state=None, shuffle=False)
    >>> check_splitter(KFold)
    Traceback (most recent call last):
    ...
    TypeError: cv must be a splitter object with a split(X, y) method (such as sklearn.model_selection.KFold(5)), got cv=<class 'sklearn.model_selection._split.KFold'>, a class; create an instance.
    """
    if isinstance(value, type):
        raise TypeError(f"{name} must be a splitter object with a split(X, y) method (such as "
                        f"sklearn.model_selection.KFold(5)), got {name}={value!r}, a class; "
                        "create an instance.")
    if isinstance(value, (str, bytes)) or not callable(getattr(value, "split", None)):
        raise TypeError(f"{name} must be a splitter object with a split(X, y) method (such as "
                        f"sklearn.model_selection.KFold(5)), got {name}={_describe(value)}.")
    return value


def check_cv(value, y=None, *, classifier: bool = False, name: str = "cv"):
    """scikit-learn's ``check_cv`` with every refusal naming ``cv``.

    Accepted: None (5-fold), an integer >= 2 (stratified for a classifier,
    as in scikit-learn), a splitter object, or a non-empty list of
    ``(train, test)`` index pairs. Returns the splitter object.

    Examples
    --------
    >>> check_cv(3)
    KFold(n_splits=3, random_state=None, shuffle=False)
    >>> check_cv("5")
    Traceback (most recent call last):
    ...
    TypeError: cv must be None, an integer >= 2, a splitter object or a list of (train, test) index pairs, got cv='5' of type str.
    """
    from sklearn.model_selection import check_cv as sk_check_cv
    allowed = "None, an integer >= 2, a splitter object or a list of (train, test) index pairs"
    if value is not None and not isinstance(value, (numbers.Integral, list, tuple)):
        if isinstance(value, (type, str, bytes, dict)) or not callable(
                getattr(value, "split", None)):
            raise TypeError(f"{name} must be {allowed}, got {name}={_describe(value)} "
                            f"of type {type(value).__name__}.")
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be {allowed}, got {name}={value!r} of type bool.")
    if isinstance(value, numbers.Integral):
        check_int(value, name, low=2, why="it is the number of folds")
    if isinstance(value, (list, tuple)):
        if not value or not all(isinstance(pair, (tuple, list)) and len(pair) == 2
                                for pair in value):
            raise ValueError(f"{name} must be {allowed}, got {name}={_describe(value)}.")
    with naming(name):
        return sk_check_cv(value, y, classifier=classifier)


def check_estimator_object(value, name: str = "estimator", methods=("fit", "predict")):
    """Return ``value`` after checking it is an estimator instance with ``methods``.

    Examples
    --------
    >>> from sklearn.naive_bayes import GaussianNB
    >>> check_estimator_object(GaussianNB())
    GaussianNB()
    >>> check_estimator_object(GaussianNB)
    Traceback (most recent call last):
    ...
    TypeError: estimator must be an estimator instance with fit and predict methods (such as sklearn.naive_bayes.GaussianNB()), got estimator=<class 'sklearn.naive_bayes.GaussianNB'>, a class; create an instance.
    """
    wanted = " and ".join(methods)
    if isinstance(value, type):
        raise TypeError(f"{name} must be an estimator instance with {wanted} methods (such as "
                        f"sklearn.naive_bayes.GaussianNB()), got {name}={value!r}, a class; "
                        "create an instance.")
    if not all(callable(getattr(value, m, None)) for m in methods):
        raise TypeError(f"{name} must be an estimator instance with {wanted} methods (such as "
                        f"sklearn.naive_bayes.GaussianNB()), got {name}={_describe(value)} "
                        f"of type {type(value).__name__}.")
    return value


def num_rows(value, name: str = "X") -> int:
    """The number of samples (rows) of an array-like, with a ``TypeError`` naming it otherwise.

    Examples
    --------
    >>> num_rows(np.zeros((3, 2)))
    3
    >>> num_rows(1.0)
    Traceback (most recent call last):
    ...
    TypeError: X must be an array-like of samples, got X=1.0 of type float.
    """
    from sklearn.utils.validation import _num_samples
    try:
        return _num_samples(value)
    except TypeError:
        raise TypeError(f"{name} must be an array-like of samples, got {name}="
                        f"{_describe(value)} of type {type(value).__name__}.") from None
