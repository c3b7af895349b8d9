"""The pure functions of :mod:`mlcore.linear`: the sigmoid and its inverse, the
cross-entropy, the logistic loss with its gradient and Hessian, gradient descent
and sampling from the logistic model, plus the private helpers the estimator
and the figure share (input checks, the design matrix, the descent loop).
"""

from __future__ import annotations

import numpy as np

from .._validation import as_generator, check_array, check_int, check_real, refuse_text

_THETA_WHY = "theta holds the intercept first, then one weight per column of X"


# -- the link function and the loss -----------------------------------------
def sigmoid(z):
    """The logistic function :math:`\\sigma(z) = 1 / (1 + e^{-z})`, computed without overflow.

    For :math:`z < 0` it uses the equal form :math:`e^{z} / (1 + e^{z})`, so
    ``exp`` only ever sees non-positive numbers and never overflows.

    Parameters
    ----------
    z : array_like
        Log-odds, any real numbers (infinities give 0 and 1, NaN gives NaN);
        strings and other non-numbers raise ``TypeError``.

    Returns
    -------
    ndarray or float
        Probabilities in [0, 1], same shape as ``z`` (a float for a scalar).

    Examples
    --------
    >>> print(sigmoid(0.0))
    0.5
    >>> sigmoid([-1000.0, 0.0, 2.0]).round(4)
    array([0.    , 0.5   , 0.8808])
    """
    z = check_array(z, "z", allow_nan=True)
    e = np.exp(-np.abs(z))
    out = np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))
    return out[()] if out.ndim == 0 else out


def logit(p):
    """The log-odds :math:`\\log\\frac{p}{1-p}`, inverse of :func:`sigmoid`.

    Parameters
    ----------
    p : array_like
        Probabilities in [0, 1]; ``logit(0) = -inf`` and ``logit(1) = inf``.

    Returns
    -------
    ndarray or float

    Examples
    --------
    >>> print(logit(0.5))
    0.0
    >>> logit([0.2, 0.8]).round(4)
    array([-1.3863,  1.3863])
    >>> logit(1.5)
    Traceback (most recent call last):
    ...
    ValueError: p must hold probabilities in [0, 1], got a value of 1.5.
    """
    p = check_array(p, "p", allow_nan=True)
    bad = ~((p >= 0) & (p <= 1))
    if bad.any():
        raise ValueError(f"p must hold probabilities in [0, 1], got a value of {float(p[bad].flat[0])!r}.")
    with np.errstate(divide="ignore"):
        out = np.log(p) - np.log1p(-p)
    return out[()] if out.ndim == 0 else out


def _check_labels01(y, name="y", n=None):
    refuse_text(y, name, "a 1-D array of labels 0 and 1")
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {y.shape}.")
    if n is not None and y.shape[0] != n:
        raise ValueError(f"X and {name} must have the same number of samples, "
                         f"got {n} rows in X and {y.shape[0]} labels in {name}.")
    if not np.isin(y, (0, 1)).all():
        raise ValueError(f"{name} must hold labels 0 and 1 only, got the values "
                         f"{np.unique(y)[:5].tolist()}; encode the positive class as 1.")
    return y.astype(float)


def cross_entropy(y_true, y_prob):
    """Mean binary cross-entropy (log loss) of predicted probabilities.

    :math:`-\\frac1m\\sum_i [y_i \\log p_i + (1-y_i)\\log(1-p_i)]`, with ``p``
    clipped to :math:`[\\epsilon, 1-\\epsilon]` (machine epsilon) as
    :func:`sklearn.metrics.log_loss` does, so a confident wrong answer costs
    about 36 nats instead of infinity.

    Parameters
    ----------
    y_true : array_like of shape (m,)
        Labels, 0 or 1.
    y_prob : array_like of shape (m,)
        Predicted probabilities that the label is 1.

    Returns
    -------
    float

    Examples
    --------
    >>> round(cross_entropy([1, 0], [0.9, 0.2]), 4)
    0.1643
    >>> round(cross_entropy([1, 0], [0.5, 0.5]), 4)  # log 2: a fair coin
    0.6931
    """
    y_prob = check_array(y_prob, "y_prob", allow_nan=True)
    y = _check_labels01(y_true, "y_true")
    if y_prob.shape != y.shape:
        raise ValueError(f"y_prob must have the shape of y_true {y.shape}, got {y_prob.shape}.")
    if not ((y_prob >= 0) & (y_prob <= 1)).all():
        raise ValueError("y_prob must hold probabilities in [0, 1]; pass sigmoid(z), not z.")
    eps = np.finfo(float).eps
    p = np.clip(y_prob, eps, 1 - eps)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log1p(-p)))


def _design(X):
    """X with a leading column of ones (the intercept's feature x_0 = 1)."""
    return np.column_stack([np.ones(X.shape[0]), X])


_LARGEST = 1e150  # |x| and |theta| above this make X @ theta overflow


def _check_problem(theta, X, y, theta_name="theta"):
    X = check_array(X, "X", allow_nan=True)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (m samples by n features), got shape {X.shape}.")
    if not np.isfinite(X).all():
        raise ValueError("X must be finite, got NaN or inf; remove or impute those values.")
    if np.abs(X).max(initial=0.0) > _LARGEST:
        raise ValueError(f"X must lie within [-{_LARGEST:g}, {_LARGEST:g}] (X @ theta would "
                         f"overflow), got largest |x| {np.abs(X).max():g}; standardize X.")
    y = _check_labels01(y, "y", X.shape[0])
    theta = check_array(theta, theta_name, allow_nan=True)
    if not np.isfinite(theta).all():
        raise ValueError(f"{theta_name} must be finite, got {theta!r}; {_THETA_WHY}.")
    if np.abs(theta).max(initial=0.0) > _LARGEST:
        raise ValueError(f"{theta_name} must lie within [-{_LARGEST:g}, {_LARGEST:g}] "
                         f"(X @ theta would overflow), got {theta!r}.")
    if theta.shape != (X.shape[1] + 1,):
        raise ValueError(f"{theta_name} must have shape ({X.shape[1] + 1},) for X with {X.shape[1]} "
                         f"features, got shape {theta.shape}; {_THETA_WHY}.")
    return theta, _design(X), y


def _loss_from_z(z, y):
    # log(1 + e^z) - y z is the cross-entropy of sigma(z), exact even when |z| is huge.
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def logistic_loss(theta, X, y):
    """Mean cross-entropy :math:`J(\\theta)` of the logistic model on ``(X, y)``.

    Computed as :math:`\\frac1m\\sum_i \\log(1 + e^{z_i}) - y_i z_i`, which is
    the same number as ``cross_entropy(y, sigmoid(z))`` but exact for any ``z``.

    Parameters
    ----------
    theta : array_like of shape (n + 1,)
        Intercept, then one weight per feature.
    X : array_like of shape (m, n)
    y : array_like of shape (m,)
        Labels, 0 or 1.

    Returns
    -------
    float

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0]]
    >>> y = [0, 0, 1]
    >>> round(logistic_loss([0.0, 0.0], X, y), 4)  # theta = 0 predicts 1/2: log 2
    0.6931
    >>> round(logistic_loss([-3.0, 2.0], X, y), 4)
    0.225
    """
    theta, X1, y = _check_problem(theta, X, y)
    return _loss_from_z(X1 @ theta, y)


def logistic_gradient(theta, X, y):
    """Gradient :math:`\\nabla J(\\theta) = \\frac1m \\tilde X^\\top(\\sigma(\\tilde X\\theta) - y)`.

    Entry 0 is :math:`\\partial J/\\partial b = \\frac1m\\sum_i(\\hat y_i - y_i)`,
    entry j is :math:`\\frac1m\\sum_i(\\hat y_i - y_i)\\,x_{ij}`.

    Parameters
    ----------
    theta, X, y
        As in :func:`logistic_loss`.

    Returns
    -------
    ndarray of shape (n + 1,)

    Examples
    --------
    >>> logistic_gradient([0.0, 0.0], [[0.0], [1.0], [2.0]], [0, 0, 1]).round(4)
    array([ 0.1667, -0.1667])
    """
    theta, X1, y = _check_problem(theta, X, y)
    return X1.T @ (sigmoid(X1 @ theta) - y) / X1.shape[0]


def logistic_hessian(theta, X, y):
    """Hessian :math:`\\nabla^2 J(\\theta) = \\frac1m \\tilde X^\\top S \\tilde X`, :math:`S = \\mathrm{diag}(\\hat y_i(1-\\hat y_i))`.

    It does not depend on ``y``; ``y`` is only checked. It is positive
    semidefinite for every ``theta``, which is why :math:`J` is convex.

    Parameters
    ----------
    theta, X, y
        As in :func:`logistic_loss`.

    Returns
    -------
    ndarray of shape (n + 1, n + 1)

    Examples
    --------
    >>> H = logistic_hessian([0.0, 0.0], [[0.0], [1.0], [2.0]], [0, 0, 1])
    >>> H.round(4)  # sigma'(0) = 1/4 times the mean of x x^T
    array([[0.25  , 0.25  ],
           [0.25  , 0.4167]])
    >>> bool(np.linalg.eigvalsh(H).min() >= 0)
    True
    """
    theta, X1, _ = _check_problem(theta, X, y)
    p = sigmoid(X1 @ theta)
    return (X1.T * (p * (1 - p))) @ X1 / X1.shape[0]


# -- gradient descent --------------------------------------------------------
def _smoothness(X1):
    """L = lambda_max(X1^T X1) / (4 m): the gradient of J is L-Lipschitz, since sigma' <= 1/4."""
    return float(np.linalg.norm(X1, ord=2) ** 2 / (4 * X1.shape[0]))


def _descend(X1, y, theta, learning_rate, max_iter, tol, keep_path):
    """Full-batch gradient descent; stops after max_iter steps or when ||grad|| <= tol."""
    m = X1.shape[0]
    path, losses = [theta], []
    converged, grad_norm = False, np.inf
    for _ in range(max_iter + 1):
        z = X1 @ theta
        losses.append(_loss_from_z(z, y))
        gradient = X1.T @ (sigmoid(z) - y) / m
        grad_norm = float(np.linalg.norm(gradient))
        if grad_norm <= tol:
            converged = True
            break
        if len(losses) > max_iter:
            break
        theta = theta - learning_rate * gradient
        if not np.abs(theta).max() <= _LARGEST:   # NaN-safe: diverged past the float range
            smooth = np.linalg.norm(X1, 2) ** 2 / (4 * m)   # L of the logistic loss
            raise ValueError(
                f"learning_rate={learning_rate:g} makes gradient descent diverge: after "
                f"{len(losses)} step(s) |theta| exceeds {_LARGEST:g} (X @ theta would overflow); "
                f"a learning_rate below 2/L = {2 / smooth:.4g} (L = ||X~||_2^2 / (4m)) "
                f"never goes uphill.")
        if keep_path:
            path.append(theta)
    return theta, np.array(path), np.array(losses), converged, grad_norm


def gradient_descent_path(X, y, learning_rate, n_iter, *, theta0=None):
    """Run ``n_iter`` steps :math:`\\theta \\leftarrow \\theta - \\eta\\nabla J(\\theta)` and keep every iterate.

    Parameters
    ----------
    X : array_like of shape (m, n)
    y : array_like of shape (m,)
        Labels, 0 or 1.
    learning_rate : float
        The step size :math:`\\eta > 0`.
    n_iter : int
        Number of steps, >= 0.
    theta0 : array_like of shape (n + 1,), optional
        Starting point; zeros (every probability 1/2) by default.

    Returns
    -------
    thetas : ndarray of shape (n_iter + 1, n + 1)
        ``thetas[t]`` is the parameter after ``t`` steps; row 0 is ``theta0``.
    losses : ndarray of shape (n_iter + 1,)
        ``losses[t] = logistic_loss(thetas[t], X, y)``.

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0], [3.0]]
    >>> y = [0, 1, 0, 1]
    >>> thetas, losses = gradient_descent_path(X, y, learning_rate=0.5, n_iter=100)
    >>> thetas.shape, losses.shape
    ((101, 2), (101,))
    >>> bool(np.all(np.diff(losses) <= 0))  # a small enough step never goes uphill
    True
    """
    if theta0 is None:  # the default needs X's shape: check X first
        X = check_array(X, "X", ndim=2, why="each row is a sample")
        theta0 = np.zeros(X.shape[1] + 1)
    theta0, X1, y = _check_problem(theta0, X, y, "theta0")
    learning_rate = check_real(learning_rate, "learning_rate", low=0, low_open=True,
                               why="it is the step size of gradient descent")
    n_iter = check_int(n_iter, "n_iter", low=0, why="it is the number of gradient steps")
    _, thetas, losses, _, _ = _descend(X1, y, theta0, learning_rate, n_iter, -1.0, True)
    return thetas, losses


def sample_logistic_data(theta, n_samples, *, random_state=None):
    """Draw a data set from the logistic model itself.

    Features are independent standard normals, :math:`x \\sim N(0, I_n)`, and
    :math:`y \\mid x \\sim \\mathrm{Bernoulli}(\\sigma(\\theta^\\top\\tilde x))`, so the
    maximum-likelihood estimate should approach ``theta`` as ``n_samples`` grows.

    Parameters
    ----------
    theta : array_like of shape (n + 1,)
        True intercept and weights.
    n_samples : int
        The number of samples m, >= 1.
    random_state : int, numpy.random.Generator or None
        Seed; the same seed gives the same data.

    Returns
    -------
    X : ndarray of shape (n_samples, n)
    y : ndarray of shape (n_samples,)
        Labels, 0 or 1 (int).

    Examples
    --------
    >>> X, y = sample_logistic_data([-0.5, 2.0, -1.0], n_samples=5, random_state=0)
    >>> X.shape, y.shape, sorted(set(y.tolist())) <= [0, 1]
    ((5, 2), (5,), True)
    """
    theta = check_array(theta, "theta", allow_nan=True)
    if theta.ndim != 1 or theta.size < 2 or not np.isfinite(theta).all():
        raise ValueError(f"theta must be a finite 1-D array of length >= 2, got {theta!r}; "
                         f"{_THETA_WHY}.")
    n_samples = check_int(n_samples, "n_samples", low=1, why="it is the number of samples m")
    rng = as_generator(random_state)
    X = rng.standard_normal((n_samples, theta.size - 1))
    y = (rng.random(n_samples) < sigmoid(theta[0] + X @ theta[1:])).astype(int)
    return X, y
