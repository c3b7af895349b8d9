"""Tests of mlcore.model_selection: splitter invariants, the LOO closed form, the study."""

import copy
import math

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import (GridSearchCV, KFold, LeaveOneOut, RepeatedKFold,
                                     cross_val_score, cross_validate)
from sklearn.utils import check_random_state

from mlcore.model_selection import (SCHEMES, STUDY_SCHEMES, BlockedMxTwoCV,
                                    DegreeSelectionFigure, FoldAssignmentFigure,
                                    cv_estimator_study, cv_split_errors, degree_curves,
                                    fold_assignment, legendre_design, loo_mse_linear,
                                    loo_residuals_linear, make_splitter, sine_regression,
                                    summarize_cv_study, two_level_design)


def _halves(cv, n, y=None):
    return [(set(train), set(test)) for train, test in cv.split(np.zeros((n, 2)), y)]


# -- the orthogonal array ---------------------------------------------------
@pytest.mark.parametrize("kind", ["smallest", "regular"])
@pytest.mark.parametrize("r", [1, 2, 3, 4, 5, 7, 8, 11, 15, 16, 19, 24, 27, 47])
def test_design_is_a_two_level_orthogonal_array(r, kind):
    design = two_level_design(r, design=kind)
    q = max(1, math.ceil(math.log2(r + 1)))
    # the smallest multiple of 4 >= r + 1 (the Rao bound) is reached for these r
    rows = 2 ** q if kind == "regular" or r == 1 else 4 * math.ceil((r + 1) / 4)
    assert design.shape == (rows, r)
    assert np.all(design.sum(axis=0) == rows // 2)
    for j in range(r):
        for k in range(j + 1, r):
            cells = np.bincount(2 * design[:, j] + design[:, k], minlength=4)
            assert np.all(cells == rows // 4), (j, k, cells)


def test_smallest_design_is_the_regular_one_when_that_is_minimal():
    for r in range(1, 8):
        assert np.array_equal(two_level_design(r), two_level_design(r, design="regular"))
    assert two_level_design(8).shape == (12, 8)      # Plackett-Burman, not 16 rows
    assert two_level_design(48).shape == (56, 48)    # no Hadamard matrix of order 52 is built


@pytest.mark.parametrize("order", [4, 8, 12, 20, 24, 28, 36, 40, 44, 56, 60, 76, 108])
def test_hadamard_matrices_are_hadamard(order):
    from mlcore.model_selection._splitters import _hadamard
    H = _hadamard(order)
    assert set(np.unique(H)) == {-1, 1}
    np.testing.assert_array_equal(H @ H.T, order * np.eye(order))


def test_design_of_blocked_3x2_is_l4():
    # The L4(2^3) array: rows 00, 11 and the two mixed rows in every pair of columns.
    design = two_level_design(3)
    assert {tuple(row) for row in design} == {(0, 0, 0), (1, 0, 1), (0, 1, 1), (1, 1, 0)}


# -- BlockedMxTwoCV ---------------------------------------------------------
@pytest.mark.parametrize("r", [1, 2, 3, 5, 7])
@pytest.mark.parametrize("n", [16, 17, 22, 33, 40, 64, 101])
def test_blocked_each_sample_tested_once_per_replication(r, n):
    cv = BlockedMxTwoCV(r, random_state=3)
    splits = _halves(cv, n)
    assert len(splits) == cv.get_n_splits() == 2 * r
    for j in range(r):
        (train_a, test_a), (train_b, test_b) = splits[2 * j], splits[2 * j + 1]
        assert not train_a & test_a and not train_b & test_b
        assert train_a | test_a == set(range(n))
        assert test_a == train_b and test_b == train_a, "the two splits swap the halves"


@pytest.mark.parametrize("r", [1, 2, 3, 4, 5, 7, 8, 15])
@pytest.mark.parametrize("multiple", [2, 3, 5])
def test_blocked_overlap_is_exactly_a_quarter_when_blocks_are_equal(r, multiple):
    n = multiple * len(two_level_design(r))  # every block of the same size, n >= 4
    splits = _halves(BlockedMxTwoCV(r, random_state=0), n)
    for a in range(2 * r):
        for b in range(2 * r):
            if a // 2 != b // 2:
                for first in splits[a]:
                    for second in splits[b]:
                        assert len(first & second) * 4 == n


@pytest.mark.parametrize("r", [8, 11])
def test_blocked_plackett_burman_overlap(r):
    for n in range(12, 80):
        cv = BlockedMxTwoCV(r, random_state=n)
        sizes = np.bincount(cv.block_labels(np.zeros((n, 1))), minlength=12)
        assert len(sizes) == 12 and sizes.max() - sizes.min() <= 1
        tests = [test for _, test in _halves(cv, n)]
        for a in range(0, 2 * r, 2):
            for b in range(a + 2, 2 * r, 2):
                gap = abs(len(tests[a] & tests[b]) - n / 4)
                assert gap == 0 if n % 12 == 0 else gap < 3, (n, a, b)


def test_blocked_design_option():
    assert BlockedMxTwoCV(8, design="regular").block_labels(np.zeros((32, 1))).max() == 15
    with pytest.raises(ValueError, match="design"):
        BlockedMxTwoCV(3, design="plackett")


@pytest.mark.parametrize("n", range(8, 80, 4))
def test_blocked_3x2_overlap_is_m_over_4_whenever_4_divides_m(n):
    splits = _halves(BlockedMxTwoCV(3, random_state=n), n)
    trains = [train for train, _ in splits]
    for a in range(6):
        for b in range(6):
            if a // 2 != b // 2:
                assert len(trains[a] & trains[b]) == n // 4


@pytest.mark.parametrize("r", [2, 3, 4, 7, 15])
def test_blocked_overlap_bound_and_block_sizes_otherwise(r):
    q = math.ceil(math.log2(r + 1))
    for n in range(2 ** q + 1, 2 ** q * 6):
        cv = BlockedMxTwoCV(r, random_state=0)
        sizes = np.bincount(cv.block_labels(np.zeros((n, 1))), minlength=2 ** q)
        assert sizes.max() - sizes.min() <= 1
        tests = [test for _, test in _halves(cv, n)]
        for a in range(0, 2 * r, 2):
            for b in range(a + 2, 2 * r, 2):
                assert abs(len(tests[a] & tests[b]) - n / 4) < 2 ** (q - 2)
        if r <= 3:
            assert max(map(len, tests)) - min(map(len, tests)) <= 2


def test_blocked_is_deterministic_under_random_state_and_varies_without():
    X = np.zeros((30, 1))
    first = [t.tolist() for _, t in BlockedMxTwoCV(3, random_state=7).split(X)]
    again = [t.tolist() for _, t in BlockedMxTwoCV(3, random_state=7).split(X)]
    other = [t.tolist() for _, t in BlockedMxTwoCV(3, random_state=8).split(X)]
    assert first == again and first != other
    rng = check_random_state(0)
    cv = BlockedMxTwoCV(3, random_state=rng)
    assert [t.tolist() for _, t in cv.split(X)] != [t.tolist() for _, t in cv.split(X)]


def test_blocked_without_shuffle_uses_contiguous_blocks():
    labels = BlockedMxTwoCV(3, shuffle=False).block_labels(np.zeros((12, 1)))
    assert labels.tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]


def test_blocked_stratified_keeps_class_proportions():
    y = np.r_[np.zeros(24), np.ones(8)]
    cv = BlockedMxTwoCV(3, stratify=True, random_state=0)
    for _, test in cv.split(np.zeros((32, 1)), y):
        assert len(test) == 16 and y[test].sum() == 4
    assert sorted(np.bincount(cv.block_labels(np.zeros((32, 1)), y))) == [8, 8, 8, 8]


@pytest.mark.parametrize("kwargs, n, message", [
    ({}, 3, "at least 4 samples, got n_samples=3"),
    ({"n_repeats": 7}, 6, "n_repeats=7 needs 8 blocks, so at least 8 samples"),
    ({"stratify": True}, 12, "y is required when stratify=True"),
])
def test_blocked_errors_name_the_problem(kwargs, n, message):
    with pytest.raises(ValueError, match=message):
        list(BlockedMxTwoCV(**kwargs).split(np.zeros((n, 1))))


def test_blocked_parameter_errors():
    with pytest.raises(ValueError, match="n_repeats must be an integer in \\[1, 1000\\], got n_repeats=0"):
        BlockedMxTwoCV(0)
    with pytest.raises(TypeError, match="n_repeats must be an integer"):
        BlockedMxTwoCV(2.5)
    with pytest.raises(ValueError, match="random_state=1 has no effect when shuffle=False"):
        BlockedMxTwoCV(3, shuffle=False, random_state=1)
    with pytest.warns(UserWarning, match="smallest class"):
        list(BlockedMxTwoCV(3, stratify=True).split(np.zeros((12, 1)), np.r_[np.zeros(10), 1, 1]))


def test_blocked_plugs_into_scikit_learn():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=60) > 0).astype(int)
    cv = BlockedMxTwoCV(3, random_state=0)
    scores = cross_val_score(LogisticRegression(), X, y, cv=cv)
    assert scores.shape == (6,) and np.all((scores > 0.5) & (scores <= 1))
    manual = [LogisticRegression().fit(X[tr], y[tr]).score(X[te], y[te]) for tr, te in cv.split(X)]
    np.testing.assert_allclose(scores, manual)
    assert len(cross_validate(LogisticRegression(), X, y, cv=cv)["test_score"]) == 6
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=cv).fit(X, y)
    assert search.n_splits_ == 6
    assert repr(cv).startswith("BlockedMxTwoCV(") and "n_repeats=3" in repr(cv)


# -- the scikit-learn schemes -----------------------------------------------
@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_every_scheme_splits_disjointly_and_deterministically(scheme):
    n = 24
    y = np.r_[np.zeros(16), np.ones(8)].astype(int)
    cv = make_splitter(scheme, n_splits=4, n_repeats=3, random_state=5)
    grid = fold_assignment(cv, n, y)
    assert len(grid) == cv.get_n_splits(np.zeros((n, 1)), y)
    assert np.all(np.isin(grid, [0, 1]))  # train and test cover every sample
    again = fold_assignment(make_splitter(scheme, n_splits=4, n_repeats=3, random_state=5), n, y)
    assert np.array_equal(grid, again)
    if scheme in ("K-fold", "stratified K-fold", "LOO"):
        assert np.all(grid.sum(axis=0) == 1), "each sample tested exactly once"
    if scheme in ("repeated K-fold", "5x2", "blocked 3x2", "blocked rx2"):
        per_round = 4 if scheme == "repeated K-fold" else 2
        for start in range(0, len(grid), per_round):
            assert np.all(grid[start:start + per_round].sum(axis=0) == 1)
    if scheme.startswith("stratified"):
        for row in grid:
            assert abs(y[row == 1].mean() - 1 / 3) < 0.1


def test_make_splitter_names_the_sklearn_classes():
    assert isinstance(make_splitter("5x2"), RepeatedKFold)
    assert make_splitter("5x2").get_n_splits() == 10
    assert isinstance(make_splitter("LOO"), LeaveOneOut)
    assert make_splitter("K-fold", n_splits=10).get_n_splits() == 10
    with pytest.raises(ValueError, match="scheme must be one of"):
        make_splitter("3x3")
    with pytest.raises(ValueError, match="n_splits must be an integer >= 2, got n_splits=1"):
        make_splitter("K-fold", n_splits=1)


# -- leave-one-out in closed form -------------------------------------------
def _brute_loo(X, y):
    A = np.column_stack([np.ones(len(X)), X])
    out = []
    for i in range(len(X)):
        keep = np.arange(len(X)) != i
        coef = np.linalg.lstsq(A[keep], y[keep], rcond=None)[0]
        out.append(y[i] - A[i] @ coef)
    return np.array(out)


@pytest.mark.parametrize("seed", range(4))
def test_loo_closed_form_matches_brute_force_and_sklearn(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(25, 3))
    y = X @ [1.0, -2.0, 0.5] + rng.normal(size=25)
    np.testing.assert_allclose(loo_residuals_linear(X, y), _brute_loo(X, y), rtol=1e-9,
                               atol=1e-12)
    sk = -cross_val_score(LinearRegression(), X, y, cv=LeaveOneOut(),
                          scoring="neg_mean_squared_error").mean()
    assert loo_mse_linear(X, y) == pytest.approx(sk, rel=1e-9)


def test_loo_closed_form_on_raw_polynomial_powers():
    # Raw powers of x in [0, 10] up to x^10: condition number ~1e12 unscaled.
    rng = np.random.default_rng(1)
    x = np.sort(rng.uniform(0, 10, 40))
    y = np.sin(x) + 0.3 * rng.normal(size=40)
    X = np.vander(x, 11, increasing=True)[:, 1:]
    brute = _brute_loo(X / np.abs(X).max(axis=0), y)  # brute force on rescaled columns
    np.testing.assert_allclose(loo_residuals_linear(X, y), brute, rtol=1e-6, atol=1e-8)


def test_loo_rank_deficient_design_uses_the_column_space():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(20, 2))
    X = np.column_stack([X, X[:, 0] + X[:, 1]])  # a repeated direction
    y = rng.normal(size=20)
    np.testing.assert_allclose(loo_residuals_linear(X, y), _brute_loo(X[:, :2], y), rtol=1e-8)


def test_loo_errors():
    with pytest.raises(ValueError, match="leverage 1"):
        loo_residuals_linear(np.array([[0.0], [1.0]]), np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="as many rows"):
        loo_residuals_linear(np.zeros((5, 1)), np.zeros(4))


# -- batched least squares over splits --------------------------------------
@pytest.mark.parametrize("scheme", ["K-fold", "RLT", "5x2", "blocked 3x2", "LOO"])
def test_cv_split_errors_matches_cross_val_score(scheme):
    x, y = sine_regression(40, random_state=4)
    X = legendre_design(x, 4)
    cv = make_splitter(scheme, n_splits=5, random_state=0)
    ours = cv_split_errors(X, y, cv)
    sk = -cross_val_score(LinearRegression(fit_intercept=False), X, y, cv=cv,
                          scoring="neg_mean_squared_error")
    np.testing.assert_allclose(ours, sk, rtol=1e-8)


def test_kfold_test_masks_fast_path_equals_sklearn_split():
    # The studies' shortcut must draw exactly the folds KFold / RepeatedKFold.split
    # draw (same RandomState use), or their simulated numbers would change.
    from mlcore.model_selection._study import _kfold_test_masks

    for n in (7, 23, 60):
        for k in (2, 3, 7):
            for cv in [KFold(k), KFold(k, shuffle=True, random_state=3),
                       KFold(k, shuffle=True, random_state=check_random_state(5)),
                       RepeatedKFold(n_splits=k, n_repeats=3, random_state=9),
                       RepeatedKFold(n_splits=k, n_repeats=2,
                                     random_state=check_random_state(1))]:
                fast = _kfold_test_masks(copy.deepcopy(cv), n)
                splits = list(copy.deepcopy(cv).split(np.zeros((n, 1))))
                expected = np.zeros((len(splits), n), dtype=bool)
                for row, (_, test) in zip(expected, splits):
                    row[test] = True
                np.testing.assert_array_equal(fast, expected, err_msg=repr(cv))
    assert _kfold_test_masks(KFold(5), 4) is None  # K > m: split raises, no shortcut
    assert _kfold_test_masks(LeaveOneOut(), 5) is None


def test_degree_curves():
    x, y = sine_regression(50, random_state=0)
    train, cv = degree_curves(x, y, range(10), n_splits=10, random_state=0)
    assert np.all(np.diff(train) <= 1e-12), "training error never rises with the degree"
    assert int(np.argmin(train)) == 9 and 2 <= int(np.argmin(cv)) <= 7
    folds = KFold(10, shuffle=True, random_state=0)
    for d in (1, 3, 6):
        sk = -cross_val_score(LinearRegression(fit_intercept=False), legendre_design(x, d), y,
                              cv=folds, scoring="neg_mean_squared_error").mean()
        assert cv[d] == pytest.approx(sk, rel=1e-8)


# -- the simulation ---------------------------------------------------------
def test_study_is_reproducible_and_independent_of_n_jobs():
    a = cv_estimator_study(sizes=[30], n_repeats=6, n_true=2000, random_state=1)
    b = cv_estimator_study(sizes=[30], n_repeats=6, n_true=2000, random_state=1, n_jobs=2)
    for key in a:
        assert np.array_equal(a[key], b[key]), key
    assert len(a["estimate"]) == 6 * len(STUDY_SCHEMES)
    assert sorted(set(a["repeat"].tolist())) == list(range(6))


def test_study_estimates_agree_with_cross_val_score_and_true_error_is_sane():
    out = cv_estimator_study(sizes=[40], n_repeats=2, n_true=50_000, random_state=2)
    seed = np.random.SeedSequence(2).spawn(3)[0]
    rng = np.random.default_rng(seed)
    x, y = sine_regression(40, noise=0.5, random_state=rng)
    X = legendre_design(x, 3)
    first = out["repeat"] == 0
    for (label, scheme, n_splits, n_repeats), est in zip(STUDY_SCHEMES, out["estimate"][first]):
        if scheme == "LOO":
            cv = LeaveOneOut()
        else:
            cv = make_splitter(scheme, n_splits=n_splits, n_repeats=n_repeats,
                               random_state=int(rng.integers(2 ** 31)))
        sk = -cross_val_score(LinearRegression(fit_intercept=False), X, y, cv=cv,
                              scoring="neg_mean_squared_error").mean()
        assert est == pytest.approx(sk, rel=1e-8), label
    assert np.all(out["true_error"] > 0.25)  # never below the noise variance 0.5^2


def test_summary_recovers_known_bias():
    results = {"n_samples": np.repeat([50], 2 * len(STUDY_SCHEMES)),
               "scheme": np.tile([s[0] for s in STUDY_SCHEMES], 2),
               "estimate": np.r_[np.full(len(STUDY_SCHEMES), 1.0), np.full(len(STUDY_SCHEMES), 3.0)],
               "true_error": np.full(2 * len(STUDY_SCHEMES), 1.5)}
    summary = summarize_cv_study(results)
    np.testing.assert_allclose(summary["bias"], 0.5)
    np.testing.assert_allclose(summary["std"], np.sqrt(2.0))
    np.testing.assert_allclose(summary["rmse"], np.sqrt((0.25 + 2.25) / 2))
    np.testing.assert_allclose(summary["bias_se"], np.sqrt(2.0) / np.sqrt(2))
    np.testing.assert_allclose(summary["median_bias"], 0.5)
    np.testing.assert_allclose(summary["iqr"], 1.0)  # quartiles 1.5 and 2.5 of {1, 3}


def test_summary_standard_errors_match_normal_theory():
    # For normal estimates, SE(mean) = sigma / sqrt(n) and SE(std) ~ sigma / sqrt(2 n).
    n, sigma = 20_000, 0.3
    rng = np.random.default_rng(0)
    labels = [s[0] for s in STUDY_SCHEMES]
    results = {"n_samples": np.full(n * len(labels), 60), "scheme": np.repeat(labels, n),
               "estimate": 1.0 + sigma * rng.standard_normal(n * len(labels)),
               "true_error": np.ones(n * len(labels))}
    summary = summarize_cv_study(results)
    np.testing.assert_allclose(summary["bias_se"], sigma / np.sqrt(n), rtol=0.03)
    np.testing.assert_allclose(summary["std_se"], sigma / np.sqrt(2 * n), rtol=0.05)
    np.testing.assert_allclose(summary["iqr"], 2 * 0.6745 * sigma, rtol=0.05)


def test_study_parameter_errors():
    with pytest.raises(ValueError, match="sizes must be an integer >= 20, got sizes=10"):
        cv_estimator_study(sizes=[10])


# -- figures ----------------------------------------------------------------
def test_figures_render_every_scheme_and_degree():
    figure = FoldAssignmentFigure()
    for scheme in ("LOO", "stratified hold-out", "blocked rx2"):
        assert figure.render(scheme=scheme, n_samples=17, n_splits=7)[:4] == b"\x89PNG"
    assert figure.title.get_text() == "blocked rx2: 14 splits of m = 17; each sample is tested 7 times"
    figure.render(scheme="hold-out", n_samples=20)
    assert figure.title.get_text() == "hold-out: 1 split of m = 20; each sample is tested 0 to 1 time"
    degrees = DegreeSelectionFigure()
    degrees.render(degree=7)
    assert degrees.title.get_text().startswith("degree 7")


# -- blocked vs random r x 2, and the selection study ------------------------------
def test_mx2_variance_study_matches_direct_cross_validation():
    from mlcore.model_selection import mx2_variance_study
    out = mx2_variance_study(40, n_datasets=1, n_draws=4, n_repeats=3, random_state=5)
    rng = np.random.default_rng(5)
    x, y = sine_regression(40, noise=0.5, random_state=rng)
    X = legendre_design(x, 3)
    for kind in ("random", "blocked"):
        seeds = rng.integers(2 ** 31, size=4)
        estimates = [cv_split_errors(X, y, RepeatedKFold(n_splits=2, n_repeats=3,
                                                         random_state=int(s))
                                     if kind == "random" else
                                     BlockedMxTwoCV(3, random_state=int(s))).mean()
                     for s in seeds]
        assert out[f"{kind}_mean"][0] == pytest.approx(np.mean(estimates), rel=1e-10)
        assert out[f"{kind}_var"][0] == pytest.approx(np.var(estimates, ddof=1), rel=1e-8)
    with pytest.raises(ValueError, match="n_draws"):
        mx2_variance_study(40, n_draws=1)


def test_degree_selection_study_never_underfits_without_noise_and_regret_is_nonnegative():
    from mlcore.model_selection import SELECTION_SCHEMES, degree_selection_study
    out = degree_selection_study(sizes=[40], n_datasets=3, noise=1e-3, random_state=0)
    assert len(out["chosen"]) == 3 * len(SELECTION_SCHEMES)
    assert np.all(out["chosen"] >= 3), "with almost no noise no scheme picks too small a degree"
    assert np.all(out["regret"] >= 0) and np.all(out["regret"] < 1e-5)
    noisy = degree_selection_study(sizes=[60], n_datasets=5, random_state=1)
    assert np.all(noisy["regret"] >= 0) and np.any(noisy["chosen"] != 3)
    with pytest.raises(ValueError, match="true_degree"):
        degree_selection_study(true_degree=9)
