"""The interactive figures of :mod:`mlcore.feature_selection`: where a forward search stops
for a given ``tol`` (and what that costs and buys), and where an MI filter's cut falls among
the words' document frequencies.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_array, check_int, check_real
from ..widgets import InteractiveFigure


def tol_stop(path_scores, tol):
    """The step at which forward search with ``tol`` stops, from the full path's scores.

    ``path_scores[s - 1]`` is the CV score after step ``s`` of a full forward
    search. With ``tol`` the search accepts step ``s`` only if it improves the
    score of step ``s - 1`` (or of the empty set, taken as :math:`-\\infty`)
    by at least ``tol``; it returns the number of accepted steps, and the
    step (1-based) with the best score among them (CS229's output rule; the
    smallest on ties).

    Examples
    --------
    >>> tol_stop([0.70, 0.78, 0.77, 0.80], 0.0)
    (2, 2)
    >>> tol_stop([0.70, 0.78, 0.77, 0.80], -0.05)
    (4, 4)
    """
    scores = check_array(path_scores, "path_scores", ndim=1, min_length=1)
    tol = check_real(tol, "tol")
    accepted = 1
    while accepted < scores.size and scores[accepted] - scores[accepted - 1] >= tol:
        accepted += 1
    best = int(np.argmax(scores[:accepted])) + 1
    return accepted, best


class ForwardSearchFigure(InteractiveFigure):
    """Where a forward search with tolerance ``tol`` stops, what it outputs, what it costs.

    The full path's cross-validated score and (if given) test accuracy per
    step, on an axis zoomed to the scores; the steps a search with this
    ``tol`` would run are shaded, its output (the best subset on the run
    part, CS229's rule) is marked, and the caption gives its fits and test
    accuracy against the full path's best. Moving ``tol`` shows the trade of
    fits against accuracy that one static curve cannot. Control: ``tol``.

    Parameters
    ----------
    result : SearchResult
        A full forward search (no ``tol``, no ``max_features``).
    test_scores : sequence of float, optional
        Test accuracy of the subset after each step.
    tols : sequence of float, optional
        The slider's values (default: -0.02 to 0.02).
    n_features : int, optional
        Features in all (default: the length of the path), for the fits count.
    folds : int, default=5

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from mlcore.feature_selection import forward_search
    >>> X, y = load_iris(return_X_y=True)
    >>> figure = ForwardSearchFigure(forward_search(KNeighborsClassifier(3), X, y))
    >>> figure.render(tol=0.0)[:4] == b"\\x89PNG"
    True
    """

    benchmark = ("tol", [-0.02, 0.0, 0.01])
    figsize = (8.5, 3.6)

    def __init__(self, result=None, test_scores=None, tols=None, n_features=None, folds=5, *,
                 figsize=None, dpi=None):
        if result is None:
            from sklearn.datasets import load_wine
            from sklearn.naive_bayes import GaussianNB

            from ._search import forward_search

            X, y = load_wine(return_X_y=True)
            result = forward_search(GaussianNB(), X[:, :6], y, cv=5)
        self.path = result.path.reset_index(drop=True)
        self.scores = self.path["score"].to_numpy(float)
        steps = len(self.path)
        self.test = None if test_scores is None else np.asarray(test_scores, float)
        if self.test is not None and self.test.shape != (steps,):
            raise ValueError(f"test_scores must hold one score per step of the path ({steps}), "
                             f"got shape {self.test.shape}.")
        self.n = steps if n_features is None else check_int(n_features, "n_features", low=steps,
                                                             why="at least the path's length")
        self.folds = check_int(folds, "folds", low=2)
        self.tols = [round(float(t), 4) for t in (tols if tols is not None
                                                 else np.round(np.arange(-0.02, 0.0201, 0.005), 4))]
        super().__init__(figsize=figsize, dpi=dpi)

    def controls(self):
        import ipywidgets as widgets

        return {"tol": widgets.SelectionSlider(options=self.tols, value=0.0 if 0.0 in self.tols
                                               else self.tols[0], description="tol")}

    def setup(self, fig):
        ax = self.ax = fig.subplots()
        steps = np.arange(1, self.scores.size + 1)
        ax.plot(steps, self.scores, "o-", color="C0", label="CV score (chooses)")
        values = [self.scores]
        if self.test is not None:
            ax.plot(steps, self.test, "s--", color="C2", label="test accuracy (judges)")
            values.append(self.test)
        low, high = min(v.min() for v in values), max(v.max() for v in values)
        pad = 0.15 * (high - low + 1e-3)
        ax.set(xlabel="step = features selected", ylabel="accuracy", ylim=(low - pad, high + pad),
               xticks=steps)
        full_best = int(np.argmax(self.scores)) + 1
        ax.axvline(full_best, color="0.6", ls=":", lw=1)
        self.span = ax.axvspan(0.5, 1.5, color="C1", alpha=0.15, lw=0)
        (self.mark,) = ax.plot([], [], "*", color="C3", ms=16, label="output with this tol")
        ax.legend(fontsize=8, loc="lower right")
        self.caption = ax.text(0.5, 1.02, " ", transform=ax.transAxes, ha="center", va="bottom",
                               fontsize=9)

    def update(self, tol):
        tol = check_real(tol, "tol")
        accepted, best = tol_stop(self.scores, tol)
        self.span.set_x(0.5)
        self.span.set_width(accepted)
        self.mark.set_data([best], [self.scores[best - 1]])
        # fits: the accepted steps, plus the rejected step that stopped it (if any)
        run = min(accepted + 1, self.n)
        fits = self.folds * sum(self.n - s + 1 for s in range(1, run + 1))
        text = f"tol = {tol:+.3f}: stops after {accepted} steps, {fits} fits; outputs step {best}"
        if self.test is not None:
            text += (f", test {self.test[best - 1]:.3f} (full path's best: "
                     f"{self.test[int(np.argmax(self.scores))]:.3f})")
        self.caption.set_text(text)

    def dynamic_artists(self):
        return [self.span, self.mark, self.caption]


class FilterSizeFigure(InteractiveFigure):
    """Where an MI filter's cut at ``k`` falls among the words, and what it scores.

    Left, the cross-validated F1 (and accuracy) against ``k``, current ``k``
    marked on the F1 curve, the score that chooses ``k``. Right, every
    word's mutual information against its document frequency (log-log), the
    ``k`` kept words in colour above the moving cut; the caption gives the
    share of kept words seen in at most two messages, the rare words whose
    MI is mostly the estimate's bias. Control: ``k``.

    Parameters
    ----------
    ks : sequence of int
        The sizes evaluated.
    accuracy, f1 : sequence of float
        Their cross-validated scores.
    scores : array_like of shape (n_words,)
        Each word's MI (nats).
    doc_freq : array_like of shape (n_words,)
        In how many messages each word occurs.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> figure = FilterSizeFigure([1, 10, 100], [0.8, 0.9, 0.95], [0.2, 0.6, 0.8],
    ...                           rng.random(200) / 10, rng.integers(1, 50, 200))
    >>> figure.render(k=10)[:4] == b"\\x89PNG"
    True
    """

    benchmark = ("k", [1, 10, 100])
    figsize = (9.5, 3.6)

    def __init__(self, ks=None, accuracy=None, f1=None, scores=None, doc_freq=None, *, figsize=None,
                 dpi=None):
        if ks is None:
            rng = np.random.default_rng(0)
            doc_freq = rng.integers(1, 200, 500)
            scores = rng.gamma(1.0, 1e-3, 500) * np.log1p(doc_freq)
            ks, accuracy, f1 = [1, 10, 100], [0.87, 0.95, 0.98], [0.2, 0.8, 0.92]
        self.ks = [check_int(k, "ks", low=1) for k in ks]
        self.accuracy, self.f1 = np.asarray(accuracy, float), np.asarray(f1, float)
        self.scores = np.asarray(scores, float)
        self.doc_freq = np.asarray(doc_freq, float)
        if not self.ks or self.accuracy.shape != (len(self.ks),) or self.f1.shape != self.accuracy.shape:
            raise ValueError(f"ks, accuracy and f1 must be non-empty and of one length, got lengths "
                             f"{len(self.ks)}, {self.accuracy.size} and {self.f1.size}.")
        if self.scores.ndim != 1 or not self.scores.size or self.doc_freq.shape != self.scores.shape:
            raise ValueError(f"scores and doc_freq must be non-empty 1-D arrays of one length (one "
                             f"entry per word), got shapes {self.scores.shape} and "
                             f"{self.doc_freq.shape}.")
        self.order = np.argsort(-self.scores, kind="stable")
        super().__init__(figsize=figsize, dpi=dpi)

    def controls(self):
        import ipywidgets as widgets

        return {"k": widgets.SelectionSlider(options=self.ks, value=self.ks[len(self.ks) // 2],
                                             description="k (features)")}

    def setup(self, fig):
        self.ax_curve, self.ax_words = fig.subplots(1, 2, width_ratios=[1, 1.2])
        self.ax_curve.semilogx(self.ks, self.f1, "s-", color="C1", label="F1 (spam): chooses k")
        self.ax_curve.semilogx(self.ks, self.accuracy, "o-", color="C0", label="accuracy")
        (self.marker,) = self.ax_curve.plot([], [], "o", color="C3", ms=11, mfc="none", mew=2)
        self.ax_curve.set(xlabel="k, words kept (log scale)", ylabel="5-fold CV score")
        self.ax_curve.legend(fontsize=8, loc="lower right")
        positive = self.scores > 0
        floor = self.scores[positive].min() if positive.any() else 1e-6
        shown = np.maximum(self.scores, floor)
        self.ax_words.loglog(self.doc_freq, shown, ".", color="0.75", ms=3)
        (self.kept,) = self.ax_words.loglog([], [], ".", color="C3", ms=3)
        self.cut = self.ax_words.axhline(shown.max(), color="C3", lw=1, ls="--")
        self.shown = shown
        self.ax_words.set(xlabel="document frequency (messages containing the word)",
                          ylabel="MI with spam (nats)")
        self.caption = self.ax_words.text(0.5, 1.02, " ", transform=self.ax_words.transAxes,
                                          ha="center", va="bottom", fontsize=9)

    def update(self, k):
        if int(k) not in self.ks:
            raise ValueError(f"k must be one of {self.ks}, got k={k!r}.")
        i = self.ks.index(int(k))
        self.marker.set_data([k], [self.f1[i]])
        keep = self.order[: min(int(k), self.order.size)]
        self.kept.set_data(self.doc_freq[keep], self.shown[keep])
        self.cut.set_ydata([self.shown[keep[-1]]] * 2)
        rare = np.mean(self.doc_freq[keep] <= 2)
        self.caption.set_text(f"k = {k}: F1 {self.f1[i]:.4f}; {100 * rare:.0f} % of the kept words "
                              "occur in at most 2 messages")

    def dynamic_artists(self):
        return [self.marker, self.kept, self.cut, self.caption]
