"""Tests of mlcore.lda against scikit-learn's LinearDiscriminantAnalysis."""

import numpy as np
import pytest
from sklearn.datasets import load_digits, load_iris, load_wine, make_classification
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.utils.estimator_checks import parametrize_with_checks

from mlcore.lda import FisherLDA, ProjectionFigure, fisher_criterion, fisher_direction, scatter_matrices


@parametrize_with_checks([FisherLDA(), FisherLDA(solver="eigen")])
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def _data():
    yield "iris", *load_iris(return_X_y=True)
    yield "wine", *load_wine(return_X_y=True)
    X, y = make_classification(n_samples=300, n_features=6, n_informative=4, n_redundant=0, n_classes=2,
                               random_state=0)
    yield "two classes", X, y
    X, y = load_digits(return_X_y=True)
    yield "digits (singular S_w)", X, y


@pytest.mark.parametrize("name, X, y", list(_data()), ids=lambda v: v if isinstance(v, str) else "")
def test_projection_spans_sklearn_subspace_and_predictions_agree(name, X, y):
    ours = FisherLDA().fit(X, y)
    theirs = LinearDiscriminantAnalysis(solver="svd").fit(X, y)
    Z, Z_sk = ours.transform(X), theirs.transform(X)
    # Same subspace: each projection is an exact linear image of the other.
    coef, residual, *_ = np.linalg.lstsq(Z_sk, Z, rcond=None)
    assert np.allclose(Z_sk @ coef, Z, atol=1e-6 * np.abs(Z).max())
    assert np.allclose(ours.explained_variance_ratio_, theirs.explained_variance_ratio_, atol=1e-8)
    assert np.mean(ours.predict(X) == theirs.predict(X)) > 0.995
    assert np.allclose(ours.coef_, theirs.coef_, rtol=1e-6, atol=1e-8 * np.abs(theirs.coef_).max())


@pytest.mark.parametrize("name", ["iris", "wine", "two classes"])
def test_eigen_solver_finds_the_same_directions(name):
    _, X, y = next(d for d in _data() if d[0] == name)
    Z = FisherLDA(solver="eigen").fit(X, y).transform(X)
    Z_sk = LinearDiscriminantAnalysis(solver="eigen").fit(X, y).transform(X)
    for j in range(Z.shape[1]):             # each direction equal up to sign and scale
        assert abs(np.corrcoef(Z[:, j], Z_sk[:, j])[0, 1]) > 1 - 1e-8
    Z_svd = FisherLDA(solver="svd").fit(X, y).transform(X)
    for j in range(Z.shape[1]):
        assert abs(np.corrcoef(Z[:, j], Z_svd[:, j])[0, 1]) > 1 - 1e-8


def test_two_class_direction_is_sklearn_coef_and_maximizes_the_criterion():
    X, y = make_classification(n_samples=200, n_features=2, n_redundant=0, random_state=3)
    w = fisher_direction(X, y)
    coef = LinearDiscriminantAnalysis().fit(X, y).coef_[0]
    assert abs(abs(w @ coef) / np.linalg.norm(coef) - 1) < 1e-10          # parallel
    angles = np.linspace(0, np.pi, 2001)
    J = fisher_criterion(np.vstack([np.cos(angles), np.sin(angles)]), X, y)
    assert fisher_criterion(w, X, y) >= J.max() - 1e-12


def test_scatter_matrices_add_up_to_the_total():
    X, y = load_wine(return_X_y=True)
    S_w, S_b = scatter_matrices(X, y)
    centred = X - X.mean(axis=0)
    assert np.allclose(S_w + S_b, centred.T @ centred)
    assert np.linalg.matrix_rank(S_b) == 2                                   # N - 1 for 3 classes


def test_bad_input():
    X, y = load_digits(return_X_y=True)
    with pytest.raises(ValueError, match="singular"):
        FisherLDA(solver="eigen").fit(X, y)
    with pytest.raises(ValueError, match="n_components must be an integer in \\[1, 2\\]"):
        FisherLDA(n_components=3).fit(*load_iris(return_X_y=True))
    with pytest.raises(ValueError, match="only one class"):
        FisherLDA().fit(np.random.default_rng(0).normal(size=(10, 2)), np.zeros(10))
    with pytest.raises(ValueError, match="exactly two classes"):
        fisher_direction(*load_iris(return_X_y=True))
    with pytest.raises(ValueError, match="solver must be one of"):
        FisherLDA(solver="lsqr").fit(*load_iris(return_X_y=True))


def test_figure_marks_fisher_optimum():
    figure = ProjectionFigure()
    assert figure.render(angle=int(round(figure.best_angle / 5) * 5))[:4] == b"\x89PNG"
    assert abs(figure.J.max() - figure.best_J) < 1e-3 * figure.best_J
