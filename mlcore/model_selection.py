"""Cross-validation: the splitters, the closed-form leave-one-out, and how good each estimate is.

Chapter 4 of the book. Most schemes are scikit-learn splitters, named by
:func:`make_splitter`; this module adds what scikit-learn lacks:

* :class:`BlockedMxTwoCV`, blocked r x 2 cross-validation: r two-fold splits
  built from a two-level orthogonal array over :math:`2^q` blocks,
  :math:`q = \\lceil \\log_2(r + 1) \\rceil`, so that any two halves from
  different replications share a quarter of the samples;
* :func:`loo_residuals_linear` / :func:`loo_mse_linear`, leave-one-out for
  least squares from one fit, :math:`e_i / (1 - h_{ii})`;
* :func:`cv_split_errors`, the least-squares test error of every split of a
  splitter at once (batched QR), and :func:`cv_estimator_study`, the
  simulation that measures the bias and variance of each scheme;
* two interactive figures, :class:`FoldAssignmentFigure` and
  :class:`DegreeSelectionFigure`.
"""

from __future__ import annotations

import math
import warnings
from functools import lru_cache, partial
from itertools import combinations

import numpy as np
from sklearn.model_selection import (KFold, LeaveOneOut, RepeatedKFold, ShuffleSplit,
                                     StratifiedKFold, StratifiedShuffleSplit)
from sklearn.model_selection._split import BaseCrossValidator
from sklearn.utils import check_random_state
from sklearn.utils.validation import _num_samples, check_array, column_or_1d

from ._parallel import parallel_map
from ._validation import check_int, check_option, check_real
from .widgets import InteractiveFigure

__all__ = [
    "BlockedMxTwoCV",
    "two_level_design",
    "loo_residuals_linear",
    "loo_mse_linear",
    "SCHEMES",
    "make_splitter",
    "fold_assignment",
    "sine_target",
    "sine_regression",
    "legendre_design",
    "cv_split_errors",
    "degree_curves",
    "STUDY_SCHEMES",
    "cv_estimator_study",
    "summarize_cv_study",
    "FoldAssignmentFigure",
    "DegreeSelectionFigure",
    # chapter 5's choice of K, defined in mlcore.divergence (imported at the end)
    "kfold_kl_curve",
    "regularized_kl_criterion",
    "select_n_folds",
]


# -- blocked r x 2 cross-validation -----------------------------------------
def two_level_design(n_repeats):
    """The two-level orthogonal array behind blocked ``n_repeats`` x 2 CV.

    Rows are the :math:`2^q` blocks, :math:`q = \\lceil \\log_2(r+1) \\rceil`;
    column ``j`` says in which half (0 or 1) each block lies in replication
    ``j``. Block ``b`` is the bit vector of ``b`` and column ``j`` the parity
    of ``b & (j + 1)``: a distinct non-zero linear form over GF(2), so any two
    columns show each pair of levels on exactly a quarter of the rows.

    Parameters
    ----------
    n_repeats : int
        Number r of two-fold replications, r >= 1.

    Returns
    -------
    ndarray of shape (2**q, n_repeats), values 0 and 1

    Examples
    --------
    >>> two_level_design(3)
    array([[0, 0, 0],
           [1, 0, 1],
           [0, 1, 1],
           [1, 1, 0]])
    """
    r = check_int(n_repeats, "n_repeats", low=1, why="it is the number of two-fold replications")
    q = max(1, math.ceil(math.log2(r + 1)))
    blocks = np.arange(2 ** q)[:, None]
    forms = np.arange(1, r + 1)[None, :]
    bits = np.bitwise_and(blocks, forms)
    return np.array([[bin(v).count("1") % 2 for v in row] for row in bits])


@lru_cache(maxsize=None)
def _extra_blocks(n_repeats, n_extra):
    """The blocks that get one extra sample when 2^q does not divide m.

    Chosen so that every column's two halves, then every pair of columns'
    four cells, stay as balanced as possible (signed sums near zero, large gaps
    penalized most):
    by exhaustive search up to 16 blocks, greedily beyond.
    """
    design = two_level_design(n_repeats)
    signs = 2.0 * design - 1.0
    j, k = np.triu_indices(design.shape[1], 1)
    weights = np.r_[np.full(design.shape[1], 1e3), np.ones(len(j))]
    features = np.column_stack([signs, signs[:, j] * signs[:, k]])
    if len(design) <= 16:
        subsets = np.array(list(combinations(range(len(design)), n_extra)), dtype=int)
        totals = features[subsets].sum(axis=1) if n_extra else np.zeros((1, features.shape[1]))
        return tuple(subsets[int(np.argmin((totals ** 4) @ weights))]) if n_extra else ()
    chosen, total = [], np.zeros(features.shape[1])
    for _ in range(n_extra):
        costs = [np.inf if b in chosen else ((total + features[b]) ** 4) @ weights
                 for b in range(len(design))]
        chosen.append(int(np.argmin(costs)))
        total += features[chosen[-1]]
    return tuple(chosen)


class BlockedMxTwoCV(BaseCrossValidator):
    """Blocked r x 2 cross-validation: r two-fold splits from an orthogonal array.

    The samples are cut into :math:`2^q` blocks whose sizes differ by at most
    one, :math:`q = \\lceil \\log_2(r + 1) \\rceil`; replication ``j`` puts
    each block in one half according to column ``j`` of
    :func:`two_level_design` and yields two splits (each half tested once).
    Any two halves of different replications share exactly m/4 samples when
    :math:`2^q` divides m (for the blocked 3 x 2 CV: when 4 divides m), and
    less than :math:`2^{q-2}` samples away from it otherwise (less than one
    sample for r <= 3). 5 x 2 CV, with independent random halves, shares
    m/4 only on average.

    Parameters
    ----------
    n_repeats : int, default=3
        Number r of two-fold replications; the splitter yields 2r splits.
    shuffle : bool, default=True
        Shuffle the samples before cutting them into blocks.
    stratify : bool, default=False
        Deal each class evenly over the blocks (needs ``y`` in ``split``), so
        every half keeps the class proportions.
    random_state : int, RandomState instance or None, default=None
        Seed of the shuffle; only allowed with ``shuffle=True``.

    Examples
    --------
    >>> import numpy as np
    >>> cv = BlockedMxTwoCV(n_repeats=3, random_state=0)
    >>> halves = [set(test) for _, test in cv.split(np.zeros((12, 1)))]
    >>> cv.get_n_splits(), len(halves[0]), len(halves[0] & halves[2])
    (6, 6, 3)
    """

    def __init__(self, n_repeats=3, *, shuffle=True, stratify=False, random_state=None):
        self.n_repeats = n_repeats
        self.shuffle = shuffle
        self.stratify = stratify
        self.random_state = random_state
        check_int(n_repeats, "n_repeats", low=1, why="it is the number of two-fold replications")
        if not shuffle and random_state is not None:
            raise ValueError(f"random_state={random_state!r} has no effect when shuffle=False; "
                             "leave it at None or set shuffle=True.")

    def get_n_splits(self, X=None, y=None, groups=None):
        """Number of splits, ``2 * n_repeats``."""
        return 2 * self.n_repeats

    def block_labels(self, X, y=None):
        """The block (row of the design) of each sample, for one call's shuffle."""
        n = _num_samples(X)
        design = two_level_design(self.n_repeats)
        n_blocks = len(design)
        if n < 4:
            raise ValueError(f"BlockedMxTwoCV needs at least 4 samples, got n_samples={n}.")
        if n < n_blocks:
            raise ValueError(f"n_repeats={self.n_repeats} needs {n_blocks} blocks, so at least "
                             f"{n_blocks} samples, got n_samples={n}; use fewer repeats.")
        rng = check_random_state(self.random_state)
        order = rng.permutation(n) if self.shuffle else np.arange(n)
        extra = list(_extra_blocks(self.n_repeats, n % n_blocks))
        blocks = np.r_[extra, np.setdiff1d(np.arange(n_blocks), extra)].astype(int)
        labels = np.empty(n, dtype=int)
        if self.stratify:
            if y is None:
                raise ValueError("y is required when stratify=True: the classes are dealt "
                                 "evenly over the blocks.")
            _, classes = np.unique(column_or_1d(y), return_inverse=True)
            if np.bincount(classes).min() < n_blocks:
                warnings.warn(f"The smallest class has fewer members than the {n_blocks} "
                              "blocks; some blocks will miss it.", UserWarning, stacklevel=2)
            order = order[np.argsort(classes[order], kind="stable")]
            labels[order] = blocks[np.arange(n) % n_blocks]
        else:
            sizes = np.full(n_blocks, n // n_blocks)
            sizes[blocks[: n % n_blocks]] += 1
            labels[order] = np.repeat(np.arange(n_blocks), sizes)
        return labels

    def _iter_test_masks(self, X=None, y=None, groups=None):
        labels = self.block_labels(X, y)
        for column in two_level_design(self.n_repeats).T:
            half = column[labels]
            yield half == 0
            yield half == 1


# -- leave-one-out for least squares in one fit -----------------------------
def loo_residuals_linear(X, y):
    """Leave-one-out residuals of least squares with an intercept, from one fit.

    Removing sample i changes the prediction at x_i so that
    :math:`y_i - \\hat y_{(i)} = e_i / (1 - h_{ii})`, where e is the ordinary
    residual and :math:`h_{ii}` the leverage (diagonal of the hat matrix).
    Both come from an SVD of the design with unit-norm columns, which keeps
    ill-conditioned designs (raw polynomial powers) accurate.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Features; a column of ones is added.
    y : array-like of shape (n_samples,)
        Targets.

    Returns
    -------
    ndarray of shape (n_samples,)

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [4.0]])
    >>> np.round(loo_residuals_linear(X, np.array([0.1, 0.9, 2.2, 3.9])), 4)
    array([ 0.05  , -0.2167,  0.2462, -0.3167])
    """
    X = check_array(X, ensure_min_samples=2)
    y = column_or_1d(y).astype(float)
    if len(y) != len(X):
        raise ValueError(f"X and y must have as many rows, got {len(X)} and {len(y)}.")
    design = np.column_stack([np.ones(len(X)), X])
    norms = np.linalg.norm(design, axis=0)
    U, s, _ = np.linalg.svd(design / np.where(norms > 0, norms, 1.0), full_matrices=False)
    U = U[:, s > s[0] * max(design.shape) * np.finfo(float).eps]
    leverage = np.einsum("ij,ij->i", U, U)
    residuals = y - U @ (U.T @ y)
    stuck = np.flatnonzero(1.0 - leverage < 1e-10)
    if stuck.size:
        raise ValueError(f"sample {stuck[0]} has leverage 1: without it the fit cannot "
                         "predict it, so leave-one-out is undefined (too few samples for "
                         f"{design.shape[1]} coefficients, or a feature nonzero on it alone).")
    return residuals / (1.0 - leverage)


def loo_mse_linear(X, y):
    """Leave-one-out mean squared error of least squares with an intercept, from one fit.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [4.0]])
    >>> round(loo_mse_linear(X, np.array([0.1, 0.9, 2.2, 3.9])), 4)
    0.0526
    """
    return float(np.mean(loo_residuals_linear(X, y) ** 2))


# -- the schemes by name ----------------------------------------------------
SCHEMES = {
    "hold-out": "ShuffleSplit(n_splits=1, test_size=0.3)",
    "stratified hold-out": "StratifiedShuffleSplit(n_splits=1, test_size=0.3)",
    "RLT": "ShuffleSplit(n_splits=K, test_size=0.3)",
    "K-fold": "KFold(n_splits=K)",
    "stratified K-fold": "StratifiedKFold(n_splits=K)",
    "repeated K-fold": "RepeatedKFold(n_splits=K, n_repeats=r)",
    "LOO": "LeaveOneOut()",
    "5x2": "RepeatedKFold(n_splits=2, n_repeats=5)",
    "blocked 3x2": "BlockedMxTwoCV(n_repeats=3)",
    "blocked rx2": "BlockedMxTwoCV(n_repeats=r)",
}


def make_splitter(scheme, *, n_splits=10, n_repeats=10, test_size=0.3, shuffle=True,
                  random_state=None):
    """The splitter of a scheme named in :data:`SCHEMES`.

    ``n_splits`` is K for the K-fold schemes and the number of random splits
    for RLT; ``n_repeats`` is r for repeated K-fold and blocked r x 2;
    ``shuffle`` applies to the K-fold and blocked schemes.

    Examples
    --------
    >>> make_splitter("5x2", random_state=0)
    RepeatedKFold(n_repeats=5, n_splits=2, random_state=0)
    >>> make_splitter("3-fold")
    Traceback (most recent call last):
    ...
    ValueError: scheme must be one of 'hold-out', 'stratified hold-out', 'RLT', 'K-fold', \
'stratified K-fold', 'repeated K-fold', 'LOO', '5x2', 'blocked 3x2', 'blocked rx2', got scheme='3-fold'.
    """
    check_option(scheme, "scheme", SCHEMES)
    K = check_int(n_splits, "n_splits", low=2 if "K-fold" in scheme else 1)
    r = check_int(n_repeats, "n_repeats", low=1)
    check_real(test_size, "test_size", low=0, high=1, low_open=True, high_open=True)
    seed = random_state if shuffle else None
    return {
        "hold-out": lambda: ShuffleSplit(1, test_size=test_size, random_state=random_state),
        "stratified hold-out": lambda: StratifiedShuffleSplit(1, test_size=test_size,
                                                              random_state=random_state),
        "RLT": lambda: ShuffleSplit(K, test_size=test_size, random_state=random_state),
        "K-fold": lambda: KFold(K, shuffle=shuffle, random_state=seed),
        "stratified K-fold": lambda: StratifiedKFold(K, shuffle=shuffle, random_state=seed),
        "repeated K-fold": lambda: RepeatedKFold(n_splits=K, n_repeats=r,
                                                 random_state=random_state),
        "LOO": LeaveOneOut,
        "5x2": lambda: RepeatedKFold(n_splits=2, n_repeats=5, random_state=random_state),
        "blocked 3x2": lambda: BlockedMxTwoCV(3, shuffle=shuffle, random_state=seed),
        "blocked rx2": lambda: BlockedMxTwoCV(r, shuffle=shuffle, random_state=seed),
    }[scheme]()


def fold_assignment(cv, n_samples, y=None):
    """Which samples each split trains on (0) and tests on (1); -1 marks unused ones.

    Examples
    --------
    >>> from sklearn.model_selection import KFold
    >>> fold_assignment(KFold(3), 6)
    array([[1, 1, 0, 0, 0, 0],
           [0, 0, 1, 1, 0, 0],
           [0, 0, 0, 0, 1, 1]])
    """
    n = check_int(n_samples, "n_samples", low=1)
    rows = []
    for train, test in cv.split(np.zeros((n, 1)), y):
        row = np.full(n, -1)
        row[train], row[test] = 0, 1
        rows.append(row)
    return np.array(rows)


# -- polynomial regression data and its cross-validation --------------------
def sine_target(x):
    """The regression function of the chapter's examples, sin(pi x) on [-1, 1]."""
    return np.sin(np.pi * np.asarray(x, dtype=float))


def sine_regression(n_samples, *, noise=0.3, random_state=None):
    """x uniform on [-1, 1], y = sin(pi x) + N(0, noise^2) noise.

    Examples
    --------
    >>> x, y = sine_regression(5, random_state=0)
    >>> x.shape, bool(np.all(np.abs(x) <= 1))
    ((5,), True)
    """
    n = check_int(n_samples, "n_samples", low=1)
    noise = check_real(noise, "noise", low=0, why="it is the standard deviation of the noise")
    rng = np.random.default_rng(random_state)
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
    return np.polynomial.legendre.legvander(np.asarray(x, dtype=float), degree)


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
    X = check_array(X)
    y = column_or_1d(y).astype(float)
    return _split_errors(X, y, _test_masks(cv, X, y))


def _test_masks(cv, X, y=None):
    """Boolean (n_splits, n_samples) array, True on each split's test samples."""
    splits = list(cv.split(X, y))
    tests = np.zeros((len(splits), len(X)), dtype=bool)
    for row, (_, test) in zip(tests, splits):
        row[test] = True
    return tests


def _split_errors(X, y, tests):
    trains = ~tests
    Q, R = np.linalg.qr(trains[:, :, None] * X[None])
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
    folds = KFold(check_int(n_splits, "n_splits", low=2), shuffle=True, random_state=random_state)
    train, cv = [], []
    tests = _test_masks(folds, np.asarray(x))
    for degree in degrees:
        X = legendre_design(x, degree)
        coef = np.linalg.lstsq(X, y, rcond=None)[0]
        train.append(np.mean((y - X @ coef) ** 2))
        cv.append(np.mean(_split_errors(X, y, tests)))
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
    sizes = [check_int(m, "sizes", low=20, why="each sample size must allow 10 folds of "
                       "a cubic fit") for m in sizes]
    reps = check_int(n_repeats, "n_repeats", low=1)
    check_int(degree, "degree", low=0, high=8)
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
    """Bias, standard deviation and RMSE of each scheme's estimate at each m.

    ``bias`` is the mean of estimate minus true error, ``std`` the standard
    deviation of the estimate over repetitions, ``rmse`` the root mean squared
    difference to the true error of the fit on all m samples.

    Examples
    --------
    >>> out = cv_estimator_study(sizes=[30], n_repeats=4, n_true=1000, random_state=0)
    >>> summary = summarize_cv_study(out)
    >>> sorted(summary)[:3], len(summary["bias"])
    (['bias', 'mean_estimate', 'mean_true_error'], 9)
    """
    keys = ["n_samples", "scheme", "mean_estimate", "mean_true_error", "bias", "std", "rmse"]
    table = {key: [] for key in keys}
    labels = [label for label, *_ in STUDY_SCHEMES]
    for m in np.unique(results["n_samples"]):
        for label in labels:
            pick = (results["n_samples"] == m) & (results["scheme"] == label)
            est, true = results["estimate"][pick], results["true_error"][pick]
            for key, value in zip(keys, [m, label, est.mean(), true.mean(), np.mean(est - true),
                                         est.std(ddof=1) if est.size > 1 else np.nan,
                                         np.sqrt(np.mean((est - true) ** 2))]):
                table[key].append(value)
    return {key: np.array(values) for key, values in table.items()}


# -- interactive figures ----------------------------------------------------
_FIGURE_SCHEMES = ["K-fold", "stratified K-fold", "repeated K-fold", "hold-out",
                   "stratified hold-out", "RLT", "LOO", "5x2", "blocked 3x2", "blocked rx2"]


class FoldAssignmentFigure(InteractiveFigure):
    """Rows are splits, columns samples: which samples each split trains and tests on.

    The strip on top shows the class of each sample (a third are positive,
    sorted first), so the stratified schemes can be told apart.
    """

    benchmark = ("n_samples", [8, 12, 16, 20, 24, 28, 32, 36, 40])
    figsize = (7.0, 4.2)

    def controls(self):
        import ipywidgets as w

        return {"scheme": w.Dropdown(options=_FIGURE_SCHEMES, value="K-fold", description="scheme"),
                "n_samples": w.IntSlider(value=20, min=6, max=40, description="m"),
                "n_splits": w.IntSlider(value=5, min=2, max=10, description="K (or r)"),
                "shuffle": w.Checkbox(value=False, description="shuffle")}

    def setup(self, fig):
        from matplotlib.colors import ListedColormap
        from matplotlib.patches import Patch
        from matplotlib.ticker import MaxNLocator

        # Fixed margins: constrained layout would re-measure every tick label on each redraw.
        fig.set_layout_engine("none")
        top, self.ax = fig.subplots(2, 1, gridspec_kw={"height_ratios": [1, 9], "hspace": 0.08,
                                                       "left": 0.09, "right": 0.82,
                                                       "bottom": 0.12, "top": 0.9}, sharex=True)
        self.classes = top.imshow(np.zeros((1, 2)), cmap="Greys", vmin=0, vmax=1.6,
                                  aspect="auto", interpolation="nearest")
        top.set(yticks=[], ylabel="class")
        colours = ListedColormap(["#e8e8e8", "#4c72b0", "#dd8452"])
        self.image = self.ax.imshow(np.zeros((1, 2)), cmap=colours, vmin=-1.5, vmax=1.5,
                                    aspect="auto", interpolation="nearest")
        self.ax.set(xlabel="sample index", ylabel="split")
        self.ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        self.ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        self.ax.legend(handles=[Patch(color="#4c72b0", label="train"),
                                Patch(color="#dd8452", label="test"),
                                Patch(color="#e8e8e8", label="unused")],
                       loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        self.title = top.set_title("")

    def update(self, scheme, n_samples, n_splits, shuffle):
        y = (np.arange(n_samples) < max(2, n_samples // 3)).astype(int)
        repeats = n_splits if scheme == "blocked rx2" else 3
        cv = make_splitter(scheme, n_splits=n_splits, n_repeats=repeats, shuffle=shuffle,
                           random_state=0)
        grid = fold_assignment(cv, n_samples, y)
        rows = len(grid)
        self.image.set_data(grid)
        self.image.set_extent((-0.5, n_samples - 0.5, rows - 0.5, -0.5))
        self.classes.set_data(y[None, :])
        self.classes.set_extent((-0.5, n_samples - 0.5, 0.5, -0.5))
        self.ax.set_ylim(rows - 0.5, -0.5)
        self.ax.set_xlim(-0.5, n_samples - 0.5)
        tested = np.unique(np.sum(grid == 1, axis=0))
        times = f"{tested[0]}" if len(tested) == 1 else f"{tested[0]} to {tested[-1]}"
        self.title.set_text(f"{scheme}: {rows} split{'s' * (rows > 1)} of m = {n_samples}; "
                            f"each sample is tested {times} time{'s' * bool(tested[-1] != 1)}")


class DegreeSelectionFigure(InteractiveFigure):
    """A polynomial fit of the chosen degree, and training vs 10-fold CV vs true error."""

    benchmark = ("degree", list(range(0, 13)))
    figsize = (8.0, 3.6)
    max_degree = 12

    def __init__(self, n_samples=30, noise=0.3, random_state=0, **kwargs):
        self.x, self.y = sine_regression(n_samples, noise=noise, random_state=random_state)
        self.noise = noise
        super().__init__(**kwargs)

    def controls(self):
        import ipywidgets as w

        return {"degree": w.IntSlider(value=3, min=0, max=self.max_degree, description="degree")}

    def setup(self, fig):
        from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

        fig.set_layout_engine("none")  # fixed margins: a redraw need not re-measure the ticks
        left, right = fig.subplots(1, 2, gridspec_kw={"left": 0.08, "right": 0.98, "bottom": 0.14,
                                                      "top": 0.9, "wspace": 0.28})
        grid = np.linspace(-1, 1, 200)
        self.grid = grid
        left.plot(self.x, self.y, "o", color="0.4", ms=4, label="data")
        left.plot(grid, sine_target(grid), "k--", lw=1, label="sin(pi x)")
        (self.fit,) = left.plot(grid, grid, color="C3", lw=2, label="fit")
        left.set(xlabel="x", ylabel="y", ylim=(-2, 2), yticks=[-2, -1, 0, 1, 2],
                 xticks=[-1, -0.5, 0, 0.5, 1])
        left.legend(loc="lower right", fontsize=8)
        degrees = np.arange(self.max_degree + 1)
        train, cv = degree_curves(self.x, self.y, degrees, random_state=0)
        x_true = np.linspace(-1, 1, 2001)
        true = [self.noise ** 2 + np.mean((sine_target(x_true) - legendre_design(x_true, d)
                                           @ np.linalg.lstsq(legendre_design(self.x, d),
                                                             self.y, rcond=None)[0]) ** 2)
                for d in degrees]
        right.semilogy(degrees, train, "o-", label="training error")
        right.semilogy(degrees, cv, "s-", label="10-fold CV error")
        right.semilogy(degrees, true, "k^--", label="true error")
        self.marker = right.axvline(3, color="C3", lw=2)
        right.set(xlabel="polynomial degree", ylabel="mean squared error (log scale)")
        # Plain-text tick labels: mathtext ones ("10^-1") cost most of a redraw.
        right.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
        right.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        right.yaxis.set_minor_locator(NullLocator())
        right.legend(fontsize=8)
        self.curves = (train, cv)
        self.title = left.set_title("")

    def update(self, degree):
        coef = np.linalg.lstsq(legendre_design(self.x, degree), self.y, rcond=None)[0]
        self.fit.set_ydata(legendre_design(self.grid, degree) @ coef)
        self.marker.set_xdata([degree, degree])
        train, cv = self.curves
        self.title.set_text(f"degree {degree}: training {train[degree]:.3f}, CV {cv[degree]:.3f}")


from .divergence import kfold_kl_curve, regularized_kl_criterion, select_n_folds  # noqa: E402,F401
