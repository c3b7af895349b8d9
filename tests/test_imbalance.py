"""Tests of mlcore.imbalance against imbalanced-learn."""

import numpy as np
import pytest
from imblearn.ensemble import EasyEnsembleClassifier as ImbEasyEnsemble  # noqa: F401  (API reference)
from imblearn.over_sampling import SMOTE
from imblearn.under_sampling import RandomUnderSampler
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import NearestNeighbors
from sklearn.utils.estimator_checks import parametrize_with_checks

from mlcore.imbalance import (EasyEnsembleClassifier, best_f1_threshold, random_undersample, rescale_threshold,
                              smote, undersampling_correction)


@parametrize_with_checks([EasyEnsembleClassifier(LogisticRegression(), n_subsets=3, random_state=0)])
def test_easy_ensemble_is_a_scikit_learn_estimator(estimator, check):
    check(estimator)


def _imbalanced(seed=0, m=300, share=0.1):
    rng = np.random.default_rng(seed)
    y = (rng.random(m) < share).astype(int)
    y[:6] = 1
    return rng.normal(size=(m, 3)) + y[:, None], y


@pytest.mark.parametrize("seed, k", [(0, 5), (1, 3), (2, 1)])
def test_smote_draws_the_same_points_as_imbalanced_learn(seed, k):
    X, y = _imbalanced(seed)
    ours = smote(X, y, k_neighbors=k, random_state=seed)
    theirs = SMOTE(k_neighbors=k, random_state=seed).fit_resample(X, y)
    assert np.allclose(ours[0], theirs[0]) and np.array_equal(ours[1], theirs[1])


def test_smote_points_lie_on_segments_to_minority_neighbours():
    X, y = _imbalanced(3)
    X_new, y_new = smote(X, y, k_neighbors=4, random_state=3)
    minority = X[y == 1]
    neighbours = NearestNeighbors(n_neighbors=5).fit(minority).kneighbors(minority, return_distance=False)[:, 1:]
    for point in X_new[len(X):]:
        found = False
        for i, row in enumerate(neighbours):
            for j in row:
                a, b = minority[i], minority[j]
                t = (point - a) @ (b - a) / ((b - a) @ (b - a))
                if -1e-12 <= t <= 1 + 1e-12 and np.allclose(a + t * (b - a), point):
                    found = True
        assert found
    assert np.bincount(y_new).tolist() == [np.sum(y == 0)] * 2


def test_random_undersample_counts_match_imbalanced_learn():
    X, y = _imbalanced(4)
    _, ours = random_undersample(X, y, random_state=0)
    _, theirs = RandomUnderSampler(random_state=0).fit_resample(X, y)
    assert np.array_equal(np.bincount(ours), np.bincount(theirs))
    X_small, _ = random_undersample(X, y, random_state=0)
    assert all(any(np.array_equal(row, x) for x in X) for row in X_small)   # a subset of X


def test_rescaled_threshold_is_the_class_ratio():
    p = np.linspace(0.001, 0.999, 999)
    predictions = rescale_threshold(p, n_positive=20, n_negative=180)
    assert np.array_equal(predictions, (p > 0.1).astype(int))


def test_bad_input():
    X, y = _imbalanced(5)
    with pytest.raises(ValueError, match="k_neighbors must be an integer in"):
        smote(X, y, k_neighbors=int(y.sum()))
    with pytest.raises(ValueError, match="exactly two classes"):
        smote(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="probabilities in \\[0, 1\\]"):
        rescale_threshold([0.5, 1.5], 1, 2)
    with pytest.raises(ValueError, match="n_positive must be an integer >= 1"):
        rescale_threshold([0.5], 0, 2)


# -- FUZZ-2 D9: nothing here squares X, so no 1e150 cap --
def test_resamplers_accept_extreme_but_finite_x():
    X, y = _imbalanced(6)
    for factor in (1e200, 1e-200):
        X_small, y_small = random_undersample(X * factor, y, random_state=0)
        assert np.allclose(X_small / factor, random_undersample(X, y, random_state=0)[0], rtol=1e-14)
        X_new, y_new = smote(X * factor, y, k_neighbors=3, random_state=0)
        reference = smote(X, y, k_neighbors=3, random_state=0)[0]
        assert np.allclose(X_new / factor, reference, rtol=1e-12) and np.array_equal(y_new, y_new)
    with pytest.raises(ValueError, match="X must lie within \\[-8e307, 8e307\\] for SMOTE"):
        smote(X / np.abs(X).max() * 1e308, y)


# -- beyond the anchors: imbalance as a prior shift; the F1-optimal threshold --
def test_undersampling_correction_recovers_the_full_data_posterior():
    rng = np.random.default_rng(7)
    m = 200_000
    y = (rng.random(m) < 0.05).astype(int)
    x = rng.normal(size=m) + 1.5 * y
    posterior = lambda x_, prior: 1 / (1 + (1 - prior) / prior * np.exp(-(1.5 * x_ - 1.125)))
    beta = y.sum() / (m - y.sum())                       # a balanced undersample
    p_balanced = posterior(x, 0.5)                      # the Bayes posterior after undersampling
    corrected = undersampling_correction(p_balanced, beta)
    assert np.allclose(corrected, posterior(x, y.mean()), rtol=1e-12)
    # thresholding the corrected probability at m+/m is thresholding p_balanced at 1/2
    assert np.array_equal(corrected > beta / (1 + beta), p_balanced > 0.5)
    # and the same rule as rescale_threshold on the full-data probabilities
    assert np.array_equal(rescale_threshold(corrected, y.sum(), m - y.sum()), (p_balanced > 0.5).astype(int))


def test_best_f1_threshold_equals_brute_force():
    from sklearn.metrics import f1_score
    rng = np.random.default_rng(8)
    for _ in range(10):
        y = (rng.random(80) < 0.2).astype(int)
        y[0] = 1
        score = np.round(rng.normal(size=80) + y, 1)              # ties
        threshold, f1 = best_f1_threshold(y, score)
        brute = max(f1_score(y, score >= t) for t in np.unique(score))
        assert abs(f1 - brute) < 1e-12 and abs(f1_score(y, score >= threshold) - f1) < 1e-12


def test_new_functions_bad_input():
    with pytest.raises(ValueError, match="beta must be"):
        undersampling_correction([0.5], beta=0)
    with pytest.raises(ValueError, match="p_balanced must be"):
        undersampling_correction([1.5], beta=0.5)
    with pytest.raises(ValueError, match="y_true must hold labels 0 and 1"):
        best_f1_threshold([0, 0], [0.1, 0.2])


def test_remedy_study_applies_each_remedy_inside_the_folds():
    from sklearn.metrics import balanced_accuracy_score, f1_score
    from sklearn.model_selection import StratifiedKFold

    from mlcore.imbalance import REMEDIES, remedy_study
    X, y = _imbalanced(9, m=600, share=0.08)
    table, out = remedy_study(X, y, random_state=0)
    assert list(table.index) == list(REMEDIES)
    folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    for remedy in ("rescaling", "SMOTE"):
        predicted = out[remedy][0]
        assert abs(table.loc[remedy, "F1"] - np.mean([f1_score(y[te], predicted[te]) for _, te in folds])) < 1e-12
        assert abs(table.loc[remedy, "balanced accuracy"]
                   - np.mean([balanced_accuracy_score(y[te], predicted[te]) for _, te in folds])) < 1e-12
    model = LogisticRegression(max_iter=1000)
    train, test = folds[0]
    Xs, ys = smote(X[train], y[train], random_state=0)
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    p = make_pipeline(StandardScaler(), model).fit(Xs, ys).predict_proba(X[test])[:, 1]
    assert np.allclose(out["SMOTE"][1][test], p)                     # SMOTE on the training fold only
    assert table.loc["undersampling, corrected", "log loss"] < table.loc["undersampling", "log loss"]
    with pytest.raises(ValueError, match="remedies must be a list"):
        remedy_study(X, y, ["bagging"])
    with pytest.raises(ValueError, match="labels 0 and 1"):
        remedy_study(X, y + 1)
