"""Tests of mlcore.lda against scikit-learn's LinearDiscriminantAnalysis."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
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


# -- review ch10-12 finding 15 and FUZZ-2 A2, B4, C7, D3: fisher_direction and fisher_criterion --
def _ill_conditioned():
    """The review's example: cond(S_w) ~ 4e14 (two nearly equal columns)."""
    rng = np.random.default_rng(1)
    z = rng.normal(size=(60, 1))
    X = np.hstack([z, z + 1e-7 * rng.normal(size=(60, 1)), rng.normal(size=(60, 1))])
    y = np.r_[np.zeros(30, int), np.ones(30, int)]
    X[y == 1] += [0.3, 0.3 + 2e-7, 0.5]
    return X, y


def test_fisher_direction_is_accurate_when_S_w_is_ill_conditioned():
    from mlcore.lda import fisher_direction_exact
    X, y = _ill_conditioned()
    exact = fisher_direction_exact(X, y)
    w = fisher_direction(X, y)
    assert min(np.linalg.norm(w - exact), np.linalg.norm(w + exact)) < 1e-12   # was 1.41
    assert fisher_criterion(w, X, y) > 0.119                                   # was 0.0117
    # J itself from the centred data: 0.11949030 in exact rational arithmetic (S_w route: 0.107)
    assert abs(fisher_criterion(exact, X, y) - 0.1194902973404071) < 1e-8
    S_w, _ = scatter_matrices(X, y)
    d = X[y == 0].mean(axis=0) - X[y == 1].mean(axis=0)
    solved = np.linalg.solve(S_w, d)
    solved /= np.linalg.norm(solved)
    assert np.linalg.norm(solved - exact) > 1e-10                          # forming S_w loses digits


@given(st.lists(st.floats(-12, 12), min_size=3, max_size=3), st.integers(0, 10**6))
@settings(max_examples=40, deadline=None, derandomize=True)
def test_fisher_direction_is_equivariant_under_feature_scaling(log_scales, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(80, 3)) @ rng.normal(size=(3, 3))
    y = (X @ rng.normal(size=3) + rng.normal(size=80) > 0).astype(int)
    if min(np.bincount(y, minlength=2)) < 2:
        return
    D = 10.0 ** np.array(log_scales)
    w, w_scaled = fisher_direction(X, y), fisher_direction(X * D, y)
    expected = w / D                                    # w_scaled ∝ D^-1 w
    expected /= np.linalg.norm(expected)
    assert np.allclose(w_scaled, expected, rtol=1e-6, atol=1e-9)


def test_fisher_direction_fuzz_reproducers():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=200) > 0).astype(int)
    w = fisher_direction(X, y)
    expected = w / [1.0, 1e-6]
    assert np.allclose(fisher_direction(X * [1.0, 1e-6], y), expected / np.linalg.norm(expected))  # A2
    assert np.allclose(fisher_direction(X * 1e-160, y), w)                                         # D3
    assert np.allclose(fisher_direction(X * 1e200, y), w)
    with pytest.raises(ValueError, match="X must have at least one column"):                      # C7
        fisher_direction(np.empty((12, 0)), y[:12])
    with pytest.raises(ValueError, match="undefined"):                                             # B4
        fisher_criterion([1.0, 0.5], np.ones((6, 2)), [0, 1, 0, 1, 0, 1])
    assert fisher_criterion([1e308, 1e308], X, y) == pytest.approx(fisher_criterion([1.0, 1.0], X, y))
    with pytest.raises(ValueError, match="all-zero column"):
        fisher_criterion([0.0, 0.0], X, y)
    with pytest.raises(ValueError, match="means coincide"):
        fisher_direction(np.r_[X, X], np.r_[np.zeros(200), np.ones(200)])


def test_fisher_direction_with_a_separating_constant_feature_is_that_feature():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 2))
    y = np.repeat([0, 1], 20)
    X_sep = np.column_stack([X, y * 3.0])               # no within-class spread, the means differ
    w = fisher_direction(X_sep, y)
    assert np.allclose(np.abs(w), [0, 0, 1], atol=1e-12)
    assert fisher_criterion(w, X_sep, y) > 1e20                          # unbounded, up to rounding


def test_scatter_matrices_refuse_one_class_and_continuous_labels():
    X = np.random.default_rng(0).normal(size=(20, 2))
    with pytest.raises(ValueError, match="at least two classes"):
        scatter_matrices(X, np.zeros(20))
    with pytest.raises(ValueError, match="y must hold class labels, got continuous"):
        scatter_matrices(X, np.linspace(0, 1, 20))


# -- review finding 26: predict_proba as scikit-learn's --
@pytest.mark.parametrize("name, X, y", list(_data())[:3], ids=lambda v: v if isinstance(v, str) else "")
def test_predict_proba_equals_sklearn(name, X, y):
    ours, theirs = FisherLDA().fit(X, y), LinearDiscriminantAnalysis().fit(X, y)
    assert np.allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-8)
    assert np.allclose(ours.predict_log_proba(X), theirs.predict_log_proba(X), atol=1e-6)


# -- beyond the anchors: least squares on coded targets, shrinkage LDA --
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_coded_least_squares_is_parallel_to_fisher(seed):
    from mlcore.lda import coded_least_squares
    X, y = make_classification(n_samples=90, n_features=5, n_redundant=0, weights=[0.7], random_state=seed)
    beta, w = coded_least_squares(X, y), fisher_direction(X, y)
    assert abs(abs(beta @ w) / np.linalg.norm(beta) - 1) < 1e-10
    assert beta @ w < 0                                  # beta points to class 1, w to class 0


def test_ledoit_wolf_equals_sklearn():
    from sklearn.covariance import ledoit_wolf as sk_ledoit_wolf

    from mlcore.lda import ledoit_wolf
    for shape in [(10, 30), (50, 5), (30, 30)]:
        X = np.random.default_rng(sum(shape)).normal(size=shape) * np.arange(1, shape[1] + 1)
        ours, theirs = ledoit_wolf(X), sk_ledoit_wolf(X)
        assert np.allclose(ours[0], theirs[0], rtol=1e-10, atol=1e-12) and abs(ours[1] - theirs[1]) < 1e-12


@pytest.mark.parametrize("shrinkage", ["auto", 0.0, 0.3, 1.0])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_shrinkage_lda_equals_sklearn_lsqr(shrinkage, n_classes):
    from mlcore.lda import ShrinkageLDA
    rng = np.random.default_rng(n_classes)
    X = rng.normal(size=(45, 80)) * rng.uniform(0.1, 10, size=80)    # n < p, mixed units
    y = np.arange(45) % n_classes
    X[:, :4] += y[:, None]
    if shrinkage == 0.0:
        X = X[:, :20]                                                  # invertible without shrinkage
    ours = ShrinkageLDA(shrinkage=shrinkage).fit(X, y)
    theirs = LinearDiscriminantAnalysis(solver="lsqr", shrinkage=shrinkage).fit(X, y)
    assert np.allclose(ours.coef_, theirs.coef_, rtol=1e-7, atol=1e-9 * np.abs(theirs.coef_).max())
    assert np.allclose(ours.intercept_, theirs.intercept_, rtol=1e-7, atol=1e-7)
    assert np.allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-8)
    assert np.array_equal(ours.predict(X), theirs.predict(X))


@parametrize_with_checks([__import__("mlcore.lda", fromlist=["ShrinkageLDA"]).ShrinkageLDA()])
def test_shrinkage_lda_is_a_scikit_learn_estimator(estimator, check):
    check(estimator)


def test_shrinkage_lda_bad_input():
    from mlcore.lda import ShrinkageLDA
    X = np.random.default_rng(0).normal(size=(10, 3))
    for bad in (1.5, -0.1, "ledoit"):
        with pytest.raises((TypeError, ValueError),
                           match=r"^shrinkage must be 'auto' or a real number in \[0, 1\], got shrinkage="):
            ShrinkageLDA(shrinkage=bad).fit(X, np.arange(10) % 2)


def test_estimator_messages_name_the_parameter():
    from mlcore.imbalance import EasyEnsembleClassifier
    from mlcore.lda import ShrinkageLDA
    from mlcore.multiclass import ECOCClassifier
    from sklearn.linear_model import LogisticRegression
    X = np.random.default_rng(0).normal(size=(20, 2))
    for model in (FisherLDA(), ShrinkageLDA(), ECOCClassifier(LogisticRegression()), EasyEnsembleClassifier(LogisticRegression())):
        with pytest.raises(ValueError, match="^y (is not valid: Unknown label type|must hold class labels)"):
            model.fit(X, np.linspace(0, 1, 20))
        with pytest.raises(ValueError, match=r"^X must be a 2-D array of shape \(n_samples, n_features\), got a 1-D array"):
            model.fit(X[:, 0], np.arange(20) % 2)
        model.fit(X, np.arange(20) % 2)
        with pytest.raises(ValueError, match="^X has 3 features"):
            model.predict(np.ones((2, 3)))


def test_the_shrinkage_designs_script_runs_at_a_tiny_size(capsys):
    """scripts/ch11_shrinkage_designs.py, whose full-size output chapter 11 quotes
    (ch11-12 review, N16): two designs of equal Bayes accuracy, every line printed."""
    import sys
    from pathlib import Path

    scripts = Path(__file__).resolve().parent.parent / "scripts"
    sys.path.insert(0, str(scripts))
    try:
        import ch11_shrinkage_designs as script
    finally:
        sys.path.remove(str(scripts))
    # 20 features instead of 100: the same code path at a tenth of the cost.
    out = script.main(["--draws", "2", "--train", "20", "--test", "100", "--features", "20"])
    printed = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and len(printed) == 3
    bayes = [s["bayes"] for s in out.values()]
    assert bayes[0] == pytest.approx(bayes[1], abs=1e-12)
    assert round(script.run(0)[next(iter(out))]["bayes"], 2) == 0.99   # the chapter's 0.99
    for (design, s), line in zip(out.items(), printed[1:]):
        assert line.startswith(design) and f"{s['diff']:+.3f}" in line
        assert 0 <= s["plain"] <= 1 and s["best_alpha"] in script.GRID
    shifts = list(script.designs(20).values())
    assert (np.sign(shifts[0][:10]) == np.resize([1, -1], 10)).all() and (shifts[1][:10] > 0).all()
