"""Performance measures written from scratch (chapter 9): the confusion matrix,
precision, recall and F-beta, the PR and ROC curves, AUC by ranks, average
precision, the ROC convex hull and the cost curve.

Each function is checked in ``tests/test_evaluation.py`` against
``sklearn.metrics`` (and ``auc_rank`` against SciPy's Mann–Whitney U) on
scores with ties and with a rare positive class.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.stats import rankdata

from .._validation import check_int, check_option, check_real, refuse_text


# -- input checks -------------------------------------------------------------------
def _as_1d(values, name):
    refuse_text(values, name, "a 1-D array")
    array = np.asarray(values)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {array.shape}.")
    if array.size == 0:
        raise ValueError(f"{name} is empty; it needs at least one sample.")
    return array


def _check_labels(y, name):
    refuse_text(y, name, "a 1-D array of class labels")
    y = _as_1d(y, name)
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError(f"{name} contains NaN or inf; labels must be finite.")
    if y.dtype.kind not in "biufUSO":
        raise TypeError(f"{name} must hold class labels (integers or strings), got dtype {y.dtype}.")
    return y


_EXACT_INT = 2**53      # every integer up to this size is a float64 exactly


def _check_scores(y_score, name="y_score"):
    """Finite real scores, kept in their integer dtype so that large integers do not tie.

    Integer scores are ranked and sorted as integers: casting int64 values of
    2^53 or more to float64 would merge neighbours (``2**53`` and
    ``2**53 + 1`` become one float) and create ties that are not in the data.
    For the same reason floats wider than float64 (``np.longdouble``) keep their
    dtype; narrower floats become float64.
    Complex numbers and strings are refused rather than silently converted.
    """
    refuse_text(y_score, name, "a 1-D array of real-valued scores")
    raw = _as_1d(y_score, name)
    kind = raw.dtype.kind
    if kind == "b":
        return raw.astype(np.int64)
    if kind in "iu":
        return raw
    if kind == "f":
        # float16/32 widen exactly to float64; a wider float (long double) is kept, since
        # casting it down would tie scores that differ beyond float64's precision.
        scores = raw if raw.dtype.itemsize > 8 else raw.astype(float)
    elif kind == "O":
        values = raw.tolist()
        if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
            if max(abs(int(v)) for v in values) > _EXACT_INT:
                raise ValueError(f"{name} holds integers beyond 2**53 that do not fit in int64; "
                                 "they would tie once converted to float: pass them as an int64 "
                                 "array or rank them first.")
        try:
            scores = raw.astype(float)
        except (TypeError, ValueError) as error:
            raise TypeError(f"{name} must hold real numbers, got objects such as "
                            f"{values[0]!r}.") from error
    else:
        raise TypeError(f"{name} must hold real numbers (int or float), got dtype {raw.dtype}"
                        + ("; complex scores have no order" if kind == "c" else "") + ".")
    if not np.all(np.isfinite(scores)):
        raise ValueError(f"{name} contains {int(np.sum(~np.isfinite(scores)))} NaN or inf "
                         "value(s); scores must be finite.")
    return scores


def _check_binary(y_true, y_score, pos_label):
    """Return (is_positive, scores) after checking a two-class problem with finite scores."""
    y_true = _check_labels(y_true, "y_true")
    y_score = _check_scores(y_score)
    if y_true.shape != y_score.shape:
        raise ValueError(f"y_true and y_score must have the same length, got {y_true.size} "
                         f"labels and {y_score.size} scores.")
    classes = np.unique(y_true)
    if classes.size != 2:
        raise ValueError(f"y_true must contain exactly two classes, got {classes.size} "
                         f"({classes.tolist()[:5]}); the curve needs positives and negatives.")
    if pos_label is None:
        if set(classes.tolist()) <= {0, 1} or set(classes.tolist()) <= {-1, 1}:
            pos_label = 1
        else:
            raise ValueError(f"y_true has the labels {classes.tolist()}; say which one is positive "
                             "with pos_label.")
    elif pos_label not in classes.tolist():
        raise ValueError(f"pos_label={pos_label!r} is not one of the labels {classes.tolist()}.")
    return y_true == pos_label, y_score


def _counts_at_thresholds(positive, score):
    """True and false positives when predicting positive for score >= t, t each distinct score.

    Thresholds fall: the i-th entry counts every sample whose score is at
    least the i-th largest distinct score. One sort, O(m log m).
    """
    order = np.argsort(score, kind="mergesort")[::-1]
    score, positive = score[order], positive[order]
    last_of_each = np.r_[np.flatnonzero(score[1:] != score[:-1]), score.size - 1]   # no int overflow
    tps = np.cumsum(positive)[last_of_each]
    fps = last_of_each + 1 - tps
    return fps.astype(float), tps.astype(float), score[last_of_each]


# -- counts and F-beta --------------------------------------------------------------
def confusion_counts(y_true, y_pred, *, labels=None):
    """The confusion matrix: entry ``[i, j]`` counts samples of class ``labels[i]`` predicted ``labels[j]``.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (m,)
        True and predicted labels.
    labels : array_like, optional
        The classes, in the order of the rows and columns; by default every
        label in ``y_true`` or ``y_pred``, sorted.

    Returns
    -------
    ndarray of shape (n_classes, n_classes), int
        Rows are true classes, columns predicted ones (as in
        ``sklearn.metrics.confusion_matrix``). For two classes ``[0, 1]``:
        ``[[TN, FP], [FN, TP]]``.

    Examples
    --------
    >>> confusion_counts([0, 0, 1, 1, 1], [0, 1, 1, 1, 0])
    array([[1, 1],
           [1, 2]])
    """
    y_true, y_pred = _check_labels(y_true, "y_true"), _check_labels(y_pred, "y_pred")
    if y_true.shape != y_pred.shape:
        raise ValueError(f"y_true and y_pred must have the same length, got {y_true.size} and "
                         f"{y_pred.size}.")
    labels = np.unique(np.r_[y_true, y_pred]) if labels is None else _as_1d(labels, "labels")
    index = {label: i for i, label in enumerate(labels.tolist())}
    if len(index) != labels.size:
        raise ValueError(f"labels must not repeat, got {labels.tolist()}.")
    try:
        rows = np.array([index[v] for v in y_true.tolist()])
        cols = np.array([index[v] for v in y_pred.tolist()])
    except KeyError as error:
        raise ValueError(f"label {error.args[0]!r} is not in labels={labels.tolist()}.") from None
    n = labels.size
    return np.bincount(rows * n + cols, minlength=n * n).reshape(n, n)


def _f_from_counts(tp, fp, fn, beta):
    """F-beta from counts, 0 where it is undefined (no predicted and no true positives)."""
    b2 = beta**2
    denominator = (1 + b2) * tp + b2 * fn + fp
    return np.divide((1 + b2) * tp, denominator, out=np.zeros_like(tp, dtype=float),
                     where=denominator > 0)


def fbeta(y_true, y_pred, *, beta=1.0, average="binary", pos_label=1):
    """F-beta, the weighted harmonic mean of precision and recall.

    :math:`1/F_\\beta = \\frac{1}{1+\\beta^2}\\bigl(\\frac1P + \\frac{\\beta^2}{R}\\bigr)`,
    so :math:`F_\\beta = \\frac{(1+\\beta^2)PR}{\\beta^2P + R} = \\frac{(1+\\beta^2)TP}{(1+\\beta^2)TP + \\beta^2FN + FP}`:
    in the harmonic mean :math:`1/R` weighs :math:`\\beta^2` times as much as
    :math:`1/P`; equivalently (van Rijsbergen, scikit-learn's docs) recall is
    ":math:`\\beta` times as important": :math:`\\beta` is the ratio
    :math:`R/P` at which equal small gains in :math:`P` and :math:`R` raise
    :math:`F_\\beta` equally (``beta=1`` is F1).

    Parameters
    ----------
    y_true, y_pred : array_like of shape (m,)
    beta : float, default=1.0
        Weight of recall, > 0.
    average : {"binary", "macro", "macro-pr", "micro"}, default="binary"
        ``"binary"``: the F-beta of the class ``pos_label``. ``"macro"``: the
        mean of every class's F-beta (each class weighs the same; this is
        scikit-learn's ``average="macro"``). ``"macro-pr"``: the F-beta of
        macro-P and macro-R, the means of the per-class precisions and
        recalls (Zhou 2016, §2.3.2, calls this macro-F1; a class that is
        never predicted has precision 0). The two macro averages differ in
        general (Opitz & Burst 2019). ``"micro"``: F-beta of the true and
        false positives and negatives pooled over the classes (each sample
        weighs the same; for single-label problems it equals the accuracy).
    pos_label : label, default=1
        The positive class for ``average="binary"``.

    Returns
    -------
    float
        0 where precision and recall are both undefined (as scikit-learn's
        ``zero_division=0``).

    Examples
    --------
    >>> y_true, y_pred = [1, 1, 1, 0, 0, 0], [1, 1, 0, 1, 0, 0]
    >>> round(fbeta(y_true, y_pred), 4), round(fbeta(y_true, y_pred, beta=2), 4)
    (0.6667, 0.6667)
    >>> round(fbeta([0, 1, 2, 2], [0, 2, 2, 1], average="macro"), 4)
    0.5
    >>> round(fbeta([0, 0, 1, 1, 1, 1], [0, 0, 0, 0, 0, 1], average="macro-pr"), 4)   # P (0.4, 1), R (1, 0.25)
    0.6604
    """
    beta = check_real(beta, "beta", low=0, low_open=True,
                      why="it weighs recall beta^2 times as much as precision")
    if beta > 1e100:   # beta**2 must not overflow
        raise ValueError(f"beta must be at most 1e100, got beta={beta!r}.")
    check_option(average, "average", ["binary", "macro", "macro-pr", "micro"])
    matrix = confusion_counts(y_true, y_pred)
    labels = np.unique(np.r_[_as_1d(y_true, "y_true"), _as_1d(y_pred, "y_pred")])
    tp = np.diag(matrix).astype(float)
    fp = matrix.sum(axis=0) - tp
    fn = matrix.sum(axis=1) - tp
    if average == "binary":
        if labels.size > 2:
            raise ValueError(f"average='binary' needs two classes, got {labels.size}; use "
                             "average='macro' or 'micro'.")
        if pos_label not in labels.tolist():
            if labels.size == 2:
                raise ValueError(f"pos_label={pos_label!r} is not one of the labels "
                                 f"{labels.tolist()}.")
            return 0.0                                     # one class, the negative: no positives
        k = labels.tolist().index(pos_label)
        return float(_f_from_counts(tp[k], fp[k], fn[k], beta))
    if average == "macro":
        return float(np.mean(_f_from_counts(tp, fp, fn, beta)))
    if average == "macro-pr":
        precision = np.divide(tp, tp + fp, out=np.zeros_like(tp), where=tp + fp > 0).mean()
        recall = np.divide(tp, tp + fn, out=np.zeros_like(tp), where=tp + fn > 0).mean()
        b2 = beta**2
        denominator = b2 * precision + recall
        return float((1 + b2) * precision * recall / denominator) if denominator > 0 else 0.0
    return float(_f_from_counts(tp.sum(), fp.sum(), fn.sum(), beta))


# -- curves -------------------------------------------------------------------------
def roc_curve(y_true, y_score, *, pos_label=None):
    """The ROC curve: false and true positive rates as the threshold falls.

    Predicting positive when ``score >= t`` for every distinct score ``t``,
    from above the largest (nothing predicted positive, the point (0, 0)) down
    to the smallest (everything positive, (1, 1)). Samples with equal scores
    enter together, which gives a diagonal step.

    Parameters
    ----------
    y_true : array_like of shape (m,)
        Two classes; ``pos_label`` is positive (default 1 for 0/1 or ±1 labels).
    y_score : array_like of shape (m,)
        Finite scores, larger meaning more likely positive.
    pos_label : label, optional

    Returns
    -------
    fpr, tpr : ndarray
        Starting at 0 and ending at 1, non-decreasing.
    thresholds : ndarray
        Falling; the first is ``inf``. The same as
        ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``.

    Examples
    --------
    >>> fpr, tpr, thresholds = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr, tpr
    (array([0. , 0. , 0.5, 0.5, 1. ]), array([0. , 0.5, 0.5, 1. , 1. ]))
    """
    positive, score = _check_binary(y_true, y_score, pos_label)
    fps, tps, thresholds = _counts_at_thresholds(positive, score)
    return (np.r_[0.0, fps] / fps[-1], np.r_[0.0, tps] / tps[-1], np.r_[np.inf, thresholds])


def precision_recall_curve(y_true, y_score, *, pos_label=None):
    """Precision and recall at every distinct threshold, as ``sklearn.metrics.precision_recall_curve``.

    Returns
    -------
    precision, recall : ndarray
        Ordered by *rising* threshold, recall falling to 0; the last point is
        (precision 1, recall 0) by convention, with no threshold.
    thresholds : ndarray
        Rising distinct scores.

    Examples
    --------
    >>> precision, recall, thresholds = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> precision.round(3), recall
    (array([0.5  , 0.667, 0.5  , 1.   , 1.   ]), array([1. , 1. , 0.5, 0.5, 0. ]))
    """
    positive, score = _check_binary(y_true, y_score, pos_label)
    fps, tps, thresholds = _counts_at_thresholds(positive, score)
    precision = tps / (tps + fps)             # tps + fps >= 1: every threshold predicts a sample
    recall = tps / tps[-1]
    return np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0], thresholds[::-1]


def average_precision(y_true, y_score, *, pos_label=None):
    """Average precision: the precision at each threshold weighted by the recall it adds.

    :math:`\\mathrm{AP} = \\sum_k (R_k - R_{k-1})\\,P_k` over falling thresholds,
    a step function's area; no straight line is drawn between PR points
    (that would misstate the area, too high where precision falls: see
    chapter 9).

    Examples
    --------
    >>> round(average_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    precision, recall, _ = precision_recall_curve(y_true, y_score, pos_label=pos_label)
    return float(-np.sum(np.diff(recall) * precision[:-1]))


def auc_rank(y_true, y_score, *, pos_label=None):
    """Area under the ROC curve from ranks: the Mann–Whitney U statistic over :math:`m^+ m^-`.

    :math:`\\mathrm{AUC} = P(s^+ > s^-) + \\tfrac12 P(s^+ = s^-)` for a random
    positive and a random negative. With average ranks :math:`r_i` (ties
    share their mean rank), :math:`U = \\sum_{i \\text{ positive}} r_i - m^+(m^+ + 1)/2`;
    one sort, :math:`O(m \\log m)`.

    Examples
    --------
    >>> auc_rank([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> auc_rank([0, 1], [0.5, 0.5])      # a tie counts one half
    0.5
    """
    positive, score = _check_binary(y_true, y_score, pos_label)
    ranks = rankdata(score)                                 # average ranks for ties
    n_pos = int(positive.sum())
    n_neg = positive.size - n_pos
    u = ranks[positive].sum() - n_pos * (n_pos + 1) / 2
    return float(u / (n_pos * n_neg))


def _check_rates(values, name):
    """Finite real rates in [0, 1] (a NaN would end the hull on itself, a rate of 1.5 lie above it)."""
    raw = _as_1d(values, name)
    if raw.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real rates in [0, 1], got dtype {raw.dtype}.")
    rates = raw.astype(float)
    bad = ~np.isfinite(rates) | (rates < 0) | (rates > 1)
    if np.any(bad):
        raise ValueError(f"{name} must hold rates in [0, 1], got {int(bad.sum())} value(s) outside, "
                         f"such as {name}={float(rates[bad][0])!r}.")
    return rates


def roc_convex_hull(fpr, tpr):
    """Indices of the ROC points on the curve's upper convex hull, from (0, 0) to (1, 1).

    A point below the hull is never the cheapest classifier for any costs
    and class proportions; mixing two hull classifiers at random reaches any
    point on the segment between them.

    Examples
    --------
    >>> roc_convex_hull([0, 0.1, 0.2, 0.5, 1], [0, 0.5, 0.55, 0.9, 1]).tolist()
    [0, 1, 3, 4]
    """
    fpr, tpr = _check_rates(fpr, "fpr"), _check_rates(tpr, "tpr")
    if fpr.shape != tpr.shape:
        raise ValueError(f"fpr and tpr must have the same length, got {fpr.size} and {tpr.size}.")
    order = np.lexsort((tpr, fpr))
    hull = []
    for i in order:                                        # Andrew's monotone chain, upper part
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = (fpr[hull[-2]], tpr[hull[-2]]), (fpr[hull[-1]], tpr[hull[-1]])
            if (x2 - x1) * (tpr[i] - y1) - (y2 - y1) * (fpr[i] - x1) >= 0:
                hull.pop()                                 # the middle point is on or below
            else:
                break
        hull.append(int(i))
    return np.array(hull)


class CostCurve(NamedTuple):
    """The result of :func:`cost_curve`."""

    probability_cost: np.ndarray
    """The grid of :math:`PC(+)` values in [0, 1]."""
    normalized_cost: np.ndarray
    """The lower envelope: the least normalized expected cost at each :math:`PC(+)`."""
    best_threshold: np.ndarray
    """The score threshold that attains it (predict positive when score >= threshold)."""
    fpr: np.ndarray
    """False positive rate of every ROC point: each is the line from (0, FPR) to (1, 1 - TPR)."""
    fnr: np.ndarray
    """False negative rate, 1 - TPR, of every ROC point."""
    area: float
    """Exact area under the envelope (not a sum on the grid): the expected cost when
    :math:`PC(+)` is uniform on [0, 1] and each :math:`PC(+)` gets its best threshold."""


def cost_curve(y_true, y_score, *, n_points=201, pos_label=None):
    """The cost curve of a scorer (Drummond & Holte), the dual of its ROC curve.

    With costs :math:`c_{10}` for a missed positive and :math:`c_{01}` for a
    false alarm and a share :math:`p` of positives, the **probability cost**
    :math:`PC(+) = \\frac{p\\,c_{10}}{p\\,c_{10} + (1-p)\\,c_{01}}` summarizes all
    three, and a classifier with rates (FPR, FNR) has normalized expected
    cost :math:`\\mathrm{FNR}\\cdot PC(+) + \\mathrm{FPR}\\,(1 - PC(+))`: a line
    from (0, FPR) to (1, FNR). Each ROC point is one line; the curve is their
    lower envelope, the best threshold for each operating condition.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`roc_curve`.
    n_points : int, default=201
        Points of the :math:`PC(+)` grid, >= 2.

    Returns
    -------
    CostCurve

    Examples
    --------
    >>> curve = cost_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], n_points=5)
    >>> curve.normalized_cost
    array([0.   , 0.125, 0.25 , 0.125, 0.   ])
    """
    n_points = check_int(n_points, "n_points", low=2)
    fpr, tpr, thresholds = roc_curve(y_true, y_score, pos_label=pos_label)
    fnr = 1.0 - tpr
    pc = np.linspace(0.0, 1.0, n_points)
    costs = np.outer(pc, fnr) + np.outer(1.0 - pc, fpr)   # one column per ROC point
    best = costs.argmin(axis=1)
    envelope = costs[np.arange(n_points), best]
    return CostCurve(pc, envelope, thresholds[best], fpr, fnr, _envelope_area(fpr, tpr))


def _envelope_area(fpr, tpr):
    r"""Exact area under the lower envelope of the lines (0, FPR)-(1, FNR).

    The envelope is concave and piecewise linear; its corners are where the
    lines of neighbouring ROC-hull vertices cross, at
    :math:`PC = \Delta\mathrm{FPR}/(\Delta\mathrm{FPR} + \Delta\mathrm{TPR})`.
    Trapezoids between the corners are exact.
    """
    hull = roc_convex_hull(fpr, tpr)
    d_fpr, d_tpr = np.diff(fpr[hull]), np.diff(tpr[hull])
    corners = np.unique(np.r_[0.0, d_fpr / (d_fpr + d_tpr), 1.0])
    heights = np.min(np.outer(corners, 1 - tpr[hull]) + np.outer(1 - corners, fpr[hull]), axis=1)
    return float(np.sum(np.diff(corners) * (heights[1:] + heights[:-1]) / 2))
