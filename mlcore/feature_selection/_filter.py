"""Filter scores for feature selection (chapter 7): correlation and mutual
information, and the scikit-learn transformer :class:`MIFilter`.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_array, check_int, check_labels, check_real, refuse_text


def _check_discrete(values, name):
    refuse_text(values, name, "a non-empty 1-D array of discrete values")
    values = np.asarray(values)
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array, got shape {values.shape}.")
    if values.dtype.kind == "c":
        raise TypeError(f"{name} must hold discrete values (integers, strings or booleans), got "
                        "complex numbers.")
    if values.dtype.kind == "f":
        if not np.all(np.isfinite(values)):
            raise ValueError(f"{name} contains NaN or inf.")
        fractional = np.flatnonzero(values != np.round(values))
        if fractional.size:                 # integer-valued floats (3.0) are discrete values
            raise ValueError(f"{name} looks continuous: it has non-integer values (e.g. "
                             f"{name}[{fractional[0]}]={float(values[fractional[0]]):g}); mutual "
                             "information from counts needs discrete values: bin it first, e.g. "
                             "with np.digitize(x, np.quantile(x, [0.25, 0.5, 0.75])).")
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
    if base is not None:
        if isinstance(base, bool) or not isinstance(base, numbers.Real):
            raise TypeError(f"base must be a real number (None for nats), got base={base!r}.")
        base = float(base)                 # a float16 base would take log(base) in half precision
        if not np.isfinite(base) or base <= 0 or base == 1:
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


def _check_class_labels(y, name="y"):
    """1-D class labels: refuse NaN, complex, and continuous (non-integer) numeric values."""
    y = check_labels(y, name)
    if len(y) == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array of labels, got shape {y.shape}.")
    if y.dtype.kind == "f" and np.any(y != np.round(y)):
        raise ValueError(f"{name} must hold class labels, got non-integer numbers (e.g. "
                         f"{float(y[np.flatnonzero(y != np.round(y))[0]]):g}), a continuous target: "
                         "mutual information with the class needs classes; bin the target first.")
    return y


def _presence(X, binarize):
    """X reduced to 0/1 presence as a float CSR matrix, after checking its values."""
    if binarize is not None:
        binarize = check_real(binarize, "binarize", why="features are scored as x > binarize")
    if sp.issparse(X):
        X = sp.csr_matrix(X)
        if X.dtype.kind not in "biuf":
            raise TypeError(f"X must hold real numbers, got a sparse matrix of dtype {X.dtype}.")
        check_array(X.data, "X", why="the stored entries of the sparse X")
        if binarize is not None and binarize < 0:
            raise ValueError(f"binarize must be >= 0 for a sparse X (its zeros would all become "
                             f"present), got binarize={binarize!r}.")
        values = X.data
    else:
        X = check_array(X, "X", ndim=2)
        values = X.ravel()
    if X.shape[1] == 0:
        raise ValueError(f"X must have at least one feature (column), got shape {X.shape}.")
    if binarize is None:
        odd = values[(values != 0) & (values != 1)]
        if odd.size:
            raise ValueError(f"X must hold 0/1 presence values when binarize=None, got the value "
                             f"{float(odd[0]):g}: for word counts pass binarize=0 (score 'the word "
                             "occurs', x > 0); bin a continuous feature first (np.digitize) or "
                             "pass binarize=t to score x > t.")
        return sp.csr_matrix(X, dtype=float)
    return sp.csr_matrix(X > binarize, dtype=float)


def mi_scores(X, y, *, binarize=None):
    """Mutual information (nats) between each feature's presence and the class, all at once.

    The joint counts of (present, class) come from one sparse product
    :math:`X^\\top Y` with the one-hot class matrix :math:`Y`, the absent
    counts by subtraction, and the mutual information of every column from
    those arrays: no loop over columns. On 0/1 features it equals
    ``sklearn.feature_selection.mutual_info_classif(X, y, discrete_features=True)``.

    Parameters
    ----------
    X : array_like or sparse matrix of shape (m, n)
        0/1 presence values (a binary bag of words), or any real values with
        ``binarize``. NaN and infinity raise.
    y : array_like of shape (m,)
        Class labels (at least two classes; a continuous target raises).
    binarize : float or None, default=None
        None: X must hold 0 and 1 only; any other value raises (counts and
        continuous features are not silently reduced to "x != 0"). A number
        ``t``: each feature is scored as the event ``x > t``, an explicit
        discretization (``binarize=0`` turns word counts into "the word
        occurs"; the information in the count values themselves is lost).

    Returns
    -------
    ndarray of shape (n,)

    Examples
    --------
    >>> X = np.array([[1, 0], [1, 1], [0, 0], [0, 1]])
    >>> mi_scores(X, [1, 1, 0, 0]).round(4)
    array([0.6931, 0.    ])
    >>> mi_scores(3 * X, [1, 1, 0, 0], binarize=0).round(4)
    array([0.6931, 0.    ])
    """
    y = _check_class_labels(y)
    classes, yi = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"y has one class ({classes[0]!r}); mutual information with it is 0 "
                         "for every feature, so the scores cannot rank anything.")
    present = _presence(X, binarize)
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
    """Absolute Pearson correlation of each feature with a numeric (or 0/1) target.

    Each column and the target are divided by their largest absolute value
    first, so a column in tiny units (1e-200) is not mistaken for a constant.
    A target with more than two integer values (``type_of_target`` says
    "multiclass") raises a warning: if those are class labels, the score
    depends on how the classes are numbered; use
    ``sklearn.feature_selection.f_classif`` for classes.

    Examples
    --------
    >>> correlation_scores(np.array([[1.0, 3.0], [2.0, 1.0], [3.0, 2.0]]), [0.5, 1.5, 2.5]).round(2)
    array([1. , 0.5])
    """
    X = check_array(X, "X", ndim=2, min_length=1)
    y = check_array(y, "y", ndim=1, length=len(X), why="it holds one target per row of X")
    if X.shape[1] == 0:
        raise ValueError(f"X must have at least one feature (column), got shape {X.shape}.")
    for name, values in (("X", X), ("y", y)):
        if np.abs(values).max(initial=0.0) > 1e150:   # as elsewhere in mlcore: standardize first
            raise ValueError(f"{name} must lie within [-1e150, 1e150], got largest |value| "
                             f"{np.abs(values).max():g}; standardize it.")
    if type_of_target(y) == "multiclass":
        warnings.warn(f"y has {np.unique(y).size} integer values: if they are class labels, the "
                      "correlation depends on how the classes are numbered; use "
                      "sklearn.feature_selection.f_classif for more than two classes.",
                      UserWarning, stacklevel=2)
    scale = np.abs(X).max(axis=0)
    X = X / np.where(scale > 0, scale, 1.0)            # scale-free: |corr| does not change
    y = y / max(np.abs(y).max(), np.finfo(float).tiny)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    # A column is constant when its centred values are zero relative to its own scale.
    constant = np.abs(Xc).max(axis=0) <= 1e-12
    denominator = np.sqrt((Xc**2).sum(axis=0) * (yc**2).sum())
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where((denominator > 0) & ~constant, Xc.T @ yc / denominator, 0.0)
    if np.abs(yc).max() <= 1e-12:
        r[:] = 0.0
    return np.minimum(np.abs(r), 1.0)


class MIFilter(SelectorMixin, BaseEstimator):
    """Keep the ``k`` features with the largest mutual information with the class.

    A scikit-learn transformer: use it inside a ``Pipeline`` so that the
    scores are computed on the training folds only, and tune ``k`` with
    ``GridSearchCV``. Scores come from :func:`mi_scores` on the events
    :math:`x_j > \\text{binarize}`; ties keep the earlier column.

    Parameters
    ----------
    k : int or "all", default=10
        Number of features to keep. ``"all"`` keeps every feature (useful in
        a grid, and when the number of features varies, as with a vocabulary
        fitted per fold). A ``k`` above the number of features keeps them all
        with a warning, as ``SelectKBest`` does.
    binarize : float or None, default=0.0
        Features are scored as the events ``x > binarize`` (0/1 presence for
        a bag of words; "the word occurs" for counts). This is an explicit,
        crude discretization of a continuous feature: when X holds
        non-integer values ``fit`` warns, because a threshold at 0 may mean
        nothing for them; bin them first or choose the threshold. None
        requires 0/1 input and raises on anything else.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features,)
    n_features_in_ : int

    Examples
    --------
    >>> X = np.array([[1, 0, 1], [1, 1, 0], [0, 0, 1], [0, 1, 0]])
    >>> MIFilter(k=1).fit(X, [1, 1, 0, 0]).get_support().tolist()
    [True, False, False]
    >>> MIFilter(k="all").fit(X, [1, 1, 0, 0]).get_support().tolist()
    [True, True, True]
    """

    def __init__(self, k=10, binarize=0.0):
        self.k = k
        self.binarize = binarize

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.target_tags.required = True
        return tags

    def fit(self, X, y):
        """Score every feature on (X, y); returns ``self``."""
        if not (isinstance(self.k, str) and self.k == "all"):
            check_int(self.k, "k", low=1, why='or k="all": it is how many features to keep')
        X, y = validate_data(self, X, y, accept_sparse="csr")
        check_classification_targets(y)
        values = X.data if sp.issparse(X) else X.ravel()
        if self.binarize is not None and np.any(values != np.round(values)):
            warnings.warn(f"MIFilter scores each feature as x > binarize={self.binarize!r}, and X "
                          "holds non-integer values: for a continuous feature that threshold may "
                          "mean nothing; bin the features first or choose binarize.",
                          UserWarning, stacklevel=2)
        if not isinstance(self.k, str) and self.k > X.shape[1]:
            warnings.warn(f"k={self.k} is greater than n_features={X.shape[1]}; all the features "
                          "are kept.", UserWarning, stacklevel=2)
        self.scores_ = mi_scores(X, y, binarize=self.binarize)
        return self

    def _get_support_mask(self):
        check_is_fitted(self)
        n_keep = self.scores_.size if isinstance(self.k, str) else min(int(self.k), self.scores_.size)
        keep = np.argsort(-self.scores_, kind="stable")[:n_keep]
        mask = np.zeros(self.scores_.shape, dtype=bool)
        mask[keep] = True
        return mask
