"""Tests of mlcore.evaluation against sklearn.metrics and SciPy, with ties and a rare class."""

import time

import numpy as np
import pytest
from scipy.stats import mannwhitneyu
from sklearn import metrics

from mlcore.evaluation import (ThresholdFigure, auc_rank, average_precision, confusion_counts,
                               cost_curve, fbeta, precision_recall_curve, roc_convex_hull,
                               roc_curve)


def _cases():
    """(name, y_true, y_score): ties (rounded scores), a rare class (<= 1 %), string labels."""
    rng = np.random.default_rng(0)
    for m, share, decimals in [(200, 0.5, 1), (1000, 0.3, 2), (5000, 0.008, 1), (3000, 0.01, 3)]:
        y = (rng.random(m) < share).astype(int)
        y[:2] = [0, 1]                                     # both classes present
        score = np.round(rng.normal(loc=y * 1.2, scale=1.0), decimals)
        yield f"m={m}, positives {share:.1%}, {decimals} decimals", y, score
    y = rng.integers(0, 2, 300)
    yield "all scores tied", y, np.zeros(300)
    yield "integer scores", y, rng.integers(0, 5, 300)


CASES = list(_cases())
IDS = [c[0] for c in CASES]


@pytest.mark.parametrize("name, y, score", CASES, ids=IDS)
def test_roc_curve_equals_sklearn(name, y, score):
    ours = roc_curve(y, score)
    theirs = metrics.roc_curve(y, score, drop_intermediate=False)
    for a, b in zip(ours, theirs):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("name, y, score", CASES, ids=IDS)
def test_precision_recall_curve_equals_sklearn(name, y, score):
    for a, b in zip(precision_recall_curve(y, score), metrics.precision_recall_curve(y, score)):
        assert np.allclose(a, b, rtol=0, atol=1e-15) and a.shape == b.shape


@pytest.mark.parametrize("name, y, score", CASES, ids=IDS)
def test_auc_and_average_precision_equal_sklearn_and_mann_whitney(name, y, score):
    auc = auc_rank(y, score)
    assert abs(auc - metrics.roc_auc_score(y, score)) < 1e-12
    u = mannwhitneyu(score[y == 1], score[y == 0]).statistic
    assert abs(auc - u / ((y == 1).sum() * (y == 0).sum())) < 1e-12
    assert abs(average_precision(y, score) - metrics.average_precision_score(y, score)) < 1e-12


def test_auc_is_the_probability_that_a_positive_outscores_a_negative():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 120)
    score = rng.integers(0, 6, 120).astype(float)          # many ties
    pos, neg = score[y == 1], score[y == 0]
    pairwise = np.mean((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :]))
    assert abs(auc_rank(y, score) - pairwise) < 1e-12
    fpr, tpr, _ = roc_curve(y, score)
    assert abs(np.trapezoid(tpr, fpr) - pairwise) < 1e-12  # the area, by trapezoids


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0, 3.7])
def test_fbeta_equals_sklearn(beta):
    rng = np.random.default_rng(2)
    y, p = rng.integers(0, 2, 500), rng.integers(0, 2, 500)
    assert abs(fbeta(y, p, beta=beta) - metrics.fbeta_score(y, p, beta=beta)) < 1e-12
    y3, p3 = rng.integers(0, 4, 500), rng.integers(0, 4, 500)
    for average in ["macro", "micro"]:
        ours = fbeta(y3, p3, beta=beta, average=average)
        assert abs(ours - metrics.fbeta_score(y3, p3, beta=beta, average=average)) < 1e-12
    assert abs(fbeta(y3, p3, average="micro") - metrics.accuracy_score(y3, p3)) < 1e-12


def test_fbeta_with_no_positive_predictions_is_zero_like_sklearn():
    y, p = np.array([0, 1, 1, 0]), np.zeros(4, dtype=int)
    assert fbeta(y, p) == metrics.fbeta_score(y, p, beta=1.0, zero_division=0) == 0.0


def test_confusion_counts_equal_sklearn():
    rng = np.random.default_rng(3)
    for labels in (None, [3, 2, 1, 0]):
        y, p = rng.integers(0, 4, 400), rng.integers(0, 4, 400)
        assert np.array_equal(confusion_counts(y, p, labels=labels),
                              metrics.confusion_matrix(y, p, labels=labels))
    words = np.array(["ham", "spam"])[rng.integers(0, 2, 50)]
    guess = np.array(["ham", "spam"])[rng.integers(0, 2, 50)]
    assert np.array_equal(confusion_counts(words, guess), metrics.confusion_matrix(words, guess))


def test_string_labels_need_a_positive_label():
    y = np.array(["ham", "spam", "spam", "ham"])
    with pytest.raises(ValueError, match="pos_label"):
        roc_curve(y, [0.1, 0.9, 0.6, 0.2])
    assert auc_rank(y, [0.1, 0.9, 0.6, 0.2], pos_label="spam") == 1.0


def test_convex_hull_dominates_and_keeps_the_ends():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 300)
    fpr, tpr, _ = roc_curve(y, rng.normal(size=300) + y)
    hull = roc_convex_hull(fpr, tpr)
    assert fpr[hull[0]] == 0 and tpr[hull[0]] == 0 and fpr[hull[-1]] == 1 and tpr[hull[-1]] == 1
    dx, dy = np.diff(fpr[hull]), np.diff(tpr[hull])
    assert np.all(dx[1:] > 0) and dx[0] >= 0              # only the first step may be vertical
    slopes = np.where(dx > 0, dy / np.where(dx > 0, dx, 1), np.inf)
    assert np.all(np.diff(slopes) < 0)                    # concave
    assert np.all(np.interp(fpr, fpr[hull], tpr[hull]) >= tpr - 1e-12)   # every point under it


def test_cost_curve_is_the_brute_force_minimum_and_uses_only_hull_points():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 400)
    score = np.round(rng.normal(size=400) + y, 1)
    curve = cost_curve(y, score, n_points=51)
    positive = y == 1
    for pc, cost, threshold in zip(curve.probability_cost, curve.normalized_cost,
                                   curve.best_threshold):
        brute = min(pc * np.mean(~(score[positive] >= t)) + (1 - pc) * np.mean(score[~positive] >= t)
                    for t in np.r_[np.inf, np.unique(score)])
        assert abs(cost - brute) < 1e-12
        achieved = pc * np.mean(score[positive] < threshold) + (1 - pc) * np.mean(score[~positive] >= threshold)
        assert abs(achieved - cost) < 1e-12
    fpr, tpr, _ = roc_curve(y, score)
    hull = roc_convex_hull(fpr, tpr)
    hull_costs = np.min(np.outer(curve.probability_cost, 1 - tpr[hull])
                        + np.outer(1 - curve.probability_cost, fpr[hull]), axis=1)
    assert np.allclose(hull_costs, curve.normalized_cost)
    assert curve.normalized_cost.max() <= 0.5 + 1e-12     # never worse than the trivial classifiers


@pytest.mark.parametrize("call, message", [
    (lambda: roc_curve([1, 1, 1], [0.1, 0.2, 0.3]), "exactly two classes"),
    (lambda: auc_rank([0, 1, 1], [0.1, np.nan, 0.3]), "NaN"),
    (lambda: precision_recall_curve([0, 1, 1], [0.1, 0.3]), "same length"),
    (lambda: fbeta([0, 1], [0, 1], beta=0), "beta must be > 0"),
    (lambda: fbeta([0, 1], [0, 1], beta=-1.0), "beta must be > 0"),
    (lambda: fbeta([0, 1, 2], [0, 1, 2]), "average='binary' needs two classes"),
    (lambda: fbeta([0, 1], [0, 1], average="weighted"), "average must be one of"),
    (lambda: confusion_counts([0, 1, 2], [0, 1, 2], labels=[0, 1]), "not in labels"),
    (lambda: roc_curve([[0, 1]], [[0.1, 0.2]]), "one-dimensional"),
    (lambda: average_precision([], []), "empty"),
    (lambda: cost_curve([0, 1], [0.1, 0.2], n_points=1), "n_points must be an integer >= 2"),
    (lambda: roc_curve([0, 1, 1], [0.1, 0.3, 0.5], pos_label=2), "pos_label=2"),
])
def test_bad_input_is_a_clear_error(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_a_million_scores_in_half_a_second():
    rng = np.random.default_rng(6)
    y = (rng.random(1_000_000) < 0.1).astype(int)
    score = np.round(rng.normal(size=1_000_000) + y, 3)
    auc_rank(y, score)                                     # warm-up
    start = time.perf_counter()
    auc_rank(y, score)
    roc_curve(y, score)
    elapsed = time.perf_counter() - start
    assert elapsed < 2.0, f"auc_rank + roc_curve on 10^6 scores took {elapsed:.2f} s (target 0.5 s idle)"


def test_figure_moves_with_the_threshold():
    figure = ThresholdFigure()
    figure.render(threshold=-1.0, beta=1.0)
    low = figure.roc_dot.get_xdata()[0]
    figure.render(threshold=2.0, beta=1.0)
    assert figure.roc_dot.get_xdata()[0] < low
