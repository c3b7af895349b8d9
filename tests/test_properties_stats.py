"""Property tests of compare, bootstrap, bounds, vc, divergence, model_selection, datasets.

p-values and rates lie in [0, 1] and agree with SciPy/statsmodels where they
have the test; a test of scores is unchanged when the scores change units or
the samples are permuted; bounds are monotone in their arguments; every
simulation is reproducible from its seed. The simulations run at their
smallest sizes: their properties do not depend on the size.
"""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy import stats
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from mlcore.bootstrap import (BootstrapOutOfBag, bootstrap_error, bootstrap_error_report,
                              gaussian_classes, interval_coverage, simulate_error_estimates)
from mlcore.bounds import (finite_class_failure_bound, finite_class_gap,
                           sample_threshold_data, simulate_uniform_convergence)
from mlcore.compare import (MidpointClassifier, average_ranks, bayesian_signed_rank,
                            bias_variance_decomposition, binomial_test_error,
                            corrected_resampled_t_test, f_test_5x2cv, five_by_two_null_sizes,
                            friedman_test, mcnemar_test, nemenyi_critical_difference,
                            nemenyi_pvalues, no_free_lunch_table, paired_t_test_5x2cv,
                            paired_t_test_cv, polynomial_bias_variance, rejection_rates,
                            rejection_table, simulate_test_pvalues, two_feature_sampler,
                            wilcoxon_holm)
from mlcore.datasets import load_sms_spam, load_wholesale, load_wine_quality, read_data_file
from mlcore.divergence import kfold_kl_curve, paper_datasets, symmetric_gaussian_kl
from mlcore.model_selection import (BlockedMxTwoCV, cv_estimator_study, degree_curves,
                                    degree_selection_study, mx2_variance_study, sine_regression,
                                    sine_target, summarize_cv_study)
from mlcore.vc import (Disc, HalfSpace, Interval, Rectangle, Threshold, erm_halfplane,
                       halfplane_noise_gaps, is_realizable, labelings, preset_points,
                       rademacher_vc_gap, rademacher_vc_sample_size, regular_simplex, shatters,
                       vc_sample_size)
from mlcore.widgets import strip_cdn_links
from property_registry import FAST, TINY, covers, exponents, scaled, seeds, value_or_refusal


def _unit(p):
    return 0 <= p <= 1


# -- compare -----------------------------------------------------------------------
@covers(paired_t_test_cv, corrected_resampled_t_test, binomial_test_error)
@FAST
@given(seeds, exponents)
def test_t_tests_match_scipy_and_are_unit_free(seed, k):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(0.8, 0.05, 10), rng.normal(0.78, 0.05, 10)
    ours = paired_t_test_cv(a, b)
    theirs = stats.ttest_rel(a, b)
    assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-9)
    got = value_or_refusal(lambda: paired_t_test_cv(scaled(a, k), scaled(b, k)),
                           "scores_a", "scores_b")
    if got is not None:
        assert got.pvalue == pytest.approx(ours.pvalue, rel=1e-6)
    c = corrected_resampled_t_test(a, b, 90, 10)
    assert _unit(c.pvalue) and c.pvalue >= ours.pvalue - 1e-12    # the correction widens
    n = int(rng.integers(1, 100))
    e = int(rng.integers(0, n + 1))
    assert binomial_test_error(e, n, 0.3).pvalue == pytest.approx(
        stats.binomtest(e, n, 0.3, alternative="greater").pvalue, rel=1e-9)


@covers(mcnemar_test)
@FAST
@given(seeds)
def test_mcnemar_matches_statsmodels(seed):
    from statsmodels.stats.contingency_tables import mcnemar
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 40)
    pa, pb = np.where(rng.random(40) < 0.8, y, 1 - y), np.where(rng.random(40) < 0.7, y, 1 - y)
    result = mcnemar_test(y, pa, pb, method="exact")
    b_, c_ = result.df
    assert result.pvalue == pytest.approx(mcnemar([[0, b_], [c_, 0]], exact=True).pvalue,
                                          rel=1e-9)
    assert _unit(mcnemar_test(y, pa, pb).pvalue)


@covers(average_ranks, friedman_test, nemenyi_critical_difference, nemenyi_pvalues,
        wilcoxon_holm)
@FAST
@given(seeds, exponents)
def test_rank_tests_match_scipy_and_are_unit_free(seed, k):
    scores = np.round(np.random.default_rng(seed).random((8, 3)), 1)   # ties
    ranks = average_ranks(scores)
    assert np.allclose(ranks, stats.rankdata(-scores, axis=1).mean(axis=0))
    assert ranks.sum() == pytest.approx(3 * 4 / 2)
    got = value_or_refusal(lambda: average_ranks(scaled(scores, k)), "scores")
    if got is not None:
        assert np.allclose(got, ranks)
    f = friedman_test(scores)
    assert _unit(f.pvalue)
    if np.ptp(scores, axis=1).all():
        assert f.pvalue == pytest.approx(stats.friedmanchisquare(*scores.T).pvalue, rel=1e-9)
    cd = nemenyi_critical_difference(3, 8)
    assert cd > 0 and nemenyi_critical_difference(3, 80) < cd
    p = nemenyi_pvalues(scores).to_numpy()
    assert np.allclose(p, p.T) and np.all((p >= 0) & (p <= 1))
    w = wilcoxon_holm(scores).to_numpy()
    assert np.all((w >= 0) & (w <= 1))


@covers(bayesian_signed_rank)
@FAST
@given(seeds, st.sampled_from([-100, 0, 100]))
def test_bayesian_signed_rank_is_a_distribution_and_scales_with_rope(seed, k):
    rng = np.random.default_rng(seed)
    a = rng.normal(0.8, 0.05, 8)
    b = a + rng.normal(0, 0.01, 8)
    r = bayesian_signed_rank(a, b, rope=0.01, n_samples=2000, random_state=0)
    probs = (r.p_a_better, r.p_rope, r.p_b_better)
    assert all(_unit(p) for p in probs) and sum(probs) == pytest.approx(1.0)
    s = 10.0**k
    rs = bayesian_signed_rank(a * s, b * s, rope=0.01 * s, n_samples=2000, random_state=0)
    assert (rs.p_a_better, rs.p_rope, rs.p_b_better) == pytest.approx(probs, abs=1e-9)


@covers(paired_t_test_5x2cv, f_test_5x2cv, five_by_two_null_sizes, rejection_table,
        simulate_test_pvalues, rejection_rates, MidpointClassifier, two_feature_sampler)
@TINY
@given(seeds)
def test_5x2cv_tests_and_their_simulations_give_probabilities(seed):
    rng = np.random.default_rng(seed)
    d = rng.normal(0, 0.02, (5, 2))
    t, f = paired_t_test_5x2cv(differences=d), f_test_5x2cv(differences=d)
    assert _unit(t.pvalue) and _unit(f.pvalue)
    assert _unit(paired_t_test_5x2cv(differences=d * 1e-200).pvalue)
    sizes = five_by_two_null_sizes(n_draws=2000, random_state=seed)
    assert np.all((sizes["size"] >= 0) & (sizes["size"] <= 1)) and np.all(sizes["se"] >= 0)
    p = simulate_test_pvalues(n_repetitions=3, n_samples=30, random_state=seed)
    assert np.all((p.to_numpy() >= 0) & (p.to_numpy() <= 1))
    table = rejection_table(p)
    assert np.all((table["rate"] >= 0) & (table["rate"] <= 1)) and np.all(table["se"] >= 0)
    sampler = two_feature_sampler(1.0)
    X, y = sampler(20, rng)
    assert X.shape == (20, 2) and set(np.unique(y)) <= {0, 1}
    assert set(np.unique(MidpointClassifier().fit(X, y).predict(X))) <= set(np.unique(y))
    rates = rejection_rates(sampler, MidpointClassifier(0), MidpointClassifier(1),
                            n_samples=30, n_repetitions=2, random_state=seed)
    values = rates.to_numpy() if hasattr(rates, "to_numpy") else np.asarray(list(
        rates.values()) if isinstance(rates, dict) else rates, dtype=float)
    assert np.all((values >= 0) & (values <= 1))


@covers(bias_variance_decomposition, polynomial_bias_variance, no_free_lunch_table)
@TINY
@given(seeds)
def test_bias_variance_parts_are_non_negative(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, 2))
    y = (X[:, 0] > 0).astype(int)
    parts = bias_variance_decomposition(DecisionTreeClassifier(max_depth=2), X, y, X[:10],
                                        y[:10], loss="0-1", n_rounds=3, random_state=seed)
    # 0-1 loss: the net variance may be negative (Domingos), the parts stay finite
    assert np.all(np.isfinite(np.asarray(parts, dtype=float)))
    curve = polynomial_bias_variance(np.sin, [1, 2], n_samples=10, n_datasets=5,
                                     random_state=seed)
    numbers = curve.select_dtypes("number").to_numpy() if hasattr(curve, "select_dtypes") \
        else np.asarray(curve, dtype=float)
    assert np.all(np.isfinite(numbers))
    majority = lambda X, y, Xt: np.full(len(Xt), int(y.mean() >= 0.5))  # noqa: E731
    table = no_free_lunch_table({"majority": majority}, n_bits=2)
    # no free lunch: averaged over every target, off-training-set error is 1/2
    assert table["mean_ots_error"].iloc[0] == pytest.approx(0.5)


# -- bootstrap -----------------------------------------------------------------------
@covers(BootstrapOutOfBag, bootstrap_error, bootstrap_error_report, gaussian_classes)
@TINY
@given(seeds, st.sampled_from([-100, 0, 100]))
def test_bootstrap_errors_are_rates_and_unit_free(seed, k):
    """Exact powers of two; nearest neighbours' choices depend on distance ranks only."""
    X, y = gaussian_classes(30, np.random.default_rng(seed), separation=2.0)
    assert np.bincount(y).tolist() == [15, 15]
    tree = KNeighborsClassifier(3)
    base = bootstrap_error(tree, X, y, n_resamples=5, random_state=seed)
    assert _unit(base)
    assert bootstrap_error(tree, X * 2.0**k, y, n_resamples=5, random_state=seed) == \
        pytest.approx(base)
    report = bootstrap_error_report(tree, X, y, n_resamples=5, random_state=seed)
    assert all(_unit(v) for v in (report.resubstitution, report.out_of_bag,
                                  report.leave_one_out))
    splits = list(BootstrapOutOfBag(3, random_state=seed).split(X))
    for train, test in splits:
        assert not np.intersect1d(train, test).size and np.union1d(train, test).size == 30


@covers(interval_coverage, simulate_error_estimates)
@TINY
@given(seeds)
def test_bootstrap_simulations_give_rates(seed):
    cover = interval_coverage(np.mean, lambda rng, size: rng.normal(size=size), 0.0, 10,
                              n_datasets=4, n_resamples=20, random_state=seed)
    values = np.array(list(cover.values()), dtype=float)      # coverage per method
    assert np.all((values >= 0) & (values <= 1))
    sampler = lambda n, rng: gaussian_classes(n, rng)  # noqa: E731
    out = simulate_error_estimates(DecisionTreeClassifier(max_depth=1), sampler, 20,
                                   n_repetitions=2, n_resamples=3, n_test=50,
                                   random_state=seed)
    numbers = np.concatenate([np.ravel(np.asarray(v, dtype=float)) for v in out.values()])
    assert np.all(np.isfinite(numbers))


# -- bounds --------------------------------------------------------------------------
@covers(finite_class_failure_bound, finite_class_gap, sample_threshold_data,
        simulate_uniform_convergence)
@FAST
@given(st.integers(1, 10**30), st.integers(1, 10**9), st.floats(1e-300, 0.99), seeds)
def test_finite_class_bounds_are_monotone(k, m, delta, seed):
    assume_gamma = 0.1
    failure = finite_class_failure_bound(k, m=m, gamma=assume_gamma)
    assert failure >= 0 and finite_class_failure_bound(k, m=m + 1, gamma=0.1) <= failure
    gap = finite_class_gap(k, m=m, delta=delta)
    assert gap >= 0 and finite_class_gap(k, m=m, delta=delta / 2) >= gap
    assert gap == pytest.approx(math.sqrt((math.log(2 * k) - math.log(delta)) / (2 * m)),
                                rel=1e-9)
    X, y = sample_threshold_data(3, m=5, random_state=seed)
    assert X.shape == y.shape == (3, 5) and np.all((X >= 0) & (X <= 1))
    result = simulate_uniform_convergence(5, m=10, gamma=0.2, n_trials=20,
                                          random_state=seed % 100)
    assert _unit(result.violation_rate())


# -- vc --------------------------------------------------------------------------------
@covers(Threshold, Interval, HalfSpace, Rectangle, Disc, is_realizable, shatters, labelings,
        regular_simplex, preset_points)
@FAST
@given(st.integers(1, 4), exponents, seeds)
def test_hypotheses_and_shattering_are_unit_free(n, k, seed):
    grid = labelings(n)
    assert grid.shape == (2**n, n) and np.unique(grid, axis=0).shape[0] == 2**n
    simplex = regular_simplex(3)
    assert np.allclose(np.linalg.norm(simplex, axis=1), 1.0)
    assert shatters(simplex, hypothesis_class="halfspace")
    assert not shatters(np.zeros((4, 2)) + np.arange(4)[:, None], hypothesis_class="halfspace")
    points = preset_points(f"random {min(n + 3, 6)}", seed=seed % 1000)[:n]
    assert np.all(np.abs(points) <= 1)
    s = 10.0**max(min(k, 300), -300)
    for cls in ("rectangle", "disc"):
        for bits in grid:
            small = value_or_refusal(
                lambda: is_realizable(points * s, bits, hypothesis_class=cls), "points")
            if small is not None:
                assert small[0] == is_realizable(points, bits, hypothesis_class=cls)[0]
    x = np.linspace(-1, 1, 5)
    assert np.array_equal(Threshold(0.0).predict(x), (x >= 0).astype(int)) or \
        np.array_equal(Threshold(0.0).predict(x), (x > 0).astype(int))
    assert Interval(-0.5, 0.5).predict(x).tolist() == [0, 1, 1, 1, 0]
    P = np.c_[x, x]
    assert HalfSpace(np.array([1.0, 0.0]), 0.0).predict(P * s).tolist() == \
        HalfSpace(np.array([1.0, 0.0]), 0.0).predict(P).tolist()
    assert Rectangle(np.array([-0.5, -0.5]), np.array([0.5, 0.5])).predict(P).tolist() == \
        [0, 1, 1, 1, 0]
    assert Disc(np.zeros(2), 0.8).predict(P).tolist() == [0, 1, 1, 1, 0]


@covers(erm_halfplane, halfplane_noise_gaps, vc_sample_size, rademacher_vc_gap,
        rademacher_vc_sample_size)
@FAST
@given(st.integers(1, 6), st.integers(10, 10**12), st.floats(1e-12, 0.5), seeds)
def test_erm_and_vc_sample_sizes(d, m, delta, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(8, 2))
    y = rng.integers(0, 2, 8)
    h = erm_halfplane(X, y)
    from mlcore.vc import min_halfplane_errors
    assert int((h.predict(X) != y).sum()) == min_halfplane_errors(X, y)
    small = value_or_refusal(lambda: erm_halfplane(X * 1e-200, y), "X")
    if small is not None:
        assert int((small.predict(X * 1e-200) != y).sum()) == min_halfplane_errors(X, y)
    n = vc_sample_size(d, gamma=0.1, delta=delta)
    assert n >= 1 and vc_sample_size(d, gamma=0.1, delta=min(0.5, delta * 2)) <= n
    r = rademacher_vc_gap(d, m, delta)
    assert r >= 0 and rademacher_vc_gap(d, m * 2, delta) <= r
    assert rademacher_vc_sample_size(d, gamma=0.1, delta=delta) >= 1
    gaps = np.asarray(halfplane_noise_gaps(6, 2, seed=seed % 100), dtype=float)
    assert np.all(np.isfinite(gaps))


# -- divergence, model_selection --------------------------------------------------------
@covers(symmetric_gaussian_kl, kfold_kl_curve, paper_datasets)
@TINY
@given(seeds, st.sampled_from([-150, 0, 150]))
def test_kl_quantities_are_unit_free(seed, k):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(3, 3))
    P, Q = A @ A.T + np.eye(3), np.eye(3) * 2
    mp, mq = rng.normal(size=3), rng.normal(size=3)
    kl = symmetric_gaussian_kl(mp, P, mq, Q)
    s = 10.0**k
    assert kl >= 0 and symmetric_gaussian_kl(mq, Q, mp, P) == pytest.approx(kl)
    assert symmetric_gaussian_kl(mp * s, P * s * s, mq * s, Q * s * s) == \
        pytest.approx(kl, rel=1e-9)
    X = rng.normal(size=(24, 2))
    curve = kfold_kl_curve(X, [2, 3], random_state=0)
    assert np.all(np.asarray(curve) >= 0)
    assert np.allclose(kfold_kl_curve(X * s, [2, 3], random_state=0), curve, rtol=1e-6)
    assert len(paper_datasets()) > 0


@covers(BlockedMxTwoCV, sine_target, sine_regression, degree_curves)
@FAST
@given(seeds, st.integers(1, 4))
def test_mx2_splits_halve_and_degree_curves_fall(seed, repeats):
    cv = BlockedMxTwoCV(repeats, random_state=seed)
    X = np.zeros((20, 1))
    splits = list(cv.split(X))
    assert len(splits) == 2 * repeats and cv.get_n_splits() == 2 * repeats
    for train, test in splits:
        assert train.size == test.size == 10 and not np.intersect1d(train, test).size
    x, y = sine_regression(30, random_state=seed)
    assert np.all(np.abs(x) <= 1) and np.allclose(sine_target(x), np.sin(np.pi * x))
    train, cv_mse = degree_curves(x, y, range(4), n_splits=3, random_state=0)
    assert np.all(np.diff(train) <= 1e-12) and np.all(np.asarray(cv_mse) >= 0)


@covers(cv_estimator_study, summarize_cv_study, mx2_variance_study, degree_selection_study)
@TINY
@given(seeds)
def test_model_selection_studies_are_reproducible(seed):
    study = cv_estimator_study(sizes=(20,), n_repeats=2, n_true=200, random_state=seed)
    summary = summarize_cv_study(study)
    again = summarize_cv_study(cv_estimator_study(sizes=(20,), n_repeats=2, n_true=200,
                                                  random_state=seed))
    assert repr(summary) == repr(again)           # reproducible from its seed
    var = mx2_variance_study(n_samples=20, n_datasets=2, n_draws=2, random_state=seed)
    assert var is not None
    chosen = degree_selection_study(sizes=(20,), n_datasets=2, max_degree=3, n_true=200,
                                    random_state=seed)
    assert chosen is not None


# -- datasets, widgets ----------------------------------------------------------------
@covers(load_wholesale, load_wine_quality, load_sms_spam, read_data_file, strip_cdn_links)
@TINY
@given(st.sampled_from(["red", "white"]))
def test_loaders_are_deterministic_and_labelled(color):
    X, y = load_wine_quality(color, binary=True, return_X_y=True)
    assert len(X) == len(y) and set(np.unique(y)) <= {0, 1}
    assert np.all(np.isfinite(np.asarray(X, dtype=float)))
    X2, _ = load_wine_quality(color, binary=True, return_X_y=True)
    assert np.array_equal(np.asarray(X), np.asarray(X2))
    Xw, yw = load_wholesale(return_X_y=True)
    assert len(Xw) == len(yw) == len(read_data_file("wholesale_customers.csv"))
    Xs, ys = load_sms_spam(return_X_y=True)
    assert len(Xs) == len(ys) and len(np.unique(ys)) == 2
    html = '<script src="https://cdn.example/x.js"></script><p>text</p>'
    once = strip_cdn_links(html)
    assert "<p>text</p>" in once and strip_cdn_links(once) == once
