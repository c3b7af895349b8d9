"""The interactive figure of :mod:`mlcore.bayes`: :class:`PriorWidthFigure`, the
prior's width against the fitted boundary, the weights and the uncertainty.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import LogNorm
from scipy.special import expit
from sklearn.datasets import make_moons
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures, StandardScaler

from .._validation import as_random_state, check_int, check_real
from ..widgets import InteractiveFigure
from ._logistic import LaplaceLogisticRegression, probit_predictive

_GRID = 60


def polynomial_moons(n_samples=80, *, degree=6, noise=0.3, random_state=0):
    """A 2-D two-class data set and the polynomial feature map fitted to it.

    The points are scikit-learn's two moons; the map sends :math:`(x_1, x_2)`
    to every monomial :math:`x_1^a x_2^b` with :math:`1 \\le a + b \\le`
    ``degree``, each standardized, so that a linear model in the features has
    a curved boundary in the plane (CS229's picture of smoother fits for
    smaller :math:`\\tau`).

    Parameters
    ----------
    n_samples : int, default=80
        Number of points, >= 4.
    degree : int, default=6
        Highest total degree of the monomials, >= 1 (27 features at 6).
    noise : float, default=0.3
        Standard deviation of the Gaussian noise added to the moons, >= 0 (and small
        enough that the monomials do not overflow: ``|x|**degree <= 1e150``).
    random_state : int or None, default=0

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
    y : ndarray of shape (n_samples,)
    features : sklearn Pipeline
        Fitted on ``X``; ``features.transform(X)`` gives the model's inputs.

    Examples
    --------
    >>> X, y, features = polynomial_moons(40, degree=3)
    >>> X.shape, features.transform(X).shape
    ((40, 2), (40, 9))
    """
    n_samples = check_int(n_samples, "n_samples", low=4)
    degree = check_int(degree, "degree", low=1)
    noise = check_real(noise, "noise", low=0, high=1e100,
                       why="it is the standard deviation of the noise added to the moons "
                           "(the polynomial features of larger values overflow)")
    X, y = make_moons(n_samples=n_samples, noise=noise, random_state=as_random_state(random_state))
    largest = float(np.abs(X).max())
    if degree * np.log10(max(largest, 1.0)) > 150:   # the monomials' squares would overflow
        raise ValueError(f"noise={noise!r} is too large for degree={degree}: the points reach "
                         f"|x| = {largest:.3g}, and their monomials of degree {degree} overflow; "
                         f"use noise <= {10 ** (150 / degree) / 10:.3g}.")
    features = make_pipeline(PolynomialFeatures(degree, include_bias=False), StandardScaler())
    return X, y, features.fit(X)


class PriorWidthFigure(InteractiveFigure):
    """The prior's width :math:`\\tau` against the fit, the weights and the uncertainty.

    Left, the data and the MAP plug-in probability :math:`\\sigma(\\theta^\\top\\tilde x)`
    with its decision boundary; middle, the size of each of the polynomial
    weights (log scale); right, the posterior standard deviation of the
    log-odds, :math:`\\sqrt{\\tilde x^\\top H^{-1}\\tilde x}`, from the Laplace
    approximation (colour scale 0.1 to 1e5), with the 0.1 and 0.9 level sets
    of the plug-in (black, dashed) and of the Laplace predictive (white). The
    0.5 level sets of the two coincide (the probit keeps the sign of the
    log-odds), so the figure draws the levels where they differ. Control:
    ``tau``. The compute is :class:`LaplaceLogisticRegression`.

    Parameters
    ----------
    n_samples, degree, noise, random_state
        Passed to :func:`polynomial_moons`.

    Examples
    --------
    >>> figure = PriorWidthFigure(n_samples=40, degree=3)
    >>> figure.render(tau=10.0)[:4] == b"\\x89PNG"
    True
    """

    benchmark = ("tau", [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0])
    figsize = (10.0, 3.4)

    def __init__(self, n_samples=80, *, degree=6, noise=0.3, random_state=0, figsize=None,
                 dpi=None):
        self.X, self.y, self.features = polynomial_moons(n_samples, degree=degree, noise=noise,
                                                         random_state=random_state)
        self.Z = self.features.transform(self.X)
        pad = 0.4
        lo, hi = self.X.min(axis=0) - pad, self.X.max(axis=0) + pad
        self.extent = (lo[0], hi[0], lo[1], hi[1])
        g1, g2 = np.meshgrid(np.linspace(lo[0], hi[0], _GRID), np.linspace(lo[1], hi[1], _GRID))
        self.g1, self.g2 = g1, g2
        self.Z_grid = self.features.transform(np.column_stack([g1.ravel(), g2.ravel()]))
        self._contours = []
        super().__init__(figsize=figsize, dpi=dpi)

    def controls(self):
        import ipywidgets as widgets

        return {"tau": widgets.FloatLogSlider(value=1.0, base=10, min=-2, max=3, step=0.25,
                                              description="τ (prior sd)", readout_format=".3g")}

    def setup(self, fig):
        self.ax_fit, self.ax_coef, self.ax_unc = fig.subplots(1, 3, width_ratios=[1, 0.9, 1])
        blank = np.full((_GRID, _GRID), 0.5)
        self.shade = self.ax_fit.imshow(blank, origin="lower", extent=self.extent, cmap="RdBu_r",
                                        vmin=0, vmax=1, alpha=0.4, aspect="auto")
        self.spread = self.ax_unc.imshow(np.ones((_GRID, _GRID)), origin="lower",
                                         extent=self.extent, cmap="viridis", aspect="auto",
                                         norm=LogNorm(vmin=0.1, vmax=1e5))
        self.figure_colorbar = self.ax_unc.figure.colorbar(self.spread, ax=self.ax_unc,
                                                           label="sd of the log-odds")
        for ax in (self.ax_fit, self.ax_unc):
            for label, colour, marker in ((0, "C0", "o"), (1, "C3", "^")):
                mask = self.y == label
                ax.scatter(*self.X[mask].T, s=10, c=colour, marker=marker, edgecolors="k",
                           linewidths=0.3)
            ax.set(xlim=self.extent[:2], ylim=self.extent[2:], xlabel="$x_1$", ylabel="$x_2$")
        n_weights = self.Z.shape[1]
        self.bars = self.ax_coef.bar(np.arange(1, n_weights + 1), np.ones(n_weights), color="C2")
        self.ax_coef.set(yscale="log", ylim=(1e-4, 1e4), xlim=(0, n_weights + 1),
                         xlabel="weight j (monomials by degree)", ylabel="$|w_j|$")
        # Captions as texts at fixed axes positions, not titles: a title's
        # position is recomputed only by a full draw, and repaints skip that.
        self.captions = [ax.text(0.5, 1.02, " ", transform=ax.transAxes, ha="center",
                                 va="bottom", fontsize=9)
                         for ax in (self.ax_fit, self.ax_coef, self.ax_unc)]

    def update(self, tau):
        tau = check_real(tau, "tau", low=0, low_open=True)
        model = LaplaceLogisticRegression(tau=tau).fit(self.Z, self.y)
        mean, variance = model.logit_mean_var(self.Z_grid)
        plug_in = expit(mean)
        self.shade.set_data(plug_in.reshape(_GRID, _GRID))
        self.spread.set_data(np.sqrt(variance).reshape(_GRID, _GRID))
        weights = np.abs(model.coef_[0])
        for bar, height in zip(self.bars, np.maximum(weights, 1e-4)):
            bar.set_height(height)
        for contour in self._contours:
            contour.remove()
        bayes = probit_predictive(mean, variance).reshape(_GRID, _GRID)
        plug_grid = plug_in.reshape(_GRID, _GRID)
        self._contours = [
            self.ax_fit.contour(self.g1, self.g2, plug_grid, levels=[0.5], colors="k",
                                linewidths=1.5),
            self.ax_unc.contour(self.g1, self.g2, plug_grid, levels=[0.1, 0.9], colors="k",
                                linewidths=1.0, linestyles="--"),
            self.ax_unc.contour(self.g1, self.g2, bayes, levels=[0.1, 0.9], colors="w",
                                linewidths=1.5),
        ]
        accuracy = np.mean(model.predict(self.Z) == self.y)
        self.captions[0].set_text(f"τ = {tau:.3g}: MAP boundary, training accuracy {accuracy:.2f}")
        self.captions[1].set_text(f"weights: ‖w‖ = {np.linalg.norm(weights):.3g}")
        self.captions[2].set_text("sd of the log-odds; p = 0.1 and 0.9: plug-in (black), "
                                  "Laplace (white)")

    def dynamic_artists(self):
        # update() changes the two images, the bars, the contours and the
        # titles; the data points sit above the images and are repainted too.
        return [self.shade, self.spread, *self.bars, *self._contours, *self.ax_fit.collections,
                *self.ax_unc.collections, *self.captions]
