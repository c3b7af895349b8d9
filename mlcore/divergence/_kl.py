"""Gaussian KL divergences and the K-fold D_AKL curve of chapter 5 (private; the public face is
:mod:`mlcore.divergence`).

:func:`gaussian_kl` and :func:`symmetric_gaussian_kl` are the closed forms.
:func:`kfold_kl_curve` estimates D_AKL(K): the symmetric KL between the
Gaussian fitted to the training part and the one fitted to the test part,
averaged over the K folds and over repeated shuffles.
The fast path never re-estimates a covariance from samples. In each
repetition the standardized data are put in one shuffled order; K-fold CV
(like scikit-learn's ``KFold``) then cuts that order into K contiguous
blocks, so the sums of x and x x^T over every fold of every K are
differences of one table of prefix sums. All folds of all K are then
handled at once by a Cholesky factorization vectorized over folds.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy.linalg import cho_factor, solve_triangular

from .._parallel import parallel_map
from .._validation import (as_generator, check_array, check_bool, check_int, check_option,
                           check_random_state)

__all__ = ["gaussian_kl", "symmetric_gaussian_kl", "max_n_folds", "kfold_kl_curve"]

_SINGULAR_TOL = 1e-10   # relative Cholesky pivot below which a covariance counts as singular
_CHUNK = 4096           # folds handled at once by the vectorized Cholesky


# --------------------------------------------------------------------------- closed forms
def _check_gaussian(mean, cov, name):
    mean = check_array(mean, f"mean_{name}", allow_nan=True)
    cov = np.atleast_2d(check_array(cov, f"cov_{name}", allow_nan=True))
    if mean.ndim != 1 or cov.shape != (mean.size, mean.size):
        raise ValueError(f"mean_{name} must be a vector of length d and cov_{name} a (d, d) matrix, "
                         f"got shapes {mean.shape} and {cov.shape}.")
    if not (np.all(np.isfinite(mean)) and np.all(np.isfinite(cov))):
        raise ValueError(f"mean_{name} and cov_{name} must be finite (no NaN or infinity).")
    if not np.allclose(cov, cov.T, rtol=1e-10, atol=0):
        raise ValueError(f"cov_{name} must be symmetric.")
    try:
        factor = cho_factor(cov, lower=True)
    except np.linalg.LinAlgError:
        raise ValueError(f"cov_{name} must be positive definite; it is singular or indefinite, "
                         "so the Gaussian has no density and the KL is infinite.") from None
    return mean, cov, factor


def _lower_factor(factor):
    """The lower-triangular L with cov = L L^T from ``scipy.linalg.cho_factor``'s output."""
    c, lower = factor
    return np.tril(c) if lower else np.triu(c).T


def _solved_squared_norm(lower, b):
    """``sum((L^-1 b)**2)`` solved on rescaled L and b: inf on overflow, never NaN."""
    scale_l, scale_b = np.abs(lower).max(), np.abs(b).max()
    if scale_b == 0:
        return 0.0
    solved = solve_triangular(lower / scale_l, b / scale_b, lower=True)
    with np.errstate(over="ignore"):
        return float(np.sum(solved ** 2) * (scale_b / scale_l) ** 2)


def gaussian_kl(mean_p, cov_p, mean_q, cov_q):
    r"""KL(P || Q) for P = N(mean_p, cov_p) and Q = N(mean_q, cov_q), in nats.

    .. math:: \tfrac12\big[\operatorname{tr}(\Sigma_q^{-1}\Sigma_p)
       + (\mu_q-\mu_p)^\top\Sigma_q^{-1}(\mu_q-\mu_p) - d
       + \ln\det\Sigma_q - \ln\det\Sigma_p\big]

    Parameters
    ----------
    mean_p, mean_q : array-like of shape (d,)
    cov_p, cov_q : array-like of shape (d, d)
        Symmetric positive definite.

    Returns
    -------
    float

    Examples
    --------
    >>> round(gaussian_kl([0.0], [[1.0]], [1.0], [[4.0]]), 6)   # 1-D: ln 2 + (1 + 1)/8 - 1/2
    0.443147
    >>> gaussian_kl([0, 0], [[1, 0], [0, 1]], [0, 0], [[1, 0], [0, 1]])
    0.0
    """
    mean_p, cov_p, factor_p = _check_gaussian(mean_p, cov_p, "p")
    mean_q, cov_q, factor_q = _check_gaussian(mean_q, cov_q, "q")
    if mean_p.size != mean_q.size:
        raise ValueError(f"P and Q must have the same dimension, got {mean_p.size} and {mean_q.size}.")
    diff = mean_q - mean_p
    lower_p, lower_q = _lower_factor(factor_p), _lower_factor(factor_q)
    trace = _solved_squared_norm(lower_q, lower_p)
    mahalanobis = _solved_squared_norm(lower_q, diff)
    logdet_p = 2.0 * np.sum(np.log(np.diag(factor_p[0])))
    logdet_q = 2.0 * np.sum(np.log(np.diag(factor_q[0])))
    return float(max(0.5 * (trace + mahalanobis - mean_p.size + logdet_q - logdet_p), 0.0))


def symmetric_gaussian_kl(mean_p, cov_p, mean_q, cov_q):
    """The symmetric KL, KL(P || Q) + KL(Q || P), of two Gaussians.

    The log-determinants cancel, so it is
    ``(tr(Sq^-1 Sp) + tr(Sp^-1 Sq) + diff^T (Sp^-1 + Sq^-1) diff) / 2 - d``.

    Examples
    --------
    >>> kl = symmetric_gaussian_kl([0.0], [[1.0]], [1.0], [[4.0]])
    >>> bool(np.isclose(kl, gaussian_kl([0.0], [[1.0]], [1.0], [[4.0]])
    ...                     + gaussian_kl([1.0], [[4.0]], [0.0], [[1.0]])))
    True
    """
    return gaussian_kl(mean_p, cov_p, mean_q, cov_q) + gaussian_kl(mean_q, cov_q, mean_p, cov_p)


# --------------------------------------------------------------------------- folds
def max_n_folds(n_samples, n_features):
    """Largest K whose test folds all hold at least ``n_features + 1`` samples.

    A sample covariance of ``n <= d`` points in d dimensions has rank at most
    ``n - 1 < d``: it is singular and the Gaussian KL is infinite. K-fold CV
    makes folds of ``n_samples // K`` or one more samples, so K may not exceed
    ``n_samples // (n_features + 1)``.

    Examples
    --------
    >>> max_n_folds(178, 13)     # scikit-learn's Wine: K = 13 leaves folds of 13 samples
    12
    """
    n_samples = check_int(n_samples, "n_samples", low=1)
    n_features = check_int(n_features, "n_features", low=1)
    return n_samples // (n_features + 1)


def _fold_bounds(n_samples, K):
    """Start/stop positions of KFold's K contiguous test blocks (first ones one longer)."""
    sizes = np.full(K, n_samples // K)
    sizes[: n_samples % K] += 1
    stops = np.cumsum(sizes)
    return stops - sizes, stops


def _stratified_order(order, y, rng):
    """Reorder ``order`` so that every contiguous block is stratified on ``y``.

    Within each class the shuffled members get keys (rank + u_c) / n_c with one
    random offset u_c per class (systematic sampling); sorting by key interleaves
    the classes, so a block of b samples holds b * n_c / m of class c, +/- 1.
    """
    labels = y[order]
    keys = np.empty(order.size)
    for cls in np.unique(labels):
        where = np.flatnonzero(labels == cls)
        keys[where] = (np.arange(where.size) + rng.uniform()) / where.size
    return order[np.argsort(keys, kind="stable")]


def _orders(n_samples, y, n_repeats, stratify, random_state):
    rng = as_generator(random_state)
    orders = []
    for _ in range(n_repeats):
        order = rng.permutation(n_samples)
        orders.append(_stratified_order(order, y, rng) if stratify else order)
    return orders


# --------------------------------------------------------------------------- the fast kernel
def _cholesky(cov, singular):
    """Lower Cholesky factors of SPD matrices stored as (d, d, F); flags singular ones."""
    d = cov.shape[0]
    chol = np.zeros_like(cov)
    for j in range(d):
        pivot = cov[j, j] - np.einsum("kf,kf->f", chol[j, :j], chol[j, :j])
        bad = ~(pivot > _SINGULAR_TOL * cov[j, j])
        singular |= bad
        chol[j, j] = np.sqrt(np.where(bad, 1.0, pivot))
        if j + 1 < d:
            inner = np.einsum("ikf,kf->if", chol[j + 1:, :j], chol[j, :j])
            chol[j + 1:, j] = (cov[j + 1:, j] - inner) / chol[j, j]
    return chol


def _forward_solve(chol, rhs):
    """Solve L Y = B for lower-triangular L (d, d, F) and B (d, d + 1, F), in place.

    B is ``[v, M]`` with M lower triangular, so row i of Y is zero beyond
    column i + 1 and only those columns are updated (a third of the work).
    """
    out = rhs.copy()
    scratch = np.empty_like(rhs[0])
    for i in range(chol.shape[0]):
        width = i + 2
        for k in range(i):
            np.multiply(chol[i, k], out[k, :width], out=scratch[:width])
            out[i, :width] -= scratch[:width]
        out[i, :width] /= chol[i, i]
    return out


def _batched_symmetric_kl(mean_a, cov_a, mean_b, cov_b):
    """Symmetric KL of many pairs of Gaussians; covariances as (d, d, F), means as (d, F).

    With Cholesky factors L_a, L_b: tr(S_b^-1 S_a) = ||L_b^-1 L_a||_F^2 and
    diff^T S_b^-1 diff = ||L_b^-1 diff||^2, so one forward substitution with
    the columns [diff, L_a] gives both. Every step is one vector operation
    over all F folds. Returns the KL values and a mask of singular pairs.
    """
    d = cov_a.shape[0]
    singular = np.zeros(cov_a.shape[2], dtype=bool)
    chol_a, chol_b = _cholesky(cov_a, singular), _cholesky(cov_b, singular)
    diff = (mean_a - mean_b)[:, None, :]
    total = np.zeros(cov_a.shape[2])
    for left, right in ((chol_b, chol_a), (chol_a, chol_b)):
        solved = _forward_solve(left, np.concatenate([diff, right], axis=1))
        total += np.einsum("ijf,ijf->f", solved, solved)
    return 0.5 * total - d, singular


def _fold_gaussians(count, s1, s2, s3, s4, shrinkage):
    """Means (d, F) and covariances (d, d, F) of F folds from their sums.

    ``count`` (F,) samples, ``s1`` = sum x (d, F), ``s2`` = sum x x^T (d, d, F);
    for Ledoit-Wolf also ``s3`` = sum |x|^2 x (d, F) and ``s4`` = sum |x|^4 (F,).
    """
    d = s1.shape[0]
    mean = s1 / count
    scatter = s2 - count * mean[:, None] * mean[None]
    if shrinkage is None:
        return mean, scatter / (count - 1.0)
    emp = scatter / count                            # the MLE, as LedoitWolf uses
    c = np.einsum("if,if->f", mean, mean)
    trace_s2 = np.einsum("iif->f", s2)
    fourth = (s4 + 4 * np.einsum("if,ijf,jf->f", mean, s2, mean)   # sum |x - mean|^4
              - 4 * np.einsum("if,if->f", mean, s3) + 2 * c * trace_s2 - 3 * count * c ** 2)
    mu = np.einsum("iif->f", emp) / d
    frob = np.einsum("ijf,ijf->f", emp, emp)
    beta = (fourth / count - frob) / (d * count)
    delta = (frob - d * mu ** 2) / d
    beta = np.minimum(beta, delta)
    shrink = np.divide(beta, delta, out=np.zeros_like(beta), where=beta != 0)
    cov = (1 - shrink) * emp
    cov[np.arange(d), np.arange(d)] += shrink * mu
    return mean, cov


def _prefix_curve(order, Z, Ks, shrinkage):
    """D_AKL for each K of one repetition (one shuffled order), from prefix sums.

    Only the prefix sums at fold boundaries are needed: the sums over the
    pieces between consecutive boundaries (``np.add.reduceat``), accumulated.
    """
    m, d = Z.shape
    x = Z[order]

    bounds = [_fold_bounds(m, K) for K in Ks]
    starts = np.concatenate([b[0] for b in bounds])
    stops = np.concatenate([b[1] for b in bounds])
    which = np.repeat(np.arange(len(Ks)), Ks)
    cuts = np.unique(np.concatenate([starts, stops]))    # every fold boundary of every K

    def prefix(values):      # sums of values[:c] for each cut c, samples on the last axis
        pieces = np.add.reduceat(values, cuts[:-1], axis=0)
        table = np.concatenate([np.zeros((1,) + values.shape[1:]), np.cumsum(pieces, axis=0)])
        return np.ascontiguousarray(np.moveaxis(table, 0, -1))

    tables = [prefix(x), prefix(x[:, :, None] * x[:, None, :])]
    if shrinkage is not None:                  # the fourth moments only feed Ledoit-Wolf
        sq = np.sum(x * x, axis=1)
        tables += [prefix(sq[:, None] * x), prefix(sq * sq)]
    starts, stops = np.searchsorted(cuts, starts), np.searchsorted(cuts, stops)
    sizes = (cuts[stops] - cuts[starts]).astype(float)
    kl = np.empty(starts.size)
    for chunk in range(0, starts.size, _CHUNK):   # chunks that stay in the CPU cache
        a, b = starts[chunk:chunk + _CHUNK], stops[chunk:chunk + _CHUNK]
        test = [t[..., b] - t[..., a] for t in tables]
        train = [t[..., -1:] - s for t, s in zip(tables, test)]
        if shrinkage is None:
            test, train = test + [None, None], train + [None, None]
        count = sizes[chunk:chunk + _CHUNK]
        mean_te, cov_te = _fold_gaussians(count, *test, shrinkage)
        mean_tr, cov_tr = _fold_gaussians(m - count, *train, shrinkage)
        kl[chunk:chunk + _CHUNK], singular = _batched_symmetric_kl(mean_te, cov_te,
                                                                   mean_tr, cov_tr)
        if singular.any():
            f = int(np.flatnonzero(singular)[0])
            raise ValueError(
                f"Ks holds K={int(Ks[which[chunk + f]])}, for which the sample covariance of a "
                f"test fold of {int(count[f])} samples (or of its training part) is singular: "
                "its rows are linearly dependent (e.g. repeated rows), so the Gaussian KL is "
                "infinite. Use smaller K, or shrinkage='ledoit-wolf'.")
    return np.bincount(which, weights=kl, minlength=len(Ks)) / np.asarray(Ks)


def _naive_curve(order, Z, Ks, shrinkage):
    """The same D_AKL, the straightforward way: scikit-learn's KFold and np.cov per fold."""
    from sklearn.covariance import LedoitWolf
    from sklearn.model_selection import KFold

    def fit(rows):
        if shrinkage is None:
            return rows.mean(axis=0), np.cov(rows, rowvar=False)
        return rows.mean(axis=0), LedoitWolf().fit(rows).covariance_

    curve = []
    for K in Ks:
        kls = []
        for train, test in KFold(n_splits=int(K)).split(Z):
            gauss_te, gauss_tr = fit(Z[order[test]]), fit(Z[order[train]])
            kls.append(symmetric_gaussian_kl(*gauss_te, *gauss_tr))
        curve.append(np.mean(kls))
    return np.asarray(curve)


def kfold_kl_curve(X, Ks, y=None, n_repeats=1, stratify=False, shrinkage=None,
                   random_state=None, n_jobs=None, *, method="prefix", return_repeats=False):
    """D_AKL(K): symmetric Gaussian KL between training and test parts of K-fold CV.

    For each repetition the rows are shuffled once and cut, like scikit-learn's
    ``KFold``, into K contiguous folds for every K. For each fold a Gaussian
    is fitted to the test part and one to the training part (sample mean and
    sample covariance), and their symmetric KL (the sum of both directions) is
    averaged over the K folds and then over the repetitions.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    Ks : sequence of int
        The numbers of folds, each in [2, n_samples]; without shrinkage every
        test fold needs more samples than features (see :func:`max_n_folds`).
    y : array-like of shape (n_samples,), optional
        Class labels; used only with ``stratify=True``.
    n_repeats : int
        Number of shuffles averaged over.
    stratify : bool
        Make every fold keep the class proportions of ``y`` (to +/- 1 sample).
    shrinkage : {None, "ledoit-wolf"}
        None: sample covariances (ddof=1). "ledoit-wolf": each part's covariance
        is scikit-learn's ``LedoitWolf`` estimate, which stays invertible for
        folds smaller than the number of features, down to 3 samples (with 2
        samples its shrinkage is 0 and the estimate singular).
    random_state : int, numpy Generator or None
        Seeds the shuffles; the same seed gives the same folds for every K.
    n_jobs : int or None
        Repetitions in parallel with joblib (see ``mlcore._parallel``).
    method : {"prefix", "naive"}
        "prefix": the fast sufficient-statistics kernel; "naive": KFold and
        ``np.cov`` for every fold (the reference, same folds, same result).
    return_repeats : bool
        Return the (n_repeats, len(Ks)) values of every repetition instead of
        their mean (for a Monte Carlo standard error).

    Returns
    -------
    ndarray of shape (len(Ks),), or (n_repeats, len(Ks)) with ``return_repeats``

    Notes
    -----
    The features are standardized first. The KL between Gaussians does not
    change under an invertible affine map of the features, so this changes
    nothing but rounding; with shrinkage it makes the target (a multiple of
    the identity) treat all features alike.

    Examples
    --------
    >>> from sklearn.datasets import load_wine
    >>> X, y = load_wine(return_X_y=True)
    >>> curve = kfold_kl_curve(X, [2, 5, 10], y, n_repeats=20, stratify=True, random_state=0)
    >>> bool(np.all(np.diff(curve) > 0))          # more folds, more different parts
    True
    """
    X = check_array(X, "X", allow_nan=True)
    if X.ndim != 2 or X.shape[0] < 4 or X.shape[1] < 1:
        raise ValueError(f"X must be a 2-D array with at least 4 rows and 1 column, got shape "
                         f"{X.shape}.")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinity; remove or impute those entries first.")
    m, d = X.shape
    Ks = np.atleast_1d(np.asarray(Ks))
    if Ks.ndim != 1 or Ks.size == 0 or not np.issubdtype(Ks.dtype, np.integer):
        raise ValueError(f"Ks must be a non-empty sequence of integers, got Ks={Ks!r}.")
    Ks = Ks.astype(np.int64) if Ks.max() < 2 ** 63 else Ks  # uint8 / uint64 Ks are fine
    for K in Ks.tolist():
        check_int(K, "Ks", low=2, high=m, why="each K is a number of folds, from 2 to n_samples")
    check_option(shrinkage, "shrinkage", [None, "ledoit-wolf"])
    check_option(method, "method", ["prefix", "naive"])
    n_repeats = check_int(n_repeats, "n_repeats", low=1)
    stratify = check_bool(stratify, "stratify")
    return_repeats = check_bool(return_repeats, "return_repeats")
    check_random_state(random_state)
    smallest = m // int(Ks.max())
    needed = 3 if shrinkage else d + 1
    if smallest < needed:
        K = int(Ks.max())
        fix = ("" if shrinkage else f" Use K <= {max_n_folds(m, d)} = max_n_folds({m}, {d}), "
               "or shrinkage='ledoit-wolf'.")
        raise ValueError(
            f"Ks holds K={K}, which makes test folds of {smallest} samples; "
            + ("Ledoit-Wolf needs 3 (with 2 its shrinkage is 0)" if shrinkage else
               f"with {d} features a sample covariance needs {d + 1}")
            + f" samples to be invertible, so the Gaussian KL is infinite.{fix}")
    if stratify:
        if y is None:
            raise ValueError("stratify=True needs the class labels y.")
        y = np.asarray(y)
        if y.dtype.kind in "fc" and not np.isfinite(y).all():
            raise ValueError("y must hold finite class labels, got NaN or infinity.")
        if y.shape != (m,):
            raise ValueError(f"y must have shape ({m},) like the rows of X, got {y.shape}.")
    # standardizing is exact for the KL (affine invariance); dividing by the largest |x| of
    # each column first keeps the variance from overflowing (1e200) or underflowing (1e-308)
    scale = np.abs(X).max(axis=0)
    X = X / np.where(scale > 0, scale, 1.0)
    std = X.std(axis=0)
    if np.any(std == 0):
        raise ValueError(f"X has constant columns {np.flatnonzero(std == 0).tolist()}: "
                         "their covariance is singular; drop them.")
    Z = (X - X.mean(axis=0)) / std
    orders = _orders(m, y, n_repeats, stratify, random_state)
    kernel = _prefix_curve if method == "prefix" else _naive_curve
    func = functools.partial(kernel, Z=Z, Ks=Ks, shrinkage=shrinkage)
    curves = np.array(parallel_map(func, orders, n_jobs=n_jobs, desc="repetitions"))
    return curves if return_repeats else curves.mean(axis=0)
