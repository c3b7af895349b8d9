r"""Scores as probabilities: the Brier score, the reliability table and isotonic recalibration.

The Brier score :math:`\frac1m\sum_i(\hat p_i - y_i)^2` is a proper scoring
rule: in expectation it is smallest for the true probabilities. The
reliability table compares, bin by bin, the mean predicted probability with
the observed share of positives. Isotonic recalibration fits the
non-decreasing map from scores to probabilities with the least squared error
by the pool-adjacent-violators algorithm (Zadrozny & Elkan 2002). Checked in
``tests/test_evaluation.py`` against ``sklearn.metrics.brier_score_loss``,
``sklearn.calibration.calibration_curve`` and
``sklearn.isotonic.IsotonicRegression``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validation import check_int
from ._measures import _check_binary, _check_labels, _check_scores


_RESOLUTION = np.finfo(float).resolution      # 1e-15


def _check_probabilities(y_true, y_prob, pos_label):
    labels = _check_labels(y_true, "y_true")
    present = np.unique(labels).tolist()
    if len(present) == 1:
        # One class is a real case for a probability score (the calibration
        # of a sub-population; scikit-learn's brier_score_loss and
        # calibration_curve accept it), unlike for a curve, which needs both.
        prob = _check_scores(y_prob, "y_prob")
        if prob.shape != labels.shape:
            raise ValueError(f"y_true and y_prob must have the same length, got {labels.size} "
                             f"labels and {prob.size} probabilities.")
        if pos_label is None:
            if not set(present) <= {0, 1, -1}:
                raise ValueError(f"y_true has the one label {present[0]!r}; say with pos_label "
                                 "which label is the positive class.")
            pos_label = 1
        positive = labels == pos_label
    else:
        positive, prob = _check_binary(y_true, y_prob, pos_label)
    prob = prob.astype(float)
    if np.any((prob < 0) | (prob > 1)):
        bad = prob[(prob < 0) | (prob > 1)][0]
        raise ValueError(f"y_prob must hold probabilities in [0, 1], got a value {bad!r}.")
    return positive.astype(float), prob


def brier_score(y_true, y_prob, *, pos_label=None):
    r"""The Brier score: the mean squared difference between probability and outcome.

    A constant prediction equal to the share :math:`\pi` of positives scores
    :math:`\pi(1 - \pi)`; a scorer above that is worse than knowing only the
    class proportions. ``y_true`` may hold one class only (as in
    ``sklearn.metrics.brier_score_loss``): the score of a sub-population.

    Examples
    --------
    >>> round(brier_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.1581
    """
    positive, prob = _check_probabilities(y_true, y_prob, pos_label)
    return float(np.mean((prob - positive) ** 2))


class ReliabilityTable(NamedTuple):
    """The result of :func:`reliability_table`: one entry per non-empty bin."""

    bin_edges: np.ndarray
    """The ``n_bins + 1`` edges of equal-width bins on [0, 1]."""
    count: np.ndarray
    """Samples per non-empty bin."""
    mean_predicted: np.ndarray
    """Mean predicted probability in the bin."""
    observed: np.ndarray
    """Share of positives in the bin."""
    ece: float
    """Expected calibration error: the count-weighted mean of ``abs(observed - mean_predicted)``."""


def reliability_table(y_true, y_prob, *, n_bins=10, pos_label=None):
    """Predicted vs observed frequency in equal-width probability bins, and the ECE.

    Bin ``k`` holds the probabilities in ``(k/n_bins, (k+1)/n_bins]``, the
    first bin includes 0. Empty bins are left out. Both as in
    ``sklearn.calibration.calibration_curve(strategy="uniform")``, which also
    accepts a ``y_true`` of one class.

    Examples
    --------
    >>> table = reliability_table([0, 0, 1, 1, 1], [0.1, 0.15, 0.8, 0.9, 0.6], n_bins=2)
    >>> table.count, table.observed, table.mean_predicted.round(3), round(table.ece, 3)
    (array([2, 3]), array([0., 1.]), array([0.125, 0.767]), 0.19)
    """
    n_bins = check_int(n_bins, "n_bins", low=1)
    positive, prob = _check_probabilities(y_true, y_prob, pos_label)
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    index = np.searchsorted(edges[1:-1], prob)            # right-closed bins
    count = np.bincount(index, minlength=n_bins)
    keep = count > 0
    mean_predicted = np.bincount(index, prob, n_bins)[keep] / count[keep]
    observed = np.bincount(index, positive, n_bins)[keep] / count[keep]
    ece = float(np.sum(count[keep] * np.abs(observed - mean_predicted)) / prob.size)
    return ReliabilityTable(edges, count[keep], mean_predicted, observed, ece)


class IsotonicMap(NamedTuple):
    """The result of :func:`isotonic_calibration`: a non-decreasing map from scores to probabilities."""

    scores: np.ndarray
    """The distinct training scores, rising."""
    probabilities: np.ndarray
    """The fitted probability at each of them, non-decreasing."""

    def predict(self, y_score):
        """Probabilities for new scores: linear between the training scores, clipped at the ends."""
        score = _check_scores(y_score).astype(float)
        return np.interp(score, self.scores, self.probabilities)


def isotonic_calibration(y_true, y_score, *, pos_label=None):
    """Fit the non-decreasing map from scores to probabilities that minimizes the squared error.

    Pool adjacent violators: sort by score (tied scores, and scores within
    1e-15 of a block's first score, are one block with their mean outcome), then merge neighbouring blocks while a block's mean
    exceeds its right neighbour's. Each block predicts its mean. New scores
    are mapped by linear interpolation and clipped at the ends, as
    ``sklearn.isotonic.IsotonicRegression(out_of_bounds="clip")`` (which
    ``CalibratedClassifierCV(method="isotonic")`` uses).

    Fit it on data the scorer was not trained on (cross-validated scores of
    the training set), never on the test set.

    Examples
    --------
    >>> fitted = isotonic_calibration([0, 1, 0, 1, 1], [0.1, 0.2, 0.3, 0.4, 0.5])
    >>> fitted.probabilities
    array([0. , 0.5, 0.5, 1. , 1. ])
    >>> fitted.predict([0.0, 0.25, 0.35]).round(3).tolist()
    [0.0, 0.5, 0.75]
    """
    positive, score = _check_binary(y_true, y_score, pos_label)
    score = score.astype(float)
    distinct, block_of = np.unique(score, return_inverse=True)
    # Scores within float64 resolution (1e-15) of a block's first score join that block,
    # as in scikit-learn (naive Bayes gives many probabilities of 1e-20 and 1e-30).
    start, group = distinct[0], np.zeros(distinct.size, dtype=int)
    for k in range(1, distinct.size):
        if distinct[k] - start >= _RESOLUTION:
            start = distinct[k]
            group[k] = group[k - 1] + 1
        else:
            group[k] = group[k - 1]
    block_of = group[block_of]
    distinct = distinct[np.r_[0, np.flatnonzero(np.diff(group)) + 1]]
    weights = np.bincount(block_of).astype(float)
    sums = np.bincount(block_of, positive.astype(float))
    means, sizes, spans = [], [], []                     # the stack of pooled blocks
    for k in range(distinct.size):
        mean, weight, span = sums[k] / weights[k], weights[k], 1
        while means and means[-1] > mean:               # a violator: pool with the left block
            mean = (means[-1] * sizes[-1] + mean * weight) / (sizes[-1] + weight)
            weight += sizes.pop()
            span += spans.pop()
            means.pop()
        means.append(mean)
        sizes.append(weight)
        spans.append(span)
    return IsotonicMap(distinct, np.repeat(means, spans))
