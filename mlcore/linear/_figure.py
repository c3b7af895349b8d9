"""The interactive figure of :mod:`mlcore.linear`: :class:`GradientDescentFigure`,
a subclass of :class:`~mlcore.widgets.InteractiveFigure` showing gradient
descent's loss gap and moving decision boundary.
"""

from __future__ import annotations

import warnings

import numpy as np
from matplotlib.ticker import LogLocator, NullLocator
from sklearn.exceptions import ConvergenceWarning

from .._validation import check_array, check_int
from ..widgets import InteractiveFigure
from ._estimator import LogisticRegressionGD
from ._functions import (
    _check_labels01,
    gradient_descent_path,
    logistic_loss,
    sample_logistic_data,
    sigmoid,
)


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


_SEPARABLE = ("X and y must not be linearly separable: the logistic loss then has no minimum "
              "for the figure to show; add label noise or overlapping points.")


def _separable(X, y) -> bool:
    """True if a line separates the classes strictly (one linear program, milliseconds).

    Feasibility of ``s_i (w . x_i + b) >= 1`` with ``s_i = 2 y_i - 1``; on
    standardized X so the tolerance of the solver is scale-free.
    """
    from scipy.optimize import linprog
    Z = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)
    signs = 2.0 * y - 1.0
    A = -signs[:, None] * np.column_stack([Z, np.ones(len(Z))])
    result = linprog(np.zeros(A.shape[1]), A_ub=A, b_ub=-np.ones(len(Z)),
                     bounds=[(None, None)] * A.shape[1], method="highs")
    return result.status == 0


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
        if (X is None) != (y is None):
            raise ValueError("X and y must be given together (or both left out for the "
                             f"default data), got {'y without X (X=None)' if X is None else 'X without y (y=None)'}.")
        if X is None:
            X, y = sample_logistic_data([-0.5, 2.0, -1.0], 200, random_state=0)
        self.X = check_array(X, "X")
        if self.X.ndim != 2 or self.X.shape[1] != 2:
            raise ValueError(f"X must have exactly two features to be drawn, got shape {self.X.shape}.")
        self.y = _check_labels01(y, "y", self.X.shape[0])
        self.max_iter = check_int(max_iter, "max_iter", low=1)
        if _separable(self.X, self.y):
            raise ValueError(_SEPARABLE)
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)
            try:
                best = LogisticRegressionGD(tol=1e-10, max_iter=100_000).fit(self.X, self.y)
            except ConvergenceWarning:  # e.g. separable up to points on the boundary
                raise ValueError(_SEPARABLE) from None
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

    def dynamic_artists(self):
        # update() changes the loss curve, the shading, the boundary and the
        # titles; the data points, the MLE line and the legend sit above the
        # shading, so they are repainted with it (in z-order).
        return [self.gap_line, self.gap_dot, self.ax_loss.title, *self.ax_data.images,
                *self.ax_data.collections, *self.ax_data.lines, self.ax_data.get_legend(),
                self.ax_data.title]
