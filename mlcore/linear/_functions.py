"""Logistic regression from first principles (chapter 1).

The model is :math:`P(y = 1 \\mid x; \\theta) = \\sigma(\\theta^\\top \\tilde x)` with
:math:`\\tilde x = (1, x_1, \\dots, x_n)`, so ``theta[0]`` is the intercept
:math:`b` and ``theta[1:]`` the weights. Everything here works on the *mean*
cross-entropy over the :math:`m` samples,

.. math::

    J(\\theta) = -\\frac1m \\sum_{i=1}^m \\bigl[y^{(i)} \\log \\sigma(z^{(i)})
                 + (1 - y^{(i)}) \\log(1 - \\sigma(z^{(i)}))\\bigr],
    \\qquad z^{(i)} = \\theta^\\top \\tilde x^{(i)},

whose gradient is :math:`\\frac1m \\tilde X^\\top(\\sigma(\\tilde X\\theta) - y)`.

Pure functions (each tested against SciPy or scikit-learn):
:func:`sigmoid`, :func:`logit`, :func:`cross_entropy`, :func:`logistic_loss`,
:func:`logistic_gradient`, :func:`logistic_hessian`,
:func:`gradient_descent_path`, :func:`sample_logistic_data`.
The estimator :class:`LogisticRegressionGD` fits the same model by full-batch
gradient descent with the scikit-learn API, and :class:`GradientDescentFigure`
is the chapter's interactive figure.
"""

from __future__ import annotations

import warnings

import numpy as np
from matplotlib.ticker import LogLocator, NullLocator
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import check_int, check_real
from .widgets import InteractiveFigure

__all__ = [
    "sigmoid",
    "logit",
    "cross_entropy",
    "logistic_loss",
    "logistic_gradient",
    "logistic_hessian",
    "gradient_descent_path",
    "sample_logistic_data",
    "LogisticRegressionGD",
    "GradientDescentFigure",
]

_THETA_WHY = "theta holds the intercept first, then one weight per column of X"


# -- the link function and the loss -----------------------------------------
def sigmoid(z):
    """The logistic function :math:`\\sigma(z) = 1 / (1 + e^{-z})`, computed without overflow.

    For :math:`z < 0` it uses the equal form :math:`e^{z} / (1 + e^{z})`, so
    ``exp`` only ever sees non-positive numbers and never overflows.

    Parameters
    ----------
    z : array_like
        Log-odds, any real numbers.

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
    z = np.asarray(z, dtype=float)
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
    p = np.asarray(p, dtype=float)
    bad = ~((p >= 0) & (p <= 1))
    if bad.any():
        raise ValueError(f"p must hold probabilities in [0, 1], got a value of {float(p[bad].flat[0])!r}.")
    with np.errstate(divide="ignore"):
        out = np.log(p) - np.log1p(-p)
    return out[()] if out.ndim == 0 else out


def _check_labels01(y, name="y", n=None):
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
    y_prob = np.asarray(y_prob, dtype=float)
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


def _check_problem(theta, X, y):
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (m samples by n features), got shape {X.shape}.")
    if not np.isfinite(X).all():
        raise ValueError("X must be finite, got NaN or inf; remove or impute those values.")
    y = _check_labels01(y, "y", X.shape[0])
    theta = np.asarray(theta, dtype=float)
    if not np.isfinite(theta).all():
        raise ValueError(f"theta must be finite, got {theta!r}; {_THETA_WHY}.")
    if theta.shape != (X.shape[1] + 1,):
        raise ValueError(f"theta must have shape ({X.shape[1] + 1},) for X with {X.shape[1]} "
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
    theta0 = np.zeros(np.shape(X)[1] + 1) if theta0 is None and np.ndim(X) == 2 else theta0
    theta0, X1, y = _check_problem(theta0, X, y)
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
    theta = np.asarray(theta, dtype=float)
    if theta.ndim != 1 or theta.size < 2 or not np.isfinite(theta).all():
        raise ValueError(f"theta must be a finite 1-D array of length >= 2, got {theta!r}; "
                         f"{_THETA_WHY}.")
    n_samples = check_int(n_samples, "n_samples", low=1, why="it is the number of samples m")
    rng = np.random.default_rng(random_state)
    X = rng.standard_normal((n_samples, theta.size - 1))
    y = (rng.random(n_samples) < sigmoid(theta[0] + X @ theta[1:])).astype(int)
    return X, y


# -- the estimator -------------------------------------------------------------
def _n_rows(a):
    """Number of samples of an array, list or DataFrame; None when it cannot tell cheaply."""
    shape = getattr(a, "shape", None)
    if shape is not None:
        return shape[0] if len(shape) else None
    return len(a) if hasattr(a, "__len__") else None


class LogisticRegressionGD(ClassifierMixin, BaseEstimator):
    """Binary logistic regression fitted by full-batch gradient descent.

    Minimizes the mean cross-entropy :math:`J(\\theta)` with no penalty, the
    same problem as ``sklearn.linear_model.LogisticRegression(C=np.inf)``.

    Parameters
    ----------
    learning_rate : float or "auto", default="auto"
        Step size :math:`\\eta > 0`. ``"auto"`` takes :math:`\\eta = 1/L` with
        :math:`L = \\lambda_{\\max}(\\tilde X^\\top\\tilde X)/(4m)`, a bound on the
        curvature of :math:`J`; with it every step lowers the loss.
    max_iter : int, default=1000
        Maximum number of gradient steps, >= 1.
    tol : float, default=1e-7
        Stop once the gradient's Euclidean norm is at most ``tol`` (>= 0); the
        parameters are then within about ``tol / mu`` of the optimum, ``mu``
        the smallest eigenvalue of the Hessian there.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[1]`` is the positive class.
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    n_iter_ : int
        Gradient steps taken.
    loss_curve_ : ndarray of shape ``(n_iter_ + 1,)``
        :math:`J` at the start and after every step.
    learning_rate_ : float
        The step size used (resolves ``"auto"``).
    n_features_in_ : int

    Examples
    --------
    >>> X, y = sample_logistic_data([-0.5, 2.0, -1.0], n_samples=300, random_state=0)
    >>> model = LogisticRegressionGD().fit(X, y)
    >>> model.coef_.round(2), model.intercept_.round(2)
    (array([[ 2.36, -1.15]]), array([-0.72]))
    >>> model.predict_proba(X[:2]).round(3)
    array([[0.568, 0.432],
           [0.339, 0.661]])
    >>> model.n_iter_ < 1000  # converged: the gradient norm fell below tol
    True
    >>> LogisticRegressionGD(learning_rate=-1).fit(X, y)
    Traceback (most recent call last):
    ...
    ValueError: learning_rate must be > 0, got learning_rate=-1.0; it is the step size of gradient descent.
    """

    def __init__(self, learning_rate="auto", max_iter=1000, tol=1e-7):
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _check_params(self):
        if not (isinstance(self.learning_rate, str) and self.learning_rate == "auto"):
            check_real(self.learning_rate, "learning_rate", low=0, low_open=True,
                       why="it is the step size of gradient descent")
        check_int(self.max_iter, "max_iter", low=1, why="it is the largest number of gradient steps")
        check_real(self.tol, "tol", low=0, why="fitting stops once the gradient norm is at most tol")

    def fit(self, X, y):
        """Fit the model to ``X`` (m by n) and the two-label target ``y``; returns ``self``."""
        self._check_params()
        n_X, n_y = _n_rows(X), _n_rows(y)
        if n_X is not None and n_y is not None and n_X != n_y:
            raise ValueError(f"X and y must have the same number of samples, got {n_X} rows "
                             f"in X and {n_y} labels in y.")
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(f"y has only one class (label {self.classes_[0].tolist()!r}); logistic "
                             "regression needs samples of both classes.")
        y_type = type_of_target(y, input_name="y")
        if y_type != "binary":
            raise ValueError(f"Only binary classification is supported. The type of the target "
                             f"is {y_type} with {self.classes_.size} classes; y must hold exactly "
                             "two labels (for more, see sklearn's LogisticRegression).")
        X1 = _design(X)
        y01 = (y == self.classes_[1]).astype(float)
        step = (1.0 / _smoothness(X1) if isinstance(self.learning_rate, str)
                else float(self.learning_rate))
        theta, _, losses, converged, grad_norm = _descend(
            X1, y01, np.zeros(X1.shape[1]), step, int(self.max_iter), float(self.tol), False)
        if not converged:
            warnings.warn(
                f"LogisticRegressionGD did not converge in max_iter={self.max_iter} steps: the "
                f"gradient norm is {grad_norm:.2e} > tol={self.tol:g}. Increase max_iter, change "
                f"learning_rate (used {step:.3g}) or standardize the features; on linearly "
                "separable data the unpenalized optimum lies at infinity.",
                ConvergenceWarning, stacklevel=2)
        self.intercept_ = theta[:1].copy()
        self.coef_ = theta[None, 1:].copy()
        self.n_iter_ = len(losses) - 1
        self.loss_curve_ = losses
        self.learning_rate_ = step
        return self

    def decision_function(self, X):
        """Log-odds :math:`\\theta^\\top\\tilde x` of the positive class ``classes_[1]``, shape (m,)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X @ self.coef_[0] + self.intercept_[0]

    def predict_proba(self, X):
        """Probabilities of ``classes_[0]`` and ``classes_[1]``, shape (m, 2)."""
        p = sigmoid(self.decision_function(X))
        return np.column_stack([1 - p, p])

    def predict(self, X):
        """The more probable label: ``classes_[1]`` where the log-odds are positive."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]


# -- the interactive figure ----------------------------------------------------------
def _boundary_points(theta, xlim, ylim):
    """Two points of the line theta0 + theta1 x1 + theta2 x2 = 0 spanning the box (empty if none)."""
    b, w1, w2 = (float(t) for t in theta)
    if max(abs(w1), abs(w2)) < 1e-12:
        return np.array([]), np.array([])
    if abs(w2) >= abs(w1):
        x1 = np.array(xlim, dtype=float)
        return x1, -(b + w1 * x1) / w2
    x2 = np.array(ylim, dtype=float)
    return -(b + w2 * x2) / w1, x2


class GradientDescentFigure(InteractiveFigure):
    """Gradient descent on a 2-D data set: the loss gap and the moving decision boundary.

    Left, :math:`J(\\theta_t) - J(\\hat\\theta)` against the step ``t`` on a log
    scale (a straight line means the gap shrinks by a constant factor per
    step); right, the data, the predicted probability as background shade,
    the boundary :math:`\\theta_t^\\top\\tilde x = 0` after ``n_iter`` steps and
    the maximum-likelihood boundary. Controls: ``learning_rate`` and
    ``n_iter``. The compute is :func:`gradient_descent_path`.

    Parameters
    ----------
    X, y : array_like, optional
        A data set with two features and 0/1 labels; by default 200 samples
        of :func:`sample_logistic_data` with :math:`\\theta = (-0.5, 2, -1)`.
    max_iter : int
        Right end of the iteration slider.

    Examples
    --------
    >>> figure = GradientDescentFigure()
    >>> figure.render(learning_rate=4.0, n_iter=100)[:4] == b"\\x89PNG"
    True
    """

    benchmark = ("learning_rate", [0.01, 0.1, 1.0, 4.0, 10.0, 30.0, 100.0])
    figsize = (8.0, 3.6)

    def __init__(self, X=None, y=None, *, max_iter=200, figsize=None, dpi=None):
        if X is None or y is None:
            X, y = sample_logistic_data([-0.5, 2.0, -1.0], 200, random_state=0)
        self.X = np.asarray(X, dtype=float)
        if self.X.ndim != 2 or self.X.shape[1] != 2:
            raise ValueError(f"X must have exactly two features to be drawn, got shape {self.X.shape}.")
        self.y = _check_labels01(y, "y", self.X.shape[0])
        self.max_iter = check_int(max_iter, "max_iter", low=1)
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)
            best = LogisticRegressionGD(tol=1e-10, max_iter=100_000).fit(self.X, self.y)
        self.theta_hat = np.r_[best.intercept_, best.coef_[0]]
        self.loss_hat = logistic_loss(self.theta_hat, self.X, self.y)
        super().__init__(figsize=figsize, dpi=dpi)

    def controls(self):
        import ipywidgets as widgets

        return {
            "learning_rate": widgets.FloatLogSlider(value=1.0, base=10, min=-2, max=2, step=0.125,
                                                    description="η", readout_format=".3g"),
            "n_iter": widgets.IntSlider(value=50, min=0, max=self.max_iter, step=5,
                                        description="iterations"),
        }

    def setup(self, fig):
        self.ax_loss, self.ax_data = fig.subplots(1, 2)
        (self.gap_line,) = self.ax_loss.semilogy([], [], color="C0", lw=2)
        (self.gap_dot,) = self.ax_loss.semilogy([], [], "o", color="C0")
        self.ax_loss.set(xlim=(0, self.max_iter), ylim=(1e-10, 1e2), xlabel="step t",
                         ylabel=r"$J(\theta_t) - J(\hat\theta)$ (nats)")
        # Few ticks and no minor ones: text is most of a redraw's cost.
        self.ax_loss.yaxis.set_major_locator(LogLocator(base=100.0, numticks=7))
        self.ax_loss.yaxis.set_minor_locator(NullLocator())
        pad = 0.3
        lo, hi = self.X.min(axis=0) - pad, self.X.max(axis=0) + pad
        self.xlim, self.ylim = (lo[0], hi[0]), (lo[1], hi[1])
        g1, g2 = np.meshgrid(np.linspace(*self.xlim, 60), np.linspace(*self.ylim, 60))
        self.grid = np.column_stack([np.ones(g1.size), g1.ravel(), g2.ravel()])
        self.shade = self.ax_data.imshow(np.full(g1.shape, 0.5), origin="lower", cmap="RdBu_r",
                                         vmin=0, vmax=1, alpha=0.35, aspect="auto",
                                         extent=(*self.xlim, *self.ylim))
        for label, colour, marker in ((0, "C0", "o"), (1, "C3", "^")):
            mask = self.y == label
            self.ax_data.scatter(*self.X[mask].T, s=12, c=colour, marker=marker, label=f"y = {label}")
        hat_x, hat_y = _boundary_points(self.theta_hat, self.xlim, self.ylim)
        self.ax_data.plot(hat_x, hat_y, "k--", lw=1, label=r"MLE $\hat\theta$")
        (self.boundary,) = self.ax_data.plot([], [], "k-", lw=2, label=r"$\theta_t$")
        self.ax_data.set(xlim=self.xlim, ylim=self.ylim, xlabel="$x_1$", ylabel="$x_2$")
        self.ax_data.legend(loc="lower left", fontsize=7)
        self.ax_loss.set_title(" ", fontsize=9)
        self.ax_data.set_title(" ", fontsize=9)
        # Lay the panels out once, then freeze them: constrained layout would
        # otherwise redo its work on every slider move.
        fig.canvas.draw()
        fig.set_layout_engine("none")

    def update(self, learning_rate, n_iter):
        thetas, losses = gradient_descent_path(self.X, self.y, learning_rate, n_iter)
        gap = np.maximum(losses - self.loss_hat, 1e-10)
        steps = np.arange(losses.size)
        self.gap_line.set_data(steps, gap)
        self.gap_dot.set_data(steps[-1:], gap[-1:])
        self.ax_loss.set_title(f"η = {learning_rate:.3g}: gap {gap[-1]:.1e} after {n_iter} steps",
                               fontsize=9)
        theta = thetas[-1]
        self.shade.set_data(sigmoid(self.grid @ theta).reshape(60, 60))
        self.boundary.set_data(*_boundary_points(theta, self.xlim, self.ylim))
        self.ax_data.set_title(f"θ = ({theta[0]:.2f}, {theta[1]:.2f}, {theta[2]:.2f})", fontsize=9)
