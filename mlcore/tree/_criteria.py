"""Split criteria of chapter 12: entropy, information gain (ID3), the gain
ratio (C4.5), the Gini value and Gini index (CART), for a discrete attribute
and for the thresholds of a continuous one, with C4.5's weighting for
missing values.

All take optional sample weights: C4.5 sends a sample whose value is missing
down every branch with a weight equal to the branch's share, and the
quantities below are then computed from weighted counts. The weights are
divided by their largest value first, so every criterion is invariant to
their scale (subnormal or huge weights give the unweighted values).

Missing is ``None``, any floating NaN (Python, NumPy of any width),
``pd.NA`` and ``pd.NaT``. Two choices Zhou's book does not make, documented
here: the intrinsic value of an attribute with missing values is computed
over the known samples only (C4.5 as published counts the unknowns as an
extra subset in the split information, Quinlan 1993), and continuous splits
get no MDL correction (Quinlan 1996).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import xlogy

from .._validation import check_option, refuse_text


def _weights(y, sample_weight):
    """The weights as floats divided by the largest one (scale-free); all ones when None."""
    if sample_weight is None:
        return np.ones(len(y))
    try:
        w = np.asarray(sample_weight, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"sample_weight must hold numbers, got {np.asarray(sample_weight).dtype} "
                        "values.") from error
    if w.shape != (len(y),) or np.any(w < 0) or not np.all(np.isfinite(w)):
        raise ValueError(f"sample_weight must be {len(y)} finite weights >= 0, got shape {w.shape}.")
    top = w.max(initial=0.0)
    if top == 0:
        raise ValueError("sample_weight must have a positive weight, got all weights 0.")
    return w / top


def _class_weights(y, w):
    _, index = _labels(y)
    return np.bincount(index, weights=w)


def _labels(y):
    """np.unique(y, return_inverse=True), with a worded TypeError for labels that cannot be sorted."""
    try:
        return np.unique(y, return_inverse=True)
    except TypeError as error:
        raise TypeError(f"y must hold class labels of one sortable type (no None or NaN), got "
                        f"{sorted({type(v).__name__ for v in np.asarray(y, dtype=object).ravel()})}.") from error


def _entropy_of(counts, axis=-1):
    """Entropy in bits of (possibly unnormalized) class counts along ``axis``; 0 for empty.

    Uses :math:`H = \\log_2 n - \\frac{1}{n}\\sum_k c_k\\log_2 c_k` (``xlogy`` makes
    :math:`0 \\log 0 = 0`), a few array operations for any number of count vectors.
    """
    counts = np.asarray(counts, dtype=float)
    total = counts.sum(axis=axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = (np.log(total) - xlogy(counts, counts).sum(axis=axis) / total) / np.log(2)
    return np.where(total > 0, np.maximum(h, 0.0), 0.0)


def _gini_of(counts, axis=-1):
    counts = np.asarray(counts, dtype=float)
    total = counts.sum(axis=axis, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(total > 0, counts / total, 0.0)
    return 1.0 - (p**2).sum(axis=axis)


def _check_xy(x, y):
    x, y = np.asarray(x, dtype=object), np.asarray(y)
    if x.ndim != 1 or y.ndim != 1 or len(x) != len(y):
        raise ValueError(f"x and y must be 1-D of one length, got shapes {x.shape} and {y.shape}.")
    if len(y) == 0:
        raise ValueError("x and y are empty.")
    return x, y


def _missing(x):
    """Which entries of an object array are missing (None, any float NaN, pd.NA, pd.NaT)."""
    return np.asarray(pd.isna(np.asarray(x, dtype=object)), dtype=bool).reshape(len(x))


def _midpoints(lo, hi):
    """Thresholds t with lo <= t < hi: lo/2 + hi/2 (no overflow), or lo when that rounds to hi.

    scikit-learn's rule: between two adjacent doubles the midpoint may round
    up to ``hi``, and ``x <= t`` would then not separate the two values.
    """
    t = lo / 2 + hi / 2
    return np.where((t >= hi) | (t < lo) | ~np.isfinite(t), lo, t)


def entropy(y, sample_weight=None):
    """Information entropy :math:`\\mathrm{Ent}(D) = -\\sum_k p_k\\log_2 p_k` of the labels, in bits.

    Examples
    --------
    >>> round(entropy(["是"] * 8 + ["否"] * 9), 3)     # watermelon 2.0: 8 good of 17
    0.998
    """
    refuse_text(y, "y", "a non-empty 1-D array of class labels")
    y = np.asarray(y)
    if y.ndim != 1 or len(y) == 0:
        raise ValueError(f"y must be a non-empty 1-D array of labels, got shape {y.shape}.")
    return float(_entropy_of(_class_weights(y, _weights(y, sample_weight))))


def gini(y, sample_weight=None):
    """The Gini value :math:`1 - \\sum_k p_k^2`: the chance that two samples drawn with replacement disagree.

    Examples
    --------
    >>> gini([0, 0, 1, 1])
    0.5
    """
    refuse_text(y, "y", "a non-empty 1-D array of class labels")
    y = np.asarray(y)
    if y.ndim != 1 or len(y) == 0:
        raise ValueError(f"y must be a non-empty 1-D array of labels, got shape {y.shape}.")
    return float(_gini_of(_class_weights(y, _weights(y, sample_weight))))


def _discrete_parts(x, y, sample_weight):
    """Weighted class counts per value of a discrete attribute, over the samples where it is known."""
    x, y = _check_xy(x, y)
    w = _weights(y, sample_weight)
    classes, y_index = _labels(y)
    known = ~_missing(x)
    values = sorted(set(x[known].tolist()), key=str)
    lookup = {v: i for i, v in enumerate(values)}
    codes = np.array([lookup[v] for v in x[known].tolist()], dtype=int)
    counts = np.zeros((len(values), classes.size))
    np.add.at(counts, (codes, y_index[known]), w[known])
    rho = w[known].sum() / w.sum()
    return values, counts, rho


def information_gain(x, y, sample_weight=None):
    """ID3's information gain of a discrete attribute, with C4.5's treatment of missing values.

    :math:`\\mathrm{Gain}(D, a) = \\rho\\,\\bigl(\\mathrm{Ent}(\\tilde D) - \\sum_v \\tilde r_v\\,\\mathrm{Ent}(\\tilde D^v)\\bigr)`:
    :math:`\\tilde D` the samples whose value of :math:`a` is known (missing is
    ``None`` or NaN), :math:`\\rho` their (weighted) share and
    :math:`\\tilde r_v` the share of :math:`\\tilde D` with value :math:`v`.
    Without missing values this is :math:`\\mathrm{Ent}(D) - \\sum_v \\frac{|D^v|}{|D|}\\mathrm{Ent}(D^v)`.

    Examples
    --------
    >>> texture = ["清晰"] * 9 + ["稍糊"] * 5 + ["模糊"] * 3
    >>> good = [1, 1, 1, 1, 1, 1, 1, 0, 0] + [1, 0, 0, 0, 0] + [0, 0, 0]
    >>> round(information_gain(texture, good), 3)
    0.381
    """
    _, counts, rho = _discrete_parts(x, y, sample_weight)
    if counts.sum() == 0:
        return 0.0
    sizes = counts.sum(axis=1)
    before = _entropy_of(counts.sum(axis=0))
    after = np.sum(sizes / sizes.sum() * _entropy_of(counts))
    return float(rho * (before - after))


def intrinsic_value(x, sample_weight=None):
    """C4.5's intrinsic value :math:`\\mathrm{IV}(a) = -\\sum_v \\tilde r_v\\log_2\\tilde r_v` of an attribute.

    Examples
    --------
    >>> intrinsic_value(["a", "b", "c", "d"])
    2.0
    """
    x = np.asarray(x, dtype=object)
    _, counts, _ = _discrete_parts(x, np.zeros(len(x), dtype=int), sample_weight)
    return float(_entropy_of(counts.sum(axis=1)))


def gain_ratio(x, y, sample_weight=None):
    """C4.5's gain ratio :math:`\\mathrm{Gain}(D, a)/\\mathrm{IV}(a)` (0 when IV is 0).

    Examples
    --------
    >>> round(gain_ratio(["a", "b", "c", "d"], [0, 0, 1, 1]), 3)
    0.5
    """
    iv = intrinsic_value(x, sample_weight)
    return 0.0 if iv == 0 else information_gain(x, y, sample_weight) / iv


def gini_index(x, y, sample_weight=None):
    """CART's Gini index of a discrete attribute, with C4.5's :math:`\\rho` for missing values (lower is better).

    Without missing values it is :math:`\\sum_v \\frac{|D^v|}{|D|}\\,\\mathrm{Gini}(D^v)`.
    With them, the decrease in Gini value is scored on the known samples
    :math:`\\tilde D` and scaled by their share :math:`\\rho`, as the gain is
    (Zhou, section 4.4.2):
    :math:`\\mathrm{Gini}(D) - \\rho\\bigl(\\mathrm{Gini}(\\tilde D) - \\sum_v \\tilde r_v\\,\\mathrm{Gini}(\\tilde D^v)\\bigr)`.
    So an attribute known on a few samples cannot win by splitting those
    few perfectly: with nothing known the index is :math:`\\mathrm{Gini}(D)`,
    the value of not splitting.

    Examples
    --------
    >>> gini_index(["a", "a", "b", "b"], [0, 0, 1, 1])
    0.0
    >>> gini_index(["a", "b", None, None], [0, 1, 0, 1])     # half known: Gini(D) - 0.5 * 0.5
    0.25
    """
    x, y = _check_xy(x, y)
    w = _weights(y, sample_weight)
    _, counts, rho = _discrete_parts(x, y, w)
    parent = float(_gini_of(_class_weights(y, w)))
    if counts.sum() == 0:
        return parent
    return _gini_with_rho(parent, rho, counts.sum(axis=0), counts)


def _gini_with_rho(parent, rho, known_total, parts):
    """Gini(D) - rho * (Gini(D~) - sum_v r~_v Gini(D~v)); equals sum_v r_v Gini(D^v) when rho = 1."""
    sizes = parts.sum(axis=-1)
    after = np.sum(sizes / known_total.sum() * _gini_of(parts), axis=-1)
    if rho == 1:
        return float(after) if np.ndim(after) == 0 else after
    out = parent - rho * (_gini_of(known_total) - after)
    return float(out) if np.ndim(out) == 0 else out


def threshold_gains(x, y, sample_weight=None, criterion="gain"):
    """Every candidate threshold of a continuous attribute and its score.

    The known values are sorted; the candidates are the midpoints between
    consecutive distinct values, and each splits the samples into
    :math:`\\le t` and :math:`> t`. Scores come from cumulative class counts
    along the sorted order, all thresholds at once. ``criterion``:
    ``"gain"`` (information gain, times :math:`\\rho` for missing values),
    ``"gain_ratio"`` (divided by the split's intrinsic value) or ``"gini"``
    (the Gini index, lower is better, with :math:`\\rho` as in
    :func:`gini_index`). Each threshold ``t`` satisfies ``lo <= t < hi`` for
    the two values it separates: the midpoint ``lo/2 + hi/2``, or ``lo``
    when the midpoint rounds to ``hi`` (as scikit-learn does).

    Returns
    -------
    thresholds, scores : ndarray

    Examples
    --------
    >>> t, g = threshold_gains([0.1, 0.2, 0.3, 0.4], [0, 0, 1, 1])
    >>> t.round(2).tolist(), g.round(3).tolist()
    ([0.15, 0.25, 0.35], [0.311, 1.0, 0.311])
    """
    criterion = check_option(criterion, "criterion", ["gain", "gain_ratio", "gini"])
    x = _float_values(x, "x")
    y = np.asarray(y)
    if x.ndim != 1 or y.shape != x.shape or len(x) == 0:
        raise ValueError(f"x and y must be 1-D of one length, got shapes {x.shape} and {y.shape}.")
    if np.isinf(x).any():
        raise ValueError("x must be finite or missing (NaN), got an infinite value.")
    w = _weights(y, sample_weight)
    known = ~np.isnan(x)
    rho = w[known].sum() / w.sum()
    classes, y_index = _labels(y)
    order = np.argsort(x[known], kind="mergesort")
    xs = x[known][order]
    onehot = np.zeros((len(xs), classes.size))
    onehot[np.arange(len(xs)), y_index[known][order]] = w[known][order]
    left = np.cumsum(onehot, axis=0)[:-1]
    total = onehot.sum(axis=0)
    right = total - left
    distinct = xs[1:] > xs[:-1]
    thresholds = _midpoints(xs[:-1], xs[1:])[distinct]
    left, right = left[distinct], right[distinct]
    n_left, n_right = left.sum(axis=1), right.sum(axis=1)
    n = total.sum()
    if criterion == "gini":
        after = (n_left * _gini_of(left) + n_right * _gini_of(right)) / n
        if rho == 1:
            return thresholds, after
        parent = float(_gini_of(_class_weights(y, w)))
        return thresholds, parent - rho * (_gini_of(total) - after)
    gains = rho * (_entropy_of(total) - (n_left * _entropy_of(left) + n_right * _entropy_of(right)) / n)
    if criterion == "gain":
        return thresholds, gains
    iv = _entropy_of(np.column_stack([n_left, n_right]))
    return thresholds, np.where(iv > 0, gains / np.where(iv > 0, iv, 1), 0.0)


def _numeric_column(series):
    """True for a column of numbers (missing values allowed), False for strings, categories, booleans."""
    if pd.api.types.is_bool_dtype(series):
        return False
    if pd.api.types.is_numeric_dtype(series):
        return True
    return all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
               for v in series if not _is_missing(v))


def _is_missing(value):
    """None, any floating NaN, pd.NA or pd.NaT (a scalar)."""
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, (float, np.floating)):
        return bool(np.isnan(value))
    return bool(isinstance(value, np.datetime64) and np.isnat(value))


def _float_values(x, name):
    """x as a float array, missing values (None, pd.NA, NaN) as NaN; a worded TypeError otherwise."""
    values = np.asarray(x, dtype=object) if not isinstance(x, np.ndarray) or x.dtype.kind == "O" else x
    if values.dtype.kind in "fiub":
        return values.astype(float)
    values = np.asarray(values, dtype=object)
    try:
        return np.array([np.nan if _is_missing(v) else float(v) for v in values.ravel()],
                        dtype=float).reshape(values.shape)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must hold numbers (or missing values), got {values.dtype} values "
                        f"such as {values.ravel()[0]!r}.") from error
