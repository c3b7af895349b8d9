"""Logistic regression with a Gaussian prior: the MAP estimate and the Laplace
approximation to the posterior (chapter 8).

Both estimators minimize the negative log posterior

.. math::

    f(\\theta) = \\sum_{i=1}^m \\bigl[\\log(1 + e^{z_i}) - y_i z_i\\bigr]
                 + \\frac{1}{2\\tau^2}\\lVert w\\rVert^2,
    \\qquad z_i = b + w^\\top x^{(i)},

with a flat prior on the intercept :math:`b` (it is not shrunk), by Newton's
method with a backtracking line search. Multiplying by :math:`\\tau^2` gives
scikit-learn's objective :math:`C\\sum_i \\ell_i + \\tfrac12\\lVert w\\rVert^2`
with :math:`C = \\tau^2`.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from scipy.special import expit, logsumexp
from sklearn.exceptions import ConvergenceWarning
from sklearn.base import BaseEstimator, ClassifierMixin
from .._validation import as_random_state as check_random_state  # every seed mlcore accepts
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_array, check_int, check_option, check_real
from ..linear import _named, _validate_binary


def _design(X, fit_intercept):
    return np.column_stack([np.ones(len(X)), X]) if fit_intercept else X


def _prior_precision(n_params, tau, fit_intercept):
    """Diagonal of the prior's precision: 1/tau^2 on the weights, 0 on the intercept."""
    precision = np.full(n_params, 1.0 / tau**2)
    if fit_intercept:
        precision[0] = 0.0
    return precision


def _neg_log_posterior(theta, X1, y, precision):
    z = X1 @ theta
    return float(np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * np.sum(precision * theta**2))


def _newton_map(X1, y, precision, *, max_iter, tol):
    """Minimize the negative log posterior by damped Newton steps.

    Returns ``(theta, hessian, n_iter, converged)``; the Hessian
    :math:`\\tilde X^\\top S \\tilde X + \\operatorname{diag}(\\text{precision})`
    is the one at the returned ``theta`` (it is the Laplace posterior's
    precision matrix).
    """
    theta = np.zeros(X1.shape[1])
    value = _neg_log_posterior(theta, X1, y, precision)
    converged = False
    for n_iter in range(1, max_iter + 1):
        p = expit(X1 @ theta)
        gradient = X1.T @ (p - y) + precision * theta
        hessian = (X1.T * (p * (1 - p))) @ X1 + np.diag(precision)
        try:
            step = np.linalg.solve(hessian, gradient)
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(hessian, gradient, rcond=None)[0]
        # Backtracking (Armijo) keeps every step a descent step, so the method
        # converges from theta = 0 even where a full Newton step overshoots.
        slope, t = float(gradient @ step), 1.0
        while True:
            candidate = theta - t * step
            new_value = _neg_log_posterior(candidate, X1, y, precision)
            if new_value <= value - 1e-4 * t * slope or t < 1e-10:
                break
            t *= 0.5
        theta, value = candidate, new_value
        if np.max(np.abs(t * step)) <= tol * (1.0 + np.max(np.abs(theta))):
            converged = True
            break
    p = expit(X1 @ theta)
    hessian = (X1.T * (p * (1 - p))) @ X1 + np.diag(precision)
    return theta, hessian, n_iter, converged


def _check_moments(mean, variance):
    out = []
    for name, value in (("mean", mean), ("variance", variance)):
        kind = np.asarray(value).dtype.kind if not isinstance(value, (str, bytes)) else "U"
        if kind == "b" or isinstance(value, bool):
            raise TypeError(f"{name} must hold real numbers, got booleans {name}={value!r}.")
        if isinstance(value, numbers.Number) and not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be a real number, got {name}={value!r} "
                            f"of type {type(value).__name__}.")
        if kind == "O" and not all(isinstance(v, (numbers.Real, np.floating, np.integer))
                                   and not isinstance(v, bool)
                                   and type(v).__name__ != "Decimal"
                                   for v in np.asarray(value, dtype=object).flat):
            raise TypeError(f"{name} must hold real numbers (int or float), got {name}={value!r}.")
        out.append(check_array(value, name))
    mean, variance = out
    if np.any(variance < 0):
        raise ValueError(f"variance must be >= 0, got a minimum of {variance.min()!r}.")
    try:
        np.broadcast_shapes(mean.shape, variance.shape)
    except ValueError:
        raise ValueError(f"mean and variance must broadcast together, got shapes {mean.shape} "
                         f"and {variance.shape}.") from None
    return mean, variance


def probit_predictive(mean, variance):
    """The probit approximation to :math:`\\int \\sigma(a)\\,\\mathcal N(a \\mid \\mu, s^2)\\,da`.

    Two approximations are made. Replacing the sigmoid by the probit curve
    :math:`\\Phi(\\lambda a)`, :math:`\\lambda^2 = \\pi/8`, of the same slope at 0
    makes the Gaussian integral exact, :math:`\\Phi\\bigl(\\lambda\\mu/\\sqrt{1 + \\lambda^2 s^2}\\bigr)`;
    turning the probit back into a sigmoid gives
    :math:`\\sigma\\bigl(\\mu / \\sqrt{1 + \\pi s^2/8}\\bigr)` (Bishop §4.5.2). The
    error against the exact integral is below 0.018 for every :math:`\\mu` and
    :math:`s`; as :math:`s \\to \\infty` it tends to
    :math:`\\max_t |\\Phi(t) - \\sigma(\\sqrt{8/\\pi}\\,t)| \\approx 0.0177`.

    Parameters
    ----------
    mean : array_like of real numbers
        Mean :math:`\\mu` of the log-odds :math:`a = \\theta^\\top\\tilde x` under the posterior.
    variance : array_like of real numbers
        Its variance :math:`s^2 \\ge 0`, broadcastable with ``mean``.

    Returns
    -------
    ndarray
        The approximate predictive probability of the positive class.

    Examples
    --------
    >>> probit_predictive([0.0, 2.0, 2.0], [1.0, 0.0, 10.0]).round(3)
    array([0.5  , 0.881, 0.711])
    """
    mean, variance = _check_moments(mean, variance)
    return expit(mean / np.sqrt(1.0 + np.pi * variance / 8.0))


def log_loss_from_logit(y_true, logit):
    """Per-point log loss :math:`\\log(1 + e^{z}) - yz` of the probability :math:`\\sigma(z)`, exactly.

    Computed from the log-odds ``logit`` as ``np.logaddexp(0, -z)`` for
    label 1 and ``np.logaddexp(0, z)`` for label 0 (the same value as
    :math:`\\log(1 + e^{z}) - yz`, without its cancellation: for label 1 and
    :math:`z = 40` the loss is :math:`4.2 \\times 10^{-18}`, not 0), so a
    probability that rounds to 0 or 1 in floating point still gets its
    true loss: :math:`\\sigma(40) = 1` in double precision, yet the loss of
    label 0 there is 40 nats, not the ``-log(eps)`` or ``-log(1e-15)`` of a
    clipped probability.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Labels in {0, 1}.
    logit : array_like of shape (n,)
        Log-odds :math:`z` of label 1 (``decision_function`` of the models here).

    Returns
    -------
    ndarray of shape (n,)
        The loss of each point in nats; its mean is ``sklearn.metrics.log_loss``
        wherever no probability is clipped.

    Examples
    --------
    >>> log_loss_from_logit([1, 0, 0], [0.0, 2.0, 40.0]).round(4)
    array([ 0.6931,  2.1269, 40.    ])
    >>> float(log_loss_from_logit([1], [40.0])[0])      # e^-40, not 0
    4.248354255291589e-18
    """
    y_true = check_array(y_true, "y_true", ndim=1)
    logit = check_array(logit, "logit", ndim=1, length=y_true.size)
    if not np.all((y_true == 0) | (y_true == 1)):
        raise ValueError(f"y_true must hold labels 0 and 1, got the values {np.unique(y_true)[:5]}.")
    # log(1 + e^z) - z for label 1 cancels to 0 once e^-z < eps (z >= 37);
    # log(1 + e^-z) is the same number computed without the subtraction.
    return np.logaddexp(0.0, np.where(y_true == 1, -logit, logit))


class MAPLogisticRegression(ClassifierMixin, BaseEstimator):
    """Binary logistic regression, MAP estimate under the prior :math:`w \\sim \\mathcal N(0, \\tau^2 I)`.

    Maximizing the posterior is maximum likelihood plus the L2 penalty
    :math:`\\lVert w\\rVert^2/(2\\tau^2)`; the intercept has a flat prior and
    is not penalized. The coefficients equal those of
    ``sklearn.linear_model.LogisticRegression(C=tau**2)`` (whose default
    solver does not penalize the intercept either), computed here by Newton's
    method to high accuracy.

    Parameters
    ----------
    tau : float, default=1.0
        Prior standard deviation of each weight, > 0. Small ``tau`` shrinks
        the weights toward 0; ``tau -> inf`` is maximum likelihood.
    fit_intercept : bool, default=True
        Add an unpenalized intercept.
    max_iter : int, default=100
        Maximum number of Newton steps, >= 1.
    tol : float, default=1e-10
        Stop when a step changes no parameter by more than
        ``tol * (1 + max|theta|)``; >= 0.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    hessian_ : ndarray of shape (n_params, n_params)
        Hessian of the negative log posterior at the MAP (intercept first
        when ``fit_intercept``): the precision of the Laplace approximation.
    n_iter_ : int
    n_features_in_ : int

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = make_classification(n_samples=100, n_features=3, n_redundant=0, random_state=0)
    >>> ours = MAPLogisticRegression(tau=0.5).fit(X, y)
    >>> theirs = LogisticRegression(C=0.25, tol=1e-10).fit(X, y)
    >>> bool(np.allclose(ours.coef_, theirs.coef_, atol=1e-5))
    True
    >>> MAPLogisticRegression(tau=0).fit(X, y)
    Traceback (most recent call last):
    ...
    ValueError: tau must be > 0, got tau=0.0; it is the prior standard deviation of each weight.
    """

    def __init__(self, tau=1.0, *, fit_intercept=True, max_iter=100, tol=1e-10):
        self.tau = tau
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _check_params(self):
        tau = check_real(self.tau, "tau", low=0, low_open=True,
                         why="it is the prior standard deviation of each weight")
        if not 1e-100 <= tau <= 1e100:   # 1 / tau**2 and tau**2 must not overflow
            raise ValueError(f"tau must be in [1e-100, 1e100], got tau={tau!r}.")
        if not isinstance(self.fit_intercept, (bool, np.bool_)):
            raise TypeError(f"fit_intercept must be True or False, got "
                            f"fit_intercept={self.fit_intercept!r}.")
        check_int(self.max_iter, "max_iter", low=1, why="it is the largest number of Newton steps")
        check_real(self.tol, "tol", low=0)

    def _fit_map(self, X, y):
        self._check_params()
        X, y01 = _validate_binary(self, X, y)
        X1 = _design(X, self.fit_intercept)
        precision = _prior_precision(X1.shape[1], float(self.tau), self.fit_intercept)
        theta, self.hessian_, self.n_iter_, converged = _newton_map(
            X1, y01, precision, max_iter=int(self.max_iter), tol=float(self.tol))
        if not converged:
            warnings.warn(f"Newton's method did not converge in max_iter={self.max_iter} steps "
                          f"(tol={self.tol}); the weights may be far from the MAP. Increase "
                          "max_iter.", ConvergenceWarning)
        self.theta_ = theta
        self.intercept_ = theta[:1].copy() if self.fit_intercept else np.zeros(1)
        self.coef_ = theta[int(self.fit_intercept):][None, :].copy()
        self._y01, self._X1, self._precision = y01, X1, precision
        return X

    def fit(self, X, y):
        """Fit the MAP estimate to ``X`` (m by n) and a two-label ``y``; returns ``self``."""
        self._fit_map(X, y)
        del self._X1, self._y01
        return self

    def decision_function(self, X):
        """The log-odds :math:`b + w^\\top x` of the positive class at the MAP."""
        check_is_fitted(self)
        X = _named("X", lambda: validate_data(self, X, dtype=np.float64, reset=False))
        return X @ self.coef_[0] + self.intercept_[0]

    def predict_proba(self, X):
        """Plug-in probabilities :math:`\\sigma(b + w^\\top x)`, columns in the order of ``classes_``."""
        z = self.decision_function(X)
        return np.column_stack([expit(-z), expit(z)])

    def predict_log_proba(self, X):
        """Log of ``predict_proba``, computed from the log-odds (exact where the probability rounds to 0 or 1)."""
        z = self.decision_function(X)
        return np.column_stack([-np.logaddexp(0.0, z), -np.logaddexp(0.0, -z)])

    def predict(self, X):
        """The more probable label."""
        check_is_fitted(self)
        return self.classes_[(self.predict_proba(X)[:, 1] > 0.5).astype(int)]


class LaplaceLogisticRegression(MAPLogisticRegression):
    """Bayesian logistic regression by the Laplace approximation to the posterior.

    The posterior is replaced by :math:`\\mathcal N(\\theta_{\\text{MAP}}, H^{-1})`,
    :math:`H` the Hessian of the negative log posterior at the MAP (chapter 1's
    Hessian of the log-likelihood, summed, plus the prior's precision). A
    prediction averages the sigmoid over that Gaussian: the log-odds
    :math:`a = \\theta^\\top\\tilde x` has mean :math:`\\mu = \\theta_{\\text{MAP}}^\\top\\tilde x`
    and variance :math:`s^2 = \\tilde x^\\top H^{-1}\\tilde x`, and
    :math:`p(y = 1 \\mid x, S) = \\int\\sigma(a)\\,\\mathcal N(a\\mid\\mu, s^2)\\,da`,
    computed by the probit approximation or by Monte Carlo. Far from the data
    :math:`s^2` grows and the prediction moves toward 1/2; the MAP plug-in
    :math:`\\sigma(\\mu)` does not.

    Parameters
    ----------
    tau, fit_intercept, max_iter, tol
        As in :class:`MAPLogisticRegression` (the intercept's prior is flat).
    predictive : {"probit", "mc"}, default="probit"
        How to compute the predictive integral: :func:`probit_predictive`, or
        the mean of the sigmoid over ``n_draws`` posterior draws.
    n_draws : int, default=4000
        Posterior draws for ``predictive="mc"``, >= 1.
    random_state : int, RandomState instance or None, default=None
        Seeds the posterior draws, made once in ``fit``: every prediction
        averages over the same draws, so it does not depend on the batch.

    Attributes
    ----------
    posterior_cov_ : ndarray of shape (n_params, n_params)
        :math:`H^{-1}`, intercept first when ``fit_intercept``.
    coef_, intercept_, classes_, hessian_, n_iter_, n_features_in_
        As in :class:`MAPLogisticRegression`.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> X, y = make_classification(n_samples=60, n_features=2, n_redundant=0, random_state=1)
    >>> model = LaplaceLogisticRegression(tau=2.0).fit(X, y)
    >>> far = np.array([[40.0, -40.0]])
    >>> plug_in = MAPLogisticRegression(tau=2.0).fit(X, y).predict_proba(far)[0, 1]
    >>> bool(abs(model.predict_proba(far)[0, 1] - 0.5) < abs(plug_in - 0.5))
    True
    """

    def __init__(self, tau=1.0, *, predictive="probit", n_draws=4000, random_state=None,
                 fit_intercept=True, max_iter=100, tol=1e-10):
        super().__init__(tau, fit_intercept=fit_intercept, max_iter=max_iter, tol=tol)
        self.predictive = predictive
        self.n_draws = n_draws
        self.random_state = random_state

    def fit(self, X, y):
        """Fit the MAP estimate and the Gaussian approximation around it; returns ``self``."""
        check_option(self.predictive, "predictive", ["probit", "mc"])
        check_int(self.n_draws, "n_draws", low=1, why="it is the number of posterior draws")
        X = self._fit_map(X, y)
        try:
            self.posterior_cov_ = np.linalg.inv(self.hessian_)
        except np.linalg.LinAlgError as error:
            raise ValueError("the Hessian at the MAP is singular (a constant feature with "
                             "fit_intercept=True?); drop that feature.") from error
        self._log_evidence = self._laplace_log_evidence(self._X1, self._y01)
        # Draw once, at fit time: every later call averages over the same
        # posterior draws, so predictions are reproducible and batch-independent.
        # The probit predictive needs no draws, so they are made only for "mc".
        if self.predictive == "mc":
            rng = check_random_state(self.random_state)
            standard = rng.standard_normal((int(self.n_draws), self.theta_.size))
            chol = np.linalg.cholesky(self.posterior_cov_ + 1e-12 * np.eye(self.theta_.size)
                                      * np.trace(self.posterior_cov_))
            self._posterior_draws = self.theta_ + standard @ chol.T
        del self._X1, self._y01
        return self

    def _laplace_log_evidence(self, X1, y):
        theta = self.theta_
        z = X1 @ theta
        log_likelihood = float(np.sum(y * z - np.logaddexp(0.0, z)))
        weights = theta[int(self.fit_intercept):]
        n_weights, tau = weights.size, float(self.tau)
        log_prior = -0.5 * n_weights * np.log(2 * np.pi * tau**2) - weights @ weights / (2 * tau**2)
        _, log_det = np.linalg.slogdet(self.hessian_)
        return log_likelihood + log_prior + 0.5 * theta.size * np.log(2 * np.pi) - 0.5 * log_det

    def log_marginal_likelihood(self):
        """Laplace's approximation to the log evidence :math:`\\log p(S \\mid \\tau)` (nats).

        :math:`\\log p(S\\mid\\theta_{\\text{MAP}}) + \\log p(w_{\\text{MAP}}) +
        \\tfrac d2\\log 2\\pi - \\tfrac12\\log\\det H`, with ``d`` parameters.
        The intercept's flat prior contributes a constant that does not
        depend on ``tau`` and is left out, so values are comparable across
        ``tau`` on the same data, which is what choosing ``tau`` needs.
        """
        check_is_fitted(self)
        return self._log_evidence

    def logit_mean_var(self, X):
        """Posterior mean and variance of the log-odds :math:`\\theta^\\top\\tilde x` for each row."""
        check_is_fitted(self)
        X = _named("X", lambda: validate_data(self, X, dtype=np.float64, reset=False))
        X1 = _design(X, self.fit_intercept)
        with np.errstate(over="ignore", invalid="ignore"):
            mean = X1 @ self.theta_
            variance = np.einsum("ij,jk,ik->i", X1, self.posterior_cov_, X1)
        if not (np.all(np.isfinite(mean)) and np.all(np.isfinite(variance))):
            raise ValueError("X is too large: the log-odds' mean or variance overflows at "
                             f"largest |x| {np.abs(X1).max():g}; standardize X "
                             "(predict_proba and decision_function still work).")
        return mean, variance

    def decision_function(self, X):
        """The predictive log-odds :math:`\\log(p / (1 - p))`, consistent with ``predict_proba``.

        Exact, never from a clipped probability: :math:`\\mu/\\sqrt{1 + \\pi s^2/8}`
        for the probit predictive, a log-mean-exp over the draws for "mc".
        """
        check_is_fitted(self)
        X = _named("X", lambda: validate_data(self, X, dtype=np.float64, reset=False))
        X1 = _design(X, self.fit_intercept)
        if self.predictive == "probit":
            # Rows scaled by r = max(1, max|x|): mu / sqrt(1 + pi s^2 / 8) equals
            # mu' / sqrt(1 / r^2 + pi s'^2 / 8) with mu', s' those of x / r, which
            # cannot overflow; so any finite X has its limiting probabilities.
            r = np.maximum(1.0, np.abs(X1).max(axis=1, initial=0.0))
            Xs = X1 / r[:, None]
            mean = Xs @ self.theta_
            variance = np.einsum("ij,jk,ik->i", Xs, self.posterior_cov_, Xs)
            return mean / np.sqrt((1.0 / r) ** 2 + np.pi * variance / 8.0)
        log_p, log_q = self._mc_log_proba(X1)
        return log_p - log_q

    def _mc_log_proba(self, X1):
        draws = self._posterior_draws.T
        # Rows in blocks: the (rows x n_draws) matrix of log-sigmoids stays a few MB.
        block = max(1, 2_000_000 // draws.shape[1])
        log_p, log_q = [], []
        for start in range(0, X1.shape[0], block):
            with np.errstate(over="ignore", invalid="ignore"):
                z = X1[start:start + block] @ draws
            z = np.nan_to_num(z, nan=0.0, posinf=np.finfo(float).max, neginf=-np.finfo(float).max)
            log_p.append(logsumexp(-np.logaddexp(0.0, -z), axis=1) - np.log(draws.shape[1]))
            log_q.append(logsumexp(-np.logaddexp(0.0, z), axis=1) - np.log(draws.shape[1]))
        return np.concatenate(log_p), np.concatenate(log_q)

    def predict_proba(self, X):
        """Approximate posterior predictive probabilities, columns in the order of ``classes_``."""
        z = self.decision_function(X)
        return np.column_stack([expit(-z), expit(z)])

    def predict_log_proba(self, X):
        """Log of ``predict_proba``, exact (from the predictive log-odds, no clipping)."""
        z = self.decision_function(X)
        return np.column_stack([-np.logaddexp(0.0, z), -np.logaddexp(0.0, -z)])
