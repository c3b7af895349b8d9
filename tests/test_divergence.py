"""Tests of mlcore.divergence against SciPy, scikit-learn and direct computations."""

import numpy as np
import pytest
from scipy import stats
from sklearn.covariance import LedoitWolf
from sklearn.datasets import load_wine
from sklearn.model_selection import KFold, StratifiedKFold

from mlcore.datasets import load_wholesale
from mlcore.divergence import (KLCriterionFigure, gaussian_kl, kfold_kl_curve, max_n_folds,
                               regularized_kl_criterion, select_n_folds, symmetric_gaussian_kl)
from mlcore.divergence._kl import _orders


def random_gaussian(rng, d):
    A = rng.normal(size=(d, d))
    return rng.normal(size=d), A @ A.T + 0.5 * np.eye(d)


def direct_kl(m0, S0, m1, S1):
    """The textbook formula with explicit inverses and determinants."""
    inv = np.linalg.inv(S1)
    diff = m1 - m0
    return 0.5 * (np.trace(inv @ S0) + diff @ inv @ diff - len(m0)
                  + np.log(np.linalg.det(S1) / np.linalg.det(S0)))


def test_gaussian_kl_matches_the_direct_formula():
    rng = np.random.default_rng(0)
    for d in (1, 3, 7):
        p, q = random_gaussian(rng, d), random_gaussian(rng, d)
        assert gaussian_kl(*p, *q) == pytest.approx(direct_kl(*p, *q), rel=1e-10)


def test_gaussian_kl_matches_a_monte_carlo_estimate_with_scipy():
    rng = np.random.default_rng(1)
    p, q = random_gaussian(rng, 4), random_gaussian(rng, 4)
    P, Q = stats.multivariate_normal(*p), stats.multivariate_normal(*q)
    sample = P.rvs(size=200_000, random_state=2)
    log_ratio = P.logpdf(sample) - Q.logpdf(sample)
    se = log_ratio.std() / np.sqrt(log_ratio.size)
    assert abs(gaussian_kl(*p, *q) - log_ratio.mean()) < 4 * se


def test_one_dimensional_kl_matches_scipy_entropy_on_a_grid():
    grid = np.linspace(-30, 30, 200_001)
    for (m0, s0), (m1, s1) in [((0, 1), (1, 2)), ((2, 0.5), (-1, 1.5)), ((0, 3), (0, 1))]:
        p, q = stats.norm.pdf(grid, m0, s0), stats.norm.pdf(grid, m1, s1)
        expected = stats.entropy(p, q)      # normalizes both and sums p log(p/q)
        assert gaussian_kl([m0], [[s0 ** 2]], [m1], [[s1 ** 2]]) == pytest.approx(expected, rel=1e-6)


def test_kl_is_zero_for_equal_gaussians_nonnegative_and_not_symmetric():
    rng = np.random.default_rng(3)
    p, q = random_gaussian(rng, 3), random_gaussian(rng, 3)
    assert gaussian_kl(*p, *p) == pytest.approx(0.0, abs=1e-12)
    assert gaussian_kl(*p, *q) > 0 and gaussian_kl(*q, *p) > 0
    assert abs(gaussian_kl(*p, *q) - gaussian_kl(*q, *p)) > 1e-3
    sym = symmetric_gaussian_kl(*p, *q)
    assert sym == pytest.approx(gaussian_kl(*p, *q) + gaussian_kl(*q, *p))
    assert sym == pytest.approx(symmetric_gaussian_kl(*q, *p))


def test_kl_is_invariant_under_an_affine_map():
    rng = np.random.default_rng(4)
    (m0, S0), (m1, S1) = random_gaussian(rng, 3), random_gaussian(rng, 3)
    A, b = rng.normal(size=(3, 3)), rng.normal(size=3)
    mapped = gaussian_kl(A @ m0 + b, A @ S0 @ A.T, A @ m1 + b, A @ S1 @ A.T)
    assert mapped == pytest.approx(gaussian_kl(m0, S0, m1, S1), rel=1e-8)


def test_gaussian_kl_rejects_bad_input():
    with pytest.raises(ValueError, match="cov_q must be positive definite"):
        gaussian_kl([0, 0], np.eye(2), [0, 0], [[1, 1], [1, 1]])
    with pytest.raises(ValueError, match="mean_p must be a vector of length d"):
        gaussian_kl([0, 0, 0], np.eye(2), [0, 0], np.eye(2))
    with pytest.raises(ValueError, match="finite"):
        gaussian_kl([np.nan], [[1.0]], [0.0], [[1.0]])


def naive_curve_with_sklearn(X, Ks, orders, shrinkage=None):
    """Independent reference: scikit-learn's KFold on each order, np.cov / LedoitWolf."""
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    curves = []
    for order in orders:
        row = []
        for K in Ks:
            kls = []
            for train, test in KFold(n_splits=K).split(Z):
                fits = []
                for rows in (Z[order[test]], Z[order[train]]):
                    cov = (np.cov(rows, rowvar=False) if shrinkage is None
                           else LedoitWolf().fit(rows).covariance_)
                    fits.append((rows.mean(axis=0), cov))
                kls.append(direct_kl(*fits[0], *fits[1]) + direct_kl(*fits[1], *fits[0]))
            row.append(np.mean(kls))
        curves.append(row)
    return np.mean(curves, axis=0)


@pytest.mark.parametrize("stratify", [False, True])
def test_fast_curve_matches_kfold_and_np_cov(stratify):
    X, y = load_wine(return_X_y=True)
    Ks = [2, 3, 5, 8, 12]
    fast = kfold_kl_curve(X, Ks, y, n_repeats=3, stratify=stratify, random_state=5)
    orders = _orders(len(X), y, 3, stratify, 5)
    reference = naive_curve_with_sklearn(X, Ks, orders)
    np.testing.assert_allclose(fast, reference, rtol=1e-9)
    naive = kfold_kl_curve(X, Ks, y, n_repeats=3, stratify=stratify, random_state=5, method="naive")
    np.testing.assert_allclose(fast, naive, rtol=1e-9)


def test_ledoit_wolf_curve_matches_scikit_learn_beyond_the_singular_limit():
    X, y = load_wine(return_X_y=True)
    Ks = [2, 13, 20, 44, 59]            # K = 59 leaves test folds of 3 samples
    fast = kfold_kl_curve(X, Ks, y, n_repeats=2, shrinkage="ledoit-wolf", random_state=6)
    reference = naive_curve_with_sklearn(X, Ks, _orders(len(X), y, 2, False, 6), "ledoit-wolf")
    np.testing.assert_allclose(fast, reference, rtol=1e-9)


def test_stratified_folds_keep_class_proportions_like_stratified_kfold():
    X, y = load_wine(return_X_y=True)
    proportions = np.bincount(y) / len(y)
    order = _orders(len(y), y, 1, True, 7)[0]
    for K in (2, 5, 10):
        ours = [np.bincount(y[order[test]], minlength=3) for _, test in KFold(K).split(X)]
        theirs = [np.bincount(y[test], minlength=3)
                  for _, test in StratifiedKFold(K, shuffle=True, random_state=0).split(X, y)]
        for counts in ours:
            assert np.all(np.abs(counts - proportions * counts.sum()) < 1.5), (K, counts)
        worst_ours = max(np.abs(c - proportions * c.sum()).max() for c in ours)
        worst_theirs = max(np.abs(c - proportions * c.sum()).max() for c in theirs)
        assert worst_ours <= worst_theirs + 1


def test_curve_is_reproducible_parallel_and_grows_with_K():
    X, y = load_wholesale("region", return_X_y=True)
    Ks = np.arange(2, 21)
    first = kfold_kl_curve(X, Ks, y, n_repeats=30, stratify=True, random_state=8)
    again = kfold_kl_curve(X, Ks, y, n_repeats=30, stratify=True, random_state=8, n_jobs=2)
    np.testing.assert_allclose(first, again, rtol=1e-12)
    other = kfold_kl_curve(X, Ks, y, n_repeats=30, stratify=True, random_state=9)
    assert not np.allclose(first, other)
    assert np.corrcoef(Ks, first)[0, 1] > 0.95
    repeats = kfold_kl_curve(X, Ks, y, n_repeats=30, stratify=True, random_state=8,
                             return_repeats=True)
    assert repeats.shape == (30, Ks.size)
    np.testing.assert_allclose(repeats.mean(axis=0), first)


def test_kfold_kl_curve_rejects_bad_input_with_actionable_messages():
    X, y = load_wine(return_X_y=True)
    with pytest.raises(ValueError, match=r"K=14.*12 samples.*max_n_folds\(178, 13\)"):
        kfold_kl_curve(X, [2, 14])
    assert max_n_folds(178, 13) == 12
    with pytest.raises(ValueError, match="Ks must be an integer in \\[2, 178\\], got Ks=1"):
        kfold_kl_curve(X, [1, 5])
    with pytest.raises(ValueError, match="got Ks=179"):
        kfold_kl_curve(X, [179], shrinkage="ledoit-wolf")
    with pytest.raises(ValueError, match="K=60.*2 samples.*Ledoit-Wolf needs 3"):
        kfold_kl_curve(X, [60], shrinkage="ledoit-wolf")
    bad = X.copy()
    bad[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        kfold_kl_curve(bad, [2])
    with pytest.raises(ValueError, match="stratify=True needs the class labels y"):
        kfold_kl_curve(X, [2], stratify=True)
    with pytest.raises(ValueError, match="shrinkage must be one of"):
        kfold_kl_curve(X, [2], shrinkage="oas")
    with pytest.raises(ValueError, match="constant columns \\[0\\]"):
        kfold_kl_curve(np.column_stack([np.ones(178), X]), [2])


def test_repeated_rows_make_a_fold_singular_and_the_error_says_so():
    X, _ = load_wine(return_X_y=True)
    X = np.repeat(X[:60], 3, axis=0)    # every row three times
    with pytest.raises(ValueError, match="K=12.*singular.*repeated rows"):
        kfold_kl_curve(X, [2, 12], n_repeats=5, random_state=0)
    assert np.isfinite(kfold_kl_curve(X, [12], n_repeats=5, random_state=0,
                                      shrinkage="ledoit-wolf")).all()


def test_regularized_criterion_and_selected_K():
    Ks = np.arange(2, 31)
    curve = 0.1 + 0.02 * Ks
    np.testing.assert_allclose(regularized_kl_criterion(curve, Ks, 3.0), curve + 3.0 * np.exp(-Ks))
    assert select_n_folds(curve, Ks, 0.0) == 2
    # minimum of 0.02 K + lam e^-K is at K = ln(lam / 0.02): choose lam for K* = 10
    assert select_n_folds(curve, Ks, 0.02 * np.exp(10.2)) == 10
    lams = np.geomspace(1e-3, 1e12, 40)
    path = select_n_folds(curve, Ks, lams)
    assert np.all(np.diff(path) >= 0) and path[-1] == 30
    inverse = select_n_folds(curve, Ks, 10.0, penalty=lambda K: 1.0 / K)
    assert inverse == Ks[np.argmin(curve + 10.0 / Ks)]
    with pytest.raises(ValueError, match="lam must be >= 0, got lam=-1.0"):
        regularized_kl_criterion(curve, Ks, -1.0)
    with pytest.raises(ValueError, match="same length"):
        regularized_kl_criterion(curve[:-1], Ks, 1.0)


def test_figure_marks_the_selected_K():
    Ks = np.arange(2, 16)
    figure = KLCriterionFigure(curves={"toy": (Ks, 0.05 * Ks), "other": (Ks, 0.1 * Ks)})
    for lam in (1.0, 1e3, 1e5):
        figure.update(dataset="other", lam=lam)
        assert figure.best.get_xdata()[0] == select_n_folds(0.1 * Ks, Ks, lam)
    assert "K* =" in figure.ax.get_title()


def test_uninverted_mean_term_matches_direct_loop():
    from sklearn.model_selection import KFold
    from mlcore.divergence import uninverted_mean_term_curve
    X = np.random.default_rng(3).normal(size=(60, 3)) * [1, 10, 100]
    brute = []
    for K in (2, 5, 30):
        vals = [0.5 * (X[tr].mean(0) - X[te].mean(0)) @ (np.cov(X[tr].T) + np.cov(X[te].T))
                @ (X[tr].mean(0) - X[te].mean(0))
                for r in range(2) for tr, te in KFold(K, shuffle=True, random_state=r).split(X)]
        brute.append(np.mean(vals))
    np.testing.assert_allclose(uninverted_mean_term_curve(X, [2, 5, 30], n_repeats=2), brute, rtol=1e-9)
    with pytest.raises(ValueError, match="Ks"):
        uninverted_mean_term_curve(X, [31])


def test_gaussian_mmd2_matches_brute_force():
    from mlcore.divergence import gaussian_mmd2
    rng = np.random.default_rng(4)
    X, Y, s = rng.normal(size=(15, 2)), rng.normal(0.5, 1, size=(11, 2)), 0.8
    k = lambda a, b: np.exp(-np.sum((a - b) ** 2) / (2 * s * s))
    xx = sum(k(X[i], X[j]) for i in range(15) for j in range(15) if i != j) / (15 * 14)
    yy = sum(k(Y[i], Y[j]) for i in range(11) for j in range(11) if i != j) / (11 * 10)
    xy = sum(k(x, y) for x in X for y in Y) / (15 * 11)
    assert gaussian_mmd2(X, Y, s) == pytest.approx(xx + yy - 2 * xy, rel=1e-10)
    with pytest.raises(ValueError, match="bandwidth"):
        gaussian_mmd2(X, Y, 0.0)
