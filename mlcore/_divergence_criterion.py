"""The regularized KL criterion of chapter 5 and its interactive figure (private; re-exported by mlcore.divergence).

:func:`regularized_kl_criterion` adds the penalty lam * exp(-K) of the source
paper to a D_AKL curve, :func:`select_n_folds` returns its minimizer K*, and
:class:`KLCriterionFigure` shows both against K for a chosen lam.
"""

from __future__ import annotations

import numpy as np
from matplotlib.ticker import NullLocator

from ._validation import check_array, check_int, check_int_array, check_real
from .widgets import InteractiveFigure

__all__ = ["regularized_kl_criterion", "select_n_folds", "KLCriterionFigure"]


def regularized_kl_criterion(curve, Ks, lam, penalty=None):
    """D_ReKL(K) = D_AKL(K) + lam * f(K), with f(K) = exp(-K) unless ``penalty`` is given.

    Parameters
    ----------
    curve : array-like of shape (len(Ks),)
        D_AKL values, e.g. from :func:`kfold_kl_curve`.
    Ks : array-like of int
    lam : float or array-like of float
        Weight(s) of the penalty, >= 0. An array gives one row per value.
    penalty : callable or None
        f, applied to the array of Ks; must decrease in K for the criterion
        to make sense.

    Returns
    -------
    ndarray of shape (len(Ks),), or (len(lam), len(Ks))

    Examples
    --------
    >>> regularized_kl_criterion([1.0, 2.0], [2, 3], lam=np.exp(2)).round(3)
    array([2.   , 2.368])
    """
    curve = check_array(curve, "curve", allow_nan=True)
    Ks = check_int_array(Ks, "Ks", low=1, why="each K is a number of folds")
    Ks = np.asarray(Ks)
    if curve.ndim != 1 or curve.shape != Ks.shape:
        raise ValueError(f"curve and Ks must be 1-D of the same length, got shapes "
                         f"{curve.shape} and {Ks.shape}.")
    if not np.all(np.isfinite(curve)):
        raise ValueError("curve contains NaN or infinity; every D_AKL value must be finite.")
    if isinstance(lam, (bool, np.bool_, str, bytes)) or (
            np.ndim(lam) and np.asarray(lam).dtype.kind not in "iuf"):
        raise TypeError(f"lam must be a real number or an array of them, got lam={lam!r}.")
    for value in np.atleast_1d(np.asarray(lam, dtype=object)).ravel().tolist():
        check_real(value, "lam", low=0.0, why="it is the weight of the penalty on few folds")
    lams = np.asarray(lam, dtype=float)
    if penalty is not None and not callable(penalty):
        raise TypeError(f"penalty must be None or a function of the Ks, got penalty={penalty!r}.")
    f = np.exp(-Ks.astype(float)) if penalty is None else np.asarray(penalty(Ks), dtype=float)
    if f.shape != Ks.shape or not np.all(np.isfinite(f)):
        raise ValueError("penalty(Ks) must return one finite value per K.")
    return curve + lams[..., None] * f


def select_n_folds(curve, Ks, lam, penalty=None):
    """K* = argmin over Ks of :func:`regularized_kl_criterion` (the smallest K on ties).

    Returns an int, or an array of ints for an array of ``lam``.

    Examples
    --------
    >>> Ks = np.arange(2, 21)
    >>> curve = 0.05 * Ks                        # D_AKL growing linearly in K
    >>> select_n_folds(curve, Ks, lam=0.0), select_n_folds(curve, Ks, lam=1e3)
    (2, 10)
    """
    criterion = regularized_kl_criterion(curve, Ks, lam, penalty)
    best = np.asarray(Ks)[np.argmin(criterion, axis=-1)]
    return int(best) if best.ndim == 0 else best


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
            from ._divergence_paper import paper_datasets
            from .divergence import kfold_kl_curve, max_n_folds
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
