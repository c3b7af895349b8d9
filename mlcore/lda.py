"""Fisher's linear discriminant analysis (chapter 11).

Two classes: project onto :math:`w` so that the projected class means are
far apart and each class's projected spread is small, maximizing
:math:`J(w) = \\frac{w^\\top S_b w}{w^\\top S_w w}`; the maximizer is
:math:`w \\propto S_w^{-1}(\\mu_0 - \\mu_1)` (:func:`fisher_direction`).
Many classes: the directions of the generalized eigenproblem
:math:`S_b w = \\lambda S_w w`, at most :math:`N - 1` of them
(:class:`FisherLDA`). Checked against
``sklearn.discriminant_analysis.LinearDiscriminantAnalysis`` in
``tests/test_lda.py``; :class:`ProjectionFigure` is the chapter's
interactive figure. From ``_lda_shrinkage.py``: :func:`fisher_direction_exact`
(rational arithmetic, the reference for rounding errors),
:func:`coded_least_squares` (Fisher's direction as least squares),
:func:`ledoit_wolf` and :class:`ShrinkageLDA` (fewer samples than features).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.special
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import naming

from ._validation import check_array, check_int, check_labels, check_option, check_real
from .widgets import InteractiveFigure

__all__ = ["scatter_matrices", "fisher_direction", "fisher_criterion", "FisherLDA",
           "ProjectionFigure", "fisher_direction_exact", "coded_least_squares", "ledoit_wolf",
           "ShrinkageLDA"]


def _check_X_y(X, y, *, cap=True):
    """X a finite (m, n >= 1) array, within [-1e150, 1e150] if ``cap`` (scatters square it);
    y m class labels (not continuous values)."""
    X = check_array(X, "X", ndim=2, min_length=1)
    if X.shape[1] == 0:
        raise ValueError(f"X must have at least one column (feature), got shape {X.shape}.")
    if cap and np.abs(X).max(initial=0.0) > 1e150:
        raise ValueError(f"X must lie within [-1e150, 1e150] (its scatter matrices would "
                         f"overflow), got largest |x| {np.abs(X).max():g}; standardize X.")
    y = check_labels(y, "y", n_samples=len(X))
    if y.dtype.kind == "f" and not np.array_equal(y, np.round(y)):
        raise ValueError(f"y must hold class labels, got continuous values (e.g. {float(y[y != np.round(y)][0]):g}); "
                         "discretize y first.")
    return X, y


def _check_two_class(X, y, *, cap=True):
    X, y = _check_X_y(X, y, cap=cap)
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(f"y must hold exactly two classes, got {classes.size} ({classes.tolist()[:5]}).")
    return X, y, classes


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
        if n_classes == 2:
            self.coef_ = (coef[1] - coef[0])[None, :]
            self.intercept_ = np.array([intercept[1] - intercept[0]])
        else:
            self.coef_, self.intercept_ = coef, intercept
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
        check_is_fitted(self)
        with naming("X"):
            X = validate_data(self, X, dtype=np.float64, reset=False)
        scores = X @ self.coef_.T + self.intercept_
        return scores.ravel() if self.classes_.size == 2 else scores

    def predict_proba(self, X):
        """Posterior class probabilities of the shared-covariance Gaussian model.

        The softmax of the discriminant scores (for two classes, the sigmoid of
        the log-odds), columns in the order of ``classes_``; equal to
        scikit-learn's ``LinearDiscriminantAnalysis.predict_proba``.
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            positive = scipy.special.expit(scores)
            return np.column_stack([1 - positive, positive])
        return scipy.special.softmax(scores, axis=1)

    def predict_log_proba(self, X):
        """The logarithm of :meth:`predict_proba`, computed without underflow."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return np.column_stack([-np.logaddexp(0, scores), -np.logaddexp(0, -scores)])
        return scipy.special.log_softmax(scores, axis=1)

    def predict(self, X):
        """The class with the largest discriminant score."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]


class ProjectionFigure(InteractiveFigure):
    """Rotate a projection direction: the projected classes and Fisher's criterion.

    Left, the two classes in the plane and the line of direction
    :math:`w = (\\cos\\theta, \\sin\\theta)` with each point's projection;
    middle, the projected values of each class (histograms); right,
    :math:`J(\\theta)` over all directions with the current one and
    Fisher's optimum marked. Control: ``angle`` in degrees. The compute is
    :func:`fisher_criterion` and :func:`fisher_direction`.

    Parameters
    ----------
    X, y : array_like, optional
        Two features, two classes; by default watermelon 3.0α (density and
        sugar content).

    Examples
    --------
    >>> figure = ProjectionFigure()
    >>> figure.render(angle=45)[:4] == b"\\x89PNG"
    True
    """

    benchmark = ("angle", [0, 30, 60, 90, 120, 150, 180])
    figsize = (10.5, 3.5)

    def __init__(self, X=None, y=None, *, figsize=None, dpi=None):
        if X is None or y is None:
            from .datasets import read_data_file

            melons = read_data_file("watermelon3a.csv")
            X, y = melons.iloc[:, 1:3].to_numpy(float), (melons.iloc[:, 3] == "是").to_numpy(int)
        self.X, self.y, self.classes = _check_two_class(X, y)
        if self.X.shape[1] != 2:
            raise ValueError(f"X must have two features to be drawn, got {self.X.shape[1]}.")
        self.centre = self.X.mean(axis=0)
        self.angles = np.arange(0, 181)
        radians = np.deg2rad(self.angles)
        self.J = fisher_criterion(np.vstack([np.cos(radians), np.sin(radians)]), self.X, self.y)
        w = fisher_direction(self.X, self.y)
        self.best_angle = float(np.rad2deg(np.arctan2(w[1], w[0])) % 180)
        self.best_J = fisher_criterion(w, self.X, self.y)
        span = np.ptp(self.X @ np.eye(2), axis=0).max()
        self.half_length = 0.75 * span
        super().__init__(figsize=figsize, dpi=dpi)

    def controls(self):
        import ipywidgets as widgets

        return {"angle": widgets.IntSlider(value=0, min=0, max=180, step=5,
                                           description="angle θ (°)")}

    def setup(self, fig):
        self.ax_data, self.ax_hist, self.ax_J = fig.subplots(1, 3)
        pad = 0.1 * np.ptp(self.X, axis=0)
        for k, (colour, marker) in enumerate([("C0", "o"), ("C3", "^")]):
            mask = self.y == self.classes[k]
            self.ax_data.scatter(*self.X[mask].T, c=colour, marker=marker, s=25, zorder=3,
                                 label=f"class {self.classes[k]}")
        (self.line,) = self.ax_data.plot([], [], "k-", lw=1)
        self.feet = self.ax_data.scatter([], [], s=12, c="0.4", zorder=2)
        self.ax_data.set(xlim=(self.X[:, 0].min() - pad[0], self.X[:, 0].max() + pad[0]),
                         ylim=(self.X[:, 1].min() - pad[1], self.X[:, 1].max() + pad[1]),
                         xlabel="feature 1", ylabel="feature 2", aspect="equal")
        self.ax_data.legend(fontsize=7, loc="upper left")
        reach = np.linalg.norm(self.X - self.centre, axis=1).max() * 1.05
        self.edges = np.linspace(-reach, reach, 21)
        self.hists = [self.ax_hist.stairs(np.zeros(20), self.edges, color=c, fill=True, alpha=0.5)
                      for c in ("C0", "C3")]
        self.ax_hist.set(xlim=(-reach, reach), ylim=(0, max(np.bincount(np.unique(self.y, return_inverse=True)[1])) * 0.8),
                         xlabel="projection $w^\\top(x - \\bar x)$", ylabel="count")
        self.ax_J.plot(self.angles, self.J, "C2")
        self.ax_J.axvline(self.best_angle, color="C2", ls=":", label=f"Fisher: {self.best_angle:.1f}°")
        (self.J_dot,) = self.ax_J.plot([], [], "o", color="k")
        self.ax_J.set(xlim=(0, 180), xlabel="angle θ (degrees)", ylabel="J(θ)")
        self.ax_J.legend(fontsize=7)
        self.caption = self.ax_hist.text(0.5, 1.02, " ", transform=self.ax_hist.transAxes,
                                         ha="center", va="bottom", fontsize=9)

    def update(self, angle):
        angle = check_real(angle, "angle")
        w = np.array([np.cos(np.deg2rad(angle)), np.sin(np.deg2rad(angle))])
        ends = self.centre + np.outer([-self.half_length, self.half_length], w)
        self.line.set_data(ends[:, 0], ends[:, 1])
        t = (self.X - self.centre) @ w
        self.feet.set_offsets(self.centre + np.outer(t, w))
        for k, hist in enumerate(self.hists):
            counts, _ = np.histogram(t[self.y == self.classes[k]], bins=self.edges)
            hist.set_data(counts.astype(float), self.edges)
        J = float(fisher_criterion(w, self.X, self.y))
        self.J_dot.set_data([angle % 180], [J])
        self.caption.set_text(f"θ = {angle:.0f}°: J = {J:.3f} (Fisher's best {self.best_J:.3f})")

    def dynamic_artists(self):
        return [self.line, self.feet, *self.hists, self.J_dot, self.caption]


from ._lda_shrinkage import (ShrinkageLDA, coded_least_squares, fisher_direction_exact,  # noqa: E402
                             ledoit_wolf)
