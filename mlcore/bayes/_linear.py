"""Bayesian linear regression in closed form, with the evidence (chapter 8).

Prior :math:`w \\sim \\mathcal N(0, \\alpha^{-1} I)`, likelihood
:math:`y \\mid x, w \\sim \\mathcal N(w^\\top x, \\beta^{-1})`. Everything is
computed from one singular value decomposition of the (centred) design,
:math:`X = U\\,\\mathrm{diag}(s)\\,V^\\top`, so the posterior, the log evidence,
the shrinkage factors and the leave-one-out error cost O(n) or O(mn) for each
new pair :math:`(\\alpha, \\beta)` once it is done. The SVD of :math:`X`, not
an eigendecomposition of :math:`X^\\top X`, keeps the condition number from
being squared: with a weak prior on an ill-conditioned design the latter
loses half the digits.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_array, check_is_fitted, column_or_1d, validate_data

from .._validation import check_int, check_real
from ..linear import _named, _reject_text


def _evidence(stats, alpha, beta):
    """Log evidence, posterior-mean norm and residual sum of squares for arrays of (alpha, beta).

    ``stats`` holds the singular values ``s`` of the centred design, the
    projections ``q = U^T y``, the squared norm of ``y`` outside the column
    space, ``m`` and ``n``; every term is a sum over the ``r`` singular
    directions plus ``n - r`` directions that only the prior constrains.
    """
    s, q, rss_out, n_samples, n_features = stats
    alpha = np.asarray(alpha, dtype=float)[..., None]
    beta = np.asarray(beta, dtype=float)[..., None]
    denom = alpha + beta * s**2
    u = beta * s * q / denom                              # posterior mean in the right singular basis
    mean_sq = np.sum(u**2, axis=-1)
    rss = rss_out + np.sum((alpha * q / denom) ** 2, axis=-1)   # q - s u, without cancellation
    alpha, beta = alpha[..., 0], beta[..., 0]
    log_det = np.sum(np.log(denom), axis=-1) + (n_features - s.size) * np.log(alpha)
    log_ev = 0.5 * (n_features * np.log(alpha) + n_samples * np.log(beta) - beta * rss
                    - alpha * mean_sq - log_det - n_samples * np.log(2 * np.pi))
    return log_ev, mean_sq, rss


def _check_precisions(alpha, beta):
    for name, value in (("alpha", alpha), ("beta", beta)):
        value = np.asarray(value, dtype=float)
        if not np.all(np.isfinite(value)) or np.any(value <= 0):
            raise ValueError(f"{name} must be finite and > 0, got {name}={value!r}.")


class BayesianLinearRegression(RegressorMixin, BaseEstimator):
    """Bayesian linear regression: Gaussian prior, Gaussian noise, exact posterior.

    The posterior of the weights is :math:`\\mathcal N(m_N, S_N)` with
    :math:`S_N^{-1} = \\alpha I + \\beta X^\\top X` and :math:`m_N = \\beta S_N X^\\top y`;
    the predictive distribution at :math:`x` is Gaussian with mean
    :math:`m_N^\\top x + b` and variance :math:`1/\\beta + x^\\top S_N x`
    (plus :math:`1/(m\\beta)` with an intercept, see below). With
    ``fit_evidence=True`` the precisions are chosen by maximizing the log
    marginal likelihood (MacKay's fixed-point updates), starting from
    ``alpha`` and ``beta``; a ``ConvergenceWarning`` says when the iteration
    stops without converging.

    Names compared with ``sklearn.linear_model.BayesianRidge``: our ``alpha``
    (precision of the weights' prior) is its ``lambda_``; our ``beta``
    (precision of the noise) is its ``alpha_``. The intercept is handled as
    there: ``X`` and ``y`` are centred, the intercept is
    :math:`\\bar y - \\bar x^\\top m_N` and has a flat prior (it is not
    shrunk), and the evidence is that of the centred data. Unlike
    ``BayesianRidge``, the predictive variance includes the intercept's
    posterior variance :math:`1/(m\\beta)`: the exact predictive variance of
    the model with a flat prior on the intercept is
    :math:`1/\\beta + 1/(m\\beta) + (x - \\bar x)^\\top S_N (x - \\bar x)`.

    Parameters
    ----------
    alpha : float, default=1.0
        Precision of the prior on each weight, > 0 (the prior variance is 1/alpha).
    beta : float, default=1.0
        Precision of the noise, > 0 (the noise variance is 1/beta).
    fit_evidence : bool, default=False
        Re-estimate ``alpha`` and ``beta`` by maximizing the evidence.
    fit_intercept : bool, default=True
    max_iter : int, default=300
        Fixed-point iterations at most (``fit_evidence=True``), >= 1.
    tol : float, default=1e-10
        Stop when both precisions change by less than this relative amount.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        Posterior mean :math:`m_N`.
    intercept_ : float
    sigma_ : ndarray of shape (n_features, n_features)
        Posterior covariance :math:`S_N`.
    intercept_var_ : float
        Posterior variance of the centred intercept, :math:`1/(m\\beta)` (0
        without ``fit_intercept``).
    alpha_, beta_ : float
        The precisions used (fitted when ``fit_evidence``).
    singular_values_ : ndarray of shape (min(n_samples, n_features),)
        Singular values of the centred design; their squares are the
        eigenvalues :math:`\\lambda_j` of :math:`X^\\top X`.
    n_iter_ : int
        Fixed-point iterations run (1 without ``fit_evidence``: one solve).
    n_features_in_ : int

    Examples
    --------
    >>> from sklearn.linear_model import BayesianRidge
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 3)); y = X @ [1.0, -2.0, 0.0] + rng.normal(scale=0.5, size=50)
    >>> ours = BayesianLinearRegression(alpha=1.0, beta=1 / np.var(y), fit_evidence=True).fit(X, y)
    >>> theirs = BayesianRidge(alpha_1=0, alpha_2=0, lambda_1=0, lambda_2=0, tol=1e-12,
    ...                        max_iter=1000).fit(X, y)
    >>> bool(np.isclose(ours.alpha_, theirs.lambda_, rtol=1e-5)), bool(np.isclose(ours.beta_, theirs.alpha_, rtol=1e-5))
    (True, True)
    >>> mean, std = ours.predict(X[:2], return_std=True)
    >>> _, std_ridge = theirs.predict(X[:2], return_std=True)
    >>> bool(np.allclose(std**2, std_ridge**2 + 1 / (50 * ours.beta_), rtol=1e-4))  # + the intercept's
    True
    >>> round(ours.effective_dof(), 2)   # 3 well-determined weights
    2.99
    """

    def __init__(self, alpha=1.0, beta=1.0, *, fit_evidence=False, fit_intercept=True,
                 max_iter=300, tol=1e-10):
        self.alpha = alpha
        self.beta = beta
        self.fit_evidence = fit_evidence
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol

    def _check_params(self):
        why = {"alpha": "it is the precision of the prior on each weight",
               "beta": "it is the precision of the noise"}
        for name in ("alpha", "beta"):
            value = check_real(getattr(self, name), name, low=0, low_open=True, why=why[name])
            if not 1e-100 <= value <= 1e100:   # products with X^T X must not overflow
                raise ValueError(f"{name} must be in [1e-100, 1e100], got {name}={value!r}.")
        for name in ("fit_evidence", "fit_intercept"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise TypeError(f"{name} must be True or False, got {name}={getattr(self, name)!r}.")
        check_int(self.max_iter, "max_iter", low=1)
        check_real(self.tol, "tol", low=0)

    def _validate(self, X, y):
        _reject_text(X)
        kind = None if y is None else np.asarray(y).dtype.kind
        if kind is not None and kind in "USO" and not (kind == "O" and _all_real(y)):
            raise TypeError("y must hold real numbers (this is a regression), got an array "
                            f"of dtype {np.asarray(y).dtype}; convert y to numbers first.")
        # y's own problems (complex, NaN, 2-D) are reported as y's, the rest as X's
        if y is not None:   # (None: validate_data says y is required)
            _named("y", lambda: column_or_1d(check_array(y, ensure_2d=False, dtype=np.float64,
                                                         input_name="y"), warn=False))
        return _named("X", lambda: validate_data(self, X, y, dtype=np.float64, y_numeric=True))

    def fit(self, X, y):
        """Compute the posterior (and, with ``fit_evidence``, the precisions); returns ``self``."""
        self._check_params()
        X, y = self._validate(X, y)
        for name, values in (("X", X), ("y", y)):
            if np.abs(values).max(initial=0.0) > 1e150:   # X^T X and y^T y would overflow
                raise ValueError(f"{name} must lie within [-1e150, 1e150], got largest |value| "
                                 f"{np.abs(values).max():g}; standardize it.")
        n_samples, n_features = X.shape
        if self.fit_intercept:
            self._x_mean, self._y_mean = X.mean(axis=0), y.mean()
        else:
            self._x_mean, self._y_mean = np.zeros(n_features), 0.0
        Xc, yc = X - self._x_mean, y - self._y_mean
        U, s, Vt = np.linalg.svd(Xc, full_matrices=False)
        q = U.T @ yc
        rss_out = float(np.sum((yc - U @ q) ** 2))         # the part of y no weight can fit
        self._U, self._yc = U, yc
        self._stats = (s, q, rss_out, n_samples, n_features)
        self.singular_values_ = s.copy()
        alpha, beta = float(self.alpha), float(self.beta)
        self.n_iter_ = 1                                  # one closed-form solve
        if self.fit_evidence:
            alpha, beta = self._maximize_evidence(alpha, beta, float(yc @ yc))
        self.alpha_, self.beta_ = alpha, beta
        denom = alpha + beta * s**2
        self.coef_ = Vt.T @ (beta * s * q / denom)
        # S_N = V diag(1/denom) V^T on the row space, 1/alpha on its complement.
        self.sigma_ = np.eye(n_features) / alpha + (Vt.T * (1 / denom - 1 / alpha)) @ Vt
        self.intercept_ = float(self._y_mean - self._x_mean @ self.coef_)
        self.intercept_var_ = 1.0 / (n_samples * beta) if self.fit_intercept else 0.0
        return self

    def _maximize_evidence(self, alpha, beta, yty):
        s, n_samples = self._stats[0], self._stats[3]
        if yty == 0.0:
            warnings.warn("y is constant (after centring when fit_intercept=True): the evidence "
                          "grows without bound as alpha and beta grow; keeping the starting "
                          "precisions.", ConvergenceWarning)
            return alpha, beta
        for self.n_iter_ in range(1, int(self.max_iter) + 1):
            _, mean_sq, rss = _evidence(self._stats, alpha, beta)
            if rss <= 1e-12 * yty:
                warnings.warn("the fixed-point iteration drives beta to infinity: the posterior "
                              "mean fits y exactly (residual sum of squares "
                              f"{float(rss):.2g}); keeping the precisions of iteration "
                              f"{self.n_iter_}.", ConvergenceWarning)
                return alpha, beta
            gamma = float(np.sum(beta * s**2 / (alpha + beta * s**2)))  # well-determined weights
            if gamma <= 1e-12 * s.size or mean_sq <= 1e-300:
                warnings.warn("the evidence is largest as alpha -> infinity (all weights 0): "
                              "the features explain nothing of y that the noise does not; "
                              f"stopping at alpha={alpha:.3g} after {self.n_iter_} iterations.",
                              ConvergenceWarning)
                return alpha, beta
            new_alpha = gamma / float(mean_sq)
            new_beta = (n_samples - gamma) / float(rss)
            done = (abs(new_alpha - alpha) <= self.tol * alpha
                    and abs(new_beta - beta) <= self.tol * beta)
            alpha, beta = new_alpha, new_beta
            if done:
                return alpha, beta
        warnings.warn(f"the evidence maximization did not converge in max_iter={self.max_iter} "
                      f"fixed-point iterations (tol={self.tol}); alpha={alpha:.6g}, "
                      f"beta={beta:.6g} may be far from the maximum. Increase max_iter.",
                      ConvergenceWarning)
        return alpha, beta

    def predict(self, X, return_std=False):
        """Predictive mean, and with ``return_std`` the predictive standard deviation.

        The standard deviation is that of a new observation :math:`y` at
        :math:`x` (noise included), :math:`\\sqrt{1/\\beta + 1/(m\\beta) +
        (x - \\bar x)^\\top S_N (x - \\bar x)}`; the middle term, the
        intercept's posterior variance, is there only with ``fit_intercept``
        (``BayesianRidge.predict`` leaves it out).
        """
        check_is_fitted(self)
        X = _named("X", lambda: validate_data(self, X, dtype=np.float64, reset=False))
        mean = X @ self.coef_ + self.intercept_
        if not return_std:
            return mean
        Xc = X - self._x_mean
        variance = (1.0 / self.beta_ + self.intercept_var_
                    + np.einsum("ij,jk,ik->i", Xc, self.sigma_, Xc))
        return mean, np.sqrt(variance)

    def log_marginal_likelihood(self, alpha=None, beta=None):
        """Log evidence :math:`\\log p(y \\mid X, \\alpha, \\beta)` of the training data, in nats.

        .. math::

            \\tfrac n2\\log\\alpha + \\tfrac m2\\log\\beta - \\tfrac\\beta2\\lVert y - Xm_N\\rVert^2
            - \\tfrac\\alpha2\\lVert m_N\\rVert^2 - \\tfrac12\\log\\det S_N^{-1} - \\tfrac m2\\log 2\\pi

        on the centred data (n features, m samples), as ``BayesianRidge``
        computes it. (The marginal likelihood of the model with a flat prior
        on the intercept differs from it by :math:`-\\tfrac12\\log\\beta` plus a
        constant.) ``alpha`` and ``beta`` default to the fitted ones and may be
        arrays (broadcast together), to draw the evidence over a grid.
        """
        check_is_fitted(self)
        alpha = self.alpha_ if alpha is None else alpha
        beta = self.beta_ if beta is None else beta
        _check_precisions(alpha, beta)
        log_ev = _evidence(self._stats, alpha, beta)[0]
        return float(log_ev) if np.ndim(log_ev) == 0 else log_ev

    def shrinkage_factors(self, alpha=None, beta=None):
        """The factors :math:`\\beta\\lambda_j / (\\alpha + \\beta\\lambda_j)`, one per singular direction.

        The posterior mean is the least-squares fit with its component along
        the j-th right singular vector multiplied by this factor (ESL §3.4.1):
        near 1 where the data determine the weight, near 0 where the prior
        does. ``alpha`` and ``beta`` default to the fitted ones; scalars.
        Directions in which :math:`X` has no extent (more features than
        samples) have factor 0 and are not listed.
        """
        check_is_fitted(self)
        alpha = self.alpha_ if alpha is None else alpha
        beta = self.beta_ if beta is None else beta
        _check_precisions(alpha, beta)
        eig = self.singular_values_**2
        return float(beta) * eig / (float(alpha) + float(beta) * eig)

    def effective_dof(self, alpha=None, beta=None):
        """Effective number of parameters :math:`\\gamma = \\sum_j \\beta\\lambda_j/(\\alpha + \\beta\\lambda_j)`.

        It is the trace of the hat matrix of the posterior mean on the centred
        data, ESL's degrees of freedom of ridge regression with
        :math:`\\lambda = \\alpha/\\beta`, and MacKay's number of
        well-determined parameters (add 1 for the intercept).
        """
        return float(np.sum(self.shrinkage_factors(alpha, beta)))

    def loo_squared_error(self, alpha=None, beta=None):
        """Mean squared leave-one-out error of the posterior mean, in closed form (no refits).

        The posterior mean with its intercept is a linear smoother
        :math:`\\hat y = Hy`, :math:`H = \\mathbf 1\\mathbf 1^\\top/m +
        U\\,\\mathrm{diag}(\\text{shrinkage factors})\\,U^\\top`, whose
        penalty does not depend on the data, so the leave-one-out residual
        is exactly :math:`(y_i - \\hat y_i)/(1 - H_{ii})` (the PRESS formula).
        ``alpha`` and ``beta`` default to the fitted ones; only their ratio
        matters. Needs ``H_ii < 1`` (a point the fit interpolates has no
        leave-one-out residual by this formula).
        """
        check_is_fitted(self)
        factors = self.shrinkage_factors(alpha, beta)
        U, (_, q, _, n_samples, _) = self._U, self._stats
        yc_hat = U @ (factors * q)
        yc = self._yc
        leverage = np.sum(U**2 * factors, axis=1) + (1.0 / n_samples if self.fit_intercept else 0.0)
        if np.any(leverage >= 1 - 1e-12):
            raise ValueError("a training point has leverage 1 (the fit interpolates it); the "
                             "leave-one-out error is undefined by the closed form.")
        return float(np.mean(((yc - yc_hat) / (1 - leverage)) ** 2))


def _all_real(y):
    import numbers
    return all(isinstance(v, numbers.Real) and not isinstance(v, bool)
               for v in np.asarray(y, dtype=object).flat)
