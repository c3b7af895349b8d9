"""Property tests of ``mlcore.evaluation`` and ``mlcore.imbalance`` (FUZZ-3 item 2).

Ranking measures depend on the order of the scores only: scaling the scores
by 10**k (subnormal to 1e300, float32 too) leaves them unchanged, as does a
permutation of the samples; ties are drawn on purpose (few score levels), and
every value agrees with scikit-learn where it has the measure. Probabilities
stay in [0, 1], losses are >= 0.
"""

import numpy as np
import pytest
from hypothesis import given, strategies as st
from sklearn import metrics as skm
from sklearn.isotonic import IsotonicRegression
from sklearn.neighbors import KNeighborsClassifier

from mlcore.evaluation import (IsotonicMap, achievable_pr_area, auc_rank, average_precision,
                               brier_score, confusion_counts, cost_curve, delong_auc,
                               delong_test, isotonic_calibration, partial_auc,
                               precision_recall_curve, prg_curve, reliability_table,
                               roc_convex_hull, roc_curve)
from mlcore.imbalance import (EasyEnsembleClassifier, best_f1_threshold, random_undersample,
                              remedy_study, rescale_threshold, smote,
                              undersampling_correction)
from property_registry import (FAST, TINY, big_ints, covers, exponents, float_dtypes,
                               scaled, seeds, value_or_refusal)


def _labels_and_levels(seed, m=30, levels=5):
    """Binary labels with both classes and integer score levels with ties."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, m)
    y[:2] = [0, 1]
    return y, rng.integers(0, levels, m) + 1


def _ranking(y, s):
    return (auc_rank(y, s), average_precision(y, s), partial_auc(y, s, max_fpr=0.4),
            achievable_pr_area(y, s), prg_curve(y, s).area, cost_curve(y, s).area,
            delong_auc(y, s).auc[0], delong_auc(y, s).standard_error[0])


@covers(auc_rank, average_precision, partial_auc, achievable_pr_area, prg_curve,
        cost_curve, delong_auc)
@FAST
@given(seeds, exponents, float_dtypes)
def test_ranking_measures_are_invariant_under_units_and_permutation(seed, k, dtype):
    y, levels = _labels_and_levels(seed)
    reference = _ranking(y, levels.astype(float))
    with np.errstate(over="ignore"):
        s = scaled(levels, k).astype(dtype)
    if np.unique(s).size < np.unique(levels).size:  # float32 cannot hold these units
        return
    got = value_or_refusal(lambda: _ranking(y, s), "y_score")
    if got is not None:
        assert got == pytest.approx(reference, rel=1e-12, abs=1e-15)
    order = np.random.default_rng(seed).permutation(y.size)
    assert _ranking(y[order], levels[order]) == pytest.approx(reference, rel=1e-12)
    assert all(0 <= value <= 1 for value in reference[:4])


@covers(auc_rank, average_precision, roc_curve, precision_recall_curve, best_f1_threshold)
@FAST
@given(seeds, big_ints)
def test_int64_scores_beyond_2_53_keep_their_order(seed, offset):
    """Distinct int64 scores that one float cannot tell apart still rank apart."""
    y, levels = _labels_and_levels(seed)
    s = np.int64(offset) + levels.astype(np.int64)
    want = (auc_rank(y, levels), average_precision(y, levels))
    got = value_or_refusal(lambda: (auc_rank(y, s), average_precision(y, s)), "y_score")
    if got is not None:
        assert got == pytest.approx(want, rel=1e-12)
    result = value_or_refusal(lambda: best_f1_threshold(y, s), "y_score")
    if result is not None:
        t, f1 = result
        assert f1 == pytest.approx(best_f1_threshold(y, levels)[1], rel=1e-12)
        assert skm.f1_score(y, (s >= t).astype(int)) == pytest.approx(f1, rel=1e-12)


@covers(roc_curve, precision_recall_curve, roc_convex_hull, delong_test, partial_auc,
        auc_rank, average_precision)
@FAST
@given(seeds, st.integers(2, 8))
def test_curves_agree_with_sklearn(seed, levels):
    y, s = _labels_and_levels(seed, levels=levels)
    s = s / levels
    fpr, tpr, thresholds = roc_curve(y, s)
    sk_fpr, sk_tpr, _ = skm.roc_curve(y, s, drop_intermediate=False)
    assert np.allclose(fpr, sk_fpr) and np.allclose(tpr, sk_tpr)
    precision, recall, _ = precision_recall_curve(y, s)
    sk_p, sk_r, _ = skm.precision_recall_curve(y, s)
    assert np.allclose(precision[:len(sk_p) - 1], sk_p[:-1][::-1][::-1])
    assert np.allclose(recall[:len(sk_r) - 1], sk_r[:-1])
    assert partial_auc(y, s, max_fpr=0.3) == pytest.approx(
        skm.roc_auc_score(y, s, max_fpr=0.3), rel=1e-9)
    hull = roc_convex_hull(fpr, tpr)
    assert hull[0] == 0 and hull[-1] == len(fpr) - 1
    # the hull dominates every ROC point: its area is at least the AUC
    assert np.trapezoid(tpr[hull], fpr[hull]) >= auc_rank(y, s) - 1e-12
    same = delong_test(y, s, s * 3.0)
    assert same.difference == 0 and same.p_value == pytest.approx(1.0)
    assert 0 <= delong_test(y, s, -s).p_value <= 1


@covers(confusion_counts)
@FAST
@given(seeds, st.integers(1, 4))
def test_confusion_counts_match_sklearn_and_permute(seed, n_classes):
    rng = np.random.default_rng(seed)
    y, p = rng.integers(0, n_classes, 25), rng.integers(0, n_classes, 25)
    labels = np.union1d(y, p)
    want = skm.confusion_matrix(y, p, labels=labels)
    assert np.array_equal(confusion_counts(y, p, labels=labels), want)
    order = rng.permutation(25)
    assert np.array_equal(confusion_counts(y[order], p[order], labels=labels), want)


@covers(brier_score, reliability_table)
@FAST
@given(seeds, st.sampled_from([0.0, 1.0, None]), float_dtypes)
def test_brier_and_reliability_in_range_and_match_sklearn(seed, one_class, dtype):
    rng = np.random.default_rng(seed)
    prob = rng.random(20).astype(dtype)
    prob[:2] = [0.0, 1.0]                              # the ends of the range
    y = rng.integers(0, 2, 20) if one_class is None else np.full(20, int(one_class))
    b = value_or_refusal(lambda: brier_score(y, prob), "y_true", "pos_label")
    if b is not None:
        assert 0 <= b <= 1
        assert b == pytest.approx(np.mean((prob.astype(float) - y) ** 2), rel=1e-6)
    table = value_or_refusal(lambda: reliability_table(y, prob, n_bins=4), "y_true",
                             "pos_label")
    if table is not None:
        assert table.count.sum() == 20 and 0 <= table.ece <= 1
        filled = table.count > 0
        assert np.all((table.observed[filled] >= 0) & (table.observed[filled] <= 1))


@covers(isotonic_calibration, IsotonicMap)
@FAST
@given(seeds, exponents)
def test_isotonic_calibration_matches_sklearn_in_any_units(seed, k):
    """Agrees with scikit-learn in every unit; unit-free while score gaps exceed 1e-15.

    Both pool scores closer than float64's resolution (1e-15, absolute), so
    below that the map depends on the units, exactly as scikit-learn's does.
    """
    y, levels = _labels_and_levels(seed, levels=8)
    ours = isotonic_calibration(y, levels.astype(float))
    grid = np.arange(0, 10) + 0.5
    s = scaled(levels, k)
    mapped = value_or_refusal(lambda: isotonic_calibration(y, s), "y_score")
    if mapped is None:
        return
    theirs = IsotonicRegression(out_of_bounds="clip").fit(s, y)
    got = mapped.predict(scaled(grid, k))
    assert np.allclose(got, theirs.predict(scaled(grid, k)), atol=1e-12)
    assert np.all((got >= 0) & (got <= 1)) and np.all(np.diff(got) >= 0)
    if k >= -14:
        assert np.allclose(got, ours.predict(grid), atol=1e-12)


# -- imbalance ---------------------------------------------------------------------
@covers(undersampling_correction, rescale_threshold)
@FAST
@given(st.lists(st.floats(0, 1), min_size=1, max_size=20),
       st.one_of(st.floats(1e-300, 1.0), st.sampled_from([5e-324, 1e-17, 1.0])))
def test_corrected_probabilities_stay_probabilities(p, beta):
    p = np.array(p)
    q = value_or_refusal(lambda: undersampling_correction(p, beta), "beta", "p_balanced")
    if q is not None:
        assert np.all((q >= 0) & (q <= 1))
        assert np.all(np.diff(q[np.argsort(p, kind="stable")]) >= 0)   # monotone in p
    labels = rescale_threshold(p, n_positive=3, n_negative=7)
    clear = np.abs(p - 0.3) > 1e-12          # odds > 3/7 exactly when p > 0.3
    assert np.array_equal(labels[clear], (p[clear] > 0.3).astype(int))


@covers(random_undersample, smote)
@FAST
@given(seeds, exponents)
def test_resamplers_scale_with_the_units(seed, k):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(24, 2))
    y = np.array([0] * 18 + [1] * 6)
    Xu, yu = random_undersample(X, y, random_state=seed)
    assert np.bincount(yu).tolist() == [6, 6]
    Xs, ys = random_undersample(scaled(X, k), y, random_state=seed)
    assert np.array_equal(ys, yu) and np.allclose(Xs, scaled(Xu, k), rtol=1e-12, atol=0)
    reference = smote(X, y, k_neighbors=3, random_state=seed)
    got = value_or_refusal(lambda: smote(scaled(X, k), y, k_neighbors=3, random_state=seed),
                           "X")
    if got is not None:
        assert np.array_equal(got[1], reference[1])
        assert np.all(np.isfinite(got[0]))
        # the synthetic points lie between minority samples in either unit
        assert np.allclose(got[0], scaled(reference[0], k), rtol=1e-9, atol=0) or k < -290


@covers(EasyEnsembleClassifier, remedy_study)
@TINY
@given(seeds, st.sampled_from([-100, 0, 100]))
def test_imbalance_learners_are_unit_invariant(seed, k):
    """Exact powers of two; nearest neighbours' choices depend on distance ranks only."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] + 0.5 * rng.normal(size=40) > 1.0).astype(int)
    y[:4] = 1
    # nearest neighbours are unit-free, so the ensemble's predictions must be too
    model = EasyEnsembleClassifier(KNeighborsClassifier(3),
                                   n_subsets=3, random_state=0)
    base = model.fit(X, y).predict(X)
    proba = model.predict_proba(X)
    assert np.all((proba >= 0) & (proba <= 1)) and np.allclose(proba.sum(axis=1), 1)
    assert np.array_equal(model.fit(X * 2.0**k, y).predict(X * 2.0**k), base)
    table, _ = remedy_study(X, y, remedies=("none", "rescaling"), n_splits=3)
    assert np.all((table.select_dtypes("number").to_numpy() >= 0))
