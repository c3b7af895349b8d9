"""Filter scores for feature selection (chapter 7): correlation and mutual
information, and the scikit-learn transformer :class:`MIFilter`.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_array, check_int


def _check_discrete(values, name):
    values = np.asarray(values)
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array, got shape {values.shape}.")
    if values.dtype.kind == "f":
        if not np.all(np.isfinite(values)):
            raise ValueError(f"{name} contains NaN or inf.")
        if np.unique(values).size > max(20, values.size // 2) or not np.all(values == np.round(values)):
            raise ValueError(f"{name} looks continuous (non-integer values); mutual information from "
                             "counts needs discrete values: bin it first, e.g. with "
                             "np.digitize(x, np.quantile(x, [0.25, 0.5, 0.75])).")
    return values


def mutual_information(x, y, *, base=None):
    """Mutual information of two discrete variables from their joint counts.

    :math:`\\mathrm{MI}(x, y) = \\sum_{a, b} \\hat p(a, b)\\log\\frac{\\hat p(a, b)}{\\hat p(a)\\hat p(b)}
    = \\mathrm{KL}\\bigl(\\hat p(x, y)\\,\\|\\,\\hat p(x)\\hat p(y)\\bigr)`, the plug-in
    estimate from the empirical distribution.

    Parameters
    ----------
    x, y : array_like of shape (m,)
        Discrete values (integers, strings or booleans).
    base : float or None, default=None
        Logarithm base: None for nats (as ``sklearn.metrics.mutual_info_score``),
        2 for bits.

    Returns
    -------
    float

    Examples
    --------
    >>> mutual_information([0, 0, 1, 1], [0, 0, 1, 1], base=2)
    1.0
    >>> mutual_information([0, 1, 0, 1], [0, 0, 1, 1])
    0.0
    """
    x, y = _check_discrete(x, "x"), _check_discrete(y, "y")
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same length, got {x.size} and {y.size}.")
    if base is not None and (not np.isfinite(base) or base <= 0 or base == 1):
        raise ValueError(f"base must be a positive number other than 1, got base={base!r}.")
    _, xi = np.unique(x, return_inverse=True)
    _, yi = np.unique(y, return_inverse=True)
    joint = np.zeros((xi.max() + 1, yi.max() + 1))
    np.add.at(joint, (xi, yi), 1.0)
    joint /= joint.sum()
    outer = joint.sum(axis=1, keepdims=True) * joint.sum(axis=0, keepdims=True)
    nonzero = joint > 0
    mi = float(np.sum(joint[nonzero] * np.log(joint[nonzero] / outer[nonzero])))
    mi = max(mi, 0.0)
    return float(mi / np.log(base)) if base is not None else mi


def mi_scores(X, y):
    """Mutual information (nats) between each feature's presence and the class, all at once.

    Each feature is reduced to presence, :math:`x_j \\ne 0` (a 0/1 bag of words
    as it is; word counts become "the word occurs"). The joint counts of
    (present, class) come from one sparse product :math:`X_{\\ne 0}^\\top Y`
    with the one-hot class matrix :math:`Y`, the absent counts by subtraction,
    and the mutual information of every column from those arrays: no loop
    over columns. On binary features it equals
    ``sklearn.feature_selection.mutual_info_classif(X, y, discrete_features=True)``.

    Parameters
    ----------
    X : array_like or sparse matrix of shape (m, n)
    y : array_like of shape (m,)
        Class labels.

    Returns
    -------
    ndarray of shape (n,)

    Examples
    --------
    >>> X = np.array([[1, 0], [1, 1], [0, 0], [0, 1]])
    >>> mi_scores(X, [1, 1, 0, 0]).round(4)
    array([0.6931, 0.    ])
    """
    y = np.asarray(y)
    if y.ndim != 1 or len(y) == 0:
        raise ValueError(f"y must be a non-empty 1-D array of labels, got shape {y.shape}.")
    classes, yi = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"y has one class ({classes[0]!r}); mutual information with it is 0 "
                         "for every feature, so the scores cannot rank anything.")
    present = (X != 0) if sp.issparse(X) else sp.csr_matrix(np.asarray(X) != 0)
    present = sp.csr_matrix(present, dtype=float)
    if present.shape[0] != len(y):
        raise ValueError(f"X and y must have the same number of samples, got {present.shape[0]} "
                         f"and {len(y)}.")
    m = len(y)
    Y = sp.csr_matrix((np.ones(m), (np.arange(m), yi)), shape=(m, classes.size))
    n11 = np.asarray((present.T @ Y).todense())                   # (n, classes): present and class c
    class_counts = np.bincount(yi).astype(float)
    n01 = class_counts[None, :] - n11                              # absent and class c
    joint = np.stack([n01, n11], axis=1) / m                       # (n, 2, classes)
    outer = joint.sum(axis=2, keepdims=True) * (class_counts / m)[None, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(joint > 0, joint * np.log(joint / outer), 0.0)
    return np.maximum(terms.sum(axis=(1, 2)), 0.0)


def correlation_scores(X, y):
    """Absolute Pearson correlation of each feature with a numeric (or 0/1) label.

    Examples
    --------
    >>> correlation_scores(np.array([[1.0, 3.0], [2.0, 1.0], [3.0, 2.0]]), [1, 2, 3]).round(2)
    array([1. , 0.5])
    """
    X = check_array(X, "X", ndim=2, min_length=1)
    y = check_array(y, "y", ndim=1, length=len(X), why="it holds one target per row of X")
    for name, values in (("X", X), ("y", y)):
        if np.abs(values).max(initial=0.0) > 1e150:   # sums of squares would overflow
            raise ValueError(f"{name} must lie within [-1e150, 1e150], got largest |value| "
                             f"{np.abs(values).max():g}; standardize it.")
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    denominator = np.sqrt((Xc**2).sum(axis=0) * (yc**2).sum())
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(denominator > 0, Xc.T @ yc / denominator, 0.0)
    return np.abs(r)


class MIFilter(SelectorMixin, BaseEstimator):
    """Keep the ``k`` features with the largest mutual information with the class.

    A scikit-learn transformer: use it inside a ``Pipeline`` so that the
    scores are computed on the training folds only, and tune ``k`` with
    ``GridSearchCV``. Scores come from :func:`mi_scores` (presence of each
    feature); ties keep the earlier column.

    Parameters
    ----------
    k : int, default=10
        Number of features to keep, 1 <= k <= n_features.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features,)
    n_features_in_ : int

    Examples
    --------
    >>> X = np.array([[1, 0, 1], [1, 1, 0], [0, 0, 1], [0, 1, 0]])
    >>> MIFilter(k=1).fit(X, [1, 1, 0, 0]).get_support().tolist()
    [True, False, False]
    """

    def __init__(self, k=10):
        self.k = k

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.target_tags.required = True
        return tags

    def fit(self, X, y):
        """Score every feature on (X, y); returns ``self``."""
        X, y = validate_data(self, X, y, accept_sparse="csr")
        check_classification_targets(y)
        check_int(self.k, "k", low=1, high=X.shape[1],
                  why=f"it is how many of the {X.shape[1]} features to keep")
        self.scores_ = mi_scores(X, y)
        return self

    def _get_support_mask(self):
        check_is_fitted(self)
        keep = np.argsort(-self.scores_, kind="stable")[: int(self.k)]
        mask = np.zeros(self.scores_.shape, dtype=bool)
        mask[keep] = True
        return mask
