"""Tests of mlcore.linear against SciPy and scikit-learn."""

import warnings

import numpy as np
import pytest
from scipy.optimize import approx_fprime, check_grad
from scipy.special import expit
from scipy.special import logit as scipy_logit
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from mlcore.linear import (
    GradientDescentFigure,
    LogisticRegressionGD,
    _boundary_points,
    cross_entropy,
    gradient_descent_path,
    logistic_gradient,
    logistic_hessian,
    logistic_loss,
    logit,
    sample_logistic_data,
    sigmoid,
    softmax,
    softmax_gradient,
    softmax_loss,
)

THETA = np.array([-0.5, 2.0, -1.0])


@pytest.fixture(scope="module")
def data():
    return sample_logistic_data(THETA, 400, random_state=1)


@pytest.fixture(scope="module")
def reference(data):
    X, y = data
    return LogisticRegression(C=np.inf, tol=1e-12, max_iter=10_000).fit(X, y)


# -- sigmoid, logit, cross-entropy -------------------------------------------------
def test_sigmoid_matches_scipy_expit_without_overflow():
    z = np.concatenate([np.linspace(-50, 50, 1001), [-1000.0, -745.0, 709.0, 1000.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = sigmoid(z)
    np.testing.assert_allclose(ours, expit(z), rtol=1e-14, atol=1e-300)
    assert isinstance(sigmoid(0.3), float)
    assert sigmoid(np.zeros((2, 3))).shape == (2, 3)


def test_sigmoid_symmetry_and_derivative():
    z = np.linspace(-8, 8, 41)
    np.testing.assert_allclose(sigmoid(-z), 1 - sigmoid(z), atol=1e-15)
    h = 1e-6
    numeric = (sigmoid(z + h) - sigmoid(z - h)) / (2 * h)
    np.testing.assert_allclose(numeric, sigmoid(z) * (1 - sigmoid(z)), atol=1e-9)


def test_logit_matches_scipy_and_inverts_sigmoid():
    p = np.linspace(0.001, 0.999, 99)
    np.testing.assert_allclose(logit(p), scipy_logit(p), rtol=1e-12)
    np.testing.assert_allclose(sigmoid(logit(p)), p, rtol=1e-12)
    assert logit(0.0) == -np.inf and logit(1.0) == np.inf
    with pytest.raises(ValueError, match=r"p must hold probabilities in \[0, 1\], got a value of -0.1"):
        logit([0.5, -0.1])


def test_cross_entropy_matches_sklearn_log_loss():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 50)
    p = rng.random(50)
    p[:3] = [0.0, 1.0, 0.5]  # exercises the clipping at machine epsilon
    assert cross_entropy(y, p) == pytest.approx(log_loss(y, p, labels=[0, 1]), rel=1e-12)


@pytest.mark.parametrize("y_true, y_prob, message", [
    ([0, 2], [0.5, 0.5], "y_true must hold labels 0 and 1 only"),
    ([0, 1], [0.5, 1.5], r"y_prob must hold probabilities in \[0, 1\]"),
    ([0, 1, 1], [0.5, 0.5], "y_prob must have the shape of y_true"),
])
def test_cross_entropy_rejects_bad_input(y_true, y_prob, message):
    with pytest.raises(ValueError, match=message):
        cross_entropy(y_true, y_prob)


# -- loss, gradient, Hessian ----------------------------------------------------
def test_logistic_loss_equals_log_loss_of_the_model(data):
    X, y = data
    theta = np.array([0.3, -1.0, 0.5])
    p = expit(theta[0] + X @ theta[1:])
    assert logistic_loss(theta, X, y) == pytest.approx(log_loss(y, p), rel=1e-12)
    # exact where the probability form saturates: z = +-800 for wrong labels
    assert logistic_loss([800.0], np.zeros((1, 0)), [0]) == pytest.approx(800.0)


def test_gradient_matches_finite_differences(data):
    X, y = data
    for theta in (np.zeros(3), THETA, np.array([2.0, -3.0, 1.0])):
        error = check_grad(logistic_loss, logistic_gradient, theta, X, y)
        assert error < 1e-6, f"gradient off by {error:.2e} at theta={theta}"


def test_hessian_matches_finite_differences_and_is_psd(data):
    X, y = data
    theta = np.array([0.2, 1.0, -0.7])
    numeric = np.array([approx_fprime(theta, lambda t: logistic_gradient(t, X, y)[j], 1e-6)
                        for j in range(3)])
    H = logistic_hessian(theta, X, y)
    np.testing.assert_allclose(H, numeric, atol=1e-6)
    np.testing.assert_allclose(H, H.T)
    assert np.linalg.eigvalsh(H).min() > 0  # full column rank: strictly convex


def test_gradient_vanishes_at_the_sklearn_optimum(data, reference):
    X, y = data
    theta_hat = np.r_[reference.intercept_, reference.coef_[0]]
    assert np.linalg.norm(logistic_gradient(theta_hat, X, y)) < 1e-8


@pytest.mark.parametrize("theta, message", [
    ([0.0, 1.0], r"theta must have shape \(3,\)"),
    ([0.0, 1.0, np.nan], "theta must be finite"),
])
def test_loss_checks_theta(data, theta, message):
    X, y = data
    for function in (logistic_loss, logistic_gradient, logistic_hessian):
        with pytest.raises(ValueError, match=message):
            function(theta, X, y)


# -- gradient descent -------------------------------------------------------------
def test_gradient_descent_path_takes_the_steps_it_claims(data):
    X, y = data
    thetas, losses = gradient_descent_path(X, y, 0.7, 5)
    assert thetas.shape == (6, 3) and losses.shape == (6,)
    theta = np.zeros(3)
    for t in range(6):
        np.testing.assert_allclose(thetas[t], theta, atol=1e-14)
        assert losses[t] == pytest.approx(logistic_loss(theta, X, y), rel=1e-14)
        theta = theta - 0.7 * logistic_gradient(theta, X, y)
    start = np.array([1.0, 1.0, 1.0])
    np.testing.assert_array_equal(gradient_descent_path(X, y, 0.1, 0, theta0=start)[0], [start])


def test_descent_is_monotone_below_two_over_L_and_not_far_above(data):
    X, y = data
    X1 = np.column_stack([np.ones(len(X)), X])
    L = np.linalg.eigvalsh(X1.T @ X1).max() / (4 * len(X))
    _, losses = gradient_descent_path(X, y, 1.0 / L, 300)
    assert np.all(np.diff(losses) <= 1e-15)
    _, losses = gradient_descent_path(X, y, 30.0 / L, 300)
    assert np.any(np.diff(losses) > 0), "a step 30 times too large should overshoot"


@pytest.mark.parametrize("kwargs, error, message", [
    ({"learning_rate": 0.0}, ValueError, "learning_rate must be > 0, got learning_rate=0.0"),
    ({"learning_rate": "big"}, TypeError, "learning_rate must be a real number"),
    ({"n_iter": -1}, ValueError, "n_iter must be an integer >= 0, got n_iter=-1"),
])
def test_gradient_descent_path_checks_parameters(data, kwargs, error, message):
    X, y = data
    with pytest.raises(error, match=message):
        gradient_descent_path(X, y, **{"learning_rate": 0.1, "n_iter": 3, **kwargs})


def test_sample_logistic_data_is_seeded_and_follows_the_model():
    X1, y1 = sample_logistic_data(THETA, 50, random_state=3)
    X2, y2 = sample_logistic_data(THETA, 50, random_state=3)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    X, y = sample_logistic_data(THETA, 40_000, random_state=0)
    fit = LogisticRegression(C=np.inf, tol=1e-10, max_iter=1000).fit(X, y)
    np.testing.assert_allclose(np.r_[fit.intercept_, fit.coef_[0]], THETA, atol=0.1)
    with pytest.raises(ValueError, match="n_samples must be an integer >= 1"):
        sample_logistic_data(THETA, 0)


# -- the estimator ------------------------------------------------------------
@parametrize_with_checks([LogisticRegressionGD()])
def test_sklearn_compatible_estimator(estimator, check):
    with warnings.catch_warnings():
        # Several checks fit separable blobs, whose unpenalized optimum is at
        # infinity: the warning is correct there and not what they test.
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


def test_matches_sklearn_unpenalized_logistic_regression(data, reference):
    X, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = LogisticRegressionGD().fit(X, y)
    np.testing.assert_allclose(model.coef_, reference.coef_, atol=1e-4)
    np.testing.assert_allclose(model.intercept_, reference.intercept_, atol=1e-4)
    np.testing.assert_allclose(model.predict_proba(X), reference.predict_proba(X), atol=1e-5)
    np.testing.assert_array_equal(model.predict(X), reference.predict(X))
    assert model.loss_curve_.shape == (model.n_iter_ + 1,)
    assert np.all(np.diff(model.loss_curve_) <= 1e-15), "the auto step must never go uphill"
    assert model.loss_curve_[-1] == pytest.approx(log_loss(y, reference.predict_proba(X)), abs=1e-9)


def test_any_two_labels_and_a_fixed_learning_rate(data, reference):
    X, y = data
    words = np.where(y == 1, "pass", "fail")
    model = LogisticRegressionGD(learning_rate=2.0, max_iter=5000).fit(X, words)
    assert list(model.classes_) == ["fail", "pass"]
    np.testing.assert_allclose(model.coef_, reference.coef_, atol=1e-4)
    assert set(model.predict(X)) <= {"fail", "pass"}
    signs = np.where(y == 1, 1, -1)
    flipped = LogisticRegressionGD().fit(X, -signs)  # classes_ = [-1, 1], positive = "fail"
    np.testing.assert_allclose(flipped.coef_, -reference.coef_, atol=1e-4)


def test_works_inside_a_pipeline_and_cross_val_score(data):
    X, y = data
    pipe = make_pipeline(StandardScaler(), LogisticRegressionGD())
    ours = cross_val_score(pipe, X, y, cv=5)
    theirs = cross_val_score(make_pipeline(StandardScaler(), LogisticRegression(C=np.inf)), X, y, cv=5)
    np.testing.assert_allclose(ours, theirs, atol=1e-12)


@pytest.mark.parametrize("params, X_change, y_change, message", [
    ({"learning_rate": 0}, None, None, "learning_rate must be 'auto' or a real number > 0, got learning_rate=0.0"),
    ({"learning_rate": -0.1}, None, None, "learning_rate must be 'auto' or a real number > 0"),
    ({"max_iter": 0}, None, None, "max_iter must be an integer >= 1, got max_iter=0"),
    ({"tol": -1.0}, None, None, "tol must be >= 0, got tol=-1.0"),
    ({}, "nan", None, "Input X contains NaN"),
    ({}, "inf", None, "Input X contains infinity"),
    ({}, None, "one", r"y has only one class \(label 1\)"),
    ({}, None, "three", "Only binary classification is supported.*3 classes"),
    ({}, None, "short", "X and y must have the same number of samples, got 400 rows in X and 399"),
])
def test_bad_input_names_the_parameter(data, params, X_change, y_change, message):
    X, y = data
    X, y = X.copy(), y.copy()
    if X_change == "nan":
        X[3, 1] = np.nan
    elif X_change == "inf":
        X[3, 1] = np.inf
    if y_change == "one":
        y[:] = 1
    elif y_change == "three":
        y[:10] = 2
    elif y_change == "short":
        y = y[:-1]
    with pytest.raises(ValueError, match=message):
        LogisticRegressionGD(**params).fit(X, y)


def test_not_converging_warns(data):
    X, y = data
    with pytest.warns(ConvergenceWarning, match="did not converge in max_iter=3 steps"):
        model = LogisticRegressionGD(max_iter=3).fit(X, y)
    assert model.n_iter_ == 3 and model.loss_curve_.shape == (4,)
    separable = np.array([[-2.0], [-1.0], [1.0], [2.0]])
    with pytest.warns(ConvergenceWarning, match="separable"):
        LogisticRegressionGD().fit(separable, [0, 0, 1, 1])


# -- the interactive figure ---------------------------------------------------------
def test_boundary_points_lie_on_the_boundary():
    for theta in ([0.5, 1.0, 2.0], [0.5, 3.0, -0.1], [-1.0, 0.0, 1.0]):
        x1, x2 = _boundary_points(theta, (-3, 3), (-2, 2))
        assert x1.shape == (2,)
        np.testing.assert_allclose(theta[0] + theta[1] * x1 + theta[2] * x2, 0, atol=1e-12)
    assert _boundary_points([1.0, 0.0, 0.0], (-3, 3), (-2, 2))[0].size == 0


def test_figure_shows_the_path_it_computes():
    figure = GradientDescentFigure()
    figure.update(learning_rate=4.0, n_iter=60)
    thetas, _ = gradient_descent_path(figure.X, figure.y, 4.0, 60)
    x1, x2 = figure.boundary.get_data()
    np.testing.assert_allclose(np.c_[np.ones(2), x1, x2] @ thetas[-1], 0, atol=1e-10)
    assert len(figure.gap_line.get_xdata()) == 61
    with pytest.raises(ValueError, match="exactly two features"):
        GradientDescentFigure(np.zeros((5, 3)), [0, 1, 0, 1, 0])


# -- softmax (multinomial logistic regression) -------------------------------------------
@pytest.fixture(scope="module")
def three_classes():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((240, 2))
    Theta = np.array([[0.0, 2.0, 0.0], [0.5, -1.0, 1.5], [-0.5, -1.0, -1.5]])
    P = softmax(np.column_stack([np.ones(240), X]) @ Theta.T)
    y = (rng.random(240)[:, None] > P.cumsum(axis=1)).sum(axis=1)
    return X, y


def test_softmax_matches_scipy_and_never_overflows():
    from scipy.special import softmax as scipy_softmax
    Z = np.random.default_rng(0).normal(scale=5, size=(20, 4))
    np.testing.assert_allclose(softmax(Z), scipy_softmax(Z, axis=1), rtol=1e-13)
    np.testing.assert_allclose(softmax(Z[0]), scipy_softmax(Z[0]), rtol=1e-13)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        big = softmax([[1000.0, 0.0, -1000.0]])
    np.testing.assert_allclose(big, [[1.0, 0.0, 0.0]], atol=1e-300)
    np.testing.assert_allclose(softmax(Z).sum(axis=1), 1.0)


def test_softmax_loss_matches_sklearn_log_loss(three_classes):
    X, y = three_classes
    Theta = np.random.default_rng(1).normal(size=(3, 3))
    P = softmax(np.column_stack([np.ones(len(X)), X]) @ Theta.T)
    assert softmax_loss(Theta, X, y) == pytest.approx(log_loss(y, P), rel=1e-10)
    assert softmax_loss(np.zeros((3, 3)), X, y) == pytest.approx(np.log(3), rel=1e-12)


def test_softmax_gradient_matches_finite_differences(three_classes):
    X, y = three_classes
    rng = np.random.default_rng(2)
    for _ in range(5):
        v = rng.normal(size=9)
        err = check_grad(lambda w: softmax_loss(w.reshape(3, 3), X, y),
                         lambda w: softmax_gradient(w.reshape(3, 3), X, y).ravel(), v)
        assert err < 1e-6


def test_softmax_gradient_vanishes_at_sklearn_multinomial_fit(three_classes):
    X, y = three_classes
    sk = LogisticRegression(C=np.inf, tol=1e-12, max_iter=10_000).fit(X, y)
    Theta = np.column_stack([sk.intercept_, sk.coef_])
    assert np.abs(softmax_gradient(Theta, X, y)).max() < 1e-6
    np.testing.assert_allclose(softmax(np.column_stack([np.ones(len(X)), X]) @ Theta.T),
                               sk.predict_proba(X), atol=1e-12)
    # gradient descent from 0 reaches scikit-learn's (sum-zero) coefficients
    X1 = np.column_stack([np.ones(len(X)), X])
    L = np.linalg.eigvalsh(X1.T @ X1).max() / (2 * len(X))
    ours = np.zeros((3, 3))
    for _ in range(2000):
        ours -= softmax_gradient(ours, X, y) / L
    np.testing.assert_allclose(ours, Theta, atol=1e-6)


def test_two_class_softmax_is_logistic_regression(data):
    X, y = data
    Theta = np.array([[0.3, -0.2, 0.5], [-0.4, 1.1, -0.6]])
    theta = Theta[1] - Theta[0]
    assert softmax_loss(Theta, X, y) == pytest.approx(logistic_loss(theta, X, y), rel=1e-12)
    G = softmax_gradient(Theta, X, y)
    np.testing.assert_allclose(G[1], logistic_gradient(theta, X, y), atol=1e-14)
    np.testing.assert_allclose(G[0], -G[1], atol=1e-14)


@pytest.mark.parametrize("call, match", [
    (lambda: softmax([[np.nan, 0.0]]), "Z must hold finite numbers"),
    (lambda: softmax(np.zeros((2, 2, 2))), "Z must be a 1-D or 2-D array"),
    (lambda: softmax_loss(np.zeros((1, 2)), [[0.0]], [0]), "Theta must have shape"),
    (lambda: softmax_loss(np.zeros((2, 3)), [[0.0]], [0]), "Theta must have shape"),
    (lambda: softmax_loss(np.zeros((2, 2)), [[0.0]], [2]), "y must hold class indices 0, ..., 1"),
    (lambda: softmax_loss(np.zeros((2, 2)), [[0.0]], [-1]), "y must be"),
    (lambda: softmax_loss(np.zeros((2, 2)), [[0.0]], [0.5]), "y must hold integers"),
    (lambda: softmax_loss(np.zeros((2, 2)), [[0.0], [1.0]], [0]), "y must be a 1-D array"),
    (lambda: softmax_gradient(np.zeros((2, 2)), [[np.inf]], [0]), "X must hold finite"),
    (lambda: softmax_gradient(np.zeros((2, 2)), np.zeros((0, 1)), []), "X must have at least"),
])
def test_softmax_functions_refuse_bad_input(call, match):
    with pytest.raises(ValueError if "integers" not in match else TypeError, match=match):
        call()


def test_D14_errors_say_what_is_allowed(data):
    """D14 of the UX review: each message names the parameter and what it accepts."""
    X, y = data
    with pytest.raises(TypeError, match=r"^learning_rate must be 'auto' or a real number > 0, "
                                        r"got learning_rate='fast' of type str"):
        LogisticRegressionGD(learning_rate="fast").fit(X, y)
    # len("abc") is 3: the message must not read as a length mismatch
    with pytest.raises(TypeError, match=r"^X must be a 2-D numeric array of shape \(n_samples, "
                                        r"n_features\), got X='abc' of type str"):
        LogisticRegressionGD().fit("abc", y)
    with pytest.raises(ValueError, match=r"^X must be a 2-D array of shape \(n_samples, n_features\), "
                                         r"got a 1-D array\. Reshape your data: X\.reshape\(-1, 1\)") as info:
        LogisticRegressionGD().fit(X[:, 0], y)
    assert "array=" not in str(info.value) and len(str(info.value)) < 200   # not the whole array
    with pytest.raises(ValueError, match=r"^X must be a 2-D array .* got a 1-D array"):
        LogisticRegressionGD().fit(X, y).predict(X[0])
