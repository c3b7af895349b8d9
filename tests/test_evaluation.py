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


def test_a_million_scores_at_the_cost_of_scikit_learn():
    """CPU time against scikit-learn's in the same run (0.4 s idle); scripts/bench_evaluation.py times it."""
    rng = np.random.default_rng(6)
    y = (rng.random(1_000_000) < 0.1).astype(int)
    score = np.round(rng.normal(size=1_000_000) + y, 3)
    auc_rank(y, score)                                     # warm-up
    start = time.process_time()
    auc = auc_rank(y, score)
    roc_curve(y, score)
    used = time.process_time() - start
    start = time.process_time()                            # the reference, timed in the same run
    reference = metrics.roc_auc_score(y, score)
    metrics.roc_curve(y, score)
    sklearn_used = time.process_time() - start
    assert abs(auc - reference) < 1e-12
    # No absolute time (a busy machine slows both): a ratio against scikit-learn,
    # whose sort-based computation is the same order of work (about 1-2x idle).
    assert used < 10 * sklearn_used + 0.2, (
        f"auc_rank + roc_curve used {used:.2f} s of CPU, scikit-learn {sklearn_used:.2f} s")


def test_figure_moves_with_the_threshold():
    figure = ThresholdFigure()
    figure.render(threshold=-1.0, beta=1.0)
    low = figure.roc_dot.get_xdata()[0]
    figure.render(threshold=2.0, beta=1.0)
    assert figure.roc_dot.get_xdata()[0] < low


# -- regressions of the chapter 9 review (2026-11-26) and FUZZ-2 ----------------------
def test_integer_scores_beyond_2_53_are_ranked_as_integers():
    """FUZZ-2 A8 / review 14: casting int64 to float64 tied 2**53 and 2**53 + 1."""
    assert auc_rank([0, 1], np.array([2**53, 2**53 + 1])) == 1.0
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 400)
    y[:2] = [0, 1]
    score = 2**62 + rng.integers(0, 300, 400)              # distinct ints, many equal as floats
    assert np.unique(score.astype(float)).size < np.unique(score).size
    assert auc_rank(y, score) == pytest.approx(metrics.roc_auc_score(y, score), abs=1e-12)
    assert abs(average_precision(y, score) - metrics.average_precision_score(y, score)) < 1e-12
    fpr, tpr, _ = roc_curve(y, score)
    assert fpr.size == np.unique(score).size + 1
    p, r, _ = precision_recall_curve(y, score)
    assert p.size == np.unique(score).size + 1
    assert auc_rank([0, 1, 0], np.array([-2**63, 2**63 - 1, 0], dtype=np.int64)) == 1.0  # no overflow
    assert auc_rank([0, 1], np.array([2**63, 2**63 + 1], dtype=np.uint64)) == 1.0
    with pytest.raises(ValueError, match="y_score holds integers beyond 2\\*\\*53"):
        auc_rank([0, 1], np.array([2**70, 2**70 + 1], dtype=object))


@pytest.mark.parametrize("call, error, message", [
    (lambda: auc_rank([0, 1], [0.1 + 1j, 0.2]), TypeError, "y_score must hold real numbers.*complex"),
    (lambda: average_precision([0, 1], np.array([1j, 2j])), TypeError, "y_score must hold real"),
    (lambda: roc_curve([0, 1], ["0.1", "0.2"]), TypeError, "y_score must hold real numbers"),
    (lambda: roc_convex_hull([0, np.nan, 1], [0, 0.5, 1]), ValueError, "fpr must hold rates in \\[0, 1\\]"),
    (lambda: roc_convex_hull([0, 0.2, 1], [0, np.inf, 1]), ValueError, "tpr must hold rates"),
    (lambda: roc_convex_hull([0, 1.5, 1], [0, 0.2, 1]), ValueError, "fpr=1.5"),
    (lambda: roc_convex_hull([0, -0.1, 1], [0, 0.2, 1]), ValueError, "fpr=-0.1"),
    (lambda: roc_convex_hull([0, 0.5j, 1], [0, 0.2, 1]), TypeError, "fpr must hold real rates"),
])
def test_invalid_scores_and_rates_are_refused(call, error, message):
    """FUZZ-2 'invalid input accepted silently' and review 24."""
    with pytest.raises(error, match=message):
        call()


def test_cost_curve_area_is_exact_not_a_grid_sum():
    """Review 15: the trapezoid sum on an 11-point grid was 1.8e-3 below the envelope's area."""
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 300)
    score = rng.normal(size=300) + y
    fpr, tpr, _ = roc_curve(y, score)
    fine = np.linspace(0, 1, 100_001)
    envelope = np.min(np.outer(fine, 1 - tpr) + np.outer(1 - fine, fpr), axis=1)
    exact = np.trapezoid(envelope, fine)
    for n_points in (2, 11, 201):
        assert abs(cost_curve(y, score, n_points=n_points).area - exact) < 1e-8


def test_macro_f1_both_definitions():
    """Review 1: 'macro' is the mean of the F_i (sklearn), 'macro-pr' Zhou's F of macro-P and macro-R."""
    matrix = np.array([[333, 153, 6], [84, 513, 63], [7, 116, 195]])   # the chapter's matrix
    y = np.repeat(np.repeat([0, 1, 2], 3), matrix.ravel())
    p = np.repeat(np.tile([0, 1, 2], 3), matrix.ravel())
    assert round(fbeta(y, p, average="macro"), 4) == 0.7029
    assert round(fbeta(y, p, average="macro-pr"), 4) == 0.7074
    rng = np.random.default_rng(9)
    for beta in (0.5, 1.0, 2.0):
        y3, p3 = rng.integers(0, 4, 300), rng.integers(0, 3, 300)      # class 3 never predicted
        mp = metrics.precision_score(y3, p3, average="macro", zero_division=0)
        mr = metrics.recall_score(y3, p3, average="macro", zero_division=0)
        want = (1 + beta**2) * mp * mr / (beta**2 * mp + mr)
        assert abs(fbeta(y3, p3, beta=beta, average="macro-pr") - want) < 1e-12


def test_delong_equals_the_pairwise_structural_components_and_the_bootstrap():
    from mlcore.evaluation import delong_auc, delong_test
    rng = np.random.default_rng(10)
    y = rng.integers(0, 2, 300)
    a = np.round(rng.normal(size=300) + y, 1)               # ties
    b = np.round(a + rng.normal(size=300), 1)
    result = delong_auc(y, a, b)
    pos, neg = y == 1, y == 0
    comps = []
    for s in (a, b):
        psi = (s[pos][:, None] > s[neg]) + 0.5 * (s[pos][:, None] == s[neg])
        comps.append((psi.mean(axis=1), psi.mean(axis=0)))
    s10 = np.cov(np.vstack([c[0] for c in comps]))
    s01 = np.cov(np.vstack([c[1] for c in comps]))
    assert np.allclose(result.covariance, s10 / pos.sum() + s01 / neg.sum(), rtol=1e-12, atol=0)
    assert np.allclose(result.auc, [metrics.roc_auc_score(y, a), metrics.roc_auc_score(y, b)])
    test = delong_test(y, a, b)
    c = result.covariance
    assert test.standard_error == pytest.approx(np.sqrt(c[0, 0] + c[1, 1] - 2 * c[0, 1]))
    boot = rng.integers(0, 300, size=(2000, 300))
    diffs = [auc_rank(y[r], a[r]) - auc_rank(y[r], b[r]) for r in boot]
    ses = [np.std([auc_rank(y[r], a[r]) for r in boot[:2000]], ddof=1), np.std(diffs, ddof=1)]
    assert ses[0] == pytest.approx(result.standard_error[0], rel=0.1)
    assert ses[1] == pytest.approx(test.standard_error, rel=0.1)


def test_partial_auc_equals_sklearn_mcclish():
    from mlcore.evaluation import partial_auc
    for name, y, score in CASES:
        for max_fpr in (0.05, 0.1, 0.37, 1.0):
            assert abs(partial_auc(y, score, max_fpr=max_fpr)
                       - metrics.roc_auc_score(y, score, max_fpr=max_fpr)) < 1e-12, name
    y, score = CASES[0][1], CASES[0][2]
    fpr, tpr, _ = roc_curve(y, score)
    x = np.linspace(0, 0.2, 200_001)
    assert partial_auc(y, score, max_fpr=0.2, standardized=False) == pytest.approx(
        np.trapezoid(np.interp(x, fpr, tpr), x), abs=1e-6)
    with pytest.raises(ValueError, match="max_fpr must be in \\(0, 1\\]"):
        partial_auc(y, score, max_fpr=0)


def test_calibration_tools_equal_sklearn():
    from sklearn.calibration import CalibratedClassifierCV, calibration_curve
    from sklearn.isotonic import IsotonicRegression
    from sklearn.model_selection import cross_val_predict
    from sklearn.naive_bayes import GaussianNB

    from mlcore.evaluation import brier_score, isotonic_calibration, reliability_table
    rng = np.random.default_rng(11)
    for name, y, score in CASES[:4]:
        prob = 1 / (1 + np.exp(-score))
        assert abs(brier_score(y, prob) - metrics.brier_score_loss(y, prob)) < 1e-12
        table = reliability_table(y, prob, n_bins=8)
        observed, predicted = calibration_curve(y, prob, n_bins=8)
        assert np.allclose(table.observed, observed) and np.allclose(table.mean_predicted, predicted)
        new = rng.uniform(-0.5, 1.5, 100)
        want = IsotonicRegression(out_of_bounds="clip").fit(prob, y).predict(new)
        assert np.allclose(isotonic_calibration(y, prob).predict(new), want, rtol=0, atol=1e-12)
    X = rng.normal(size=(400, 3))
    y = (X[:, 0] + rng.normal(size=400) > 0.8).astype(int)
    cv_scores = cross_val_predict(GaussianNB(), X, y, cv=5, method="predict_proba")[:, 1]
    calibrated = CalibratedClassifierCV(GaussianNB(), method="isotonic", cv=5, ensemble=False).fit(X, y)
    X_new = rng.normal(size=(50, 3))
    ours = isotonic_calibration(y, cv_scores).predict(GaussianNB().fit(X, y).predict_proba(X_new)[:, 1])
    assert np.allclose(ours, calibrated.predict_proba(X_new)[:, 1], atol=1e-12)
    with pytest.raises(ValueError, match="y_prob must hold probabilities"):
        brier_score([0, 1], [0.5, 1.5])


def _hidden_auc_cell():
    import json
    from pathlib import Path
    cells = json.loads((Path(__file__).parents[1] / "chapters" / "09_performance_measures.ipynb")
                       .read_text())["cells"]
    sources = ["".join(c["source"]) for c in cells]
    solution = next(i for i, s in enumerate(sources) if s.lstrip().startswith("from scipy.stats import rankdata")
                    and "def auc_by_ranks" in s)
    hidden = next(i for i in range(solution, len(cells)) if "hidden-tests" in cells[i]["metadata"].get("tags", []))
    return sources[hidden]


def _auc_ordinal(y, s):                                    # ranks without averaging ties
    from scipy.stats import rankdata
    y = np.asarray(y) == 1
    r = rankdata(s, method="ordinal")
    return float((r[y].sum() - y.sum() * (y.sum() + 1) / 2) / (y.sum() * (~y).sum()))


def _auc_trapezoid_one_at_a_time(y, s):                    # ties broken by order
    o = np.argsort(-np.asarray(s), kind="mergesort")
    yy = np.asarray(y)[o]
    return float(np.trapezoid(np.r_[0, np.cumsum(yy)] / yy.sum(), np.r_[0, np.cumsum(1 - yy)] / (1 - yy).sum()))


def _auc_sklearn_inside(y, s):
    from sklearn.metrics import roc_auc_score
    return float(roc_auc_score(y, s))


def _auc_pair_loop(y, s):
    y, s = np.asarray(y) == 1, np.asarray(s)
    neg = s[~y]
    return float(np.mean([np.mean((p > neg) + 0.5 * (p == neg)) for p in s[y]]))


def _auc_key(y, s):
    from scipy.stats import rankdata
    y = np.asarray(y) == 1
    r = rankdata(s)
    return float((r[y].sum() - y.sum() * (y.sum() + 1) / 2) / (y.sum() * (~y).sum()))


@pytest.mark.parametrize("wrong", [_auc_ordinal, _auc_trapezoid_one_at_a_time, _auc_sklearn_inside,
                                   metrics.roc_auc_score, _auc_pair_loop])
def test_hidden_test_of_ex09_auc_ranks_fails_wrong_solutions(wrong):
    """Review 2: ties across the classes, no sklearn/mlcore inside, and no loop over pairs."""
    source = _hidden_auc_cell()
    namespace = {"np": np, "auc_rank": auc_rank, "auc_by_ranks": _auc_key}
    exec(source, namespace)                                # the keyed solution passes
    namespace = {"np": np, "auc_rank": auc_rank, "auc_by_ranks": wrong}
    with pytest.raises(AssertionError):
        exec(source, namespace)


def test_isotonic_merges_scores_within_float_resolution_like_sklearn():
    """Naive Bayes gives probabilities such as 1e-30 and 1e-20; sklearn pools them (within 1e-15)."""
    from sklearn.isotonic import IsotonicRegression

    from mlcore.evaluation import isotonic_calibration
    score = np.array([1e-30, 1e-20, 1e-16, 2e-16, 0.3, 0.3 + 1e-16, 0.5, 0.7, 1 - 1e-16, 1.0])
    y = np.array([1, 0, 0, 1, 0, 1, 0, 1, 0, 1])
    new = np.r_[score, 0.0, 0.4, 0.99]
    want = IsotonicRegression(out_of_bounds="clip").fit(score, y).predict(new)
    assert np.allclose(isotonic_calibration(y, score).predict(new), want, rtol=0, atol=1e-12)


def _dense_path(y, score, per_step=4000):
    """(TP, FP) sampled densely along every Davis-Goadrich segment, from (0, 0) to (m+, m-)."""
    fpr, tpr, _ = roc_curve(y, score)
    n_pos, n_neg = np.sum(y == 1), np.sum(y == 0)
    tp, fp = tpr * n_pos, fpr * n_neg
    t = np.linspace(0, 1, per_step)
    return (np.concatenate([a + t * (b - a) for a, b in zip(tp[:-1], tp[1:])]),
            np.concatenate([a + t * (b - a) for a, b in zip(fp[:-1], fp[1:])]), n_pos, n_neg)


@pytest.mark.parametrize("name, y, score", CASES[:2] + CASES[4:], ids=IDS[:2] + IDS[4:])
def test_achievable_pr_area_equals_numeric_integration(name, y, score):
    from mlcore.evaluation import achievable_pr_area
    tp, fp, n_pos, _ = _dense_path(y, score)
    ok = tp > 0
    numeric = np.trapezoid(tp[ok] / (tp[ok] + fp[ok]), tp[ok] / n_pos)
    first = np.argmax(ok)                                  # the first segment from the origin
    numeric += tp[first] / n_pos * tp[first] / (tp[first] + fp[first])
    assert achievable_pr_area(y, score) == pytest.approx(numeric, abs=2e-6)


@pytest.mark.parametrize("name, y, score", CASES[:2] + CASES[4:], ids=IDS[:2] + IDS[4:])
def test_prg_curve_gains_baseline_and_area(name, y, score):
    from mlcore.evaluation import prg_curve
    curve = prg_curve(y, score)
    pi = np.mean(y == 1)
    p, r, _ = precision_recall_curve(y, score)
    p, r = p[:-1][::-1], r[:-1][::-1]                      # falling thresholds, as the curve
    ok = r > 0
    assert np.allclose(curve.precision_gain[ok][:-1], ((p - pi) / ((1 - pi) * p))[ok][:-1])
    assert np.allclose(curve.recall_gain[ok], ((r - pi) / ((1 - pi) * r))[ok])
    assert curve.recall_gain[-1] == 1 and curve.precision_gain[-1] == 0     # always positive
    for beta in (0.5, 1.0, 2.0):                           # F-beta gain = (PG + beta^2 RG)/(1 + beta^2)
        f = (1 + beta**2) * p * r / (beta**2 * p + r)
        f_gain = (f - pi) / ((1 - pi) * f)
        assert np.allclose(f_gain[ok], (curve.precision_gain[ok] + beta**2 * curve.recall_gain[ok])
                           / (1 + beta**2))
    tp, fp, n_pos, n_neg = _dense_path(y, score)           # the achievable paths, mapped to PRG
    keep = tp >= n_pos * pi - 1e-12
    rg = 1 - n_pos / n_neg * (n_pos - tp[keep]) / tp[keep]
    pg = 1 - n_pos / n_neg * fp[keep] / tp[keep]
    assert curve.area == pytest.approx(np.trapezoid(pg, rg), abs=1e-3)


def test_new_functions_refuse_bad_input_naming_the_parameter():
    from mlcore.evaluation import (brier_score, delong_auc, isotonic_calibration, partial_auc,
                                   prg_curve, reliability_table)
    y, s = [0, 1, 0, 1], [0.1, 0.8, 0.3, 0.6]
    cases = [
        (lambda: delong_auc(y), TypeError, "at least one array of scores"),
        (lambda: delong_auc([0, 1, 1], [0.1, 0.2, 0.3]), ValueError, "at least 2 of each"),
        (lambda: delong_auc(y, s, [0.1, 0.2]), ValueError, "same length"),
        (lambda: partial_auc(y, s, max_fpr=1.5), ValueError, "max_fpr must be in"),
        (lambda: partial_auc(y, s, max_fpr=0.5, standardized="yes"), TypeError, "standardized"),
        (lambda: brier_score(y, [0.1, 0.8, np.nan, 0.6]), ValueError, "NaN"),
        (lambda: reliability_table(y, s, n_bins=0), ValueError, "n_bins must be an integer >= 1"),
        (lambda: isotonic_calibration(y, s).predict([np.inf]), ValueError, "y_score contains 1 NaN or inf"),
        (lambda: isotonic_calibration(y, s).predict([1j]), TypeError, "y_score must hold real"),
        (lambda: prg_curve([1, 1, 1], [0.1, 0.2, 0.3]), ValueError, "exactly two classes"),
    ]
    for call, error, message in cases:
        with pytest.raises(error, match=message):
            call()


def test_D14_a_string_is_refused_naming_the_parameter():
    """D14 of the UX review: a string for an array said "got an array of shape ()"."""
    y = [0, 1, 0, 1]
    with pytest.raises(TypeError, match=r"^y_score must be a 1-D array of real-valued scores, "
                                        r"got y_score='scores' of type str"):
        auc_rank(y, "scores")
    with pytest.raises(TypeError, match=r"^y_true must be a 1-D array of class labels, "
                                        r"got y_true='abc' of type str"):
        roc_curve("abc", [0.1, 0.2, 0.3])


def test_long_double_scores_are_not_tied_by_a_cast_to_float64():
    # Review 2026-11-27-ch09-10, 9.2: scores that differ only beyond float64's precision
    # were cast to float64 and tied. They keep their dtype now: every measure equals
    # scikit-learn's, or its value on the scores' ranks (the same order, float64).
    from scipy.stats import rankdata
    from mlcore.evaluation import cost_curve, delong_auc, prg_curve
    if np.finfo(np.longdouble).eps >= np.finfo(np.float64).eps:
        pytest.skip("long double is float64 on this platform")
    y = np.array([0, 1, 0, 1, 1, 0])
    s = 1 + np.array([1, 2, 3, 4, 4, 6]).astype(np.longdouble) * np.finfo(np.longdouble).eps
    assert np.all(s.astype(np.float64) == 1)          # float64 would tie them all
    ranks = rankdata(s)
    assert np.isclose(auc_rank(y, s), metrics.roc_auc_score(y, s), rtol=0, atol=1e-15)
    assert np.isclose(average_precision(y, s), metrics.average_precision_score(y, s),
                      rtol=0, atol=1e-15)
    assert np.isclose(auc_rank(y, s), auc_rank(y, ranks)) and auc_rank(y, s) != 0.5
    assert np.allclose(delong_auc(y, s).covariance, delong_auc(y, ranks).covariance)
    assert np.isclose(cost_curve(y, s).area, cost_curve(y, ranks).area)
    assert np.isclose(prg_curve(y, s).area, prg_curve(y, ranks).area)
