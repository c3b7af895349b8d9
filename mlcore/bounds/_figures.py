"""The interactive figures of :mod:`mlcore.bounds`, subclasses of
:class:`~mlcore.widgets.InteractiveFigure`.

The sample size the finite-class bound asks for as k, gamma and delta move,
and the observed violation rate of uniform convergence beside the bound as m moves.
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import NullLocator

from .._validation import check_int
from ..widgets import InteractiveFigure
from ._formulas import (_delta, _k, binomial_deviation_tail, finite_class_gap,
                        finite_class_sample_size, hoeffding_tail)
from ._simulation import simulate_uniform_convergence


# -- interactive figures -----------------------------------------------------------
class SampleSizeFigure(InteractiveFigure):
    """How many samples the finite-class bound asks for, as k, gamma and delta move.

    Left: the required m against gamma (for the chosen k, delta); right: the
    required m against k (for the chosen gamma, delta). Both axes of m are
    logarithmic, so the left curve's slope -2 is the 1/gamma^2 cost and the
    right curve's straight line (log-x) is the mild log k cost.
    """

    benchmark = ("gamma", [0.01, 0.02, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2])
    GAMMAS = np.linspace(0.01, 0.2, 120)
    KS = np.unique(np.geomspace(1, 10**6, 120).round().astype(np.int64))

    def controls(self):
        import ipywidgets as widgets

        return {
            "k": widgets.SelectionSlider(options=[10**j for j in range(7)], value=1000,
                                         description="k = |H|"),
            "gamma": widgets.FloatSlider(value=0.05, min=0.01, max=0.2, step=0.01,
                                         description="γ", readout_format=".2f"),
            "delta": widgets.SelectionSlider(options=[0.001, 0.005, 0.01, 0.05, 0.1, 0.2, 0.5],
                                             value=0.05, description="δ"),
        }

    def setup(self, fig):
        self.ax_gamma, self.ax_k = fig.subplots(1, 2, sharey=True)
        (self.curve_gamma,) = self.ax_gamma.plot(self.GAMMAS, np.ones_like(self.GAMMAS))
        (self.dot_gamma,) = self.ax_gamma.plot([0.05], [1.0], "o", color="C3")
        (self.curve_k,) = self.ax_k.plot(self.KS, np.ones(self.KS.size), color="C2")
        (self.dot_k,) = self.ax_k.plot([1000], [1.0], "o", color="C3")
        self.ax_gamma.set(yscale="log", xlim=(0, 0.21), ylim=(10, 3e5), xlabel="accuracy γ",
                          ylabel="training examples m needed")
        self.ax_k.set(xscale="log", xlim=(0.7, 1.5e6), xlabel="class size k (log scale)")
        self.ax_k.set_xticks([10**j for j in range(7)])
        self.ax_gamma.set_yticks([10**j for j in range(1, 6)])
        for ax in (self.ax_gamma, self.ax_k):
            ax.grid(True, which="major", alpha=0.3)
            ax.xaxis.set_minor_locator(NullLocator())  # minor log ticks triple the redraw time
            ax.yaxis.set_minor_locator(NullLocator())
        self.ax_gamma.set_title("m against γ (k, δ fixed)", fontsize=10)
        self.ax_k.set_title("m against k (γ, δ fixed)", fontsize=10)
        self.title = fig.suptitle("", fontsize=11)

    def update(self, k, gamma, delta):
        m = finite_class_sample_size(k, gamma=gamma, delta=delta)
        self.curve_gamma.set_ydata(finite_class_sample_size(k, gamma=self.GAMMAS, delta=delta))
        self.curve_k.set_ydata(finite_class_sample_size(self.KS, gamma=gamma, delta=delta))
        self.dot_gamma.set_data([gamma], [m])
        self.dot_k.set_data([k], [m])
        self.title.set_text(f"m ≥ {m:,} examples make all {k:,} hypotheses "
                            f"{gamma:.2f}-accurate w.p. ≥ {1 - delta:g}")


class ViolationRateFigure(InteractiveFigure):
    """The observed ``P(max_h |eps(h) - eps_hat(h)| > gamma)`` beside the union bound, as m moves.

    One Monte Carlo run per value of m (cached): ``n_trials`` training sets
    from the threshold problem with ``k`` hypotheses. Beside it, the two
    exact curves that split the bound's slack: the union bound fed with the
    exact binomial tails :math:`\\sum_h P(A_h)` (from the union bound down to
    it is Hoeffding's own slack; from it down to the observed rate, the
    union's) and the worst single exact tail :math:`\\max_h P(A_h)`. The
    dashed vertical line is the gap :func:`finite_class_gap` guarantees with
    probability ``1 - delta``; the dot is how often it is actually exceeded.
    """

    benchmark = ("m", [25, 50, 100, 200, 400, 800, 1600])
    figsize = (7.0, 4.3)
    M_VALUES = [25, 50, 100, 200, 400, 800, 1600]
    GAMMAS = np.geomspace(0.01, 0.6, 240)

    def __init__(self, *, k=100, delta=0.05, n_trials=500, random_state=0, **kwargs):
        self.k = _k(k)
        self.delta = _delta(delta)
        self.n_trials = check_int(n_trials, "n_trials", low=1,
                                  why="it is the number of training sets")
        self.random_state = random_state
        # One simulation per slider position, run now so that a slider move only redraws.
        self._cache = {m: simulate_uniform_convergence(k, m=m, n_trials=self.n_trials,
                                                       random_state=random_state)
                       for m in self.M_VALUES}
        self._tails = {}
        for m in self.M_VALUES:
            self.exact_tails(m)
        super().__init__(**kwargs)

    def result(self, m):
        """The (cached) simulation at training-set size m."""
        if m not in self._cache:
            self._cache[m] = simulate_uniform_convergence(
                self.k, m=m, n_trials=self.n_trials, random_state=self.random_state)
        return self._cache[m]

    def exact_tails(self, m):
        """``P(A_h)`` for every hypothesis (rows) and every gap of ``GAMMAS`` (columns), exact."""
        if m not in self._tails:
            errors = self.result(m).true_errors
            self._tails[m] = binomial_deviation_tail(m, errors[:, None], gamma=self.GAMMAS[None, :])
        return self._tails[m]

    def controls(self):
        import ipywidgets as widgets

        return {"m": widgets.SelectionSlider(options=self.M_VALUES, value=200,
                                             description="m")}

    def setup(self, fig):
        ax = self.ax = fig.add_subplot()
        zeros = np.zeros_like(self.GAMMAS)
        (self.observed,) = ax.plot(self.GAMMAS, zeros, lw=2,
                                   label=r"observed $P(\max_h|\varepsilon-\hat\varepsilon|>\gamma)$")
        (self.union,) = ax.plot(self.GAMMAS, zeros, "--", color="C3",
                                label=r"union bound $2k\,e^{-2\gamma^2 m}$ (capped at 1)")
        (self.exact_union,) = ax.plot(self.GAMMAS, zeros, color="C1",
                                      label=r"union of exact tails $\sum_h P(A_h)$ (capped)")
        (self.exact_worst,) = ax.plot(self.GAMMAS, zeros, color="C2",
                                      label=r"worst single exact tail $\max_h P(A_h)$")
        (self.single,) = ax.plot(self.GAMMAS, zeros, ":", color="0.4",
                                 label=r"one hypothesis $2e^{-2\gamma^2 m}$")
        self.gap_line = ax.axvline(0.1, color="0.5", lw=1, ls="--")
        (self.gap_dot,) = ax.plot([0.1], [0.0], "o", color="C3")
        ax.axhline(self.delta, color="0.5", lw=0.8)
        ax.set(xscale="log", xlim=(0.01, 0.6), ylim=(-0.02, 1.02), xlabel="gap γ (log scale)",
               ylabel="probability over training sets")
        ticks = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5]
        ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
        ax.xaxis.set_minor_locator(NullLocator())
        fig.legend(loc="outside lower center", ncol=2, fontsize=8)
        self.title = ax.set_title("", fontsize=10)

    def update(self, m):
        result = self.result(m)
        self.observed.set_ydata(result.violation_rate(self.GAMMAS))
        self.union.set_ydata(np.minimum(1.0, result.bound(self.GAMMAS)))
        self.single.set_ydata(np.minimum(1.0, hoeffding_tail(m, gamma=self.GAMMAS)))
        tails = self.exact_tails(m)
        self.exact_union.set_ydata(np.minimum(1.0, tails.sum(axis=0)))
        self.exact_worst.set_ydata(tails.max(axis=0))
        gap = finite_class_gap(self.k, m=m, delta=self.delta)
        rate = result.violation_rate(gap)
        self.gap_line.set_xdata([gap, gap])
        self.gap_dot.set_data([gap], [rate])
        self.title.set_text(f"k = {self.k}, m = {m}: the bound promises a gap ≤ {gap:.3f} "
                            f"with probability ≥ {1 - self.delta:g};\nit is exceeded on "
                            f"{rate:.1%} of {result.n_trials} training sets (dot)")
