"""Bayesian linear regression in closed form, with the evidence (chapter 8).

Prior :math:`w \\sim \\mathcal N(0, \\alpha^{-1} I)`, likelihood
:math:`y \\mid x, w \\sim \\mathcal N(w^\\top x, \\beta^{-1})`. Everything is
computed from one eigendecomposition :math:`X^\\top X = V\\Lambda V^\\top`, so
the posterior and the log evidence cost O(n) for each new pair
:math:`(\\alpha, \\beta)` once it is done.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_int, check_real


def _evidence(stats, alpha, beta):
    """Log evidence, posterior-mean norm and residual sum of squares for arrays of (alpha, beta)."""
    eig, c, yty, n_samples = stats
    alpha = np.asarray(alpha, dtype=float)[..., None]
    beta = np.asarray(beta, dtype=float)[..., None]
    denom = alpha + beta * eig
    u = beta * c / denom                                  # posterior mean in the eigenbasis
    mean_sq = np.sum(u**2, axis=-1)
    rss = yty - 2 * np.sum(u * c, axis=-1) + np.sum(eig * u**2, axis=-1)
    rss = np.maximum(rss, 0.0)
    alpha, beta = alpha[..., 0], beta[..., 0]
    log_ev = 0.5 * (eig.size * np.log(alpha) + n_samples * np.log(beta) - beta * rss
                    - alpha * mean_sq - np.sum(np.log(denom), axis=-1)
                    - n_samples * np.log(2 * np.pi))
    return log_ev, mean_sq, rss


class BayesianLinearRegression(RegressorMixin, BaseEstimator):
    """Bayesian linear regression: Gaussian prior, Gaussian noise, exact posterior.

    The posterior of the weights is :math:`\\mathcal N(m_N, S_N)` with
    :math:`S_N^{-1} = \\alpha I + \\beta X^\\top X` and :math:`m_N = \\beta S_N X^\\top y`;
    the predictive distribution at :math:`x` is Gaussian with mean
    :math:`m_N^\\top x` and variance :math:`1/\\beta + x^\\top S_N x`. With
    ``fit_evidence=True`` the precisions are chosen by maximizing the log
    marginal likelihood (MacKay's fixed-point updates), starting from
    ``alpha`` and ``beta``.

    Names compared with ``sklearn.linear_model.BayesianRidge``: our ``alpha``
    (precision of the weights' prior) is its ``lambda_``; our ``beta``
    (precision of the noise) is its ``alpha_``. The intercept is handled as
    there: ``X`` and ``y`` are centred, the intercept is
    :math:`\\bar y - \\bar x^\\top m_N` and has no prior (it is not shrunk).

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
    alpha_, beta_ : float
        The precisions used (fitted when ``fit_evidence``).
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
    >>> bool(np.all(std > 1 / np.sqrt(ours.beta_)))  # noise plus uncertainty about w
    True
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

    def fit(self, X, y):
        """Compute the posterior (and, with ``fit_evidence``, the precisions); returns ``self``."""
        self._check_params()
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        for name, values in (("X", X), ("y", y)):
            if np.abs(values).max(initial=0.0) > 1e150:   # X^T X and y^T y would overflow
                raise ValueError(f"{name} must lie within [-1e150, 1e150], got largest |value| "
                                 f"{np.abs(values).max():g}; standardize it.")
        if self.fit_intercept:
            self._x_mean, self._y_mean = X.mean(axis=0), y.mean()
        else:
            self._x_mean, self._y_mean = np.zeros(X.shape[1]), 0.0
        Xc, yc = X - self._x_mean, y - self._y_mean
        eig, V = np.linalg.eigh(Xc.T @ Xc)
        eig = np.maximum(eig, 0.0)                        # round-off below zero
        self._V = V
        self._stats = (eig, V.T @ (Xc.T @ yc), float(yc @ yc), X.shape[0])
        alpha, beta = float(self.alpha), float(self.beta)
        self.n_iter_ = 0
        if self.fit_evidence:
            for self.n_iter_ in range(1, int(self.max_iter) + 1):
                _, mean_sq, rss = _evidence(self._stats, alpha, beta)
                if rss <= 1e-12 * max(self._stats[2], np.finfo(float).tiny):
                    # The posterior mean fits y exactly (more features than
                    # samples): the evidence keeps growing as beta -> inf.
                    warnings.warn("the evidence grows without bound in beta: the data are "
                                  "fitted exactly (more features than samples?); keeping the "
                                  f"precisions of iteration {self.n_iter_}.", ConvergenceWarning)
                    break
                gamma = float(np.sum(beta * eig / (alpha + beta * eig)))  # well-determined weights
                new_alpha = gamma / max(float(mean_sq), np.finfo(float).tiny)
                new_beta = (X.shape[0] - gamma) / max(float(rss), np.finfo(float).tiny)
                done = (abs(new_alpha - alpha) <= self.tol * alpha
                        and abs(new_beta - beta) <= self.tol * beta)
                alpha, beta = new_alpha, new_beta
                if done:
                    break
        if not self.fit_evidence:
            self.n_iter_ = 1                              # one closed-form solve
        self.alpha_, self.beta_ = alpha, beta
        denom = alpha + beta * eig
        self.coef_ = V @ (beta * self._stats[1] / denom)
        self.sigma_ = (V / denom) @ V.T
        self.intercept_ = float(self._y_mean - self._x_mean @ self.coef_)
        return self

    def predict(self, X, return_std=False):
        """Predictive mean, and with ``return_std`` its standard deviation :math:`\\sqrt{1/\\beta + x^\\top S_N x}`.

        The standard deviation is that of a new observation :math:`y` at
        :math:`x` (noise included), as in ``BayesianRidge.predict``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        mean = X @ self.coef_ + self.intercept_
        if not return_std:
            return mean
        Xc = X - self._x_mean
        variance = 1.0 / self.beta_ + np.einsum("ij,jk,ik->i", Xc, self.sigma_, Xc)
        return mean, np.sqrt(variance)

    def log_marginal_likelihood(self, alpha=None, beta=None):
        """Log evidence :math:`\\log p(y \\mid X, \\alpha, \\beta)` of the training data, in nats.

        .. math::

            \\tfrac n2\\log\\alpha + \\tfrac m2\\log\\beta - \\tfrac\\beta2\\lVert y - Xm_N\\rVert^2
            - \\tfrac\\alpha2\\lVert m_N\\rVert^2 - \\tfrac12\\log\\det S_N^{-1} - \\tfrac m2\\log 2\\pi

        on the centred data (n features, m samples). ``alpha`` and ``beta``
        default to the fitted ones and may be arrays (broadcast together), to
        draw the evidence over a grid.
        """
        check_is_fitted(self)
        alpha = self.alpha_ if alpha is None else alpha
        beta = self.beta_ if beta is None else beta
        for name, value in (("alpha", alpha), ("beta", beta)):
            value = np.asarray(value, dtype=float)
            if not np.all(np.isfinite(value)) or np.any(value <= 0):
                raise ValueError(f"{name} must be finite and > 0, got {name}={value!r}.")
        log_ev = _evidence(self._stats, alpha, beta)[0]
        return float(log_ev) if np.ndim(log_ev) == 0 else log_ev
