"""mlcore.bootstrap against the formulas, mlxtend and scipy.stats.bootstrap."""

import numpy as np
import pytest
from mlxtend.evaluate import BootstrapOutOfBag as MlxtendOutOfBag
from mlxtend.evaluate import bootstrap_point632_score
from scipy import stats
from sklearn.base import clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LinearRegression
from sklearn.metrics import accuracy_score, make_scorer, mean_squared_error, zero_one_loss
from sklearn.model_selection import GridSearchCV, KFold, LeaveOneOut, cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from mlcore.bootstrap import (BootstrapOutOfBag, bootstrap_distribution, bootstrap_error,
                              bootstrap_error_report, bootstrap_indices, bootstrap_interval,
                              bootstrap_se, draw_counts, gaussian_classes, interval_coverage,
                              never_drawn_probability, oob_gap_study, simulate_error_estimates)
from mlcore.bootstrap import _cv_error, _interval


@pytest.fixture
def data():
    return gaussian_classes(30, np.random.default_rng(0), separation=1.5)


# ----------------------------------------------------------------- the 1/e limit
def test_never_drawn_probability_increases_to_one_over_e():
    m = np.arange(1, 2001)
    p = never_drawn_probability(m)
    assert p[0] == 0.0 and p[1] == 0.25
    assert np.all(np.diff(p) > 0), "(1 - 1/m)^m increases with m"
    assert np.all(p < np.exp(-1))
    assert abs(never_drawn_probability(10**7) - np.exp(-1)) < 1e-7
    # the bound of the chapter's proof: 1/e - p_m <= 1/(2 e m) to first order
    assert np.all(np.exp(-1) - p[9:] <= 1 / (2 * np.e * m[9:]) * 1.1)


def test_never_drawn_probability_rejects_m_below_one():
    with pytest.raises(ValueError, match="n_samples must be an integer >= 1"):
        never_drawn_probability(0)


def test_measured_fraction_never_drawn_matches_the_formula():
    for m in (5, 50, 500):
        counts = draw_counts(m, 4000, random_state=m)
        assert (counts.sum(axis=1) == m).all()
        fraction = (counts == 0).mean(axis=1)
        se = fraction.std(ddof=1) / np.sqrt(fraction.size)
        assert abs(fraction.mean() - never_drawn_probability(m)) < 4 * se
        # the copies of one sample are Binomial(m, 1/m)
        observed = np.bincount(counts[:, 0], minlength=m + 1)[:3] / 4000
        assert np.allclose(observed, stats.binom.pmf([0, 1, 2], m, 1 / m), atol=0.03)


# ----------------------------------------------------------------- indices and splitter
def test_bootstrap_indices_are_deterministic_and_in_range():
    a = bootstrap_indices(7, 50, random_state=3)
    assert a.shape == (50, 7) and a.min() >= 0 and a.max() <= 6
    assert (a == bootstrap_indices(7, 50, random_state=3)).all()
    assert not (a == bootstrap_indices(7, 50, random_state=4)).all()
    expected = np.random.default_rng(3).integers(0, 7, (50, 7))   # scipy.stats.bootstrap's draw
    assert (a == expected).all()


@pytest.mark.parametrize("bad, error", [(0, ValueError), (-3, ValueError), (2.5, TypeError)])
def test_n_resamples_is_checked_and_named(bad, error):
    with pytest.raises(error, match="n_resamples"):
        bootstrap_indices(5, bad)
    with pytest.raises(error, match="n_resamples"):
        BootstrapOutOfBag(n_resamples=bad)
    X, y = gaussian_classes(10, np.random.default_rng(0))
    with pytest.raises(error, match="n_resamples"):
        bootstrap_error(LinearDiscriminantAnalysis(), X, y, n_resamples=bad)


def test_random_state_type_is_checked():
    with pytest.raises(TypeError, match="random_state"):
        BootstrapOutOfBag(random_state="seed")


def test_splitter_invariants(data):
    X, y = data
    cv = BootstrapOutOfBag(n_resamples=300, random_state=0)
    splits = list(cv.split(X, y))
    assert len(splits) == cv.get_n_splits() == 300
    for train, test in splits:
        assert len(train) == len(X)
        assert np.intersect1d(train, test).size == 0, "OOB and bootstrap sample must not overlap"
        assert np.array_equal(np.union1d(train, test), np.arange(len(X)))
        assert test.size > 0 and np.all(np.diff(test) > 0)
    share = np.mean([len(test) for _, test in splits]) / len(X)
    assert abs(share - never_drawn_probability(len(X))) < 0.02


def test_splitter_determinism():
    X = np.zeros((12, 1))
    once = [t for _, t in BootstrapOutOfBag(20, random_state=5).split(X)]
    twice = [t for _, t in BootstrapOutOfBag(20, random_state=5).split(X)]
    assert all(np.array_equal(a, b) for a, b in zip(once, twice))
    cv = BootstrapOutOfBag(20, random_state=np.random.default_rng(5))
    first, second = next(cv.split(X))[0], next(cv.split(X))[0]
    assert not np.array_equal(first, second), "a Generator advances between calls"


def test_splitter_never_yields_an_empty_test_set_and_refuses_one_sample():
    assert all(test.size for _, test in BootstrapOutOfBag(200, random_state=0).split(np.zeros(2)))
    with pytest.raises(ValueError, match="n_samples=1"):
        next(BootstrapOutOfBag(3).split(np.zeros((1, 2))))


def test_splitter_draws_the_same_resamples_as_mlxtend(data):
    X, _ = data
    ours = BootstrapOutOfBag(25, random_state=np.random.RandomState(7)).split(X)
    theirs = MlxtendOutOfBag(n_splits=25, random_seed=7).split(X)
    for (a_train, a_test), (b_train, b_test) in zip(ours, theirs):
        assert np.array_equal(a_train, b_train)
        assert np.array_equal(a_test, np.sort(b_test))


def test_splitter_plugs_into_cross_val_score_and_grid_search(data):
    X, y = data
    cv = BootstrapOutOfBag(40, random_state=1)
    scores = cross_val_score(LinearDiscriminantAnalysis(), X, y, cv=cv)
    assert scores.shape == (40,)
    oob = bootstrap_error(LinearDiscriminantAnalysis(), X, y, "oob", 40, random_state=1)
    assert np.isclose(1 - scores.mean(), oob), "the splitter and bootstrap_error share resamples"
    search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [1, 5]}, cv=cv).fit(X, y)
    assert search.best_params_["n_neighbors"] in (1, 5)


# ----------------------------------------------------------------- error estimates
def _naive_report(estimator, X, y, n_resamples, seed):
    """The papers' formulas with plain loops over samples and pairs."""
    m = len(y)
    idx = bootstrap_indices(m, n_resamples, random_state=seed)
    wrong = np.full((n_resamples, m), np.nan)
    for b, rows in enumerate(idx):
        out = np.setdiff1d(np.arange(m), rows)
        if out.size:
            wrong[b, out] = estimator.fit(X[rows], y[rows]).predict(X[out]) != y[out]
    err1 = np.mean([np.nanmean(col) for col in wrong.T if np.isfinite(col).any()])
    oob = np.mean([np.nanmean(row) for row in wrong if np.isfinite(row).any()])
    pred = estimator.fit(X, y).predict(X)
    resub = np.mean(pred != y)
    gamma = np.mean([[y[i] != pred[j] for j in range(m)] for i in range(m)])
    return resub, oob, err1, gamma


@pytest.mark.parametrize("estimator", [KNeighborsClassifier(1), KNeighborsClassifier(7),
                                       LinearDiscriminantAnalysis()], ids=str)
def test_report_follows_the_papers_formulas(data, estimator):
    X, y = data
    r = bootstrap_error_report(estimator, X, y, n_resamples=60, random_state=11)
    resub, oob, err1, gamma = _naive_report(estimator, X, y, 60, 11)
    assert np.allclose([r.resubstitution, r.out_of_bag, r.leave_one_out, r.no_information],
                       [resub, oob, err1, gamma])
    p, q = np.mean(y == 1), np.mean(estimator.fit(X, y).predict(X) == 1)
    assert np.isclose(gamma, p * (1 - q) + (1 - p) * q), "two-class gamma = p(1-q) + (1-p)q"
    assert np.isclose(r.point632, 0.368 * resub + 0.632 * err1)
    assert 0 <= r.relative_overfitting <= 1 and 0.632 <= r.weight <= 1
    if resub < err1 <= gamma:   # no clipping: eq. (32) of Efron & Tibshirani (1997)
        R = (err1 - resub) / (gamma - resub)
        plus = r.point632 + (err1 - resub) * (0.368 * 0.632 * R) / (1 - 0.368 * R)
        assert np.isclose(r.relative_overfitting, R) and np.isclose(r.point632plus, plus)
    assert r.resubstitution <= r.point632 <= r.point632plus <= max(r.leave_one_out, r.no_information)


def test_point632plus_clips_err1_at_the_no_information_rate():
    # No overfitting to correct (err = gamma): R' = 0 and .632+ is .632.
    from sklearn.dummy import DummyClassifier
    X = np.zeros((20, 1)); y = np.arange(20) % 2
    r = bootstrap_error_report(DummyClassifier(strategy="most_frequent"), X, y,
                               n_resamples=100, random_state=0)
    assert r.leave_one_out > r.no_information == r.resubstitution == 0.5
    assert r.relative_overfitting == 0.0 and r.point632plus == r.point632
    # 1-NN worse than guessing out of bag (Err1 > gamma > err = 0): R' capped at 1.
    for seed in range(50):
        X, y = gaussian_classes(30, np.random.default_rng(seed), separation=0.0)
        r = bootstrap_error_report(KNeighborsClassifier(1), X, y, n_resamples=40, random_state=0)
        if r.leave_one_out > r.no_information:
            break
    assert r.leave_one_out > r.no_information > r.resubstitution == 0.0
    assert r.relative_overfitting == 1.0
    assert np.isclose(r.point632plus, 0.632 * r.leave_one_out + 0.368 * r.no_information)


def test_632_fails_for_1nn_without_information_and_632plus_repairs_it():
    X, y = gaussian_classes(60, np.random.default_rng(2), separation=0.0)
    r = bootstrap_error_report(KNeighborsClassifier(1), X, y, n_resamples=100, random_state=0)
    assert r.resubstitution == 0.0 and r.relative_overfitting == 1.0 and r.weight == 1.0
    assert np.isclose(r.point632, 0.632 * r.leave_one_out)
    assert r.point632 < 0.4, "the .632 estimate is far below the true error 0.5"
    assert np.isclose(r.point632plus, r.leave_one_out) or r.leave_one_out > r.no_information
    assert abs(r.point632plus - 0.5) < 0.1


def test_oob_agrees_exactly_with_mlxtend_when_fed_the_same_resamples(data):
    X, y = data
    for estimator in (KNeighborsClassifier(3), LinearDiscriminantAnalysis()):
        ours = bootstrap_error(estimator, X, y, "oob", 50, random_state=np.random.RandomState(4))
        theirs = 1 - bootstrap_point632_score(estimator, X, y, n_splits=50, method="oob",
                                              random_seed=4).mean()
        assert np.isclose(ours, theirs, rtol=0, atol=1e-12)


def test_632_and_632plus_differ_from_mlxtend_by_its_per_round_weighting(data):
    """mlxtend weights each round and uses the bootstrap model's error on all of X, so it
    is not the papers' estimator; on a smooth learner the gap stays small."""
    X, y = data
    for method in (".632", ".632+"):
        ours = bootstrap_error(LinearDiscriminantAnalysis(), X, y, method, 100,
                               random_state=np.random.RandomState(0))
        theirs = 1 - bootstrap_point632_score(LinearDiscriminantAnalysis(), X, y, n_splits=100,
                                              method=method, random_seed=0).mean()
        print(f"{method}: mlcore {ours:.4f}, mlxtend {theirs:.4f}, gap {ours - theirs:+.4f}")
        assert 0 < ours < 1 and abs(ours - theirs) < 0.08


def test_determinism_and_n_jobs(data):
    X, y = data
    one = bootstrap_error_report(KNeighborsClassifier(3), X, y, n_resamples=30, random_state=9)
    again = bootstrap_error_report(KNeighborsClassifier(3), X, y, n_resamples=30, random_state=9)
    parallel = bootstrap_error_report(KNeighborsClassifier(3), X, y, n_resamples=30,
                                      random_state=9, n_jobs=2)
    assert one == again == parallel


def test_losses(data):
    X, y = data
    default = bootstrap_error(KNeighborsClassifier(3), X, y, ".632+", 30, random_state=0)
    sk = bootstrap_error(KNeighborsClassifier(3), X, y, ".632+", 30, loss=zero_one_loss,
                         random_state=0)
    assert np.isclose(default, sk)
    rng = np.random.default_rng(0)
    Xr = rng.normal(size=(40, 3)); yr = Xr @ [1.0, -2.0, 0.5] + rng.normal(size=40)
    r = bootstrap_error_report(LinearRegression(), Xr, yr, n_resamples=40, loss="squared_error",
                               random_state=0)
    r2 = bootstrap_error_report(LinearRegression(), Xr, yr, n_resamples=40,
                                loss=mean_squared_error, random_state=0)
    assert np.isclose(r.point632plus, r2.point632plus)
    assert r.resubstitution < r.point632 < r.leave_one_out < r.no_information


@pytest.mark.parametrize("loss, error, match", [
    (accuracy_score, ValueError, "behaves like a score"),
    (make_scorer(zero_one_loss), TypeError, "scorer"),
    ("accuracy", ValueError, "loss must be one of"),
    (lambda y, p: y != p, ValueError, "one finite number"),
])
def test_losses_that_are_not_errors_are_refused(data, loss, error, match):
    X, y = data
    with pytest.raises(error, match=match):
        bootstrap_error(KNeighborsClassifier(3), X, y, n_resamples=5, loss=loss)


def test_bad_method_and_tiny_data(data):
    X, y = data
    with pytest.raises(ValueError, match="method must be one of"):
        bootstrap_error(KNeighborsClassifier(1), X, y, method="632")
    seed = next(s for s in range(100) if len(set(bootstrap_indices(2, 1, s)[0])) == 2)
    with pytest.raises(ValueError, match="n_resamples=1"):
        bootstrap_error(KNeighborsClassifier(1), X[:2], y[:2], n_resamples=1, random_state=seed)
    with pytest.raises(ValueError, match="n_samples=1"):
        bootstrap_error(KNeighborsClassifier(1), X[:1], y[:1], n_resamples=50)


# ----------------------------------------------------------------- SE and intervals
def _skewed():
    return np.random.default_rng(3).lognormal(size=24)


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
@pytest.mark.parametrize("statistic", [np.mean, np.median, lambda s: np.std(s, ddof=1)],
                         ids=["mean", "median", "std-not-vectorized"])
def test_intervals_agree_with_scipy(method, statistic):
    x = _skewed()
    ours = bootstrap_interval(statistic, x, 999, method=method, confidence=0.9, random_state=8)
    theirs = stats.bootstrap((x,), statistic, n_resamples=999, method=method,
                             confidence_level=0.9, rng=8).confidence_interval
    assert np.allclose(ours, theirs, rtol=1e-12, atol=1e-12)


def test_bca_differs_from_percentile_on_skewed_data():
    x = _skewed()
    pct = bootstrap_interval(np.mean, x, 2000, "percentile", random_state=0)
    bca = bootstrap_interval(np.mean, x, 2000, "BCa", random_state=0)
    assert bca.low > pct.low and bca.high > pct.high, "BCa shifts right for a right-skewed mean"


def test_standard_error_agrees_with_scipy_and_with_s_over_root_m():
    x = _skewed()
    ours = bootstrap_se(np.mean, x, 999, random_state=2)
    assert np.isclose(ours, stats.bootstrap((x,), np.mean, n_resamples=999, rng=2).standard_error)
    se = bootstrap_se(np.mean, x, 20000, random_state=2)
    assert abs(se - x.std(ddof=0) / np.sqrt(len(x))) < 0.03 * se


def test_vectorized_and_looped_statistics_agree():
    x = _skewed()
    fast = bootstrap_distribution(np.median, x, 3000, random_state=1)
    slow = bootstrap_distribution(lambda s: np.median(s), x, 3000, random_state=1)
    assert np.array_equal(fast, slow)
    pairs = np.column_stack([x, x**2])          # rows resampled together
    reps = bootstrap_distribution(lambda s: np.corrcoef(s.T)[0, 1], pairs, 200, random_state=0)
    assert reps.shape == (200,) and np.all(reps > 0.5)


def test_interval_input_errors():
    x = _skewed()
    with pytest.raises(ValueError, match="confidence must be in"):
        bootstrap_interval(np.mean, x, 100, confidence=95)
    with pytest.raises(ValueError, match="method must be one of"):
        bootstrap_interval(np.mean, x, 100, method="bca")
    with pytest.raises(ValueError, match="one number per sample"):
        bootstrap_distribution(lambda s: s[:2], x, 10)
    with pytest.raises(ValueError, match="at least 2 observations"):
        bootstrap_se(np.mean, [1.0], 10)
    with pytest.raises(ValueError, match="needs replicates on both sides"):
        # the number of distinct values is smaller in (almost) every resample than in x
        bootstrap_interval(lambda s: np.unique(s).size, x, 200, method="BCa", random_state=0)


def test_percentile_interval_covers_the_mean_about_95_percent_of_the_time():
    rng = np.random.default_rng(0)
    hits = [bootstrap_interval(np.mean, rng.normal(size=40), 500, random_state=rng).low < 0
            for _ in range(200)]
    # the low end lies below 0 whenever the interval's low side covers; upper side symmetric
    assert 0.95 < np.mean(hits) <= 1.0


def _exponential(rng, size):
    return rng.exponential(size=size)


def test_interval_coverage_equals_a_loop_over_data_sets():
    got = interval_coverage(np.median, _exponential, np.log(2), 15, n_datasets=150, n_resamples=300,
                            confidence=0.9, random_state=5)
    rng, hits = np.random.default_rng(5), {"percentile": 0, "basic": 0, "BCa": 0}
    for k in (100, 50):                         # the same draws, one data set at a time
        data = _exponential(rng, (k, 15))
        idx = rng.integers(0, 15, size=(k, 300, 15))
        for row in range(k):
            x = data[row]
            jackknife = np.array([np.median(np.delete(x, i)) for i in range(15)])
            for method in hits:
                low, high = _interval(np.median(x[idx[row]], axis=1), np.median(x), jackknife,
                                      method, 0.9)
                hits[method] += low <= np.log(2) <= high
    assert got == {method: count / 150 for method, count in hits.items()}


def test_interval_coverage_is_near_nominal_for_normal_means():
    normal = lambda rng, size: rng.normal(size=size)  # noqa: E731
    cover = interval_coverage(np.mean, normal, 0.0, 50, n_datasets=1000, n_resamples=500,
                              random_state=0)
    assert all(0.91 < c < 0.98 for c in cover.values()), cover
    skewed = interval_coverage(np.mean, _exponential, 1.0, 10, n_datasets=1000, n_resamples=500,
                               random_state=0)
    assert skewed["basic"] < skewed["BCa"] < 0.95, "small skewed samples under-cover"


def test_interval_coverage_input_errors():
    with pytest.raises(ValueError, match="methods must be one of"):
        interval_coverage(np.mean, _exponential, 1.0, 10, methods=["bca"])
    with pytest.raises(ValueError, match="n_datasets"):
        interval_coverage(np.mean, _exponential, 1.0, 10, n_datasets=0)


# ----------------------------------------------------------------- simulation
@pytest.mark.parametrize("cv", [KFold(10, shuffle=True, random_state=0), LeaveOneOut()], ids=str)
def test_the_simulation_cv_errors_equal_cross_val_score(data, cv):
    X, y = data
    for estimator in (KNeighborsClassifier(1), LinearDiscriminantAnalysis()):
        assert np.isclose(_cv_error(estimator, X, y, cv),
                          1 - cross_val_score(estimator, X, y, cv=cv).mean())


def test_simulation_is_deterministic_and_independent_of_n_jobs():
    kwargs = dict(n_repetitions=3, n_resamples=10, n_test=500, random_state=4)
    a = simulate_error_estimates(LinearDiscriminantAnalysis(), gaussian_classes, 20, **kwargs)
    b = simulate_error_estimates(LinearDiscriminantAnalysis(), gaussian_classes, 20, n_jobs=2,
                                 **kwargs)
    assert list(a) == ["true error", "resubstitution", "naive bootstrap", "out-of-bag", "Err(1)",
                       ".632", ".632+", "10-fold CV", "LOO"]
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert np.all((a["true error"] > 0.1) & (a["true error"] < 0.6))


# ----------------------------------------------------------------- bootstrap-t, normal, Err_boot
def test_studentized_interval_equals_a_direct_loop_and_jackknife_equals_sem_for_the_mean():
    x = _skewed()
    m, theta, se = len(x), x.mean(), stats.sem(x)
    t = [(x[row].mean() - theta) / stats.sem(x[row]) for row in bootstrap_indices(m, 999, 4)]
    q_low, q_high = np.quantile(t, [0.05, 0.95])
    want = (theta - q_high * se, theta - q_low * se)
    for standard_error in (None, stats.sem, lambda s: np.std(s, ddof=1) / np.sqrt(len(s))):
        got = bootstrap_interval(np.mean, x, 999, method="studentized", confidence=0.9,
                                 random_state=4, standard_error=standard_error)
        assert np.allclose(got, want, rtol=1e-10)
    # a statistic without axis takes the looped path, with the same result
    looped = bootstrap_interval(lambda s: float(np.mean(s)), x, 999, method="studentized",
                                confidence=0.9, random_state=4)
    assert np.allclose(looped, want, rtol=1e-10)


def test_studentized_interval_of_the_std_uses_the_jackknife_of_each_resample():
    x = _skewed()[:12]
    idx = bootstrap_indices(12, 300, 1)

    def jackknife_se(s):
        values = np.array([np.std(np.delete(s, i)) for i in range(len(s))])
        return np.sqrt((len(s) - 1) / len(s) * np.sum((values - values.mean()) ** 2))

    theta = np.std(x)
    t = np.array([(np.std(x[r]) - theta) / jackknife_se(x[r]) for r in idx])
    q = np.quantile(t, [0.025, 0.975])
    want = (theta - q[1] * jackknife_se(x), theta - q[0] * jackknife_se(x))
    for statistic in (np.std, lambda s: float(np.std(s))):   # vectorized and looped
        got = bootstrap_interval(statistic, x, 300, method="studentized", random_state=1)
        assert np.allclose(got, want, rtol=1e-10)


def test_normal_interval_is_the_estimate_plus_minus_z_times_the_bootstrap_se():
    x = _skewed()
    se = bootstrap_se(np.mean, x, 800, random_state=2)
    low, high = bootstrap_interval(np.mean, x, 800, method="normal", confidence=0.9, random_state=2)
    z = stats.norm.ppf(0.95)
    assert np.isclose(low, x.mean() - z * se) and np.isclose(high, x.mean() + z * se)


def test_studentized_refuses_tied_resamples_and_bad_standard_error():
    with pytest.raises(ValueError, match="standard error 0"):
        bootstrap_interval(np.mean, [0.0, 0.0, 0.0, 1.0], 500, method="studentized", random_state=0)
    with pytest.raises(TypeError, match="standard_error must be"):
        bootstrap_interval(np.mean, _skewed(), 100, method="studentized", standard_error=3)
    with pytest.raises(TypeError, match="standard_error must be"):
        interval_coverage(np.mean, _exponential, 1.0, 10, methods=["studentized"],
                          standard_error=lambda s: np.std(s))


def test_interval_coverage_of_normal_and_studentized_equals_a_loop():
    got = interval_coverage(np.mean, _exponential, 1.0, 12, n_datasets=120, n_resamples=200,
                            methods=("normal", "studentized"), random_state=6)
    got_sem = interval_coverage(np.mean, _exponential, 1.0, 12, n_datasets=120, n_resamples=200,
                                methods=("normal", "studentized"), random_state=6,
                                standard_error=stats.sem)
    rng, hits = np.random.default_rng(6), {"normal": 0, "studentized": 0}
    for k in (100, 20):
        data = _exponential(rng, (k, 12))
        idx = rng.integers(0, 12, size=(k, 200, 12))
        for row in range(k):
            x = data[row]
            reps = x[idx[row]]
            half = stats.norm.ppf(0.975) * reps.mean(1).std(ddof=1)
            hits["normal"] += x.mean() - half <= 1.0 <= x.mean() + half
            t = (reps.mean(1) - x.mean()) / stats.sem(reps, axis=1)
            q = np.quantile(t, [0.025, 0.975])
            hits["studentized"] += x.mean() - q[1] * stats.sem(x) <= 1.0 <= x.mean() - q[0] * stats.sem(x)
    want = {method: count / 120 for method, count in hits.items()}
    assert got == want and got_sem == want


def test_bootstrap_t_covers_better_than_percentile_for_skewed_means():
    cover = interval_coverage(np.mean, _exponential, 1.0, 15, n_datasets=1000, n_resamples=400,
                              methods=("percentile", "studentized"), random_state=1,
                              standard_error=stats.sem)
    assert cover["percentile"] < 0.93 < cover["studentized"], cover


def test_naive_bootstrap_error_tests_each_model_on_all_the_data(data):
    X, y = data
    knn = KNeighborsClassifier(1)
    r = bootstrap_error_report(knn, X, y, n_resamples=30, random_state=3)
    idx = bootstrap_indices(len(y), 30, 3)
    keep = [row for row in idx if np.setdiff1d(np.arange(len(y)), row).size]
    want = np.mean([np.mean(clone(knn).fit(X[row], y[row]).predict(X) != y) for row in keep])
    assert np.isclose(r.naive, want)
    # 1-NN is right on every sample it was trained on: Err_boot is about 0.368 Err(1)
    assert r.resubstitution <= r.naive < r.leave_one_out


def test_oob_gap_study_equals_scikit_learn_1nn():
    out = oob_gap_study(16, n_datasets=3, n_resamples=5, n_test=200, random_state=7)
    rng = np.random.default_rng(7)
    for d in range(3):
        X, y = gaussian_classes(16, rng, 2.0)
        X_test, y_test = gaussian_classes(200, rng, 2.0)
        knn = KNeighborsClassifier(1)
        assert np.isclose(out["full model"][d], np.mean(clone(knn).fit(X, y).predict(X_test) != y_test))
        counts = draw_counts(16, 5, random_state=rng)
        assert (counts == 0).any(axis=1).all(), "pick a seed with no redraw"
        true, oob = [], []
        for row in counts:
            train = np.repeat(np.arange(16), row)
            model = clone(knn).fit(X[train], y[train])
            true.append(np.mean(model.predict(X_test) != y_test))
            out_ = np.flatnonzero(row == 0)
            oob.append(np.mean(model.predict(X[out_]) != y[out_]))
        assert np.isclose(out["bootstrap models"][d], np.mean(true))
        assert np.isclose(out["out-of-bag"][d], np.mean(oob))
    with pytest.raises(ValueError, match="n_datasets"):
        oob_gap_study(16, n_datasets=0)


def test_interval_figure_draws_the_library_intervals():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mlcore.bootstrap import BootstrapIntervalFigure
    figure = BootstrapIntervalFigure()
    fig = plt.figure()
    figure.setup(fig)
    figure.update(400)
    for name, method in [("percentile", "percentile"), ("BCa", "BCa"), ("bootstrap-t", "studentized")]:
        drawn = [line.get_xdata()[0] for line in figure.lines[name]]
        want = bootstrap_interval(np.mean, figure.data, 400, method=method, random_state=0)
        assert np.allclose(drawn, want), name
    plt.close(fig)


# ------------------------------------------- jackknife-after-bootstrap standard errors
def _jab_by_loop(estimator, X, y, n_resamples, seed, pointwise):
    """Efron (1992) written out: for each i, the estimates from the resamples that miss i, i dropped."""
    m = len(y)
    idx = bootstrap_indices(m, n_resamples, random_state=seed)
    preds = [clone(estimator).fit(X[rows], y[rows]).predict(X) for rows in idx]
    full = clone(estimator).fit(X, y).predict(X)
    err1s, pluses = [], []
    for i in range(m):
        keep = [b for b in range(n_resamples) if i not in idx[b]]
        if not keep:
            continue
        per_j = [np.mean([pointwise(y[j], preds[b][j]) for b in keep if j not in idx[b]])
                 for j in range(m) if j != i and any(j not in idx[b] for b in keep)]
        err1 = np.mean(per_j)
        others = [j for j in range(m) if j != i]
        resub = np.mean([pointwise(y[j], full[j]) for j in others])
        gamma = np.mean([[pointwise(y[j], full[k]) for k in others] for j in others])
        clipped = min(err1, gamma)
        R = (clipped - resub) / (gamma - resub) if err1 > resub and gamma > resub else 0.0
        point632 = 0.368 * resub + 0.632 * err1
        err1s.append(err1)
        pluses.append(point632 + (clipped - resub) * 0.368 * 0.632 * R / (1 - 0.368 * R))

    def se(v):
        v = np.asarray(v)
        return np.sqrt((len(v) - 1) / len(v) * np.sum((v - v.mean()) ** 2))
    return se(err1s), se(pluses)


@pytest.mark.parametrize("case", ["1-NN", "LDA, callable loss", "regression"])
def test_jackknife_after_bootstrap_equals_a_direct_loop(data, case):
    X, y = data
    estimator, loss, pointwise = {
        "1-NN": (KNeighborsClassifier(1), None, lambda t, p: float(t != p)),
        "LDA, callable loss": (LinearDiscriminantAnalysis(), zero_one_loss, lambda t, p: float(t != p)),
        "regression": (LinearRegression(), "squared_error", lambda t, p: (t - p) ** 2),
    }[case]
    X, y = X[:16], (y[:16] if case != "regression" else X[:16, 0] * 2.0 + y[:16])
    X = X[:, 1:] if case == "regression" else X
    r = bootstrap_error_report(estimator, X, y, n_resamples=25, loss=loss, random_state=3)
    se_loo, se_plus = _jab_by_loop(estimator, X, y, 25, 3, pointwise)
    assert np.isclose(r.se_leave_one_out, se_loo, rtol=1e-10)
    assert np.isclose(r.se_point632plus, se_plus, rtol=1e-10)
    assert r.se_leave_one_out > 0 and r.se_point632plus > 0


def test_jackknife_after_bootstrap_se_matches_the_spread_over_data_sets():
    # Over 40 small data sets the mean standard error is of the order of the actual SD of the
    # estimates (it overstates it by about 20-40 % at B = 50: Monte Carlo noise of finite B).
    from sklearn.neighbors import NearestCentroid
    rng = np.random.default_rng(1)
    reports = [bootstrap_error_report(NearestCentroid(), *gaussian_classes(30, rng, separation=2.0),
                                      n_resamples=50, random_state=rng) for _ in range(40)]
    for est, se in [("leave_one_out", "se_leave_one_out"), ("point632plus", "se_point632plus")]:
        ratio = np.mean([getattr(r, se) for r in reports]) / np.std([getattr(r, est) for r in reports],
                                                                   ddof=1)
        assert 0.5 < ratio < 2, (est, ratio)


def test_jackknife_after_bootstrap_is_nan_without_two_usable_samples():
    # Two samples: every resample with an out-of-bag sample misses exactly one, so each i has
    # resamples missing it, but Err1_(i) has no other sample left: no jackknife value.
    X, y = np.array([[0.0], [1.0]]), np.array([0, 1])
    r = bootstrap_error_report(KNeighborsClassifier(1), X, y, n_resamples=20, random_state=0)
    assert np.isnan(r.se_leave_one_out) and np.isnan(r.se_point632plus)


def test_standard_errors_can_be_skipped_and_are_checked(data):
    X, y = data
    full = bootstrap_error_report(LinearDiscriminantAnalysis(), X, y, n_resamples=20, random_state=0)
    bare = bootstrap_error_report(LinearDiscriminantAnalysis(), X, y, n_resamples=20, random_state=0,
                                  standard_errors=False)
    assert np.isnan(bare.se_leave_one_out) and np.isnan(bare.se_point632plus)
    assert bare.point632plus == full.point632plus and full.se_point632plus > 0
    with pytest.raises(TypeError, match="standard_errors"):
        bootstrap_error_report(LinearDiscriminantAnalysis(), X, y, standard_errors=1)


# ------------------------------------------------- batched fits (1-NN and LDA at once)
def _batch_cases():
    """Small data sets with bootstrap and K-fold training subsets, ties included."""
    rng = np.random.default_rng(7)
    for case in range(12):
        m = int(rng.integers(4, 30))
        X, y = gaussian_classes(m, rng, separation=float(rng.uniform(0, 3)))
        if case % 3 == 1:
            X = np.round(X)            # equidistant neighbours, repeated points: ties
        elif case % 3 == 2:
            X = X * 1e3 + 1e4          # far from 0: rounding of |a|^2 - 2ab + |b|^2
        trains = [t for t in bootstrap_indices(m, 12, rng) if np.unique(y[t]).size == 2]
        trains += [train for train, _ in KFold(min(m, 4), shuffle=True,
                                               random_state=case).split(X)]
        yield X, y, trains, np.vstack([X, rng.normal(size=(20, 2)) * 2])


@pytest.mark.parametrize("estimator", [KNeighborsClassifier(1),
                                       LinearDiscriminantAnalysis()])
def test_batched_fits_equal_scikit_learn_label_for_label(estimator):
    from mlcore.bootstrap._batch import fit_predict_many
    for X, y, trains, X_eval in _batch_cases():
        got = fit_predict_many(estimator, X, y, trains, X_eval)
        want = [clone(estimator).fit(X[t], y[t]).predict(X_eval) for t in trains]
        assert len(got) == len(want)
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)


def test_batched_fits_leave_near_ties_to_scikit_learn():
    from mlcore.bootstrap._batch import _lda, _one_nn, _weights
    X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 1.0], [2.0, 1.0], [1.0, 3.0]])
    y = np.array([0, 1, 0, 1, 1])
    midpoint = np.array([[1.0, 0.0]])          # as near to sample 0 as to sample 1
    subsets = _weights([np.arange(5), np.array([0, 2, 3, 4])], 5)
    _, safe = _one_nn(X, y, subsets, midpoint)
    assert safe.tolist() == [False, True]
    # LDA: a point on the boundary, and a subset whose covariance is singular.
    _, safe = _lda(X, y, _weights([np.array([0, 1, 2, 3]), np.array([0, 1, 2, 3])], 5),
                   np.array([[1.0, 0.5]]))
    assert not safe.any()
    _, safe = _lda(X, y, _weights([np.array([0, 0, 1, 1])], 5), np.array([[0.5, 0.5]]))
    assert not safe.any()
