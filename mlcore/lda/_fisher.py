"""Fisher's linear discriminant analysis: the scatter matrices, the two-class direction,
the criterion J(w) and the estimator :class:`FisherLDA` (private; the public face is
:mod:`mlcore.lda`).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.special
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_array, check_int, check_option, check_real, naming
from ._checks import _check_two_class, _check_X_y
from ._scores import _collapse_two_classes, _labels, _linear_scores, _probabilities

__all__ = ["scatter_matrices", "fisher_direction", "fisher_criterion", "FisherLDA"]


def scatter_matrices(X, y):
    """The within-class and between-class scatter matrices :math:`S_w` and :math:`S_b`.

    :math:`S_w = \\sum_k \\sum_{x \\in X_k} (x - \\mu_k)(x - \\mu_k)^\\top` and
    :math:`S_b = \\sum_k m_k (\\mu_k - \\mu)(\\mu_k - \\mu)^\\top` (:math:`\\mu` the
    overall mean, :math:`m_k` the class sizes), so that the total scatter
    :math:`S_t = \\sum_i (x_i - \\mu)(x_i - \\mu)^\\top = S_w + S_b`.

    Returns
    -------
    S_w, S_b : ndarray of shape (n, n)

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [2.0, 2.0]])
    >>> S_w, S_b = scatter_matrices(X, [0, 0, 1, 1])
    >>> S_w.tolist(), S_b.tolist()
    ([[4.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 4.0]])
    """
    X, y = _check_X_y(X, y)
    classes, index = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"y must hold at least two classes (S_b needs two class means), got "
                         f"{classes.size} ({classes.tolist()[:5]}).")
    counts = np.bincount(index)
    means = np.array([X[index == k].mean(axis=0) for k in range(classes.size)])
    centred = X - means[index]
    overall = X.mean(axis=0)
    between = (means - overall).T * counts @ (means - overall)
    return centred.T @ centred, between


def fisher_direction(X, y):
    """Fisher's two-class direction :math:`w \\propto S_w^{-1}(\\mu_0 - \\mu_1)`, unit length.

    Computed without forming :math:`S_w`: with :math:`Z` the class-centred
    data (so :math:`S_w = Z^\\top Z`) and its thin SVD :math:`Z = U\\Sigma V^\\top`,
    :math:`S_w^{-1} = V\\Sigma^{-2}V^\\top`. Forming :math:`S_w` would square
    the data's condition number before any solve or SVD of it; the SVD of
    :math:`Z` does not (the route of ``FisherLDA(solver="svd")`` and
    scikit-learn's ``solver="svd"``). The columns of :math:`Z` are first
    divided by their within-class spread and the answer mapped back, so the
    direction is equivariant under a change of units of any feature.

    When :math:`S_w` is singular (numerical rank below ``n``: singular
    values of the standardized :math:`Z` below ``max(m, n) * eps`` times the
    largest), :math:`J` is unbounded if :math:`\\mu_0 - \\mu_1` has a component
    in the null space of :math:`S_w` (a direction along which neither class
    varies but the means differ); the direction returned is then that
    component, the limit of :math:`(S_w + \\epsilon I)^{-1}(\\mu_0 - \\mu_1)` as
    :math:`\\epsilon \\to 0`. Otherwise it is the pseudo-inverse solution, the
    same limit. ``classes`` are ordered as ``np.unique(y)``: :math:`\\mu_0` is
    the first class's mean.

    Raises
    ------
    ValueError
        If the two class means coincide (to rounding): no direction separates them.

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [1.0, 0.4], [0.4, 0.1], [0.0, 1.0], [1.0, 1.6], [0.6, 1.1]])
    >>> fisher_direction(X, [0, 0, 0, 1, 1, 1]).round(3)
    array([ 0.435, -0.9  ])
    >>> w = fisher_direction(X * [1.0, 1e-6], [0, 0, 0, 1, 1, 1])   # feature 2 in other units
    >>> bool(np.allclose(w, [0.435, -0.9e6] / np.hypot(0.435, 0.9e6), rtol=1e-2))
    True
    """
    X, y, classes = _check_two_class(X, y, cap=False)
    # Work on each column divided by its largest magnitude and map the
    # direction back at the end (it is unit-equivariant): the class means of
    # entries near 1e308 overflow to inf in X's own units.
    units = np.abs(X).max(axis=0)
    units[units == 0] = 1.0
    X = X / units
    first = y == classes[0]
    mean0, mean1 = X[first].mean(axis=0), X[~first].mean(axis=0)
    difference = mean0 - mean1
    centred = X - np.where(first[:, None], mean0, mean1)
    # Within-class spread per column, computed without squaring tiny or huge numbers.
    peak = np.abs(centred).max(axis=0)
    peak[peak == 0] = 1.0
    scale = peak * np.sqrt(np.mean((centred / peak) ** 2, axis=0))
    scale[scale == 0] = peak[scale == 0]
    rounding = 16 * np.finfo(float).eps * np.maximum(np.abs(mean0), np.abs(mean1))
    if np.all(np.abs(difference) <= rounding):
        raise ValueError("the two class means coincide (to rounding); no direction separates them.")
    d = difference / scale
    _, s, Vt = np.linalg.svd(centred / scale, full_matrices=False)
    rank = int(np.sum(s > max(X.shape) * np.finfo(float).eps * max(s[0], np.finfo(float).tiny)))
    V = Vt[:rank].T
    inside = V @ (V.T @ d)
    outside = d - inside
    if rank < X.shape[1] and np.linalg.norm(outside) > 1e-8 * np.linalg.norm(d):
        w = outside                                   # zero within-class spread: J is unbounded
    else:
        w = V @ ((V.T @ d) / s[:rank] ** 2)
    w = (w / np.abs(w).max()) * (scale.min() / scale)   # back to X's units, no overflow
    w = (w / np.abs(w).max()) * (units.min() / units)
    return w / np.linalg.norm(w)


def fisher_criterion(W, X, y):
    """Fisher's criterion :math:`J(w) = \\frac{w^\\top S_b w}{w^\\top S_w w}` for each column of ``W``.

    For two classes :math:`S_b = (\\mu_0 - \\mu_1)(\\mu_0 - \\mu_1)^\\top` as in the
    two-class derivation (the book's convention), so :math:`J` is the squared
    distance of the projected means over the projected within-class scatter.

    Parameters
    ----------
    W : array_like of shape (n,) or (n, p)
        One direction, or ``p`` directions as columns.

    Returns
    -------
    float or ndarray of shape (p,)

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [1.0, 0.4], [0.4, 0.1], [0.0, 1.0], [1.0, 1.6], [0.6, 1.1]])
    >>> y = [0, 0, 0, 1, 1, 1]
    >>> w = fisher_direction(X, y)
    >>> bool(fisher_criterion(w, X, y) >= fisher_criterion([[0.0, 1.0], [1.0, 1.0]], X, y).max())
    True
    """
    X, y, classes = _check_two_class(X, y)
    W = check_array(W, "W", ndim=(1, 2))
    single = W.ndim == 1
    W = W[:, None] if single else W
    if W.shape[0] != X.shape[1]:
        raise ValueError(f"W must have {X.shape[1]} rows (one per feature), got {W.shape[0]}.")
    peak = np.abs(W).max(axis=0)
    if np.any(peak == 0):
        raise ValueError("W must not have an all-zero column: J is undefined for w = 0.")
    W = W / peak                                 # J does not depend on the scale of w
    top = np.abs(X).max()
    X = X / top if top > 0 else X                # nor on the scale of X: tiny X no longer underflows
    first = y == classes[0]
    mean0, mean1 = X[first].mean(axis=0), X[~first].mean(axis=0)
    centred = X - np.where(first[:, None], mean0, mean1)
    # w^T S_w w as ||Z w||^2 from the class-centred data Z: forming S_w first would lose
    # digits to cancellation when S_w is ill-conditioned.
    numerator, denominator = ((mean0 - mean1) @ W) ** 2, np.sum((centred @ W) ** 2, axis=0)
    if np.any((numerator == 0) & (denominator == 0)):
        raise ValueError("J is undefined (0/0) for some direction: along it the class means "
                         "coincide and neither class varies (e.g. constant X).")
    with np.errstate(divide="ignore"):
        J = numerator / denominator              # +inf: no within-class spread, distinct means
    return float(J[0]) if single else J


class FisherLDA(ClassifierMixin, TransformerMixin, BaseEstimator):
    """Linear discriminant analysis: Fisher's projection and the shared-covariance classifier.

    ``transform`` projects onto the directions that maximize the ratio of
    between-class to within-class scatter (at most ``n_classes - 1``);
    ``predict`` is the Bayes rule for Gaussian classes with one shared
    covariance, which is linear and agrees with the projection.

    Parameters
    ----------
    n_components : int or None, default=None
        Directions kept by ``transform``, at most ``min(n_classes - 1, n_features)``;
        None keeps them all.
    solver : {"svd", "eigen"}, default="svd"
        ``"svd"``: whiten by the SVD of the centred data, then the SVD of the
        whitened class means (no :math:`S_w^{-1}` formed, works when
        :math:`S_w` is singular). ``"eigen"``: the generalized eigenproblem
        :math:`S_b w = \\lambda S_w w`; needs :math:`S_w` invertible.
    tol : float, default=1e-4
        Singular values below ``tol`` (relative) count as zero (``"svd"``).

    Attributes
    ----------
    classes_, priors_, means_, xbar_ : ndarray
        Classes, their shares, their means and the prior-weighted overall mean.
    scalings_ : ndarray of shape (n_features, n_directions)
        The discriminant directions as columns (most discriminative first).
    explained_variance_ratio_ : ndarray
        Share of the between-class scatter (in whitened units) along each direction.
    coef_, intercept_ : ndarray
        The linear decision function, shaped as scikit-learn's.
    within_scatter_, between_scatter_ : ndarray of shape (n_features, n_features)
        :math:`S_w` and :math:`S_b` of :func:`scatter_matrices`.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> lda = FisherLDA(n_components=2).fit(X, y)
    >>> lda.transform(X).shape, round(float(lda.score(X, y)), 3)
    ((150, 2), 0.98)
    >>> lda.explained_variance_ratio_.round(4)
    array([0.9912, 0.0088])
    >>> lda.predict_proba(X[:1]).round(3)
    array([[1., 0., 0.]])
    """

    def __init__(self, n_components=None, *, solver="svd", tol=1e-4):
        self.n_components = n_components
        self.solver = solver
        self.tol = tol

    def fit(self, X, y):
        """Compute the class means, the scatter matrices and the directions; returns ``self``."""
        check_option(self.solver, "solver", ["svd", "eigen"])
        tol = check_real(self.tol, "tol", low=0)
        with naming("X or y"):
            X, y = validate_data(self, X, y, dtype=np.float64)
        X, _ = _check_X_y(X, y)
        with naming("y"):
            check_classification_targets(y)
        self.classes_, index = np.unique(y, return_inverse=True)
        n_samples, n_features = X.shape
        n_classes = self.classes_.size
        if n_classes < 2:
            raise ValueError(f"y has only one class (label {self.classes_[0]!r}); LDA needs two or more.")
        if n_samples <= n_classes:
            raise ValueError(f"LDA needs more samples than classes, got {n_samples} samples and "
                             f"{n_classes} classes.")
        max_components = min(n_classes - 1, n_features)
        if self.n_components is None:
            self._n_components = max_components
        else:
            self._n_components = check_int(self.n_components, "n_components", low=1,
                                           high=max_components,
                                           why="LDA has at most min(n_classes - 1, n_features) directions")
        counts = np.bincount(index)
        self.priors_ = counts / n_samples
        self.means_ = np.array([X[index == k].mean(axis=0) for k in range(n_classes)])
        self.xbar_ = self.priors_ @ self.means_
        self.within_scatter_, self.between_scatter_ = scatter_matrices(X, y)
        centred = X - self.means_[index]
        # Whitening: scale each feature by its within-class sd, then the SVD of
        # the centred data gives S_w^(-1/2) without forming or inverting S_w.
        peak = np.abs(centred).max(axis=0)       # without squaring tiny values (X ~ 1e-170)
        peak[peak == 0] = 1.0
        std = peak * np.sqrt(np.mean((centred / peak) ** 2, axis=0))
        std[std == 0] = 1.0
        _, S, Vt = scipy.linalg.svd(centred / std / np.sqrt(n_samples), full_matrices=False)
        rank = int(np.sum(S > tol))
        if rank == 0:
            raise ValueError(f"X has no direction whose within-class singular value exceeds "
                             f"tol={tol:g} (largest {S.max(initial=0.0):g}): lower tol, or "
                             "rescale X (values beyond 1e150 overflow).")
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            whitening = (Vt[:rank] / std).T / S[:rank]
        if not np.isfinite(whitening).all():     # 1 / std overflows: subnormal spreads
            raise ValueError(f"X varies too little within classes (sd {std.min():g}) for its "
                             "whitening to be finite; rescale X (e.g. standardize it).")
        centres = (np.sqrt(n_samples * self.priors_ / (n_classes - 1))
                   * (self.means_ - self.xbar_).T).T @ whitening
        _, S_between, Vt_between = scipy.linalg.svd(centres, full_matrices=False)
        keep = int(np.sum(S_between > tol * S_between[0])) if S_between[0] > 0 else 0
        if keep == 0:
            raise ValueError("all class means coincide; there is no discriminant direction.")
        ratio = S_between**2 / np.sum(S_between**2)
        if self.solver == "svd":
            self.scalings_ = whitening @ Vt_between.T[:, :keep]
            self.explained_variance_ratio_ = ratio[:max_components]
        else:
            covariance = self.within_scatter_ / n_samples
            if np.linalg.cond(covariance) > 1e12:
                raise ValueError("the within-class scatter S_w is singular (a constant or duplicated "
                                 "feature, or fewer samples than features); use solver='svd'.")
            values, vectors = scipy.linalg.eigh(self.between_scatter_ / n_samples, covariance)
            order = np.argsort(values)[::-1]
            self.scalings_ = vectors[:, order][:, :keep]
            self.explained_variance_ratio_ = (values[order] / values.sum())[:max_components]
        # The shared-covariance Gaussian classifier, in whitened coordinates.
        whitened_means = (self.means_ - self.xbar_) @ whitening @ Vt_between.T[:, :keep]
        basis = whitening @ Vt_between.T[:, :keep]
        coef = whitened_means @ basis.T
        intercept = -0.5 * np.sum(whitened_means**2, axis=1) + np.log(self.priors_) - self.xbar_ @ coef.T
        self.coef_, self.intercept_ = _collapse_two_classes(coef, intercept)
        return self

    def transform(self, X):
        """Project onto the first ``n_components`` discriminant directions."""
        check_is_fitted(self)
        with naming("X"):
            X = validate_data(self, X, dtype=np.float64, reset=False)
        centred = X - self.xbar_ if self.solver == "svd" else X
        return (centred @ self.scalings_)[:, : self._n_components]

    def decision_function(self, X):
        """The linear discriminant scores (for two classes, the log-odds of ``classes_[1]``)."""
        return _linear_scores(self, X)

    def predict_proba(self, X):
        """Posterior class probabilities of the shared-covariance Gaussian model.

        The softmax of the discriminant scores (for two classes, the sigmoid of
        the log-odds), columns in the order of ``classes_``; equal to
        scikit-learn's ``LinearDiscriminantAnalysis.predict_proba``.
        """
        return _probabilities(self.decision_function(X))

    def predict_log_proba(self, X):
        """The logarithm of :meth:`predict_proba`, computed without underflow."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return np.column_stack([-np.logaddexp(0, scores), -np.logaddexp(0, -scores)])
        return scipy.special.log_softmax(scores, axis=1)

    def predict(self, X):
        """The class with the largest discriminant score."""
        scores = self.decision_function(X)    # first: it raises NotFittedError before classes_ is read
        return _labels(self.classes_, scores)
