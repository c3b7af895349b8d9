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

from mlcore.compare import (BiasVarianceFigure, MidpointClassifier, average_ranks, bias_variance_decomposition,
                            binomial_test_error, corrected_resampled_t_test, f_test_5x2cv,
                            friedman_test, mcnemar_test, nemenyi_critical_difference,
                            no_free_lunch_table, paired_t_test_5x2cv, paired_t_test_cv,
                            plot_cd_diagram, polynomial_bias_variance, rejection_rates)


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
