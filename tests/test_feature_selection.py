"""Tests of mlcore.feature_selection against scikit-learn."""

import itertools
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_breast_cancer, load_iris, load_wine, make_classification
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.feature_selection import SequentialFeatureSelector, mutual_info_classif
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, make_scorer, mutual_info_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.naive_bayes import BernoulliNB, GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from mlcore.datasets import load_sms_spam
from mlcore.feature_selection import (FilterSizeFigure, ForwardSearchFigure, MIFilter, backward_search,
                                      benjamini_hochberg, g_test_scores, jmi_select, mrmr_select,
                                      stability_selection,
                                      gaussian_nb_subset_accuracy,
                                      correlation_scores, exhaustive_search, forward_search, mi_scores,
                                      mutual_information)


@parametrize_with_checks([MIFilter(), MIFilter(k=1), MIFilter(k="all")])
def test_mi_filter_is_a_scikit_learn_estimator(estimator, check):
    check(estimator)


def _data_sets():
    X, y = load_wine(return_X_y=True)
    yield "wine", X[:, :7], y, GaussianNB()
    X, y = load_iris(return_X_y=True)
    yield "iris", X, y, KNeighborsClassifier(3)
    X, y = make_classification(n_samples=150, n_features=8, n_informative=3, random_state=0)
    yield "synthetic", X, y, make_pipeline(StandardScaler(), LogisticRegression())


class _StepRecordingSFS(SequentialFeatureSelector):
    """scikit-learn's SequentialFeatureSelector, noting the feature each greedy step adds
    (forward) or removes (backward).

    Its ``fit`` is a loop of such steps with no other state, so its selection at
    ``k`` features is its first ``k`` steps forward and all but its first
    ``n - k`` steps backward: one fit gives every size. ``_sfs_sets`` checks that
    against a separate public fit at each size it reports, bar the fit's own.
    """

    def fit(self, X, y, **params):
        self.steps_ = []
        return super().fit(X, y, **params)

    def _get_best_new_feature_score(self, *args, **kwargs):
        feature, score = super()._get_best_new_feature_score(*args, **kwargs)
        self.steps_.append(int(feature))
        return feature, score


def _sfs_sets(estimator, X, y, direction, sizes, check_sizes=()):
    """``({size: sorted features SFS selects}, steps)`` from one recorded fit.

    ``check_sizes`` are also fitted separately with the public API and must agree.
    """
    n = X.shape[1]
    target = max(sizes) if direction == "forward" else min(sizes)
    sfs = _StepRecordingSFS(estimator, n_features_to_select=target, direction=direction,
                            cv=4).fit(X, y)
    steps = sfs.steps_
    sets = {k: sorted(steps[:k]) if direction == "forward"
            else sorted(set(range(n)) - set(steps[:n - k])) for k in sizes}
    assert sets[target] == np.flatnonzero(sfs.get_support()).tolist()
    for k in check_sizes:
        alone = SequentialFeatureSelector(estimator, n_features_to_select=k,
                                          direction=direction, cv=4).fit(X, y)
        assert sets[k] == np.flatnonzero(alone.get_support()).tolist(), k
    return sets, steps


@pytest.mark.parametrize("direction", ["forward", "backward"])
@pytest.mark.parametrize("name, X, y, estimator", list(_data_sets()), ids=lambda v: v if isinstance(v, str) else "")
def test_search_matches_sequential_feature_selector(direction, name, X, y, estimator):
    search = forward_search if direction == "forward" else backward_search
    # one recorded SFS fit gives every size (checked against a separate public fit on wine:
    # a property of SFS's loop, not of the data)
    sfs, steps = _sfs_sets(estimator, X, y, direction, (1, 2, 3),
                           check_sizes=(2,) if name == "wine" else ())
    # ours: one search through sizes 3, 2, 1 (its path), and a search told to stop at the
    # size it reaches first (max_features), which must end where the path passes that size
    through = search(estimator, X, y, cv=4, max_features=3 if direction == "forward" else 1)
    path = through.path
    for size in (1, 2, 3):
        ours = sorted(path.loc[path["selected"].map(len) == size, "selected"].iloc[0])
        assert ours == sfs[size], size
    first = 1 if direction == "forward" else 3
    assert sorted(search(estimator, X, y, cv=4, max_features=first).selected_) == sfs[first]
    # the same order: the first `size` features are SFS's `size` features, for every size
    if direction == "forward":
        order, forward_steps = path["feature"].tolist(), steps
    else:
        order = forward_search(estimator, X, y, cv=4, max_features=3).path["feature"].tolist()
        forward_steps = _sfs_sets(estimator, X, y, "forward", (3,))[1]
    assert order == forward_steps


def test_forward_search_counts_its_fits():
    X, y = load_wine(return_X_y=True)
    n = 6
    result = forward_search(GaussianNB(), X[:, :n], y, cv=5)
    assert result.n_fits_ == 5 * n * (n + 1) // 2 == result.path["n_fits"].iloc[-1]
    parallel = forward_search(GaussianNB(), X[:, :n], y, cv=5, n_jobs=2)
    assert parallel.path.equals(result.path)


def test_naive_bayes_searches_score_each_step_in_one_batch_as_cross_val_score_does():
    # GaussianNB's candidates of a step are scored together (gaussian_nb_subset_accuracy);
    # the path must equal scoring each subset by cross_val_score, bit for bit, both ways.
    X, y = make_classification(n_samples=100, n_features=5, n_informative=3,
                               random_state=4)
    folds = StratifiedKFold(3, shuffle=True, random_state=1)
    for search in (forward_search, backward_search):
        batched = search(GaussianNB(), X, y, cv=folds)
        one_by_one = search(GaussianNB(), X, y, cv=folds,
                            scoring=make_scorer(accuracy_score))  # forces one by one
        assert batched.path[["feature", "score"]].equals(one_by_one.path[["feature", "score"]])


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
    counts = X * rng.integers(1, 4, X.shape)                 # counts reduce to presence, if asked
    assert np.allclose(mi_scores(counts, y, binarize=0), ours)
    with pytest.raises(ValueError, match="binarize"):        # and never silently
        mi_scores(counts, y)


def test_mi_scores_on_sms_vocabulary_fast_and_equal():
    texts, y = load_sms_spam(return_X_y=True)
    X = CountVectorizer(binary=True).fit_transform(texts)
    ours = mi_scores(X, y)
    sample = np.arange(0, X.shape[1], 97)
    theirs = np.array([mutual_info_score(X[:, j].toarray().ravel(), y) for j in sample])
    assert np.allclose(ours[sample], theirs, atol=1e-12)


def test_mi_filter_in_pipeline_and_grid_search():
    X, y = load_breast_cancer(return_X_y=True)
    Xb = (X > np.median(X, axis=0)).astype(int)
    grid = GridSearchCV(make_pipeline(MIFilter(), BernoulliNB()), {"mifilter__k": [1, 5, 20]}, cv=3).fit(Xb, y)
    assert grid.best_params_["mifilter__k"] in (1, 5, 20)
    kept = MIFilter(k=5).fit(Xb, y).get_support()
    assert kept.sum() == 5 and np.all(mi_scores(Xb, y)[kept].min() >= mi_scores(Xb, y)[~kept].max())


def test_correlation_scores_equal_numpy():
    X, y = load_wine(return_X_y=True)
    y = X[:, 0]                       # a numeric target (wine's classes would warn: finding 9)
    X = X[:, 1:]
    expected = np.abs([np.corrcoef(X[:, j], y)[0, 1] for j in range(X.shape[1])])
    assert np.allclose(correlation_scores(X, y), expected)


@pytest.mark.parametrize("call, message", [
    (lambda: MIFilter(k=0).fit(np.eye(3), [0, 1, 0]), "k must be"),
    (lambda: MIFilter(k="most").fit(np.eye(3), [0, 1, 0]), "k must be"),
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
    result = forward_search(GaussianNB(), X, y)
    figure = ForwardSearchFigure(result, test_scores=result.path["score"] - 0.01, n_features=4)
    for tol in (-0.02, 0.0, 0.02):
        assert figure.render(tol=tol)[:4] == b"\x89PNG"
    assert FilterSizeFigure().render(k=10)[:4] == b"\x89PNG"


def test_tol_stop_equals_forward_search_with_tol():
    """The figure's stopping rule is forward_search's: same steps, same output."""
    from mlcore.feature_selection._figure import tol_stop
    X, y = load_wine(return_X_y=True)
    full = forward_search(GaussianNB(), X[:, :8], y, cv=4)
    for tol in (0.0, 0.005, 0.02):
        stopped = forward_search(GaussianNB(), X[:, :8], y, cv=4, tol=tol)
        accepted, best = tol_stop(full.path["score"], tol)
        assert accepted == len(stopped.selected_) and stopped.best_ == full.path["selected"].iloc[best - 1]


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



# --- regressions (review of chapter 7, 2026-11-26, and FUZZ-2) -----------------------------------

def test_mi_filter_default_k_and_all_keep_every_feature_of_a_small_matrix():
    """Review finding 8 / FUZZ-2 D11: MIFilter() on 3 features raised 'k must be an integer in [1, 3]'."""
    X, y = np.eye(3)[[0, 1, 2, 0, 1, 2]], [0, 1, 0, 0, 1, 1]
    with pytest.warns(UserWarning, match="all the features are kept"):
        assert MIFilter().fit(X, y).get_support().all()
    assert MIFilter(k="all").fit(X, y).get_support().all()


def _scaled_problem():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X.sum(1) + rng.normal(size=60) > 0).astype(int)
    return X, y


def test_gaussian_nb_fast_path_equals_cross_val_score_when_scales_differ():
    """Review finding 7 / FUZZ-2 A1: the variance floor came from all columns, not the subset's."""
    X, y = _scaled_problem()
    Xs = X * [1, 1e-6, 1e3]
    table = exhaustive_search(GaussianNB(), Xs, y, cv=5).set_index("features")
    for subset in table.index:
        assert table.loc[[subset], "score"].item() == pytest.approx(
            cross_val_score(GaussianNB(), Xs[:, list(subset)], y, cv=5).mean(), abs=1e-12)
    assert gaussian_nb_subset_accuracy(X * [1, 1e-6, 1], y, X * [1, 1e-6, 1], y, [(1,)])[0] == \
        pytest.approx(GaussianNB().fit(X[:, [1]] * 1e-6, y).score(X[:, [1]] * 1e-6, y))
    X_wine, y_wine = load_wine(return_X_y=True)      # raw wine: proline's variance is 98,610
    X_wine = X_wine[:, [0, 4, 7, 12]]
    subsets = list(exhaustive_search(KNeighborsClassifier(1), X_wine[:20], y_wine[:20], cv=2)["features"])
    fast = gaussian_nb_subset_accuracy(X_wine[::2], y_wine[::2], X_wine[1::2], y_wine[1::2], subsets)
    slow = [GaussianNB().fit(X_wine[::2][:, list(f)], y_wine[::2]).score(X_wine[1::2][:, list(f)], y_wine[1::2])
            for f in subsets]
    assert np.allclose(fast, slow, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_gaussian_nb_fast_path_is_scale_invariant(seed):
    """Property (FUZZ-2 A1): a subset's accuracy does not change when a column *outside* it is
    rescaled, nor when every column is rescaled by one factor (powers of two: exact in floating
    point). Naive Bayes needs no scaling; the old floor, taken over all columns, broke the first."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(80, 4)) + rng.integers(0, 2, (80, 1))
    y = (X[:, 0] - X[:, 2] + rng.normal(size=80) > 0.5).astype(int)
    subsets = [s for size in (1, 2, 3, 4) for s in itertools.combinations(range(4), size)]
    base = gaussian_nb_subset_accuracy(X[:50], y[:50], X[50:], y[50:], subsets)
    common = 2.0 ** rng.integers(-30, 30)
    assert np.array_equal(base, gaussian_nb_subset_accuracy(X[:50] * common, y[:50], X[50:] * common,
                                                            y[50:], subsets))
    j = int(rng.integers(0, 4))
    scale = np.ones(4)
    scale[j] = 2.0 ** 40                        # a column in other units: variance x 1.2e24
    scaled = gaussian_nb_subset_accuracy(X[:50] * scale, y[:50], X[50:] * scale, y[50:], subsets)
    outside = [i for i, s in enumerate(subsets) if j not in s]
    assert np.array_equal(base[outside], scaled[outside])


def test_correlation_scores_tiny_scale_and_multiclass_warning():
    """FUZZ-2 A6 (tiny column read as constant) and review finding 9 (class numbering)."""
    r = correlation_scores(np.c_[np.arange(5.0) * 1e-200, np.arange(5.0)], [1.0, 2.0, 3.0, 4.0, 5.0])
    assert np.allclose(r, [1.0, 1.0])
    X, y = load_wine(return_X_y=True)
    with pytest.warns(UserWarning, match="f_classif"):
        correlation_scores(X, y)
    assert correlation_scores(np.c_[np.ones(4), np.arange(4.0)], [0, 1, 0, 1])[0] == 0.0    # constant


def test_mutual_information_base_precision_and_integer_valued_floats():
    """FUZZ-2 A12 (float16 base) and D1 (integer-valued floats called 'continuous')."""
    x, y = np.arange(40) % 3, (np.arange(40) // 7) % 2
    assert mutual_information(x, y, base=np.float16(2.0)) == mutual_information(x, y, base=2.0)
    from fractions import Fraction
    assert mutual_information(x, y, base=Fraction(2)) == mutual_information(x, y, base=2.0)
    assert mutual_information(np.arange(40.0) % 30, np.arange(40) % 2) == pytest.approx(
        mutual_info_score(np.arange(40) % 30, np.arange(40) % 2))
    with pytest.raises(ValueError, match="non-integer"):
        mutual_information(np.arange(40) / 3, np.arange(40) % 2)


def test_mi_scores_refuse_continuous_counts_nan_and_continuous_y():
    """Review finding 4 / FUZZ-2 'accepted silently': the chapter's jittered XOR scored [0, 0, 0]."""
    rng = np.random.default_rng(0)
    bits = rng.integers(0, 2, (200, 2))
    X_xor = np.c_[bits, bits[:, 0] ^ bits[:, 1]] + rng.normal(scale=0.1, size=(200, 3))
    y = bits[:, 0] ^ bits[:, 1]
    with pytest.raises(ValueError, match="binarize"):
        mi_scores(X_xor, y)
    with pytest.warns(UserWarning, match="non-integer"):
        MIFilter(k=1).fit(X_xor, y)
    X = rng.integers(0, 2, (20, 3))
    with pytest.raises(ValueError, match="X must hold finite"):
        mi_scores(np.where(X == 1, np.nan, 0.0), rng.integers(0, 2, 20))
    with pytest.raises(ValueError, match="y must hold finite"):
        mi_scores(X, np.r_[np.nan, np.zeros(19)])
    with pytest.raises(ValueError, match="continuous target"):
        mi_scores(X, rng.normal(size=20))
    with pytest.raises(ValueError, match="X must hold finite"):
        mi_scores(sp.csr_matrix(np.where(X == 1, np.nan, 0.0)), rng.integers(0, 2, 20))
    with pytest.raises(ValueError, match="binarize must be >= 0"):
        mi_scores(sp.csr_matrix(X), rng.integers(0, 2, 20), binarize=-1)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"tol": -0.02}, ValueError, "tol must be >= 0"),
    ({"tol": -np.inf}, ValueError, "tol must be finite"),
    ({"tol": True}, TypeError, "tol must be a real number"),
    ({"tol": np.array([0.1])}, TypeError, "tol must be a real number"),
    ({"scoring": "nonsense"}, ValueError, "scoring must be one of"),
    ({"scoring": 5}, TypeError, "scoring must be None"),
])
def test_forward_search_refuses_bad_tol_and_scoring(kwargs, error, message):
    """Review finding 27 and FUZZ-2 ('tol=-inf, True, a 1-element array accepted'; C9 scoring)."""
    X, y = _scaled_problem()
    with pytest.raises(error, match=message):
        forward_search(GaussianNB(), X, y, cv=3, **kwargs)


def test_backward_search_accepts_a_negative_tol_as_scikit_learn_does():
    X, y = load_wine(return_X_y=True)
    result = backward_search(GaussianNB(), X[:, :6], y, cv=4, tol=-0.01)
    sfs = SequentialFeatureSelector(GaussianNB(), n_features_to_select="auto", tol=-0.01,
                                    direction="backward", cv=4).fit(X[:, :6], y)
    assert sorted(result.selected_) == np.flatnonzero(sfs.get_support()).tolist()


def test_a_failing_learner_says_why():
    """FUZZ-2 'messages': cross_val_score's 'All the 3 fits failed' hid the learner's own error."""
    X, y = _scaled_problem()

    class Broken(GaussianNB):
        def fit(self, X, y, sample_weight=None):
            raise ValueError("the learner's own reason")

    for search in (forward_search, backward_search, exhaustive_search):
        with pytest.raises(ValueError, match="the learner's own reason"):
            search(Broken(), X, y, cv=3)


@pytest.mark.parametrize("direction", ["forward", "backward"])
def test_best_prefers_the_smallest_tied_subset(direction):
    """Review finding 26: backward kept the largest tied subset, forward the smallest."""
    rng = np.random.default_rng(0)
    X = np.c_[rng.integers(0, 2, (40, 1)), rng.normal(size=(40, 4))]
    y = X[:, 0].astype(int)                   # feature 0 alone is perfect: every superset ties

    class Perfect(GaussianNB):                # a learner that scores 1 on any subset holding x0
        def fit(self, X, y, sample_weight=None):
            self.perfect_ = bool(np.all(X[:, 0] == y)) if X.shape[1] else False
            return super().fit(X, y)

        def score(self, X, y, sample_weight=None):
            return 1.0 if np.all(np.isin(X[:, 0], (0, 1))) and np.all(X[:, 0] == y) else 0.5

    search = forward_search if direction == "forward" else backward_search
    result = search(Perfect(), X, y, cv=4)
    assert result.best_ == [0]


# --- new functions against their references ------------------------------------------------------

def test_g_test_equals_scipy_chi2_contingency_log_likelihood():
    from scipy.stats import chi2_contingency
    rng = np.random.default_rng(4)
    X = (rng.random((300, 12)) < rng.uniform(0.05, 0.5, 12)).astype(int)
    y = np.where(rng.random(300) < 0.5, X[:, 0], rng.integers(0, 3, 300))
    G, p = g_test_scores(sp.csr_matrix(X), y)
    for j in range(12):
        table = np.array([[np.sum((X[:, j] == a) & (y == c)) for c in np.unique(y)] for a in (0, 1)])
        stat, p_ref, dof, _ = chi2_contingency(table, correction=False, lambda_="log-likelihood")
        assert G[j] == pytest.approx(stat, rel=1e-10, abs=1e-10) and p[j] == pytest.approx(p_ref, rel=1e-8)
        assert dof == 2
    assert np.allclose(G, 2 * 300 * mi_scores(X, y))


@pytest.mark.parametrize("seed", range(20))
def test_benjamini_hochberg_equals_scipy(seed):
    from scipy.stats import false_discovery_control
    rng = np.random.default_rng(seed)
    p = np.r_[rng.random(int(rng.integers(1, 60))), rng.random(int(rng.integers(0, 20))) * 1e-3]
    q = float(rng.uniform(0.01, 0.3))
    assert np.array_equal(benjamini_hochberg(p, q), false_discovery_control(p) <= q)


@pytest.mark.parametrize("call, error, message", [
    (lambda: benjamini_hochberg([0.1, 1.2]), ValueError, "p_values must lie in"),
    (lambda: benjamini_hochberg([0.1, np.nan]), ValueError, "p_values must hold finite"),
    (lambda: benjamini_hochberg([0.1], q=1.0), ValueError, "q must be"),
    (lambda: mrmr_select(np.eye(4, dtype=int), [0, 1, 0, 1], 9), ValueError, "k must be"),
    (lambda: jmi_select(np.eye(4) * 0.5, [0, 1, 0, 1], 1), ValueError, "binarize"),
    (lambda: stability_selection(GaussianNB(), np.random.default_rng(0).normal(size=(20, 2)),
                                 np.arange(20) % 2, n_subsamples=2), TypeError, "coef_"),
])
def test_new_functions_refuse_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


def _brute_force(criterion, X, y, k):
    """The criterion looped over candidates with mutual_info_score (sklearn), as the papers write it."""
    n = X.shape[1]
    relevance = [mutual_info_score(X[:, j], y) for j in range(n)]
    selected = [int(np.argmax(relevance))]
    while len(selected) < k:
        best, best_score = None, -np.inf
        for j in range(n):
            if j in selected:
                continue
            if criterion == "mrmr":
                score = relevance[j] - np.mean([mutual_info_score(X[:, j], X[:, s]) for s in selected])
            else:
                score = sum(mutual_info_score(2 * X[:, j] + X[:, s], y) for s in selected)
            if score > best_score + 1e-12:
                best, best_score = j, score
        selected.append(best)
    return selected


@pytest.mark.parametrize("criterion", ["mrmr", "jmi"])
@pytest.mark.parametrize("seed", range(4))
def test_mrmr_and_jmi_equal_a_brute_force(criterion, seed):
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 2, (250, 4))
    y = (base[:, 0] ^ base[:, 1]) | (rng.random(250) < 0.1 * seed)
    noisy = np.where(rng.random((250, 4)) < 0.2, 1 - base, base)
    X = np.c_[base, noisy, rng.integers(0, 2, (250, 4))]
    select = mrmr_select if criterion == "mrmr" else jmi_select
    assert select(sp.csr_matrix(X), y, 6) == _brute_force(criterion, X, y, 6)


def test_jmi_reaches_the_xor_pair_exactly_when_its_tied_second_pick_is_a_bit():
    # Chapter 7's story: JMI takes the noisy copy first; at step 2 every other bit
    # is independent of (y, copy), so all ten tie in the population and sampling
    # noise picks one. If it is an XOR bit, step 3 adds its partner (pair term
    # log 2); otherwise the top 3 misses the pair. A univariate filter never finds it.
    found = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        a, b = rng.integers(0, 2, (2, 400))
        y = a ^ b
        copy = np.where(rng.random(400) < 0.35, 1 - y, y)
        X = np.c_[a, b, copy, rng.integers(0, 2, (400, 8))]
        top = jmi_select(X, y, 3)
        assert top[0] == 2
        assert ({0, 1} <= set(top)) == (top[1] in (0, 1))
        if top[1] in (0, 1):
            assert top[2] == 1 - top[1]
        found += {0, 1} <= set(top)
        assert set(np.argsort(-mi_scores(X, y))[:2]) != {0, 1}
    assert 2 <= found <= 16    # about 2 in 10 of the tied candidates are bits


def test_stability_selection_frequencies_and_bound():
    from sklearn.linear_model import LogisticRegression
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 20))
    y = (X[:, :3].sum(axis=1) + rng.normal(size=200) > 0).astype(int)
    model = LogisticRegression(l1_ratio=1.0, solver="liblinear", C=0.3)
    freq, q = stability_selection(model, X, y, n_subsamples=30, random_state=1)
    again, _ = stability_selection(model, X, y, n_subsamples=30, random_state=1)
    assert np.array_equal(freq, again) and freq.shape == (20,)
    assert freq[:3].min() > 0.9 and 0 < q < 20
    draws = np.random.default_rng(1)
    rows = draws.choice(200, 100, replace=False)                          # the first half-sample
    seed = int(draws.integers(2**31 - 1))                                 # and its learner's seed
    first = LogisticRegression(l1_ratio=1.0, solver="liblinear", C=0.3, random_state=seed).fit(X[rows], y[rows])
    assert np.all(freq[first.coef_[0] != 0] > 0)


@pytest.mark.parametrize("direction", ["forward", "backward"])
def test_paths_equal_sequential_feature_selector_at_every_size_on_wine(direction):
    """Review finding 19: every size from 1 to n - 1 (equal sets at every size = the same order)."""
    X, y = load_wine(return_X_y=True)
    search = forward_search if direction == "forward" else backward_search
    path = search(GaussianNB(), X, y, cv=4).path
    sizes = range(1, X.shape[1])
    sfs, _ = _sfs_sets(GaussianNB(), X, y, direction, sizes, check_sizes=(X.shape[1] // 2,))
    for size in sizes:
        ours = sorted(path.loc[path["selected"].map(len) == size, "selected"].iloc[0])
        assert ours == sfs[size], size


def _chapter_cell(tag_or_text):
    import json
    from pathlib import Path
    notebook = json.loads((Path(__file__).parents[1] / "chapters" / "07_feature_selection.ipynb").read_text())
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if tag_or_text in source:
            return source
    raise LookupError(tag_or_text)


def test_ex07_step_hidden_test_fails_a_wrong_tie_break():
    """Review finding 25: the hidden test must catch a solution that keeps the *last* tied feature."""
    from sklearn.model_selection import StratifiedKFold
    X, y = make_classification(n_samples=5100, n_features=10, n_informative=4, n_redundant=2,
                               flip_y=0.05, class_sep=0.8, random_state=2026)
    folds = StratifiedKFold(5, shuffle=True, random_state=2026)
    namespace = {"np": np, "GaussianNB": GaussianNB, "cross_val_score": cross_val_score,
                 "X_train": X[:100], "y_train": y[:100], "folds": folds,
                 "forward": forward_search(GaussianNB(), X[:100], y[:100], cv=folds, max_features=2)}
    hidden = _chapter_cell("X_dup = np.c_[")

    def solution(ties_to_last):
        def forward_step(estimator, X, y, selected, cv):
            best = (None, -np.inf)
            for feature in range(X.shape[1]):
                if feature in selected:
                    continue
                score = cross_val_score(estimator, X[:, list(selected) + [feature]], y, cv=cv).mean()
                if score > best[1] or (ties_to_last and score == best[1]):
                    best = (feature, float(score))
            return best
        return forward_step

    exec(hidden, dict(namespace, forward_step=solution(False)))          # the right solution passes
    with pytest.raises(AssertionError, match="smallest feature index"):
        exec(hidden, dict(namespace, forward_step=solution(True)))       # ">=" fails


def test_stability_selection_seeds_a_learner_left_unseeded():
    """The same random_state gives the same frequencies even when liblinear would shuffle at random."""
    from sklearn.linear_model import LogisticRegression
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 30))
    y = (X[:, 0] + rng.normal(size=120) > 0).astype(int)
    model = LogisticRegression(l1_ratio=1.0, solver="liblinear", C=0.2, tol=1e-2)   # loose: order matters
    runs = [stability_selection(model, X, y, n_subsamples=20, random_state=5)[0] for _ in range(4)]
    assert all(np.array_equal(runs[0], r) for r in runs[1:])
    assert model.get_params()["random_state"] is None                        # the caller's object untouched


def test_knn_searches_score_each_step_in_one_batch_as_cross_val_score_does():
    # Plain k-NN's candidates of a step are scored together from per-feature squared
    # distances; the path must equal cross_val_score per subset, bit for bit, both ways.
    # Iris (rounded to 0.1 cm: many tied distances) exercises the fall-back to
    # scikit-learn for a near tie; k = 4 on three classes, tied votes.
    rng = np.random.default_rng(0)
    X, y = make_classification(n_samples=60, n_features=4, n_informative=3,
                               n_redundant=0, random_state=5)
    X_iris, y_iris = load_iris(return_X_y=True)
    cases = [(X, y, KNeighborsClassifier(5), 3),
             (X + 1e3, y, KNeighborsClassifier(1, metric="euclidean"), 3),
             (X_iris[::3], y_iris[::3], KNeighborsClassifier(4), 3),
             (rng.integers(0, 2, (40, 4)).astype(float), rng.integers(0, 2, 40),
              KNeighborsClassifier(3), 3)]
    for i, (data, labels, knn, cv) in enumerate(cases):
        # Backward on iris only: each subset scored one by one costs ~40 ms of CPU.
        for search in (forward_search, backward_search)[:1 + (i == 2)]:
            batched = search(knn, data, labels, cv=cv)
            one_by_one = search(knn, data, labels, cv=cv,
                                scoring=make_scorer(accuracy_score))  # one by one
            assert batched.path[["feature", "score", "n_fits"]].equals(
                one_by_one.path[["feature", "score", "n_fits"]])
