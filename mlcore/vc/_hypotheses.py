"""Hypothesis classes of :mod:`mlcore.vc` and the exact decision for one labeling.

The five classes (threshold, interval, half-space, rectangle, disc) with their
``predict``, the input checks, the closed-form and linear-programming witnesses,
and :func:`is_realizable`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

from .._validation import check_array, check_option, check_real

HYPOTHESIS_CLASSES = ("threshold", "interval", "halfspace", "rectangle", "disc")
_DIMENSION = {"threshold": 1, "interval": 1, "rectangle": 2, "disc": 2}


# -- hypotheses -------------------------------------------------------------
def _coordinates(points, d, of=""):
    X = check_array(points, "points")
    X = X[:, None] if X.ndim == 1 and d == 1 else X
    if X.ndim != 2 or X.shape[1] != d:
        raise ValueError(f"points must have shape (n_points, {d}){of}, got shape {X.shape}.")
    return X


@dataclass(frozen=True)
class Threshold:
    """h(x) = 1 if x >= t (one-sided threshold on the line).

    Examples
    --------
    >>> Threshold(0.5).predict([0.0, 0.5, 1.0]).tolist()
    [0, 1, 1]
    """
    t: float

    def __post_init__(self):
        object.__setattr__(self, "t", check_real(self.t, "t", why="it is the threshold"))

    def predict(self, points):
        return (_coordinates(points, 1)[:, 0] >= self.t).astype(int)


@dataclass(frozen=True)
class Interval:
    """h(x) = 1 if low <= x <= high.

    Examples
    --------
    >>> Interval(0.0, 1.0).predict([-1.0, 0.5, 2.0]).tolist()
    [0, 1, 0]
    """
    low: float
    high: float

    def __post_init__(self):
        object.__setattr__(self, "low", check_real(self.low, "low"))
        object.__setattr__(self, "high", check_real(self.high, "high"))
        if self.high < self.low:
            raise ValueError(f"high must be >= low, got low={self.low!r} and high={self.high!r}.")

    def predict(self, points):
        x = _coordinates(points, 1)[:, 0]
        return ((x >= self.low) & (x <= self.high)).astype(int)


@dataclass(frozen=True, eq=False)
class HalfSpace:
    """h(x) = 1 if weights . x + bias >= 0.

    Examples
    --------
    >>> HalfSpace(np.array([1.0, 1.0]), -1.0).predict([[0, 0], [1, 1]]).tolist()
    [0, 1]
    """
    weights: np.ndarray
    bias: float

    def __post_init__(self):
        object.__setattr__(self, "weights", check_array(self.weights, "weights", ndim=1,
                                                        min_length=1))
        object.__setattr__(self, "bias", check_real(self.bias, "bias"))

    def predict(self, points):
        X = _coordinates(points, len(self.weights),
                         f" to match weights of length {len(self.weights)}")
        return (X @ self.weights + self.bias >= 0).astype(int)


@dataclass(frozen=True, eq=False)
class Rectangle:
    """h(x) = 1 if lower <= x <= upper coordinate-wise (closed, axis-aligned).

    Examples
    --------
    >>> Rectangle(np.zeros(2), np.ones(2)).predict([[0.5, 0.5], [0.5, 2.0]]).tolist()
    [1, 0]
    """
    lower: np.ndarray
    upper: np.ndarray

    def __post_init__(self):
        object.__setattr__(self, "lower", check_array(self.lower, "lower", ndim=1, length=2))
        object.__setattr__(self, "upper", check_array(self.upper, "upper", ndim=1, length=2))

    def predict(self, points):
        X = _coordinates(points, 2)
        return np.all((X >= self.lower) & (X <= self.upper), axis=1).astype(int)


@dataclass(frozen=True, eq=False)
class Disc:
    """h(x) = 1 if ``|x - center| <= radius`` (closed disc).

    Examples
    --------
    >>> Disc(np.zeros(2), 1.0).predict([[0.6, 0.8], [1.0, 1.0]]).tolist()
    [1, 0]
    """
    center: np.ndarray
    radius: float

    def __post_init__(self):
        object.__setattr__(self, "center", check_array(self.center, "center", ndim=1, length=2))
        object.__setattr__(self, "radius", check_real(self.radius, "radius", low=0,
                                                      why="it is the disc's radius"))

    def predict(self, points):
        X = _coordinates(points, 2)
        with np.errstate(over="ignore", under="ignore"):
            squared = ((X - self.center) ** 2).sum(axis=1)
            radius_squared = np.float64(self.radius) ** 2
        if np.isfinite(squared).all() and np.isfinite(radius_squared):
            return (squared <= radius_squared).astype(int)
        # extreme coordinates: compare distances instead of their (overflowing) squares
        return (np.hypot(*(X - self.center).T) <= self.radius).astype(int)


# -- input checks -----------------------------------------------------------
def _check_points(points, hypothesis_class, name="points"):
    cls = check_option(hypothesis_class, "hypothesis_class", HYPOTHESIS_CLASSES)
    X = check_array(points, name, allow_nan=True)
    need = _DIMENSION.get(cls)
    if X.ndim == 1 and need == 1:
        X = X[:, None]
    if X.ndim != 2 or X.shape[1] == 0:
        raise ValueError(f"{name} must be a 2-D array of shape (n_points, n_features), "
                         f"got shape {X.shape}.")
    if need is not None and X.shape[1] != need:
        raise ValueError(f"hypothesis_class={cls!r} is defined on points with {need} "
                         f"coordinate(s), got {name} of shape {X.shape}.")
    if not np.isfinite(X).all():
        row = int(np.flatnonzero(~np.isfinite(X).all(axis=1))[0])
        raise ValueError(f"{name} must be finite, got {X[row].tolist()} in row {row}.")
    spread = np.ptp(X, axis=0).max() if len(X) else 0.0
    if np.abs(X).max(initial=0.0) > 1e100 or 0 < spread < 1e-100:
        # the witnesses pad by absolute amounts; every class here is invariant under scaling
        raise ValueError(f"{name} must have coordinates within [-1e100, 1e100] and a spread "
                         f"above 1e-100 (the witnesses are computed in absolute units), got "
                         f"largest |coordinate| {np.abs(X).max():g} and spread {spread:g}; "
                         f"rescale {name} (every hypothesis class here is scale-invariant).")
    return X, cls


def _check_labels(labels, n, name="labels", points_name="points"):
    y = np.asarray(labels)
    if y.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), one label per row of {points_name} "
                         f"({n} given), got {name} of shape {y.shape}.")
    if y.dtype == bool:
        return y.astype(int)
    if y.dtype.kind not in "iuf" or not np.isin(y, (0, 1)).all():
        raise ValueError(f"{name} must be 0 or 1, got {name}={y.tolist()}.")
    return y.astype(int)


# -- one labeling: closed forms and linear programs -------------------------
def _step(value):
    """1, or a relative step where adding 1 to ``value`` would be lost to rounding."""
    return np.maximum(1.0, 1e-6 * np.abs(value))


def _threshold_witness(X, y):
    x, pos, neg = X[:, 0], X[y == 1, 0], X[y == 0, 0]
    if not pos.size:
        return Threshold(float(x.max() + _step(x.max())))
    if not neg.size:
        return Threshold(float(x.min() - _step(x.min())))
    return Threshold(float(pos.min() + neg.max()) / 2) if pos.min() > neg.max() else None


def _interval_witness(X, y):
    x, pos, neg = X[:, 0], X[y == 1, 0], X[y == 0, 0]
    pad = 0.1 * (np.ptp(x) or _step(x.max()))
    if not pos.size:
        return Interval(float(x.max() + pad), float(x.max() + 2 * pad))
    lo, hi = pos.min(), pos.max()
    if np.any((neg >= lo) & (neg <= hi)):
        return None
    below, above = neg[neg < lo], neg[neg > hi]
    low = (lo + below.max()) / 2 if below.size else lo - pad
    high = (hi + above.min()) / 2 if above.size else hi + pad
    return Interval(float(low), float(high))


def _rectangle_witness(X, y):
    pad = 0.1 * (np.ptp(X, axis=0).max() or _step(np.abs(X).max()))
    pos, neg = X[y == 1], X[y == 0]
    if not pos.size:
        corner = X.max(axis=0) + pad
        return Rectangle(corner, corner + pad)
    lo, hi = pos.min(axis=0), pos.max(axis=0)
    # L-infinity distance of each negative from the box: 0 means inside.
    gap = np.maximum(np.maximum(lo - neg, neg - hi), 0).max(axis=1) if neg.size else np.array([])
    if gap.size and gap.min() == 0:
        return None
    grow = min(pad, 0.5 * gap.min()) if gap.size else pad
    return Rectangle(lo - grow, hi + grow)


def _lp_feasible(F, y, nonnegative_first=False):
    """theta with (2y - 1) * (F @ theta) >= 1, or None; F is standardized."""
    sign = 2 * y - 1
    bounds = [(None, None)] * F.shape[1]
    if nonnegative_first:
        bounds[0] = (0, None)
    result = linprog(np.zeros(F.shape[1]), A_ub=-sign[:, None] * F, b_ub=-np.ones(len(y)),
                     bounds=bounds, method="highs")
    return result.x if result.status == 0 else None


def _standardize(X):
    mean = X.mean(axis=0)
    scale = np.abs(X - mean).max() or 1.0
    return (X - mean) / scale, mean, scale


def _halfspace_lp_witness(X, y):
    Z, mean, scale = _standardize(X)
    theta = _lp_feasible(np.column_stack([Z, np.ones(len(Z))]), y)
    if theta is None:
        return None
    w = theta[:-1] / scale
    return HalfSpace(w, float(theta[-1] - w @ mean))


def _far_disc(X):
    size = np.ptp(X, axis=0).max() + _step(np.abs(X).max())
    return Disc(X.max(axis=0) + 2 * size, 0.5 * size)


def _disc_lp_witness(X, y):
    if not y.any():
        return _far_disc(X)
    Z, mean, scale = _standardize(X)
    lifted = (Z ** 2).sum(axis=1)
    # Disc interior: lam |z|^2 + a.z + c <= 0 with lam >= 0 (lam = 0 is a half-plane,
    # which a huge disc reproduces on finitely many points: lam = 1/(2 max|z|^2) keeps margins).
    theta = _lp_feasible(-np.column_stack([lifted, Z, np.ones(len(Z))]), y, nonnegative_first=True)
    if theta is None:
        return None
    lam = max(theta[0], 0.5 / max(lifted.max(), 1e-12))
    center = -theta[1:3] / (2 * lam)
    radius2 = center @ center - theta[3] / lam
    return Disc(mean + scale * center, float(scale * np.sqrt(max(radius2, 0.0))))


_CLOSED_FORM = {"threshold": _threshold_witness, "interval": _interval_witness,
                "rectangle": _rectangle_witness}
_LP = {"halfspace": _halfspace_lp_witness, "disc": _disc_lp_witness}


def _witness(X, y, cls, method="auto"):
    if len(X) == 0:
        return {"threshold": Threshold(0.0), "interval": Interval(0.0, 1.0),
                "rectangle": Rectangle(np.zeros(2), np.ones(2)), "disc": Disc(np.zeros(2), 1.0),
                }.get(cls) or HalfSpace(np.zeros(X.shape[1]), 1.0)
    return (_CLOSED_FORM.get(cls) or _LP[cls])(X, y)


def is_realizable(points, labels, *, hypothesis_class):
    """Whether some hypothesis of the class gives ``points`` exactly ``labels``.

    Parameters
    ----------
    points : array-like of shape (n_points, n_features)
        The points (1-D arrays are accepted for the 1-D classes).
    labels : array-like of shape (n_points,)
        0/1 labels.
    hypothesis_class : {"threshold", "interval", "halfspace", "rectangle", "disc"}

    Returns
    -------
    realizable : bool
    witness : hypothesis or None
        A hypothesis with ``predict(points) == labels`` when realizable.

    Examples
    --------
    >>> ok, h = is_realizable([[0, 0], [1, 1], [2, 2]], [1, 0, 1], hypothesis_class="halfspace")
    >>> ok, h
    (False, None)
    >>> ok, h = is_realizable([1.0, 2.0, 3.0], [0, 1, 1], hypothesis_class="threshold")
    >>> ok, h.predict([1.0, 2.0, 3.0]).tolist()
    (True, [0, 1, 1])
    """
    X, cls = _check_points(points, hypothesis_class)
    y = _check_labels(labels, len(X))
    witness = _witness(X, y, cls)
    return witness is not None, witness
