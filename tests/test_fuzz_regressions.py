"""Regression tests for the fuzzing report (reviews/reliability/FUZZ.md), one per defect group.

Each test is named after the group it closes (A1 ... D); the silent wrong
answers (A) compare with an independent computation.
"""

import math
import warnings

import numpy as np
import pytest
from sklearn.metrics import accuracy_score
from sklearn.model_selection import KFold
from sklearn.neighbors import KNeighborsClassifier

from mlcore._validation import (as_generator, as_random_state, check_array, check_bool,
                                check_int_array, check_labels, check_n_jobs, check_option,
                                check_random_state, user_errors)
from mlcore.bootstrap import (BootstrapOutOfBag, bootstrap_error, bootstrap_se, gaussian_classes,
                              interval_coverage, never_drawn_probability)
from mlcore.bounds import finite_class_sample_size, threshold_training_errors
from mlcore.datasets import load_wholesale, load_wine_quality, read_data_file
from mlcore.divergence import (KLCriterionFigure, kfold_kl_curve, regularized_kl_criterion,
                               select_n_folds)
from mlcore.linear import GradientDescentFigure, gradient_descent_path, logit, sigmoid
from mlcore.model_selection import (BlockedMxTwoCV, DegreeSelectionFigure, cv_estimator_study,
                                    cv_split_errors, degree_curves, fold_assignment,
                                    legendre_design, loo_residuals_linear, make_splitter,
                                    sine_regression, sine_target, summarize_cv_study,
                                    two_level_design)
from mlcore.vc import (Disc, HalfSpace, Threshold, is_realizable, margin_vc_bound,
                       regular_simplex, shatters, vc_bound_gap, vc_sample_size,
                       witness_hypotheses)


# -- A. silent wrong or NaN results ------------------------------------------
def test_A1_finite_class_sample_size_never_overflows():
    exact = (math.log(2000) - math.log(0.05)) / (2 * 1e-20)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = finite_class_sample_size(1000, gamma=1e-10, delta=0.05)
    assert isinstance(m, int) and m > 0 and abs(m - exact) / exact < 1e-9
    assert finite_class_sample_size(1000, gamma=1e200, delta=0.05) == 1
    many = finite_class_sample_size(1000, gamma=[0.05, 1e-10], delta=0.05)
    assert many[0] == 2120 and int(many[1]) == m
    with pytest.raises(ValueError, match="gamma"):
        finite_class_sample_size(1000, gamma=1e-200, delta=0.05)


def test_A2_never_drawn_probability_is_accurate_for_huge_m():
    exact = [math.exp(m * math.log1p(-1 / m)) for m in (10**12, 10**15, 10**16, 10**17)]
    ours = [float(never_drawn_probability(10**k)) for k in (12, 15, 16, 17)]
    assert np.allclose(ours, exact, rtol=1e-12, atol=0)
    assert never_drawn_probability(1) == 0.0
    assert abs(float(never_drawn_probability(2**70)) - math.exp(-1)) < 1e-12   # C7
    assert float(never_drawn_probability(10)) == pytest.approx(0.9 ** 10, rel=1e-14)


def test_A3_C9_vc_bound_gap_with_tiny_delta():
    gap = vc_bound_gap(3, 10000, 1e-308)
    assert np.isfinite(gap) and 1.4 < gap < 1.6
    m = vc_sample_size(3, gamma=0.1, delta=1e-308)
    assert vc_bound_gap(3, m, 1e-308) <= 0.1 < vc_bound_gap(3, m - 1, 1e-308)
    assert np.isfinite(vc_bound_gap(3, 2**70, 0.05))                      # C7


def test_A4_cv_split_errors_fits_the_splitters_training_rows():
    cv = BootstrapOutOfBag(2, random_state=0)
    x = np.linspace(-1, 1, 12)
    X, y = legendre_design(x, 2), np.sin(3 * x)
    expected = []
    for train, test in cv.split(X):
        coef = np.linalg.lstsq(X[train], y[train], rcond=None)[0]
        expected.append(np.mean((y[test] - X[test] @ coef) ** 2))
    assert np.allclose(cv_split_errors(X, y, cv), expected, rtol=1e-10)
    assert np.allclose(cv_split_errors(X, y, cv), [0.4073, 0.3858], atol=1e-4)


def test_A5_bootstrap_se_needs_two_replicates():
    with pytest.raises(ValueError, match="n_resamples"):
        bootstrap_se(np.mean, [1.0, 2.0, 3.0], n_resamples=1)
    assert np.isfinite(bootstrap_se(np.mean, [1.0, 2.0, 3.0], n_resamples=2, random_state=0))


def test_A6_score_passed_as_loss_is_refused_with_one_class():
    X = np.random.default_rng(0).normal(size=(12, 2))
    with pytest.raises(ValueError, match="loss"):
        bootstrap_error(KNeighborsClassifier(1), X, np.zeros(12, int), ".632+",
                        loss=accuracy_score)


def test_A7_vc_witnesses_at_extreme_scales():
    points = np.array([[-4.1e149], [1.5e149], [5.4e149]])
    with pytest.raises(ValueError, match="points"):
        witness_hypotheses(points, hypothesis_class="threshold")
    for scale in (1e-300, 1e307):
        with pytest.raises(ValueError, match="points"):
            is_realizable(scale * np.eye(2), [0, 1], hypothesis_class="disc")
    with pytest.raises(ValueError, match="radius"):
        regular_simplex(3, 5e-324)
    points = [-4.1e99, 1.5e99, 5.4e99]   # the largest scale still accepted
    for bits, h in witness_hypotheses(np.array(points)[:, None],
                                      hypothesis_class="threshold").items():
        assert h.predict(points).tolist() == [(bits >> i) & 1 for i in range(3)]


def test_A8_extreme_targets_are_refused_not_nan():
    with pytest.raises(ValueError, match="y"):
        loo_residuals_linear([[0.], [1.], [2.], [4.]], [1e308, -1e308, 1e308, -1e308])
    with pytest.raises(ValueError, match="x"):
        sine_target(1e308)
    with pytest.raises(ValueError, match="noise"):
        sine_regression(5, noise=1e308)


# -- B. exceptions outside the ValueError/TypeError contract ------------------
def test_B1_margin_vc_bound_extreme_ratio():
    with pytest.raises(ValueError, match="radius"):
        margin_vc_bound(1.0, 1e-200)
    assert margin_vc_bound(1e200, 1.0, n_features=3) == 4
    assert margin_vc_bound(1.0, 0.25) == 17


def test_B2_B15_vc_hypotheses_validate_and_do_not_overflow():
    assert Disc(np.zeros(2), 1e200).predict([[0.0, 0.0], [1e250, 0.0]]).tolist() == [1, 0]
    with pytest.raises(TypeError, match="t"):
        Threshold("0.5")
    with pytest.raises(ValueError, match="radius"):
        Disc([0, 0], -1)
    with pytest.raises(ValueError, match="weights"):
        HalfSpace([np.nan, 1.0], 0.0)
    assert Disc(np.zeros(2), 1.0).predict([[0.6, 0.8], [1.0, 1.0]]).tolist() == [1, 0]


def test_B3_study_noise_is_bounded():
    with pytest.raises(ValueError, match="noise"):
        cv_estimator_study([20], 2, noise=1e200, n_true=200, random_state=0)


def test_B4_gaussian_classes_validates():
    with pytest.raises((TypeError, ValueError), match="rng"):
        gaussian_classes(6, "x")
    with pytest.raises(TypeError, match="separation"):
        gaussian_classes(6, np.random.default_rng(0), separation=1j)
    X, y = gaussian_classes(6, 0)
    assert X.shape == (6, 2)


def test_B5_interval_coverage_inputs():
    sampler = lambda rng, size: rng.normal(size=size)  # noqa: E731
    out = interval_coverage(np.mean, sampler, 0.0, 10, n_datasets=5, n_resamples=20,
                            random_state=np.random.RandomState(0))
    assert set(out) == {"percentile", "basic", "BCa"}
    with pytest.raises(ValueError, match="sampler"):
        interval_coverage(np.mean, lambda rng, size: rng.normal(size=3), 0.0, 10, n_datasets=5)
    with pytest.raises(TypeError, match="truth"):
        interval_coverage(np.mean, sampler, "0", 10, n_datasets=5)
    with pytest.raises(ValueError, match="truth"):
        interval_coverage(np.mean, sampler, np.nan, 10, n_datasets=5)


def test_B6_non_splitter_cv():
    X = legendre_design(np.linspace(-1, 1, 12), 1)
    with pytest.raises(TypeError, match="cv"):
        cv_split_errors(X, X[:, 1], 3)
    with pytest.raises(TypeError, match="cv"):
        fold_assignment(3, 12)


def test_B7_kfold_kl_curve_without_columns():
    with pytest.raises(ValueError, match="X"):
        kfold_kl_curve(np.empty((40, 0)), [2, 5])


def test_B8_summarize_cv_study_wrong_dict():
    with pytest.raises(ValueError, match="results"):
        summarize_cv_study({})


def test_B9_check_option_refuses_arrays():
    with pytest.raises(ValueError, match="method"):
        check_option(np.array(["oob"]), "method", ["oob"])
    with pytest.raises(ValueError, match="name"):
        read_data_file(np.array(["watermelon2.csv"]))
    with pytest.raises(ValueError, match="target"):
        load_wholesale(np.array(["channel"]))
    with pytest.raises(ValueError, match="x"):
        check_option(["a", "b"], "x", ["a"])


def test_B10_kl_figure_curves():
    for curves in ({}, []):
        with pytest.raises(ValueError, match="curves"):
            KLCriterionFigure(curves=curves)


@pytest.mark.parametrize("kwargs, name", [({"dpi": 1.5}, "dpi"), ({"dpi": float("inf")}, "dpi"),
                                          ({"dpi": "60"}, "dpi"), ({"figsize": (0, 0)}, "figsize"),
                                          ({"figsize": (1e308, 1e308)}, "figsize")])
def test_B11_figure_size_and_dpi(kwargs, name):
    from mlcore.bounds import SampleSizeFigure
    with pytest.raises((TypeError, ValueError), match=name):
        SampleSizeFigure(**kwargs)


def test_B12_gradient_descent_figure_separable_data():
    X = np.array([[0., 0.], [1., 1.], [2., 2.], [3., 3.]])
    with pytest.raises(ValueError, match="separable"):
        GradientDescentFigure(X=X, y=np.array([0, 0, 1, 1]))
    with pytest.raises(ValueError, match="X and y"):
        GradientDescentFigure(X=X)


def test_B13_shatters_extreme_points():
    with pytest.raises(ValueError, match="points"):
        shatters(1e307 * np.eye(2), hypothesis_class="disc")


def test_B14_leaked_linalg_errors():
    x = np.linspace(-1, 1, 20)
    y = np.sin(3 * x)
    X = np.column_stack([np.ones(12), np.zeros(12)])
    with pytest.raises(ValueError, match="X"):
        cv_split_errors(X, np.arange(12.0), KFold(3))
    with pytest.raises(ValueError, match="y"):
        degree_curves(x, y[:-1], [1, 2])
    with pytest.raises(ValueError, match="degrees"):
        degree_curves(x, y, [20])
    with pytest.raises(ValueError, match="x"):
        degree_curves(np.r_[x[:-1], np.nan], y, [1])
    with pytest.raises(TypeError, match="y"):
        degree_curves(x, np.full(20, "a"), [1])
    with pytest.raises(ValueError, match="degrees"):
        degree_curves(np.zeros(20), y, [1, 2])


def test_B17_read_data_file_only_data_files():
    with pytest.raises(ValueError, match="name"):
        read_data_file("SOURCES.md")


# -- C. valid input wrongly rejected -------------------------------------------
def test_C2_C3_numpy_booleans():
    assert load_wine_quality("red", binary=np.True_).target_names.tolist()
    assert make_splitter("K-fold", n_splits=3, shuffle=np.True_).shuffle is True


def test_C4_degree_curves_accepts_lists():
    x, y = sine_regression(30, random_state=0)
    train, cv = degree_curves(list(x), list(y), [1, 2], random_state=0)
    assert np.allclose((train, cv), degree_curves(x, y, [1, 2], random_state=0))


def test_C5_study_degree_zero():
    out = cv_estimator_study([20], 1, degree=0, n_true=200, random_state=0)
    loo = out["estimate"][out["scheme"] == "LOO"][0]
    x, y = sine_regression(20, noise=0.5, random_state=np.random.default_rng(
        np.random.SeedSequence(0).spawn(2)[0]))
    manual = np.mean([(y[i] - np.delete(y, i).mean()) ** 2 for i in range(20)])
    assert loo == pytest.approx(manual, rel=1e-12)


def test_C6_unsigned_ks():
    X = np.random.default_rng(0).normal(size=(40, 2))
    assert np.allclose(kfold_kl_curve(X, np.array([2, 5], dtype=np.uint8), random_state=0),
                       kfold_kl_curve(X, [2, 5], random_state=0))


def test_C8_degree_selection_figure_small_sample():
    with pytest.raises(ValueError, match="n_samples"):
        DegreeSelectionFigure(n_samples=5)


# -- D. hangs --------------------------------------------------------------------
def test_D_two_level_design_is_fast_and_bounded():
    design = two_level_design(1000)
    assert design.shape == (1008, 1000)  # a Hadamard matrix of order 1008 = 2 x 504
    assert two_level_design(1000, design="regular").shape == (1024, 1000)
    assert np.array_equal(two_level_design(3), [[0, 0, 0], [1, 0, 1], [0, 1, 1], [1, 1, 0]])
    with pytest.raises(ValueError, match="n_repeats"):
        two_level_design(10000)
    with pytest.raises(ValueError, match="n_repeats"):
        BlockedMxTwoCV(n_repeats=10000)


# -- invalid input silently accepted ----------------------------------------------
@pytest.mark.parametrize("call, name", [
    (lambda: sigmoid("1.5"), "z"), (lambda: sigmoid(None), "z"), (lambda: logit("0.5"), "p"),
    (lambda: sine_target(None), "x"), (lambda: legendre_design(None, 2), "x"),
    (lambda: loo_residuals_linear([[0.], [1.], [2.], [4.]], [0.1, np.nan, 2.2, 3.9]), "y"),
    (lambda: load_wholesale(return_X_y="False"), "return_X_y"),
    (lambda: BlockedMxTwoCV(stratify="no"), "stratify"),
    (lambda: kfold_kl_curve(np.eye(8), [2], stratify="yes"), "stratify"),
    (lambda: select_n_folds([0.3, 0.2, 0.1], [-1, 0.5, 7], lam=1.0), "Ks"),
    (lambda: regularized_kl_criterion([0.3, 0.2], [2, 3], lam=True), "lam"),
    (lambda: regularized_kl_criterion([0.3, 0.2], [2, 3], lam="1.0"), "lam"),
    (lambda: threshold_training_errors([0.1, np.nan], [0, 1], [0.3]), "X"),
    (lambda: threshold_training_errors([0.1, 0.2], [0, 1], [1.3]), "thresholds"),
    (lambda: gradient_descent_path([[0.], [1.]], [0, 1], 0.1, 3, theta0=[np.nan, 0]), "theta0"),
    (lambda: make_splitter("K-fold", random_state="42"), "random_state"),
    (lambda: witness_hypotheses([[0.], [1.]], hypothesis_class="threshold", n_jobs="2"),
     "n_jobs"),
    (lambda: kfold_kl_curve(np.random.default_rng(0).normal(size=(20, 2)), [2], n_jobs=1.5),
     "n_jobs"),
])
def test_invalid_inputs_are_refused(call, name):
    with pytest.raises((TypeError, ValueError), match=name):
        call()


# -- the helpers themselves ----------------------------------------------------------
def test_validation_helpers():
    assert check_bool(np.False_, "flag") is False
    assert check_n_jobs(np.int64(-1)) == -1
    for bad in ("2", 1.5, True, 0):
        with pytest.raises((TypeError, ValueError), match="n_jobs"):
            check_n_jobs(bad)
    for bad in (-1, 1.5, "42", [1]):
        with pytest.raises((TypeError, ValueError), match="random_state"):
            check_random_state(bad)
    assert check_random_state(np.uint8(3)) == 3
    assert as_generator(np.random.RandomState(0)).integers(10) >= 0
    assert as_random_state(np.random.default_rng(0)).randint(10) >= 0
    assert as_random_state(2**40).randint(10) >= 0
    with pytest.raises(TypeError, match="X"):
        check_array([1 + 2j], "X")
    with pytest.raises(ValueError, match="X"):
        check_array([[1.0], [1.0, 2.0]], "X")
    assert check_array([2**70], "X")[0] == 2.0**70
    assert check_int_array([2**70, 1], "m", low=1).dtype == object
    with pytest.raises(TypeError, match="y"):
        check_labels([None, 1], "y")
    with pytest.raises(ValueError, match="X is not usable"):
        with user_errors("X"):
            np.linalg.inv(np.zeros((2, 2)))


def test_A8_linear_extreme_x_is_refused():
    from mlcore.linear import LogisticRegressionGD, logistic_loss
    with pytest.raises(ValueError, match="X"):
        logistic_loss([0.0] * 3, [[1e308, 1.0]], [1])
    with pytest.raises(ValueError, match="X"):
        logistic_loss([0.0] * 3, [[1e200, 1.0]], [1])
    with pytest.raises(ValueError, match="X"):
        LogisticRegressionGD().fit(np.array([[1e308, 0.0], [0.0, 1e308]]), [0, 1])


def test_A8_vc_bound_gap_accurate_for_huge_m():
    m = 42_164_705_520
    exact = math.sqrt(32 * (math.log(8 / 0.5) + math.log(1 + m)) / m)
    assert vc_bound_gap(1, m, 0.5) == pytest.approx(exact, rel=1e-12)


def test_A8_linear_extreme_theta_is_refused():
    from mlcore.linear import logistic_loss
    with pytest.raises(ValueError, match="theta"):
        logistic_loss([1e308] * 3, [[1.0, 1.0]], [1])


def test_A8_bootstrap_extreme_data_is_refused():
    from mlcore.bootstrap import bootstrap_distribution, bootstrap_interval
    data = np.array([1e308, 1.2e308, 0.9e308])
    with pytest.raises(ValueError, match="data"):
        bootstrap_distribution(np.mean, data, 10, random_state=0)
    with pytest.raises(ValueError, match="data"):
        bootstrap_interval(np.mean, data, 10, random_state=0)


# -- found by re-running every reproducer of the report (now tests/test_fuzz_report.py) ------
def test_importing_mlcore_warns_nothing():
    """A docstring with a bare backslash made ``python -W error -c 'import mlcore'`` fail."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-W", "error", "-c", "import mlcore"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_vc_messages_name_the_parameter_as_spelled():
    from mlcore.vc import Interval, erm_halfplane, rademacher_vc_sample_size
    with pytest.raises(ValueError, match=r"^X must have coordinates"):
        erm_halfplane(np.random.default_rng(3).normal(size=(7, 2)) * 1e149, [0, 1] * 3 + [0])
    with pytest.raises(ValueError, match=r"^y must be 0 or 1"):
        erm_halfplane([[0., 0.], [1., 1.]], [0, 2])
    with pytest.raises(ValueError, match=r"labels must have shape \(3,\).*points"):
        is_realizable([[0.], [1.], [2.]], [0, 1], hypothesis_class="threshold")
    with pytest.raises(ValueError, match="weights of length 1"):
        HalfSpace([1.0], 0.0).predict([[0., 0.]])
    with pytest.raises(ValueError, match="high must be >= low"):
        Interval(1.0, 0.0)
    with pytest.raises(TypeError, match="points"):
        shatters(np.array([[0.], [1.]]) + 1j, hypothesis_class="threshold")
    for size in (vc_sample_size, rademacher_vc_sample_size):
        with pytest.raises(ValueError, match="gamma is too small"):
            size(3, gamma=1e-200, delta=0.05)
    assert vc_sample_size(3, gamma=1e-100, delta=0.05) > 10**200   # still exact when it fits


def test_rademacher_vc_gap_exact_for_huge_m():
    """2 * m overflowed int64 from m = 2**62: a NaN gap, and a wrong sample size 2**62."""
    from mlcore.vc import rademacher_vc_gap, rademacher_vc_sample_size
    for m in (10_000, 2**62, 2**64, 2**70, 10**300):
        exact = (math.sqrt(2 * 3 * (1 + math.log(m / 3)) / m)
                 + math.sqrt(math.log(2 / 0.05) / (2 * m)))
        assert rademacher_vc_gap(3, m, 0.05) == pytest.approx(exact, rel=1e-12)
    m = rademacher_vc_sample_size(3, gamma=1e-9, delta=0.05)
    assert rademacher_vc_gap(3, m, 0.05) <= 1e-9 < rademacher_vc_gap(3, m - 1, 0.05)
    with pytest.raises(ValueError, match="m must be an integer >= 3"):
        rademacher_vc_gap(3, 2, 0.05)


def test_halfplane_noise_gaps_checks_n_jobs_and_seed():
    from mlcore.vc import halfplane_noise_gaps, preset_points
    for bad in ({}, "2", 1.5, True, 0):
        with pytest.raises((TypeError, ValueError), match="n_jobs"):
            halfplane_noise_gaps(5, 2, n_jobs=bad)
    with pytest.raises(TypeError, match="seed"):
        halfplane_noise_gaps(5, 2, seed="1")
    assert np.array_equal(halfplane_noise_gaps(6, 3, seed=np.int64(4)),
                          halfplane_noise_gaps(6, 3, seed=4, n_jobs=None))
    with pytest.raises(TypeError, match="seed"):
        preset_points("triangle", seed={})


def test_model_selection_extreme_targets_and_bad_splitters():
    from sklearn.model_selection import KFold as SkKFold
    x = np.linspace(-1, 1, 20)
    with pytest.raises(ValueError, match="y must lie within"):
        cv_split_errors(legendre_design(x, 1), 1e308 * np.sin(3 * x), SkKFold(4))
    with pytest.raises(ValueError, match="y must lie within"):
        degree_curves(x, 1e308 * np.sin(3 * x), [1, 2])
    X = legendre_design(x[:12], 1)
    for cv in ("kfold", SkKFold, 3, None):
        with pytest.raises(TypeError, match="cv must be a splitter object"):
            cv_split_errors(X, X[:, 1], cv)
        with pytest.raises(TypeError, match="cv must be a splitter object"):
            fold_assignment(cv, 12)
    with pytest.raises(ValueError, match="y must have one label per sample"):
        fold_assignment(SkKFold(3), 12, y=[0] * 3)
    with pytest.raises(TypeError, match="X must be an array-like"):
        list(BootstrapOutOfBag(2).split(1.0))
    with pytest.raises(ValueError, match="X must have at least 4 samples, got n_samples=0"):
        list(BlockedMxTwoCV().split(np.zeros((0, 2))))


def test_gaussian_kl_overflow_is_inf_and_kfold_kl_curve_is_scale_free():
    from mlcore.divergence import gaussian_kl
    assert gaussian_kl([1e200, 0.0], np.eye(2), [0.0, 0.0], 1e-300 * np.eye(2)) == np.inf
    A, B = np.array([[2, .3], [.3, 1]]), np.array([[1, -.2], [-.2, .5]])
    diff, Bi = np.array([-1.0, -1.0]), np.linalg.inv(B)
    closed = 0.5 * (np.trace(Bi @ A) + diff @ Bi @ diff - 2
                    + np.log(np.linalg.det(B) / np.linalg.det(A)))
    assert gaussian_kl([1, 2], A, [0, 1], B) == pytest.approx(closed, rel=1e-12)
    X = np.random.default_rng(0).normal(size=(40, 2))
    reference = kfold_kl_curve(X, [2, 5], random_state=0)
    for scale in (1e-308, 1e200, 1e300):
        assert np.allclose(kfold_kl_curve(X * scale, [2, 5], random_state=0), reference,
                           rtol=1e-6)


def test_sklearn_style_messages_name_the_parameter():
    from mlcore.bootstrap import bootstrap_error_report
    from mlcore.bounds import simulate_uniform_convergence, threshold_grid, threshold_true_errors
    from mlcore.homework import Limits, collect_submissions, safe_failure
    from mlcore.linear import LogisticRegressionGD
    X, y = np.random.default_rng(0).normal(size=(12, 2)), np.r_[np.zeros(6), np.ones(6)]
    with pytest.raises(ValueError, match=r"^X must be a 2-D array of shape \(n_samples, n_features\), got a 1-D array"):
        LogisticRegressionGD().fit(X[:, 0], y)
    with pytest.raises(ValueError, match=r"^y is not valid: Unknown label type"):
        LogisticRegressionGD().fit(X, np.linspace(0, 1, 12))
    with pytest.raises(TypeError, match="X must hold real numbers"):
        LogisticRegressionGD().fit(X.astype(str), y)
    with pytest.raises(ValueError, match=r"^X has 1 features"):   # already named: unchanged
        LogisticRegressionGD().fit(X, y).predict(X[:, :1])
    with pytest.raises(ValueError, match=r"^X must be a 2-D array of shape"):
        bootstrap_error_report(KNeighborsClassifier(1), [b"a"] * 12, y, n_resamples=3)
    with pytest.raises(ValueError, match="X must be a rectangular array"):
        gradient_descent_path([[1.0], [1.0, 2.0]], [0, 1], 0.1, 3)
    with pytest.raises(TypeError, match="thresholds"):
        threshold_true_errors("a")
    with pytest.raises(TypeError, match="k must be an integer"):
        threshold_grid([3])
    with pytest.raises(TypeError, match="m must be an integer"):
        simulate_uniform_convergence(5, m=[3], n_trials=3)
    for sandbox in (np.array(["auto"]), np.array(["auto", "none"])):
        with pytest.raises(ValueError, match="sandbox must be one of"):
            Limits(sandbox=sandbox)
    with pytest.raises(TypeError, match="folder must be a path"):
        collect_submissions(None)
    with pytest.raises(TypeError, match="source must be"):
        safe_failure(None, "AssertionError", "x")


def test_B12_separable_data_is_refused_at_once(monkeypatch):
    from mlcore.linear import _estimator
    steps = []                                   # a count of work, not a time
    monkeypatch.setattr(_estimator, "_descend", lambda *a: steps.append(a) or 1 / 0)
    X = np.array([[0., 0.], [1., 1.], [2., 2.], [3., 3.]])
    with pytest.raises(ValueError, match="separable"):
        GradientDescentFigure(X=X, y=np.array([0, 0, 1, 1]))
    assert steps == []                           # a linear program, not 100,000 steps


# -- chapters 7-12 (feature_selection, bayes, evaluation, compare, lda, multiclass, imbalance) --
def test_chapters_7_to_12_refuse_non_estimators_and_bad_cv():
    from sklearn.naive_bayes import GaussianNB

    from mlcore.compare import bias_variance_decomposition, paired_t_test_5x2cv
    from mlcore.feature_selection import exhaustive_search, forward_search
    from mlcore.imbalance import EasyEnsembleClassifier
    from mlcore.multiclass import ECOCClassifier
    X = np.random.default_rng(0).normal(size=(30, 3))
    y = np.arange(30) % 2
    for bad in ("a", None, [], {}, GaussianNB):
        with pytest.raises(TypeError, match="estimator"):
            forward_search(bad, X, y, cv=3)
        with pytest.raises(TypeError, match="estimator_b"):
            paired_t_test_5x2cv(GaussianNB(), bad, X, y)
        with pytest.raises(TypeError, match="estimator"):
            bias_variance_decomposition(bad, X, y, X, y, loss="0-1", n_rounds=2)
        with pytest.raises(TypeError, match="estimator"):
            ECOCClassifier(bad).fit(X, y)
        with pytest.raises(TypeError, match="estimator"):
            EasyEnsembleClassifier(bad).fit(X, y)
    for bad in ([], {}, b"x", "3", np.zeros((2, 2, 2)), True):
        with pytest.raises((TypeError, ValueError), match="cv"):
            exhaustive_search(GaussianNB(), X, y, cv=bad)
    with pytest.raises(ValueError, match="cv must be an integer >= 2"):
        forward_search(GaussianNB(), X, y, cv=1)
    for bad in ("2", 1.5, 0, 2**70):
        with pytest.raises((TypeError, ValueError), match="n_jobs"):
            forward_search(GaussianNB(), X, y, cv=3, n_jobs=bad)
    with pytest.raises(ValueError, match="y must be a 1-D array of class labels"):
        exhaustive_search(GaussianNB(), X, y[:, None], cv=3)
    with pytest.raises(ValueError, match="y must have one label per sample"):
        exhaustive_search(GaussianNB(), X, y[:-1], cv=3)


def test_gaussian_nb_subset_accuracy_validates_every_argument():
    from mlcore.feature_selection import gaussian_nb_subset_accuracy
    X = np.random.default_rng(0).normal(size=(30, 3))
    y = np.arange(30) % 2
    for kwargs, name in [(dict(X_fit=None), "X_fit"), (dict(X_fit=X[:-1]), "y_fit"),
                         (dict(X_eval=X[:, 0]), "X_eval"), (dict(y_eval="a"), "y_eval"),
                         (dict(subsets="ab"), "subsets"), (dict(subsets=[(5,)]), "subsets"),
                         (dict(X_fit=X * 1e300), "X_fit")]:
        args = dict(X_fit=X, y_fit=y, X_eval=X, y_eval=y, subsets=[(0,), (0, 1)]) | kwargs
        with pytest.raises((TypeError, ValueError), match=name):
            gaussian_nb_subset_accuracy(**args)


def test_chapters_7_to_12_extreme_reals_and_seeds():
    from mlcore.bayes import MAPLogisticRegression
    from mlcore.compare import polynomial_bias_variance
    from mlcore.evaluation import fbeta
    from mlcore.lda import FisherLDA, fisher_criterion
    from mlcore.multiclass import coding_matrix
    X = np.random.default_rng(0).normal(size=(30, 3))
    y = np.arange(30) % 2
    for tau in (1e308, 5e-324):
        with pytest.raises(ValueError, match="tau must be in"):
            MAPLogisticRegression(tau=tau).fit(X, y)
    with pytest.raises(ValueError, match="beta must be at most"):
        fbeta(y, y[::-1], beta=1e308)
    with pytest.raises(ValueError, match="tol"):
        FisherLDA(tol=1.5).fit(X, np.arange(30) % 3)
    with pytest.raises(ValueError, match=r"X must lie within \[-1e150, 1e150\]"):
        FisherLDA().fit(X * 1e300, np.arange(30) % 3)
    for bad in (None, 0.5, "a"):
        with pytest.raises((TypeError, ValueError), match="W"):
            fisher_criterion(bad, X, y)
    with pytest.raises(ValueError, match="n_classes must be an integer in"):
        coding_matrix(2**70)
    for size in (2.0**70, 1e308):
        with pytest.raises(ValueError, match="code_size"):
            coding_matrix(4, code_size=size)
    with pytest.raises(TypeError, match="degrees"):
        polynomial_bias_variance(np.sin, [])
    with pytest.raises(ValueError, match="noise"):
        polynomial_bias_variance(np.sin, [1], noise=1e308)
    # every seed mlcore accepts, the same draws for the same seed
    same = [coding_matrix(6, random_state=seed) for seed in
            (0, np.int64(0), np.random.RandomState(0))]
    assert all(np.array_equal(same[0], other) for other in same[1:])
    assert coding_matrix(6, random_state=np.random.default_rng(0)).shape[0] == 6
    with pytest.raises((TypeError, ValueError), match="random_state"):
        coding_matrix(6, random_state="0")


def test_oblique_tree_refuses_overflowing_x():
    from mlcore.tree import ObliqueTreeClassifier
    X = np.random.default_rng(0).normal(size=(30, 3))
    with pytest.raises(ValueError, match=r"X must lie within \[-1e150, 1e150\]"):
        ObliqueTreeClassifier(max_depth=2).fit(X * 1e300, np.arange(30) % 2)
    assert ObliqueTreeClassifier(max_depth=2).fit(X * 1e100, np.arange(30) % 2).score(
        X * 1e100, np.arange(30) % 2) == ObliqueTreeClassifier(max_depth=2).fit(
        X, np.arange(30) % 2).score(X, np.arange(30) % 2)


def test_chapters_7_to_12_accept_every_seed_mlcore_accepts():
    from sklearn.tree import DecisionTreeRegressor

    from mlcore.bayes import polynomial_moons
    from mlcore.compare import bias_variance_decomposition
    X = np.linspace(-1, 1, 30)[:, None]
    y = X[:, 0] ** 2
    for seed in (np.random.default_rng(0), 2**40, np.int64(3)):
        assert polynomial_moons(20, degree=2, random_state=seed)[0].shape == (20, 2)
        out = bias_variance_decomposition(DecisionTreeRegressor(max_depth=2), X, y, X, y,
                                          n_rounds=3, random_state=seed)
        assert out is not None
    assert np.array_equal(polynomial_moons(20, random_state=np.int64(3))[0],
                          polynomial_moons(20, random_state=3)[0])


def test_chapters_7_to_12_refuse_values_whose_squares_overflow():
    from mlcore.bayes import BayesianLinearRegression
    from mlcore.compare import corrected_resampled_t_test, paired_t_test_cv
    from mlcore.feature_selection import correlation_scores
    X = np.random.default_rng(0).normal(size=(30, 3))
    y = X[:, 0] + 0.1
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for call, name in [
            (lambda: correlation_scores(X * 1e300, y), "X"),
            (lambda: correlation_scores(X, y * 1e300), "y"),
            (lambda: correlation_scores(X.astype(str), y), "X"),
            (lambda: paired_t_test_cv(y * 1e300, y), "scores_a"),
            (lambda: corrected_resampled_t_test(y, y * 1e300, 90, 10), "scores_b"),
            (lambda: BayesianLinearRegression(beta=1e308).fit(X, y), "beta"),
            (lambda: BayesianLinearRegression().fit(X, y * 1e300), "y"),
        ]:
            with pytest.raises((TypeError, ValueError), match=name):
                call()


# -- second fuzz report (reviews/reliability/FUZZ-2.md) ------------------------
def _halfplane_brute_force(X, y, reach=13):
    """Exact minimum over every integer direction |a|, |b| <= reach and every threshold.

    For integer points with coordinates in [-3, 3] the differences are at most 6,
    so every critical direction and a direction inside every angular cell between
    two of them (their Farey mediant) is among these; with integer projections
    every split, ties included, is exact.
    """
    X, y = np.asarray(X, dtype=np.int64), np.asarray(y)
    directions = [(a, b) for a in range(-reach, reach + 1) for b in range(-reach, reach + 1) if a or b]
    P = X @ np.array(directions).T
    splits = ((P[:, None, :] >= P[None, :, :]) != y[:, None, None]).sum(axis=0)
    return int(min(y.sum(), len(y) - y.sum(), splits.min()))


def test_A3_min_halfplane_errors_exact_on_collinear_and_repeated_points():
    from mlcore.vc import min_halfplane_errors
    X = [[-2, -3], [1, 1], [1, -2], [-1, -4], [-4, -5], [1, 4], [1, 0]]
    y = [0, 1, 0, 0, 1, 0, 1]
    assert _halfplane_brute_force(X, y) == 2
    assert min_halfplane_errors(X, y) == 2            # was 1: an impossible count
    # repeated points with different labels cost one mistake each, never zero
    assert min_halfplane_errors([[0, 0], [0, 0], [1, 1]], [0, 1, 1]) == 1
    assert min_halfplane_errors([[0, 0], [1, 0], [2, 0], [3, 0]], [0, 1, 0, 1]) == 1
    rng = np.random.default_rng(5)
    for _ in range(60):
        m = int(rng.integers(1, 9))
        X, y = rng.integers(-3, 4, size=(m, 2)), rng.integers(0, 2, size=m)
        assert min_halfplane_errors(X, y) == _halfplane_brute_force(X, y), (X.tolist(), y.tolist())
    # the same answer on an exactly scaled and shifted non-integer copy (the float
    # signs of collinear triples are uncertain and decided in rational arithmetic)
    X = np.array([[-2, -3], [1, 1], [1, -2], [-1, -4], [-4, -5], [1, 4], [1, 0]]) * 0.375 + 0.3125
    assert min_halfplane_errors(X, y=[0, 1, 0, 0, 1, 0, 1]) == 2


def test_min_halfplane_errors_refuses_nan_and_bad_chunk():
    from mlcore.vc import min_halfplane_errors
    with pytest.raises(ValueError, match="X must be finite"):
        min_halfplane_errors([[0, 0], [np.nan, 1]], [0, 1])
    with pytest.raises(ValueError, match="chunk"):
        min_halfplane_errors([[0, 0], [1, 1]], [0, 1], chunk=-1)
    with pytest.raises(ValueError, match="y must be 0 or 1"):
        min_halfplane_errors([[0, 0], [1, 1]], [0, 0.7])


def test_B2_C2_gaussian_mmd2_is_scale_free_at_every_bandwidth():
    from mlcore.divergence import gaussian_mmd2
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(20, 2)), rng.normal(size=(15, 2)) + 1
    ref = gaussian_mmd2(A, B, 1.0)
    assert ref == pytest.approx(0.2957, abs=1e-4)
    # brute force, straight from the definition
    k = lambda P, Q: np.exp(-((P[:, None] - Q[None]) ** 2).sum(-1) / 2)  # noqa: E731
    kxx, kyy = k(A, A), k(B, B)
    brute = ((kxx.sum() - 20) / 380 + (kyy.sum() - 15) / 210 - 2 * k(A, B).mean())
    assert ref == pytest.approx(brute, rel=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for s in (1e-200, 1e-300, 1e150, 1e300):       # joint scaling: same value (was NaN)
            assert gaussian_mmd2(A * s, B * s, s) == pytest.approx(ref, rel=1e-12)
        assert gaussian_mmd2(A, B, 5e-324) == 0.0      # off-diagonal kernels vanish (was NaN)
        assert gaussian_mmd2(A, B, 1e200) == 0.0       # every kernel is 1 (was OverflowError)
    for bad in (A.astype(complex), A.astype(str)):
        with pytest.raises(TypeError, match="X must be an array of real numbers"):
            gaussian_mmd2(bad, B, 1.0)


def test_B5_D6_uninverted_mean_term_curve_range_and_seeds():
    from mlcore.divergence import uninverted_mean_term_curve
    X = np.random.default_rng(0).normal(size=(20, 2))
    ref = uninverted_mean_term_curve(X, [2, 5])
    assert np.allclose(uninverted_mean_term_curve(X * 1e-50, [2, 5]) / 1e-200, ref, rtol=1e-12)
    assert np.allclose(uninverted_mean_term_curve(X * 1e50, [2, 5]) / 1e200, ref, rtol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isposinf(uninverted_mean_term_curve(X * 1e150, [2, 5])).all()  # was [nan, nan]
    assert np.allclose(uninverted_mean_term_curve(X + 1e6, [2, 5]), ref, rtol=1e-6)  # shift-free
    for seed in (2**32 - 2, 2**64, np.random.default_rng(1), np.random.SeedSequence(3)):
        assert np.isfinite(uninverted_mean_term_curve(X, [2, 5], random_state=seed)).all()
    with pytest.raises(TypeError, match="X must be an array of real numbers"):
        uninverted_mean_term_curve(X.astype(complex), [2])


def test_B6_gradient_descent_diverging_past_the_float_range_is_refused():
    from mlcore.linear import LogisticRegressionGD
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=200) > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # no overflow warning on the way
        for call in (lambda: gradient_descent_path(X, y, 1e308, 20),
                     lambda: LogisticRegressionGD(learning_rate=1e308).fit(X, y)):
            with pytest.raises(ValueError, match=r"learning_rate=1e\+308 makes gradient descent "
                                                 r"diverge.*below 2/L"):
                call()
        thetas, losses = gradient_descent_path(X, y, 10.0, 50)  # large but bounded: kept
        assert np.isfinite(thetas).all() and np.isfinite(losses).all()


def test_E3_sauer_bound_is_fast_and_exact_for_any_d(monkeypatch):
    from mlcore.vc import _bounds, sauer_bound
    for m in range(25):
        for d in range(30):
            assert sauer_bound(m, d) == sum(math.comb(m, i) for i in range(min(d, m) + 1))
    terms = []                                   # a count of work, not a time
    prefix = _bounds._binomial_prefix
    monkeypatch.setattr(_bounds, "_binomial_prefix", lambda m, k: terms.append(k) or prefix(m, k))
    assert sauer_bound(10**4, 10**9) == 2 ** 10**4          # was 16 s
    assert sauer_bound(10**5, 10**9) == 2 ** 10**5          # was > 60 s
    assert terms == []                                      # d >= m: no sum at all
    assert sauer_bound(3000, 2000) == 2 ** 3000 - sum(math.comb(3000, i) for i in range(2001, 3001))
    assert terms == [999]                                   # the shorter tail only


def test_D4_negative_zero_noise_is_zero_noise():
    from mlcore.bayes import polynomial_moons
    from mlcore.compare import polynomial_bias_variance
    from mlcore._validation import check_real
    assert math.copysign(1.0, check_real(-0.0, "noise", low=0)) == 1.0
    X = polynomial_moons(20, degree=2, noise=-0.0, random_state=0)[0]   # was "scale < 0"
    assert np.array_equal(X, polynomial_moons(20, degree=2, noise=0.0, random_state=0)[0])
    assert polynomial_bias_variance(np.sin, [1, 3], noise=-0.0) is not None


def test_D8_bootstrap_interval_figure_handles_constant_and_tied_data():
    from mlcore.bootstrap import BootstrapIntervalFigure
    for kwargs in (dict(data=np.ones(25)),                         # was "Axis limits cannot be NaN"
                   dict(data=np.array([1.0, 2.0])),                # was the studentized refusal
                   dict(data=np.arange(10) % 3, statistic=np.median)):
        figure = BootstrapIntervalFigure(**kwargs)
        assert figure.render(n_resamples=200)[:4] == b"\x89PNG"
        title = figure.ax.get_title()
        assert "percentile [" in title
        if len(np.unique(kwargs["data"])) > 1:
            assert "bootstrap-t undefined here" in title
    for bad, kind, name in [(dict(data=[1.0]), ValueError, "data"),
                            (dict(data="abc"), TypeError, "data"),
                            (dict(data=np.ones((3, 2))), ValueError, "data"),
                            (dict(statistic=5), TypeError, "statistic")]:
        with pytest.raises(kind, match=name):
            BootstrapIntervalFigure(**bad)


def test_gradient_descent_figure_names_the_missing_argument():
    X = np.random.default_rng(0).normal(size=(6, 2))
    with pytest.raises(ValueError, match=r"got X without y \(y=None\)"):
        GradientDescentFigure(X=X)                  # said "got X=None only"
    with pytest.raises(ValueError, match=r"got y without X \(X=None\)"):
        GradientDescentFigure(y=[0, 1, 0, 1, 0, 1])


def test_C9_naming_raises_plain_errors_not_library_subclasses():
    from sklearn.utils._param_validation import InvalidParameterError
    from mlcore._validation import naming
    with pytest.raises(ValueError) as info:
        with naming("scoring"):
            raise InvalidParameterError("The 'scoring' parameter must be a str, got 5.")
    assert type(info.value) is ValueError and "scoring" in str(info.value)
    with pytest.raises(TypeError) as info:
        with naming("y"):
            np.abs(np.array(list("abc")))          # numpy's UFuncTypeError
    assert type(info.value) is TypeError and str(info.value).startswith("y is not valid")


def test_D12_bootstrap_error_names_the_estimator_whose_limit_x_exceeds():
    from sklearn.tree import DecisionTreeClassifier
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2)) * 1e307
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(ValueError, match=r"estimator=DecisionTreeClassifier\(\) could not be "
                                         r"fitted.*X and y.*float32") as info:
        bootstrap_error(DecisionTreeClassifier(), X, y, n_resamples=5, random_state=0)
    assert type(info.value) is ValueError


def test_D3_bootstrap_intervals_and_se_are_scale_equivariant_down_to_tiny_data():
    """Squares of data near 1e-160 underflow: the SE was 0 at 1e-300, BCa raised numpy's
    "Quantiles must be in the range [0, 1]", the studentized interval a false refusal."""
    from mlcore.bootstrap import bootstrap_interval
    data = np.random.default_rng(0).lognormal(size=25)
    ref_se = bootstrap_se(np.mean, data, 200, random_state=0)
    for scale in (2.0 ** -530, 2.0 ** -990):              # about 1e-160 and 1e-298, exact
        assert bootstrap_se(np.mean, data * scale, 200, random_state=0) / scale == \
            pytest.approx(ref_se, rel=1e-12)
        for method in ("BCa", "studentized", "normal"):
            ref = bootstrap_interval(np.mean, data, n_resamples=200, method=method, random_state=0)
            got = bootstrap_interval(np.mean, data * scale, n_resamples=200, method=method,
                                     random_state=0)
            assert (got.low / scale, got.high / scale) == pytest.approx((ref.low, ref.high),
                                                                        rel=1e-9)


def test_C4_figure_constructors_raise_value_error_not_index_error():
    from mlcore.feature_selection import FilterSizeFigure, ForwardSearchFigure
    from sklearn.neighbors import KNeighborsClassifier
    from mlcore.feature_selection import forward_search
    # the report's keywords (feature_names, words) are gone since c982622; the same mistakes
    # in today's API: lengths that do not fit together, named before anything is drawn
    X = np.random.default_rng(1).normal(size=(30, 3))
    search = forward_search(KNeighborsClassifier(3), X, (X[:, 0] > 0).astype(int), cv=2)
    rng = np.random.default_rng(0)
    for build, match in [
            (lambda: ForwardSearchFigure(search, test_scores=[0.5]), "test_scores must hold one"),
            (lambda: ForwardSearchFigure(search, n_features=1), "n_features must be"),
            (lambda: FilterSizeFigure([], [0.8, 0.9, 0.95], [0.2, 0.6, 0.8], rng.random(200),
                                      rng.integers(1, 50, 200)), "ks, accuracy and f1 must"),
            (lambda: FilterSizeFigure([1, 10, 100], [0.8, 0.9, 0.95], [0.2, 0.6, 0.8],
                                      rng.random(200), rng.integers(1, 50, 20)),
             "scores and doc_freq must")]:
        with pytest.raises(ValueError, match=match) as info:
            build()
        assert type(info.value) is ValueError


def test_D14_naming_rewords_sklearn_shape_and_length_messages():
    """The shared layer rewords scikit-learn's two unnamed messages (UX review D14)."""
    from sklearn.utils.validation import check_array as sk_check_array
    from sklearn.utils.validation import check_consistent_length

    from mlcore._validation import naming
    with pytest.raises(ValueError, match=r"^X must be a 2-D array .*, got a single number\. Reshape your data: X\.reshape"):
        with naming("X"):
            sk_check_array(3.0)
    with pytest.raises(ValueError, match=r"^X_val must be a 2-D array .*, got a 1-D array") as info:
        with naming("X_val or y_val"):
            sk_check_array(np.arange(5000.0))
    assert "4999" not in str(info.value)
    with pytest.raises(ValueError, match=r"^X and y must have the same number of samples, got 3 in X and 2 in y\.$"):
        with naming("X or y"):
            check_consistent_length([1, 2, 3], [1, 2])
    # three arrays, or a single name: the library's words are kept, prefixed by the name
    with pytest.raises(ValueError, match=r"^X is not valid: Found input variables with inconsistent"):
        with naming("X"):
            check_consistent_length([1, 2, 3], [1, 2])
