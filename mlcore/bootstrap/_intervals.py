"""Standard errors and confidence intervals of a statistic, and their coverage.

Holds :func:`bootstrap_distribution`, :func:`bootstrap_se`,
:func:`bootstrap_interval` (percentile, basic, BCa, normal and studentized, the
bootstrap-t) with
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


def _root_sum_squares(deviations, axis=None):
    """sqrt(sum(deviations**2)) computed on deviations / max|deviations|: no under- or overflow.

    Data of order 1e-160 square to subnormals and 1e-300 to zero, which made
    standard errors 0 (or inaccurate) although every value is representable.
    """
    deviations = np.asarray(deviations, float)
    scale = np.max(np.abs(deviations), axis=axis, keepdims=True, initial=0.0)
    safe = np.where(scale > 0, scale, 1.0)
    total = np.sqrt(np.sum((deviations / safe) ** 2, axis=axis, keepdims=True)) * scale
    if axis is None:
        return float(total.reshape(()))
    return np.squeeze(total, axis=axis)


def _sample_std(values, axis=None):
    """Standard deviation with ddof=1, scale-safe (see :func:`_root_sum_squares`)."""
    values = np.asarray(values, float)
    n = values.size if axis is None else values.shape[axis]
    centred = values - np.mean(values, axis=axis, keepdims=True)
    return _root_sum_squares(centred, axis=axis) / np.sqrt(n - 1)


def _acceleration(d, axis=None):
    """BCa's acceleration sum(d^3) / (6 (sum d^2)^1.5), computed on d / max|d| (scale-free)."""
    d = np.asarray(d, float)
    scale = np.max(np.abs(d), axis=axis, keepdims=True, initial=0.0)
    d = d / np.where(scale > 0, scale, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.nan_to_num(np.sum(d ** 3, axis=axis) / (6.0 * np.sum(d ** 2, axis=axis) ** 1.5))


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
    return float(_sample_std(bootstrap_distribution(statistic, data, n_resamples, random_state)))


def _jackknife_indices(m):
    """Row i holds every index but i."""
    return np.tile(np.arange(m), (m, 1))[~np.eye(m, dtype=bool)].reshape(m, m - 1)


METHODS = ["percentile", "basic", "BCa", "normal", "studentized"]


def _jackknife_se(statistic, samples, vectorized):
    """Jackknife standard error of the statistic for each row of ``samples`` (shape (k, m, ...)).

    ``sqrt((m - 1)/m sum_i (t_(i) - mean t_(.))^2)``; for the mean it is exactly
    ``s / sqrt(m)`` (sample standard deviation with ddof=1).
    """
    k, m = samples.shape[:2]
    rows = _jackknife_indices(m)
    chunk = max(1, 2_000_000 // (m * m))      # keep the (chunk, m, m - 1) array small
    out = np.empty(k)
    for start in range(0, k, chunk):
        block = samples[start:start + chunk]
        leave_one_out = block[:, rows]                        # (c, m, m - 1, ...)
        if vectorized:
            values = np.asarray(statistic(leave_one_out, axis=-1), float)
        else:
            values = np.array([[statistic(row) for row in sample] for sample in leave_one_out],
                              dtype=float)
        out[start:start + chunk] = np.sqrt((m - 1) / m) * _root_sum_squares(
            values - values.mean(axis=1, keepdims=True), axis=1)
    return out


def _standard_errors(standard_error, statistic, samples, vectorized):
    """``standard_error`` of each row of ``samples``; the jackknife when it is None."""
    if standard_error is None:
        return _jackknife_se(statistic, samples, vectorized)
    return _evaluate(standard_error, samples, vectorized and _takes_axis(standard_error))


def _studentized(t_replicates, theta_hat, se_hat, confidence):
    """Bootstrap-t interval from the studentized replicates ``(t*_b - t) / se*_b``."""
    alpha = (1.0 - confidence) / 2.0
    with np.errstate(invalid="ignore"):
        q_low, q_high = np.quantile(t_replicates, [alpha, 1.0 - alpha])
    low, high = theta_hat - q_high * se_hat, theta_hat - q_low * se_hat
    if not (np.isfinite(low) and np.isfinite(high)):
        raise ValueError("method='studentized' needs a positive standard error in (nearly) every "
                         "resample, but some resamples have standard error 0 (all values tied); "
                         "use method='BCa' or 'percentile' for such data.")
    return ConfidenceInterval(float(low), float(high))


def _t_ratios(replicates, theta_hat, se_replicates):
    """(t*_b - t) / se*_b, with 0/0 taken as 0 and x/0 as an infinite ratio."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (replicates - theta_hat) / se_replicates
    return np.where((se_replicates == 0) & (replicates == theta_hat), 0.0, t)


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
        accel = float(_acceleration(d))
        z = z0 + ndtri(levels)
        levels = ndtr(z0 + z / (1.0 - accel * z))
    if method == "normal":
        half = ndtri(1.0 - alpha) * _sample_std(replicates)
        return ConfidenceInterval(float(theta_hat - half), float(theta_hat + half))
    low, high = np.quantile(replicates, levels)
    if method == "basic":
        low, high = 2 * theta_hat - high, 2 * theta_hat - low
    return ConfidenceInterval(float(low), float(high))


def bootstrap_interval(statistic, data, n_resamples=2000, method="percentile", confidence=0.95,
                       random_state=None, standard_error=None):
    """Bootstrap confidence interval for ``statistic(data)``.

    With replicates t*_b and estimate t = statistic(data), a = (1 - confidence)/2:

    * "percentile": the a and 1 - a quantiles of t*;
    * "basic": 2t minus those quantiles, swapped (t* - t mimics t - truth);
    * "BCa": quantiles at levels moved by the bias correction
      z0 = Phi^-1(share of t* below t) and the acceleration a-hat from the
      jackknife (Efron & Tibshirani 1993, ch. 14);
    * "normal": t plus or minus z_(1-a) times the bootstrap standard error;
    * "studentized" (the bootstrap-t, Efron & Tibshirani 1993, ch. 12): with
      se the standard error of t on the data and se*_b that of t*_b on its
      resample, the quantiles q of T*_b = (t*_b - t) / se*_b give
      ``[t - q(1 - a) se, t - q(a) se]``. T* mimics the pivot
      (t - truth) / se, whose distribution depends less on the unknown
      distribution than that of t - truth: the interval is second-order
      accurate, like BCa (Hall 1992).

    Quantiles interpolate linearly and ties count half, as in
    ``scipy.stats.bootstrap``, which gives the same percentile, basic and BCa
    interval from the same seed (SciPy has no normal or studentized method).

    Parameters
    ----------
    statistic : callable
        ``statistic(sample)``; see :func:`bootstrap_distribution`.
    data : array-like, shape (n_samples,) or (n_samples, ...)
    n_resamples : int, default=2000
    method : {"percentile", "basic", "BCa", "normal", "studentized"}
    confidence : float in (0, 1), default=0.95
    random_state : None, int or numpy Generator
    standard_error : callable or None, default=None
        Only for "studentized": ``standard_error(sample)``, the standard error
        of the statistic computed from one sample (for the mean,
        ``s / sqrt(m)``). None uses the jackknife standard error, which costs
        m evaluations of the statistic per resample and equals ``s / sqrt(m)``
        for the mean.

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
    >>> boot_t = bootstrap_interval(np.mean, x, 1000, method="studentized", random_state=1)
    >>> bool(boot_t.high > ours.high)    # the bootstrap-t stretches the long right tail further
    True
    """
    method = check_option(method, "method", METHODS)
    if standard_error is not None and not callable(standard_error):
        raise TypeError(f"standard_error must be None or a function of a sample, got "
                        f"standard_error={standard_error!r}.")
    confidence = check_real(confidence, "confidence", low=0, high=1, low_open=True, high_open=True,
                            why="it is the share of intervals that should cover the truth")
    data, vectorized = _prepare(statistic, data, None)
    if method == "studentized":
        samples = data[bootstrap_indices(len(data), n_resamples, random_state)]
        replicates = _evaluate(statistic, samples, vectorized)
        theta_hat = float(statistic(data))
        se_star = _standard_errors(standard_error, statistic, samples, vectorized)
        se_hat = float(_standard_errors(standard_error, statistic, data[None], vectorized)[0])
        return _studentized(_t_ratios(replicates, theta_hat, se_star), theta_hat, se_hat, confidence)
    replicates = bootstrap_distribution(statistic, data, n_resamples, random_state, vectorized)
    theta_hat = float(statistic(data))
    jackknife = None
    if method == "BCa":
        jackknife = _evaluate(statistic, data[_jackknife_indices(len(data))], vectorized)
    return _interval(replicates, theta_hat, jackknife, method, confidence)


def interval_coverage(statistic, sampler, truth, n_samples, *, n_datasets=1000, n_resamples=1000,
                      confidence=0.95, methods=("percentile", "basic", "BCa"), random_state=None,
                      standard_error=None):
    """Share of simulated data sets whose bootstrap interval covers ``truth``, for each method.

    Draws ``n_datasets`` data sets ``sampler(rng, (k, n_samples))`` in batches
    of 100 and computes all their bootstrap replicates (and jackknife values,
    for BCa) at once with one call of ``statistic(..., axis=-1)``, which must
    therefore accept ``axis`` (``np.mean``, ``np.median``, ``np.std`` ...);
    the quantiles and BCa levels of all data sets are vectorized too, with the
    conventions of :func:`bootstrap_interval`. ``methods`` may also hold
    "normal" and "studentized" (the bootstrap-t); for the latter
    ``standard_error(samples, axis=-1)`` gives each resample's standard error
    (None: the jackknife's, m times the work).

    Returns
    -------
    dict of str to float
        The share of data sets whose interval covers ``truth``; its Monte
        Carlo standard error is ``sqrt(p (1 - p) / n_datasets)``.

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
    methods = [check_option(method, "methods", METHODS) for method in methods]
    if standard_error is not None and not (callable(standard_error) and _takes_axis(standard_error)):
        raise TypeError(f"standard_error must be None or a function taking axis, like "
                        f"scipy.stats.sem, got standard_error={standard_error!r}.")
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
        resamples = data[np.arange(k)[:, None, None], idx]
        replicates = statistic(resamples, axis=-1)
        theta = statistic(data, axis=-1)[:, None]
        if "studentized" in methods:   # the bootstrap-t of every data set at once
            se_star = _standard_errors(standard_error, statistic,
                                       resamples.reshape(k * n_resamples, m), True).reshape(k, -1)
            se_hat = _standard_errors(standard_error, statistic, data, True)
            t = np.sort(_t_ratios(replicates, theta, se_star), axis=1)
            position = np.array([alpha, 1 - alpha]) * (n_resamples - 1)
            lower = np.floor(position).astype(int)
            upper = np.minimum(lower + 1, n_resamples - 1)
            with np.errstate(invalid="ignore"):
                q = t[:, lower] + (position - lower) * (t[:, upper] - t[:, lower])
            low, high = theta[:, 0] - q[:, 1] * se_hat, theta[:, 0] - q[:, 0] * se_hat
            hits["studentized"] += int(np.sum((low <= truth) & (truth <= high)))
        replicates = np.sort(replicates, axis=1)
        levels = {"percentile": np.array([[alpha, 1 - alpha]]), "basic": np.array([[alpha, 1 - alpha]])}
        if "BCa" in methods:   # the bias correction and acceleration of every data set at once
            below = ((replicates < theta).sum(1) + (replicates <= theta).sum(1)) / (2 * n_resamples)
            d = statistic(data[:, jackknife_rows], axis=-1)
            d = d.mean(axis=1, keepdims=True) - d
            with np.errstate(divide="ignore", invalid="ignore"):
                accel = _acceleration(d, axis=1)[:, None]
                z0 = ndtri(below)[:, None]
                z = z0 + ndtri(np.array([[alpha, 1 - alpha]]))
                levels["BCa"] = ndtr(z0 + z / (1 - accel * z))
        if "normal" in methods:
            half = ndtri(1 - alpha) * _sample_std(replicates, axis=1)[:, None]
            hits["normal"] += int(np.sum((theta - half <= truth) & (truth <= theta + half)))
        for method in (method for method in methods if method in levels):
            position = np.broadcast_to(levels[method], (k, 2)) * (n_resamples - 1)
            lower = np.clip(np.floor(position).astype(int), 0, n_resamples - 1)
            upper = np.minimum(lower + 1, n_resamples - 1)
            rows = np.arange(k)[:, None]
            ends = replicates[rows, lower] + (position - lower) * (replicates[rows, upper] - replicates[rows, lower])
            if method == "basic":
                ends = 2 * theta - ends[:, ::-1]
            hits[method] += int(np.sum((ends[:, 0] <= truth) & (truth <= ends[:, 1])))
    return {method: count / n_datasets for method, count in hits.items()}
