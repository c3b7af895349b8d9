"""Property tests of the models: lda, bayes, linear, tree, multiclass, feature_selection.

A classifier's predictions and a selector's choices stay the same when the
features change units (10**k across the float range, or a worded refusal
naming the parameter); an estimate scales exactly; a permutation of the
samples changes nothing; probabilities lie in [0, 1]; values agree with
scikit-learn or SciPy where they have the method.
"""

import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy import stats
from sklearn.covariance import ledoit_wolf as sk_ledoit_wolf
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier as SkTree

from mlcore.bayes import (BayesianLinearRegression, LaplaceLogisticRegression,
                          importance_posterior, log_loss_from_logit, polynomial_moons,
                          probit_predictive, tau_averaged_predictive)
from mlcore.feature_selection import (MIFilter, backward_search, benjamini_hochberg,
                                      correlation_scores, exhaustive_search, forward_search,
                                      g_test_scores, gaussian_nb_subset_accuracy, jmi_select,
                                      mrmr_select, stability_selection)
from mlcore.lda import (FisherLDA, ShrinkageLDA, coded_least_squares, fisher_criterion,
                        fisher_direction, fisher_direction_exact, ledoit_wolf,
                        scatter_matrices)
from mlcore.linear import gradient_descent_path, logistic_hessian, sample_logistic_data
from mlcore.multiclass import ECOCClassifier, code_separation, coding_matrix
from mlcore.tree import (DecisionTreeClassifier, ObliqueTreeClassifier, entropy, gain_ratio,
                         gini, gini_index, information_gain, intrinsic_value, oblique_split_text,
                         plot_tree, threshold_gains)
from property_registry import (FAST, TINY, covers, exponents, scaled, seeds,
                               value_or_refusal)


def _two_classes(seed, m=40, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    y = (X[:, 0] - X[:, 1] + rng.normal(size=m) > 0).astype(int)
    y[:2] = [0, 1]
    return X, y


# -- lda -------------------------------------------------------------------------
@covers(fisher_direction, fisher_direction_exact, fisher_criterion, scatter_matrices,
        coded_least_squares)
@FAST
@given(seeds, exponents)
def test_fisher_quantities_under_units_and_permutation(seed, k):
    X, y = _two_classes(seed)
    w = fisher_direction(X, y)
    assert np.allclose(fisher_direction_exact(X, y), w, atol=1e-9)
    lda = LinearDiscriminantAnalysis(solver="eigen").fit(X, y)
    sk = lda.coef_[0] / np.linalg.norm(lda.coef_[0])
    assert abs(abs(sk @ w) - 1) < 1e-9                     # the same direction
    criterion = fisher_criterion(w, X, y)
    assert criterion >= 0
    Sw, Sb = scatter_matrices(X, y)[:2]
    assert np.allclose(Sw, Sw.T) and np.all(np.linalg.eigvalsh(Sb) >= -1e-9)
    order = np.random.default_rng(seed).permutation(len(y))
    assert np.allclose(fisher_direction(X[order], y[order]), w, atol=1e-12)
    # a change of units: the projection's ratio is unit-free, the direction scales
    Xs = scaled(X, k)
    ws = value_or_refusal(lambda: fisher_direction(Xs, y), "X")
    if ws is not None:
        assert np.all(np.isfinite(ws))
        assert fisher_criterion(ws, Xs, y) == pytest.approx(criterion, rel=1e-6)
    coded = coded_least_squares(X, y)
    assert abs(abs(coded @ w) / np.linalg.norm(coded) - 1) < 1e-9   # proportional to w


@covers(ledoit_wolf)
@FAST
@given(seeds, exponents)
def test_ledoit_wolf_matches_sklearn_and_is_unit_free(seed, k):
    X = np.random.default_rng(seed).normal(size=(12, 4))
    cov, alpha = ledoit_wolf(X)
    sk_cov, sk_alpha = sk_ledoit_wolf(X)
    assert alpha == pytest.approx(sk_alpha, rel=1e-9) and np.allclose(cov, sk_cov)
    assert 0 <= alpha <= 1
    got = value_or_refusal(lambda: ledoit_wolf(scaled(X, k)), "X")
    if got is not None:
        assert got[1] == pytest.approx(alpha, rel=1e-6)    # shrinkage has no units


@covers(FisherLDA, ShrinkageLDA)
@FAST
@given(seeds, exponents)
def test_lda_classifiers_predict_the_same_in_any_units(seed, k):
    X, y = _two_classes(seed)
    X[:, 2] *= 1e4                                  # features in different units
    for model in (FisherLDA(), ShrinkageLDA("auto"), ShrinkageLDA(0.3)):
        base = model.fit(X, y).predict(X)
        order = np.random.default_rng(seed).permutation(len(y))
        assert np.array_equal(model.fit(X[order], y[order]).predict(X), base)
        if isinstance(model, FisherLDA):
            continue
        proba = model.fit(X, y).predict_proba(X)
        assert np.all((proba >= 0) & (proba <= 1))
        Xs = scaled(X, k)
        fitted = value_or_refusal(lambda: model.fit(Xs, y), "X")
        if fitted is not None:
            agree = np.mean(fitted.predict(Xs) == base)
            assert agree == 1.0, f"{model} changes {1 - agree:.0%} of predictions at 1e{k}"


# -- bayes -----------------------------------------------------------------------
@covers(probit_predictive, log_loss_from_logit)
@FAST
@given(st.lists(st.floats(-1e300, 1e300), min_size=1, max_size=10),
       st.floats(0, 1e300), st.integers(0, 1))
def test_bayes_closed_forms_stay_in_range(means, variance, label):
    mean = np.array(means)
    p = probit_predictive(mean, np.full(mean.size, variance))
    assert np.all((p >= 0) & (p <= 1))
    want = stats.norm.cdf(mean / np.sqrt(1 + np.pi * variance / 8))
    assert np.allclose(p, want, rtol=1e-9, atol=1e-300)
    loss = log_loss_from_logit(np.full(mean.size, label), mean)
    assert np.all(np.asarray(loss) >= 0)
    z = np.clip(mean, -700, 700)      # where the exact value is a positive float
    want = np.logaddexp(0, -z if label else z)
    assert np.allclose(log_loss_from_logit(np.full(z.size, label), z), want, rtol=1e-12,
                       atol=0)


@covers(BayesianLinearRegression, LaplaceLogisticRegression, tau_averaged_predictive,
        polynomial_moons)
@TINY
@given(seeds)
def test_bayesian_models_agree_with_their_limits(seed):
    X, y = _two_classes(seed)
    ls = np.linalg.lstsq(np.c_[np.ones(40), X], X @ [1.0, 2.0, 0.0] + 0.1, rcond=None)[0]
    blr = BayesianLinearRegression(alpha=1e-10, beta=1.0).fit(X, X @ [1.0, 2.0, 0.0] + 0.1)
    assert np.allclose(np.r_[blr.intercept_, blr.coef_], ls, atol=1e-6)   # flat prior: OLS
    laplace = LaplaceLogisticRegression(tau=2.0, random_state=0).fit(X, y)
    sk = LogisticRegression(C=4.0, tol=1e-12, max_iter=1000).fit(X, y)
    assert np.allclose(laplace.coef_, sk.coef_.ravel(), atol=1e-4)
    proba = laplace.predict_proba(X)
    assert np.all((proba >= 0) & (proba <= 1))
    p, weights = tau_averaged_predictive(X, y, X[:5], [0.5, 1.0, 2.0])
    assert np.all((p >= 0) & (p <= 1)) and weights.sum() == pytest.approx(1.0)
    Xm, ym, _ = polynomial_moons(30, random_state=seed)
    assert Xm.shape == (30, 2) and set(np.unique(ym)) <= {0, 1}
    assert np.array_equal(polynomial_moons(30, random_state=seed)[0], Xm)


@covers(importance_posterior)
@TINY
@given(seeds, st.sampled_from([1.0, 1e-3, 1e3]))
def test_importance_posterior_weights_are_a_distribution(seed, tau):
    X, y = _two_classes(seed, m=20, d=2)
    post = importance_posterior(X, y, tau, n_draws=500, random_state=seed)
    w = np.exp(post.log_weights - post.log_weights.max())
    assert np.all(np.isfinite(post.theta)) and np.isfinite(post.log_evidence)
    assert np.all(w >= 0) and post.log_evidence_se >= 0


# -- linear ----------------------------------------------------------------------
@covers(logistic_hessian, gradient_descent_path, sample_logistic_data)
@FAST
@given(seeds)
def test_logistic_hessian_is_psd_and_gd_descends(seed):
    theta = np.array([0.2, 1.0, -1.0])
    X, y = sample_logistic_data(theta, 30, random_state=seed)
    assert X.shape == (30, 2) and set(np.unique(y)) <= {0, 1}
    H = logistic_hessian(theta, X, y)
    assert np.allclose(H, H.T) and np.all(np.linalg.eigvalsh(H) >= -1e-12)
    p = 1 / (1 + np.exp(-(theta[0] + X @ theta[1:])))
    X1 = np.c_[np.ones(30), X]
    assert np.allclose(H, X1.T @ (X1 * (p * (1 - p))[:, None]) / 30)
    path, losses = gradient_descent_path(X, y, 0.5, 20)
    assert np.all(np.diff(losses) <= 1e-12)          # a small step never climbs


# -- tree ------------------------------------------------------------------------
@covers(entropy, gini, information_gain, intrinsic_value, gain_ratio, gini_index)
@FAST
@given(seeds, st.integers(1, 4), st.integers(1, 5))
def test_impurities_match_scipy_and_are_permutation_free(seed, n_classes, n_values):
    rng = np.random.default_rng(seed)
    y, x = rng.integers(0, n_classes, 30), rng.integers(0, n_values, 30)
    p = np.bincount(y) / 30
    assert entropy(y) == pytest.approx(stats.entropy(p, base=2), abs=1e-12)
    assert gini(y) == pytest.approx(1 - np.sum(p**2), abs=1e-12)
    gain = information_gain(x, y)
    assert -1e-12 <= gain <= entropy(y) + 1e-12
    assert intrinsic_value(x) >= 0 and gini_index(x, y) >= 0
    assert 0 <= gain_ratio(x, y) or intrinsic_value(x) == 0
    order = rng.permutation(30)
    assert information_gain(x[order], y[order]) == pytest.approx(gain, abs=1e-12)
    # an integer weight is that many copies of the sample
    w = rng.integers(1, 3, 30)
    assert entropy(y, sample_weight=w) == pytest.approx(entropy(np.repeat(y, w)), abs=1e-12)


@covers(threshold_gains, DecisionTreeClassifier, plot_tree)
@FAST
@given(seeds, exponents)
def test_tree_predictions_are_unit_free_and_match_sklearn(seed, k):
    X, y = _two_classes(seed, m=30, d=2)
    X = np.round(X, 1)                                # ties on purpose
    tree = DecisionTreeClassifier(criterion="gini", max_depth=2).fit(X, y)
    sk = SkTree(criterion="gini", max_depth=2, random_state=0).fit(X, y)
    assert np.mean(tree.predict(X) == y) == pytest.approx(np.mean(sk.predict(X) == y))
    cuts, gains = threshold_gains(X[:, 0], y)
    assert np.all(gains >= -1e-12)
    Xs = scaled(X, k)
    fitted = value_or_refusal(lambda: DecisionTreeClassifier(criterion="gini", max_depth=2)
                              .fit(Xs, y), "X")
    if fitted is not None:
        assert np.array_equal(fitted.predict(Xs), tree.predict(X))
    assert plot_tree(tree) is not None


@covers(ObliqueTreeClassifier, oblique_split_text)
@TINY
@given(seeds, st.sampled_from([-200, 0, 200]))
def test_oblique_tree_is_unit_free(seed, k):
    X, y = _two_classes(seed, m=30, d=2)
    base = ObliqueTreeClassifier(max_depth=2).fit(X, y).predict(X)
    fitted = value_or_refusal(lambda: ObliqueTreeClassifier(max_depth=2).fit(X * 10.0**k, y),
                              "X")
    if fitted is not None:
        assert np.array_equal(fitted.predict(X * 10.0**k), base)
    text = oblique_split_text(np.array([1.0, -2.0]), 0.5, ["a", "b"])
    assert "a" in text and "b" in text
    with pytest.raises(ValueError, match="feature_names"):
        oblique_split_text(np.array([1.0, -2.0]), 0.5, ["a"])


# -- multiclass ------------------------------------------------------------------
@covers(coding_matrix, code_separation, ECOCClassifier)
@FAST
@given(seeds, st.integers(3, 6))
def test_codes_separate_and_ecoc_is_unit_free(seed, n_classes):
    code = coding_matrix(n_classes, code_size=2.0, random_state=seed)
    assert code.shape[0] == n_classes and set(np.unique(code)) <= {-1, 0, 1}
    rows, cols = code_separation(code)
    assert rows >= 0 and cols >= 0
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, 2))
    y = np.arange(30) % 3
    model = ECOCClassifier(KNeighborsClassifier(3), random_state=0)
    base = model.fit(X, y).predict(X)
    s = 2.0**-100             # exact: the neighbours' distances scale, their ranks stay
    assert np.array_equal(model.fit(X * s, y).predict(X * s), base)


# -- feature_selection -------------------------------------------------------------
@covers(correlation_scores, g_test_scores, benjamini_hochberg, mrmr_select, jmi_select,
        MIFilter)
@FAST
@given(seeds, exponents)
def test_filters_choose_the_same_in_any_units(seed, k):
    X, y = _two_classes(seed)
    scores = correlation_scores(X, y)
    assert np.allclose(scores, [abs(stats.pearsonr(c, y)[0]) for c in X.T])
    got = value_or_refusal(lambda: correlation_scores(scaled(X, k), y), "X")
    if got is not None:
        assert np.allclose(got, scores, rtol=1e-9)
    B = X > 0
    g, p = g_test_scores(B, y)
    assert np.all(g >= 0) and np.all((p >= 0) & (p <= 1))
    for j in range(3):
        table = np.array([[np.sum((B[:, j] == a) & (y == b)) for b in (0, 1)] for a in (0, 1)])
        if table.min() > 0:
            want = stats.chi2_contingency(table, correction=False, lambda_="log-likelihood")
            assert g[j] == pytest.approx(want[0], rel=1e-9)
    pv = np.random.default_rng(seed).random(10)
    rejected = benjamini_hochberg(pv)
    from statsmodels.stats.multitest import multipletests
    assert np.array_equal(rejected, multipletests(pv, 0.05, "fdr_bh")[0])
    assert mrmr_select(B, y, 2) == mrmr_select(B[::-1], y[::-1], 2)
    assert len(jmi_select(B, y, 2)) == 2
    kept = MIFilter(k=2).fit(X, y).get_support()
    assert np.array_equal(MIFilter(k=2).fit(scaled(X, min(k, 300)), y).get_support(), kept)


@covers(forward_search, backward_search, exhaustive_search, gaussian_nb_subset_accuracy,
        stability_selection)
@TINY
@given(seeds, st.sampled_from([-100, 0, 100]))
def test_searches_choose_the_same_in_any_units(seed, k):
    """Exact powers of two; nearest neighbours' choices depend on distance ranks only."""
    X, y = _two_classes(seed, m=30)
    tree = KNeighborsClassifier(3)
    def chosen(result):          # exhaustive_search returns the table of every subset
        return result.best_ if hasattr(result, "best_") else result.to_string()

    for search in (forward_search, backward_search, exhaustive_search):
        base = search(tree, X, y, cv=3)
        assert chosen(search(tree, X * 2.0**k, y, cv=3)) == chosen(base)
    acc = gaussian_nb_subset_accuracy(X, y, X, y, [(0,), (0, 2)])
    sk = GaussianNB().fit(X[:, [0, 2]], y).score(X[:, [0, 2]], y)
    assert acc[1] == pytest.approx(sk) and np.all((acc >= 0) & (acc <= 1))
    freq, _ = stability_selection(LogisticRegression(), X, y, n_subsamples=4, random_state=0)
    assert np.all((freq >= 0) & (freq <= 1))          # selection frequencies
