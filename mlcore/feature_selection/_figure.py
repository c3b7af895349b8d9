"""The interactive figures of :mod:`mlcore.feature_selection`: stepping through
a forward search, and the size of an MI filter against accuracy.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_int
from ..widgets import InteractiveFigure


class ForwardSearchFigure(InteractiveFigure):
    """One step of a forward search at a time: the features chosen, the score, the fits.

    Left, the cross-validated score after each step with the current step
    marked; right, a bar per feature showing the step at which it was added
    (bars appear as the slider moves). Control: ``step``.

    Parameters
    ----------
    result : SearchResult
        From :func:`forward_search`.
    feature_names : sequence of str, optional

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from mlcore.feature_selection import forward_search
    >>> X, y = load_iris(return_X_y=True)
    >>> figure = ForwardSearchFigure(forward_search(KNeighborsClassifier(3), X, y))
    >>> figure.render(step=2)[:4] == b"\\x89PNG"
    True
    """

    benchmark = ("step", [1, 2, 3, 4])
    figsize = (9.5, 3.4)

    def __init__(self, result=None, feature_names=None, *, figsize=None, dpi=None):
        if result is None:
            from sklearn.datasets import load_wine
            from sklearn.naive_bayes import GaussianNB

            from ._search import forward_search

            X, y = load_wine(return_X_y=True)
            result = forward_search(GaussianNB(), X[:, :6], y, cv=5)
        self.path = result.path
        self.n_features = len(self.path["selected"].iloc[-1]) + (0 if len(self.path) == 0 else 0)
        added = [f for f in self.path["feature"] if f is not None]
        self.features = sorted(set(added) | set(self.path["selected"].iloc[0]))
        self.names = list(feature_names) if feature_names is not None else [f"x{j}" for j in range(max(self.features) + 1)]
        super().__init__(figsize=figsize, dpi=dpi)

    def controls(self):
        import ipywidgets as widgets

        return {"step": widgets.IntSlider(value=1, min=1, max=len(self.path), step=1, description="step")}

    def setup(self, fig):
        self.ax_score, self.ax_bars = fig.subplots(1, 2)
        steps = self.path["step"].to_numpy()
        self.ax_score.plot(steps, self.path["score"], "o-", color="C0")
        (self.dot,) = self.ax_score.plot([], [], "o", color="C3", ms=10)
        self.ax_score.set(xlabel="step (features selected)", ylabel="cross-validated score")
        order = [f for f in self.path["feature"] if f is not None]
        self.order = order
        self.bars = self.ax_bars.barh(np.arange(len(order)), self.path["score"].to_numpy()[-len(order):],
                                      color="C2")
        self.ax_bars.set(yticks=np.arange(len(order)), yticklabels=[self.names[f] for f in order],
                         xlabel="score after adding it", xlim=(0, 1.05 * self.path["score"].max()))
        self.ax_bars.invert_yaxis()
        self.caption = self.ax_score.text(0.5, 1.02, " ", transform=self.ax_score.transAxes,
                                          ha="center", va="bottom", fontsize=9)

    def update(self, step):
        step = check_int(step, "step", low=1, high=len(self.path))
        row = self.path.iloc[step - 1]
        self.dot.set_data([row["step"]], [row["score"]])
        for i, bar in enumerate(self.bars):
            bar.set_visible(i < step)
        self.caption.set_text(f"step {row['step']}: added {self.names[row['feature']]}, score "
                              f"{row['score']:.3f}, {row['n_fits']} fits so far")

    def dynamic_artists(self):
        return [self.dot, *self.bars, self.caption]


class FilterSizeFigure(InteractiveFigure):
    """The number of features kept by a filter against cross-validated accuracy, with the words kept.

    Left, accuracy (and F1 on the positive class) against ``k`` on a log
    scale with the current ``k`` marked; right, the top words by score, those
    kept at this ``k`` highlighted. Control: ``k`` (an index into ``ks``).

    Parameters
    ----------
    ks : sequence of int
        The sizes evaluated.
    accuracy, f1 : sequence of float
        Their cross-validated scores.
    words : sequence of str
        Feature names ranked by score, best first (the first 20 are shown).

    Examples
    --------
    >>> figure = FilterSizeFigure([1, 10, 100], [0.8, 0.9, 0.95], [0.2, 0.6, 0.8], list("abcdefghij"))
    >>> figure.render(k=10)[:4] == b"\\x89PNG"
    True
    """

    benchmark = ("k", [1, 10, 100])
    figsize = (9.5, 3.6)

    def __init__(self, ks=None, accuracy=None, f1=None, words=None, *, figsize=None, dpi=None):
        if ks is None:
            ks, accuracy, f1, words = [1, 10, 100], [0.87, 0.95, 0.98], [0.2, 0.8, 0.92], list("abcdefghij")
        self.ks = [int(k) for k in ks]
        self.accuracy, self.f1 = np.asarray(accuracy, float), np.asarray(f1, float)
        self.words = list(words)[:20]
        super().__init__(figsize=figsize, dpi=dpi)

    def controls(self):
        import ipywidgets as widgets

        return {"k": widgets.SelectionSlider(options=self.ks, value=self.ks[len(self.ks) // 2],
                                             description="k (features)")}

    def setup(self, fig):
        self.ax_curve, self.ax_words = fig.subplots(1, 2, width_ratios=[1.3, 1])
        self.ax_curve.semilogx(self.ks, self.accuracy, "o-", label="accuracy")
        self.ax_curve.semilogx(self.ks, self.f1, "s-", label="F1 (spam)")
        (self.marker,) = self.ax_curve.plot([], [], "k|", ms=40, mew=2)
        self.ax_curve.set(xlabel="k, words kept (log scale)", ylabel="5-fold CV score", ylim=(0, 1.02))
        self.ax_curve.legend(fontsize=8, loc="lower right")
        self.ax_words.set_axis_off()
        self.texts = [self.ax_words.text(0.02 + 0.5 * (i // 10), 0.95 - 0.095 * (i % 10), f"{i + 1}. {w}",
                                         fontsize=9, transform=self.ax_words.transAxes, va="top")
                      for i, w in enumerate(self.words)]
        self.caption = self.ax_curve.text(0.5, 1.02, " ", transform=self.ax_curve.transAxes,
                                          ha="center", va="bottom", fontsize=9)

    def update(self, k):
        if int(k) not in self.ks:
            raise ValueError(f"k must be one of {self.ks}, got k={k!r}.")
        i = self.ks.index(int(k))
        self.marker.set_data([k], [self.accuracy[i]])
        for rank, text in enumerate(self.texts):
            kept = rank < k
            text.set_color("C3" if kept else "0.6")
            text.set_fontweight("bold" if kept else "normal")
        self.caption.set_text(f"k = {k}: accuracy {self.accuracy[i]:.3f}, F1 {self.f1[i]:.3f}")

    def dynamic_artists(self):
        return [self.marker, *self.texts, self.caption]
