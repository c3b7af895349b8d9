"""Generalization bounds for finite hypothesis classes, and a Monte Carlo check of them.

Chapter 2. For k classifiers and m i.i.d. examples, Hoeffding's inequality and
the union bound give P(exists h: ``|eps(h) - eps_hat(h)| > gamma``) <= 2k exp(-2 gamma^2 m).
The formula functions turn that around (how many samples, how small a gap)
and accept scalars (returning Python numbers) or broadcasting arrays
(returning arrays), so a figure draws a whole curve in one call. The
simulation functions measure, on threshold classifiers whose true errors are
known exactly, how often the event on the left really happens.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from matplotlib.ticker import NullLocator

from ._parallel import parallel_map
from ._validation import check_int, check_real
from .widgets import InteractiveFigure

__all__ = [
    "hoeffding_tail",
    "finite_class_failure_bound",
    "finite_class_sample_size",
    "finite_class_gap",
    "threshold_grid",
    "threshold_true_errors",
    "sample_threshold_data",
    "threshold_training_errors",
    "simulate_uniform_convergence",
    "UniformConvergenceResult",
    "SampleSizeFigure",
    "ViolationRateFigure",
]

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
    exact = (math.log(2.0) + _log(k) - np.log(delta)) / (2.0 * np.square(gamma))
    m = np.ceil(np.asarray(exact, dtype=float) * (1.0 - 1e-12)).astype(np.int64)
    return int(m) if m.ndim == 0 else m


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


# -- a problem where every true error is known: thresholds on [0, 1] ------------
def threshold_grid(k):
    """The k thresholds ``(j + 1/2) / k``, j = 0, ..., k-1, of the chapter's finite class.

    The class is :math:`\\mathcal{H}_k = \\{h_t(x) = 1\\{x \\ge t\\}\\}` for those
    thresholds: k evenly spaced cuts of the interval [0, 1].

    Examples
    --------
    >>> threshold_grid(4)
    array([0.125, 0.375, 0.625, 0.875])
    """
    k = _k(k)
    return (np.arange(k) + 0.5) / k


def _check_problem(boundary, noise):
    boundary = check_real(boundary, "boundary", low=0.0, high=1.0,
                          why="it is the true decision threshold, a point of [0, 1]")
    noise = check_real(noise, "noise", low=0.0, high=0.5, high_open=True,
                       why="it is the probability that a label is flipped, below 1/2")
    return boundary, noise


def threshold_true_errors(thresholds, *, boundary=0.37, noise=0.2):
    """Generalization errors of the classifiers ``1{x >= t}``, in closed form.

    The data: :math:`x \\sim U[0, 1]` and :math:`y = 1\\{x \\ge \\theta\\}`
    (``theta = boundary``), flipped with probability ``noise`` =
    :math:`\\eta`. The classifier :math:`h_t` disagrees with the clean label on
    an interval of length :math:`|t - \\theta|`, so

    .. math:: \\varepsilon(h_t) = \\eta + (1 - 2\\eta)\\,|t - \\theta|.

    Parameters
    ----------
    thresholds : array of float
        Thresholds in [0, 1].
    boundary : float
        The true threshold, in [0, 1].
    noise : float
        Label-flip probability, in [0, 1/2).

    Returns
    -------
    ndarray, the same shape as ``thresholds``

    Examples
    --------
    >>> threshold_true_errors([0.37, 0.5, 1.0], boundary=0.37, noise=0.2).round(3)
    array([0.2  , 0.278, 0.578])
    """
    boundary, noise = _check_problem(boundary, noise)
    thresholds = _checked(np.atleast_1d(np.asarray(thresholds, dtype=float)), "thresholds",
                          check_real, low=0.0, high=1.0)
    return noise + (1.0 - 2.0 * noise) * np.abs(thresholds - boundary)


def sample_threshold_data(n_trials, *, m, boundary=0.37, noise=0.2, random_state=None):
    """``n_trials`` training sets of ``m`` examples from the threshold problem.

    Returns
    -------
    X : ndarray of shape (n_trials, m)
        Inputs, uniform on [0, 1]; row ``r`` is training set ``r``.
    y : ndarray of bool, shape (n_trials, m)
        Labels ``x >= boundary``, each flipped with probability ``noise``.

    Examples
    --------
    >>> X, y = sample_threshold_data(3, m=5, random_state=0)
    >>> X.shape, y.dtype
    ((3, 5), dtype('bool'))
    """
    n_trials = check_int(n_trials, "n_trials", low=1, why="it is the number of training sets")
    m = _m(m)
    boundary, noise = _check_problem(boundary, noise)
    rng = np.random.default_rng(random_state)
    X = rng.random((n_trials, m))
    y = (X >= boundary) ^ (rng.random((n_trials, m)) < noise)
    return X, y


def threshold_training_errors(X, y, thresholds):
    """Training errors of every ``1{x >= t}`` on every training set, in O(m + k) per set.

    Parameters
    ----------
    X : array of shape (n_trials, m)
        One training set per row (a 1-d array is one set).
    y : array of bool, same shape
        Labels.
    thresholds : array of shape (k,)
        Sorted increasingly.

    Returns
    -------
    ndarray of shape (n_trials, k)
        ``[r, j]`` is the fraction of set ``r`` that ``1{x >= thresholds[j]}`` gets wrong.

    Notes
    -----
    No (n_trials, m, k) array is built: each input is put in the bin of the
    thresholds below it, the bins are counted per label with one
    ``bincount``, and cumulative sums give the mistakes of every threshold,
    ``#{y = 1, x < t}`` plus ``#{y = 0, x >= t}``.

    Examples
    --------
    >>> threshold_training_errors([0.1, 0.4, 0.8], [False, True, True], [0.3, 0.6])
    array([[0.        , 0.33333333]])
    """
    X = np.atleast_2d(np.asarray(X, dtype=float))
    y = np.atleast_2d(np.asarray(y, dtype=bool))
    thresholds = np.asarray(thresholds, dtype=float)
    if X.shape != y.shape:
        raise ValueError(f"X and y must have the same shape, got X.shape={X.shape} "
                         f"and y.shape={y.shape}.")
    if thresholds.ndim != 1 or np.any(np.diff(thresholds) < 0):
        raise ValueError("thresholds must be a 1-d array sorted increasingly, "
                         f"got shape {thresholds.shape}.")
    (n_trials, m), k = X.shape, thresholds.size
    bins = np.searchsorted(thresholds, X, side="right")        # thresholds <= x, in 0..k
    flat = bins + (k + 1) * np.arange(n_trials)[:, None]
    positives = np.bincount(flat[y], minlength=n_trials * (k + 1)).reshape(n_trials, k + 1)
    negatives = np.bincount(flat[~y], minlength=n_trials * (k + 1)).reshape(n_trials, k + 1)
    missed = np.cumsum(positives, axis=1)[:, :k]               # y = 1 but x < t_j
    negatives_above = negatives.sum(axis=1, keepdims=True) - np.cumsum(negatives, axis=1)[:, :k]
    return (missed + negatives_above) / m


# -- the Monte Carlo experiment ------------------------------------------------------
@dataclass(frozen=True)
class UniformConvergenceResult:
    """What :func:`simulate_uniform_convergence` measured.

    Attributes
    ----------
    k, m, n_trials : int
        Class size, training-set size, number of training sets.
    gamma : float or None
        The gap asked for, the default of :meth:`violation_rate`.
    true_errors : ndarray of shape (k,)
        :math:`\\varepsilon(h)` for each hypothesis, in closed form.
    max_deviation : ndarray of shape (n_trials,)
        :math:`\\max_h |\\varepsilon(h) - \\hat\\varepsilon(h)|` on each training set.
    erm_error : ndarray of shape (n_trials,)
        :math:`\\varepsilon(\\hat h)`, the true error of the training-error minimizer.
    """

    k: int
    m: int
    n_trials: int
    gamma: float | None
    true_errors: np.ndarray
    max_deviation: np.ndarray
    erm_error: np.ndarray

    def violation_rate(self, gamma=None):
        """Fraction of training sets on which some h has ``|eps(h) - eps_hat(h)| > gamma``."""
        gamma = self.gamma if gamma is None else gamma
        if gamma is None:
            raise ValueError("gamma must be given: the simulation was run with gamma=None.")
        gamma = _gamma(gamma)
        rate = (self.max_deviation[:, None] > np.ravel(gamma)[None, :]).mean(axis=0)
        return float(rate[0]) if np.ndim(gamma) == 0 else rate.reshape(np.shape(gamma))

    def bound(self, gamma=None):
        """The union bound ``2 k exp(-2 gamma^2 m)`` on :meth:`violation_rate`."""
        gamma = self.gamma if gamma is None else gamma
        return finite_class_failure_bound(self.k, m=self.m, gamma=gamma)

    def deviation_quantile(self, delta):
        """The gap exceeded on a fraction ``delta`` of the training sets (the empirical
        counterpart of :func:`finite_class_gap`)."""
        delta = _delta(delta)
        return _out(np.quantile(self.max_deviation, 1.0 - np.asarray(delta)))


def _simulate_chunk(task):
    """One block of trials (a module-level function, so joblib can send it to a worker)."""
    seed, n_trials, m, thresholds, true_errors, boundary, noise = task
    X, y = sample_threshold_data(n_trials, m=m, boundary=boundary, noise=noise,
                                 random_state=seed)
    errors = threshold_training_errors(X, y, thresholds)
    max_deviation = np.abs(errors - true_errors).max(axis=1)
    erm_error = true_errors[errors.argmin(axis=1)]
    return max_deviation, erm_error


def simulate_uniform_convergence(k, *, m, gamma=None, n_trials=1000, boundary=0.37,
                                 noise=0.2, random_state=None, n_jobs=None):
    """Measure how often a finite class fails to converge uniformly.

    The class is the ``k`` threshold classifiers of :func:`threshold_grid`
    and the data those of :func:`sample_threshold_data`, so every
    :math:`\\varepsilon(h)` is exact (:func:`threshold_true_errors`). For
    each of ``n_trials`` training sets of ``m`` examples it records
    :math:`\\max_h |\\varepsilon(h) - \\hat\\varepsilon(h)|` and the true
    error of the ERM :math:`\\hat h` (ties go to the smallest threshold).

    Parameters
    ----------
    k : int
        Number of hypotheses, k >= 1.
    m : int
        Training-set size, m >= 1.
    gamma : float, optional
        Gap used by default in the result's ``violation_rate()`` and ``bound()``.
    n_trials : int
        Number of independent training sets.
    boundary, noise : float
        The data distribution (see :func:`threshold_true_errors`).
    random_state : int, numpy Generator or None
        Seed. The trials are drawn in fixed blocks, each from its own child
        seed, so the result does not depend on ``n_jobs``.
    n_jobs : int or None
        Blocks run in parallel through :func:`mlcore._parallel.parallel_map`.

    Returns
    -------
    UniformConvergenceResult

    Examples
    --------
    >>> result = simulate_uniform_convergence(50, m=400, gamma=0.1, n_trials=2000,
    ...                                       random_state=0)
    >>> bool(result.violation_rate() <= result.bound())
    True
    >>> result.true_errors.shape, result.max_deviation.shape
    ((50,), (2000,))
    """
    k, m, gamma = _k(k), _m(m), None if gamma is None else _gamma(gamma)
    n_trials = check_int(n_trials, "n_trials", low=1, why="it is the number of training sets")
    boundary, noise = _check_problem(boundary, noise)
    if isinstance(random_state, np.random.Generator):
        random_state = int(random_state.integers(2**63))
    thresholds = threshold_grid(k)
    true_errors = threshold_true_errors(thresholds, boundary=boundary, noise=noise)
    # About a million numbers per block: big enough for numpy, small for memory.
    block = max(1, 2**20 // (m + k + 1))
    sizes = [min(block, n_trials - start) for start in range(0, n_trials, block)]
    seeds = np.random.SeedSequence(random_state).spawn(len(sizes))
    tasks = [(seed, size, m, thresholds, true_errors, boundary, noise)
             for seed, size in zip(seeds, sizes)]
    parts = parallel_map(_simulate_chunk, tasks, n_jobs=n_jobs,
                         desc=f"uniform convergence, m={m}")
    return UniformConvergenceResult(
        k=k, m=m, n_trials=n_trials, gamma=gamma, true_errors=true_errors,
        max_deviation=np.concatenate([p[0] for p in parts]),
        erm_error=np.concatenate([p[1] for p in parts]))


# -- interactive figures -----------------------------------------------------------
def _freeze_layout(fig):
    """Lay the figure out once, then keep it: constrained layout otherwise re-measures
    every tick label on every redraw, half the cost of a slider move or animation frame."""
    fig.canvas.draw()
    fig.set_layout_engine("none")


class SampleSizeFigure(InteractiveFigure):
    """How many samples the finite-class bound asks for, as k, gamma and delta move.

    Left: the required m against gamma (for the chosen k, delta); right: the
    required m against k (for the chosen gamma, delta). Both axes of m are
    logarithmic, so the left curve's slope -2 is the 1/gamma^2 cost and the
    right curve's straight line (log-x) is the mild log k cost.
    """

    benchmark = ("gamma", [0.01, 0.02, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2])
    GAMMAS = np.linspace(0.01, 0.2, 120)
    KS = np.unique(np.geomspace(1, 10**6, 120).round().astype(np.int64))

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        _freeze_layout(self.fig)

    def controls(self):
        import ipywidgets as widgets

        return {
            "k": widgets.SelectionSlider(options=[10**j for j in range(7)], value=1000,
                                         description="k = |H|"),
            "gamma": widgets.FloatSlider(value=0.05, min=0.01, max=0.2, step=0.01,
                                         description="γ", readout_format=".2f"),
            "delta": widgets.SelectionSlider(options=[0.001, 0.005, 0.01, 0.05, 0.1, 0.2, 0.5],
                                             value=0.05, description="δ"),
        }

    def setup(self, fig):
        self.ax_gamma, self.ax_k = fig.subplots(1, 2, sharey=True)
        (self.curve_gamma,) = self.ax_gamma.plot(self.GAMMAS, np.ones_like(self.GAMMAS))
        (self.dot_gamma,) = self.ax_gamma.plot([0.05], [1.0], "o", color="C3")
        (self.curve_k,) = self.ax_k.plot(self.KS, np.ones(self.KS.size), color="C2")
        (self.dot_k,) = self.ax_k.plot([1000], [1.0], "o", color="C3")
        self.ax_gamma.set(yscale="log", xlim=(0, 0.21), ylim=(10, 3e5), xlabel="accuracy γ",
                          ylabel="training examples m needed")
        self.ax_k.set(xscale="log", xlim=(0.7, 1.5e6), xlabel="class size k (log scale)")
        self.ax_k.set_xticks([10**j for j in range(7)])
        self.ax_gamma.set_yticks([10**j for j in range(1, 6)])
        for ax in (self.ax_gamma, self.ax_k):
            ax.grid(True, which="major", alpha=0.3)
            ax.xaxis.set_minor_locator(NullLocator())  # minor log ticks triple the redraw time
            ax.yaxis.set_minor_locator(NullLocator())
        self.ax_gamma.set_title("m against γ (k, δ fixed)", fontsize=10)
        self.ax_k.set_title("m against k (γ, δ fixed)", fontsize=10)
        self.title = fig.suptitle("", fontsize=11)

    def update(self, k, gamma, delta):
        m = finite_class_sample_size(k, gamma=gamma, delta=delta)
        self.curve_gamma.set_ydata(finite_class_sample_size(k, gamma=self.GAMMAS, delta=delta))
        self.curve_k.set_ydata(finite_class_sample_size(self.KS, gamma=gamma, delta=delta))
        self.dot_gamma.set_data([gamma], [m])
        self.dot_k.set_data([k], [m])
        self.title.set_text(f"m ≥ {m:,} examples make all {k:,} hypotheses "
                            f"{gamma:.2f}-accurate w.p. ≥ {1 - delta:g}")


class ViolationRateFigure(InteractiveFigure):
    """The observed ``P(max_h |eps(h) - eps_hat(h)| > gamma)`` beside the union bound, as m moves.

    One Monte Carlo run per value of m (cached): ``n_trials`` training sets
    from the threshold problem with ``k`` hypotheses. The dashed vertical
    line is the gap :func:`finite_class_gap` guarantees with probability
    ``1 - delta``; the dot is how often it is actually exceeded.
    """

    benchmark = ("m", [25, 50, 100, 200, 400, 800, 1600])
    M_VALUES = [25, 50, 100, 200, 400, 800, 1600]
    GAMMAS = np.geomspace(0.01, 0.6, 240)

    def __init__(self, *, k=100, delta=0.05, n_trials=500, random_state=0, **kwargs):
        self.k = _k(k)
        self.delta = _delta(delta)
        self.n_trials = check_int(n_trials, "n_trials", low=1,
                                  why="it is the number of training sets")
        self.random_state = random_state
        # One simulation per slider position, run now so that a slider move only redraws.
        self._cache = {m: simulate_uniform_convergence(k, m=m, n_trials=self.n_trials,
                                                       random_state=random_state)
                       for m in self.M_VALUES}
        super().__init__(**kwargs)
        _freeze_layout(self.fig)

    def result(self, m):
        """The (cached) simulation at training-set size m."""
        if m not in self._cache:
            self._cache[m] = simulate_uniform_convergence(
                self.k, m=m, n_trials=self.n_trials, random_state=self.random_state)
        return self._cache[m]

    def controls(self):
        import ipywidgets as widgets

        return {"m": widgets.SelectionSlider(options=self.M_VALUES, value=200,
                                             description="m")}

    def setup(self, fig):
        ax = self.ax = fig.add_subplot()
        zeros = np.zeros_like(self.GAMMAS)
        (self.observed,) = ax.plot(self.GAMMAS, zeros, lw=2,
                                   label=r"observed $P(\max_h|\varepsilon-\hat\varepsilon|>\gamma)$")
        (self.union,) = ax.plot(self.GAMMAS, zeros, "--", color="C3",
                                label=r"union bound $2k\,e^{-2\gamma^2 m}$ (capped at 1)")
        (self.single,) = ax.plot(self.GAMMAS, zeros, ":", color="0.4",
                                 label=r"one hypothesis $2e^{-2\gamma^2 m}$")
        self.gap_line = ax.axvline(0.1, color="0.5", lw=1, ls="--")
        (self.gap_dot,) = ax.plot([0.1], [0.0], "o", color="C3")
        ax.axhline(self.delta, color="0.5", lw=0.8)
        ax.set(xscale="log", xlim=(0.01, 0.6), ylim=(-0.02, 1.02), xlabel="gap γ (log scale)",
               ylabel="probability over training sets")
        ticks = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5]
        ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
        ax.xaxis.set_minor_locator(NullLocator())
        fig.legend(loc="outside lower center", ncol=3, fontsize=8)
        self.title = ax.set_title("", fontsize=10)

    def update(self, m):
        result = self.result(m)
        self.observed.set_ydata(result.violation_rate(self.GAMMAS))
        self.union.set_ydata(np.minimum(1.0, result.bound(self.GAMMAS)))
        self.single.set_ydata(np.minimum(1.0, hoeffding_tail(m, gamma=self.GAMMAS)))
        gap = finite_class_gap(self.k, m=m, delta=self.delta)
        rate = result.violation_rate(gap)
        self.gap_line.set_xdata([gap, gap])
        self.gap_dot.set_data([gap], [rate])
        self.title.set_text(f"k = {self.k}, m = {m}: the bound promises a gap ≤ {gap:.3f} "
                            f"with probability ≥ {1 - self.delta:g};\nit is exceeded on "
                            f"{rate:.1%} of {result.n_trials} training sets (dot)")
