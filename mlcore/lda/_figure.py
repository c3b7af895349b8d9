"""Chapter 11's interactive figure: a rotating projection direction and Fisher's criterion
(private; the public face is :mod:`mlcore.lda`).
"""

from __future__ import annotations

import numpy as np

from .._validation import check_real
from ..widgets import InteractiveFigure
from ._checks import _check_two_class
from ._fisher import fisher_criterion, fisher_direction

__all__ = ["ProjectionFigure"]


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
            from ..datasets import read_data_file

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
