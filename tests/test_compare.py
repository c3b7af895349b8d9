"""Tests of mlcore.compare against SciPy, statsmodels and mlxtend."""

import numpy as np
import pytest
from mlxtend.evaluate import bias_variance_decomp, combined_ftest_5x2cv, paired_ttest_5x2cv
from scipy import stats
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks
from statsmodels.stats.contingency_tables import mcnemar

from fractions import Fraction

from mlcore.compare import (BiasVarianceFigure, MidpointClassifier, average_ranks, bias_variance_decomposition,
                            bayesian_signed_rank, binomial_test_error, corrected_resampled_t_test,
                            f_test_5x2cv, five_by_two_null_sizes, friedman_test, mcnemar_test,
                            nemenyi_critical_difference, nemenyi_pvalues, no_free_lunch_table,
                            paired_t_test_5x2cv, paired_t_test_cv, plot_cd_diagram,
                            polynomial_bias_variance, rejection_rates, rejection_table,
                            simulate_test_pvalues, two_feature_sampler, wilcoxon_holm)
from mlcore.compare._calibration import _accuracy_differences
from mlcore.compare._simulation import _index_split


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
@pytest.mark.parametrize("k, m, eps", [(90, 300, 0.25), (3, 40, 0.2), (0, 10, 0.1), (50, 50, 0.7),
                                       (17, 100, 0.17)])
def test_binomial_test_equals_scipy(k, m, eps, alternative):
    ours = binomial_test_error(k, m, eps, alternative=alternative).pvalue
    theirs = stats.binomtest(k, m, eps, alternative=alternative).pvalue
    assert abs(ours - theirs) < 1e-10


def test_paired_and_corrected_t_tests():
    rng = np.random.default_rng(0)
    a, b = rng.normal(0.8, 0.03, 10), rng.normal(0.79, 0.03, 10)
    for alternative in ["two-sided", "greater", "less"]:
        ours = paired_t_test_cv(a, b, alternative=alternative)
        theirs = stats.ttest_rel(a, b, alternative=alternative)
        assert abs(ours.statistic - theirs.statistic) < 1e-10 and abs(ours.pvalue - theirs.pvalue) < 1e-10
    d = a - b
    corrected = corrected_resampled_t_test(a, b, n_train=900, n_test=100)
    assert abs(corrected.statistic - d.mean() / np.sqrt((1 / 10 + 100 / 900) * d.var(ddof=1))) < 1e-12
    # With no overlap correction (n_test / n_train -> 0) it is the paired t-test.
    limit = corrected_resampled_t_test(a, b, n_train=10**12, n_test=1)
    assert abs(limit.statistic - paired_t_test_cv(a, b).statistic) < 1e-6
    assert abs(corrected.statistic) < abs(paired_t_test_cv(a, b).statistic)


@pytest.mark.parametrize("seed", [0, 7, 123])
def test_5x2cv_tests_equal_mlxtend(seed):
    X, y = load_breast_cancer(return_X_y=True)
    a, b = GaussianNB(), DecisionTreeClassifier(random_state=0)
    t = paired_t_test_5x2cv(a, b, X, y, random_state=seed)
    t_mlxtend, p_mlxtend = paired_ttest_5x2cv(a, b, X, y, random_seed=seed)
    assert abs(t.statistic - t_mlxtend) < 1e-10 and abs(t.pvalue - p_mlxtend) < 1e-10
    f = f_test_5x2cv(a, b, X, y, random_state=seed)
    f_mlxtend, pf_mlxtend = combined_ftest_5x2cv(a, b, X, y, random_seed=seed)
    assert abs(f.statistic - f_mlxtend) < 1e-10 and abs(f.pvalue - pf_mlxtend) < 1e-10


@pytest.mark.parametrize("correction", [True, False])
def test_mcnemar_equals_statsmodels(correction):
    X, y = load_iris(return_X_y=True)
    y = (y == 2).astype(int)
    rng = np.random.default_rng(1)
    a = np.where(rng.random(150) < 0.15, 1 - y, y)
    b = np.where(rng.random(150) < 0.25, 1 - y, y)
    ours = mcnemar_test(y, a, b, correction=correction)
    n01, n10 = ours.df
    table = [[np.sum((a == y) & (b == y)), n01], [n10, np.sum((a != y) & (b != y))]]
    theirs = mcnemar(table, exact=False, correction=correction)
    assert abs(ours.statistic - theirs.statistic) < 1e-10 and abs(ours.pvalue - theirs.pvalue) < 1e-10


def test_friedman_equals_scipy_with_and_without_ties():
    rng = np.random.default_rng(2)
    for scores in (rng.normal(size=(10, 5)), np.round(rng.uniform(0.7, 0.9, size=(12, 4)), 2)):
        ours = friedman_test(scores)
        theirs = stats.friedmanchisquare(*scores.T)
        assert abs(ours.statistic - theirs.statistic) < 1e-10 and abs(ours.pvalue - theirs.pvalue) < 1e-10
        n, k = scores.shape
        f = friedman_test(scores, iman_davenport=True)
        assert abs(f.statistic - (n - 1) * ours.statistic / (n * (k - 1) - ours.statistic)) < 1e-10
        assert f.df == (k - 1, (k - 1) * (n - 1))


def test_average_ranks_put_the_best_first():
    ranks = average_ranks([[0.9, 0.8, 0.8], [0.7, 0.9, 0.6]])
    assert ranks.tolist() == [1.5, 1.75, 2.75]


@pytest.mark.parametrize("k, q_demsar", [(2, 1.960), (3, 2.343), (4, 2.569), (5, 2.728), (6, 2.850),
                                         (10, 3.164)])
def test_nemenyi_q_values_match_demsar_table(k, q_demsar):
    n = 7
    cd = nemenyi_critical_difference(k, n)
    assert abs(cd / np.sqrt(k * (k + 1) / (6 * n)) - q_demsar) < 1e-3


def test_bias_variance_equals_mlxtend():
    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, (120, 2))
    y = X[:, 0] ** 2 - X[:, 1] + rng.normal(scale=0.2, size=120)
    for model in (LinearRegression(), DecisionTreeRegressor(max_depth=3, random_state=0)):
        ours = bias_variance_decomposition(model, X[:80], y[:80], X[80:], y[80:], n_rounds=50,
                                           random_state=5)
        theirs = bias_variance_decomp(model, X[:80], y[:80], X[80:], y[80:], loss="mse",
                                      num_rounds=50, random_seed=5)
        assert np.allclose(ours, theirs, rtol=1e-10, atol=1e-12)
    Xc, yc = load_iris(return_X_y=True)
    order = np.random.default_rng(4).permutation(150)
    Xc, yc = Xc[order], yc[order]
    ours = bias_variance_decomposition(KNeighborsClassifier(3), Xc[:100], yc[:100], Xc[100:],
                                       yc[100:], loss="0-1", n_rounds=30, random_state=2)
    theirs = bias_variance_decomp(KNeighborsClassifier(3), Xc[:100], yc[:100], Xc[100:], yc[100:],
                                  loss="0-1_loss", num_rounds=30, random_seed=2)
    assert np.allclose(ours, theirs, rtol=1e-10)


def test_polynomial_bias_variance_adds_up_and_has_the_usual_shape():
    table = polynomial_bias_variance(lambda t: np.sin(2 * np.pi * t), range(8), n_datasets=400,
                                     random_state=0)
    assert np.all(np.abs(table["sum"] - table["expected_error"]) < 4 * table["expected_error_se"])
    assert table["bias2"].iloc[0] > 10 * table["bias2"].iloc[5]     # bias falls with the degree
    assert table["variance"].iloc[7] > 3 * table["variance"].iloc[1]   # variance rises


def test_no_free_lunch_every_learner_averages_one_half():
    learners = {
        "majority": lambda X, y, Xt: np.full(len(Xt), int(y.mean() >= 0.5)),
        "minority": lambda X, y, Xt: np.full(len(Xt), int(y.mean() < 0.5)),
        "1-NN": lambda X, y, Xt: y[np.argmin(np.abs(Xt[:, None, :] - X[None]).sum(axis=2), axis=1)],
        "always 0": lambda X, y, Xt: np.zeros(len(Xt), dtype=int),
    }
    for bits in (2, 3):
        table = no_free_lunch_table(learners, n_bits=bits)
        assert np.allclose(table["mean_ots_error"].astype(float), 0.5)
        assert (table["n_targets"] == 2 ** 2**bits).all()
        assert (table["min"] == 0).all() and (table["max"] == 1).all()


def test_rejection_rates_are_reproducible_and_parallel_safe():
    def sampler(n, rng):
        X = rng.normal(size=(n, 2))
        return X, (X.sum(axis=1) + rng.normal(size=n) > 0).astype(int)

    one = rejection_rates(sampler, LogisticRegression(), GaussianNB(), n_samples=60,
                          n_repetitions=4, random_state=3)
    two = rejection_rates(sampler, LogisticRegression(), GaussianNB(), n_samples=60,
                          n_repetitions=4, random_state=3, n_jobs=2)
    assert one.equals(two) and one["rejection_rate"].between(0, 1).all()


@pytest.mark.parametrize("call, message", [
    (lambda: binomial_test_error(5, 3, 0.1), "n_errors must be an integer in \\[0, 3\\]"),
    (lambda: binomial_test_error(1, 10, 1.0), "epsilon0 must be in \\(0, 1\\)"),
    (lambda: binomial_test_error(1, 10, 0.2, alternative="bigger"), "alternative must be one of"),
    (lambda: paired_t_test_cv([0.1, 0.2], [0.1, 0.2, 0.3]), "same length"),
    (lambda: paired_t_test_cv([0.1, 0.2], [0.1, 0.2]), "undefined"),
    (lambda: paired_t_test_cv([0.1, np.nan], [0.1, 0.2]), "NaN"),
    (lambda: f_test_5x2cv(differences=np.zeros((4, 2))), "\\(5, 2\\)"),
    (lambda: mcnemar_test([0, 1], [0, 1], [0, 1]), "never disagree"),
    (lambda: friedman_test([[0.1, 0.2]]), "at least 2"),
    (lambda: nemenyi_critical_difference(1, 10), "n_learners must be an integer >= 2"),
    (lambda: corrected_resampled_t_test([0.1, 0.2], [0.2, 0.2], n_train=0, n_test=5), "n_train"),
    (lambda: plot_cd_diagram([1, 2], ["a"], 1.0), "one entry per learner"),
])
def test_bad_input_is_a_clear_error(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_figure_renders():
    figure = BiasVarianceFigure()
    assert figure.render(degree=9)[:4] == b"\x89PNG"


@parametrize_with_checks([MidpointClassifier()])
def test_midpoint_classifier_is_a_scikit_learn_estimator(estimator, check):
    check(estimator)


def test_midpoint_classifier_equals_its_definition():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(50, 3))
    y = np.where(X[:, 2] + rng.normal(size=50) > 0, "yes", "no")
    model = MidpointClassifier(feature=2).fit(X, y)
    means = {c: X[y == c, 2].mean() for c in ("no", "yes")}
    nearer = np.where(np.abs(X[:, 2] - means["yes"]) < np.abs(X[:, 2] - means["no"]), "yes", "no")
    assert np.array_equal(model.predict(X), nearer)


# -- regression tests of the 2026-11 review (chapter 10) and of FUZZ-2 ------------------------
@pytest.mark.parametrize("method", ["exact", "mid-p"])
def test_mcnemar_exact_and_mid_p(method):
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 80)
    a = np.where(rng.random(80) < 0.2, 1 - y, y)
    b = np.where(rng.random(80) < 0.35, 1 - y, y)
    ours = mcnemar_test(y, a, b, method=method)
    n01, n10 = ours.df
    low, n = min(n01, n10), n01 + n10
    if method == "exact":
        theirs = mcnemar([[0, n01], [n10, 0]], exact=True)
        assert ours.statistic == theirs.statistic and abs(ours.pvalue - theirs.pvalue) < 1e-12
    else:   # mid-p: the exact p-value minus the probability of the observed count
        exact = mcnemar([[0, n01], [n10, 0]], exact=True).pvalue
        assert abs(ours.pvalue - (exact - stats.binom.pmf(low, n, 0.5))) < 1e-12
        assert ours.pvalue < exact


def test_mcnemar_equal_counts_is_clipped_and_documented():
    # FUZZ-2 A10 / review finding 9: b == c gives chi2 = 0, p = 1 (statsmodels: 1/(b + c)).
    y, a, b = [1, 1, 0, 0], [1, 0, 1, 1], [0, 1, 1, 1]
    result = mcnemar_test(y, a, b)
    assert result.df == (1, 1) and result.statistic == 0.0 and result.pvalue == 1.0
    assert mcnemar([[2, 1], [1, 0]], exact=False, correction=True).statistic == 0.5
    assert "clipped at 0" in mcnemar_test.__doc__


def test_mcnemar_refuses_none_predictions():
    with pytest.raises(TypeError, match="y_pred_b must be an array of labels, got None"):
        mcnemar_test([0, 1], [0, 1], None)


def test_midpoint_threshold_in_float64_for_float16_input():
    # FUZZ-2 A13
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 2)).astype(np.float16)
    y = (X[:, 0] > 0.3).astype(int)
    X64 = X.astype(np.float64)
    want = (X64[y == 0, 0].mean() + X64[y == 1, 0].mean()) / 2
    assert abs(MidpointClassifier().fit(X, y).threshold_ - want) < 1e-12


def test_nemenyi_tiny_alpha_is_finite():
    # FUZZ-2 B3: 1 - 1e-308 rounds to 1
    cd = nemenyi_critical_difference(5, 10, alpha=1e-308)
    assert np.isfinite(cd) and cd > nemenyi_critical_difference(5, 10, alpha=1e-200)


def test_bias_variance_decomposition_refuses_nonfinite_predictions():
    # FUZZ-2 B7: subnormal X gave (nan, nan, nan)
    from sklearn.linear_model import LinearRegression
    X = np.array([[1e-320], [2e-320], [3e-320], [4e-320], [5e-320], [6e-320]])
    y = np.arange(6.0)
    with pytest.raises(ValueError, match="NaN or inf predictions"):
        bias_variance_decomposition(LinearRegression(), X[:4], y[:4], X[4:], y[4:], n_rounds=3, random_state=0)


@pytest.mark.parametrize("call, error, message", [
    (lambda: no_free_lunch_table(None), TypeError, "learners must be a non-empty dict"),           # C5
    (lambda: polynomial_bias_variance(np.sin, [1, 3], x_range=(0, np.inf)), ValueError, "x_range"),  # C6
    (lambda: polynomial_bias_variance(np.sin, [1], x_range=(1, 0)), ValueError, "low < high"),
    (lambda: two_feature_sampler("1.0"), TypeError, "weight must be a real number"),
    (lambda: friedman_test([[1, 2], [2, 1]], iman_davenport="yes"), TypeError, "iman_davenport"),
    (lambda: mcnemar_test([0, 1], [0, 1], [1, 0], method="binomial"), ValueError, "method must be one of"),
    (lambda: paired_t_test_5x2cv(GaussianNB(), GaussianNB(), *load_iris(return_X_y=True), scoring="nonsense"),
     ValueError, "scoring must be None, a scikit-learn scorer name"),                             # C9
    (lambda: bayesian_signed_rank([0.8, 0.7], [0.8, 0.9], rope=-0.1), ValueError, "rope must be >= 0"),
    (lambda: wilcoxon_holm(np.ones((5, 3)), names=["a", "b", "c"], control="d"), ValueError, "control"),
])
def test_bad_input_names_the_parameter(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_cd_diagram_accepts_a_fraction():
    # FUZZ-2 D10
    ax = plot_cd_diagram([1.2, 2.5, 2.6, 3.7], list("ABCD"), Fraction(1, 4))
    assert any("CD = 0.25" in t.get_text() for t in ax.texts)


def test_average_ranks_exact_for_large_integers():
    # FUZZ-2 A8 (compare part): int64 beyond 2**53 must not create ties
    assert average_ranks(np.array([[2**53, 2**53 + 1], [1, 2]])).tolist() == [2.0, 1.0]


def test_t_tests_are_scale_invariant_down_to_1e_300():
    # FUZZ-2 D3: the squares of ~1e-300 differences underflowed to a false "all equal"
    a, b = np.array([1.0, 2.0, 3.0]), np.array([1.5, 2.1, 3.7])
    assert np.isclose(paired_t_test_cv(a * 1e-300, b * 1e-300).statistic, paired_t_test_cv(a, b).statistic)
    assert np.isclose(corrected_resampled_t_test(a * 1e-300, b * 1e-300, 9, 1).statistic,
                      corrected_resampled_t_test(a, b, 9, 1).statistic)
    d = np.random.default_rng(0).normal(size=(5, 2))
    assert np.isclose(f_test_5x2cv(differences=d * 1e-300).statistic, f_test_5x2cv(differences=d).statistic)


def test_five_by_two_null_laws():
    # Review finding 1: under iid N(0, 1) differences, Dietterich's t is conservative (0.028),
    # the mean of ten is exactly t_5, Zhou's variant is t_5/sqrt 2, Alpaydin's F is (1 + F55)/2.
    table = five_by_two_null_sizes(n_draws=200_000, random_state=1)
    exact = table.dropna()
    assert np.all(np.abs(exact["size"] - exact["exact"]) < 4 * exact["se"])
    assert abs(table.loc["Dietterich's t (d11)", "size"] - 0.028) < 0.002
    assert abs(table.loc["Alpaydin's F", "exact"] - 0.0175) < 0.0001
    assert abs(table.loc["Zhou's t (mean of replication 1)", "exact"] - 0.0150) < 0.0001


def test_vectorized_midpoint_learners_equal_the_estimator():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(3, 40, 2))
    y = (X[..., 0] + X[..., 1] + rng.normal(size=(3, 40)) > 0).astype(np.int8)
    train, test = np.arange(30), np.arange(30, 40)
    d, (right_a, right_b) = _accuracy_differences(X, y, train, test)
    for r in range(3):
        acc = [np.mean(MidpointClassifier(feature=j).fit(X[r, train], y[r, train].astype(int))
                       .predict(X[r, test]) == y[r, test]) for j in (0, 1)]
        assert np.isclose(d[r], acc[0] - acc[1])
        a = MidpointClassifier(feature=0).fit(X[r, train], y[r, train].astype(int)).predict(X[r, test])
        assert np.array_equal(right_a[r], a == y[r, test])


def test_simulated_pvalues_calibration():
    p = simulate_test_pvalues(n_repetitions=1000, random_state=0)
    assert p.shape == (1000, 12) and ((p >= 0) & (p <= 1)).all().all()
    rates = rejection_table(p)
    # resolved failures: uncorrected repeated CV and the mean-of-ten 5x2cv t are liberal
    assert rates.loc["10x10 CV t (uncorrected)", "rate"] > 0.3
    assert rates.loc["5x2cv mean-of-ten t", "rate"] > 0.15
    # same seed, same numbers
    assert p.equals(simulate_test_pvalues(n_repetitions=1000, random_state=0))


def test_polynomial_bias_variance_grid_design_matches_exact_values():
    # Review finding 3: on a fixed design every term is resolved and equals its exact value.
    table = polynomial_bias_variance(lambda t: np.sin(2 * np.pi * t), range(10), design="grid",
                                     n_datasets=4000, random_state=0)
    assert np.all(np.abs(table["bias2"] - table["bias2_exact"]) < 4 * table["bias2_se"])
    assert np.all(np.abs(table["variance"] - table["variance_exact"]) < 4 * table["variance_se"])
    assert np.all(np.diff(table["variance_exact"]) > 0) and np.all(np.diff(table["bias2_exact"]) <= 1e-12)
    assert np.all(np.abs(table["sum"] - table["expected_error"]) < 4 * table["expected_error_se"])


def test_polynomial_bias2_is_unbiased_not_inflated_by_monte_carlo_noise():
    # The plain (mean fit - truth)^2 overstates bias^2 by variance / n_datasets; with a fixed
    # design and degree 9 that noise was all of the "bias". The estimate is now unbiased.
    small = [polynomial_bias_variance(lambda t: np.sin(2 * np.pi * t), [9], design="grid", n_datasets=20,
                                      random_state=s)["bias2"].iloc[0] for s in range(200)]
    assert abs(np.mean(small)) < 3 * np.std(small) / np.sqrt(200)


def test_nemenyi_and_wilcoxon_holm_equal_scikit_posthocs():
    sp = pytest.importorskip("scikit_posthocs")
    rng = np.random.default_rng(5)
    for scores in (rng.normal(size=(10, 5)), np.round(rng.uniform(0.7, 0.9, size=(14, 4)), 2)):
        assert np.allclose(nemenyi_pvalues(scores).to_numpy(),
                           sp.posthoc_nemenyi_friedman(scores).to_numpy(), atol=1e-12)
        assert np.allclose(wilcoxon_holm(scores).to_numpy(),
                           sp.posthoc_wilcoxon(scores.T, p_adjust="holm").to_numpy(), atol=1e-12)
    # the critical difference is the p-value's threshold
    scores = rng.normal(size=(12, 4))
    ranks, cd = average_ranks(scores), nemenyi_critical_difference(4, 12)
    gaps = np.abs(ranks[:, None] - ranks[None, :])
    assert np.array_equal(nemenyi_pvalues(scores).to_numpy() <= 0.05, gaps >= cd)


def test_wilcoxon_holm_with_a_control_equals_statsmodels():
    from statsmodels.stats.multitest import multipletests
    rng = np.random.default_rng(6)
    scores = rng.normal(size=(15, 4)) + [0, 0.3, 0.8, 1.2]
    table = wilcoxon_holm(scores, names=list("abcd"), control="a")
    raw = [stats.wilcoxon(scores[:, j], scores[:, 0]).pvalue for j in (1, 2, 3)]
    assert np.allclose(table["pvalue"], raw) and np.allclose(table["holm_pvalue"], multipletests(raw, method="holm")[1])


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.05])
def test_bayesian_signed_rank_equals_baycomp(rope):
    baycomp = pytest.importorskip("baycomp")
    rng = np.random.default_rng(8)
    a = rng.uniform(0.7, 0.95, 12)
    b = a + rng.normal(0.01, 0.02, 12)
    ours = bayesian_signed_rank(a, b, rope=rope, n_samples=20000, random_state=4)
    theirs = baycomp.SignedRankTest.probs(a, b, rope=rope, nsamples=20000, random_state=4)
    if rope == 0:
        assert ours.p_rope == 0 and np.allclose([ours.p_a_better, ours.p_b_better], theirs, atol=1e-12)
    else:
        assert np.allclose(ours, theirs, atol=1e-12)


def test_vectorized_one_nearest_neighbour_equals_scikit_learn():
    from sklearn.neighbors import KNeighborsClassifier as KNN
    rng = np.random.default_rng(9)
    X = rng.normal(size=(3, 40, 2))
    y = (X[..., 0] + X[..., 1] + rng.normal(size=(3, 40)) > 0).astype(np.int8)
    train, test = np.arange(0, 40, 2), np.arange(1, 40, 2)
    d, (right_a, right_b) = _accuracy_differences(X, y, train, test, "1-nn")
    for r in range(3):
        right = [KNN(1).fit(X[r][train][:, [j]], y[r, train]).predict(X[r][test][:, [j]]) == y[r, test]
                 for j in (0, 1)]
        assert np.array_equal(right_a[r], right[0]) and np.array_equal(right_b[r], right[1])
        assert np.isclose(d[r], right[0].mean() - right[1].mean())


def test_simulated_pvalues_draw_fresh_splits_in_every_repetition(monkeypatch):
    # Review 2026-11-27-ch09-10, 10.8: with one split shared by all repetitions the
    # resampled tests' rates were conditional on that split's test-set overlap. Record
    # the data each fit sees and recover every repetition's order of its points.
    from mlcore.compare import _calibration
    seen = []
    original = _calibration._accuracy_differences

    def spy(X, y, train, test, learner="midpoint"):
        seen.append(X[:, test, 0])
        return original(X, y, train, test, learner)

    monkeypatch.setattr(_calibration, "_accuracy_differences", spy)
    reps, m = 30, 40
    simulate_test_pvalues(n_samples=m, n_repetitions=reps, random_state=3)
    X = np.random.default_rng(3).normal(size=(reps, m, 2))     # the function's first draw
    assert len(seen) == 10 + 10 + 100 + 10 + 1
    test_sets = [[frozenset(np.flatnonzero(np.isin(X[r, :, 0], s[r]))) for r in range(reps)]
                 for s in seen]
    assert all(len(sets) == reps and all(len(t) == s.shape[1] for t in sets)
               for sets, s in zip(test_sets, seen))             # every test point found
    # A split shared by all repetitions would give every repetition the same test
    # indices; fresh splits give nearly as many index sets as repetitions.
    distinct = [len(set(sets)) for sets in test_sets]
    assert min(distinct) > reps - 3, distinct


@pytest.mark.parametrize("n_samples", [20, 37, 60, 201])
def test_index_split_is_train_test_split_of_the_indices(n_samples):
    # rejection_rates splits with _index_split for speed: the same arrays, seed for seed.
    # A reused, reseeded RandomState (as rejection_rates passes) gives the same arrays.
    from sklearn.model_selection import train_test_split
    reused = np.random.RandomState()
    for test_size in (0.1, 0.5):
        for seed in (0, 7, 2**31 - 2):
            want = train_test_split(np.arange(n_samples), test_size=test_size,
                                    random_state=seed)
            for got in (_index_split(n_samples, test_size, seed),
                        _index_split(n_samples, test_size, seed, reused)):
                assert all(np.array_equal(g, w) and g.dtype == w.dtype
                           for g, w in zip(got, want))
