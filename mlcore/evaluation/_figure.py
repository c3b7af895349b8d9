"""The interactive figure of :mod:`mlcore.evaluation`: :class:`ThresholdFigure`,
one threshold moving a point along the ROC and PR curves, with its confusion
matrix and F-beta.
"""

from __future__ import annotations

import numpy as np
from matplotlib.patches import Rectangle

from .._validation import check_real
from ..widgets import InteractiveFigure
from ._measures import _check_binary, auc_rank, average_precision, precision_recall_curve, roc_curve


def _default_scores():
    """Scores of a rare positive class (10 %): two overlapping Gaussians, 400 samples."""
    rng = np.random.default_rng(0)
    y = (rng.random(400) < 0.1).astype(int)
    return y, np.round(rng.normal(loc=1.5 * y, scale=1.0), 2)


class ThresholdFigure(InteractiveFigure):
    """A threshold on the scores: its point on the ROC and PR curves, its counts and F-beta.

    Left, the ROC curve with the point (FPR, TPR) of the rule "positive when
    score >= threshold"; middle, the PR curve with (recall, precision) and the
    F-beta contour through it; right, the confusion matrix and the measures.
    Controls: ``threshold`` and ``beta``.

    Parameters
    ----------
    y_true, y_score : array_like, optional
        Two-class labels (1 positive) and scores; by default 400 samples with
        10 % positives.

    Examples
    --------
    >>> figure = ThresholdFigure()
    >>> figure.render(threshold=1.0, beta=2.0)[:4] == b"\\x89PNG"
    True
    """

    benchmark = ("threshold", [-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0])
    figsize = (10.5, 3.5)

    def __init__(self, y_true=None, y_score=None, *, figsize=None, dpi=None):
        if y_true is None or y_score is None:
            y_true, y_score = _default_scores()
        self.positive, self.score = _check_binary(y_true, y_score, None)
        self.fpr, self.tpr, _ = roc_curve(self.positive.astype(int), self.score)
        self.precision, self.recall, _ = precision_recall_curve(self.positive.astype(int),
                                                                self.score)
        self.auc = auc_rank(self.positive.astype(int), self.score)
        self.ap = average_precision(self.positive.astype(int), self.score)
        grid = np.linspace(0.005, 1, 120)
        self.r_grid, self.p_grid = np.meshgrid(grid, grid)
        self._contour = None
        super().__init__(figsize=figsize, dpi=dpi)

    def controls(self):
        import ipywidgets as widgets

        low, high = float(self.score.min()), float(self.score.max())
        return {
            "threshold": widgets.FloatSlider(value=round((low + high) / 2, 2), min=round(low, 2),
                                             max=round(high, 2), step=0.05,
                                             description="threshold"),
            "beta": widgets.FloatLogSlider(value=1.0, base=2, min=-2, max=2, step=0.25,
                                           description="β", readout_format=".3g"),
        }

    def setup(self, fig):
        self.ax_roc, self.ax_pr, self.ax_cm = fig.subplots(1, 3, width_ratios=[1, 1, 0.8])
        self.ax_roc.plot(self.fpr, self.tpr, "C0", lw=1.5)
        self.ax_roc.plot([0, 1], [0, 1], "k:", lw=0.8)
        self.ax_roc.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), xlabel="false positive rate",
                        ylabel="true positive rate (recall)", aspect="equal")
        self.ax_roc.set_title(f"ROC, AUC = {self.auc:.3f}", fontsize=9)
        self.ax_pr.step(self.recall, self.precision, "C1", where="post", lw=1.5)
        self.ax_pr.axhline(self.positive.mean(), color="k", ls=":", lw=0.8)
        self.ax_pr.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), xlabel="recall",
                       ylabel="precision", aspect="equal")
        self.ax_pr.set_title(f"PR, average precision = {self.ap:.3f}", fontsize=9)
        (self.roc_dot,) = self.ax_roc.plot([], [], "o", color="C3", ms=8)
        (self.pr_dot,) = self.ax_pr.plot([], [], "o", color="C3", ms=8)
        self.ax_cm.set_axis_off()
        self.cells = {}
        for (row, col), name in zip([(0, 0), (0, 1), (1, 0), (1, 1)], ["TP", "FN", "FP", "TN"]):
            self.ax_cm.add_patch(Rectangle((col, 1 - row), 1, 1, fill=False, lw=1))
            self.cells[name] = self.ax_cm.text(col + 0.5, 1.5 - row, "", ha="center",
                                               va="center", fontsize=10)
        self.ax_cm.text(1, 2.15, "predicted +        predicted −", ha="center", fontsize=8)
        self.ax_cm.text(-0.1, 1.5, "true +", ha="right", va="center", fontsize=8)
        self.ax_cm.text(-0.1, 0.5, "true −", ha="right", va="center", fontsize=8)
        self.measures = self.ax_cm.text(1, -0.25, "", ha="center", va="top", fontsize=9)
        self.ax_cm.set(xlim=(-0.7, 2.1), ylim=(-1.2, 2.4))
        self.caption = self.ax_roc.text(0.98, 0.04, "", ha="right", fontsize=8,
                                        transform=self.ax_roc.transAxes)

    def update(self, threshold, beta):
        threshold = check_real(threshold, "threshold")
        beta = check_real(beta, "beta", low=0, low_open=True)
        predicted = self.score >= threshold
        tp = int(np.sum(predicted & self.positive))
        fp = int(np.sum(predicted & ~self.positive))
        fn = int(np.sum(~predicted & self.positive))
        tn = int(np.sum(~predicted & ~self.positive))
        recall = tp / (tp + fn)
        precision = tp / (tp + fp) if tp + fp else 1.0      # the PR curve's convention at recall 0
        fpr = fp / (fp + tn)
        b2 = beta**2
        f_beta = (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp) if tp else 0.0
        self.roc_dot.set_data([fpr], [recall])
        self.pr_dot.set_data([recall], [precision])
        for name, value in zip(["TP", "FN", "FP", "TN"], [tp, fn, fp, tn]):
            self.cells[name].set_text(f"{name}\n{value}")
        self.measures.set_text(f"P = {precision:.3f}   R = {recall:.3f}\n"
                               f"F_β (β = {beta:.3g}) = {f_beta:.3f}")
        self.caption.set_text(f"score ≥ {threshold:.2f}")
        if self._contour is not None:
            self._contour.remove()
        # F-beta of every (recall, precision): the contour through the point.
        f_grid = (1 + b2) * self.p_grid * self.r_grid / (b2 * self.p_grid + self.r_grid)
        self._contour = self.ax_pr.contour(self.r_grid, self.p_grid, f_grid,
                                           levels=[max(f_beta, 1e-3)], colors="C3",
                                           linewidths=0.8, linestyles="--")

    def dynamic_artists(self):
        # update() moves the two dots, rewrites the texts and redraws the
        # F-beta contour; axes, curves and the matrix's frame stay.
        return [self.roc_dot, self.pr_dot, self._contour, *self.cells.values(), self.measures,
                self.caption]
