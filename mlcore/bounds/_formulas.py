"""The finite-class bound formulas of :mod:`mlcore.bounds`, and the argument checks they share.

Hoeffding's tail for one hypothesis, the exact binomial tail it bounds, the
union bound over k hypotheses, and that bound solved for the sample size m or
for the gap gamma. Each accepts scalars or broadcasting arrays.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln, xlog1py, xlogy

from .._validation import check_int, check_real


_WHY_GAMMA = "it is the largest allowed gap |eps(h) - eps_hat(h)|"
_WHY_DELTA = "it is the probability that the bound fails"
_WHY_K = "it is the number of hypotheses in the class"
_WHY_M = "it is the number of training examples"


# -- checks that accept a scalar or an array --------------------------------
def _checked(value, name, check, *, low=None, high=None, low_open=False, high_open=False,
             why=None):
    """``check`` (check_int or check_real) on a scalar; on an array, one vectorized test,
    and the scalar check words the error for the first offending element."""
    limits = dict(low=low, high=high, why=why)
    if check is check_real:
        limits.update(low_open=low_open, high_open=high_open)
    if np.ndim(value) == 0:
        return check(value.item() if isinstance(value, np.generic) else value, name, **limits)
    array = np.asarray(value)
    if array.dtype.kind not in ("iu" if check is check_int else "iuf"):
        raise TypeError(f"{name} must hold {'integers' if check is check_int else 'numbers'}, "
                        f"got an array of dtype {array.dtype}.")
    values = array.astype(float)
    bad = ~np.isfinite(values)
    if low is not None:
        bad |= (values <= low) if low_open else (values < low)
    if high is not None:
        bad |= (values >= high) if high_open else (values > high)
    if bad.any():
        check(array[bad].flat[0].item(), name, **limits)
    return values if check is check_real else array


def _gamma(gamma):
    return _checked(gamma, "gamma", check_real, low=0.0, low_open=True, why=_WHY_GAMMA)


def _delta(delta):
    return _checked(delta, "delta", check_real, low=0.0, high=1.0, low_open=True,
                    high_open=True, why=_WHY_DELTA)


def _k(k):
    return _checked(k, "k", check_int, low=1, why=_WHY_K)


def _m(m):
    return _checked(m, "m", check_int, low=1, why=_WHY_M)


def _log(k):
    """log(k) that also works for Python ints too large for a float (k = 2**(64 d))."""
    return math.log(k) if isinstance(k, int) else np.log(k)


def _out(value):
    """A Python scalar for 0-d results, the array otherwise."""
    if isinstance(value, np.generic) or (isinstance(value, np.ndarray) and value.ndim == 0):
        return value.item()
    return value


# -- the formulas -------------------------------------------------------------
def hoeffding_tail(m, *, gamma):
    """Hoeffding's two-sided bound on one hypothesis: ``2 exp(-2 gamma^2 m)``.

    For one fixed classifier :math:`h`, its training error on :math:`m`
    i.i.d. examples is a mean of :math:`m` Bernoulli variables with mean
    :math:`\\varepsilon(h)`, so
    :math:`P(|\\varepsilon(h) - \\hat\\varepsilon(h)| > \\gamma) \\le 2e^{-2\\gamma^2 m}`.

    Parameters
    ----------
    m : int or array of int
        Number of training examples, m >= 1.
    gamma : float or array of float
        Gap, gamma > 0.

    Returns
    -------
    float or ndarray
        The bound (it may exceed 1, where it says nothing).

    Examples
    --------
    >>> round(hoeffding_tail(100, gamma=0.1), 6)
    0.270671
    >>> hoeffding_tail([10, 1000], gamma=0.1).round(6)
    array([1.637462, 0.      ])
    >>> hoeffding_tail(100, gamma=0)
    Traceback (most recent call last):
    ...
    ValueError: gamma must be > 0, got gamma=0.0; it is the largest allowed gap |eps(h) - eps_hat(h)|.
    """
    m = _m(m)
    gamma = _gamma(gamma)
    return _out(2.0 * np.exp(-2.0 * np.square(gamma) * np.asarray(m, dtype=float)))


def binomial_deviation_tail(m, p, *, gamma):
    """Exact ``P(|X/m - p| > gamma)`` for ``X ~ Binomial(m, p)``: the tail Hoeffding bounds.

    For one fixed classifier with error :math:`p = \\varepsilon(h)`, the count of
    training mistakes :math:`m\\hat\\varepsilon(h)` is Binomial(m, p), so this is
    exactly :math:`P(|\\varepsilon(h) - \\hat\\varepsilon(h)| > \\gamma)`, the
    probability that :func:`hoeffding_tail` bounds by :math:`2e^{-2\\gamma^2 m}`.
    Summed over the hypotheses of a class it is the union bound fed with exact
    tails instead of Hoeffding's.

    Parameters
    ----------
    m : int
        Number of training examples, 1 <= m <= ``10**5``.
    p : float or array of float
        Success probability (the true error), in [0, 1].
    gamma : float or array of float
        Gap, gamma > 0; broadcast against ``p``.

    Returns
    -------
    float or ndarray
        The probability, the broadcast shape of ``p`` and ``gamma``.

    Notes
    -----
    The binomial probabilities :math:`\\binom{m}{x}p^x(1-p)^{m-x}` are computed
    in log space once per distinct ``p``; each tail, the counts
    :math:`x > m(p + \\gamma)` and those with :math:`x < m(p - \\gamma)`, is
    summed from its own end, so a tiny tail keeps its relative accuracy. A deviation
    equal to ``gamma`` up to rounding (``1e-9`` in units of a count) is not
    counted, so ``p + gamma = x/m`` is handled as the equality it is.

    Examples
    --------
    >>> round(binomial_deviation_tail(200, 0.5, gamma=0.1), 6)
    0.003635
    >>> binomial_deviation_tail(10, [0.0, 0.5], gamma=0.25).round(6)
    array([0.      , 0.109375])
    >>> binomial_deviation_tail(10, 1.5, gamma=0.1)
    Traceback (most recent call last):
    ...
    ValueError: p must be in [0, 1], got p=1.5; it is the true error, a probability.
    """
    m = check_int(m, "m", low=1, high=10**5, why=_WHY_M)
    p = _checked(p, "p", check_real, low=0.0, high=1.0, why="it is the true error, a probability")
    gamma = _gamma(gamma)
    p, gamma = np.broadcast_arrays(np.asarray(p, dtype=float), np.asarray(gamma, dtype=float))
    values, which = np.unique(p, return_inverse=True)
    counts = np.arange(m + 1, dtype=float)
    pmf = np.exp(gammaln(m + 1.0) - gammaln(counts + 1.0) - gammaln(m - counts + 1.0)
                 + xlogy(counts, values[:, None]) + xlog1py(m - counts, -values[:, None]))
    # below[:, x] = P(X < x) and above[:, x] = P(X > x), each summed from its own tail
    zero = np.zeros((values.size, 1))
    below = np.hstack([zero, np.cumsum(pmf, axis=1)])[:, :-1]
    above = np.hstack([np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1][:, 1:], zero])
    row = which.reshape(p.shape)
    # X > upper is X/m > p + gamma, X < lower is X/m < p - gamma (clipped before the cast)
    upper = np.floor(np.minimum(m * (p + gamma) + 1e-9, m + 1.0)).astype(np.int64)
    lower = np.ceil(np.maximum(m * (p - gamma) - 1e-9, -1.0)).astype(np.int64)
    tail = (np.where(upper < m, above[row, np.clip(upper, 0, m)], 0.0)
            + np.where(lower > 0, below[row, np.clip(lower, 0, m)], 0.0))
    return _out(tail)


def finite_class_failure_bound(k, *, m, gamma):
    """Union bound over a finite class: ``2 k exp(-2 gamma^2 m)``.

    An upper bound on the probability that *some* of the ``k`` hypotheses has
    a training error more than ``gamma`` away from its generalization error.

    Parameters
    ----------
    k : int or array of int
        Size of the hypothesis class, k >= 1.
    m : int or array of int
        Number of training examples, m >= 1.
    gamma : float or array of float
        Gap, gamma > 0.

    Returns
    -------
    float or ndarray
        The bound; values above 1 are vacuous and returned as they are, so
        that a plot shows how far from useful the bound is.

    Examples
    --------
    >>> round(finite_class_failure_bound(10, m=300, gamma=0.1), 6)
    0.049575
    >>> finite_class_failure_bound(0, m=500, gamma=0.1)
    Traceback (most recent call last):
    ...
    ValueError: k must be an integer >= 1, got k=0; it is the number of hypotheses in the class.
    """
    k = _k(k)
    tail = hoeffding_tail(m, gamma=gamma)
    if isinstance(k, int) and np.ndim(tail) == 0:
        # exact for huge k: exp(log k + log tail) avoids an int-to-float overflow
        return math.exp(min(_log(k) + math.log(tail), 700.0)) if tail > 0 else 0.0
    return _out(np.asarray(k, dtype=float) * tail)


def finite_class_sample_size(k, *, gamma, delta):
    """Smallest m for which every h in a finite class is gamma-accurate.

    With probability at least ``1 - delta``,
    :math:`|\\varepsilon(h) - \\hat\\varepsilon(h)| \\le \\gamma` for all ``k``
    hypotheses once :math:`m \\ge \\frac{1}{2\\gamma^2}\\log\\frac{2k}{\\delta}`.
    This returns the smallest such integer ``m``.

    Parameters
    ----------
    k : int or array of int
        Size of the hypothesis class, k >= 1. A Python int may be arbitrarily
        large (``2**(64 * d)`` for ``d`` double-precision parameters).
    gamma : float or array of float
        Accuracy, gamma > 0.
    delta : float or array of float
        Failure probability, 0 < delta < 1.

    Returns
    -------
    int or ndarray of int

    Notes
    -----
    The ceiling is taken after removing a relative ``1e-12`` so that a bound
    that is an integer up to rounding (for example 2.0000000000000004) is not
    pushed one sample up.

    Examples
    --------
    >>> finite_class_sample_size(k=1000, gamma=0.05, delta=0.05)
    2120
    >>> finite_class_sample_size(1000, gamma=[0.1, 0.05], delta=0.05)
    array([ 530, 2120])
    >>> finite_class_sample_size(1000, gamma=0.05, delta=1.5)
    Traceback (most recent call last):
    ...
    ValueError: delta must be in (0, 1), got delta=1.5; it is the probability that the bound fails.
    """
    k = _k(k)
    gamma = _gamma(gamma)
    delta = _delta(delta)
    with np.errstate(over="ignore", divide="ignore"):
        exact = np.asarray((math.log(2.0) + _log(k) - np.log(delta)) / (2.0 * np.square(gamma)),
                           dtype=float)
    if not np.isfinite(exact).all():
        raise ValueError(f"gamma is too small to compute the sample size (above 1e308), got "
                         f"gamma={gamma!r}; {_WHY_GAMMA}.")
    # at least one sample; beyond int64 the sizes stay exact Python ints (an object array)
    ceiling = np.maximum(np.ceil(exact * (1.0 - 1e-12)), 1.0)
    if ceiling.ndim == 0:
        return int(ceiling)
    if ceiling.max() < 2.0 ** 63:
        return ceiling.astype(np.int64)
    return np.array([int(v) for v in ceiling.flat], dtype=object).reshape(ceiling.shape)


def finite_class_gap(k, *, m, delta):
    """The gap gamma that m samples guarantee: ``sqrt(log(2k/delta) / (2m))``.

    With probability at least ``1 - delta`` every one of the ``k`` hypotheses
    has :math:`|\\varepsilon(h) - \\hat\\varepsilon(h)| \\le \\gamma`, and the
    empirical risk minimizer satisfies
    :math:`\\varepsilon(\\hat h) \\le \\min_h \\varepsilon(h) + 2\\gamma`.

    Parameters
    ----------
    k : int or array of int
        Size of the hypothesis class, k >= 1.
    m : int or array of int
        Number of training examples, m >= 1.
    delta : float or array of float
        Failure probability, 0 < delta < 1.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(finite_class_gap(1000, m=2120, delta=0.05), 4)
    0.05
    >>> finite_class_gap(1000, m=[100, 10000], delta=0.05).round(4)
    array([0.2302, 0.023 ])
    >>> finite_class_gap(1000, m=0, delta=0.05)
    Traceback (most recent call last):
    ...
    ValueError: m must be an integer >= 1, got m=0; it is the number of training examples.
    """
    k = _k(k)
    m = _m(m)
    delta = _delta(delta)
    log_term = math.log(2.0) + _log(k) - np.log(delta)
    return _out(np.sqrt(log_term / (2.0 * np.asarray(m, dtype=float))))
