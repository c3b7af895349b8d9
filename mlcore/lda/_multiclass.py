"""Multiclass classification from binary classifiers: one-vs-one, one-vs-rest and
error-correcting output codes, all as coding matrices (private; the public face is
:mod:`mlcore.multiclass`, whose docstring describes them).
"""

from __future__ import annotations

import itertools

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from .._validation import as_random_state as check_random_state  # every seed mlcore accepts
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import naming

from .._validation import check_estimator_object, check_int, check_option, check_real

__all__ = ["coding_matrix", "code_separation", "ECOCClassifier"]


def coding_matrix(n_classes, kind="dense-random", *, code_size=2.0, random_state=None):
    """A coding matrix with entries in {-1, 0, +1}, one row per class.

    Parameters
    ----------
    n_classes : int
        Number of classes N >= 2 (at most 12 for ``"exhaustive"``).
    kind : {"ovr", "ovo", "exhaustive", "dense-random"}
        ``"ovr"``: N columns, +1 on the diagonal. ``"ovo"``: N(N-1)/2 columns,
        +1 and -1 for one pair, 0 elsewhere. ``"exhaustive"``: every one of
        the :math:`2^{N-1} - 1` distinct two-way splits of the classes.
        ``"dense-random"``: ``round(code_size * N)`` random ±1 columns, each
        with both signs and no column repeated up to sign when possible; the
        best of 20 such codes by :func:`code_separation` is returned (keeping
        the best of many random dense codes is Allwein, Schapire and Singer's
        recipe, who drew 10,000; Dietterich and Bakiri took columns of the
        exhaustive code for up to 11 classes and hill-climbed beyond).
    code_size : float, default=2.0
        Columns per class for ``"dense-random"``, > 0 (checked for every kind).
    random_state : int, RandomState instance or None

    Returns
    -------
    ndarray of shape (n_classes, n_columns), int

    Examples
    --------
    >>> coding_matrix(3, "ovo")
    array([[ 1,  1,  0],
           [-1,  0,  1],
           [ 0, -1, -1]])
    >>> coding_matrix(4, "exhaustive").shape
    (4, 7)
    """
    n_classes = check_int(n_classes, "n_classes", low=2, high=10**5)
    check_option(kind, "kind", ["ovr", "ovo", "exhaustive", "dense-random"])
    code_size = check_real(code_size, "code_size", low=0, low_open=True)
    n = int(n_classes)
    n_entries = {"ovr": n * n, "ovo": n * n * (n - 1) // 2}.get(kind, 0)
    if n_entries > 10**8:
        raise ValueError(f"kind={kind!r} with n_classes={n} asks for a code of {n_entries:.3g} "
                         "entries; keep n_classes * n_columns below 1e8 (fewer classes, or "
                         "kind='dense-random' with a small code_size).")
    if kind == "ovr":
        return 2 * np.eye(n, dtype=int) - 1
    if kind == "ovo":
        pairs = list(itertools.combinations(range(n), 2))
        code = np.zeros((n, len(pairs)), dtype=int)
        for column, (i, j) in enumerate(pairs):
            code[i, column], code[j, column] = 1, -1
        return code
    if kind == "exhaustive":
        if n > 12:
            raise ValueError(f"an exhaustive code for n_classes={n} has 2^{n - 1} - 1 columns; "
                             "use at most 12 classes or kind='dense-random'.")
        # Class 0 is +1 in every column; the others run over every non-constant pattern.
        patterns = np.array(list(itertools.product([1, -1], repeat=n - 1)))[1:]   # drop all +1
        return np.hstack([np.ones((len(patterns), 1), dtype=int), patterns]).T
    n_columns = max(1, int(round(code_size * n))) if code_size * n < 2**31 else 2**31
    if n * n_columns > 10**8:
        raise ValueError(f"code_size={code_size!r} with n_classes={n} asks for a code of "
                         f"{n} x {n_columns} entries; keep code_size * n_classes**2 below 1e8.")
    rng = check_random_state(random_state)
    # As Allwein et al. (2000): draw several random codes and keep the one
    # whose codewords are farthest apart (then whose columns are).
    best, best_key = None, None
    for _ in range(20):
        code = _random_code(n, n_columns, rng)
        key = code_separation(code)
        if best_key is None or key > best_key:
            best, best_key = code, key
    return best


def _random_code(n, n_columns, rng):
    """One random ±1 code: no constant column, no column repeated up to sign when avoidable.

    Candidates are drawn in batches (a Python call per column made
    ``code_size=1000`` take minutes), then the generator is rewound and
    advanced by exactly the candidates used, so the random stream, and every
    code drawn from a seed, is the one of drawing column by column.
    """
    distinct = 2 ** (n - 1) - 1 if n < 64 else np.inf     # splits up to sign
    weights = 2.0 ** np.arange(n)                          # a split's key, exact for n < 53
    columns, seen, budget = [], set(), 200 * n_columns
    while budget > 0 and len(columns) < n_columns:
        batch = int(min(budget, max(64, 2 * (n_columns - len(columns)))))
        state = _snapshot(rng)
        candidates = rng.choice([-1, 1], size=(batch, n))
        signed = candidates * candidates[:, :1] > 0       # a column and its negation are one split
        if n < 53:
            keys = (signed @ weights).tolist()
        else:
            keys = [row.tobytes() for row in signed]
        constant = (np.abs(candidates.sum(axis=1)) == n).tolist()
        used = batch
        for i in range(batch):
            if constant[i]:
                continue                                  # one class against nothing
            if keys[i] in seen and len(seen) < distinct:
                continue
            seen.add(keys[i])
            columns.append(candidates[i])
            if len(columns) == n_columns:
                used = i + 1
                break
        if used < batch:                                  # rewind: consume exactly what was used
            _restore(rng, state)
            rng.choice([-1, 1], size=(used, n))
        budget -= used
    return np.array(columns).T


def _snapshot(rng):
    return rng.get_state() if hasattr(rng, "get_state") else rng.bit_generator.state


def _restore(rng, state):
    if hasattr(rng, "set_state"):
        rng.set_state(state)
    else:
        rng.bit_generator.state = state


def code_separation(code):
    """Minimum distance between rows, and between columns (and their negations).

    The distance of two vectors :math:`u, v \\in \\{-1, 0, +1\\}^L` is
    Allwein, Schapire and Singer's
    :math:`\\Delta(u, v) = \\sum_l \\frac{1 - u_lv_l}{2} = \\frac{L - u^\\top v}{2}`:
    a disagreement counts 1, an agreement 0, and any position where either
    entry is 0 counts ½ (two zeros included). For ±1 codes it is the Hamming
    distance. Large row separation lets the code correct binary mistakes:
    with minimum distance :math:`d`, any :math:`\\lfloor (d-1)/2\\rfloor` wrong
    outputs are still decoded to the right class. Columns must be far from
    each other *and* from each other's negations
    (:math:`\\min(\\Delta(a, b), \\Delta(a, -b)) = (N - |a^\\top b|)/2`), or the
    binary classifiers learn the same problem and make correlated mistakes.
    Computed from Gram matrices, in blocks.

    Returns
    -------
    row_separation, column_separation : float
        ``inf`` for the columns when there is only one.

    Examples
    --------
    >>> code_separation(coding_matrix(4, "ovr"))
    (2.0, 2.0)
    >>> code_separation(coding_matrix(4, "ovo"))      # two zeros count 1/2 too
    (3.5, 1.5)
    """
    code = np.asarray(code, dtype=float)
    if code.ndim != 2 or code.shape[0] < 2 or not np.isin(code, [-1, 0, 1]).all():
        raise ValueError("code must be a (n_classes >= 2, n_columns) array of -1, 0 and +1.")
    columns = code.T
    if columns.shape[0] < 2:
        return _min_distance(code, False), np.inf
    if not (code == 0).any():
        signed = columns * columns[:, :1]                # a column and its negation are one split
        if len(np.unique(signed, axis=0)) < len(signed):
            return _min_distance(code, False), 0.0       # a repeated ±1 column: distance 0
    return _min_distance(code, False), _min_distance(columns, True)


def _min_distance(vectors, with_negation, block=1024):
    """min over pairs i < j of (L - u_i.u_j) / 2, or (L - |u_i.u_j|) / 2."""
    length = vectors.shape[1]
    best = np.inf
    for start in range(0, len(vectors), block):
        gram = vectors[start:start + block] @ vectors[start:].T
        gram = np.abs(gram) if with_negation else gram
        rows = np.arange(gram.shape[0])
        gram[rows, rows] = -np.inf                       # i = j is not a pair
        best = min(best, (length - gram.max()) / 2)
    return float(best)


class ECOCClassifier(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Multiclass classification by an output code of binary classifiers.

    Parameters
    ----------
    estimator : classifier
        The binary learner, cloned for each column.
    code : {"ovr", "ovo", "exhaustive", "dense-random"} or array of shape (n_classes, n_columns)
        A :func:`coding_matrix` kind, or a matrix of -1, 0 and +1 (0 leaves the
        class out of that column's problem); rows follow ``classes_`` (sorted).
    code_size : float, default=2.0
        Columns per class for ``code="dense-random"``.
    decoding : {"hamming", "euclidean", "loss"}, default="hamming"
        ``"hamming"``: count the columns whose predicted sign disagrees with
        the codeword (zeros count ½). ``"euclidean"``: distance between the
        codeword and the real-valued outputs :math:`f_l` (``decision_function``,
        or :math:`2p - 1` from ``predict_proba``), as scikit-learn's
        ``OutputCodeClassifier``; for a ternary code (OvO) it charges each
        class :math:`f_l^2` for every classifier that never saw it, which
        misleads when the outputs are unbounded. ``"loss"``: Allwein, Schapire
        and Singer's loss-based decoding with the hinge loss,
        :math:`\\sum_l \\max(0, 1 - M_{kl}f_l)` (a 0 entry costs the same 1 for
        every output).
    random_state : int, RandomState instance or None
        For ``code="dense-random"``.

    Attributes
    ----------
    classes_ : ndarray
    code_ : ndarray of shape (n_classes, n_columns)
    estimators_ : list of fitted classifiers, one per column

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = load_iris(return_X_y=True)
    >>> ecoc = ECOCClassifier(LogisticRegression(max_iter=1000), code="exhaustive",
    ...                       decoding="euclidean").fit(X, y)
    >>> ecoc.code_.shape, round(float(ecoc.score(X, y)), 2)
    ((3, 3), 0.95)
    """

    def __init__(self, estimator, *, code="dense-random", code_size=2.0, decoding="hamming",
                 random_state=None):
        self.estimator = estimator
        self.code = code
        self.code_size = code_size
        self.decoding = decoding
        self.random_state = random_state

    def fit(self, X, y):
        """Train one binary classifier per column of the code; returns ``self``."""
        check_option(self.decoding, "decoding", ["hamming", "euclidean", "loss"])
        check_estimator_object(self.estimator, "estimator", ("fit",))
        with naming("X or y"):
            X, y = validate_data(self, X, y, accept_sparse=False)
        with naming("y"):
            check_classification_targets(y)
        self.classes_, index = np.unique(y, return_inverse=True)
        n_classes = self.classes_.size
        if n_classes < 2:
            raise ValueError(f"y has only one class (label {self.classes_[0]!r}); need at least 2.")
        if isinstance(self.code, str):
            code = coding_matrix(n_classes, self.code, code_size=self.code_size,
                                 random_state=self.random_state)
        else:
            code = np.asarray(self.code)
            if (code.ndim == 2 and code.size and np.isin(code, [0, 1]).all()
                    and (code == 0).any() and (code == 1).any()):
                raise ValueError("code holds only 0 and 1: this looks like a {0, 1} code book (as "
                                 "scikit-learn's OutputCodeClassifier.code_book_ for an estimator "
                                 "without decision_function), where 0 is a side, not 'left out'; "
                                 "map it to ±1 with 2 * code - 1 (and drop any column of one "
                                 "value: it cannot change the decoding).")
            if code.ndim != 2 or code.shape[0] != n_classes or not np.isin(code, [-1, 0, 1]).all():
                raise ValueError(f"code must be a ({n_classes}, n_columns) array of -1, 0 and +1 "
                                 f"(one row per class), got shape {code.shape}.")
        self.code_ = code.astype(int)
        self.estimators_ = []
        for column in self.code_.T:
            targets = column[index]
            used = targets != 0
            if len(np.unique(targets[used])) < 2:
                raise ValueError(f"every column of the code needs classes on both sides (+1 and -1) "
                                 f"among the training labels; column {len(self.estimators_)} has "
                                 f"{np.unique(targets[used]).tolist()} only. A column of one value "
                                 f"adds the same distance to every class and cannot change the "
                                 f"decoding: drop it.")
            self.estimators_.append(clone(self.estimator).fit(X[used], targets[used]))
        return self

    def binary_outputs(self, X):
        """The binary classifiers' outputs, one column per code column.

        Signs (±1) for Hamming decoding; real values for Euclidean and loss-based decoding.
        """
        check_is_fitted(self)
        with naming("X"):
            X = validate_data(self, X, reset=False)
        if self.decoding == "hamming":
            return np.column_stack([e.predict(X) for e in self.estimators_]).astype(float)
        outputs = []
        for e in self.estimators_:
            if hasattr(e, "decision_function"):
                outputs.append(e.decision_function(X))
            else:
                outputs.append(2 * e.predict_proba(X)[:, list(e.classes_).index(1)] - 1)
        return np.column_stack(outputs)

    def decode(self, outputs):
        """The class whose codeword is nearest to each row of ``outputs`` (first class on ties)."""
        check_is_fitted(self)
        outputs = np.asarray(outputs, dtype=float)
        if outputs.ndim != 2 or outputs.shape[1] != self.code_.shape[1]:
            raise ValueError(f"outputs must have {self.code_.shape[1]} columns (one per code "
                             f"column), got shape {outputs.shape}.")
        if self.decoding == "hamming":
            # Disagreements: (1 - sign * code) / 2 is 0, 1, or 1/2 where the code is 0.
            distances = (self.code_.shape[1] - np.sign(outputs) @ self.code_.T) / 2
        elif self.decoding == "euclidean":
            distances = ((outputs[:, None, :] - self.code_[None, :, :]) ** 2).sum(axis=2)
        else:
            distances = np.maximum(0.0, 1 - outputs[:, None, :] * self.code_[None, :, :]).sum(axis=2)
        return self.classes_[np.argmin(distances, axis=1)]

    def predict(self, X):
        """Decode the binary outputs into classes."""
        return self.decode(self.binary_outputs(X))
