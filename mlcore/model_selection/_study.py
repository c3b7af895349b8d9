"""Polynomial regression data, its cross-validation curves, and the estimator-quality study.

Holds the chapter's data (:func:`sine_target`, :func:`sine_regression`,
:func:`legendre_design`), the batched least-squares split errors
(:func:`cv_split_errors`, :func:`degree_curves`) and the simulation of how
good each scheme's estimate is (:data:`STUDY_SCHEMES`,
:func:`cv_estimator_study`, :func:`summarize_cv_study`; its workers
``_one_repetition`` and ``_chunk`` stay at module level so joblib can pickle
them). Part of :mod:`mlcore.model_selection`.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from sklearn.model_selection import KFold
from sklearn.utils.validation import check_array, column_or_1d

from .._parallel import parallel_map
from .._validation import (as_generator, as_random_state, check_array as _check_array, check_int,
                           check_random_state, check_real, check_splitter, user_errors)
from ._splitters import loo_mse_linear, make_splitter


# -- polynomial regression data and its cross-validation --------------------
def sine_target(x):
    """The regression function of the chapter's examples, sin(pi x) on [-1, 1]."""
    x = _check_array(x, "x")
    if np.abs(x).max(initial=0.0) > 1e300:
        raise ValueError(f"x must lie within [-1e300, 1e300] (pi x must not overflow), got "
                         f"largest |x| {np.abs(x).max():g}.")
    return np.sin(np.pi * x)


def sine_regression(n_samples, *, noise=0.3, random_state=None):
    """x uniform on [-1, 1], y = sin(pi x) + N(0, noise^2) noise.

    Examples
    --------
    >>> x, y = sine_regression(5, random_state=0)
    >>> x.shape, bool(np.all(np.abs(x) <= 1))
    ((5,), True)
    """
    n = check_int(n_samples, "n_samples", low=1)
    noise = check_real(noise, "noise", low=0, high=1e100,
                       why="it is the standard deviation of the noise")
    rng = as_generator(random_state)
    x = rng.uniform(-1.0, 1.0, n)
    return x, sine_target(x) + noise * rng.standard_normal(n)


def legendre_design(x, degree):
    """Legendre polynomials P_0 .. P_degree of x in [-1, 1], one column each.

    The same column space as 1, x, ..., x^degree, far better conditioned.

    Examples
    --------
    >>> legendre_design(np.array([0.5]), 2)
    array([[ 1.   ,  0.5  , -0.125]])
    """
    degree = check_int(degree, "degree", low=0)
    return np.polynomial.legendre.legvander(_check_array(x, "x", ndim=(0, 1)), degree)


def cv_split_errors(X, y, cv):
    """Test mean squared error of least squares (no added intercept) on every split of ``cv``.

    All splits are fitted at once: the test rows of each copy of X are set
    to zero and a batched QR solves every training problem together.

    Examples
    --------
    >>> from sklearn.model_selection import KFold
    >>> X = legendre_design(np.linspace(-1, 1, 8), 1)
    >>> np.round(cv_split_errors(X, 2 * X[:, 1], KFold(4)), 12)
    array([0., 0., 0., 0.])
    """
    X = _check_array(X, "X", ndim=2, min_length=1)
    y = _check_array(y, "y", ndim=1, length=len(X), why="it holds one target per row of X")
    _check_magnitude(X, "X")
    _check_magnitude(y, "y")
    check_splitter(cv, "cv")
    tests, trains = _test_masks(cv, X, y, with_trains=True)
    return _split_errors(X, y, tests, trains)


def _check_magnitude(values, name):
    """Squared errors of values beyond 1e150 overflow: refuse them rather than return inf/NaN."""
    if np.abs(values).max(initial=0.0) > 1e150:
        raise ValueError(f"{name} must lie within [-1e150, 1e150] (squared errors of larger "
                         f"values overflow), got largest |value| {np.abs(values).max():g}; "
                         "rescale it.")


def _test_masks(cv, X, y=None, *, with_trains=False):
    """(n_splits, n_samples) array, True on each split's test samples.

    With ``with_trains``, also the number of times each sample is in each split's
    training set (a bootstrap splitter repeats samples), as floats."""
    if not with_trains:
        fast = _kfold_test_masks(cv, len(X))
        if fast is not None:
            return fast
    splits = list(cv.split(X, y))
    tests = np.zeros((len(splits), len(X)), dtype=bool)
    for row, (_, test) in zip(tests, splits):
        row[test] = True
    if not with_trains:  # the counts cost a scatter-add per split: only when asked
        return tests
    trains = np.zeros((len(splits), len(X)))
    for train_row, (train, _) in zip(trains, splits):
        np.add.at(train_row, np.asarray(train, dtype=int), 1.0)
    return tests, trains


def _kfold_test_masks(cv, n_samples):
    """Test masks of a KFold or RepeatedKFold as scikit-learn's ``split`` draws them, or None.

    The studies draw ~10^5 such splits; ``split`` spends most of its time on
    per-split input checks and train indices they do not use. This repeats
    ``KFold._iter_test_indices`` (scikit-learn 1.9: one shuffle of arange(m) by
    the splitter's random state, then contiguous folds, the first m % K one
    larger), and RepeatedKFold's one RandomState shared by its repeats;
    tests/test_model_selection.py checks it equals ``split``. Other splitters,
    or K > m (``split`` raises), return None.
    """
    from sklearn.model_selection import RepeatedKFold  # noqa: PLC0415
    from sklearn.utils import check_random_state as sk_random_state  # noqa: PLC0415

    if type(cv) is KFold:
        n_splits, repeats, shuffle = cv.n_splits, 1, cv.shuffle
    elif (type(cv) is RepeatedKFold and cv.cv is KFold and set(cv.cvargs) == {"n_splits"}
          and isinstance(cv.n_repeats, (int, np.integer))):
        n_splits, repeats, shuffle = cv.cvargs["n_splits"], int(cv.n_repeats), True
    else:
        return None
    if not isinstance(n_splits, (int, np.integer)) or not 2 <= n_splits <= n_samples:
        return None
    rng = sk_random_state(cv.random_state) if shuffle else None
    sizes = np.full(n_splits, n_samples // n_splits, dtype=int)
    sizes[: n_samples % n_splits] += 1
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    tests = np.zeros((repeats * n_splits, n_samples), dtype=bool)
    for r in range(repeats):
        indices = np.arange(n_samples)
        if shuffle:
            rng.shuffle(indices)
        for k in range(n_splits):
            tests[r * n_splits + k, indices[bounds[k]:bounds[k + 1]]] = True
    return tests


def _split_errors(X, y, tests, trains=None):
    """Least squares fitted on each split's training rows (weighted by their count), test MSE."""
    trains = ~tests if trains is None else np.sqrt(trains)  # sqrt(count): a repeated row
    Q, R = np.linalg.qr(trains[:, :, None] * X[None])
    diagonal = np.abs(np.diagonal(R, axis1=1, axis2=2))
    if X.shape[1] and not (diagonal > 1e-12 * max(diagonal.max(), 1e-300)).all():
        split = int(np.flatnonzero(~(diagonal > 1e-12 * diagonal.max()).all(axis=1))[0])
        raise ValueError(f"X restricted to the training rows of split {split} does not have full "
                         f"column rank ({X.shape[1]} columns): least squares has no unique fit; "
                         "use fewer columns or more training rows.")
    with user_errors("X", "least squares needs a full-rank design"):
        coef = np.linalg.solve(R, np.einsum("smp,sm->sp", Q, trains * y)[..., None])[..., 0]
    squared = (y[None] - coef @ X.T) ** 2
    return np.sum(tests * squared, axis=1) / tests.sum(axis=1)


def degree_curves(x, y, degrees, *, n_splits=10, random_state=None):
    """Training MSE and K-fold CV MSE of polynomial least squares for each degree.

    Examples
    --------
    >>> x, y = sine_regression(40, random_state=1)
    >>> train, cv = degree_curves(x, y, range(6), random_state=0)
    >>> bool(np.all(np.diff(train) <= 1e-12)), bool(np.all(cv >= train))
    (True, True)
    """
    x = _check_array(x, "x", ndim=1)
    y = _check_array(y, "y", ndim=1, length=len(x), why="it holds one target per x")
    _check_magnitude(x, "x")
    _check_magnitude(y, "y")
    n_splits = check_int(n_splits, "n_splits", low=2, high=max(2, len(x)),
                         why="each fold needs a sample")
    if isinstance(degrees, (str, bytes)) or not np.iterable(degrees):
        raise TypeError(f"degrees must be a sequence of integers, got degrees={degrees!r}.")
    degrees = [check_int(d, "degrees", low=0) for d in degrees]
    random_state = check_random_state(random_state)
    if random_state is not None and not isinstance(random_state, int):
        random_state = as_random_state(random_state)  # KFold takes an int or a RandomState
    folds = KFold(n_splits, shuffle=True, random_state=random_state)
    train, cv = [], []
    tests = _test_masks(folds, x)
    # Column k of legvander does not depend on the degree asked for: slicing one design
    # of the top degree gives each degree's, bit for bit (see degree_selection_study).
    top = legendre_design(x, max(degrees, default=0))
    for degree in degrees:
        X = top[:, :degree + 1]
        with user_errors("x", "the degree is too high for these x"):
            coef = np.linalg.lstsq(X, y, rcond=None)[0]
        train.append(np.mean((y - X @ coef) ** 2))
        try:
            cv.append(np.mean(_split_errors(X, y, tests)))
        except ValueError as error:  # too few distinct x in a training fold for this degree
            raise ValueError(f"degrees holds {degree}, too high for these x with "
                             f"n_splits={n_splits}: {error}") from None
    return np.array(train), np.array(cv)


# -- how good is each estimate: the simulation ------------------------------
# (label, scheme, n_splits, n_repeats): the estimators compared in the chapter.
STUDY_SCHEMES = [
    ("hold-out", "hold-out", 1, 1), ("RLT 10", "RLT", 10, 1), ("2-fold", "K-fold", 2, 1),
    ("5-fold", "K-fold", 5, 1), ("10-fold", "K-fold", 10, 1),
    ("10x10-fold", "repeated K-fold", 10, 10), ("LOO", "LOO", 2, 1),
    ("5x2", "5x2", 2, 1), ("blocked 3x2", "blocked 3x2", 2, 1),
]


def _one_repetition(seed, n_samples, degree, noise, truth):
    """Every scheme's estimate and the true error of the fit on all m samples."""
    rng = np.random.default_rng(seed)
    x, y = sine_regression(n_samples, noise=noise, random_state=rng)
    X = legendre_design(x, degree)
    coef = np.linalg.lstsq(X, y, rcond=None)[0]
    features, target = truth
    gap = target - features @ coef
    true_error = noise ** 2 + np.mean(gap ** 2)
    estimates = []
    for _, scheme, n_splits, n_repeats in STUDY_SCHEMES:
        if scheme == "LOO":
            if degree == 0:  # intercept only: the leave-one-out residual is (y - mean) m/(m-1)
                m = len(y)
                estimates.append(float(np.mean((y - y.mean()) ** 2)) * (m / (m - 1)) ** 2)
            else:
                estimates.append(loo_mse_linear(X[:, 1:], y))
            continue
        cv = make_splitter(scheme, n_splits=n_splits, n_repeats=n_repeats,
                           random_state=int(rng.integers(2 ** 31)))
        estimates.append(np.mean(_split_errors(X, y, _test_masks(cv, X))))
    return true_error, estimates


def _chunk(task, degree, noise, truth):
    n_samples, _, seeds = task
    return [_one_repetition(s, n_samples, degree, noise, truth) for s in seeds]


def cv_estimator_study(sizes=(40, 80, 160), n_repeats=200, *, degree=3, noise=0.5,
                       n_true=20_000, n_jobs=None, random_state=None):
    """Simulate every scheme of :data:`STUDY_SCHEMES` on data with a known distribution.

    For each sample size m and each of ``n_repeats`` repetitions: draw m
    samples of :func:`sine_regression`, fit a polynomial of ``degree`` by
    least squares, compute its true error (noise variance plus the squared
    gap to sin(pi x) averaged over ``n_true`` independent x), and each
    scheme's cross-validation estimate of it. Repetitions run in parallel
    with joblib (``n_jobs``); each has its own seed, so the result does not
    depend on ``n_jobs``.

    Returns
    -------
    dict of ndarray
        Long format: ``n_samples``, ``repeat``, ``scheme``, ``estimate``,
        ``true_error``, one entry per (m, repetition, scheme).

    Examples
    --------
    >>> out = cv_estimator_study(sizes=[30], n_repeats=4, n_true=1000, random_state=0)
    >>> len(out["estimate"]), [str(s) for s in out["scheme"][:3]]
    (36, ['hold-out', 'RLT 10', '2-fold'])
    """
    if isinstance(sizes, (str, bytes)) or not np.iterable(sizes) or len(list(sizes)) == 0:
        raise TypeError(f"sizes must be a non-empty sequence of sample sizes, got sizes={sizes!r}.")
    sizes = [check_int(m, "sizes", low=20, why="each sample size must allow 10 folds of "
                       "a cubic fit") for m in sizes]
    reps = check_int(n_repeats, "n_repeats", low=1)
    degree = check_int(degree, "degree", low=0, high=8)
    noise = check_real(noise, "noise", low=0, high=1e100,
                       why="it is the standard deviation of the noise")
    random_state = check_random_state(random_state)
    if random_state is not None and not isinstance(random_state, int):
        random_state = int(as_generator(random_state).integers(2 ** 63))
    seeds = np.random.SeedSequence(random_state).spawn(len(sizes) * reps + 1)
    x_true = np.random.default_rng(seeds[-1]).uniform(-1, 1, check_int(n_true, "n_true", low=100))
    per_chunk = max(1, reps // 8)
    tasks = [(m, start, seeds[i * reps + start: i * reps + min(reps, start + per_chunk)])
             for i, m in enumerate(sizes) for start in range(0, reps, per_chunk)]
    truth = (legendre_design(x_true, degree), sine_target(x_true))
    chunks = parallel_map(partial(_chunk, degree=degree, noise=noise, truth=truth),
                          tasks, n_jobs=n_jobs, desc="repetitions")
    rows = [(m, start + i, label, est, true)
            for (m, start, _), results in zip(tasks, chunks)
            for i, (true, ests) in enumerate(results)
            for (label, *_), est in zip(STUDY_SCHEMES, ests)]
    m, rep, label, est, true = zip(*rows)
    return {"n_samples": np.array(m), "repeat": np.array(rep), "scheme": np.array(label),
            "estimate": np.array(est), "true_error": np.array(true)}


def summarize_cv_study(results):
    """Bias, standard deviation and RMSE of each scheme's estimate at each m, with MC errors.

    ``bias`` is the mean of estimate minus true error and ``bias_se`` its
    Monte Carlo standard error (standard deviation of the differences over the
    square root of the number of repetitions); ``median_bias`` is the median of
    the differences, a summary that heavy tails do not move. ``std`` is the
    standard deviation of the estimate over repetitions and ``std_se`` its
    delta-method standard error ``sqrt((m4 - s^4) / (4 n s^2))``, with ``m4``
    the fourth central moment (itself noisy when the tails are heavy); ``iqr``
    is the interquartile range of the estimate. ``rmse`` is the root mean
    squared difference to the true error of the fit on all m samples.

    Examples
    --------
    >>> out = cv_estimator_study(sizes=[30], n_repeats=4, n_true=1000, random_state=0)
    >>> summary = summarize_cv_study(out)
    >>> sorted(summary)[:4], len(summary["bias"])
    (['bias', 'bias_se', 'iqr', 'mean_estimate'], 9)
    """
    needed = ["n_samples", "scheme", "estimate", "true_error"]
    if not isinstance(results, dict) or any(key not in results for key in needed):
        raise ValueError(f"results must be the dict cv_estimator_study returns, with keys "
                         f"{needed}, got {type(results).__name__} with keys "
                         f"{sorted(results) if isinstance(results, dict) else None}.")
    for key in ("estimate", "true_error"):
        _check_array(results[key], f"results[{key!r}]", ndim=1)
    keys = ["n_samples", "scheme", "mean_estimate", "mean_true_error", "bias", "bias_se",
            "median_bias", "std", "std_se", "iqr", "rmse"]
    table = {key: [] for key in keys}
    labels = [label for label, *_ in STUDY_SCHEMES]
    for m in np.unique(results["n_samples"]):
        for label in labels:
            pick = (results["n_samples"] == m) & (results["scheme"] == label)
            est, true = results["estimate"][pick], results["true_error"][pick]
            n, dev = est.size, est - true
            std = est.std(ddof=1) if n > 1 else np.nan
            m4 = np.mean((est - est.mean()) ** 4)
            std_se = (np.sqrt(max(m4 - std ** 4, 0.0) / (4 * n)) / std
                      if n > 1 and std > 0 else np.nan)
            q1, q3 = np.quantile(est, [0.25, 0.75])
            for key, value in zip(keys, [m, label, est.mean(), true.mean(), np.mean(dev),
                                         dev.std(ddof=1) / np.sqrt(n) if n > 1 else np.nan,
                                         np.median(dev), std, std_se, q3 - q1,
                                         np.sqrt(np.mean(dev ** 2))]):
                table[key].append(value)
    return {key: np.array(values) for key, values in table.items()}


# -- blocked against random r x 2 at equal r --------------------------------
def mx2_variance_study(n_samples=60, n_datasets=100, n_draws=40, *, n_repeats=3, degree=3,
                       noise=0.5, random_state=None):
    """Split-induced variance of random and blocked ``n_repeats`` x 2 CV on the same data sets.

    For each of ``n_datasets`` training sets of :func:`sine_regression`, the
    least-squares polynomial of ``degree`` is cross-validated ``n_draws``
    times with random r x 2 CV (``RepeatedKFold(2, r)``, independent halves)
    and ``n_draws`` times with :class:`BlockedMxTwoCV` ``(r)``, each draw with
    a fresh shuffle. The variance over draws, given the data set, is the part
    of the estimate's variance that comes from where the splits fall, the part
    the orthogonal array is meant to reduce.

    Returns
    -------
    dict of ndarray of shape (n_datasets,)
        ``random_var`` and ``blocked_var``: variance over draws (ddof=1);
        ``random_mean`` and ``blocked_mean``: mean over draws.

    Examples
    --------
    >>> out = mx2_variance_study(40, n_datasets=3, n_draws=5, random_state=0)
    >>> sorted(out), out["blocked_var"].shape
    (['blocked_mean', 'blocked_var', 'random_mean', 'random_var'], (3,))
    """
    from sklearn.model_selection import RepeatedKFold  # noqa: PLC0415 (local: keeps imports short)

    from ._splitters import BlockedMxTwoCV  # noqa: PLC0415

    m = check_int(n_samples, "n_samples", low=8, why="each half needs a cubic fit")
    n_sets = check_int(n_datasets, "n_datasets", low=1)
    draws = check_int(n_draws, "n_draws", low=2, why="a variance over draws needs two")
    r = check_int(n_repeats, "n_repeats", low=1, high=100)
    degree = check_int(degree, "degree", low=0, high=min(8, m // 2 - 2),
                       why="a half of the data must determine the fit")
    noise = check_real(noise, "noise", low=0, high=1e100,
                       why="it is the standard deviation of the noise")
    rng = as_generator(check_random_state(random_state))
    out = {key: np.empty(n_sets) for key in
           ("random_mean", "random_var", "blocked_mean", "blocked_var")}
    for i in range(n_sets):
        x, y = sine_regression(m, noise=noise, random_state=rng)
        X = legendre_design(x, degree)
        for kind in ("random", "blocked"):
            seeds = rng.integers(2 ** 31, size=draws)
            splitters = [RepeatedKFold(n_splits=2, n_repeats=r, random_state=int(s))
                         if kind == "random" else BlockedMxTwoCV(r, random_state=int(s))
                         for s in seeds]
            tests = np.concatenate([_test_masks(cv, X) for cv in splitters])
            estimates = _split_errors(X, y, tests).reshape(draws, 2 * r).mean(axis=1)
            out[f"{kind}_mean"][i] = estimates.mean()
            out[f"{kind}_var"][i] = estimates.var(ddof=1)
    return out


# -- choosing the degree: identification, not estimation --------------------
SELECTION_SCHEMES = ["hold-out", "2-fold", "5-fold", "10-fold", "LOO"]


def degree_selection_study(sizes=(40, 160), n_datasets=100, *, true_degree=3, max_degree=8,
                           noise=0.5, n_true=20_000, random_state=None):
    """How often each CV scheme picks the true degree of a polynomial, and its regret.

    The data are x uniform on [-1, 1] and y = P_1(x) + P_d(x) + N(0, noise^2)
    with P_k the Legendre polynomials and d = ``true_degree``; the candidates
    are the least-squares polynomials of degree 0 to ``max_degree``. For each
    training set and each scheme of :data:`SELECTION_SCHEMES` (hold-out 70/30,
    2-, 5- and 10-fold, leave-one-out in closed form), the degree with the
    smallest CV error is chosen; its regret is its true error (squared distance
    to the regression function, over ``n_true`` fresh x) minus the smallest
    true error among the candidates fitted to the same data.

    Returns
    -------
    dict of ndarray
        Long format: ``n_samples``, ``scheme``, ``chosen`` (degree) and
        ``regret``, one entry per (m, training set, scheme).

    Examples
    --------
    >>> out = degree_selection_study(sizes=[40], n_datasets=2, random_state=0)
    >>> len(out["chosen"]), sorted(set(out["scheme"].tolist()))[:2]
    (10, ['10-fold', '2-fold'])
    """
    from sklearn.model_selection import ShuffleSplit  # noqa: PLC0415

    if isinstance(sizes, (str, bytes)) or not np.iterable(sizes) or len(list(sizes)) == 0:
        raise TypeError(f"sizes must be a non-empty sequence of sample sizes, got sizes={sizes!r}.")
    top = check_int(max_degree, "max_degree", low=1, high=12)
    sizes = [check_int(m, "sizes", low=2 * (top + 1) + 10,
                       why="each half must determine the largest candidate") for m in sizes]
    n_sets = check_int(n_datasets, "n_datasets", low=1)
    d_true = check_int(true_degree, "true_degree", low=1, high=top)
    noise = check_real(noise, "noise", low=0, high=1e100,
                       why="it is the standard deviation of the noise")
    rng = as_generator(check_random_state(random_state))
    coef_true = np.zeros(d_true + 1)
    coef_true[[1, d_true]] = 1.0
    x_true = rng.uniform(-1, 1, check_int(n_true, "n_true", low=100))
    truth = legendre_design(x_true, d_true) @ coef_true
    candidates = range(top + 1)
    # legvander's column k does not depend on the degree asked for, and the first d + 1
    # columns of its (column-major) result are laid out as legendre_design(., d) is:
    # one design of the top degree, sliced, gives every candidate's, bit for bit.
    true_top = legendre_design(x_true, top)
    true_designs = [true_top[:, :d + 1] for d in candidates]
    rows = []
    for m in sizes:
        for _ in range(n_sets):
            x = rng.uniform(-1, 1, m)
            y = legendre_design(x, d_true) @ coef_true + noise * rng.standard_normal(m)
            top_design = legendre_design(x, top)
            designs = [top_design[:, :d + 1] for d in candidates]
            true_err = np.array([np.mean((truth - T @ np.linalg.lstsq(F, y, rcond=None)[0]) ** 2)
                                 for T, F in zip(true_designs, designs)])
            seed = int(rng.integers(2 ** 31))
            splitters = {"hold-out": ShuffleSplit(1, test_size=0.3, random_state=seed),
                         "2-fold": KFold(2, shuffle=True, random_state=seed),
                         "5-fold": KFold(5, shuffle=True, random_state=seed),
                         "10-fold": KFold(10, shuffle=True, random_state=seed)}
            for name in SELECTION_SCHEMES:
                if name == "LOO":
                    scores = [np.mean((y - y.mean()) ** 2) * (m / (m - 1)) ** 2] + \
                             [loo_mse_linear(F[:, 1:], y) for F in designs[1:]]
                else:
                    tests = _test_masks(splitters[name], designs[0])
                    scores = [np.mean(_split_errors(F, y, tests)) for F in designs]
                best = int(np.argmin(scores))
                rows.append((m, name, best, true_err[best] - true_err.min()))
    m, name, best, regret = zip(*rows)
    return {"n_samples": np.array(m), "scheme": np.array(name), "chosen": np.array(best),
            "regret": np.array(regret)}
