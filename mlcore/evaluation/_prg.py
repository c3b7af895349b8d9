r"""Areas in PR space done carefully: the achievable (Davis–Goadrich) area and the
precision-recall-gain curve of Flach & Kull (2015).

Between two neighbouring points of a PR curve the classifiers one can build
(randomizing per sample between the two thresholds, or letting tied samples
in one at a time) gain true and false positives in a fixed ratio; along that
path precision is not linear in recall, so neither the chord nor the step is
the area they achieve. :func:`achievable_pr_area` integrates the path in
closed form. In precision-recall-*gain* coordinates the same paths are
straight lines, so trapezoids are exact there.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._measures import _check_binary, _counts_at_thresholds, average_precision  # noqa: F401 (doctest)


def _counts(y_true, y_score, pos_label):
    positive, score = _check_binary(y_true, y_score, pos_label)
    fps, tps, thresholds = _counts_at_thresholds(positive, score)
    return np.r_[0.0, tps], np.r_[0.0, fps], thresholds, float(tps[-1]), float(fps[-1])


def achievable_pr_area(y_true, y_score, *, pos_label=None):
    r"""Area under the PR curve with Davis & Goadrich's (2006) interpolation between points.

    From the point :math:`(TP_a, FP_a)` to the next, :math:`(TP_b, FP_b)`, the
    achievable classifiers have :math:`TP = u`, :math:`FP = FP_a + \lambda(u - TP_a)`,
    :math:`\lambda = \Delta FP/\Delta TP`, so with :math:`k = 1 + \lambda` and
    :math:`c = FP_a - \lambda TP_a` the segment adds

    .. math::
        \frac{1}{m^+}\int_{TP_a}^{TP_b}\frac{u}{k u + c}\,du
        = \frac{1}{m^+}\Bigl[\frac uk - \frac{c}{k^2}\ln(k u + c)\Bigr]_{TP_a}^{TP_b}.

    It differs from :func:`average_precision` (a step function: each new
    positive is charged the precision at its own threshold) wherever a
    positive enters after a negative, ties or not: between the two points the
    interpolated precision is below the step's, so the area is smaller
    (``[0, 1]`` scored ``[0.9, 0.1]``: AP 0.5, area :math:`1 - \ln 2 = 0.307`).

    Examples
    --------
    >>> y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.5, 0.5, 0.5, 0.2, 0.1]
    >>> round(achievable_pr_area(y, s), 4), round(average_precision(y, s), 4)
    (0.8805, 0.8333)
    """
    tp, fp, _, n_pos, _ = _counts(y_true, y_score, pos_label)
    d_tp, d_fp = np.diff(tp), np.diff(fp)
    keep = d_tp > 0                                        # steps that add recall
    tp_a, tp_b, fp_a = tp[:-1][keep], tp[1:][keep], fp[:-1][keep]
    lam = d_fp[keep] / d_tp[keep]
    k, c = 1.0 + lam, fp_a - lam * tp_a
    # k u + c = TP + FP > 0 at both ends except the origin (c = 0 there, and the log term vanishes)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_term = np.where(c != 0, c / k**2 * (np.log(k * tp_b + c) - np.log(k * tp_a + c)), 0.0)
    return float(np.sum((tp_b - tp_a) / k - log_term) / n_pos)


class PRGCurve(NamedTuple):
    """The result of :func:`prg_curve`."""

    recall_gain: np.ndarray
    """:math:`(R - \\pi)/((1 - \\pi)R)` at each threshold, rising to 1; ``-inf`` at a
    threshold with no true positive yet (its limit as TP falls to 0)."""
    precision_gain: np.ndarray
    """:math:`(P - \\pi)/((1 - \\pi)P)` at each threshold (0 where everything is
    predicted positive; ``-inf`` where TP = 0, as for the recall gain). The
    ``-inf`` points lie left of RG = 0, so the area never uses them."""
    thresholds: np.ndarray
    """The falling distinct scores; predict positive when score >= threshold."""
    area: float
    """Area under the curve over recall gains in [0, 1] (trapezoids, exact in PRG space)."""


def prg_curve(y_true, y_score, *, pos_label=None):
    r"""The precision-recall-gain curve and its area (Flach & Kull 2015).

    With :math:`\pi` the share of positives,
    :math:`\mathrm{PG} = \frac{P - \pi}{(1-\pi)P} = 1 - \frac{\pi}{1-\pi}\frac{FP}{TP}` and
    :math:`\mathrm{RG} = \frac{R - \pi}{(1-\pi)R} = 1 - \frac{\pi}{1-\pi}\frac{FN}{TP}`.
    The classifier that calls everything positive sits at (RG 1, PG 0) for
    every :math:`\pi`; the F1-gain is :math:`(\mathrm{PG} + \mathrm{RG})/2`;
    and the classifiers achievable between two points lie on the straight
    line joining them, so the area is a trapezoid sum. Points with negative
    recall gain (recall below :math:`\pi`) are cut off at RG = 0 by linear
    interpolation, as in the authors' reference implementation; precision
    gains below 0 count negatively.

    Examples
    --------
    >>> curve = prg_curve([1, 1, 0, 1, 0, 0, 1, 0], [8, 7, 6, 5, 4, 3, 2, 1])
    >>> curve.recall_gain.round(3), curve.precision_gain.round(3)
    (array([-2.   ,  0.   ,  0.   ,  0.667,  0.667,  0.667,  1.   ,  1.   ]), array([1.   , 1.   , 0.5  , 0.667, 0.333, 0.   , 0.25 , 0.   ]))
    >>> round(curve.area, 4)
    0.4306
    """
    tp_all, fp_all, thresholds, n_pos, n_neg = _counts(y_true, y_score, pos_label)
    tp, fp = tp_all[1:], fp_all[1:]                        # drop the empty start (TP = 0)
    ratio = n_pos / n_neg
    with np.errstate(divide="ignore", invalid="ignore"):
        pg = np.where(tp > 0, 1 - ratio * fp / tp, -np.inf)
        rg = np.where(tp > 0, 1 - ratio * (n_pos - tp) / tp, -np.inf)
    rg[-1], pg[-1] = 1.0, 0.0                              # everything positive: exactly (1, 0)
    first = int(np.argmax(rg >= 0))
    x, y = rg[first:], pg[first:]
    if rg[first] > 0:                                      # cut the segment into it at RG = 0,
        tp_a, fp_a = tp_all[first], fp_all[first]          # i.e. at TP = pi m+ on its path
        lam = (fp[first] - fp_a) / (tp[first] - tp_a)
        tp_0 = n_pos * n_pos / (n_pos + n_neg)
        x, y = np.r_[0.0, x], np.r_[1 - ratio * (fp_a + lam * (tp_0 - tp_a)) / tp_0, y]
    area = float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))
    return PRGCurve(rg, pg, thresholds, area)
