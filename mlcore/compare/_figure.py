"""Figures of :mod:`mlcore.compare`: the critical-difference diagram and the
interactive bias-variance figure.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_int, check_real
from ..widgets import InteractiveFigure
from ._simulation import polynomial_bias_variance


def plot_cd_diagram(average_ranks, names, critical_difference, *, ax=None, title=None):
    """Demšar's critical-difference diagram.

    The learners sit on a rank axis (1 = best, on the left) at their average
    ranks; a thick bar joins each maximal group whose ranks differ by less
    than ``critical_difference`` (not significantly different by Nemenyi's
    test), and a bar of that length is drawn above the axis.

    Parameters
    ----------
    average_ranks : array_like of shape (k,)
    names : sequence of str, length k
    critical_difference : float
        From :func:`nemenyi_critical_difference`.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> ax = plot_cd_diagram([1.2, 2.5, 2.6, 3.7], list("ABCD"), 1.0)
    >>> len(ax.texts) >= 4
    True
    """
    import matplotlib.pyplot as plt

    ranks = np.asarray(average_ranks, dtype=float)
    names = list(names)
    if ranks.ndim != 1 or ranks.size != len(names) or ranks.size < 2:
        raise ValueError(f"average_ranks and names must have one entry per learner (>= 2), got "
                         f"{ranks.size} ranks and {len(names)} names.")
    critical_difference = check_real(critical_difference, "critical_difference", low=0, low_open=True,
                                     why="it is Nemenyi's critical difference of average ranks")
    k = ranks.size
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 1.3 + 0.22 * k), layout="constrained")
    order = np.argsort(ranks)
    ax.set(xlim=(0.5, k + 0.5), ylim=(-0.55 - 0.45 * ((k + 1) // 2), 1.6))
    ax.axhline(0, color="k", lw=1)
    for r in range(1, k + 1):
        ax.plot([r, r], [0, 0.12], color="k", lw=1)
        ax.text(r, 0.2, str(r), ha="center", va="bottom", fontsize=8)
    ax.plot([1, 1 + critical_difference], [1.2, 1.2], color="k", lw=2)
    ax.text(1 + critical_difference / 2, 1.3, f"CD = {critical_difference:.2f}", ha="center",
            va="bottom", fontsize=8)
    for line, i in enumerate(order):
        left = line < (k + 1) // 2
        y = -0.35 - 0.45 * (line if left else k - 1 - line)
        end = 0.5 if left else k + 0.5
        ax.plot([ranks[i], ranks[i], end], [0, y, y], color="0.3", lw=0.8)
        ax.text(end + (0.05 if not left else -0.05), y, f"{names[i]} ({ranks[i]:.2f})",
                ha="left" if not left else "right", va="center", fontsize=8)
    # Thick bars over maximal groups that Nemenyi's test cannot separate.
    sorted_ranks = ranks[order]
    groups = []
    for start in range(k):
        stop = start
        while stop + 1 < k and sorted_ranks[stop + 1] - sorted_ranks[start] < critical_difference:
            stop += 1
        if stop > start and not any(s <= start and stop <= e for s, e in groups):
            groups.append((start, stop))
    for level, (start, stop) in enumerate(groups):
        y = -0.1 - 0.1 * level
        ax.plot([sorted_ranks[start] - 0.03, sorted_ranks[stop] + 0.03], [y, y], color="C3", lw=3)
    ax.set_axis_off()
    if title:
        ax.set_title(title, fontsize=9)
    return ax


class BiasVarianceFigure(InteractiveFigure):
    """Polynomial fits to many training sets: bias, variance and their sum against the degree.

    A fixed design: every training set has the same 25 equally spaced
    :math:`x` in [0, 1] and fresh noisy labels of :math:`\\sin(2\\pi x)`, so
    no set is near-singular and every term is resolved. Left, 30 fitted
    polynomials of the chosen ``degree`` (one per training set), their mean
    and the truth; right, bias², variance and bias² + variance + noise over
    degrees 0–9 (exact: the fit is linear in the labels), with the expected
    error measured on 2,000 training sets (± 2 Monte Carlo s.e.) and the
    chosen degree marked. The compute is :func:`polynomial_bias_variance`
    with ``design="grid"``.

    Examples
    --------
    >>> figure = BiasVarianceFigure()
    >>> figure.render(degree=3)[:4] == b"\\x89PNG"
    True
    """

    benchmark = ("degree", [0, 1, 3, 5, 7, 9])
    figsize = (9.5, 3.4)

    def __init__(self, *, n_samples=25, noise=0.3, random_state=0, figsize=None, dpi=None):
        self.n_samples = check_int(n_samples, "n_samples", low=11)
        self.noise = check_real(noise, "noise", low=0, low_open=True, high=10)
        rng = np.random.default_rng(random_state)
        self.x = np.linspace(0, 1, self.n_samples)
        self.y = np.sin(2 * np.pi * self.x) + rng.normal(scale=self.noise, size=(30, self.n_samples))
        self.grid = np.linspace(0, 1, 120)
        self.table = polynomial_bias_variance(lambda t: np.sin(2 * np.pi * t), range(10),
                                              n_samples=self.n_samples, noise=self.noise,
                                              n_datasets=2000, design="grid", random_state=random_state)
        super().__init__(figsize=figsize, dpi=dpi)

    def controls(self):
        import ipywidgets as widgets

        return {"degree": widgets.IntSlider(value=3, min=0, max=9, step=1,
                                            description="degree")}

    def setup(self, fig):
        self.ax_fit, self.ax_curve = fig.subplots(1, 2)
        self.lines = [self.ax_fit.plot([], [], color="C0", lw=0.6, alpha=0.5)[0] for _ in range(30)]
        (self.mean_line,) = self.ax_fit.plot([], [], color="C3", lw=2, label="mean fit")
        self.ax_fit.plot(self.grid, np.sin(2 * np.pi * self.grid), "k--", lw=1.2, label="truth")
        self.ax_fit.set(xlim=(0, 1), ylim=(-2, 2), xlabel="x", ylabel="y")
        self.ax_fit.legend(fontsize=7, loc="lower left")
        table = self.table
        degrees = table.index.to_numpy()
        exact_sum = table["bias2_exact"] + table["variance_exact"] + self.noise**2
        self.ax_curve.semilogy(degrees, table["bias2_exact"], "-", color="C0", label="bias² (exact)")
        self.ax_curve.semilogy(degrees, table["variance_exact"], "-", color="C1", label="variance (exact)")
        self.ax_curve.semilogy(degrees, exact_sum, "-", color="k", lw=1, label="bias² + variance + noise")
        self.ax_curve.errorbar(degrees, table["expected_error"], yerr=2 * table["expected_error_se"],
                               fmt="s", ms=3, color="k", label="expected error (measured, ± 2 s.e.)")
        self.ax_curve.axhline(self.noise**2, color="0.5", ls=":", lw=1, label="noise")
        (self.marker,) = self.ax_curve.plot([], [], "s", color="C3", ms=9, mfc="none", mew=2)
        self.ax_curve.set(xlabel="polynomial degree", ylabel="squared error (log scale)")
        self.ax_curve.legend(fontsize=6)
        self.caption = self.ax_fit.text(0.5, 1.02, " ", transform=self.ax_fit.transAxes,
                                        ha="center", va="bottom", fontsize=9)

    def update(self, degree):
        degree = check_int(degree, "degree", low=0, high=9)
        V = (2 * self.x - 1)[:, None] ** np.arange(degree + 1)
        coef = self.y @ np.linalg.pinv(V).T                               # (30, degree + 1)
        fits = coef @ ((2 * self.grid - 1)[:, None] ** np.arange(degree + 1)).T
        for line, fit in zip(self.lines, fits):
            line.set_data(self.grid, fit)
        self.mean_line.set_data(self.grid, fits.mean(axis=0))
        row = self.table.loc[degree]
        self.marker.set_data([degree], [row["expected_error"]])
        self.caption.set_text(f"degree {degree}: bias² {row['bias2_exact']:.2g}, "
                              f"variance {row['variance_exact']:.3f}")

    def dynamic_artists(self):
        return [*self.lines, self.mean_line, self.marker, self.caption]
