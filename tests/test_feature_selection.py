"""Tests of mlcore.feature_selection against scikit-learn."""

import time

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer, load_iris, load_wine, make_classification
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.feature_selection import SequentialFeatureSelector, mutual_info_classif
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import mutual_info_score
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.naive_bayes import BernoulliNB, GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from mlcore.datasets import load_sms_spam
from mlcore.feature_selection import (FilterSizeFigure, ForwardSearchFigure, MIFilter, backward_search,
                                      gaussian_nb_subset_accuracy,
                                      correlation_scores, exhaustive_search, forward_search, mi_scores,
                                      mutual_information)


@parametrize_with_checks([MIFilter(k=1)])
def test_mi_filter_is_a_scikit_learn_estimator(estimator, check):
    check(estimator)


def _data_sets():
    X, y = load_wine(return_X_y=True)
    yield "wine", X[:, :7], y, GaussianNB()
    X, y = load_iris(return_X_y=True)
    yield "iris", X, y, KNeighborsClassifier(3)
    X, y = make_classification(n_samples=150, n_features=8, n_informative=3, random_state=0)
    yield "synthetic", X, y, make_pipeline(StandardScaler(), LogisticRegression())


@pytest.mark.parametrize("direction", ["forward", "backward"])
@pytest.mark.parametrize("name, X, y, estimator", list(_data_sets()), ids=lambda v: v if isinstance(v, str) else "")
def test_search_matches_sequential_feature_selector(direction, name, X, y, estimator):
    search = forward_search if direction == "forward" else backward_search
    for size in (1, 2, 3):
        ours = search(estimator, X, y, cv=4, max_features=size)
        sfs = SequentialFeatureSelector(estimator, n_features_to_select=size, direction=direction,
                                        cv=4).fit(X, y)
        assert sorted(ours.selected_) == np.flatnonzero(sfs.get_support()).tolist()
    order = forward_search(estimator, X, y, cv=4, max_features=3).path["feature"].tolist()
    for size in (1, 2):           # the same order: the first `size` features are SFS's `size` features
        sfs = SequentialFeatureSelector(estimator, n_features_to_select=size, cv=4).fit(X, y)
        assert sorted(order[:size]) == np.flatnonzero(sfs.get_support()).tolist()


def test_forward_search_counts_its_fits():
    X, y = load_wine(return_X_y=True)
    n = 6
    result = forward_search(GaussianNB(), X[:, :n], y, cv=5)
    assert result.n_fits_ == 5 * n * (n + 1) // 2 == result.path["n_fits"].iloc[-1]
    parallel = forward_search(GaussianNB(), X[:, :n], y, cv=5, n_jobs=2)
    assert parallel.path.equals(result.path)


def test_tol_stops_early_and_exhaustive_finds_the_best():
    X, y = load_wine(return_X_y=True)
    stopped = forward_search(GaussianNB(), X[:, :8], y, cv=5, tol=0.01)
    assert len(stopped.selected_) < 8
    table = exhaustive_search(GaussianNB(), X[:, :6], y, cv=5)
    assert len(table) == 63 and table["score"].iloc[0] == table["score"].max()


def test_fast_naive_bayes_subsets_equal_fitting_each_subset():
    X, y = make_classification(n_samples=120, n_features=6, n_informative=3, random_state=3)
    subsets = [s for s in exhaustive_search(KNeighborsClassifier(1), X, y, cv=3)["features"]]
    fast = gaussian_nb_subset_accuracy(X[:80], y[:80], X[80:], y[80:], subsets)
    slow = [GaussianNB().fit(X[:80][:, list(f)], y[:80]).score(X[80:][:, list(f)], y[80:]) for f in subsets]
    assert np.allclose(fast, slow)
    table = exhaustive_search(GaussianNB(), X, y, cv=3)          # the fast path
    generic = {f: cross_val_score(GaussianNB(), X[:, list(f)], y, cv=3).mean() for f in subsets}
    assert np.allclose(table["score"], [generic[f] for f in table["features"]])


def test_mutual_information_equals_sklearn():
    rng = np.random.default_rng(0)
    x, y = rng.integers(0, 5, 300), rng.integers(0, 3, 300)
    assert abs(mutual_information(x, y) - mutual_info_score(x, y)) < 1e-12
    assert abs(mutual_information(x, y, base=2) - mutual_info_score(x, y) / np.log(2)) < 1e-12
    words = np.array(["a", "b"])[rng.integers(0, 2, 100)]
    labels = np.array(["spam", "ham"])[rng.integers(0, 2, 100)]
    assert abs(mutual_information(words, labels) - mutual_info_score(words, labels)) < 1e-12


def test_mi_scores_equal_mutual_info_classif_on_binary_features():
    rng = np.random.default_rng(1)
    X = (rng.random((400, 60)) < 0.1).astype(int)
    y = rng.integers(0, 3, 400)
    ours = mi_scores(sp.csr_matrix(X), y)
    theirs = mutual_info_classif(X, y, discrete_features=True)
    assert np.allclose(ours, theirs, rtol=0, atol=1e-12)
    assert np.allclose(mi_scores(X, y), ours)               # dense input too
    counts = X * rng.integers(1, 4, X.shape)                 # counts reduce to presence
    assert np.allclose(mi_scores(counts, y), ours)


def test_mi_scores_on_sms_vocabulary_fast_and_equal():
    texts, y = load_sms_spam(return_X_y=True)
    X = CountVectorizer(binary=True).fit_transform(texts)
    mi_scores(X, y)                                          # warm-up
    start = time.perf_counter()
    ours = mi_scores(X, y)
    elapsed = time.perf_counter() - start
    sample = np.arange(0, X.shape[1], 97)
    theirs = np.array([mutual_info_score(X[:, j].toarray().ravel(), y) for j in sample])
    assert np.allclose(ours[sample], theirs, atol=1e-12)
    assert elapsed < 2.0, f"mi_scores took {elapsed:.2f} s on the SMS vocabulary (target 0.5 s idle)"


def test_mi_filter_in_pipeline_and_grid_search():
    X, y = load_breast_cancer(return_X_y=True)
    Xb = (X > np.median(X, axis=0)).astype(int)
    grid = GridSearchCV(make_pipeline(MIFilter(), BernoulliNB()), {"mifilter__k": [1, 5, 20]}, cv=3).fit(Xb, y)
    assert grid.best_params_["mifilter__k"] in (1, 5, 20)
    kept = MIFilter(k=5).fit(Xb, y).get_support()
    assert kept.sum() == 5 and np.all(mi_scores(Xb, y)[kept].min() >= mi_scores(Xb, y)[~kept].max())


def test_correlation_scores_equal_numpy():
    X, y = load_wine(return_X_y=True)
    expected = np.abs([np.corrcoef(X[:, j], y)[0, 1] for j in range(X.shape[1])])
    assert np.allclose(correlation_scores(X, y), expected)


@pytest.mark.parametrize("call, message", [
    (lambda: MIFilter(k=0).fit(np.eye(3), [0, 1, 0]), "k must be an integer in \\[1, 3\\]"),
    (lambda: MIFilter(k=5).fit(np.eye(3), [0, 1, 0]), "k must be an integer in \\[1, 3\\]"),
    (lambda: mutual_information(np.linspace(0, 1, 50), np.arange(50) % 2), "continuous"),
    (lambda: mi_scores(np.eye(3), [1, 1, 1]), "one class"),
    (lambda: mi_scores(np.eye(3), [0, 1]), "same number of samples"),
    (lambda: mutual_information([], []), "non-empty"),
    (lambda: forward_search(GaussianNB(), np.eye(4), [0, 1, 0, 1], cv=2, max_features=9), "max_features"),
    (lambda: exhaustive_search(GaussianNB(), np.zeros((5, 13)), [0, 1, 0, 1, 0]), "1 to 12 features"),
])
def test_bad_input_is_a_clear_error(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


def test_figures_render():
    X, y = load_iris(return_X_y=True)
    assert ForwardSearchFigure(forward_search(GaussianNB(), X, y)).render(step=3)[:4] == b"\x89PNG"
    assert FilterSizeFigure().render(k=10)[:4] == b"\x89PNG"


class _CountingNB(GaussianNB):
    """Gaussian naive Bayes that counts its fits (clones share the class attribute)."""

    calls = 0

    def fit(self, X, y, sample_weight=None):
        type(self).calls += 1
        return super().fit(X, y, sample_weight=sample_weight)


@pytest.mark.parametrize("search, kwargs, expected", [
    (forward_search, {}, 5 * 6 * 7 // 2),
    (backward_search, {}, 5 * (1 + sum(range(2, 7)))),
    (forward_search, {"max_features": 2}, 5 * (6 + 5)),
    (forward_search, {"tol": 0.01}, None),
])
def test_searches_report_the_learner_calls_they_make(search, kwargs, expected):
    X, y = load_wine(return_X_y=True)
    _CountingNB.calls = 0
    result = search(_CountingNB(), X[:, :6], y, cv=5, **kwargs)
    assert _CountingNB.calls == result.n_fits_
    if expected is not None:                     # a search run to its size: the path's count is the total
        assert result.n_fits_ == expected == result.path["n_fits"].iloc[-1]
    else:                                        # tol stopped it: the rejected step's fits count too
        assert result.n_fits_ > result.path["n_fits"].iloc[-1]
