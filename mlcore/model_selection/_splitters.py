"""The splitters of chapter 4 and leave-one-out for least squares in one fit.

Holds :func:`two_level_design` and :class:`BlockedMxTwoCV` (blocked r x 2
cross-validation), :func:`loo_residuals_linear` and :func:`loo_mse_linear`,
and the schemes by name: :data:`SCHEMES`, :func:`make_splitter` and
:func:`fold_assignment`. Part of :mod:`mlcore.model_selection`.
"""

from __future__ import annotations

import math
import warnings
from functools import lru_cache
from itertools import combinations

import numpy as np
from sklearn.model_selection import (KFold, LeaveOneOut, RepeatedKFold, ShuffleSplit,
                                     StratifiedKFold, StratifiedShuffleSplit)
from sklearn.model_selection._split import BaseCrossValidator
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, column_or_1d

from .._validation import (as_random_state, check_bool, check_int, check_labels, check_option,
                           check_real, check_splitter, num_rows)
from .._validation import check_array as _check_numeric, check_random_state as _check_seed


# -- blocked r x 2 cross-validation -----------------------------------------
_MAX_REPEATS = 1000  # the design of r repeats has about 2 r^2 entries


def _is_prime(n):
    return n >= 2 and all(n % p for p in range(2, math.isqrt(n) + 1))


@lru_cache(maxsize=None)
def _hadamard(order):
    """A Hadamard matrix of ``order`` (entries +1/-1, H H^T = order I), or None.

    Built by Sylvester doubling from Paley's constructions with a prime q
    (order q + 1 for q = 3 mod 4, order 2(q + 1) for q = 1 mod 4); this covers
    every multiple of 4 up to 100 except 52, 92 and 100.
    """
    if order in (1, 2):
        return np.array([[1]]) if order == 1 else np.array([[1, 1], [1, -1]])
    if order % 4:
        return None
    residues = None
    for q, doubled in ((order - 1, False), (order // 2 - 1, True)):
        if _is_prime(q) and q % 4 == (1 if doubled else 3):
            residues = {(i * i) % q for i in range(1, q)}
            chi = np.array([0] + [1 if a in residues else -1 for a in range(1, q)])
            jacobsthal = chi[(np.arange(q)[None, :] - np.arange(q)[:, None]) % q]
            if not doubled:  # Paley I: I + S, S skew-symmetric with a +1 border
                S = np.block([[np.zeros((1, 1), int), np.ones((1, q), int)],
                              [-np.ones((q, 1), int), jacobsthal]])
                return np.eye(q + 1, dtype=int) + S
            C = np.block([[np.zeros((1, 1), int), np.ones((1, q), int)],  # Paley II
                          [np.ones((q, 1), int), jacobsthal]])
            return (np.kron(C, [[1, 1], [1, -1]]) + np.kron(np.eye(q + 1, dtype=int),
                                                           [[1, -1], [-1, -1]]))
    half = _hadamard(order // 2) if order % 8 == 0 else None
    return None if half is None else np.kron([[1, 1], [1, -1]], half)


def two_level_design(n_repeats, design="smallest"):
    """The two-level orthogonal array behind blocked ``n_repeats`` x 2 CV.

    Rows are blocks, column ``j`` says in which half (0 or 1) each block lies
    in replication ``j``; any two columns show each of the four pairs of
    levels on exactly a quarter of the rows (an orthogonal array of strength 2).

    ``design="regular"`` is the GF(2)-linear array with :math:`2^q` rows,
    :math:`q = \\lceil \\log_2(r+1) \\rceil`: block ``b`` is the bit vector of
    ``b`` and column ``j`` the parity of ``b & (j + 1)``, a distinct non-zero
    linear form. A two-level array of strength 2 needs N >= r + 1 rows with N
    a multiple of 4 (for r >= 3), and Hadamard matrices give such arrays with
    fewer rows than :math:`2^q` (Plackett-Burman designs: 12 rows for r = 8 to
    11, 20 for r = 16 to 19). ``design="smallest"`` (the default) uses the
    smallest N >= r + 1, a multiple of 4, for which a Hadamard matrix is built
    (by Paley's constructions and doubling), and the regular array when that
    N is :math:`2^q`, so for r <= 7 both designs are the same.

    Parameters
    ----------
    n_repeats : int
        Number r of two-fold replications, 1 <= r <= 1000 (the design has
        about r^2 entries).
    design : {"smallest", "regular"}, default="smallest"
        Which array to use, as above.

    Returns
    -------
    ndarray of shape (N, n_repeats), values 0 and 1

    Examples
    --------
    >>> two_level_design(3)
    array([[0, 0, 0],
           [1, 0, 1],
           [0, 1, 1],
           [1, 1, 0]])
    >>> two_level_design(11).shape, two_level_design(11, design="regular").shape
    ((12, 11), (16, 11))
    """
    r = check_int(n_repeats, "n_repeats", low=1, high=_MAX_REPEATS,
                  why="it is the number of two-fold replications")
    check_option(design, "design", ["smallest", "regular"])
    q = max(1, math.ceil(math.log2(r + 1)))
    if design == "smallest":
        for order in range(4 * math.ceil((r + 1) / 4), 2 ** q, 4):
            H = _hadamard(order)
            if H is not None:  # normalize the first column to +1, drop it
                H = H * H[:, :1]
                return ((1 - H[:, 1: r + 1]) // 2).astype(int)
    blocks = np.arange(2 ** q)[:, None]
    forms = np.arange(1, r + 1)[None, :]
    bits = np.bitwise_and(blocks, forms)
    parity = np.zeros_like(bits)
    for shift in range(q):  # parity of the set bits, vectorized over the whole table
        parity ^= (bits >> shift) & 1
    return parity


@lru_cache(maxsize=None)
def _extra_blocks(n_repeats, n_extra, design="smallest"):
    """The blocks that get one extra sample when the number of blocks does not divide m.

    Chosen so that every column's two halves, then every pair of columns'
    four cells, stay as balanced as possible (signed sums near zero, large gaps
    penalized most):
    by exhaustive search up to 16 blocks, greedily beyond.
    """
    design = two_level_design(n_repeats, design)
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

    The samples are cut into N blocks whose sizes differ by at most one, N the
    number of rows of :func:`two_level_design` ``(r, design)``: the smallest
    multiple of 4 at least r + 1 that the construction reaches (4 for r = 2, 3;
    8 for r = 4 to 7; 12 for r = 8 to 11), or :math:`2^q`,
    :math:`q = \\lceil \\log_2(r + 1) \\rceil`, with ``design="regular"``.
    Replication ``j`` puts each block in one half according to column ``j``
    and yields two splits (each half tested once). Any two halves of different
    replications share exactly m/4 samples when N divides m (for the blocked
    3 x 2 CV: when 4 divides m), and less than N/4 samples away from it
    otherwise (less than one sample for r <= 3). 5 x 2 CV, with independent
    random halves, shares m/4 only on average.

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
    design : {"smallest", "regular"}, default="smallest"
        The orthogonal array, as in :func:`two_level_design`.

    Examples
    --------
    >>> import numpy as np
    >>> cv = BlockedMxTwoCV(n_repeats=3, random_state=0)
    >>> halves = [set(test) for _, test in cv.split(np.zeros((12, 1)))]
    >>> cv.get_n_splits(), len(halves[0]), len(halves[0] & halves[2])
    (6, 6, 3)
    >>> int(BlockedMxTwoCV(8).block_labels(np.zeros((24, 1))).max()) + 1  # blocks
    12
    """

    def __init__(self, n_repeats=3, *, shuffle=True, stratify=False, random_state=None,
                 design="smallest"):
        self.n_repeats = n_repeats
        self.shuffle = shuffle
        self.stratify = stratify
        self.random_state = random_state
        self.design = design
        check_int(n_repeats, "n_repeats", low=1, high=_MAX_REPEATS,
                  why="it is the number of two-fold replications")
        check_bool(shuffle, "shuffle")
        check_bool(stratify, "stratify")
        check_option(design, "design", ["smallest", "regular"])
        _check_seed(random_state)
        if not shuffle and random_state is not None:
            raise ValueError(f"random_state={random_state!r} has no effect when shuffle=False; "
                             "leave it at None or set shuffle=True.")

    def get_n_splits(self, X=None, y=None, groups=None):
        """Number of splits, ``2 * n_repeats``."""
        return 2 * self.n_repeats

    def block_labels(self, X, y=None):
        """The block (row of the design) of each sample, for one call's shuffle."""
        n = num_rows(X, "X")
        design = two_level_design(self.n_repeats, self.design)
        n_blocks = len(design)
        if n < 4:
            raise ValueError(f"X must have at least 4 samples, got n_samples={n} (BlockedMxTwoCV "
                             "splits each half in two).")
        if n < n_blocks:
            raise ValueError(f"n_repeats={self.n_repeats} needs {n_blocks} blocks, so at least "
                             f"{n_blocks} samples, got n_samples={n}; use fewer repeats.")
        rng = as_random_state(self.random_state)
        order = rng.permutation(n) if self.shuffle else np.arange(n)
        extra = list(_extra_blocks(self.n_repeats, n % n_blocks, self.design))
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
        for column in two_level_design(self.n_repeats, self.design).T:
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
    X = _check_numeric(X, "X", ndim=2)
    if len(X) < 2:
        raise ValueError(f"X must have at least 2 rows for leave-one-out, got {len(X)}.")
    y = _check_numeric(y, "y", ndim=1)
    if len(y) != len(X):
        raise ValueError(f"X and y must have as many rows, got {len(X)} and {len(y)}.")
    if max(np.abs(X).max(initial=0.0), np.abs(y).max(initial=0.0)) > 1e150:
        raise ValueError("X and y must lie within [-1e150, 1e150]: squared residuals of "
                         "larger values overflow; rescale them.")
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
    shuffle = check_bool(shuffle, "shuffle")
    random_state = _check_seed(random_state)
    if random_state is not None and not isinstance(random_state, (int, np.random.RandomState)) \
            or isinstance(random_state, int) and random_state >= 2 ** 32:
        random_state = as_random_state(random_state)  # scikit-learn takes only these two
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
    check_splitter(cv, "cv")
    if y is not None:
        y = check_labels(y, "y", n_samples=n)
    rows = []
    for train, test in cv.split(np.zeros((n, 1)), y):
        row = np.full(n, -1)
        row[train], row[test] = 0, 1
        rows.append(row)
    return np.array(rows)
