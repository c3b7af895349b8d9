"""The bootstrap: resampling with replacement, out-of-bag error, .632 and .632+, intervals.

A bootstrap sample of a data set of size m draws m indices uniformly *with
replacement*. A given sample is never drawn with probability (1 - 1/m)^m,
which tends to 1/e ~ 0.368, so each bootstrap sample leaves about a third of
the data "out of the bag": a free test set (:func:`draw_counts`,
:class:`BootstrapOutOfBag`). Averaging the error on those points gives the
out-of-bag estimate; mixing it with the training error gives Efron's .632
estimator, and capping the mix by the error of guessing gives the .632+
estimator of Efron & Tibshirani (:func:`bootstrap_error_report`). The same
resamples give standard errors and confidence intervals of any statistic
(:func:`bootstrap_se`, :func:`bootstrap_interval`). Two simulations support
chapter 6 of the book: :func:`simulate_error_estimates` compares the error
estimates with cross-validation against the truth, and
:func:`interval_coverage` measures how often the intervals cover it.
"""

from __future__ import annotations

import inspect
import numbers
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple

import numpy as np
from scipy.special import ndtr, ndtri
from sklearn.base import clone
from sklearn.model_selection import KFold, LeaveOneOut
from sklearn.utils.validation import check_X_y

from ._parallel import parallel_map
from ._validation import check_int, check_option, check_real
from .widgets import InteractiveFigure

__all__ = [
    "never_drawn_probability", "draw_counts", "bootstrap_indices", "BootstrapOutOfBag",
    "BootstrapErrorReport", "bootstrap_error_report", "bootstrap_error",
    "bootstrap_distribution", "bootstrap_se", "bootstrap_interval", "ConfidenceInterval",
    "interval_coverage",
    "gaussian_classes", "simulate_error_estimates", "NeverDrawnFigure", "BootstrapIntervalFigure",
]

_WHY_B = "it is the number of bootstrap samples drawn"


def _rng(random_state):
    """A numpy Generator, or the legacy RandomState passed in (to reproduce mlxtend's draws)."""
    if random_state is None or isinstance(random_state, numbers.Integral):
        return np.random.default_rng(random_state)
    if isinstance(random_state, (np.random.Generator, np.random.RandomState)):
        return random_state
    raise TypeError("random_state must be None, an int, a numpy Generator or RandomState, "
                    f"got random_state={random_state!r}.")


def never_drawn_probability(n_samples):
    """Probability (1 - 1/m)^m that a given sample is missing from a bootstrap sample.

    Parameters
    ----------
    n_samples : int or array of int
        The size m >= 1 of the data set (and of the bootstrap sample).

    Returns
    -------
    float or ndarray
        Tends to 1/e ~ 0.3679 from below as m grows.

    Examples
    --------
    >>> round(float(never_drawn_probability(10)), 4)
    0.3487
    >>> bool(never_drawn_probability(10_000) < np.exp(-1))
    True
    """
    m = np.asarray(n_samples)
    if m.dtype.kind not in "iu" or np.any(m < 1):
        raise ValueError(f"n_samples must be integers >= 1, got n_samples={n_samples!r}; "
                         "it is the size m of the data set.")
    return (1.0 - 1.0 / m) ** m


def bootstrap_indices(n_samples, n_resamples, random_state=None):
    """Indices of ``n_resamples`` bootstrap samples of ``range(n_samples)``.

    Row b holds m indices drawn uniformly with replacement. An int seed or a
    Generator draws ``rng.integers(0, m, (n_resamples, m))``, the same draws as
    ``scipy.stats.bootstrap``; a legacy ``RandomState`` draws one row at a time
    with ``randint``, the same draws as ``mlxtend.evaluate.BootstrapOutOfBag``.

    Returns
    -------
    ndarray of int, shape (n_resamples, n_samples)

    Examples
    --------
    >>> idx = bootstrap_indices(5, 3, random_state=0)
    >>> idx.shape, bool(idx.min() >= 0), bool(idx.max() < 5)
    ((3, 5), True, True)
    >>> bool((idx == bootstrap_indices(5, 3, random_state=0)).all())
    True
    """
    m = check_int(n_samples, "n_samples", low=1, why="it is the size m of the data set")
    n_resamples = check_int(n_resamples, "n_resamples", low=1, why=_WHY_B)
    rng = _rng(random_state)
    if isinstance(rng, np.random.RandomState):
        return np.stack([rng.randint(0, m, size=m) for _ in range(n_resamples)])
    return rng.integers(0, m, size=(n_resamples, m))


def draw_counts(n_samples, n_resamples, random_state=None):
    """How often each sample is drawn in each of ``n_resamples`` bootstrap samples.

    Entry (b, i) counts the copies of sample i in bootstrap sample b; it follows
    a Binomial(m, 1/m) law, and ``(counts == 0).mean(axis=1)`` is the fraction
    left out of the bag.

    Examples
    --------
    >>> counts = draw_counts(1000, 200, random_state=0)
    >>> bool((counts.sum(axis=1) == 1000).all())
    True
    >>> round(float((counts == 0).mean()), 2)
    0.37
    """
    return _counts(bootstrap_indices(n_samples, n_resamples, random_state))


def _counts(idx):
    b, m = idx.shape
    flat = (idx + m * np.arange(b)[:, None]).ravel()
    return np.bincount(flat, minlength=b * m).reshape(b, m)


class BootstrapOutOfBag:
    """Bootstrap splitter: train on a bootstrap sample, test on its out-of-bag samples.

    A scikit-learn splitter (``split``, ``get_n_splits``), so it plugs into
    ``cross_val_score`` and ``GridSearchCV``. Training indices repeat; test
    indices are the samples the bootstrap sample missed, sorted. A bootstrap
    sample that draws every sample (no test set; likely only for m < 10) is
    drawn again, so every split has a test set.

    Parameters
    ----------
    n_resamples : int, default=200
        Number of bootstrap samples (splits), >= 1.
    random_state : None, int, numpy Generator or RandomState
        An int gives the same splits on every call of ``split``.

    Examples
    --------
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X = np.arange(40.0).reshape(20, 2); y = np.arange(20) % 2
    >>> cv = BootstrapOutOfBag(n_resamples=5, random_state=0)
    >>> train, test = next(cv.split(X))
    >>> len(train), bool(np.intersect1d(train, test).size == 0)
    (20, True)
    >>> cross_val_score(KNeighborsClassifier(3), X, y, cv=cv).shape
    (5,)
    """

    def __init__(self, n_resamples=200, random_state=None):
        self.n_resamples = check_int(n_resamples, "n_resamples", low=1, why=_WHY_B)
        _rng(random_state)  # type check only; the generator is made in split()
        self.random_state = random_state

    def __repr__(self):
        return f"BootstrapOutOfBag(n_resamples={self.n_resamples}, random_state={self.random_state!r})"

    def get_n_splits(self, X=None, y=None, groups=None):
        """Number of splits, ``n_resamples``."""
        return self.n_resamples

    def split(self, X, y=None, groups=None):
        """Yield ``(train, test)`` index arrays: a bootstrap sample and its out-of-bag samples."""
        m = len(X)
        if m < 2:
            raise ValueError(f"X must hold at least 2 samples, got n_samples={m}: a bootstrap "
                             "sample of one sample always draws it, leaving no out-of-bag test set.")
        rng = _rng(self.random_state)
        for _ in range(self.n_resamples):
            while True:
                train = bootstrap_indices(m, 1, rng)[0]
                test = np.flatnonzero(np.bincount(train, minlength=m) == 0)
                if test.size:
                    break
            yield train, test


# --------------------------------------------------------------------------- errors
def _zero_one(y_true, y_pred):
    return float(np.mean(np.asarray(y_true) != np.asarray(y_pred)))


def _squared(y_true, y_pred):
    return float(np.mean((np.asarray(y_true, float) - np.asarray(y_pred, float)) ** 2))


_LOSSES = {"zero_one": _zero_one, "squared_error": _squared}


def _check_loss(loss, y):
    """The loss function; refuse scorers and functions where a perfect fit scores higher."""
    if loss is None:
        return _zero_one
    if isinstance(loss, str):
        return _LOSSES[check_option(loss, "loss", list(_LOSSES))]
    if hasattr(loss, "_score_func") or not callable(loss):
        raise TypeError(f"loss must be a function loss(y_true, y_pred) returning an error, got "
                        f"loss={loss!r}; a scikit-learn scorer takes (estimator, X, y) and returns "
                        "a score. Pass e.g. sklearn.metrics.zero_one_loss.")
    values = []
    for y_pred in (y, np.roll(y, 1)):
        value = loss(y, y_pred)
        if np.ndim(value) != 0 or not isinstance(value, (numbers.Real, np.floating, np.integer)) \
                or not np.isfinite(value):
            raise ValueError("loss must return one finite number, the mean loss over the samples, "
                             f"got {value!r} from loss(y, y).")
        values.append(float(value))
    if values[0] > values[1]:
        raise ValueError(f"loss must be an error (lower is better), but loss(y, y) = {values[0]:g} "
                         f"exceeds loss(y, shifted y) = {values[1]:g}: it behaves like a score such "
                         "as accuracy. Pass an error, e.g. lambda y, p: 1 - accuracy_score(y, p).")
    return loss


def _fit_predict(estimator, X, y, splits):
    return [clone(estimator).fit(X[train], y[train]).predict(X[test]) for train, test in splits]


@dataclass(frozen=True)
class BootstrapErrorReport:
    """Every ingredient of the bootstrap error estimates (see :func:`bootstrap_error_report`)."""

    resubstitution: float          # err-bar: the model fitted on all data, tested on it
    out_of_bag: float              # mean over resamples of the out-of-bag error
    leave_one_out: float           # Err^(1): mean over samples of their out-of-bag error
    no_information: float          # gamma: error when inputs and labels are unrelated
    relative_overfitting: float    # R' in [0, 1]
    point632: float                # .368 err-bar + .632 Err^(1)
    point632plus: float            # .632 plus a correction growing with R' (see below)
    n_resamples: int               # resamples with a non-empty out-of-bag set

    @property
    def weight(self):
        """The .632+ weight w = .632 / (1 - .368 R') of Err^(1), in [.632, 1] (exact when unclipped)."""
        return 0.632 / (1.0 - 0.368 * self.relative_overfitting)


def bootstrap_error_report(estimator, X, y, *, n_resamples=200, loss=None, random_state=None,
                           n_jobs=None):
    """Out-of-bag, .632 and .632+ estimates of an estimator's generalization error.

    With f fitted on all m samples and f_b on bootstrap sample b (Efron 1983;
    Efron & Tibshirani 1997):

    * ``resubstitution`` err = (1/m) sum_i L(y_i, f(x_i));
    * ``out_of_bag``: the mean over b of f_b's error on the samples b missed;
    * ``leave_one_out`` Err1 = (1/m) sum_i mean_{b: i not in b} L(y_i, f_b(x_i)),
      over the samples left out at least once;
    * ``no_information`` gamma = (1/m^2) sum_i sum_j L(y_i, f(x_j));
    * ``point632`` = .368 err + .632 Err1;
    * ``relative_overfitting`` R' = (Err1' - err) / (gamma - err), with
      Err1' = min(Err1, gamma), when Err1 > err and gamma > err; R' = 0
      otherwise. So 0 <= R' <= 1: the papers' R, clipped;
    * ``point632plus`` = Err.632 + (Err1' - err) .368 .632 R' / (1 - .368 R')
      (eq. 32 of Efron & Tibshirani 1997), which is (1 - w) err + w Err1 with
      w = .632 / (1 - .368 R') when no clipping happens.

    Parameters
    ----------
    estimator : scikit-learn estimator with ``fit`` and ``predict``
    X : array-like, shape (n_samples, n_features)
    y : array-like, shape (n_samples,)
    n_resamples : int, default=200
        Number of bootstrap samples, >= 1.
    loss : None, "zero_one", "squared_error" or callable
        ``loss(y_true, y_pred)``, the *mean* of per-sample losses (lower is
        better), like ``zero_one_loss`` or ``mean_squared_error``: Err1 and
        gamma apply it to groups of predictions. None is the 0-1 loss.
    random_state : None, int, numpy Generator or RandomState
    n_jobs : int or None
        Fit the bootstrap models in parallel (joblib); None runs here.

    Returns
    -------
    BootstrapErrorReport

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 2)); y = rng.integers(0, 2, 40)   # labels unrelated to X
    >>> r = bootstrap_error_report(KNeighborsClassifier(1), X, y, n_resamples=50, random_state=0)
    >>> r.resubstitution, r.relative_overfitting        # 1-NN memorizes: R' = 1
    (0.0, 1.0)
    >>> bool(r.point632 < 0.4 < r.point632plus)         # .632 is fooled, .632+ is not
    True
    """
    X, y = check_X_y(X, y, accept_sparse=True, dtype=None, ensure_all_finite=False)
    loss = _check_loss(loss, y)
    m = len(y)
    idx = bootstrap_indices(m, n_resamples, random_state)
    counts = _counts(idx)
    rows = np.flatnonzero((counts == 0).any(axis=1))
    if rows.size == 0:
        raise ValueError(f"every one of the n_resamples={n_resamples} bootstrap samples of "
                         f"n_samples={m} drew every sample, so no out-of-bag sample is left to "
                         "test on; use more samples or a larger n_resamples.")
    splits = [(idx[b], np.flatnonzero(counts[b] == 0)) for b in rows]
    chunks = [splits[i:i + 10] for i in range(0, len(splits), 10)]
    predicted = parallel_map(partial(_fit_predict, estimator, X, y), chunks, n_jobs=n_jobs,
                             desc="bootstrap fits")
    predicted = [p for chunk in predicted for p in chunk]
    tests = [test for _, test in splits]
    out_of_bag = float(np.mean([loss(y[t], p) for t, p in zip(tests, predicted)]))
    # Err^(1): group every out-of-bag prediction by the sample it predicts.
    owner, values = np.concatenate(tests), np.concatenate(predicted)
    order = np.argsort(owner, kind="stable")
    owner, values = owner[order], values[order]
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    ends = np.r_[starts[1:], owner.size]
    leave_one_out = float(np.mean([loss(y[owner[s:e]], values[s:e]) for s, e in zip(starts, ends)]))
    full = clone(estimator).fit(X, y).predict(X)
    resub = float(loss(y, full))
    labels, times = np.unique(full, return_counts=True)
    gamma = float(sum(t / m * loss(y, np.full(m, v)) for v, t in zip(labels, times)))
    err1 = min(leave_one_out, gamma)
    r = (err1 - resub) / (gamma - resub) if leave_one_out > resub and gamma > resub else 0.0
    point632 = 0.368 * resub + 0.632 * leave_one_out
    plus = point632 + (err1 - resub) * 0.368 * 0.632 * r / (1.0 - 0.368 * r)
    return BootstrapErrorReport(resub, out_of_bag, leave_one_out, gamma, float(r), point632,
                                float(plus), int(rows.size))


def bootstrap_error(estimator, X, y, method="oob", n_resamples=200, loss=None, random_state=None,
                    n_jobs=None):
    """Bootstrap estimate of generalization error (lower is better).

    ``method`` is "oob" (mean out-of-bag error over resamples), ".632" or
    ".632+"; see :func:`bootstrap_error_report` for the formulas and the other
    parameters.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> rng = np.random.default_rng(1)
    >>> y = np.arange(60) % 2; X = rng.normal(size=(60, 2)) + 2.0 * y[:, None]
    >>> e = bootstrap_error(LinearDiscriminantAnalysis(), X, y, ".632+", 50, random_state=0)
    >>> bool(0.0 < e < 0.2)
    True
    """
    method = check_option(method, "method", ["oob", ".632", ".632+"])
    report = bootstrap_error_report(estimator, X, y, n_resamples=n_resamples, loss=loss,
                                    random_state=random_state, n_jobs=n_jobs)
    return {"oob": report.out_of_bag, ".632": report.point632, ".632+": report.point632plus}[method]


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
    data = np.asarray(data)
    if data.ndim == 0 or len(data) < 2:
        raise ValueError(f"data must hold at least 2 observations along its first axis, got "
                         f"shape {data.shape}.")
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
    rng, jackknife_rows = _rng(random_state), _jackknife_indices(m)
    alpha = (1.0 - check_real(confidence, "confidence", low=0, high=1, low_open=True,
                              high_open=True)) / 2.0
    hits = dict.fromkeys(methods, 0)
    for start in range(0, n_datasets, 100):
        k = min(100, n_datasets - start)
        data = np.asarray(sampler(rng, (k, m)), dtype=float)
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


# --------------------------------------------------------------------------- simulation
def gaussian_classes(n_samples, rng, separation=1.0):
    """Two equal classes in the plane, N(0, I) and N((separation, 0), I), balanced and shuffled.

    The Bayes error is Phi(-separation / 2); with ``separation=0`` the labels
    carry no information and every classifier errs half the time.

    Examples
    --------
    >>> X, y = gaussian_classes(6, np.random.default_rng(0))
    >>> X.shape, int(y.sum())
    ((6, 2), 3)
    """
    y = rng.permutation(np.arange(n_samples) % 2)
    X = rng.normal(size=(n_samples, 2))
    X[:, 0] += separation * y
    return X, y


def _cv_error(estimator, X, y, cv):
    """Mean 0-1 error over the splits of ``cv``: ``1 - cross_val_score(...).mean()`` without its overhead."""
    return float(np.mean([_zero_one(y[test], clone(estimator).fit(X[train], y[train]).predict(X[test]))
                          for train, test in cv.split(X, y)]))


def _one_repetition(estimator, sampler, m, n_resamples, n_test, n_splits, seed):
    rng = np.random.default_rng(seed)
    X, y = sampler(m, rng)
    X_test, y_test = sampler(n_test, rng)
    report = bootstrap_error_report(estimator, X, y, n_resamples=n_resamples, random_state=rng)
    kfold = KFold(n_splits, shuffle=True, random_state=int(rng.integers(2**31)))
    return {"true error": _zero_one(y_test, clone(estimator).fit(X, y).predict(X_test)),
            "resubstitution": report.resubstitution, "out-of-bag": report.out_of_bag,
            ".632": report.point632, ".632+": report.point632plus,
            f"{n_splits}-fold CV": _cv_error(estimator, X, y, kfold),
            "LOO": _cv_error(estimator, X, y, LeaveOneOut())}


def simulate_error_estimates(estimator, sampler, n_samples, *, n_repetitions=50, n_resamples=50,
                             n_test=5000, n_splits=10, random_state=None, n_jobs=None):
    """Draw many small training sets; estimate a classifier's error every way; record the truth.

    Each repetition draws m = ``n_samples`` training points and ``n_test``
    test points with ``sampler(n, rng) -> (X, y)``, fits the classifier on the
    training points, and records its test error ("true error") beside the
    resubstitution, out-of-bag, .632, .632+, K-fold CV (``KFold``) and
    leave-one-out (``LeaveOneOut``) estimates of it (0-1 loss). The CV errors
    are ``1 - cross_val_score(...).mean()``, computed by a plain loop over the
    splits, which skips ``cross_val_score``'s per-split overhead. Repetitions
    use independent child seeds, so ``n_jobs`` never changes the result.

    Returns
    -------
    dict of str to ndarray, each of shape (n_repetitions,)

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> out = simulate_error_estimates(KNeighborsClassifier(1), gaussian_classes, 20,
    ...                                n_repetitions=2, n_resamples=10, random_state=0)
    >>> list(out)[:3], out["LOO"].shape
    (['true error', 'resubstitution', 'out-of-bag'], (2,))
    """
    m = check_int(n_samples, "n_samples", low=2 * check_int(n_splits, "n_splits", low=2))
    n_repetitions = check_int(n_repetitions, "n_repetitions", low=1)
    seeds = np.random.SeedSequence(random_state).spawn(n_repetitions)
    task = partial(_one_repetition, estimator, sampler, m, n_resamples,
                   check_int(n_test, "n_test", low=1), n_splits)
    rows = parallel_map(task, seeds, n_jobs=n_jobs, desc="repetitions")
    return {key: np.array([row[key] for row in rows]) for key in rows[0]}


# --------------------------------------------------------------------------- figures
class NeverDrawnFigure(InteractiveFigure):
    """Slider m: the share of samples a bootstrap sample misses, against (1 - 1/m)^m and 1/e."""

    benchmark = ("n_samples", [1, 2, 3, 5, 10, 20, 50, 100])
    figsize = (8.4, 3.4)
    n_resamples = 400

    def controls(self):
        import ipywidgets as widgets

        return {"n_samples": widgets.IntSlider(value=10, min=1, max=100, description="m")}

    def setup(self, fig):
        from scipy.stats import binom

        self._binom = binom
        fig.set_layout_engine("none")   # fixed positions: a constrained layout costs a redraw
        left, right = fig.subplots(1, 2)
        left.set_position([0.08, 0.15, 0.39, 0.72])
        right.set_position([0.58, 0.15, 0.40, 0.72])
        ms = np.arange(1, 101)
        left.plot(ms, never_drawn_probability(ms), color="C0", label="$(1-1/m)^m$")
        left.axhline(np.exp(-1), color="gray", ls="--", label="$1/e$")
        (self.exact,) = left.plot([], [], "o", color="C0", ms=8)
        (self.measured,) = left.plot([], [], "x", color="C3", ms=10, mew=2,
                                     label=f"measured ({self.n_resamples} resamples)")
        left.set(xlabel="m (samples in the data set)", ylabel="P(a sample is never drawn)",
                 xlim=(0, 101), ylim=(-0.02, 0.5))
        left.legend(loc="lower right", fontsize=8)
        self.ks = np.arange(7)
        self.bars = right.bar(self.ks, np.zeros(7), color="C0", alpha=0.5, label="measured")
        (self.pmf,) = right.plot(self.ks, np.zeros(7), "o-", color="C3", label="Binomial$(m, 1/m)$")
        right.set(xlabel="copies of a sample in one bootstrap sample", ylabel="share of samples",
                  ylim=(0, 1.02), xticks=self.ks, xticklabels=["0", "1", "2", "3", "4", "5", "6+"])
        right.legend(fontsize=8)
        self.title = fig.suptitle("")

    def update(self, n_samples):
        m = int(n_samples)
        counts = draw_counts(m, self.n_resamples, random_state=0)
        exact, measured = float(never_drawn_probability(m)), float((counts == 0).mean())
        self.exact.set_data([m], [exact])
        self.measured.set_data([m], [measured])
        share = np.bincount(np.minimum(counts.ravel(), 6), minlength=7) / counts.size
        for bar, height in zip(self.bars, share):
            bar.set_height(height)
        pmf = self._binom.pmf(self.ks, m, 1.0 / m)
        pmf[6] = self._binom.sf(5, m, 1.0 / m)
        self.pmf.set_ydata(pmf)
        self.title.set_text(f"m = {m}: a sample is never drawn with probability {exact:.3f} "
                            f"(measured {measured:.3f}); the limit is 1/e = 0.368")


class BootstrapIntervalFigure(InteractiveFigure):
    """Slider: number of resamples; histogram of the bootstrap replicates and two 95% intervals.

    By default the statistic is the mean of a skewed (log-normal) sample of 25.
    """

    benchmark = ("n_resamples", [25, 50, 100, 200, 400, 800, 1600, 3200])
    figsize = (7.0, 3.6)

    def __init__(self, data=None, statistic=np.mean, **kwargs):
        if data is None:
            data = np.random.default_rng(6).lognormal(sigma=1.0, size=25)
        self.data, self.statistic = np.asarray(data, float), statistic
        super().__init__(**kwargs)

    def controls(self):
        import ipywidgets as widgets

        return {"n_resamples": widgets.SelectionSlider(options=self.benchmark[1], value=200,
                                                       description="resamples")}

    def setup(self, fig):
        fig.set_layout_engine("none")   # fixed positions: a constrained layout costs a redraw
        ax = self.ax = fig.add_subplot()
        ax.set_position([0.1, 0.14, 0.87, 0.76])
        m = len(self.data)
        self.theta_hat = float(self.statistic(self.data))
        wide = bootstrap_distribution(self.statistic, self.data, 4000, random_state=1)
        self.edges = np.linspace(*np.quantile(wide, [0.0005, 0.9995]), 41)
        self.histogram = ax.stairs(np.zeros(40), self.edges, fill=True, color="C0", alpha=0.5,
                                   label="bootstrap replicates")   # one artist, not 40 bars
        self.jackknife = np.array([self.statistic(row) for row in self.data[_jackknife_indices(m)]])
        ax.axvline(self.theta_hat, color="black", label="estimate on the data")
        self.lines = {name: [ax.axvline(0, color=c, ls=ls, label=f"95% {name}"), ax.axvline(0, color=c, ls=ls)]
                      for name, c, ls in [("percentile", "C3", "-"), ("BCa", "C2", "--")]}
        ax.set(xlabel="value of the statistic (mean of the sample)", ylabel="density")
        ax.legend(fontsize=8, loc="upper right")

    def update(self, n_resamples):
        reps = bootstrap_distribution(self.statistic, self.data, int(n_resamples), random_state=0)
        heights = np.histogram(reps, self.edges, density=True)[0]
        self.histogram.set_data(values=heights)
        self.ax.set_ylim(0, 1.15 * max(heights.max(), 1e-9))
        text = []
        for name, (low_line, high_line) in self.lines.items():
            low, high = _interval(reps, self.theta_hat, self.jackknife, name, 0.95)
            low_line.set_xdata([low, low])
            high_line.set_xdata([high, high])
            text.append(f"{name} [{low:.2f}, {high:.2f}]")
        self.ax.set_title(f"{int(n_resamples)} resamples: SE {np.std(reps, ddof=1):.3f}; "
                          + ", ".join(text), fontsize=9)
