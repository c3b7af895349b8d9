"""Tests of mlcore.bayes against scikit-learn, SciPy and numerical integration."""

import numpy as np
import pytest
from scipy import integrate, stats
from scipy.special import expit
from sklearn.exceptions import ConvergenceWarning
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.linear_model import BayesianRidge, LogisticRegression
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from mlcore.bayes import (BayesianLinearRegression, LaplaceLogisticRegression,
                          MAPLogisticRegression, PriorWidthFigure, polynomial_moons,
                          probit_predictive)
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
    value, _ = integrate.quad(lambda a: expit(a) * stats.norm.pdf(a, mean, sd), mean - 12 * sd,
                              mean + 12 * sd, epsabs=1e-12)
    return value


def test_probit_approximation_is_within_two_hundredths_of_the_exact_integral():
    worst = max(abs(probit_predictive(mu, s**2) - _exact_predictive(mu, s))
                for mu in np.linspace(-8, 8, 33) for s in [0, 0.3, 1, 2, 4, 8, 20])
    assert worst < 0.02


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
    for a, b in zip(ours.predict(X[:7], return_std=True), ridge.predict(X[:7], return_std=True)):
        assert np.allclose(a, b, rtol=1e-8)
    assert np.isclose(ours.log_marginal_likelihood(), ridge.scores_[-1], rtol=1e-8)


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
    with pytest.warns(ConvergenceWarning, match="grows without bound"):
        model = BayesianLinearRegression(fit_evidence=True).fit(X, y)
    assert np.isfinite(model.alpha_) and np.isfinite(model.beta_)


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
    with pytest.raises(ValueError, match="alpha must be finite and > 0"):
        BayesianLinearRegression().fit(X, y).log_marginal_likelihood(alpha=-1.0)


def test_figure_renders_and_shrinks_with_tau():
    figure = PriorWidthFigure(n_samples=40, degree=3)
    assert figure.render(tau=0.01)[:4] == b"\x89PNG"
    small = np.array([bar.get_height() for bar in figure.bars])
    figure.render(tau=100.0)
    large = np.array([bar.get_height() for bar in figure.bars])
    assert np.linalg.norm(small) < np.linalg.norm(large)
