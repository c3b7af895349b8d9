"""Tests of mlcore.bayes against scikit-learn, SciPy and numerical integration."""

import math

import numpy as np
import pytest
from scipy import integrate, stats
from scipy.special import expit
from sklearn.exceptions import ConvergenceWarning
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.linear_model import BayesianRidge, LogisticRegression
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from decimal import Decimal

from sklearn.metrics import log_loss

from mlcore.bayes import (BayesianLinearRegression, LaplaceLogisticRegression,
                          MAPLogisticRegression, PriorWidthFigure, importance_posterior,
                          log_loss_from_logit, polynomial_moons, probit_predictive,
                          tau_averaged_predictive)
from mlcore.linear import logistic_hessian


@parametrize_with_checks([MAPLogisticRegression(), LaplaceLogisticRegression(random_state=0),
                          LaplaceLogisticRegression(predictive="mc", n_draws=200, random_state=0),
                          BayesianLinearRegression(), BayesianLinearRegression(fit_evidence=True)])
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def _data_sets():
    X, y = make_classification(n_samples=120, n_features=5, n_informative=3, random_state=0)
    yield "classification", X, y
    X, y = load_breast_cancer(return_X_y=True)
    yield "breast cancer", StandardScaler().fit_transform(X), y
    _, y, features = polynomial_moons(80)
    yield "moons, 27 polynomial features", features.transform(polynomial_moons(80)[0]), y


@pytest.mark.parametrize("tau", [0.05, 0.5, 3.0, 30.0])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_map_equals_sklearn_with_c_tau_squared(tau, fit_intercept):
    for name, X, y in _data_sets():
        ours = MAPLogisticRegression(tau=tau, fit_intercept=fit_intercept).fit(X, y)
        # Newton-Cholesky: scikit-learn's exact solver (lbfgs stops short on
        # ill-conditioned data); neither penalizes the intercept.
        theirs = LogisticRegression(C=tau**2, solver="newton-cholesky", tol=1e-12, max_iter=1000,
                                    fit_intercept=fit_intercept).fit(X, y)
        assert np.allclose(ours.coef_, theirs.coef_, atol=1e-5, rtol=1e-5), name
        assert np.allclose(ours.intercept_, theirs.intercept_, atol=1e-5, rtol=1e-5), name
        assert np.allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-6), name


def test_map_hessian_is_chapter_one_hessian_plus_prior_precision():
    _, X, y = next(_data_sets())
    tau = 0.7
    model = MAPLogisticRegression(tau=tau).fit(X, y)
    theta = np.r_[model.intercept_, model.coef_[0]]
    expected = len(y) * logistic_hessian(theta, X, y) + np.diag(np.r_[0.0, np.full(5, tau**-2)])
    assert np.allclose(model.hessian_, expected, rtol=1e-10)


def test_smaller_tau_shrinks_the_weights():
    _, X, y = next(_data_sets())
    norms = [np.linalg.norm(MAPLogisticRegression(tau=t).fit(X, y).coef_)
             for t in np.geomspace(0.01, 100, 12)]
    assert np.all(np.diff(norms) > 0)


def _exact_predictive(mean, sd):
    """The 1-D integral of sigmoid(a) N(a | mean, sd^2), by quadrature."""
    if sd == 0:
        return expit(mean)
    lo, hi = mean - 12 * sd, mean + 12 * sd
    # The integrand in plain floats (math), not stats.norm.pdf: quad calls it thousands of
    # times, and a scipy.stats call costs ~50 us where this costs ~1 us.
    scale = 1.0 / (sd * math.sqrt(2.0 * math.pi))

    def integrand(a):
        z = (a - mean) / sd
        logistic = 1.0 / (1.0 + math.exp(-a)) if a >= 0 else math.exp(a) / (1.0 + math.exp(a))
        return logistic * scale * math.exp(-0.5 * z * z)

    value, _ = integrate.quad(integrand, lo, hi, points=[0.0] if lo < 0 < hi else None,
                              epsabs=1e-12, limit=200)
    return value


def test_probit_approximation_is_within_two_hundredths_of_the_exact_integral():
    worst = max(abs(probit_predictive(mu, s**2) - _exact_predictive(mu, s))
                for mu in np.linspace(-8, 8, 33) for s in [0, 0.3, 1, 2, 4, 8, 20, 50])
    assert worst < 0.02


def test_probit_error_bound_of_the_docstring_holds_for_wide_posteriors():
    # The review (finding 8) measured 0.030 at s = 121 with 200-node Gauss-Hermite
    # quadrature, which cannot resolve sigma(mu + s x) once s >> 10. Adaptive quadrature
    # split at the sigmoid's step: the error tends to max_t |Phi(t) - sigma(sqrt(8/pi) t)|
    # = 0.0177 as s -> infinity and stays below 0.018.
    errors = [abs(probit_predictive(mu, s**2) - _exact_predictive(mu, s))
              for s in [60, 100, 121, 200, 500, 1000, 1e4]
              for mu in np.r_[10.0, s * np.linspace(-2.5, 2.5, 51)]]
    assert 0.017 < max(errors) < 0.018
    t = np.linspace(-6, 6, 120_001)
    assert abs(np.abs(stats.norm.cdf(t) - expit(np.sqrt(8 / np.pi) * t)).max() - 0.0177) < 1e-4


def test_monte_carlo_predictive_matches_quadrature_and_probit():
    _, X, y = next(_data_sets())
    model = LaplaceLogisticRegression(tau=1.0, predictive="mc", n_draws=40_000,
                                      random_state=0).fit(X, y)
    points = np.vstack([X[:5], 4 * X[5:8]])
    mean, variance = model.logit_mean_var(points)
    exact = np.array([_exact_predictive(m, np.sqrt(v)) for m, v in zip(mean, variance)])
    mc = model.predict_proba(points)[:, 1]
    se = np.sqrt(exact * (1 - exact) / 40_000) + 1e-4
    assert np.all(np.abs(mc - exact) < 5 * se)
    probit = model.set_params(predictive="probit").predict_proba(points)[:, 1]
    assert np.max(np.abs(probit - exact)) < 0.02


def test_laplace_moderates_predictions_far_from_the_data():
    _, X, y = next(_data_sets())
    laplace = LaplaceLogisticRegression(tau=3.0).fit(X, y)
    far = 10 * X[:20]
    plug_in = MAPLogisticRegression(tau=3.0).fit(X, y).predict_proba(far)[:, 1]
    moderated = laplace.predict_proba(far)[:, 1]
    assert np.all(np.abs(moderated - 0.5) <= np.abs(plug_in - 0.5) + 1e-12)
    assert np.array_equal(moderated > 0.5, plug_in > 0.5)   # probit keeps the sign of the log-odds


def test_laplace_evidence_is_close_to_the_exact_one_dimensional_integral():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(300, 1))
    y = (rng.random(300) < expit(1.5 * x[:, 0])).astype(int)
    tau = 2.0
    model = LaplaceLogisticRegression(tau=tau, fit_intercept=False).fit(x, y)

    def log_joint(t):
        z = t * x[:, 0]
        return np.sum(y * z - np.logaddexp(0, z)) + stats.norm.logpdf(t, 0, tau)

    peak = log_joint(model.coef_[0, 0])
    value, _ = integrate.quad(lambda t: np.exp(log_joint(t) - peak), -10, 10, points=[1.5],
                              epsabs=1e-14)
    assert abs(model.log_marginal_likelihood() - (peak + np.log(value))) < 0.02


def test_bayesian_linear_regression_matches_bayesian_ridge_at_fixed_precisions():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 6))
    y = X @ rng.normal(size=6) + 3.0 + rng.normal(scale=0.7, size=40)
    ridge = BayesianRidge(compute_score=True, alpha_1=0, alpha_2=0, lambda_1=0, lambda_2=0,
                          tol=1e-14, max_iter=2000).fit(X, y)
    ours = BayesianLinearRegression(alpha=ridge.lambda_, beta=ridge.alpha_).fit(X, y)
    assert np.allclose(ours.coef_, ridge.coef_, rtol=1e-8)
    assert np.isclose(ours.intercept_, ridge.intercept_, rtol=1e-8)
    assert np.allclose(ours.sigma_, ridge.sigma_, rtol=1e-8)
    (mean, std), (ridge_mean, ridge_std) = (ours.predict(X[:7], return_std=True),
                                            ridge.predict(X[:7], return_std=True))
    assert np.allclose(mean, ridge_mean, rtol=1e-8)
    # BayesianRidge leaves out the intercept's posterior variance 1/(m beta).
    assert np.allclose(std**2, ridge_std**2 + 1 / (40 * ridge.alpha_), rtol=1e-8)
    assert np.isclose(ours.log_marginal_likelihood(), ridge.scores_[-1], rtol=1e-8)


def test_predictive_variance_includes_the_intercepts_posterior_variance():
    # Reference: the exact posterior of (b, w) with prior precision diag(1e-12, alpha I),
    # an (almost) flat prior on the intercept, computed directly.
    rng = np.random.default_rng(5)
    X = rng.normal(size=(30, 3)) + 2.0
    y = X @ [0.5, -1.0, 0.3] + 1.0 + rng.normal(scale=0.4, size=30)
    alpha, beta = 0.8, 6.0
    model = BayesianLinearRegression(alpha, beta).fit(X, y)
    X1 = np.column_stack([np.ones(30), X])
    precision = np.diag([1e-12, alpha, alpha, alpha]) + beta * X1.T @ X1
    cov = np.linalg.inv(precision)
    theta = beta * cov @ X1.T @ y
    new = np.column_stack([np.ones(5), rng.normal(size=(5, 3)) * 3])
    mean, std = model.predict(new[:, 1:], return_std=True)
    assert np.allclose(mean, new @ theta, rtol=1e-8)
    assert np.allclose(std**2, 1 / beta + np.einsum("ij,jk,ik->i", new, cov, new), rtol=1e-8)
    assert np.isclose(model.intercept_var_, 1 / (30 * beta))


def test_posterior_mean_is_accurate_on_an_ill_conditioned_design():
    # cond(X) ~ 1.5e10: an eigendecomposition of X^T X (cond ~ 1e20) loses the
    # weights at a weak prior (relative error 0.24 at alpha = 1e-8); the SVD of X does not.
    rng = np.random.default_rng(2026)
    rng.normal(size=20), rng.normal(size=20)
    X = rng.normal(size=(50, 4))
    X = np.column_stack([X, X[:, 0] + 1e-7 * rng.normal(size=50)]) * np.array([1, 1e3, 1e-3, 1, 1])
    y = X[:, 0] - X[:, 1] / 1e3 + rng.normal(size=50)
    Xc, yc = X - X.mean(0), y - y.mean()
    assert 1e10 < np.linalg.cond(Xc) < 1e11
    for alpha in [1e-8, 1e-6, 1e-4]:
        augmented = np.vstack([Xc, np.sqrt(alpha) * np.eye(5)])
        exact = np.linalg.lstsq(augmented, np.r_[yc, np.zeros(5)], rcond=None)[0]
        coef = BayesianLinearRegression(alpha, 1.0).fit(X, y).coef_
        assert np.abs(coef - exact).max() / np.abs(exact).max() < 1e-7, alpha


@pytest.mark.parametrize("n_samples, n_features", [(60, 3), (25, 10), (14, 12)])
def test_evidence_maximization_matches_bayesian_ridge(n_samples, n_features):
    rng = np.random.default_rng(n_features)
    X = rng.normal(size=(n_samples, n_features))
    y = X @ rng.normal(size=n_features) + rng.normal(scale=0.5, size=n_samples)
    ridge = BayesianRidge(alpha_1=0, alpha_2=0, lambda_1=0, lambda_2=0, tol=1e-14,
                          max_iter=5000).fit(X, y)
    ours = BayesianLinearRegression(alpha=1.0, beta=1 / np.var(y), fit_evidence=True,
                                    max_iter=5000, tol=1e-13).fit(X, y)
    assert np.isclose(ours.alpha_, ridge.lambda_, rtol=1e-5)
    assert np.isclose(ours.beta_, ridge.alpha_, rtol=1e-5)
    assert np.allclose(ours.coef_, ridge.coef_, rtol=1e-5, atol=1e-8)


def test_evidence_maximization_warns_when_the_data_are_fitted_exactly():
    rng = np.random.default_rng(20)
    X = rng.normal(size=(8, 20))
    y = X @ rng.normal(size=20)
    with pytest.warns(ConvergenceWarning, match="fits y exactly"):
        model = BayesianLinearRegression(fit_evidence=True).fit(X, y)
    assert np.isfinite(model.alpha_) and np.isfinite(model.beta_)


def test_evidence_maximization_warns_when_it_does_not_converge():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 3))
    y = X @ [1.0, -1.0, 0.5] + rng.normal(scale=0.5, size=40)
    with pytest.warns(ConvergenceWarning, match="did not converge in max_iter=3"):
        BayesianLinearRegression(fit_evidence=True, max_iter=3).fit(X, y)
    noise = np.random.default_rng(7).normal(size=40)
    X1 = np.column_stack([np.ones(40), X])
    unrelated = noise - X1 @ np.linalg.lstsq(X1, noise, rcond=None)[0]   # X^T y = 0
    with pytest.warns(ConvergenceWarning, match="alpha -> infinity"):
        model = BayesianLinearRegression(fit_evidence=True, max_iter=5000).fit(X, unrelated)
    assert model.n_iter_ < 5000
    with pytest.warns(ConvergenceWarning, match="y is constant"):
        BayesianLinearRegression(fit_evidence=True).fit(X, np.full(40, 3.0))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        BayesianLinearRegression(fit_evidence=True).fit(X, y)          # converges: no warning


def test_map_warns_when_newton_does_not_converge():
    _, X, y = next(_data_sets())
    with pytest.warns(ConvergenceWarning, match="did not converge in max_iter=1"):
        MAPLogisticRegression(tau=3.0, max_iter=1).fit(X, y)


def test_effective_dof_is_the_trace_of_the_hat_matrix_and_the_fixed_points_gamma():
    rng = np.random.default_rng(11)
    for m, n in [(30, 4), (8, 12)]:
        X = rng.normal(size=(m, n)) * np.linspace(0.2, 3, n)
        y = X @ rng.normal(size=n) + rng.normal(size=m)
        alpha, beta = 0.7, 2.0
        model = BayesianLinearRegression(alpha, beta).fit(X, y)
        Xc = X - X.mean(0)
        hat = Xc @ np.linalg.solve(Xc.T @ Xc + alpha / beta * np.eye(n), Xc.T)
        assert np.isclose(model.effective_dof(), np.trace(hat), rtol=1e-10)
        eig = np.linalg.eigvalsh(Xc.T @ Xc)[::-1][:min(m - 1, n)]
        assert np.allclose(np.sort(model.shrinkage_factors())[::-1][:eig.size],
                           beta * eig / (alpha + beta * eig), rtol=1e-8)
    X = rng.normal(size=(50, 4))
    y = X @ [1.0, 0.5, 0.0, -1.0] + rng.normal(scale=0.5, size=50)
    fitted = BayesianLinearRegression(fit_evidence=True, tol=1e-14, max_iter=2000).fit(X, y)
    assert np.isclose(fitted.alpha_, fitted.effective_dof() / np.sum(fitted.coef_**2), rtol=1e-8)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_closed_form_loo_equals_refitting_without_each_point(fit_intercept):
    rng = np.random.default_rng(12)
    X = rng.normal(size=(25, 4))
    y = X @ [1.0, -0.5, 0.0, 2.0] + 0.7 + rng.normal(scale=0.6, size=25)
    model = BayesianLinearRegression(1.5, 3.0, fit_intercept=fit_intercept).fit(X, y)
    errors = []
    for i in range(25):
        keep = np.arange(25) != i
        refit = BayesianLinearRegression(1.5, 3.0, fit_intercept=fit_intercept).fit(X[keep], y[keep])
        errors.append((y[i] - refit.predict(X[i:i + 1])[0]) ** 2)
    assert np.isclose(model.loo_squared_error(), np.mean(errors), rtol=1e-10)
    assert np.isclose(model.loo_squared_error(3.0, 6.0), model.loo_squared_error(), rtol=1e-12)
    if fit_intercept:   # scikit-learn's efficient leave-one-out of RidgeCV, lambda = alpha / beta
        from sklearn.linear_model import RidgeCV
        ridge = RidgeCV(alphas=[0.5], store_cv_results=True).fit(X, y)
        assert np.isclose(model.loo_squared_error(), ridge.cv_results_.mean(), rtol=1e-8)


def test_evidence_is_the_gaussian_marginal_density_and_is_maximized_by_the_fit():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 4))
    y = X @ [1.0, 0.0, -1.0, 0.5] + rng.normal(scale=0.8, size=30)
    alpha, beta = 2.0, 1.5
    model = BayesianLinearRegression(alpha, beta, fit_intercept=False).fit(X, y)
    direct = stats.multivariate_normal(np.zeros(30), np.eye(30) / beta + X @ X.T / alpha).logpdf(y)
    assert np.isclose(model.log_marginal_likelihood(), direct, rtol=1e-10)
    fitted = BayesianLinearRegression(alpha, beta, fit_evidence=True, fit_intercept=False).fit(X, y)
    grid_a, grid_b = np.meshgrid(np.geomspace(0.01, 100, 60), np.geomspace(0.01, 100, 60))
    assert fitted.log_marginal_likelihood() >= model.log_marginal_likelihood(grid_a, grid_b).max()


def test_posterior_covariance_is_the_inverse_precision():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(20, 3))
    y = rng.normal(size=20)
    model = BayesianLinearRegression(0.5, 4.0, fit_intercept=False).fit(X, y)
    precision = 0.5 * np.eye(3) + 4.0 * X.T @ X
    assert np.allclose(model.sigma_ @ precision, np.eye(3), atol=1e-10)
    assert np.allclose(model.coef_, 4.0 * np.linalg.solve(precision, X.T @ y))


@pytest.mark.parametrize("estimator, message", [
    (MAPLogisticRegression(tau=0), "tau must be > 0, got tau=0"),
    (MAPLogisticRegression(tau=-1.0), "tau must be > 0"),
    (MAPLogisticRegression(tau="1"), "tau must be a real number"),
    (LaplaceLogisticRegression(predictive="exact"), "predictive must be one of"),
    (LaplaceLogisticRegression(n_draws=0), "n_draws must be an integer >= 1"),
    (BayesianLinearRegression(alpha=0), "alpha must be > 0"),
    (BayesianLinearRegression(beta=np.inf), "beta must be finite"),
    (BayesianLinearRegression(fit_evidence="yes"), "fit_evidence must be True or False"),
])
def test_bad_parameters_name_the_parameter(estimator, message):
    X, y = make_classification(n_samples=30, n_features=3, n_redundant=0, random_state=0)
    with pytest.raises((ValueError, TypeError), match=message):
        estimator.fit(X, y)


def test_bad_data_are_clear_errors():
    X, y = make_classification(n_samples=30, n_features=3, n_redundant=0, random_state=0)
    with pytest.raises(ValueError, match="only one class"):
        MAPLogisticRegression().fit(X, np.zeros(30))
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        LaplaceLogisticRegression().fit(X_nan, y)
    with pytest.raises(ValueError, match="same number of samples"):
        MAPLogisticRegression().fit(X, y[:-1])
    with pytest.raises(ValueError, match="variance must be >= 0"):
        probit_predictive(0.0, -1.0)
    with pytest.raises(TypeError, match="y must hold real numbers"):
        BayesianLinearRegression().fit(X[:6], np.array(list("abcabc")))
    with pytest.raises(TypeError, match="X must hold real numbers"):
        BayesianLinearRegression().fit(X.astype(str), y)
    with pytest.raises(ValueError, match="alpha must be finite and > 0"):
        BayesianLinearRegression().fit(X, y).log_marginal_likelihood(alpha=-1.0)


def test_figure_draws_the_levels_where_the_two_predictives_differ():
    figure = PriorWidthFigure(n_samples=40, degree=3)
    figure.render(tau=10.0)
    assert len(figure._contours) == 3
    assert figure.spread.norm.vmax >= 1e5 and figure.ax_coef.get_ylim()[0] <= 1e-4


def test_figure_renders_and_shrinks_with_tau():
    figure = PriorWidthFigure(n_samples=40, degree=3)
    assert figure.render(tau=0.01)[:4] == b"\x89PNG"
    small = np.array([bar.get_height() for bar in figure.bars])
    figure.render(tau=100.0)
    large = np.array([bar.get_height() for bar in figure.bars])
    assert np.linalg.norm(small) < np.linalg.norm(large)


@pytest.mark.parametrize("mean, variance, name", [
    ("2.0", 1.0, "mean"), (True, 1.0, "mean"), (Decimal("1"), 1.0, "mean"),
    (0.0, "1", "variance"), (0.0, [False], "variance"), (["a", "b"], 1.0, "mean"),
    (0.0, np.array([Decimal("1")], dtype=object), "variance")])
def test_probit_predictive_refuses_non_numbers_and_names_the_argument(mean, variance, name):
    with pytest.raises(TypeError, match=name):
        probit_predictive(mean, variance)


def test_polynomial_moons_refuses_noise_whose_monomials_overflow():
    for noise in [1e200, 1e60]:
        with pytest.raises(ValueError, match="noise"):
            polynomial_moons(40, degree=3, noise=noise)
    assert np.all(np.isfinite(polynomial_moons(40, degree=3, noise=1e20)[2].transform(
        polynomial_moons(40, degree=3, noise=1e20)[0])))


def test_laplace_predict_proba_has_limits_for_huge_inputs():
    X, y, features = polynomial_moons(40, degree=3)
    Z = features.transform(X)
    model = LaplaceLogisticRegression().fit(Z, y)
    limit = model.predict_proba(Z[:2] * 1e150)
    for factor in [1e160, 1e300]:
        assert np.allclose(model.predict_proba(Z[:2] * factor), limit, rtol=1e-10)
    with pytest.raises(ValueError, match="X is too large"):
        model.logit_mean_var(Z[:2] * 1e160)


def test_log_losses_are_computed_from_log_odds_without_clipping():
    X, y, features = polynomial_moons(80)
    Z = features.transform(X)
    X_test, y_test = make_moons_test()
    Z_test = features.transform(X_test)
    plug_in = MAPLogisticRegression(tau=100.0).fit(Z, y)
    z = plug_in.decision_function(Z_test)
    assert np.any(np.abs(z) > 40)                           # probabilities that round to 0 or 1
    exact = np.logaddexp(0, z) - y_test * z
    assert np.allclose(log_loss_from_logit(y_test, z), exact)
    log_proba = plug_in.predict_log_proba(Z_test)
    assert np.allclose(-log_proba[np.arange(y_test.size), y_test], exact, rtol=1e-12)
    assert exact.max() > 40                                  # a clip at 1e-15 would cap it at 34.5
    for predictive in ["probit", "mc"]:
        laplace = LaplaceLogisticRegression(tau=1e4, predictive=predictive, n_draws=500,
                                            random_state=0).fit(Z, y)
        a = laplace.decision_function(Z_test)
        p = laplace.predict_proba(Z_test)[:, 1]
        assert np.allclose(expit(a), p, rtol=1e-12, atol=0)
        lp = laplace.predict_log_proba(Z_test)
        assert np.allclose(np.exp(lp), laplace.predict_proba(Z_test), rtol=1e-10, atol=1e-300)
    mean, var = LaplaceLogisticRegression(tau=1e4).fit(Z, y).logit_mean_var(Z_test)
    assert np.allclose(LaplaceLogisticRegression(tau=1e4).fit(Z, y).decision_function(Z_test),
                       mean / np.sqrt(1 + np.pi * var / 8), rtol=1e-10)
    moderate = np.abs(z) < 10
    assert np.isclose(log_loss_from_logit(y_test[moderate], z[moderate]).mean(),
                      log_loss(y_test[moderate], expit(z[moderate])), rtol=1e-9)
    with pytest.raises(ValueError, match="y_true must hold labels 0 and 1"):
        log_loss_from_logit([0, 2], [0.0, 1.0])


def make_moons_test():
    from sklearn.datasets import make_moons
    return make_moons(n_samples=2000, noise=0.3, random_state=1)


def _one_dimensional_problem():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(300, 1))
    y = (rng.random(300) < expit(1.5 * x[:, 0])).astype(int)
    return x, y


def test_importance_posterior_matches_quadrature_in_one_dimension():
    x, y = _one_dimensional_problem()
    tau = 2.0

    def log_joint(t):
        z = t * x[:, 0]
        return np.sum(y * z - np.logaddexp(0, z)) + stats.norm.logpdf(t, 0, tau)

    peak = log_joint(1.5)
    norm, _ = integrate.quad(lambda t: np.exp(log_joint(t) - peak), -10, 10, points=[1.5],
                             epsabs=1e-14)
    exact = importance_posterior(x, y, tau, n_draws=20_000, fit_intercept=False, random_state=0)
    assert exact.ess > 15_000
    assert abs(exact.log_evidence - (peak + np.log(norm))) < 5 * exact.log_evidence_se + 1e-4
    new = np.array([[0.5], [3.0], [-8.0]])
    for point, got in zip(new[:, 0], exact.predict_proba(new)[:, 1]):
        want, _ = integrate.quad(lambda t: expit(t * point) * np.exp(log_joint(t) - peak),
                                 -10, 10, points=[1.5], epsabs=1e-14)
        assert abs(got - want / norm) < 2e-3


def test_importance_posterior_with_an_intercept_matches_a_two_dimensional_grid():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(40, 1))
    y = (rng.random(40) < expit(0.5 + 2 * x[:, 0])).astype(int)
    tau = 1.5
    b, w = np.meshgrid(np.linspace(-4, 5, 601), np.linspace(-3, 8, 601), indexing="ij")
    z = b[..., None] + w[..., None] * x[:, 0]
    log_joint = (np.sum(y * z - np.logaddexp(0, z), axis=-1) + stats.norm.logpdf(w, 0, tau))
    cell = (b[1, 0] - b[0, 0]) * (w[0, 1] - w[0, 0])
    peak = log_joint.max()
    grid_evidence = peak + np.log(np.exp(log_joint - peak).sum() * cell)
    exact = importance_posterior(x, y, tau, n_draws=20_000, random_state=1)
    assert abs(exact.log_evidence - grid_evidence) < 5 * exact.log_evidence_se + 1e-3
    post = np.exp(log_joint - peak)
    post /= post.sum()
    want = np.sum(post * expit(b + 2.5 * w))
    assert abs(exact.predict_proba([[2.5]])[0, 1] - want) < 3e-3


def test_tau_averaged_predictive_weights_by_the_evidence():
    _, X, y = next(_data_sets())
    taus = [0.1, 1.0, 10.0]
    p, weights = tau_averaged_predictive(X, y, X[:10], taus)
    fits = [LaplaceLogisticRegression(tau=t).fit(X, y) for t in taus]
    log_ev = np.array([f.log_marginal_likelihood() for f in fits])
    want_w = np.exp(log_ev - log_ev.max()) / np.exp(log_ev - log_ev.max()).sum()
    assert np.allclose(weights, want_w, rtol=1e-10)
    assert np.allclose(p, sum(wk * f.predict_proba(X[:10])[:, 1] for wk, f in zip(want_w, fits)))
    single, w1 = tau_averaged_predictive(X, y, X[:10], [1.0], predictive="plug-in")
    assert np.allclose(single, MAPLogisticRegression(tau=1.0).fit(X, y).predict_proba(X[:10])[:, 1])
    assert np.allclose(w1, 1.0)
    with pytest.raises(ValueError, match="taus must all be > 0"):
        tau_averaged_predictive(X, y, X[:2], [0.0, 1.0])


def test_prediction_errors_name_x():
    X, y = make_classification(n_samples=30, n_features=3, n_redundant=0, random_state=0)
    for model in [MAPLogisticRegression().fit(X, y), LaplaceLogisticRegression().fit(X, y)]:
        for method in [model.decision_function, model.predict_proba, model.predict]:
            with pytest.raises(ValueError, match="^X must be a 2-D array of shape"):
                method(X[:, 0])
    with pytest.raises(ValueError, match="^X must be a 2-D array of shape"):
        BayesianLinearRegression().fit(X, y).predict(X[:, 0])
