"""Chapter 5's interactive figure: D_AKL and the regularized criterion against K
(private; the public face is mlcore.divergence).
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import NullLocator

from .._validation import check_int
from ..widgets import InteractiveFigure
from ._criterion import regularized_kl_criterion
from ._kl import kfold_kl_curve, max_n_folds
from ._paper import paper_datasets

__all__ = ["KLCriterionFigure"]


class KLCriterionFigure(InteractiveFigure):
    """D_AKL and D_ReKL = D_AKL + lam * exp(-K) against K, with K* marked.

    Parameters
    ----------
    curves : dict or None
        ``{name: (Ks, D_AKL)}``, precomputed once (a redraw only moves lines).
        None computes them for :func:`paper_datasets` with ``n_repeats``
        stratified repetitions and K from 2 to min(30, :func:`max_n_folds`).
    n_repeats : int
    random_state : int
    """

    benchmark = ("lam", list(np.geomspace(1e-2, 1e10, 12)))

    def __init__(self, curves=None, *, n_repeats=10, random_state=0, **kwargs):
        if curves is None:
            curves = {}
            for name, (X, y) in paper_datasets().items():
                Ks = np.arange(2, min(30, max_n_folds(*X.shape)) + 1)
                curves[name] = (Ks, kfold_kl_curve(X, Ks, y, n_repeats=n_repeats, stratify=True,
                                                   random_state=random_state))
        if not isinstance(curves, dict) or not curves:
            raise ValueError("curves must be a non-empty dict {name: (Ks, curve)}, got "
                             f"curves={curves!r}.")
        check_int(n_repeats, "n_repeats", low=1)
        self.curves = {name: (np.asarray(Ks), np.asarray(c, dtype=float))
                       for name, (Ks, c) in curves.items()}
        super().__init__(**kwargs)

    def controls(self):
        import ipywidgets as widgets
        names = list(self.curves)
        return {"dataset": widgets.Dropdown(options=names, value=names[0], description="data"),
                "lam": widgets.FloatLogSlider(value=1e4, base=10, min=-2, max=10, step=0.25,
                                              description="λ")}

    def setup(self, fig):
        self.ax = ax = fig.add_subplot()
        (self.line_akl,) = ax.plot([], [], "--", color="0.5", label=r"$D_{AKL}(K)$")
        (self.line_rekl,) = ax.plot([], [], "-", color="C0", label=r"$D_{AKL}(K)+\lambda e^{-K}$")
        (self.best,) = ax.plot([], [], "o", color="C3", label=r"$K^*$")
        ax.set(xlabel="number of folds K", ylabel="symmetric KL (nats, log scale)", yscale="log")
        ax.yaxis.set_minor_locator(NullLocator())     # few ticks: a redraw stays fast
        ax.legend(loc="upper right")

    def update(self, dataset, lam):
        Ks, curve = self.curves[dataset]
        criterion = regularized_kl_criterion(curve, Ks, lam)
        best = int(np.argmin(criterion))
        self.line_akl.set_data(Ks, curve)
        self.line_rekl.set_data(Ks, criterion)
        self.best.set_data([Ks[best]], [criterion[best]])
        self.ax.set_xlim(Ks[0] - 0.5, Ks[-1] + 0.5)
        # Fixed per data set: the penalized curve may leave the top at small K.
        self.ax.set_ylim(0.5 * curve.min(), 20 * curve.max())
        self.ax.set_title(f"{dataset}: K* = {Ks[best]} at λ = {lam:.3g}")
