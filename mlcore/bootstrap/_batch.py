"""Many fits of one classifier at once: 1-NN and LDA on many training subsets in NumPy.

The bootstrap estimates and the simulation of chapter 6 fit the same
classifier to hundreds of resamples of a few dozen points; scikit-learn's
per-fit checks then cost far more than the arithmetic. :func:`fit_predict_many`
computes the predictions of every model at once for the two classifiers the
chapter uses, ``KNeighborsClassifier(n_neighbors=1)`` and
``LinearDiscriminantAnalysis()`` (binary, ``solver="svd"``), and gives the
same labels as fitting scikit-learn's estimator on each subset: where a
prediction is too close to a tie for the two computations to be sure to
agree (equidistant neighbours of two classes, a point on the LDA boundary, a
nearly singular covariance), that subset is fitted by scikit-learn itself.
Any other estimator is fitted subset by subset. Part of :mod:`mlcore.bootstrap`.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import clone

# Decisions closer to a tie than this (relative to the size of their terms)
# are left to scikit-learn: its distances and LDA coefficients round
# differently from ours, by far less than this.
_TIE = 1e-7
# sklearn's svd solver drops directions whose scaled singular value is below
# tol (1e-4 by default); near that threshold its model differs from the
# full-rank one computed here.
_RANK_MARGIN = 10.0
_CELLS = 2 ** 22   # entries of a (subsets, points, samples) block held at once


def _kind(estimator, X, y):
    """"1nn", "lda" or None: which batched computation reproduces ``estimator``."""
    if not (isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype == np.float64
            and np.isfinite(X).all() and y.ndim == 1):
        return None
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.neighbors import KNeighborsClassifier

    params = estimator.get_params(deep=False) if hasattr(estimator, "get_params") else {}
    if type(estimator) is KNeighborsClassifier:
        euclidean = (params["metric"] == "euclidean"
                     or (params["metric"] == "minkowski" and params["p"] == 2))
        if (params["n_neighbors"] == 1 and params["weights"] in ("uniform", "distance")
                and euclidean and params["metric_params"] is None):
            return "1nn"
    if type(estimator) is LinearDiscriminantAnalysis:
        if (params["solver"] == "svd" and params["priors"] is None and params["tol"] == 1e-4
                and params["shrinkage"] is None and np.unique(y).size == 2):
            return "lda"
    return None


def _weights(trains, m):
    """Copies of each sample in each training subset, shape (len(trains), m)."""
    weights = np.zeros((len(trains), m))
    for row, train in zip(weights, trains):
        row += np.bincount(train, minlength=m)
    return weights


def _one_nn(X, y, weights, X_eval):
    """1-NN labels of X_eval under every subset, and which subsets are free of near-ties."""
    distance = np.zeros((X_eval.shape[0], X.shape[0]))
    for k in range(X.shape[1]):   # one feature at a time: memory O(n_eval m)
        distance += (X_eval[:, k, None] - X[None, :, k]) ** 2
    # scikit-learn may compute |a|^2 + |b|^2 - 2ab: rounding of order eps |a|^2.
    scale = 1.0 + (X_eval ** 2).sum(1).max() + (X ** 2).sum(1).max()
    labels = np.empty((weights.shape[0], X_eval.shape[0]), dtype=y.dtype)
    safe = np.ones(weights.shape[0], dtype=bool)
    step = max(1, _CELLS // distance.size)
    for lo in range(0, weights.shape[0], step):
        inside = weights[lo:lo + step, None, :] > 0                    # (b, 1, m)
        masked = np.where(inside, distance[None], np.inf)              # (b, n_eval, m)
        nearest = masked.argmin(2)
        closest = np.take_along_axis(masked, nearest[..., None], 2)[..., 0]
        labels[lo:lo + step] = y[nearest]
        other = np.where(y[None, None, :] != labels[lo:lo + step, :, None], masked, np.inf)
        safe[lo:lo + step] = (other.min(2) - closest > _TIE * scale).all(1)
    return labels, safe


def _lda(X, y, weights, X_eval):
    """Binary LDA (pooled covariance over n, class priors from the subset) under every subset."""
    classes, code = np.unique(y, return_inverse=True)
    onehot = np.eye(2)[code]                                           # (m, 2)
    n = weights.sum(1)
    n_class = weights @ onehot                                         # (B, 2)
    safe = (n_class > 0).all(1) & (n > 2)
    n_class = np.where(n_class > 0, n_class, 1.0)
    means = np.einsum("bm,mk,md->bkd", weights, onehot, X) / n_class[..., None]
    centred = X[None] - means[:, code]                                 # (B, m, d)
    scatter = np.einsum("bm,bmd,bme->bde", weights, centred, centred)
    # scikit-learn (1.9) scales the within-class scatter by 1/n, not 1/(n - 2): the
    # covariance's scale sets how much the log prior ratio moves the boundary.
    covariance = scatter / n[:, None, None]
    # scikit-learn's rank test: singular values of the within-class data scaled
    # to unit standard deviation per feature, against tol = 1e-4.
    std = np.sqrt(np.einsum("bdd->bd", scatter) / n[:, None])
    safe &= (std > 0).all(1)
    std = np.where(std > 0, std, 1.0)
    scaled = covariance / (std[:, :, None] * std[:, None, :])
    safe &= np.linalg.eigvalsh(scaled)[:, 0] > (_RANK_MARGIN * 1e-4) ** 2
    covariance[~safe] = np.eye(X.shape[1])     # any invertible matrix: these are refitted
    direction = np.linalg.solve(covariance, (means[:, 1] - means[:, 0])[..., None])[..., 0]
    offset = (-0.5 * np.einsum("bd,bd->b", means[:, 1] + means[:, 0], direction)
              + np.log(n_class[:, 1] / n_class[:, 0]))
    terms = X_eval[None] * direction[:, None, :]                       # (B, n_eval, d)
    decision = terms.sum(2) + offset[:, None]
    size = np.abs(terms).sum(2) + np.abs(offset)[:, None] + 1.0
    safe &= (np.abs(decision) > _TIE * size).all(1)
    # A decision too close to zero for the two roundings to agree is refitted.
    return classes[(decision > 0).astype(int)], safe


def fit_predict_many(estimator, X, y, trains, X_eval):
    """Predictions on ``X_eval`` of ``estimator`` fitted on ``X[t], y[t]``, each ``t`` in ``trains``.

    Equal to ``[clone(estimator).fit(X[t], y[t]).predict(X_eval) for t in trains]``
    (a test checks it, label for label); batched in NumPy for 1-NN and binary
    LDA, with near-ties refitted by scikit-learn.

    Returns
    -------
    list of ndarray, one per training subset

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [5.0, 5.0], [6.0, 5.0]]); y = np.array([0, 0, 1, 1])
    >>> [p.tolist() for p in fit_predict_many(KNeighborsClassifier(1), X, y,
    ...                                       [np.array([0, 2]), np.array([1, 3, 3])], X)]
    [[0, 0, 1, 1], [0, 0, 1, 1]]
    """
    trains = list(trains)
    kind = _kind(estimator, X, y)
    if kind is None or not trains:
        return [clone(estimator).fit(X[t], y[t]).predict(X_eval) for t in trains]
    X_eval = np.asarray(X_eval)
    if not (X_eval.dtype == np.float64 and X_eval.ndim == 2 and np.isfinite(X_eval).all()):
        return [clone(estimator).fit(X[t], y[t]).predict(X_eval) for t in trains]
    weights = _weights(trains, X.shape[0])
    labels, safe = (_one_nn if kind == "1nn" else _lda)(X, y, weights, X_eval)
    return [labels[b] if safe[b] else clone(estimator).fit(X[t], y[t]).predict(X_eval)
            for b, t in enumerate(trains)]
