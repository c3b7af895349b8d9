"""LDA beyond the scatter matrices (chapter 11): the exact direction in rational
arithmetic, Fisher's direction as least squares on coded targets, and
shrinkage LDA (Ledoit-Wolf) for fewer samples than features.

Private; the public face is :mod:`mlcore.lda`. Checked against scikit-learn's
``LedoitWolf`` and ``LinearDiscriminantAnalysis(solver="lsqr", shrinkage="auto")``
in ``tests/test_lda.py``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import scipy.linalg
import scipy.special
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from .._validation import check_array, check_real_or_option, naming
from ._checks import _check_two_class
from ._scores import _collapse_two_classes, _labels, _linear_scores, _probabilities

__all__ = ["fisher_direction_exact", "coded_least_squares", "ledoit_wolf", "ShrinkageLDA"]


def fisher_direction_exact(X, y):
    """Fisher's two-class direction :math:`S_w^{-1}(\\mu_0 - \\mu_1)` in exact rational arithmetic.

    Every float is an exact rational, so the means, :math:`S_w` and the solve
    (Gauss-Jordan on :class:`fractions.Fraction`) carry no rounding; only the
    final unit vector is rounded to floats. A reference for measuring the
    rounding error of floating-point routes; slow (use a few features only).

    Returns
    -------
    ndarray of shape (n,)
        Unit length; :math:`\\mu_0` is the mean of ``np.unique(y)[0]``.

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [1.0, 0.4], [0.4, 0.1], [0.0, 1.0], [1.0, 1.6], [0.6, 1.1]])
    >>> fisher_direction_exact(X, [0, 0, 0, 1, 1, 1]).round(3)
    array([ 0.435, -0.9  ])
    """
    X, y, classes = _check_two_class(X, y, cap=False)
    n = X.shape[1]
    if n > 20:
        raise ValueError(f"X must have at most 20 columns for the exact solve, got {n}.")
    rows = [[Fraction(v) for v in row] for row in X.tolist()]
    means = []
    for c in classes:
        members = [rows[i] for i in np.flatnonzero(y == c)]
        means.append([sum(r[j] for r in members) / len(members) for j in range(n)])
    S = [[Fraction(0)] * n for _ in range(n)]
    for row, label in zip(rows, y):
        centred = [row[j] - means[int(label == classes[1])][j] for j in range(n)]
        for i in range(n):
            for j in range(n):
                S[i][j] += centred[i] * centred[j]
    M = [S[i] + [means[0][i] - means[1][i]] for i in range(n)]
    for i in range(n):                                       # Gauss-Jordan, exact
        pivot = next((r for r in range(i, n) if M[r][i] != 0), None)
        if pivot is None:
            raise ValueError("S_w is singular: the exact direction is not unique.")
        M[i], M[pivot] = M[pivot], M[i]
        for r in range(n):
            if r != i and M[r][i] != 0:
                factor = M[r][i] / M[i][i]
                M[r] = [a - factor * b for a, b in zip(M[r], M[i])]
    w = [M[i][n] / M[i][i] for i in range(n)]
    largest = max(abs(v) for v in w)
    if largest == 0:
        raise ValueError("the two class means coincide; no direction separates them.")
    w = np.array([float(v / largest) for v in w])
    return w / np.linalg.norm(w)


def coded_least_squares(X, y):
    """Least-squares slopes of the coded target :math:`-m/m_0` (class 0), :math:`+m/m_1` (class 1).

    Regress the coded target on the features with an intercept; the slope
    vector is proportional to Fisher's direction
    :math:`S_w^{-1}(\\mu_1 - \\mu_0)` (Hastie, Tibshirani and Friedman,
    *Elements of Statistical Learning*, Ex. 4.2). In fact any two distinct
    codes give a multiple of it; this one makes the intercept the
    overall mean's offset.

    Returns
    -------
    ndarray of shape (n,)
        The slopes (not normalized); class 0 is ``np.unique(y)[0]``.

    Examples
    --------
    >>> from mlcore.lda import fisher_direction
    >>> X = np.array([[0.0, 0.0], [1.0, 0.4], [0.4, 0.1], [0.0, 1.0], [1.0, 1.6], [0.6, 1.1]])
    >>> beta = coded_least_squares(X, [0, 0, 0, 1, 1, 1])
    >>> bool(np.allclose(-beta / np.linalg.norm(beta), fisher_direction(X, [0, 0, 0, 1, 1, 1])))
    True
    """
    X, y, classes = _check_two_class(X, y)
    m, m1 = len(y), np.sum(y == classes[1])
    target = np.where(y == classes[1], m / m1, -m / (m - m1))
    design = np.column_stack([np.ones(m), X - X.mean(axis=0)])
    coefficients, *_ = scipy.linalg.lstsq(design, target)
    return coefficients[1:]


def ledoit_wolf(X):
    """Ledoit-Wolf shrinkage of the covariance of ``X`` towards a multiple of the identity.

    With :math:`S` the maximum-likelihood covariance of the centred rows
    :math:`x_i` (:math:`m` of them, :math:`n` features) and
    :math:`\\mu = \\operatorname{tr}(S)/n`, the estimate is
    :math:`(1 - \\alpha)S + \\alpha\\mu I` with
    :math:`\\alpha = \\min(\\bar b^2, d^2)/d^2`,
    :math:`d^2 = \\lVert S - \\mu I\\rVert_F^2/n` and
    :math:`\\bar b^2 = \\frac{1}{m^2 n}\\sum_i \\lVert x_ix_i^\\top - S\\rVert_F^2`
    (Ledoit and Wolf, 2004), the intensity that minimizes the expected
    Frobenius loss, estimated from the data. Equal to
    ``sklearn.covariance.ledoit_wolf``.

    Returns
    -------
    covariance : ndarray of shape (n, n)
    shrinkage : float
        :math:`\\alpha \\in [0, 1]`.

    Examples
    --------
    >>> X = np.random.default_rng(0).normal(size=(10, 30))
    >>> covariance, alpha = ledoit_wolf(X)
    >>> covariance.shape, bool(0 < alpha <= 1), bool(np.linalg.eigvalsh(covariance).min() > 0)
    ((30, 30), True, True)
    """
    X = check_array(X, "X", ndim=2, min_length=2)
    if X.shape[1] == 0:
        raise ValueError(f"X must have at least one column, got shape {X.shape}.")
    if np.abs(X).max() > 1e75:
        raise ValueError("X must lie within [-1e75, 1e75] (fourth powers would overflow); rescale X.")
    m, n = X.shape
    # alpha is scale-invariant and the estimate scale-equivariant (cX -> c^2 S):
    # compute on X / max|X| so that data in tiny units do not underflow b2 and
    # d2 to 0 (X * 1e-100 returned alpha = 0, the unshrunk S), then scale back.
    unit = np.abs(X).max()
    if unit == 0:
        return np.zeros((n, n)), 0.0
    Z = (X - X.mean(axis=0)) / unit
    S = Z.T @ Z / m
    mu = np.trace(S) / n
    d2 = (np.sum(S**2) - 2 * mu * np.trace(S) + n * mu**2) / n
    b2 = (np.sum(np.sum(Z**2, axis=1) ** 2) / m - np.sum(S**2)) / (n * m)
    # b2 can round to a tiny negative number (two rows gave -3e-16): clip into [0, 1].
    alpha = 0.0 if d2 <= 0 else float(np.clip(min(b2, d2) / d2, 0.0, 1.0))
    return ((1 - alpha) * S + alpha * mu * np.eye(n)) * unit**2, alpha


def _solve_in_standard_units(covariance, means, exact):
    """``coef`` with ``coef_k = covariance^{-1} means_k``, solved where the units cannot matter.

    With ``s`` the square roots of the covariance's diagonal,
    ``covariance = diag(s) C diag(s)`` with a unit diagonal ``C``, and
    ``coef_k = C^{-1}(means_k / s) / s``. Features in units 1e4 apart give
    ``covariance`` eigenvalues 1e16 apart, and a least-squares solve cuts
    those singular values as rounding (19 of 60 predictions changed); ``C``
    has no such spread. When the covariance is singular (no shrinkage: fewer
    samples than features), the minimum-norm solution depends on the units,
    so the plain least-squares solve of scikit-learn is kept (``exact=False``).
    """
    if not exact:
        return scipy.linalg.lstsq(covariance, means.T)[0].T
    scale = np.sqrt(np.diag(covariance))
    scale[scale == 0] = 1.0
    standard = covariance / scale[:, None] / scale[None, :]
    return (scipy.linalg.lstsq(standard, (means / scale).T)[0].T) / scale


class ShrinkageLDA(ClassifierMixin, BaseEstimator):
    """Linear discriminant classifier with a shrunk within-class covariance.

    With fewer samples than features the pooled covariance is singular and
    plain LDA must fall back on a pseudo-inverse; shrinking it towards a
    multiple of the identity keeps it invertible and usually predicts
    better. As scikit-learn's ``LinearDiscriminantAnalysis(solver="lsqr")``:
    each class's covariance is shrunk (``"auto"``: :func:`ledoit_wolf` on
    standardized features, mapped back to the original units; a number: that
    intensity, in the original units) and they are averaged with the class
    shares; then :math:`\\operatorname{coef}_k = \\Sigma^{-1}\\mu_k`.

    Parameters
    ----------
    shrinkage : "auto" or float in [0, 1], default="auto"
        ``"auto"``: Ledoit-Wolf; 0: no shrinkage; 1: a diagonal covariance.

    Attributes
    ----------
    classes_, priors_, means_ : ndarray
    covariance_ : ndarray of shape (n_features, n_features)
    shrinkage_ : ndarray of shape (n_classes,)
        The intensity used for each class.
    coef_, intercept_ : ndarray
        As scikit-learn's (two classes: one row, the log-odds of ``classes_[1]``).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 100)); y = np.repeat([0, 1], 20); X[y == 1, :5] += 1.0
    >>> model = ShrinkageLDA().fit(X, y)
    >>> model.coef_.shape, bool(0 < model.shrinkage_.min() <= 1)
    ((1, 100), True)
    """

    def __init__(self, shrinkage="auto"):
        self.shrinkage = shrinkage

    def fit(self, X, y):
        """Estimate the class means and the shrunk covariance; returns ``self``."""
        check_real_or_option(self.shrinkage, "shrinkage", ["auto"], low=0, high=1,
                             why='"auto" for Ledoit-Wolf, or a fixed intensity')
        with naming("X or y"):
            X, y = validate_data(self, X, y, dtype=np.float64)
        with naming("y"):
            check_classification_targets(y)
        if np.abs(X).max(initial=0.0) > 1e75:
            raise ValueError("X must lie within [-1e75, 1e75] (fourth powers would overflow); rescale X.")
        self.classes_, index = np.unique(y, return_inverse=True)
        counts = np.bincount(index)
        if self.classes_.size < 2:
            raise ValueError(f"y has only one class (label {self.classes_[0]!r}); LDA needs two or more.")
        if counts.min() < 2:
            raise ValueError("every class needs at least two samples to estimate its covariance, "
                             f"got counts {counts.tolist()}.")
        self.priors_ = counts / len(y)
        # Fit in units where the largest |x| is about 1: dividing by a power of two is
        # exact, and the covariance's squares no longer underflow for data in units
        # of 1e-170 and below (which changed predictions, FUZZ-3 R11 at a new magnitude).
        top = np.abs(X).max(initial=0.0)
        if 0 < top < 2.0**-1000:
            raise ValueError(f"X must have its largest |x| above 1e-301, got {top:g}: values "
                             "this small are subnormal and have lost their digits; rescale X.")
        unit = 2.0 ** np.floor(np.log2(top)) if top > 0 else 1.0
        X = X / unit
        means = np.array([X[index == k].mean(axis=0) for k in range(self.classes_.size)])
        covariance, shrinkages = np.zeros((X.shape[1], X.shape[1])), []
        for k in range(self.classes_.size):
            part = X[index == k]
            Z = part - part.mean(axis=0)
            if isinstance(self.shrinkage, str):       # Ledoit-Wolf on standardized features
                scale = part.std(axis=0)
                scale[scale == 0] = 1.0
                shrunk, alpha = ledoit_wolf(Z / scale)
                shrunk = scale[:, None] * shrunk * scale[None, :]
            else:                                     # a fixed intensity, in X's own units
                alpha = float(self.shrinkage)
                S = Z.T @ Z / len(Z)
                shrunk = (1 - alpha) * S + alpha * np.trace(S) / len(S) * np.eye(len(S))
            covariance += self.priors_[k] * shrunk
            shrinkages.append(alpha)
        self.shrinkage_ = np.array(shrinkages)
        coef = _solve_in_standard_units(covariance, means, exact=bool(np.all(self.shrinkage_ > 0)))
        intercept = -0.5 * np.sum(means * coef, axis=1) + np.log(self.priors_)
        # back to X's units: the scores x @ coef + intercept are the same
        self.means_, self.covariance_ = means * unit, covariance * unit**2
        self.coef_, self.intercept_ = _collapse_two_classes(coef / unit, intercept)
        return self

    def decision_function(self, X):
        """The linear discriminant scores (two classes: the log-odds of ``classes_[1]``)."""
        return _linear_scores(self, X)

    def predict_proba(self, X):
        """Posterior class probabilities (softmax of the scores), columns as ``classes_``."""
        return _probabilities(self.decision_function(X))

    def predict(self, X):
        """The class with the largest discriminant score."""
        scores = self.decision_function(X)    # first: it raises NotFittedError before classes_ is read
        return _labels(self.classes_, scores)
