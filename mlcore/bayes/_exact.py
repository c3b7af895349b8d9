"""The exact posterior of Bayesian logistic regression, as a referee of the
Laplace approximation, and the prior's width integrated out (chapter 8).

:func:`importance_posterior` samples a multivariate t distribution centred at
the Laplace Gaussian and weights each draw by the ratio of the true
(unnormalized) posterior to that proposal. The mean weight estimates the
evidence without bias, and the self-normalized weights give the exact
posterior predictive, both up to a Monte Carlo error that the effective
sample size measures. :func:`tau_averaged_predictive` weights a grid of prior
widths by their (Laplace) evidence instead of choosing one.
"""

from __future__ import annotations

import numbers

from dataclasses import dataclass

import numpy as np
from scipy import stats
from scipy.special import expit, logsumexp

from .._validation import as_random_state, check_array, check_int, check_real
from ._logistic import LaplaceLogisticRegression, _design


@dataclass
class ImportancePosterior:
    """Weighted draws from the exact posterior (the result of :func:`importance_posterior`).

    Attributes
    ----------
    theta : ndarray of shape (n_draws, n_params)
        Draws from the proposal, intercept first when ``fit_intercept``.
    log_weights : ndarray of shape (n_draws,)
        log(unnormalized posterior / proposal density) of each draw.
    log_evidence : float
        log of the mean weight: the log evidence, with the intercept's flat
        prior given density 1 (the convention of
        :meth:`LaplaceLogisticRegression.log_marginal_likelihood`).
    log_evidence_se : float
        Its standard error (delta method, Monte Carlo error only).
    ess : float
        Effective sample size :math:`(\\sum w)^2 / \\sum w^2` of the weights.
    fit_intercept : bool
    """

    theta: np.ndarray
    log_weights: np.ndarray
    log_evidence: float
    log_evidence_se: float
    ess: float
    fit_intercept: bool

    def decision_function(self, X):
        """Log-odds of the exact posterior predictive :math:`\\int \\sigma(\\theta^\\top\\tilde x) p(\\theta\\mid S)d\\theta`."""
        X1 = _design(check_array(X, "X", ndim=2), self.fit_intercept)
        if X1.shape[1] != self.theta.shape[1]:
            raise ValueError(f"X must have {self.theta.shape[1] - self.fit_intercept} columns, "
                             f"got {X.shape[1]}.")
        w = np.exp(self.log_weights - self.log_weights.max())
        keep = w > 1e-12 * w.sum()   # the rest move no probability by more than 1e-12 * n_draws
        theta, w = self.theta[keep], w[keep] / w[keep].sum()
        p, q = [], []
        for start in range(0, X1.shape[0], 1000):
            z = X1[start:start + 1000] @ theta.T
            p.append(expit(z) @ w)                     # P(y = 1), and P(y = 0) separately,
            q.append(expit(-z) @ w)                    # so that neither loses digits near 1
        with np.errstate(divide="ignore"):
            return np.log(np.concatenate(p)) - np.log(np.concatenate(q))

    def predict_proba(self, X):
        """Exact posterior predictive probabilities (self-normalized importance sampling), columns 0 and 1."""
        z = self.decision_function(X)
        return np.column_stack([expit(-z), expit(z)])


def importance_posterior(X, y, tau, *, n_draws=20_000, df=5.0, scale=1.2, fit_intercept=True,
                         random_state=None):
    """The exact posterior of logistic regression with the prior :math:`w \\sim \\mathcal N(0, \\tau^2 I)`, by importance sampling.

    The proposal is a multivariate t with ``df`` degrees of freedom, centred
    at the MAP, with scale matrix ``scale**2`` times the Laplace covariance
    :math:`H^{-1}`: heavier tails than the posterior, so the weights have a
    finite variance. When the Laplace approximation is good, the weights are
    nearly equal and the effective sample size is close to ``n_draws``; a
    small ESS means the estimates are unreliable (check it).

    Parameters
    ----------
    X : array_like of shape (m, n)
    y : array_like of shape (m,)
        Labels 0 and 1.
    tau : float
        Prior standard deviation of each weight, > 0 (the intercept's prior is flat).
    n_draws : int, default=20_000
        Proposal draws, >= 2.
    df : float, default=5.0
        Degrees of freedom of the t proposal, >= 0.1 (above 1e6, and
        ``np.inf``: a Gaussian).
    scale : float, default=1.2
        Widening of the proposal relative to the Laplace Gaussian, in [1e-3, 1e3].
    fit_intercept : bool, default=True
    random_state : int, Generator, RandomState or None, default=None

    Returns
    -------
    ImportancePosterior

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> X, y = make_classification(n_samples=200, n_features=2, n_redundant=0, random_state=0)
    >>> exact = importance_posterior(X, y, tau=2.0, n_draws=4000, random_state=0)
    >>> laplace = LaplaceLogisticRegression(tau=2.0).fit(X, y).log_marginal_likelihood()
    >>> bool(exact.ess > 2000), bool(abs(exact.log_evidence - laplace) < 0.1)
    (True, True)
    """
    tau = check_real(tau, "tau", low=0, low_open=True, why="it is the prior standard deviation")
    n_draws = check_int(n_draws, "n_draws", low=2, why="it is the number of proposal draws")
    if isinstance(df, numbers.Real) and not isinstance(df, bool) and df == np.inf:
        df = np.inf
    else:
        # Below 0.1 degrees of freedom the t proposal's chi-square mixing draws
        # underflow to 0 (df = 0.02: draws at inf, ESS and evidence NaN).
        df = check_real(df, "df", low=0.1, why="the proposal's degrees of freedom; "
                        "np.inf for a Gaussian")
    # Outside [1e-3, 1e3] the proposal's covariance underflows to a singular
    # matrix or its draws overflow: no importance weight would be usable.
    scale = check_real(scale, "scale", low=1e-3, high=1e3,
                       why="the widening of the proposal relative to the Laplace Gaussian")
    laplace = LaplaceLogisticRegression(tau=tau, fit_intercept=fit_intercept).fit(X, y)
    X1 = _design(check_array(X, "X", ndim=2), fit_intercept)
    y01 = (np.asarray(y) == laplace.classes_[1]).astype(float)
    d = laplace.theta_.size
    cov = laplace.posterior_cov_ * scale**2
    rng = as_random_state(random_state)
    if df > 1e6:      # a t with a million degrees of freedom is a Gaussian to 1e-6
        proposal = stats.multivariate_normal(laplace.theta_, cov, allow_singular=False)
    else:
        proposal = stats.multivariate_t(laplace.theta_, cov, df=float(df), allow_singular=False)
    theta = np.reshape(proposal.rvs(size=n_draws, random_state=rng), (n_draws, d))
    log_q = proposal.logpdf(theta)
    z = theta @ X1.T
    log_lik = np.sum(y01 * z - np.logaddexp(0.0, z), axis=1)
    w = theta[:, int(fit_intercept):]
    log_prior = -0.5 * w.shape[1] * np.log(2 * np.pi * tau**2) - np.sum(w**2, axis=1) / (2 * tau**2)
    log_weights = log_lik + log_prior - log_q
    log_evidence = float(logsumexp(log_weights) - np.log(n_draws))
    normalized = np.exp(log_weights - log_weights.max())
    se = float(normalized.std(ddof=1) / np.sqrt(n_draws) / normalized.mean())
    ess = float(normalized.sum() ** 2 / np.sum(normalized**2))
    assert d == theta.shape[1]
    return ImportancePosterior(theta, log_weights, log_evidence, se, ess, bool(fit_intercept))


def tau_averaged_predictive(X, y, X_new, taus, *, log_prior=None, predictive="laplace"):
    """Predictive probabilities with :math:`\\tau` integrated out over a grid, weighted by the evidence.

    With a prior :math:`p(\\tau_k)` on the grid (default: uniform, i.e.
    uniform in :math:`\\log\\tau` on a geometric grid), the posterior of
    :math:`\\tau` is :math:`p(\\tau_k\\mid S) \\propto p(S\\mid\\tau_k)p(\\tau_k)`,
    with the Laplace evidence, and the prediction is
    :math:`\\sum_k p(\\tau_k \\mid S)\\,p(y = 1\\mid x, S, \\tau_k)`: a mixture
    over prior widths instead of a choice of one (type-II maximum likelihood).

    Parameters
    ----------
    X, y : training data (labels 0 and 1)
    X_new : array_like of shape (k, n)
        Points to predict.
    taus : array_like of shape (g,)
        Grid of prior widths, each > 0.
    log_prior : array_like of shape (g,), optional
        Log prior weights of the grid points (need not be normalized).
    predictive : {"laplace", "plug-in"}, default="laplace"
        Each width's prediction: the Laplace (probit) predictive or the MAP plug-in.

    Returns
    -------
    proba : ndarray of shape (k,)
        Probability of label 1 at each row of ``X_new``.
    weights : ndarray of shape (g,)
        The posterior of :math:`\\tau` on the grid (sums to 1).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> X, y = make_classification(n_samples=100, n_features=3, n_redundant=0, random_state=0)
    >>> p, weights = tau_averaged_predictive(X, y, X[:3], [0.3, 1.0, 3.0])
    >>> p.shape, bool(np.isclose(weights.sum(), 1.0))
    ((3,), True)
    """
    taus = check_array(taus, "taus", ndim=1, min_length=1)
    if np.any(taus <= 0):
        raise ValueError(f"taus must all be > 0, got a minimum of {taus.min()!r}.")
    if predictive not in ("laplace", "plug-in"):
        raise ValueError(f"predictive must be one of 'laplace', 'plug-in', got predictive={predictive!r}.")
    log_prior = (np.zeros(taus.size) if log_prior is None
                 else check_array(log_prior, "log_prior", ndim=1, length=taus.size))
    fits = [LaplaceLogisticRegression(tau=float(t)).fit(X, y) for t in taus]
    log_post = np.array([f.log_marginal_likelihood() for f in fits]) + log_prior
    weights = np.exp(log_post - logsumexp(log_post))
    if predictive == "laplace":
        probas = np.array([f.predict_proba(X_new)[:, 1] for f in fits])
    else:
        probas = np.array([expit(f.logit_mean_var(X_new)[0]) for f in fits])
    return weights @ probas, weights
