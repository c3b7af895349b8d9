"""The threshold-class Monte Carlo check of :mod:`mlcore.bounds`.

Threshold classifiers on [0, 1] with noisy labels, whose true errors are
known in closed form, their training errors on many training sets at once,
and the simulation that measures how often uniform convergence fails.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._parallel import parallel_map
from .._validation import (as_generator, check_array, check_int, check_option,
                           check_random_state, check_real)
from ._formulas import (_WHY_K, _WHY_M, _checked, _delta, _gamma, _out,
                        finite_class_failure_bound)


# -- a problem where every true error is known: thresholds on [0, 1] ------------
def threshold_grid(k, *, grid="midpoint"):
    """The k thresholds of the chapter's finite class :math:`\\mathcal{H}_k`.

    The class is :math:`\\mathcal{H}_k = \\{h_t(x) = 1\\{x \\ge t\\}\\}` for k
    evenly spaced cuts t of the interval [0, 1].

    Parameters
    ----------
    k : int
        Number of thresholds, k >= 1.
    grid : {"midpoint", "left"}
        ``"midpoint"``: ``t = (j + 1/2) / k``, the centres of k equal cells
        (the classes for different k are *not* nested: the grid for k = 2 is
        not part of the grid for k = 3). ``"left"``: ``t = j / k``, the cells'
        left ends, j = 0, ..., k-1; these classes are nested whenever k divides
        k' (``H_2`` is in ``H_4``, in ``H_8``, ...), so the best error in the
        class can only fall along k = 1, 2, 4, 8, ...

    Examples
    --------
    >>> threshold_grid(4)
    array([0.125, 0.375, 0.625, 0.875])
    >>> threshold_grid(4, grid="left")
    array([0.  , 0.25, 0.5 , 0.75])
    """
    k = check_int(k, "k", low=1, why=_WHY_K)
    grid = check_option(grid, "grid", ["midpoint", "left"])
    return (np.arange(k) + (0.5 if grid == "midpoint" else 0.0)) / k


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
    :math:`\\rho` (the label-noise rate; chapter 1's :math:`\\eta` is a learning
    rate, a different thing). The classifier :math:`h_t` disagrees with the clean label on
    an interval of length :math:`|t - \\theta|`, so

    .. math:: \\varepsilon(h_t) = \\rho + (1 - 2\\rho)\\,|t - \\theta|.

    Parameters
    ----------
    thresholds : array of float
        Thresholds in [0, 1].
    boundary : float
        The true threshold, in [0, 1].
    noise : float
        Label-flip probability :math:`\\rho`, in [0, 1/2).

    Returns
    -------
    ndarray, the same shape as ``thresholds``

    Examples
    --------
    >>> threshold_true_errors([0.37, 0.5, 1.0], boundary=0.37, noise=0.2).round(3)
    array([0.2  , 0.278, 0.578])
    """
    boundary, noise = _check_problem(boundary, noise)
    thresholds = _checked(np.atleast_1d(check_array(thresholds, "thresholds")), "thresholds",
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
    m = check_int(m, "m", low=1, why=_WHY_M)
    boundary, noise = _check_problem(boundary, noise)
    rng = as_generator(random_state)
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
    X = np.atleast_2d(check_array(X, "X", ndim=(1, 2)))
    labels = np.asarray(y)
    if labels.dtype != bool and not (labels.dtype.kind in "iuf" and np.isin(labels, (0, 1)).all()):
        raise ValueError(f"y must hold labels True/False (or 1/0), got y of dtype {labels.dtype} "
                         f"with values {np.unique(labels)[:5].tolist()}.")
    y = np.atleast_2d(labels.astype(bool))
    thresholds = check_array(thresholds, "thresholds", ndim=1)
    for name, values in (("X", X), ("thresholds", thresholds)):
        if values.size and (values.min() < 0 or values.max() > 1):
            raise ValueError(f"{name} must lie in [0, 1], where the threshold problem lives, "
                             f"got values in [{values.min():g}, {values.max():g}].")
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
                                 noise=0.2, grid="midpoint", random_state=None, n_jobs=None):
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
    grid : {"midpoint", "left"}
        Which k thresholds (see :func:`threshold_grid`).
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
    k = check_int(k, "k", low=1, why=_WHY_K)
    m = check_int(m, "m", low=1, why=_WHY_M)
    gamma = None if gamma is None else _gamma(gamma)
    n_trials = check_int(n_trials, "n_trials", low=1, why="it is the number of training sets")
    boundary, noise = _check_problem(boundary, noise)
    random_state = check_random_state(random_state)
    if random_state is not None and not isinstance(random_state, int):
        random_state = int(as_generator(random_state).integers(2**63))
    thresholds = threshold_grid(k, grid=grid)
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
