"""The true worst-case gap sup_h |eps(h) - eps_hat(h)| over all half-planes, by an exact sweep.

On pure-noise labels (y independent of x, P(y = 1) = 1/2) every half-plane has
eps(h) = 1/2 exactly, and half-planes are closed under complements, so
sup_h |eps(h) - eps_hat(h)| = 1/2 - min_h eps_hat(h): the gap over the infinite
class is an exact 0-1 ERM problem, solved by enumerating the lines through two points.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .._validation import check_int, check_n_jobs, check_random_state
from ._hypotheses import _check_labels, _check_points


# Shewchuk's bound for orient2d: the float sign is right when |det| exceeds it
_ORIENT_BOUND = (3 + 16 * 2.0 ** -53) * 2.0 ** -53


def _exact_orientation(X, i, j, k):
    """Sign of the cross product (x_j - x_i) x (x_k - x_i), exactly (rational arithmetic)."""
    (xi, yi), (xj, yj), (xk, yk) = ([Fraction(float(v)) for v in X[t]] for t in (i, j, k))
    det = (xj - xi) * (yk - yi) - (yj - yi) * (xk - xi)
    return (det > 0) - (det < 0)


def _orientations(X, i, j, exact_floats):
    """(len(i), m) signs of every point relative to the directed lines x_i -> x_j."""
    a = X[j] - X[i]
    b = X[None, :, :] - X[i][:, None, :]
    left, right = a[:, None, 0] * b[:, :, 1], a[:, None, 1] * b[:, :, 0]
    det = left - right
    sign = np.sign(det).astype(np.int8)
    on_line = (np.arange(len(X)) == i[:, None]) | (np.arange(len(X)) == j[:, None])
    sign[on_line] = 0
    if not exact_floats:  # uncertain signs (rounding or underflow) are recomputed exactly
        doubt = ((np.abs(det) <= _ORIENT_BOUND * (np.abs(left) + np.abs(right)))
                 | (np.abs(det) < 1e-280)) & ~on_line
        for r, k in zip(*np.nonzero(doubt)):
            sign[r, k] = _exact_orientation(X, i[r], j[r], k)
    return sign


def min_halfplane_errors(X, y, *, chunk=2048):
    """Smallest number of training mistakes of any half-plane 1{w.x + b >= 0} in the plane.

    Exact for any points, collinear and repeated ones included. A labeling is
    realized by a half-plane exactly when it is a constant or it is given by a
    line through two distinct points x_i, x_j: the points strictly on one side
    get 1, strictly on the other 0, and the points on the line are cut into a
    prefix and a suffix along it (turn the line slightly about a point between
    them). Two disjoint convex hulls always have such a common support line, so
    no other labeling exists. Which side a point lies on is decided exactly
    (the float sign where Shewchuk's error bound certifies it, else rational
    arithmetic), and repeated points are never separated. O(m^3) work,
    vectorized over ``chunk`` lines at a time.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
        Points, finite, within [-1e100, 1e100].
    y : array-like of shape (n_samples,)
        0/1 labels.
    chunk : int, default=2048
        Lines processed per vectorized block (memory ``chunk * n_samples``).

    Returns
    -------
    int

    Examples
    --------
    >>> X = [[0, 0], [1, 1], [1, 0], [0, 1]]             # XOR: no half-plane separates it
    >>> int(min_halfplane_errors(X, [0, 0, 1, 1]))
    1
    >>> int(min_halfplane_errors([[0, 0], [1, 0], [2, 0], [3, 0]], [0, 1, 0, 1]))  # collinear
    1
    """
    X, _ = _check_points(X, "halfspace", "X")
    if X.shape[1] != 2 or len(X) < 1:
        raise ValueError(f"X must have shape (n_samples, 2) with n_samples >= 1, got shape {X.shape}.")
    y = _check_labels(y, len(X), "y", "X")
    chunk = check_int(chunk, "chunk", low=1)
    order = np.lexsort((X[:, 1], X[:, 0]))   # on any line, lexicographic order is the line's order
    X, y = X[order], y[order]
    m = len(X)
    best = int(min(y.sum(), m - y.sum()))                 # constant classifiers
    distinct = np.r_[True, (X[1:] != X[:-1]).any(axis=1)]  # first of each run of equal points
    cuts = np.r_[distinct, True]                          # a cut before point p never splits a repeat
    exact_floats = bool((X == np.round(X)).all() and np.abs(X).max() <= 2.0 ** 24)
    keep = np.flatnonzero(distinct)
    if len(keep) < 2:
        return best
    i, j = np.triu_indices(len(keep), 1)
    i, j = keep[i], keep[j]
    rows = max(1, min(chunk, 4_000_000 // m))
    for start in range(0, len(i), rows):
        sign = _orientations(X, i[start:start + rows], j[start:start + rows], exact_floats)
        ones, zeros = y == 1, y == 0
        strict = np.minimum(((sign > 0) & zeros).sum(1) + ((sign < 0) & ones).sum(1),
                            ((sign < 0) & zeros).sum(1) + ((sign > 0) & ones).sum(1))
        line = sign == 0
        c1 = np.concatenate([np.zeros((len(sign), 1), int), np.cumsum(line & ones, axis=1)], axis=1)
        c0 = np.concatenate([np.zeros((len(sign), 1), int), np.cumsum(line & zeros, axis=1)], axis=1)
        t1, t0 = c1[:, -1:], c0[:, -1:]
        split = np.minimum(c0 + (t1 - c1), c1 + (t0 - c0))  # 1 on the prefix, or on the suffix
        split = np.where(cuts, split, m + 1).min(axis=1)
        best = min(best, int((strict + split).min()))
    return best


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
