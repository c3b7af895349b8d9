"""Learning with imbalanced classes: threshold rescaling, undersampling, EasyEnsemble,
SMOTE and the F1-best threshold (private; the public face is :mod:`mlcore.imbalance`,
whose docstring describes them).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.neighbors import NearestNeighbors
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import as_random_state as check_random_state  # every seed mlcore accepts
from .._validation import check_array, check_estimator_object, check_int, check_real, naming
from ._checks import _check_two_class

__all__ = ["rescale_threshold", "random_undersample", "smote", "EasyEnsembleClassifier",
           "undersampling_correction", "best_f1_threshold"]


def _check_Xy(X, y):
    """Any finite X (nothing here squares it), two classes in y."""
    X, y, classes = _check_two_class(X, y, cap=False)
    return X, y, classes, np.array([np.sum(y == c) for c in classes])


def _check_proba(p, name):
    p = np.asarray(p, dtype=float) if not isinstance(p, (str, bytes)) else None
    if p is None or p.ndim != 1 or not np.all(np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError(f"{name} must be a 1-D array of probabilities in [0, 1].")
    return p


def rescale_threshold(y_proba, n_positive, n_negative):
    """Predict positive when the odds exceed the training set's class ratio.

    A classifier's probability :math:`p` reflects the class proportions it was
    trained on. With :math:`m^+` positives and :math:`m^-` negatives, the
    rescaled rule predicts positive when
    :math:`\\frac{p}{1 - p} > \\frac{m^+}{m^-}` (instead of :math:`> 1`): the
    threshold moves from ½ to :math:`m^+/(m^+ + m^-)`, as if the classes had
    been balanced.

    Parameters
    ----------
    y_proba : array_like of shape (m,)
        Predicted probabilities of the positive class, in [0, 1].
    n_positive, n_negative : int
        Class counts of the *training* set, >= 1.

    Returns
    -------
    ndarray of shape (m,), int
        1 for positive, 0 for negative.

    Examples
    --------
    >>> rescale_threshold([0.05, 0.15, 0.6], n_positive=10, n_negative=90).tolist()
    [0, 1, 1]
    """
    p = _check_proba(y_proba, "y_proba")
    n_positive = check_int(n_positive, "n_positive", low=1)
    n_negative = check_int(n_negative, "n_negative", low=1)
    return (p * n_negative > (1 - p) * n_positive).astype(int)


def random_undersample(X, y, *, random_state=None):
    """Keep every minority sample and as many majority samples, drawn without replacement.

    Returns
    -------
    X_resampled, y_resampled : ndarray
        The minority samples first in their order, then the drawn majority ones.

    Examples
    --------
    >>> X = np.arange(10.0)[:, None]; y = np.array([0] * 8 + [1] * 2)
    >>> _, y_small = random_undersample(X, y, random_state=0)
    >>> np.bincount(y_small).tolist()
    [2, 2]
    """
    X, y, classes, counts = _check_Xy(X, y)
    rng = check_random_state(random_state)
    order = np.argsort(counts, kind="stable")             # equal counts: the first is "minority"
    minority, majority = classes[order[0]], classes[order[1]]
    keep = np.flatnonzero(y == minority)
    drawn = rng.choice(np.flatnonzero(y == majority), size=keep.size, replace=False)
    rows = np.r_[keep, np.sort(drawn)]
    return X[rows], y[rows]


def smote(X, y, k_neighbors=5, random_state=None):
    """SMOTE: oversample the minority class by interpolating between minority neighbours.

    Each synthetic point is :math:`x_i + u\\,(x_{nn} - x_i)` with :math:`x_i` a
    minority sample drawn at random, :math:`x_{nn}` one of its
    ``k_neighbors`` nearest *minority* neighbours drawn at random, and
    :math:`u \\sim U(0, 1)`: it lies on the segment between them. Enough
    points are added to balance the classes. For an integer seed the draws,
    and so the points, are those of ``imblearn.over_sampling.SMOTE``.

    Parameters
    ----------
    X : array_like of shape (m, n)
    y : array_like of shape (m,), two classes
    k_neighbors : int, default=5
        Neighbours per minority sample, 1 <= k_neighbors < minority count.
    random_state : int, RandomState instance or None

    Returns
    -------
    X_resampled, y_resampled : ndarray
        The original samples, then the synthetic minority ones.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(30, 2)); y = np.array([0] * 24 + [1] * 6)
    >>> X_new, y_new = smote(X, y, k_neighbors=3, random_state=0)
    >>> X_new.shape, np.bincount(y_new).tolist()
    ((48, 2), [24, 24])
    """
    X, y, classes, counts = _check_Xy(X, y)
    if np.abs(X).max() > 8e307:
        raise ValueError(f"X must lie within [-8e307, 8e307] for SMOTE (the differences "
                         f"x_nn - x would overflow), got largest |x| {np.abs(X).max():g}.")
    minority = classes[np.argmin(counts)]
    n_minority, n_new = counts.min(), counts.max() - counts.min()
    k = check_int(k_neighbors, "k_neighbors", low=1, high=n_minority - 1,
                  why=f"each of the {n_minority} minority samples needs that many minority neighbours")
    rng = check_random_state(random_state)
    X_min = X[y == minority]
    peak = np.abs(X_min).max()
    # Squared distances would overflow (or underflow) at extreme scales: search on X scaled
    # by a power of two, which keeps every distance's ordering exactly.
    # ldexp, not X * 2.0**-e: for subnormal X, 2.0**1063 itself overflows to inf.
    exponent = int(np.floor(np.log2(peak))) if (peak > 1e150 or 0 < peak < 1e-150) else 0
    scaled = np.ldexp(X_min, -exponent) if exponent else X_min
    neighbours = NearestNeighbors(n_neighbors=k + 1).fit(scaled).kneighbors(scaled, return_distance=False)[:, 1:]
    picks = rng.randint(low=0, high=neighbours.size, size=n_new)
    steps = rng.uniform(size=n_new)[:, None]
    rows, cols = np.floor_divide(picks, k), np.mod(picks, k)
    synthetic = X_min[rows] + steps * (X_min[neighbours[rows, cols]] - X_min[rows])
    return np.vstack([X, synthetic]), np.r_[y, np.full(n_new, minority, dtype=y.dtype)]


class EasyEnsembleClassifier(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """EasyEnsemble-style: the average of learners each trained on all minority samples and a fresh majority subset.

    Undersampling throws majority samples away; training ``n_subsets``
    learners on independent undersampled sets and averaging their
    probabilities uses (nearly) all of them, the idea of EasyEnsemble
    (Liu, Wu and Zhou, 2009), here with any base learner. (Their
    EasyEnsemble, like imbalanced-learn's ``EasyEnsembleClassifier``, trains
    AdaBoost on each subset.) The averaged probabilities are those of a
    balanced world: correct them with :func:`undersampling_correction`, or
    threshold them at ½ for balanced error.

    Parameters
    ----------
    estimator : classifier with ``predict_proba``
    n_subsets : int, default=10
        Number of undersampled training sets, >= 1.
    random_state : int, RandomState instance or None

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    estimators_ : list

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2)); y = (X[:, 0] > 1.3).astype(int)
    >>> model = EasyEnsembleClassifier(LogisticRegression(), n_subsets=5, random_state=0).fit(X, y)
    >>> model.predict_proba(X[:2]).shape
    (2, 2)
    """

    def __init__(self, estimator, *, n_subsets=10, random_state=None):
        self.estimator = estimator
        self.n_subsets = n_subsets
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def fit(self, X, y):
        """Fit one learner per undersampled training set; returns ``self``."""
        n_subsets = check_int(self.n_subsets, "n_subsets", low=1, high=10**6)
        check_estimator_object(self.estimator, "estimator", ("fit",))
        with naming("X or y"):
            X, y = validate_data(self, X, y)
        with naming("y"):
            check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size != 2:
            raise ValueError(f"Only binary classification is supported: y must hold two classes, "
                             f"got {self.classes_.size} class{'' if self.classes_.size == 1 else 'es'}.")
        rng = check_random_state(self.random_state)
        self.estimators_ = []
        for _ in range(n_subsets):
            X_sub, y_sub = random_undersample(X, y, random_state=rng)
            self.estimators_.append(clone(self.estimator).fit(X_sub, y_sub))
        return self

    def predict_proba(self, X):
        """The mean of the learners' probabilities, columns in the order of ``classes_``."""
        check_is_fitted(self)
        with naming("X"):
            X = validate_data(self, X, reset=False)
        return np.mean([e.predict_proba(X) for e in self.estimators_], axis=0)

    def predict(self, X):
        """The class with the larger mean probability."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


def undersampling_correction(p_balanced, beta):
    """Map probabilities learned on undersampled data back to the original class ratio.

    Keeping every positive and a share :math:`\\beta` of the negatives
    multiplies the negatives' prior by :math:`\\beta` and leaves the
    class-conditional densities unchanged (a prior shift). Bayes' rule then
    gives the original posterior from the undersampled one :math:`p_s`:

    .. math:: p = \\frac{\\beta p_s}{\\beta p_s + (1 - p_s)}

    (Dal Pozzolo, Caelen, Johnson and Bontempi, 2015). For a balanced
    undersample :math:`\\beta = m^+/m^-`, and thresholding :math:`p` at
    :math:`m^+/m` is thresholding :math:`p_s` at ½: undersampling, then
    correcting, is rescaling.

    Parameters
    ----------
    p_balanced : array_like of shape (m,)
        Positive-class probabilities of a model trained on the undersampled data.
    beta : float in (0, 1]
        Share of the negatives kept (:math:`m^+/m^-` for a balanced undersample).

    Returns
    -------
    ndarray of shape (m,)

    Examples
    --------
    >>> undersampling_correction([0.5, 0.9], beta=0.1).round(4).tolist()
    [0.0909, 0.4737]
    """
    p = _check_proba(p_balanced, "p_balanced")
    beta = check_real(beta, "beta", low=0, high=1, low_open=True,
                      why="the share of negatives kept by undersampling")
    # beta*p + (1 - p), not beta*p - p + 1: the latter cancels for small beta
    # and p near 1 (p = 1, beta = 1e-17 gave inf). Both terms are >= 0 and at
    # least one is > 0, so the result is always in [0, 1].
    return beta * p / (beta * p + (1 - p))


def best_f1_threshold(y_true, y_score):
    """The score threshold ``t`` whose rule ``y_score >= t`` has the largest F1 on these data.

    F1 is not a threshold-free measure and no remedy for imbalance targets
    it; the threshold that maximizes it has to be found, on training data
    (inside the training folds when it is evaluated by cross-validation).
    Ties go to the largest threshold.

    Parameters
    ----------
    y_true : array_like of shape (m,), labels 0/1 (1 = positive)
    y_score : array_like of shape (m,)

    Returns
    -------
    threshold : float
        An exact ``int`` for integer scores beyond :math:`2^{53}`, which a
        float cannot tell apart.
    f1 : float

    Examples
    --------
    >>> best_f1_threshold([0, 0, 1, 0, 1, 1], [0.1, 0.2, 0.3, 0.35, 0.8, 0.9])
    (0.3, 0.8571428571428571)
    """
    score = check_array(y_score, "y_score", ndim=1, min_length=1)
    truth = check_array(y_true, "y_true", ndim=1, length=len(score))
    if not np.isin(truth, [0, 1]).all() or truth.sum() == 0:
        raise ValueError("y_true must hold labels 0 and 1 with at least one positive (1).")
    raw = np.asarray(y_score)
    exact = raw.dtype.kind in "iu" and raw.size and np.abs(raw).max() > 2**53
    if exact:     # float64 would merge distinct integers beyond 2**53 into false ties
        score = raw
    order = np.argsort(score, kind="stable")[::-1]       # descending; no negation (int overflow)
    s, t = score[order], truth[order]
    last = np.r_[s[1:] != s[:-1], True]                  # the end of each run of tied scores
    tp = np.cumsum(t)[last]
    predicted = np.arange(1, len(s) + 1)[last]
    f1 = 2 * tp / (predicted + truth.sum())
    best = int(np.argmax(f1))                            # first maximum: the largest threshold
    threshold = s[last][best]
    return (int(threshold) if exact else float(threshold)), float(f1[best])
