"""What the chapter-5 source paper appears to have computed (private; the public face is mlcore.divergence).

The paper's D_AKL values are far too large to be Gaussian KL divergences
(which do not depend on units) and it reports them up to K = m/2, where a
two-sample test fold has a singular covariance and no Gaussian KL exists.
:func:`uninverted_mean_term_curve` computes the quantity that tracks the
published numbers by a nearly constant factor over the whole K range: the mean
term of the symmetric Gaussian KL with the covariances *not* inverted,
0.5 * diff^T (S_train + S_test) diff, on the raw (unstandardized) features.
:func:`gaussian_mmd2` is the second divergence the paper names (maximum mean
discrepancy with a Gaussian kernel), used by the chapter's exercise.
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import KFold

from .._validation import as_generator, check_array, check_int, check_random_state, check_real

__all__ = ["paper_datasets", "uninverted_mean_term_curve", "gaussian_mmd2"]


def uninverted_mean_term_curve(X, Ks, n_repeats=3, random_state=0):
    """Average over folds of 0.5 * diff^T (S_train + S_test) diff, no inversion.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Raw features (the quantity has squared units squared, so do not standardize).
    Ks : sequence of int
        Numbers of folds, each between 2 and n_samples // 2 (every fold needs 2 samples).
    n_repeats : int, default=3
        Shuffled K-fold partitions averaged per K.
    random_state : int, numpy Generator or SeedSequence, or None, default=0
        Seed; repetition r uses ``KFold(K, shuffle=True, random_state=random_state + r)``
        when ``random_state + n_repeats - 1 < 2**32``; a larger integer, a generator
        or None gives the n_repeats seeds by ``as_generator(random_state).integers(2**32)``.

    Returns
    -------
    ndarray of shape (len(Ks),)
        The fold-and-repeat average for each K; diff is the training mean minus
        the test mean and S are unbiased sample covariances. The quantity scales
        as the fourth power of X: it is computed on X / max|X| and scaled back,
        so it is ``inf`` only where the true value exceeds the float range.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(40, 2)) * 100
    >>> curve = uninverted_mean_term_curve(X, [2, 10, 20])
    >>> bool(np.all(np.diff(curve) > 0))
    True
    """
    X = check_array(X, "X", ndim=2)
    if X.shape[0] < 4 or X.shape[1] < 1:
        raise ValueError(f"X must be a 2-D array with at least 4 rows and 1 column, "
                         f"got shape {X.shape}.")
    m = X.shape[0]
    Ks = [check_int(K, "Ks", low=2, high=m // 2) for K in np.atleast_1d(Ks)]
    n_repeats = check_int(n_repeats, "n_repeats", low=1)
    random_state = check_random_state(random_state)
    if isinstance(random_state, int) and random_state + n_repeats - 1 < 2 ** 32:
        seeds = [random_state + r for r in range(n_repeats)]
    else:  # no seed out of KFold's range [0, 2**32 - 1]
        seeds = [int(v) for v in as_generator(random_state).integers(2 ** 32, size=n_repeats)]
    X = X - X.mean(axis=0)                 # the quantity is translation-invariant ...
    scale = np.abs(X).max()
    if scale == 0:
        return np.zeros(len(Ks))
    X = X / scale                          # ... and homogeneous of degree 4
    total, total_sq = X.sum(axis=0), X.T @ X
    out = np.empty(len(Ks))
    for j, K in enumerate(Ks):
        values = []
        for seed in seeds:
            for _, test in KFold(K, shuffle=True, random_state=seed).split(X):
                a, b = len(test), m - len(test)
                s1, s2 = X[test].sum(axis=0), X[test].T @ X[test]
                mean_test, mean_train = s1 / a, (total - s1) / b
                cov_test = (s2 - a * np.outer(mean_test, mean_test)) / (a - 1)
                cov_train = (total_sq - s2 - b * np.outer(mean_train, mean_train)) / (b - 1)
                diff = mean_train - mean_test
                values.append(0.5 * diff @ (cov_train + cov_test) @ diff)
        out[j] = np.mean(values)
    with np.errstate(over="ignore"):
        return out * scale ** 2 * scale ** 2


def gaussian_mmd2(X, Y, bandwidth):
    """Unbiased squared maximum mean discrepancy with a Gaussian kernel.

    Parameters
    ----------
    X : array-like of shape (n, d)
        First sample, n >= 2.
    Y : array-like of shape (p, d)
        Second sample, p >= 2.
    bandwidth : float
        Kernel width sigma > 0 in ``k(x, y) = exp(-||x - y||^2 / (2 sigma^2))``.

    Returns
    -------
    float
        mean_{i != j} k(x_i, x_j) + mean_{i != j} k(y_i, y_j) - 2 mean_{i, j} k(x_i, y_j)
        (Gretton et al. 2012, eq. 3); it can be slightly negative.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> same = gaussian_mmd2(rng.normal(size=(200, 2)), rng.normal(size=(200, 2)), 1.0)
    >>> shifted = gaussian_mmd2(rng.normal(size=(200, 2)), rng.normal(2, 1, size=(200, 2)), 1.0)
    >>> bool(abs(same) < 0.02 < shifted)
    True
    """
    X, Y = check_array(X, "X", ndim=2), check_array(Y, "Y", ndim=2)
    for name, A in (("X", X), ("Y", Y)):
        if A.shape[0] < 2:
            raise ValueError(f"{name} must be a 2-D array with at least 2 rows, got shape {A.shape}.")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X and Y must have the same number of columns, got {X.shape[1]} and {Y.shape[1]}.")
    bandwidth = check_real(bandwidth, "bandwidth", low=0, low_open=True)
    from scipy.spatial.distance import cdist
    # k depends on distance / bandwidth only: rescale jointly so that nothing over- or underflows
    scale = max(np.abs(X).max(), np.abs(Y).max())
    if scale > 0:
        X, Y = X / scale, Y / scale
    with np.errstate(over="ignore", under="ignore"):
        width = bandwidth / scale if scale > 0 else np.inf   # 0 (underflow) and inf are fine

    def kernel(A, B):
        dist = cdist(A, B)
        with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
            ratio = np.where(dist == 0, 0.0, dist / width)
            return np.exp(-0.5 * np.minimum(ratio, 1e100) ** 2)

    n, p = len(X), len(Y)
    kxx, kyy = kernel(X, X), kernel(Y, Y)
    return float((kxx.sum() - np.trace(kxx)) / (n * (n - 1))
                 + (kyy.sum() - np.trace(kyy)) / (p * (p - 1))
                 - 2 * kernel(X, Y).mean())


def paper_datasets():
    """The seven data sets of the source paper: name -> (X, y), y the label to stratify on.

    Examples
    --------
    >>> {name: X.shape for name, (X, y) in paper_datasets().items()}["Wine"]
    (178, 13)
    """
    from sklearn.datasets import load_wine

    from ..datasets import load_wholesale, load_wine_quality
    return {
        "Wholesale, 2 classes": load_wholesale("channel", return_X_y=True),
        "Wholesale, 3 classes": load_wholesale("region", return_X_y=True),
        "Wine": load_wine(return_X_y=True),
        "Red, 2 classes": load_wine_quality("red", binary=True, return_X_y=True),
        "Red, 6 classes": load_wine_quality("red", return_X_y=True),
        "White, 2 classes": load_wine_quality("white", binary=True, return_X_y=True),
        "White, 7 classes": load_wine_quality("white", return_X_y=True),
    }
