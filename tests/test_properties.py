"""Property-based tests (Hypothesis) of mlcore's public functions and estimators.

Valid generated inputs must give finite results that agree with the oracle the
function already has (SciPy, scikit-learn, brute force, a closed form);
generated invalid inputs must raise ValueError/TypeError naming the parameter.
The profile (tests/conftest.py) bounds the run: ``ci`` by default.
"""

import math

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats
from scipy.special import expit, logit as scipy_logit
from sklearn.linear_model import LinearRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import KFold, LeaveOneOut

from mlcore import _validation as v
from mlcore.divergence import gaussian_mmd2, uninverted_mean_term_curve
from mlcore.vc import min_halfplane_errors
from property_registry import covers
from mlcore.bootstrap import (bootstrap_distribution, bootstrap_indices, bootstrap_interval,
                              bootstrap_se, draw_counts, never_drawn_probability, oob_gap_study)
from mlcore.bounds import (binomial_deviation_tail, finite_class_sample_size, hoeffding_tail,
                           threshold_grid, threshold_training_errors, threshold_true_errors)
from mlcore.divergence import gaussian_kl, max_n_folds, regularized_kl_criterion, select_n_folds
from mlcore.linear import (LogisticRegressionGD, cross_entropy, logistic_gradient,
                           logistic_loss, logit, sigmoid, softmax, softmax_gradient,
                           softmax_loss)
from mlcore.model_selection import (cv_split_errors, fold_assignment, legendre_design,
                                    loo_mse_linear, loo_residuals_linear, make_splitter,
                                    SCHEMES, two_level_design)
from mlcore.vc import (margin_vc_bound, realizable_labelings, sauer_bound, vc_bound_gap,
                       witness_hypotheses)

finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
small_int = st.integers(1, 10**6)
seeds = st.one_of(st.none(), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1).map(np.int64))
# values no numeric, boolean or seed parameter accepts
junk = st.sampled_from(["1", "1.5", b"1", None, {"a": 1}, object(), 1j, "False"])
probabilities = st.floats(1e-12, 1 - 1e-12)


def _names(error, name):
    assert name in str(error.value), f"{name!r} not in {error.value}"


# -- linear ------------------------------------------------------------------
@given(arrays(float, st.integers(0, 20), elements=st.floats(-700, 700)))
@covers(sigmoid, logit)
def test_sigmoid_and_logit_match_scipy(z):
    p = sigmoid(z)
    assert np.allclose(p, expit(z), rtol=1e-12, atol=1e-300)
    inside = (p > 1e-12) & (p < 1 - 1e-12)
    assert np.allclose(logit(p[inside]), scipy_logit(p[inside]), rtol=1e-9, atol=1e-9)


@given(st.lists(st.tuples(st.integers(0, 1), st.floats(0.01, 0.99)), min_size=2, max_size=30))
@covers(cross_entropy)
def test_cross_entropy_matches_sklearn(pairs):
    y, p = map(np.array, zip(*pairs))
    assume(len(set(y.tolist())) == 2)
    assert cross_entropy(y, p) == pytest.approx(log_loss(y, p), rel=1e-9)


@given(arrays(float, (12, 2), elements=st.floats(-3, 3)), st.integers(0, 2**12 - 1),
       arrays(float, 3, elements=st.floats(-2, 2)))
@covers(logistic_gradient, logistic_loss)
def test_logistic_gradient_matches_finite_differences(X, bits, theta):
    y = np.array([(bits >> i) & 1 for i in range(12)])
    g = logistic_gradient(theta, X, y)
    h = 1e-6
    numeric = [(logistic_loss(theta + h * e, X, y) - logistic_loss(theta - h * e, X, y)) / (2 * h)
               for e in np.eye(3)]
    assert np.all(np.isfinite(g)) and np.allclose(g, numeric, atol=1e-5)


@given(st.integers(0, 1000))
@covers(LogisticRegressionGD)
def test_logistic_regression_gd_matches_sklearn(seed):
    from sklearn.linear_model import LogisticRegression
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 2))
    y = (rng.random(40) < expit(0.5 + X @ [1.0, -1.0])).astype(int)
    assume(0 < y.sum() < 40)
    ours = LogisticRegressionGD(tol=1e-9, max_iter=20000).fit(X, y)
    theirs = LogisticRegression(penalty=None, tol=1e-12, max_iter=10000).fit(X, y)
    if np.max(np.abs(theirs.coef_)) < 20:      # separable draws have no finite optimum
        assert np.allclose(ours.coef_, theirs.coef_, atol=1e-3)


@given(arrays(float, (10, 2), elements=st.floats(-3, 3)),
       st.lists(st.integers(0, 2), min_size=10, max_size=10),
       arrays(float, (3, 3), elements=st.floats(-2, 2)))
@covers(softmax, softmax_loss, softmax_gradient)
def test_softmax_loss_and_gradient_match_scipy_and_finite_differences(X, labels, Theta):
    from scipy.special import log_softmax
    y = np.array(labels)
    X1 = np.column_stack([np.ones(10), X])
    assert np.allclose(softmax(X1 @ Theta.T), np.exp(log_softmax(X1 @ Theta.T, axis=1)))
    want = -np.mean(log_softmax(X1 @ Theta.T, axis=1)[np.arange(10), y])
    assert softmax_loss(Theta, X, y) == pytest.approx(want, rel=1e-9, abs=1e-12)
    g, h = softmax_gradient(Theta, X, y), 1e-6
    numeric = np.array([(softmax_loss(Theta + h * E, X, y) - softmax_loss(Theta - h * E, X, y))
                        / (2 * h) for E in np.eye(9).reshape(9, 3, 3)]).reshape(3, 3)
    assert np.all(np.isfinite(g)) and np.allclose(g, numeric, atol=1e-5)


@pytest.mark.parametrize("call, name", [
    (lambda bad: sigmoid(bad), "z"), (lambda bad: logit(bad), "p"),
    (lambda bad: softmax(bad), "Z"),
    (lambda bad: softmax_loss(bad, [[0.0]], [1]), "Theta"),
    (lambda bad: softmax_gradient(np.zeros((2, 2)), bad, [1]), "X"),
    (lambda bad: cross_entropy([0, 1], bad), "y_prob"),
    (lambda bad: logistic_loss(bad, [[0.0]], [1]), "theta"),
    (lambda bad: LogisticRegressionGD(max_iter=bad).fit([[0.0], [1.0]], [0, 1]), "max_iter"),
])
@given(bad=junk)
def test_linear_refuses_junk(call, name, bad):
    assume(not (name in ("z", "p", "y_prob", "theta", "Z", "Theta", "X")
                and isinstance(bad, list)))
    with pytest.raises((TypeError, ValueError)) as error:
        call(bad)
    _names(error, name)


# -- bounds --------------------------------------------------------------------
@given(st.integers(1, 10**30), st.floats(1e-8, 10.0), probabilities)
@covers(finite_class_sample_size)
def test_finite_class_sample_size_is_the_smallest(k, gamma, delta):
    m = finite_class_sample_size(k, gamma=gamma, delta=delta)
    exact = (math.log(2) + math.log(k) - math.log(delta)) / (2 * gamma**2)
    assert isinstance(m, int) and m >= 1
    assert m >= exact * (1 - 1e-9) and (m - 1 < exact * (1 + 1e-9) or m == 1)


@given(small_int, st.floats(1e-4, 10.0))
@covers(hoeffding_tail)
def test_hoeffding_tail_closed_form(m, gamma):
    assert hoeffding_tail(m, gamma=gamma) == pytest.approx(2 * math.exp(-2 * gamma**2 * m),
                                                           rel=1e-12, abs=1e-300)


@given(st.integers(1, 3000), st.floats(0.0, 1.0), st.floats(1e-4, 1.5))
@covers(binomial_deviation_tail)
def test_binomial_deviation_tail_against_scipy(m, p, gamma):
    binom = stats.binom(m, p)
    exact = binom.sf(np.floor(m * (p + gamma) + 1e-9)) + binom.cdf(np.ceil(m * (p - gamma) - 1e-9) - 1)
    assert binomial_deviation_tail(m, p, gamma=gamma) == pytest.approx(exact, rel=1e-9, abs=1e-250)


@pytest.mark.parametrize("name", ["m", "p", "gamma"])
@given(bad=st.one_of(junk, st.just(float("nan")), st.just(-1), st.just(1.5)))
def test_binomial_deviation_tail_refuses_invalid(name, bad):
    assume(not (name == "gamma" and bad == 1.5))
    kwargs = {"m": 10, "p": 0.3, "gamma": 0.1, name: bad}
    with pytest.raises((TypeError, ValueError)) as error:
        binomial_deviation_tail(kwargs.pop("m"), kwargs.pop("p"), **kwargs)
    _names(error, name)


@given(st.integers(1, 50), st.integers(0, 1000))
@covers(threshold_grid, threshold_training_errors, threshold_true_errors)
def test_threshold_training_errors_brute_force(k, seed):
    rng = np.random.default_rng(seed)
    X = rng.random(15)
    y = rng.random(15) < 0.5
    t = threshold_grid(k)
    brute = [np.mean((X >= s) != y) for s in t]
    assert np.allclose(threshold_training_errors(X, y, t)[0], brute)
    assert np.all((threshold_true_errors(t) >= 0) & (threshold_true_errors(t) <= 1))


@pytest.mark.parametrize("name", ["k", "gamma", "delta"])
@given(bad=st.one_of(junk, st.just(float("nan")), st.just(-1), st.just(0)))
def test_bounds_refuse_invalid(name, bad):
    kwargs = {"k": 10, "gamma": 0.1, "delta": 0.05, name: bad}
    with pytest.raises((TypeError, ValueError)) as error:
        finite_class_sample_size(kwargs.pop("k"), **kwargs)
    _names(error, name)


# -- vc ----------------------------------------------------------------------------
@given(st.integers(0, 40), st.integers(0, 8))
@covers(sauer_bound)
def test_sauer_bound_is_the_binomial_sum(m, d):
    assert sauer_bound(m, d) == sum(math.comb(m, i) for i in range(min(m, d) + 1))


@given(st.integers(0, 6), st.integers(1, 10**25), probabilities)
@covers(vc_bound_gap)
def test_vc_bound_gap_finite_and_log_space(d, m, delta):
    gap = vc_bound_gap(d, m, delta)
    log_s = math.log(sum(math.comb(m, i) for i in range(min(m, d) + 1)))
    assert math.isfinite(gap)
    assert gap == pytest.approx(math.sqrt(32 * (math.log(8 / delta) + log_s) / m), rel=1e-6)


@given(st.floats(1e-3, 1e3), st.floats(1e-3, 1e3))
@covers(margin_vc_bound)
def test_margin_bound_closed_form(radius, margin):
    assume(abs(radius**2 / margin**2 - round(radius**2 / margin**2)) > 1e-6)
    assert margin_vc_bound(radius, margin) == math.ceil(radius**2 / margin**2) + 1


@given(st.sampled_from(["threshold", "interval", "rectangle", "disc", "halfspace"]),
       st.integers(1, 5), st.integers(0, 10**6), st.sampled_from([1e-50, 1.0, 1e50]))
@covers(witness_hypotheses, realizable_labelings)
def test_witnesses_realize_their_labelings_at_any_scale(cls, n, seed, scale):
    d = 1 if cls in ("threshold", "interval") else 2
    points = np.random.default_rng(seed).normal(size=(n, d)) * scale
    witnesses = witness_hypotheses(points, hypothesis_class=cls)
    for bits, h in witnesses.items():
        assert h.predict(points).tolist() == [(bits >> i) & 1 for i in range(n)]
    unit = realizable_labelings(points / scale, hypothesis_class=cls)
    assert sorted(witnesses) == np.flatnonzero(unit).tolist()        # every class here is scale-invariant


@given(bad=st.one_of(junk, st.just(-1), st.just(1.5), st.just(float("inf"))))
def test_vc_refuses_invalid(bad):
    for call, name in [(lambda: sauer_bound(bad, 2), "m"), (lambda: vc_bound_gap(bad, 10, 0.1), "d"),
                       (lambda: margin_vc_bound(bad, 0.5), "radius")]:
        if name == "radius" and bad == 1.5:
            continue
        with pytest.raises((TypeError, ValueError)) as error:
            call()
        _names(error, name)


# -- model_selection -------------------------------------------------------------------
@given(st.integers(6, 25), st.integers(0, 3), st.integers(0, 10**6))
@covers(loo_residuals_linear, loo_mse_linear, legendre_design)
def test_loo_matches_brute_force(n, degree, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, n)
    y = np.sin(3 * x) + rng.normal(size=n)
    X = legendre_design(x, degree)[:, 1:] if degree else np.zeros((n, 0))
    assume(degree > 0 and np.linalg.matrix_rank(np.c_[np.ones(n), X]) == degree + 1)
    brute = []
    for train, test in LeaveOneOut().split(X):
        fit = LinearRegression().fit(X[train], y[train])
        brute.append(y[test][0] - fit.predict(X[test])[0])
    try:
        assert np.allclose(loo_residuals_linear(X, y), brute, atol=1e-6)
        assert loo_mse_linear(X, y) == pytest.approx(np.mean(np.square(brute)), rel=1e-6)
    except ValueError as error:                 # a point with leverage 1 has no LOO fit
        assert "leverage 1" in str(error)


@given(st.integers(8, 30), st.integers(2, 4), st.integers(0, 10**6))
@covers(cv_split_errors)
def test_cv_split_errors_match_per_split_least_squares(n, k, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, n)
    X, y = legendre_design(x, 1), rng.normal(size=n)
    cv = KFold(k, shuffle=True, random_state=0)
    expected = []
    for train, test in cv.split(X):
        coef = np.linalg.lstsq(X[train], y[train], rcond=None)[0]
        expected.append(np.mean((y[test] - X[test] @ coef) ** 2))
    assert np.allclose(cv_split_errors(X, y, cv), expected, rtol=1e-8, atol=1e-12)


@given(st.integers(1, 300))
@covers(two_level_design)
def test_two_level_design_is_orthogonal(r):
    design = two_level_design(r)
    assert set(np.unique(design)) <= {0, 1}
    if r >= 2:
        pairs = design[:, 0] * 2 + design[:, 1]
        assert np.all(np.bincount(pairs, minlength=4) == len(design) // 4)


@given(st.sampled_from(sorted(SCHEMES)), seeds, st.integers(12, 30))
@covers(make_splitter, fold_assignment)
def test_every_scheme_splits_every_sample(scheme, seed, n):
    assume("stratified" not in scheme)          # those need labels
    grid = fold_assignment(make_splitter(scheme, n_splits=3, n_repeats=2, random_state=seed), n)
    assert grid.shape[1] == n and np.all((grid == 1).any(axis=1))


@given(bad=junk)
def test_model_selection_refuses_junk(bad):
    for call, name in [(lambda: make_splitter("K-fold", shuffle=bad), "shuffle"),
                       (lambda: make_splitter("K-fold", random_state=bad), "random_state"),
                       (lambda: legendre_design(bad, 2), "x"),
                       (lambda: two_level_design(bad), "n_repeats")]:
        if name == "random_state" and bad is None:
            continue
        with pytest.raises((TypeError, ValueError)) as error:
            call()
        _names(error, name)


# -- divergence --------------------------------------------------------------------------
@given(arrays(float, 2, elements=st.floats(-5, 5)), arrays(float, 2, elements=st.floats(-5, 5)),
       st.floats(0.1, 5), st.floats(0.1, 5))
@covers(gaussian_kl)
def test_gaussian_kl_closed_form(mean_p, mean_q, sp, sq):
    kl = gaussian_kl(mean_p, sp * np.eye(2), mean_q, sq * np.eye(2))
    closed = 0.5 * (2 * sp / sq + np.sum((mean_q - mean_p) ** 2) / sq - 2 + 2 * math.log(sq / sp))
    assert kl == pytest.approx(closed, rel=1e-9, abs=1e-12)


@given(st.lists(st.floats(0, 10), min_size=2, max_size=10), st.floats(0, 1e3))
@covers(select_n_folds, regularized_kl_criterion)
def test_select_n_folds_is_the_argmin(curve, lam):
    Ks = np.arange(2, 2 + len(curve))
    criterion = regularized_kl_criterion(curve, Ks, lam)
    assert select_n_folds(curve, Ks, lam) == Ks[np.argmin(criterion)]
    assert np.allclose(criterion, np.asarray(curve) + lam * np.exp(-Ks))


@given(st.integers(2, 10**6), st.integers(1, 100))
@covers(max_n_folds)
def test_max_n_folds_leaves_invertible_folds(m, d):
    try:
        K = max_n_folds(m, d)
    except ValueError:
        return
    assume(K >= 1)
    assert m // K >= d + 1 and m // (K + 1) < d + 1


@given(bad=st.one_of(junk, st.just(-1.0), st.just(float("nan"))))
def test_divergence_refuses_invalid(bad):
    with pytest.raises((TypeError, ValueError)) as error:
        regularized_kl_criterion([0.1, 0.2], [2, 3], bad)
    _names(error, "lam")


# -- bootstrap ------------------------------------------------------------------------------
@given(st.integers(1, 10**18))
@covers(never_drawn_probability)
def test_never_drawn_probability_log_space(m):
    exact = 0.0 if m == 1 else math.exp(m * math.log1p(-1 / m))
    assert float(never_drawn_probability(m)) == pytest.approx(exact, rel=1e-12, abs=1e-300)


@given(st.integers(2, 40), st.integers(2, 50), st.integers(0, 2**32 - 1))
@covers(bootstrap_indices, draw_counts, bootstrap_interval, bootstrap_se, bootstrap_distribution)
def test_resampling_matches_scipy_and_counts(m, b, seed):
    idx = bootstrap_indices(m, b, seed)
    assert idx.shape == (b, m) and idx.min() >= 0 and idx.max() < m
    assert np.array_equal(draw_counts(m, b, seed).sum(axis=1), np.full(b, m))
    data = np.random.default_rng(seed).normal(size=m)
    ours = bootstrap_interval(np.mean, data, 200, random_state=seed)
    theirs = stats.bootstrap((data,), np.mean, n_resamples=200, method="percentile", rng=seed)
    assert np.allclose(ours, theirs.confidence_interval)
    se = bootstrap_se(np.mean, data, 200, random_state=seed)
    assert math.isfinite(se)
    assert se == pytest.approx(np.std(bootstrap_distribution(np.mean, data, 200, seed), ddof=1))


@given(bad=st.one_of(junk, st.just(0), st.just(-3)))
def test_bootstrap_refuses_invalid(bad):
    for call, name in [(lambda: bootstrap_indices(bad, 3), "n_samples"),
                       (lambda: bootstrap_se(np.mean, [1.0, 2.0], bad), "n_resamples"),
                       (lambda: bootstrap_distribution(np.mean, [1.0, 2.0], 5, random_state=bad),
                        "random_state")]:
        if name == "random_state" and (bad is None or bad == 0):
            continue
        with pytest.raises((TypeError, ValueError)) as error:
            call()
        _names(error, name)


@given(st.integers(3, 30), st.integers(0, 2**32 - 1))
def test_studentized_interval_matches_its_loop(m, seed):
    data = np.random.default_rng(seed).exponential(size=m)
    assume(np.unique(data).size == m)
    idx = bootstrap_indices(m, 100, seed)
    se = stats.sem(data)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (data[idx].mean(1) - data.mean()) / stats.sem(data[idx], axis=1)
    t = np.where(np.isnan(t), 0.0, t)
    assume(np.isfinite(t).all())
    q = np.quantile(t, [0.025, 0.975])
    got = bootstrap_interval(np.mean, data, 100, method="studentized", random_state=seed)
    assert np.allclose(got, (data.mean() - q[1] * se, data.mean() - q[0] * se))


@given(st.integers(2, 12), st.integers(1, 4), st.integers(0, 2**32 - 1))
@covers(oob_gap_study)
def test_oob_gap_study_returns_error_rates(m, b, seed):
    out = oob_gap_study(m, n_datasets=2, n_resamples=b, n_test=20, random_state=seed)
    assert all(v.shape == (2,) and np.all((0 <= v) & (v <= 1)) for v in out.values())


@given(bad=st.one_of(junk, st.just(0), st.just(-3)))
def test_oob_gap_study_refuses_invalid(bad):
    for name in ("n_datasets", "n_resamples", "n_test"):
        with pytest.raises((TypeError, ValueError)) as error:
            oob_gap_study(10, **{name: bad})
        _names(error, name)


# -- the validation layer itself ---------------------------------------------------------------
@given(st.one_of(st.integers(-10**30, 10**30),
                 st.integers(-2**31, 2**31 - 1).map(np.int32),
                 st.integers(0, 255).map(np.uint8)))
def test_check_int_accepts_any_integer(value):
    assert v.check_int(value, "n") == int(value)


@given(st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                 st.floats(-1e4, 1e4).map(np.float32)))
def test_check_real_accepts_finite_reals(value):
    assert v.check_real(value, "x") == float(value)


@given(st.one_of(junk, st.just(float("nan")), st.just(True)))
def test_check_real_refuses_junk(value):
    with pytest.raises((TypeError, ValueError)) as error:
        v.check_real(value, "x")
    _names(error, "x=")


@given(seeds)
def test_random_state_convention(seed):
    a = v.as_generator(seed).random()
    assert 0 <= a < 1
    if seed is not None:
        assert a == np.random.default_rng(int(seed)).random()
        assert v.as_random_state(seed).random_sample() == np.random.RandomState(int(seed)).random_sample()


# -- feature selection, Bayesian regularization, performance measures (chapters 7-9) -----------
from sklearn import metrics as skm  # noqa: E402
from sklearn.feature_selection import mutual_info_classif  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402

from mlcore.bayes import MAPLogisticRegression  # noqa: E402
from mlcore.evaluation import auc_rank, average_precision, fbeta  # noqa: E402
from mlcore.feature_selection import MIFilter, mi_scores, mutual_information  # noqa: E402


@given(st.integers(2, 60), st.integers(1, 5), st.integers(1, 4), st.integers(0, 10**6))
@covers(mutual_information)
def test_mutual_information_matches_sklearn(m, kx, ky, seed):
    rng = np.random.default_rng(seed)
    x, y = rng.integers(0, kx, m), rng.integers(0, ky, m)
    assert abs(mutual_information(x, y) - skm.mutual_info_score(x, y)) < 1e-12


@given(st.integers(2, 60), st.integers(1, 8), st.integers(0, 10**6))
@covers(mi_scores)
def test_mi_scores_match_mutual_info_classif(m, n, seed):
    rng = np.random.default_rng(seed)
    X, y = rng.integers(0, 2, (m, n)), rng.integers(0, 3, m)
    assume(np.unique(y).size >= 2)
    assert np.allclose(mi_scores(X, y), mutual_info_classif(X, y, discrete_features=True), rtol=0, atol=1e-12)


@given(st.integers(2, 80), st.integers(1, 6), st.integers(0, 10**6), st.floats(0.1, 5.0))
@covers(auc_rank, average_precision, fbeta)
def test_ranking_measures_match_sklearn_with_ties(m, levels, seed, beta):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, m)
    assume(0 < y.sum() < m)
    score = rng.integers(0, levels, m).astype(float)               # few levels: many ties
    assert abs(auc_rank(y, score) - skm.roc_auc_score(y, score)) < 1e-12
    assert abs(average_precision(y, score) - skm.average_precision_score(y, score)) < 1e-12
    predicted = (score >= np.median(score)).astype(int)
    assert abs(fbeta(y, predicted, beta=beta) - skm.fbeta_score(y, predicted, beta=beta, zero_division=0.0)) < 1e-12


@given(st.floats(0.05, 5.0), st.integers(0, 10**6))
@covers(MAPLogisticRegression)
def test_map_logistic_regression_is_sklearn_with_c_tau_squared(tau, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 3))
    y = (X @ np.array([1.0, -1.0, 0.5]) + rng.normal(size=40) > 0).astype(int)
    assume(0 < y.sum() < 40)
    ours = MAPLogisticRegression(tau=tau).fit(X, y)
    theirs = LogisticRegression(C=tau**2, solver="newton-cholesky", tol=1e-12, max_iter=1000).fit(X, y)
    assert np.allclose(ours.coef_, theirs.coef_, atol=1e-5) and np.allclose(ours.intercept_, theirs.intercept_, atol=1e-5)


@given(bad=st.one_of(junk, st.just(0), st.just(-1.0), st.just(float("nan"))))
def test_chapters_7_to_9_refuse_invalid(bad):
    X, y = np.eye(4), np.array([0, 1, 0, 1])
    for call, name in [(lambda: MAPLogisticRegression(tau=bad).fit(X, y), "tau="),
                       (lambda: fbeta([0, 1], [0, 1], beta=bad), "beta="),
                       (lambda: MIFilter(k=bad).fit(X, y), "k=")]:
        with pytest.raises((TypeError, ValueError)) as error:
            call()
        _names(error, name)


# -- vc: 0-1 ERM over half-planes on degenerate points (FUZZ-2 A3) -------------
@covers(min_halfplane_errors)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(0, 1)),
                min_size=1, max_size=8))
def test_min_halfplane_errors_equals_brute_force_on_integer_grids(rows):
    """Collinear and repeated points included: the count is the exact optimum."""
    X = np.array([r[:2] for r in rows])
    y = np.array([r[2] for r in rows])
    # every critical direction and a direction (a Farey mediant) inside every cell
    # between two, and at each every threshold: an exact brute force
    P = X @ np.array([(a, b) for a in range(-13, 14) for b in range(-13, 14) if a or b]).T
    splits = ((P[:, None, :] >= P[None, :, :]) != y[:, None, None]).sum(axis=0)
    best = min(y.sum(), len(y) - y.sum(), splits.min())
    assert min_halfplane_errors(X, y) == best
    # invariant under an exact affine change of units
    assert min_halfplane_errors(X * 0.375 - 2.5, y) == best


# -- divergence: invariances of the paper's quantities (FUZZ-2 B2, B5, C2) -----
@covers(gaussian_mmd2)
@given(st.integers(-900, 900), st.floats(0.05, 20))
def test_gaussian_mmd2_invariant_under_joint_scaling(exponent, bandwidth):
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(8, 2)), rng.normal(size=(6, 2)) + 0.5
    s = 2.0 ** exponent                      # exact, from subnormal-adjacent to near-overflow
    value = gaussian_mmd2(A * s, B * s, bandwidth * s)
    assert math.isfinite(value)
    assert value == pytest.approx(gaussian_mmd2(A, B, bandwidth), rel=1e-9, abs=1e-15)


@covers(uninverted_mean_term_curve)
@given(st.integers(-60, 60))
def test_uninverted_mean_term_curve_is_homogeneous_of_degree_four(exponent):
    X = np.random.default_rng(1).normal(size=(16, 3))
    s = 2.0 ** exponent
    assert np.allclose(uninverted_mean_term_curve(X * s, [2, 4]) / s ** 4,
                       uninverted_mean_term_curve(X, [2, 4]), rtol=1e-10)


# -- bootstrap: intervals are equivariant under a change of units (FUZZ-2 D3 class) --
@given(st.integers(-1000, 480), st.sampled_from(["percentile", "BCa", "studentized", "normal"]))
def test_bootstrap_interval_of_the_mean_is_scale_equivariant(exponent, method):
    data = np.random.default_rng(2).lognormal(size=15)
    s = 2.0 ** exponent                                   # exact: 1e-301 to 1e144
    ref = bootstrap_interval(np.mean, data, n_resamples=100, method=method, random_state=0)
    got = bootstrap_interval(np.mean, data * s, n_resamples=100, method=method, random_state=0)
    assert (got.low / s, got.high / s) == pytest.approx((ref.low, ref.high), rel=1e-9)
