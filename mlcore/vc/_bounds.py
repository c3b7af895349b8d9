"""Bounds of :mod:`mlcore.vc`: Sauer–Shelah, the VC gap and sample size, the margin bound.

Also :func:`regular_simplex`, the point set that attains the margin bound.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln, logsumexp

from .._validation import check_int, check_int_array, check_probability, check_real


# -- bounds -------------------------------------------------------------------
def sauer_bound(m, d):
    """Sauer–Shelah bound on the growth function, sum_{i <= d} C(m, i) (exact int).

    Examples
    --------
    >>> sauer_bound(10, 3), 2 ** 10
    (176, 1024)
    """
    m = check_int(m, "m", low=0, why="it is the number of samples")
    d = check_int(d, "d", low=0, why="it is the VC dimension")
    if d >= m:
        return 2 ** m                      # every labeling: the sum is all of (1 + 1)^m
    if 2 * d >= m:                         # sum the shorter tail: C(m, i) = C(m, m - i)
        return 2 ** m - _binomial_prefix(m, m - d - 1)
    return _binomial_prefix(m, d)


def _binomial_prefix(m, k):
    """sum_{i <= k} C(m, i), exact, with one small multiplication and division per term."""
    total = term = 1
    for i in range(k):
        term = term * (m - i) // (i + 1)
        total += term
    return total


def _log_sauer(m, d):
    m = np.asarray(m, dtype=float)
    i = np.arange(d + 1)[:, None] * np.ones(m.shape).ravel()[None]
    mm = m.ravel()[None]
    # log C(m, i) = sum_{j < i} log(m - j) - log i!: no cancellation between two huge
    # gammaln values, so it stays accurate for m far beyond 1e10
    with np.errstate(divide="ignore", invalid="ignore"):
        steps = np.log(np.maximum(mm - np.arange(d)[:, None], 0.0))
    log_falling = np.vstack([np.zeros_like(mm), np.cumsum(steps, axis=0)])
    terms = np.where(i <= mm, log_falling - gammaln(i + 1), -np.inf)
    return logsumexp(terms, axis=0).reshape(m.shape)


def vc_bound_gap(d, m, delta):
    """Uniform-convergence gap of the VC inequality with explicit constants.

    With probability at least 1 - delta, for every h in a class of VC
    dimension d, ``|eps(h) - eps_hat(h)| <= sqrt(32 log(8 S(m) / delta) / m)``,
    where S(m) <= sum_{i <= d} C(m, i) is the growth function (Devroye,
    Györfi & Lugosi 1996, Theorem 12.6, the classifier form of their Theorem 12.5,
    with the Sauer–Shelah lemma).

    Parameters
    ----------
    d : int
        VC dimension, d >= 0.
    m : int or array of int
        Number of samples, m >= 1.
    delta : float
        Failure probability in (0, 1).

    Examples
    --------
    >>> round(float(vc_bound_gap(3, 10_000, 0.05)), 4)
    0.3145
    """
    d = check_int(d, "d", low=0, why="it is the VC dimension")
    delta = check_probability(delta, "delta", why="it is the probability that the bound fails")
    m_arr = np.asarray(check_int_array(m, "m", low=1, why="it is the number of samples"),
                       dtype=float)
    # log(8 / delta) as a difference: 8 / delta overflows for delta < 8e-308
    gap = np.sqrt(32 * (math.log(8) - math.log(delta) + _log_sauer(m_arr, d)) / m_arr)
    return float(gap) if gap.ndim == 0 else gap


def vc_sample_size(d, *, gamma, delta):
    """Smallest m for which :func:`vc_bound_gap` is at most gamma.

    Examples
    --------
    >>> m = vc_sample_size(3, gamma=0.1, delta=0.05)
    >>> bool(vc_bound_gap(3, m, 0.05) <= 0.1 < vc_bound_gap(3, m - 1, 0.05))
    True
    """
    gamma = check_real(gamma, "gamma", low=0, low_open=True, why="it is the accuracy")
    d = check_int(d, "d", low=0, why="it is the VC dimension")
    delta = check_probability(delta, "delta", why="it is the probability that the bound fails")
    low, high = 1, 2
    while vc_bound_gap(d, high, delta) > gamma:
        low, high = high, 2 * high
        if high > 2 ** 1000:  # beyond floating point: the gap can no longer be evaluated
            raise ValueError(f"gamma is too small: the sample size exceeds 2**1000, got "
                             f"gamma={gamma!r} (d={d}, delta={delta!r}).")
    while high - low > 1:  # invariant: gap(low) > gamma >= gap(high), unless low == 1
        middle = (low + high) // 2
        low, high = (middle, high) if vc_bound_gap(d, middle, delta) > gamma else (low, middle)
    return low if vc_bound_gap(d, low, delta) <= gamma else high


def margin_vc_bound(radius, margin, *, n_features=None):
    """VC dimension bound of half-spaces with margin >= ``margin`` on a ball of ``radius``.

    ceil(R² / gamma²) + 1 (Vapnik 1998), or min(ceil(R²/gamma²), n) + 1 with
    ``n_features``. It holds in any dimension, and a regular simplex attains it for
    every number k of vertices: its worst margin gives R²/gamma² = k - 1 for even k
    and a value in (k - 2, k - 1) for odd k.

    Examples
    --------
    >>> margin_vc_bound(1.0, 0.25)
    17
    >>> margin_vc_bound(1.0, 0.25, n_features=2)
    3
    """
    radius = check_real(radius, "radius", low=0, low_open=True, why="the points lie in this ball")
    margin = check_real(margin, "margin", low=0, low_open=True,
                        why="it is the distance from the boundary to the nearest point")
    ratio = (radius / margin) ** 2 if radius / margin < 1e150 else math.inf  # no overflow
    if not math.isfinite(ratio):  # R / gamma beyond 1e150: the bound is only the dimension
        if n_features is None:
            raise ValueError(f"radius / margin is too large for a finite bound, got "
                             f"radius={radius!r} and margin={margin!r}; pass n_features.")
        return check_int(n_features, "n_features", low=1) + 1
    bound = math.ceil(ratio - 1e-9)
    if n_features is not None:
        bound = min(bound, check_int(n_features, "n_features", low=1))
    return bound + 1


def regular_simplex(n_points, radius=1.0):
    """The n vertices of a regular simplex in R^(n-1), centred, at distance ``radius``.

    Examples
    --------
    >>> S = regular_simplex(3)
    >>> np.round(np.linalg.norm(S, axis=1), 6).tolist()
    [1.0, 1.0, 1.0]
    """
    n = check_int(n_points, "n_points", low=2)
    radius = check_real(radius, "radius", low=1e-150, high=1e150,
                        why="the vertices' squared distances must stay representable")
    centered = np.eye(n) - 1.0 / n
    basis = np.linalg.svd(centered)[2][: n - 1]  # orthonormal basis of the sum-zero plane
    vertices = centered @ basis.T
    return radius * vertices / np.linalg.norm(vertices, axis=1, keepdims=True)


def rademacher_vc_gap(d, m, delta):
    """Two-sided VC gap through Rademacher complexity (Mohri et al. 2018, Cor. 3.19).

    With probability at least 1 - delta, for every h in a class of VC
    dimension d >= 1 and m >= d samples,
    ``|eps(h) - eps_hat(h)| <= sqrt(2 d log(e m / d) / m) + sqrt(log(2 / delta) / (2 m))``:
    Massart's lemma bounds the Rademacher complexity by
    ``sqrt(2 log Pi(m) / m)``, Sauer–Shelah gives ``Pi(m) <= (e m / d)^d``,
    and each of the two one-sided bounds is taken at delta / 2.

    Parameters
    ----------
    d : int
        VC dimension, d >= 1.
    m : int or array of int
        Number of samples, m >= d.
    delta : float
        Failure probability in (0, 1).

    Examples
    --------
    >>> round(float(rademacher_vc_gap(3, 10_000, 0.05)), 4)
    0.0875
    """
    d = check_int(d, "d", low=1, why="it is the VC dimension (the form needs d >= 1)")
    delta = check_probability(delta, "delta", why="it is the probability that the bound fails")
    # integers of any size (2 * m in int64 overflowed to a negative m, and a NaN gap)
    m_arr = np.asarray(check_int_array(m, "m", low=d, why="the bound (e m / d)^d on the growth "
                                       "function needs m >= d"), dtype=float)
    gap = (np.sqrt(2 * d * (1 + np.log(m_arr / d)) / m_arr)
           + np.sqrt((math.log(2) - math.log(delta)) / (2 * m_arr)))
    return float(gap) if gap.ndim == 0 else gap


def rademacher_vc_sample_size(d, *, gamma, delta):
    """Smallest m >= d for which :func:`rademacher_vc_gap` is at most gamma.

    The gap decreases in m for m >= d, so a doubling then bisection search is exact.

    Examples
    --------
    >>> rademacher_vc_sample_size(3, gamma=0.1, delta=0.05)
    7451
    """
    gamma = check_real(gamma, "gamma", low=0, low_open=True, why="it is the accuracy")
    d = check_int(d, "d", low=1, why="it is the VC dimension (the form needs d >= 1)")
    low, high = d, 2 * d
    if rademacher_vc_gap(d, low, delta) <= gamma:
        return low
    while rademacher_vc_gap(d, high, delta) > gamma:
        low, high = high, 2 * high
        if high > 2 ** 1000:  # beyond floating point: the gap can no longer be evaluated
            raise ValueError(f"gamma is too small: the sample size exceeds 2**1000, got "
                             f"gamma={gamma!r} (d={d}, delta={delta!r}).")
    while high - low > 1:  # invariant: gap(low) > gamma >= gap(high)
        middle = (low + high) // 2
        low, high = (middle, high) if rademacher_vc_gap(d, middle, delta) > gamma else (low, middle)
    return high
