"""The true worst-case gap sup_h |eps(h) - eps_hat(h)| over all half-planes, by an exact sweep.

On pure-noise labels (y independent of x, P(y = 1) = 1/2) every half-plane has
eps(h) = 1/2 exactly, and half-planes are closed under complements, so
sup_h |eps(h) - eps_hat(h)| = 1/2 - min_h eps_hat(h): the gap over the infinite
class is an exact 0-1 ERM problem, which the angular sweep solves.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_int, check_n_jobs, check_random_state


def min_halfplane_errors(X, y, *, chunk=2048):
    """Smallest number of training mistakes of any half-plane 1{w.x + b >= 0} in the plane.

    Exact for points in general position (no two equal, no three collinear): between
    two consecutive critical directions (normals to some x_i - x_j) the order of the
    projections is fixed, so one direction per angular cell and every threshold
    (a prefix/suffix split of the sorted projections) covers every labeling.
    Vectorized over directions, O(m^2) directions of O(m log m) work each.

    Examples
    --------
    >>> X = [[0, 0], [1, 1], [1, 0], [0, 1]]             # XOR: no half-plane separates it
    >>> int(min_halfplane_errors(X, [0, 0, 1, 1]))
    1
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y).astype(int)
    if X.ndim != 2 or X.shape[1] != 2 or len(X) < 1:
        raise ValueError(f"X must have shape (n_samples, 2) with n_samples >= 1, got shape {X.shape}.")
    if y.shape != (len(X),) or not np.isin(y, (0, 1)).all():
        raise ValueError(f"y must be n_samples={len(X)} labels in {{0, 1}}, got shape {y.shape}.")
    m = len(X)
    best = min(y.sum(), m - y.sum())                      # constant classifiers
    if m < 2:
        return int(best)
    i, j = np.triu_indices(m, 1)
    diff = X[j] - X[i]
    critical = np.arctan2(diff[:, 1], diff[:, 0]) + np.pi / 2  # normals of x_j - x_i
    angles = np.sort(np.concatenate([critical, critical + np.pi]) % (2 * np.pi))
    middles = (angles + np.diff(np.append(angles, angles[0] + 2 * np.pi)) / 2)
    for start in range(0, len(middles), chunk):
        a = middles[start:start + chunk]
        proj = np.cos(a)[:, None] * X[:, 0] + np.sin(a)[:, None] * X[:, 1]
        ys = y[np.argsort(proj, axis=1)]                   # labels in projection order
        ones_before = np.concatenate([np.zeros((len(a), 1), int), np.cumsum(ys, axis=1)], axis=1)
        zeros_after = (m - ys.sum(axis=1, keepdims=True)) - (np.arange(m + 1) - ones_before)
        best = min(best, int((ones_before + zeros_after).min()))  # predict 1 on the suffix
    return int(best)


def halfplane_noise_gaps(m, n_trials, *, seed=0, n_jobs=1):
    """Exact ``sup_h |eps(h) - eps_hat(h)|`` over all half-planes on ``n_trials`` noise samples.

    x ~ N(0, I_2), y ~ Bernoulli(1/2) independent of x, so eps(h) = 1/2 for every h
    (exactly, no test sample needed) and the supremum is 1/2 - min_h eps_hat(h).

    Returns
    -------
    ndarray of shape (n_trials,)

    Examples
    --------
    >>> gaps = halfplane_noise_gaps(20, 3, seed=1)
    >>> bool(((0 < gaps) & (gaps <= 0.5)).all())
    True
    """
    m = check_int(m, "m", low=2, why="it is the number of samples")
    n_trials = check_int(n_trials, "n_trials", low=1)
    n_jobs = check_n_jobs(n_jobs)
    seed = check_random_state(seed, "seed")
    if not (seed is None or isinstance(seed, (int, np.random.SeedSequence))):
        raise TypeError(f"seed must be None, a non-negative integer or a numpy SeedSequence, "
                        f"got seed={seed!r} of type {type(seed).__name__}.")
    seeds = (seed if isinstance(seed, np.random.SeedSequence)
             else np.random.SeedSequence(seed)).spawn(n_trials)

    def one(ss):
        rng = np.random.default_rng(ss)
        X, y = rng.normal(size=(m, 2)), rng.integers(0, 2, size=m)
        return 0.5 - min_halfplane_errors(X, y) / m

    if n_jobs in (None, 1):
        return np.array([one(ss) for ss in seeds])
    from joblib import Parallel, delayed
    return np.array(Parallel(n_jobs=n_jobs)(delayed(one)(ss) for ss in seeds))
