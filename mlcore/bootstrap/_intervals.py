"""Standard errors and confidence intervals of a statistic, and their coverage.

Holds :func:`bootstrap_distribution`, :func:`bootstrap_se`,
:func:`bootstrap_interval` (percentile, basic, BCa) with
:class:`ConfidenceInterval`, and the vectorized coverage study
:func:`interval_coverage`. Part of :mod:`mlcore.bootstrap`.
"""

from __future__ import annotations

import inspect
from typing import NamedTuple

import numpy as np
from scipy.special import ndtr, ndtri

from .._validation import (as_generator, check_array, check_bool, check_int, check_option,
                           check_real)
from ._resampling import _WHY_B, _rng, bootstrap_indices


# --------------------------------------------------------------------------- statistics
class ConfidenceInterval(NamedTuple):
    """A confidence interval ``(low, high)``."""

    low: float
    high: float


def _takes_axis(statistic):
    try:
        return "axis" in inspect.signature(statistic).parameters
    except (TypeError, ValueError):
        return False


def _evaluate(statistic, samples, vectorized):
    """statistic of each row of ``samples`` (shape (k, m) or (k, m, d)) as a float array."""
    if vectorized:
        values = np.concatenate([np.asarray(statistic(samples[i:i + 1000], axis=-1), float)
                                 for i in range(0, len(samples), 1000)])
    else:
        values = np.array([statistic(sample) for sample in samples], dtype=float)
    if values.shape != (len(samples),):
        raise ValueError("statistic must return one number per sample, got an array of shape "
                         f"{values.shape[1:]} for each.")
    return values


def _prepare(statistic, data, vectorized):
    if not callable(statistic):
        raise TypeError(f"statistic must be a function of a sample, got statistic={statistic!r}.")
    values = check_array(data, "data", why="it holds the observations along its first axis")
    if np.abs(values).max(initial=0.0) > 1e150:  # sums of such values overflow to inf
        raise ValueError(f"data must lie within [-1e150, 1e150], got largest |value| "
                         f"{np.abs(values).max():g}; rescale the data.")
    data = np.asarray(data)
    if data.ndim == 0 or len(data) < 2:
        raise ValueError(f"data must hold at least 2 observations along its first axis, got "
                         f"data={data!r}.")
    if vectorized is not None:
        vectorized = check_bool(vectorized, "vectorized")
    if vectorized is None:
        vectorized = data.ndim == 1 and _takes_axis(statistic)
    return data, bool(vectorized)


def bootstrap_distribution(statistic, data, n_resamples=2000, random_state=None, vectorized=None):
    """The statistic on each of ``n_resamples`` bootstrap samples of ``data``.

    Parameters
    ----------
    statistic : callable
        ``statistic(sample)`` returns a number. If it takes ``axis`` (like
        ``np.mean``) and ``data`` is 1-D, it is called once per 1000 resamples
        on a 2-D array with ``axis=-1`` (``vectorized``), far faster than a loop.
    data : array-like, shape (n_samples,) or (n_samples, ...)
        Observations along the first axis (rows are resampled together).
    n_resamples : int
    random_state : None, int or numpy Generator
        With the same seed, the same resamples as ``scipy.stats.bootstrap``.
    vectorized : bool or None

    Examples
    --------
    >>> reps = bootstrap_distribution(np.mean, [1.0, 2.0, 3.0, 4.0], 500, random_state=0)
    >>> reps.shape, bool(1.0 <= reps.min() <= reps.max() <= 4.0)
    ((500,), True)
    """
    data, vectorized = _prepare(statistic, data, vectorized)
    idx = bootstrap_indices(len(data), n_resamples, random_state)
    return _evaluate(statistic, data[idx], vectorized)


def bootstrap_se(statistic, data, n_resamples=2000, random_state=None):
    """Bootstrap standard error: the standard deviation (ddof=1) of the bootstrap replicates.

    Examples
    --------
    >>> x = np.random.default_rng(0).normal(size=100)
    >>> se = bootstrap_se(np.mean, x, 4000, random_state=1)
    >>> bool(abs(se - x.std(ddof=1) / 10) < 0.01)    # the textbook s / sqrt(m)
    True
    """
    n_resamples = check_int(n_resamples, "n_resamples", low=2,
                            why="a standard deviation (ddof=1) needs at least 2 replicates")
    return float(np.std(bootstrap_distribution(statistic, data, n_resamples, random_state), ddof=1))


def _jackknife_indices(m):
    """Row i holds every index but i."""
    return np.tile(np.arange(m), (m, 1))[~np.eye(m, dtype=bool)].reshape(m, m - 1)


def _interval(replicates, theta_hat, jackknife, method, confidence):
    """Percentile, basic or BCa interval from the replicates (scipy.stats.bootstrap's conventions)."""
    alpha = (1.0 - confidence) / 2.0
    levels = np.array([alpha, 1.0 - alpha])
    if method == "BCa":
        below = (np.sum(replicates < theta_hat) + np.sum(replicates <= theta_hat)) / (2 * replicates.size)
        if below in (0.0, 1.0):
            raise ValueError("method='BCa' needs replicates on both sides of the statistic, but all "
                             f"{replicates.size} lie on one side (a statistic that resampling can only "
                             "move one way, such as the number of distinct values); use method='percentile'.")
        z0 = ndtri(below)
        d = jackknife.mean() - jackknife
        accel = np.sum(d**3) / (6.0 * np.sum(d**2) ** 1.5) if np.any(d) else 0.0
        z = z0 + ndtri(levels)
        levels = ndtr(z0 + z / (1.0 - accel * z))
    low, high = np.quantile(replicates, levels)
    if method == "basic":
        low, high = 2 * theta_hat - high, 2 * theta_hat - low
    return ConfidenceInterval(float(low), float(high))


def bootstrap_interval(statistic, data, n_resamples=2000, method="percentile", confidence=0.95,
                       random_state=None):
    """Bootstrap confidence interval for ``statistic(data)``.

    With replicates t*_b and estimate t = statistic(data), a = (1 - confidence)/2:

    * "percentile": the a and 1 - a quantiles of t*;
    * "basic": 2t minus those quantiles, swapped (t* - t mimics t - truth);
    * "BCa": quantiles at levels moved by the bias correction
      z0 = Phi^-1(share of t* below t) and the acceleration a-hat from the
      jackknife (Efron & Tibshirani 1993, ch. 14).

    Quantiles interpolate linearly and ties count half, as in
    ``scipy.stats.bootstrap``, which gives the same interval from the same seed.

    Returns
    -------
    ConfidenceInterval
        ``(low, high)``.

    Examples
    --------
    >>> from scipy import stats
    >>> x = np.random.default_rng(0).exponential(size=30)
    >>> ours = bootstrap_interval(np.mean, x, 1000, method="BCa", random_state=1)
    >>> theirs = stats.bootstrap((x,), np.mean, n_resamples=1000, method="BCa", rng=1)
    >>> bool(np.allclose(ours, theirs.confidence_interval))
    True
    """
    method = check_option(method, "method", ["percentile", "basic", "BCa"])
    confidence = check_real(confidence, "confidence", low=0, high=1, low_open=True, high_open=True,
                            why="it is the share of intervals that should cover the truth")
    data, vectorized = _prepare(statistic, data, None)
    replicates = bootstrap_distribution(statistic, data, n_resamples, random_state, vectorized)
    theta_hat = float(statistic(data))
    jackknife = None
    if method == "BCa":
        jackknife = _evaluate(statistic, data[_jackknife_indices(len(data))], vectorized)
    return _interval(replicates, theta_hat, jackknife, method, confidence)


def interval_coverage(statistic, sampler, truth, n_samples, *, n_datasets=1000, n_resamples=1000,
                      confidence=0.95, methods=("percentile", "basic", "BCa"), random_state=None):
    """Share of simulated data sets whose bootstrap interval covers ``truth``, for each method.

    Draws ``n_datasets`` data sets ``sampler(rng, (k, n_samples))`` in batches
    of 100 and computes all their bootstrap replicates (and jackknife values,
    for BCa) at once with one call of ``statistic(..., axis=-1)``, which must
    therefore accept ``axis`` (``np.mean``, ``np.median``, ``np.std`` ...);
    the quantiles and BCa levels of all data sets are vectorized too, with the
    conventions of :func:`bootstrap_interval`.

    Returns
    -------
    dict of str to float

    Examples
    --------
    >>> cover = interval_coverage(np.mean, lambda rng, size: rng.normal(size=size), 0.0, 30,
    ...                           n_datasets=200, n_resamples=500, random_state=0)
    >>> bool(0.85 < cover["percentile"] < 1.0)
    True
    """
    m = check_int(n_samples, "n_samples", low=2)
    n_datasets = check_int(n_datasets, "n_datasets", low=1)
    n_resamples = check_int(n_resamples, "n_resamples", low=1, why=_WHY_B)
    methods = [check_option(method, "methods", ["percentile", "basic", "BCa"]) for method in methods]
    if not callable(statistic) or not callable(sampler):
        name = "statistic" if not callable(statistic) else "sampler"
        raise TypeError(f"{name} must be a function, got {name}="
                        f"{statistic if name == 'statistic' else sampler!r}.")
    truth = check_real(truth, "truth", why="it is the true value the intervals should cover")
    rng, jackknife_rows = as_generator(random_state), _jackknife_indices(m)
    alpha = (1.0 - check_real(confidence, "confidence", low=0, high=1, low_open=True,
                              high_open=True)) / 2.0
    hits = dict.fromkeys(methods, 0)
    for start in range(0, n_datasets, 100):
        k = min(100, n_datasets - start)
        data = check_array(sampler(rng, (k, m)), "sampler(rng, size)", ndim=2)
        if data.shape != (k, m):
            raise ValueError(f"sampler(rng, size) must return an array of the requested size "
                             f"{(k, m)}, got shape {data.shape}.")
        idx = rng.integers(0, m, size=(k, n_resamples, m))
        replicates = np.sort(statistic(data[np.arange(k)[:, None, None], idx], axis=-1), axis=1)
        theta = statistic(data, axis=-1)[:, None]
        levels = {"percentile": np.array([[alpha, 1 - alpha]]), "basic": np.array([[alpha, 1 - alpha]])}
        if "BCa" in methods:   # the bias correction and acceleration of every data set at once
            below = ((replicates < theta).sum(1) + (replicates <= theta).sum(1)) / (2 * n_resamples)
            d = statistic(data[:, jackknife_rows], axis=-1)
            d = d.mean(axis=1, keepdims=True) - d
            with np.errstate(divide="ignore", invalid="ignore"):
                accel = np.nan_to_num((d**3).sum(1) / (6 * (d**2).sum(1) ** 1.5))[:, None]
                z0 = ndtri(below)[:, None]
                z = z0 + ndtri(np.array([[alpha, 1 - alpha]]))
                levels["BCa"] = ndtr(z0 + z / (1 - accel * z))
        for method in methods:
            position = np.broadcast_to(levels[method], (k, 2)) * (n_resamples - 1)
            lower = np.clip(np.floor(position).astype(int), 0, n_resamples - 1)
            upper = np.minimum(lower + 1, n_resamples - 1)
            rows = np.arange(k)[:, None]
            ends = replicates[rows, lower] + (position - lower) * (replicates[rows, upper] - replicates[rows, lower])
            if method == "basic":
                ends = 2 * theta - ends[:, ::-1]
            hits[method] += int(np.sum((ends[:, 0] <= truth) & (truth <= ends[:, 1])))
    return {method: count / n_datasets for method, count in hits.items()}
