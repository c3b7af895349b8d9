"""Tests of mlcore.bounds: the formulas against hand computation and SciPy's exact
binomial tails, the simulation against the closed-form errors and brute force."""

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import zero_one_loss

from mlcore.bounds import (
    SampleSizeFigure,
    binomial_deviation_tail,
    ViolationRateFigure,
    finite_class_failure_bound,
    finite_class_gap,
    finite_class_sample_size,
    hoeffding_tail,
    sample_threshold_data,
    simulate_uniform_convergence,
    threshold_grid,
    threshold_training_errors,
    threshold_true_errors,
)


# -- formulas against hand-computed values -------------------------------------------
def test_sample_size_style_example():
    # log(2 * 1000 / 0.05) / (2 * 0.05**2) = 10.5966 / 0.005 = 2119.3 -> 2120
    assert finite_class_sample_size(k=1000, gamma=0.05, delta=0.05) == 2120


@pytest.mark.parametrize("k, gamma, delta, expected", [
    (1, 0.1, 0.05, 185),       # log(40) / 0.02 = 184.44
    (10, 0.1, 0.05, 300),      # log(400) / 0.02 = 299.57
    (100, 0.2, 0.01, 124),     # log(20000) / 0.08 = 123.79
])
def test_sample_size_hand_values(k, gamma, delta, expected):
    assert finite_class_sample_size(k, gamma=gamma, delta=delta) == expected


def test_sample_size_is_smallest_sufficient_m():
    rng = np.random.default_rng(0)
    for _ in range(200):
        k = int(rng.integers(1, 10**6))
        gamma = float(rng.uniform(0.005, 0.3))
        delta = float(rng.uniform(0.001, 0.9))
        m = finite_class_sample_size(k, gamma=gamma, delta=delta)
        assert isinstance(m, int) and m >= 1
        assert finite_class_failure_bound(k, m=m, gamma=gamma) <= delta * (1 + 1e-9)
        if m > 1:
            assert finite_class_failure_bound(k, m=m - 1, gamma=gamma) > delta


def test_sample_size_exact_integer_is_not_rounded_up():
    # k = 1, delta = 2/e^2: log(2k/delta) = 2; gamma = 1/sqrt(2): m >= 2 exactly.
    assert finite_class_sample_size(1, gamma=2**-0.5, delta=2 / math.e**2) == 2


def test_gap_inverts_sample_size():
    assert finite_class_gap(1000, m=2120, delta=0.05) <= 0.05
    assert finite_class_gap(1000, m=2119, delta=0.05) > 0.05
    gamma = finite_class_gap(37, m=500, delta=0.1)
    assert gamma == pytest.approx(math.sqrt(math.log(740) / 1000))
    assert finite_class_failure_bound(37, m=500, gamma=gamma) == pytest.approx(0.1)


def test_hoeffding_and_union_bound_hand_values():
    assert hoeffding_tail(100, gamma=0.1) == pytest.approx(2 * math.exp(-2))
    assert finite_class_failure_bound(5, m=50, gamma=0.2) == pytest.approx(10 * math.exp(-4))
    assert finite_class_failure_bound(1, m=50, gamma=0.2) == pytest.approx(
        hoeffding_tail(50, gamma=0.2))


def test_formulas_broadcast_over_arrays():
    gammas = np.array([0.02, 0.05, 0.1])
    m = finite_class_sample_size(100, gamma=gammas, delta=0.05)
    assert m.dtype.kind == "i" and m.shape == (3,)
    assert list(m) == [finite_class_sample_size(100, gamma=g, delta=0.05) for g in gammas]
    np.testing.assert_allclose(finite_class_gap(np.array([1, 10, 100]), m=400, delta=0.1),
                               np.sqrt(np.log(2 * np.array([1, 10, 100]) / 0.1) / 800))
    np.testing.assert_allclose(hoeffding_tail(np.array([10, 20]), gamma=0.3),
                               2 * np.exp(-2 * 0.09 * np.array([10, 20])))


def test_huge_class_from_bits():
    # d = 3 double-precision parameters: k = 2**192; log k = 192 log 2.
    k = 2 ** (64 * 3)
    expected = math.ceil((math.log(2) + 192 * math.log(2) - math.log(0.05)) / (2 * 0.05**2))
    assert finite_class_sample_size(k, gamma=0.05, delta=0.05) == expected
    assert np.isfinite(finite_class_gap(k, m=1000, delta=0.05))


# -- Hoeffding against the exact binomial tail (SciPy) ------------------------------------
@pytest.mark.parametrize("p", [0.05, 0.2, 0.5, 0.8])
@pytest.mark.parametrize("m", [10, 50, 200, 1000])
@pytest.mark.parametrize("gamma", [0.02, 0.05, 0.1, 0.2])
def test_hoeffding_dominates_exact_binomial_tail(p, m, gamma):
    binom = stats.binom(m, p)
    # P(|X/m - p| > gamma) = P(X > m(p + gamma)) + P(X < m(p - gamma))
    upper = binom.sf(np.floor(m * (p + gamma) + 1e-9))
    lower = binom.cdf(np.ceil(m * (p - gamma) - 1e-9) - 1)
    assert upper + lower <= hoeffding_tail(m, gamma=gamma) + 1e-12


# -- the exact tail (mlcore, from log-space binomial probabilities) against SciPy -------
def _scipy_tail(m, p, gamma):
    binom = stats.binom(m, p)
    return (binom.sf(np.floor(m * (p + gamma) + 1e-9))
            + binom.cdf(np.ceil(m * (p - gamma) - 1e-9) - 1))


@pytest.mark.parametrize("m", [1, 2, 7, 60, 200, 1000, 5000])
def test_binomial_deviation_tail_matches_scipy(m):
    p = np.linspace(0.0, 1.0, 41)[:, None]
    gammas = np.r_[np.linspace(0.001, 1.2, 150), 0.05, 0.1, 0.25][None, :]
    ours = binomial_deviation_tail(m, p, gamma=gammas)
    theirs = _scipy_tail(m, p, gammas)
    assert ours.shape == (41, 153)
    np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-250)
    assert np.all(ours <= hoeffding_tail(m, gamma=gammas) + 1e-12)


def test_binomial_deviation_tail_hand_values():
    # m = 2, p = 1/2: X/m in {0, 1/2, 1} w.p. 1/4, 1/2, 1/4; |X/m - 1/2| > 0.4 iff X != 1
    assert binomial_deviation_tail(2, 0.5, gamma=0.4) == pytest.approx(0.5)
    # a deviation exactly equal to gamma is not counted: |X/m - 1/2| = 1/2 is not > 1/2
    assert binomial_deviation_tail(2, 0.5, gamma=0.5) == 0.0
    assert binomial_deviation_tail(10, 0.3, gamma=0.2) == pytest.approx(
        sum(math.comb(10, x) * 0.3**x * 0.7**(10 - x) for x in range(11) if abs(x / 10 - 0.3) > 0.2 + 1e-12))
    assert binomial_deviation_tail(50, [0.0, 1.0], gamma=0.01).tolist() == [0.0, 0.0]


def test_binomial_deviation_tail_keeps_tiny_tails_accurate():
    # a far tail is summed from its own end, not as 1 - (something near 1)
    ours = binomial_deviation_tail(2000, 0.5, gamma=0.3)
    assert ours > 0 and ours == pytest.approx(_scipy_tail(2000, 0.5, 0.3), rel=1e-9)


def test_binomial_deviation_tail_refuses_bad_input():
    with pytest.raises(ValueError, match="p must be in \\[0, 1\\], got p=1.5"):
        binomial_deviation_tail(10, 1.5, gamma=0.1)
    with pytest.raises(ValueError, match="gamma must be > 0"):
        binomial_deviation_tail(10, 0.5, gamma=0.0)
    with pytest.raises(ValueError, match="m must be an integer"):
        binomial_deviation_tail(10**6, 0.5, gamma=0.1)
    with pytest.raises(TypeError, match="m must be an integer"):
        binomial_deviation_tail(10.0, 0.5, gamma=0.1)


# -- nested grids --------------------------------------------------------------------
def test_left_grids_are_nested_and_midpoint_grids_are_not():
    for k in (1, 2, 4, 8, 64):
        assert set(threshold_grid(k, grid="left")) <= set(threshold_grid(2 * k, grid="left"))
    assert not set(threshold_grid(2)) <= set(threshold_grid(3))
    best = [threshold_true_errors(threshold_grid(2**j, grid="left")).min() for j in range(13)]
    assert np.all(np.diff(best) <= 1e-15)  # nested classes: the best error never rises
    with pytest.raises(ValueError, match="grid must be one of"):
        threshold_grid(4, grid="dyadic")


def test_simulation_uses_the_requested_grid():
    result = simulate_uniform_convergence(8, m=50, n_trials=10, grid="left", random_state=0)
    np.testing.assert_allclose(result.true_errors,
                               threshold_true_errors(threshold_grid(8, grid="left")))


# -- errors name the parameter -----------------------------------------------------
@pytest.mark.parametrize("call, message", [
    (lambda: hoeffding_tail(10, gamma=0.0), "gamma must be > 0, got gamma=0.0"),
    (lambda: hoeffding_tail(10, gamma=-0.1), "gamma must be > 0"),
    (lambda: hoeffding_tail(0, gamma=0.1), "m must be an integer >= 1, got m=0"),
    (lambda: hoeffding_tail(10, gamma=np.inf), "gamma must be finite"),
    (lambda: finite_class_sample_size(0, gamma=0.1, delta=0.1), "k must be an integer >= 1"),
    (lambda: finite_class_sample_size(10, gamma=0.1, delta=0.0), "delta must be in (0, 1)"),
    (lambda: finite_class_sample_size(10, gamma=0.1, delta=1.5),
     "delta must be in (0, 1), got delta=1.5; it is the probability that the bound fails"),
    (lambda: finite_class_sample_size(10, gamma=float("nan"), delta=0.1), "gamma must be finite"),
    (lambda: finite_class_gap(10, m=-3, delta=0.1), "m must be an integer >= 1, got m=-3"),
    (lambda: finite_class_gap(10, m=5, delta=np.array([0.1, 1.0])), "got delta=1.0"),
    (lambda: finite_class_failure_bound(np.array([3, 0]), m=5, gamma=0.1), "got k=0"),
    (lambda: threshold_true_errors([0.5], noise=0.5), "noise must be in [0, 0.5)"),
    (lambda: simulate_uniform_convergence(10, m=10, n_trials=0), "n_trials must be an integer"),
])
def test_bad_input_is_a_value_error_naming_the_parameter(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert message in str(info.value)


def test_non_integers_are_type_errors():
    with pytest.raises(TypeError, match="k must be an integer"):
        finite_class_sample_size(10.5, gamma=0.1, delta=0.1)
    with pytest.raises(TypeError, match="m must hold integers"):
        finite_class_gap(10, m=np.array([1.5, 2.0]), delta=0.1)


def test_keyword_only_parameters():
    with pytest.raises(TypeError):
        finite_class_sample_size(10, 0.1, 0.05)
    with pytest.raises(TypeError):
        finite_class_gap(10, 100, 0.05)
    with pytest.raises(TypeError):
        hoeffding_tail(10, 0.1)


# -- the threshold problem: closed form, training errors ------------------------------
def test_true_errors_match_a_large_sample():
    thresholds = np.array([0.0, 0.2, 0.37, 0.6, 1.0])
    X, y = sample_threshold_data(1, m=400_000, boundary=0.37, noise=0.15, random_state=1)
    observed = threshold_training_errors(X, y, thresholds)[0]
    exact = threshold_true_errors(thresholds, boundary=0.37, noise=0.15)
    # standard error at most sqrt(0.25 / 4e5) = 7.9e-4; allow 5 of them
    np.testing.assert_allclose(observed, exact, atol=4e-3)


def test_training_errors_match_brute_force_and_sklearn():
    rng = np.random.default_rng(3)
    X, y = sample_threshold_data(6, m=37, noise=0.3, random_state=rng)
    thresholds = np.sort(np.r_[threshold_grid(9), X[0, :3]])  # ties with data points too
    fast = threshold_training_errors(X, y, thresholds)
    brute = ((X[:, :, None] >= thresholds[None, None, :]) != y[:, :, None]).mean(axis=1)
    np.testing.assert_allclose(fast, brute)
    for r in range(X.shape[0]):
        for j, t in enumerate(thresholds):
            assert fast[r, j] == pytest.approx(zero_one_loss(y[r], X[r] >= t))


def test_training_errors_validate_shapes():
    with pytest.raises(ValueError, match="same shape"):
        threshold_training_errors(np.zeros((2, 3)), np.zeros((2, 4), bool), [0.5])
    with pytest.raises(ValueError, match="sorted increasingly"):
        threshold_training_errors(np.zeros((2, 3)), np.zeros((2, 3), bool), [0.5, 0.1])


def test_training_error_is_unbiased_for_the_true_error():
    X, y = sample_threshold_data(4000, m=50, noise=0.2, random_state=7)
    thresholds = threshold_grid(5)
    mean = threshold_training_errors(X, y, thresholds).mean(axis=0)
    exact = threshold_true_errors(thresholds, noise=0.2)
    # each mean has standard error <= sqrt(0.25 / (4000 * 50)) ~ 1.1e-3
    np.testing.assert_allclose(mean, exact, atol=6e-3)


# -- the simulation ---------------------------------------------------------------
def test_single_hypothesis_matches_exact_binomial_probability():
    # k = 1: the violation rate estimates P(|Bin(m, p)/m - p| > gamma) exactly.
    m, gamma, n_trials = 60, 0.08, 20_000
    result = simulate_uniform_convergence(1, m=m, gamma=gamma, n_trials=n_trials,
                                          noise=0.2, random_state=11)
    p = float(result.true_errors[0])
    binom = stats.binom(m, p)
    exact = binom.sf(np.floor(m * (p + gamma) + 1e-9)) + binom.cdf(
        np.ceil(m * (p - gamma) - 1e-9) - 1)
    se = math.sqrt(exact * (1 - exact) / n_trials)
    assert abs(result.violation_rate() - exact) < 4 * se
    assert result.violation_rate() <= result.bound()


def test_violation_rate_below_union_bound_and_delta():
    for k in (10, 100):
        m = finite_class_sample_size(k, gamma=0.1, delta=0.2)
        result = simulate_uniform_convergence(k, m=m, gamma=0.1, n_trials=3000, random_state=k)
        assert result.bound() <= 0.2
        assert result.violation_rate() <= 0.2
        # the empirical (1 - delta) quantile of the max gap is below the guaranteed gap
        assert result.deviation_quantile(0.05) <= finite_class_gap(k, m=m, delta=0.05)


def test_erm_is_within_two_gamma_of_the_best_when_uniform_convergence_holds():
    result = simulate_uniform_convergence(40, m=150, n_trials=2000, random_state=5)
    excess = result.erm_error - result.true_errors.min()
    assert np.all(excess >= 0)
    # on every training set, excess risk <= 2 * max deviation (the theorem's argument)
    assert np.all(excess <= 2 * result.max_deviation + 1e-12)


def test_simulation_is_seeded_and_independent_of_n_jobs():
    one = simulate_uniform_convergence(20, m=3000, n_trials=800, random_state=3)
    two = simulate_uniform_convergence(20, m=3000, n_trials=800, random_state=3, n_jobs=2)
    other = simulate_uniform_convergence(20, m=3000, n_trials=800, random_state=4)
    np.testing.assert_array_equal(one.max_deviation, two.max_deviation)
    np.testing.assert_array_equal(one.erm_error, two.erm_error)
    assert not np.array_equal(one.max_deviation, other.max_deviation)


def test_violation_rate_vectorized_and_monotone():
    result = simulate_uniform_convergence(30, m=100, n_trials=500, random_state=0)
    gammas = np.linspace(0.01, 0.4, 40)
    rates = result.violation_rate(gammas)
    assert rates.shape == gammas.shape
    assert np.all(np.diff(rates) <= 0)
    assert rates[0] == pytest.approx(np.mean(result.max_deviation > 0.01))
    with pytest.raises(ValueError, match="gamma must be given"):
        result.violation_rate()


# -- figures ---------------------------------------------------------------------
def test_sample_size_figure_shows_the_formula():
    figure = SampleSizeFigure()
    figure.render(k=10, gamma=0.1, delta=0.05)
    m = finite_class_sample_size(10, gamma=0.1, delta=0.05)
    assert figure.dot_gamma.get_ydata()[0] == m
    assert f"m ≥ {m:,}" in figure.title.get_text()


def test_violation_figure_dot_is_the_observed_rate_at_the_guaranteed_gap():
    figure = ViolationRateFigure(k=20, n_trials=200)
    figure.render(m=400)
    gap = finite_class_gap(20, m=400, delta=0.05)
    assert figure.gap_dot.get_xdata()[0] == pytest.approx(gap)
    assert figure.gap_dot.get_ydata()[0] == figure.result(400).violation_rate(gap)
    assert figure.gap_dot.get_ydata()[0] <= 0.05


def test_violation_figure_draws_the_exact_tail_union():
    figure = ViolationRateFigure(k=20, n_trials=200)
    figure.render(m=200)
    errors = figure.result(200).true_errors
    gamma = figure.GAMMAS[100]
    expected = sum(binomial_deviation_tail(200, e, gamma=gamma) for e in errors)
    assert figure.exact_union.get_ydata()[100] == pytest.approx(min(1.0, expected))
    assert figure.exact_worst.get_ydata()[100] == pytest.approx(
        max(binomial_deviation_tail(200, e, gamma=gamma) for e in errors))
    # the exact-tail union lies between the observed rate and the Hoeffding union bound
    observed, union = figure.observed.get_ydata(), figure.union.get_ydata()
    assert np.all(figure.exact_union.get_ydata() <= union + 1e-12)
    assert np.all(observed <= figure.exact_union.get_ydata() + 0.1)
