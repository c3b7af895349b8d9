"""Shattering and the VC dimension, decided exactly (chapter 3).

A labeling of points is *realizable* by a hypothesis class when some
hypothesis of the class reproduces it; the class *shatters* the points when
all :math:`2^n` labelings are realizable. Five classes, labels 0/1:

=============  ======================================  =====  =========
class          hypothesis                              input  VC dim.
=============  ======================================  =====  =========
``threshold``  1 if x >= t                             1-D    1
``interval``   1 if a <= x <= b                        1-D    2
``halfspace``  1 if w.x + b >= 0                       n-D    n + 1
``rectangle``  1 inside an axis-aligned box            2-D    4
``disc``       1 inside a closed disc                  2-D    3
=============  ======================================  =====  =========

Every decision is exact and proved by a witness hypothesis that is checked
against the labels. Thresholds, intervals and rectangles have closed forms.
Half-spaces are decided by linear-programming feasibility (``linprog``); in
the plane :func:`realizable_labelings` enumerates instead the O(n²) *angular
cells* of directions (between two consecutive critical directions the order
of the projections is fixed, and the realizable labelings for that order are
its n + 1 prefixes). Discs lift to the paraboloid ``z = |x|²``: a disc labeling is
a set of lifted points below a plane, and every such set is reached from a
circle through three points by a small tilt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from itertools import combinations

import numpy as np
from scipy.optimize import linprog
from scipy.special import gammaln, logsumexp

from ._parallel import parallel_map
from ._validation import check_int, check_option, check_probability, check_real
from .widgets import InteractiveFigure

__all__ = [
    "HYPOTHESIS_CLASSES", "VC_DIMENSIONS", "Threshold", "Interval", "HalfSpace", "Rectangle",
    "Disc", "is_realizable", "witness_hypotheses", "realizable_labelings", "shatters",
    "labelings", "erm_halfplane", "sauer_bound", "vc_bound_gap", "vc_sample_size",
    "margin_vc_bound", "regular_simplex", "preset_points", "PRESETS", "ShatteringExplorer",
]

HYPOTHESIS_CLASSES = ("threshold", "interval", "halfspace", "rectangle", "disc")
#: VC dimension of each class; a half-space in R^n has n + 1 (here for the plane).
VC_DIMENSIONS = {"threshold": 1, "interval": 2, "halfspace": 3, "rectangle": 4, "disc": 3}
_DIMENSION = {"threshold": 1, "interval": 1, "rectangle": 2, "disc": 2}
_MAX_POINTS = 20


# -- hypotheses -------------------------------------------------------------
def _coordinates(points, d):
    X = np.asarray(points, dtype=float)
    X = X[:, None] if X.ndim == 1 and d == 1 else X
    if X.ndim != 2 or X.shape[1] != d:
        raise ValueError(f"points must have shape (n_points, {d}), got shape {X.shape}.")
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

    def predict(self, points):
        X = _coordinates(points, len(self.weights))
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

    def predict(self, points):
        X = _coordinates(points, 2)
        return (((X - self.center) ** 2).sum(axis=1) <= self.radius ** 2).astype(int)


# -- input checks -----------------------------------------------------------
def _check_points(points, hypothesis_class):
    cls = check_option(hypothesis_class, "hypothesis_class", HYPOTHESIS_CLASSES)
    try:
        X = np.asarray(points, dtype=float)
    except (TypeError, ValueError) as error:
        raise ValueError(f"points must be an array of numbers of shape (n_points, n_features), "
                         f"got {type(points).__name__}: {error}") from None
    need = _DIMENSION.get(cls)
    if X.ndim == 1 and need == 1:
        X = X[:, None]
    if X.ndim != 2 or X.shape[1] == 0:
        raise ValueError(f"points must be a 2-D array of shape (n_points, n_features), "
                         f"got shape {X.shape}.")
    if need is not None and X.shape[1] != need:
        raise ValueError(f"hypothesis_class={cls!r} is defined on points with {need} "
                         f"coordinate(s), got points of shape {X.shape}.")
    if not np.isfinite(X).all():
        row = int(np.flatnonzero(~np.isfinite(X).all(axis=1))[0])
        raise ValueError(f"points must be finite, got {X[row].tolist()} in row {row}.")
    return X, cls


def _check_labels(labels, n):
    y = np.asarray(labels)
    if y.shape != (n,):
        raise ValueError(f"labels must have shape ({n},), one label per point, got shape {y.shape}.")
    if y.dtype == bool:
        return y.astype(int)
    if not np.isin(y, (0, 1)).all():
        raise ValueError(f"labels must be 0 or 1, got labels={y.tolist()}.")
    return y.astype(int)


# -- one labeling: closed forms and linear programs -------------------------
def _threshold_witness(X, y):
    x, pos, neg = X[:, 0], X[y == 1, 0], X[y == 0, 0]
    if not pos.size:
        return Threshold(float(x.max() + 1))
    if not neg.size:
        return Threshold(float(x.min() - 1))
    return Threshold(float(pos.min() + neg.max()) / 2) if pos.min() > neg.max() else None


def _interval_witness(X, y):
    x, pos, neg = X[:, 0], X[y == 1, 0], X[y == 0, 0]
    pad = 0.1 * (np.ptp(x) or 1.0)
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
    pad = 0.1 * (np.ptp(X, axis=0).max() or 1.0)
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
    size = np.ptp(X, axis=0).max() + 1.0
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


# -- all labelings ------------------------------------------------------------
def labelings(n_points):
    """All 2^n labelings of n points, row ``b`` giving bit i of ``b`` to point i.

    Examples
    --------
    >>> labelings(2).tolist()
    [[0, 0], [1, 0], [0, 1], [1, 1]]
    """
    n = check_int(n_points, "n_points", low=0, high=_MAX_POINTS)
    return (np.arange(2 ** n)[:, None] >> np.arange(n)) & 1


def _bits(predictions):
    """Bits of each row of a (k, n) 0/1 matrix."""
    return (predictions.astype(np.int64) << np.arange(predictions.shape[1])).sum(axis=1)


def _halfplane_candidates(U):
    """Half-planes (W, b) realizing every labeling of distinct points U in the plane.

    Between two consecutive critical directions (normals of the lines through
    two points) the order of the projections is fixed; each order's n + 1
    prefixes are cut off by thresholds half-way between consecutive ranks.
    """
    i, j = np.triu_indices(len(U), 1)
    normal = np.arctan2(U[j, 1] - U[i, 1], U[j, 0] - U[i, 0]) + np.pi / 2
    critical = np.sort(np.mod(np.concatenate([normal, normal + np.pi]), 2 * np.pi))
    if critical.size:
        critical = critical[np.concatenate([[True], np.diff(critical) > 1e-12])]
        angles = (critical + np.append(critical[1:], critical[0] + 2 * np.pi)) / 2
    else:
        angles = np.array([0.0, np.pi])
    directions = np.column_stack([np.cos(angles), np.sin(angles)])
    ranked = -np.sort(-(directions @ U.T), axis=1)
    padded = np.column_stack([ranked[:, 0] + 2, ranked, ranked[:, -1] - 2])
    thresholds = (padded[:, :-1] + padded[:, 1:]) / 2
    return np.repeat(directions, len(U) + 1, axis=0), -thresholds.ravel()


def _verified(predictions, make):
    """{bits: make(index)}, one per distinct labeling the candidates really produce."""
    bits, first = np.unique(_bits(predictions), return_index=True)
    return {int(k): make(f) for k, f in zip(bits, first)}


def _halfplane_sweep(U):
    W, b = _halfplane_candidates(U)
    return _verified(W @ U.T + b[:, None] >= 0, lambda f: HalfSpace(W[f], float(b[f])))


def _disc_arrangement(U):
    """All labelings of distinct points in the plane by discs, with witnesses."""
    centered = U - U.mean(axis=0)
    if len(U) <= 2 or np.linalg.matrix_rank(centered, tol=1e-9 * (np.abs(centered).max() + 1)) < 2:
        # collinear: a disc meets the line in an interval, and any interval is reached
        direction = np.linalg.svd(centered)[2][0] if len(U) > 1 else np.array([1.0, 0.0])
        line = (centered @ direction)[:, None]
        found = [h for h in map(partial(_interval_witness, line), labelings(len(U))) if h]
        centers = np.array([U.mean(axis=0) + direction * (h.low + h.high) / 2 for h in found])
        radii2 = np.array([((h.high - h.low) / 2) ** 2 for h in found])
    else:
        far = _far_disc(U)
        parts = [(far.center[None], np.array([far.radius ** 2]))]
        parts += [_tilted_discs(U, list(t)) for t in combinations(range(len(U)), 3)]
        centers = np.concatenate([c for c, _ in parts])
        radii2 = np.concatenate([r for _, r in parts])
    inside = ((U[None] - centers[:, None]) ** 2).sum(axis=2) <= radii2[:, None]
    return _verified(inside, lambda f: Disc(centers[f], float(np.sqrt(radii2[f]))))


def _tilted_discs(U, triple):
    """Discs from the circle through three points, tilted by every half-plane of the
    points on that circle (the lifted plane z = 2c.x + r^2 - |c|^2 plus t (w.x + b))."""
    A = 2 * (U[triple[1:]] - U[triple[0]])
    if abs(np.linalg.det(A)) < 1e-12 * (np.abs(A).max() ** 2 + 1e-300):
        return np.empty((0, 2)), np.empty(0)  # collinear triple: no circle through it
    center = np.linalg.solve(A, (U[triple[1:]] ** 2).sum(1) - (U[triple[0]] ** 2).sum())
    radius2 = ((U[triple[0]] - center) ** 2).sum()
    slack = radius2 - ((U - center) ** 2).sum(axis=1)  # > 0 inside, 0 on the circle
    tight = np.abs(slack) <= 1e-9 * max(radius2, 1.0)
    W, b = _halfplane_candidates(U[tight])
    g = W @ U.T + b[:, None]  # the tilt, one row per half-plane
    free = ~tight & (g != 0)
    ratio = np.where(free, np.abs(slack) / np.where(free, np.abs(g), 1.0), np.inf)
    step = 0.5 * np.minimum(ratio.min(axis=1), 1.0)  # small enough to keep strict points
    centers = center + step[:, None] * W / 2
    radii2 = radius2 - center @ center + step * b + (centers ** 2).sum(axis=1)
    keep = radii2 > 0
    return centers[keep], radii2[keep]


def _lp_one(bits, X, cls):
    return _witness(X, (bits >> np.arange(len(X))) & 1, cls)


def witness_hypotheses(points, *, hypothesis_class, method="auto", n_jobs=None):
    """A witness hypothesis for every realizable labeling, keyed by the labeling's bits.

    Parameters
    ----------
    points : array-like of shape (n_points, n_features), at most 20 points
    hypothesis_class : {"threshold", "interval", "halfspace", "rectangle", "disc"}
    method : {"auto", "lp"}
        "auto": closed forms, the angular sweep (half-planes) and the lifted
        arrangement (discs); "lp": one linear program per labeling
        (half-spaces and discs; the slow reference).
    n_jobs : int or None
        Parallel jobs for the linear programs (joblib).

    Returns
    -------
    dict
        ``{bits: hypothesis}``; bit i of ``bits`` is point i's label.

    Examples
    --------
    >>> sorted(witness_hypotheses([0.0, 1.0], hypothesis_class="threshold"))
    [0, 2, 3]
    """
    X, cls = _check_points(points, hypothesis_class)
    check_int(len(X), "len(points)", high=_MAX_POINTS, why="there are 2^n labelings to decide")
    method = check_option(method, "method", ["auto", "lp"])
    if method == "lp" and cls not in _LP:
        raise ValueError(f"method='lp' applies to 'halfspace' and 'disc', got "
                         f"hypothesis_class={cls!r}; use method='auto'.")
    unique, inverse = np.unique(X, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    if method == "auto" and cls == "halfspace" and X.shape[1] <= 2 and len(unique) > 1:
        planar = np.column_stack([unique, np.zeros(len(unique))])[:, :2]
        found = {k: HalfSpace(h.weights[:X.shape[1]], h.bias)
                 for k, h in _halfplane_sweep(planar).items()}
    elif method == "auto" and cls == "disc" and len(unique) > 0:
        found = _disc_arrangement(unique)
    elif method == "auto" and cls in _CLOSED_FORM:
        hypotheses = [_witness(unique, y, cls) for y in labelings(len(unique))]
        found = {k: h for k, h in enumerate(hypotheses) if h is not None}
    else:
        runner = partial(_lp_one, X=unique, cls=cls)
        hypotheses = parallel_map(runner, range(2 ** len(unique)), n_jobs=n_jobs,
                                  desc=f"{cls} labelings")
        found = {k: h for k, h in enumerate(hypotheses) if h is not None}
    # a labeling of the original points is realizable iff duplicates agree
    return {int(_bits(((k >> inverse) & 1)[None])[0]): h for k, h in found.items()}


def realizable_labelings(points, *, hypothesis_class, method="auto", n_jobs=None):
    """Which of the 2^n labelings of ``points`` the class realizes.

    Returns a boolean array of length 2^n; entry ``b`` is the labeling giving
    point i the label ``(b >> i) & 1``. Parameters as in :func:`witness_hypotheses`.

    Examples
    --------
    >>> triangle = [[0, 0], [1, 0], [0, 1]]
    >>> realizable_labelings(triangle, hypothesis_class="halfspace").all()
    np.True_
    >>> square = [[0, 0], [1, 0], [1, 1], [0, 1]]
    >>> np.flatnonzero(~realizable_labelings(square, hypothesis_class="halfspace")).tolist()
    [5, 10]
    """
    found = witness_hypotheses(points, hypothesis_class=hypothesis_class, method=method,
                               n_jobs=n_jobs)
    n = len(_check_points(points, hypothesis_class)[0])
    realizable = np.zeros(2 ** n, dtype=bool)
    realizable[list(found)] = True
    return realizable


def shatters(points, *, hypothesis_class):
    """True when the class realizes every labeling of ``points``.

    Examples
    --------
    >>> shatters([[0, 0], [1, 0], [0, 1]], hypothesis_class="halfspace")
    True
    >>> shatters([[0, 0], [1, 1], [2, 2]], hypothesis_class="halfspace")
    False
    """
    return bool(realizable_labelings(points, hypothesis_class=hypothesis_class).all())


def erm_halfplane(X, y):
    """Exact empirical risk minimization with the 0-1 loss over half-planes.

    Every labeling of the points by a half-plane is produced by one of the
    O(n^2) candidates of the angular sweep, so the best candidate is an exact
    minimizer of the training error (O(n^3) work; in R^n the problem is NP-hard).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,), 0/1 labels

    Returns
    -------
    HalfSpace
        A half-plane with the smallest number of training mistakes.

    Examples
    --------
    >>> X = [[0, 0], [1, 0], [2, 0], [3, 0]]
    >>> h = erm_halfplane(X, [0, 1, 0, 1])
    >>> int((h.predict(X) != [0, 1, 0, 1]).sum())
    1
    """
    X, _ = _check_points(X, "halfspace")
    if X.shape[1] != 2:
        raise ValueError(f"X must have shape (n_samples, 2) for half-planes, got shape {X.shape}.")
    y = _check_labels(y, len(X))
    unique = np.unique(X, axis=0)
    if len(unique) == 1:
        majority = 1.0 if 2 * y.sum() >= len(y) else -1.0  # one point: predict the majority
        return HalfSpace(np.array([1.0, 0.0]), float(majority - unique[0, 0]))
    W, b = _halfplane_candidates(unique)
    mistakes = ((X @ W.T + b >= 0) != y[:, None]).sum(axis=0)
    best = int(np.argmin(mistakes))
    return HalfSpace(W[best], float(b[best]))


# -- bounds -------------------------------------------------------------------
def sauer_bound(m, d):
    """Sauer–Shelah bound on the growth function, sum_{i <= d} C(m, i) (exact int).

    Examples
    --------
    >>> sauer_bound(10, 3), 2 ** 10
    (176, 1024)
    """
    m = check_int(m, "m", low=0, why="it is the number of samples")
    d = check_int(d, "d", low=0, why="it is the VC dimension")
    return sum(math.comb(m, i) for i in range(min(d, m) + 1))


def _log_sauer(m, d):
    m = np.asarray(m, dtype=float)
    i = np.arange(d + 1)[:, None] * np.ones(m.shape).ravel()[None]
    mm = m.ravel()[None]
    terms = np.where(i <= mm, gammaln(mm + 1) - gammaln(i + 1) - gammaln(np.maximum(mm - i, 0) + 1),
                     -np.inf)
    return logsumexp(terms, axis=0).reshape(m.shape)


def vc_bound_gap(d, m, delta):
    """Uniform-convergence gap of the VC inequality with explicit constants.

    With probability at least 1 - delta, for every h in a class of VC
    dimension d, ``|eps(h) - eps_hat(h)| <= sqrt(32 log(8 S(m) / delta) / m)``,
    where S(m) <= sum_{i <= d} C(m, i) is the growth function (Devroye,
    Györfi & Lugosi 1996, Theorem 12.5, with the Sauer–Shelah lemma).

    Parameters
    ----------
    d : int
        VC dimension, d >= 0.
    m : int or array of int
        Number of samples, m >= 1.
    delta : float
        Failure probability in (0, 1).

    Examples
    --------
    >>> round(float(vc_bound_gap(3, 10_000, 0.05)), 4)
    0.3145
    """
    d = check_int(d, "d", low=0, why="it is the VC dimension")
    delta = check_probability(delta, "delta", why="it is the probability that the bound fails")
    m_arr = np.asarray(m)
    if not np.issubdtype(m_arr.dtype, np.integer) or (m_arr < 1).any():
        raise ValueError(f"m must be a positive integer (or an array of them), got m={m!r}; "
                         "it is the number of samples.")
    gap = np.sqrt(32 * (np.log(8 / delta) + _log_sauer(m_arr, d)) / m_arr)
    return float(gap) if gap.ndim == 0 else gap


def vc_sample_size(d, *, gamma, delta):
    """Smallest m for which :func:`vc_bound_gap` is at most gamma.

    Examples
    --------
    >>> m = vc_sample_size(3, gamma=0.1, delta=0.05)
    >>> bool(vc_bound_gap(3, m, 0.05) <= 0.1 < vc_bound_gap(3, m - 1, 0.05))
    True
    """
    gamma = check_real(gamma, "gamma", low=0, low_open=True, why="it is the accuracy")
    low, high = 1, 2
    while vc_bound_gap(d, high, delta) > gamma:
        low, high = high, 2 * high
    while high - low > 1:  # invariant: gap(low) > gamma >= gap(high), unless low == 1
        middle = (low + high) // 2
        low, high = (middle, high) if vc_bound_gap(d, middle, delta) > gamma else (low, middle)
    return low if vc_bound_gap(d, low, delta) <= gamma else high


def margin_vc_bound(radius, margin, *, n_features=None):
    """VC dimension bound of half-spaces with margin >= ``margin`` on a ball of ``radius``.

    ceil(R² / gamma²) + 1 (Vapnik 1998), or min(ceil(R²/gamma²), n) + 1 with
    ``n_features``. It holds in any dimension; a regular simplex with an even number
    of vertices attains it.

    Examples
    --------
    >>> margin_vc_bound(1.0, 0.25)
    17
    >>> margin_vc_bound(1.0, 0.25, n_features=2)
    3
    """
    radius = check_real(radius, "radius", low=0, low_open=True, why="the points lie in this ball")
    margin = check_real(margin, "margin", low=0, low_open=True,
                        why="it is the distance from the boundary to the nearest point")
    bound = math.ceil(radius ** 2 / margin ** 2 - 1e-9)
    if n_features is not None:
        bound = min(bound, check_int(n_features, "n_features", low=1))
    return bound + 1


def regular_simplex(n_points, radius=1.0):
    """The n vertices of a regular simplex in R^(n-1), centred, at distance ``radius``.

    Examples
    --------
    >>> S = regular_simplex(3)
    >>> np.round(np.linalg.norm(S, axis=1), 6).tolist()
    [1.0, 1.0, 1.0]
    """
    n = check_int(n_points, "n_points", low=2)
    radius = check_real(radius, "radius", low=0, low_open=True)
    centered = np.eye(n) - 1.0 / n
    basis = np.linalg.svd(centered)[2][: n - 1]  # orthonormal basis of the sum-zero plane
    vertices = centered @ basis.T
    return radius * vertices / np.linalg.norm(vertices, axis=1, keepdims=True)


# -- the shattering explorer -----------------------------------------------------
def _polygon(k, radius=0.8, phase=np.pi / 2):
    angles = phase + 2 * np.pi * np.arange(k) / k
    return radius * np.column_stack([np.cos(angles), np.sin(angles)])


_PRESETS = {
    "triangle": lambda: np.array([[-0.7, -0.5], [0.7, -0.45], [0.05, 0.75]]),
    "collinear": lambda: np.array([[-0.75, -0.6], [0.0, 0.0], [0.75, 0.6]]),
    "square": lambda: np.array([[-0.6, -0.6], [0.6, -0.6], [0.6, 0.6], [-0.6, 0.6]]),
    "diamond": lambda: np.array([[-0.8, 0.05], [0.05, -0.8], [0.8, -0.05], [-0.05, 0.8]]),
    "pentagon": lambda: _polygon(5),
    "hexagon": lambda: _polygon(6),
}
PRESETS = (*_PRESETS, "random 4", "random 5", "random 6")
_NAMES = {"halfspace": "half-planes", "disc": "discs", "rectangle": "rectangles",
          "interval": "intervals (x)", "threshold": "thresholds (x)"}


def preset_points(preset, *, seed=0):
    """The explorer's point sets in [-1, 1]²: named shapes, or "random k" (k uniform points).

    Examples
    --------
    >>> preset_points("triangle").shape, preset_points("random 5", seed=1).shape
    ((3, 2), (5, 2))
    """
    preset = check_option(preset, "preset", PRESETS)
    if preset in _PRESETS:
        return _PRESETS[preset]()
    rng = np.random.default_rng(check_int(seed, "seed", low=0))
    return rng.uniform(-0.85, 0.85, size=(int(preset.split()[1]), 2))


class ShatteringExplorer(InteractiveFigure):
    """All 2^n labelings of a point set, each with a witness or marked impossible.

    Each panel is one labeling (filled dots: label 1, open squares: label 0);
    blue shading is the region the witness hypothesis labels 1; a red panel
    has no hypothesis of the class that produces its labeling. Threshold and
    interval classifiers read only the first coordinate (vertical bands).
    One axes, one image and two scatters for up to 64 panels: an update only
    replaces their data. *move point* picks a point (ignored beyond the set's
    size) and *dx*, *dy* shift it from its preset position.

    Examples
    --------
    >>> figure = ShatteringExplorer()
    >>> figure.render(hypothesis_class="rectangle", preset="diamond")[1:4] == b"PNG"
    True
    >>> figure.title.get_text()
    'rectangles, diamond: 16/16 realizable, shattered'
    """

    benchmark = ("preset", list(PRESETS))
    figsize = (8.0, 5.6)
    dpi = 72
    _RES = 52    # pixels per panel side
    _VIEW = 1.2  # a panel shows [-1.2, 1.2]^2

    def controls(self):
        import ipywidgets as w

        names = [(name, key) for key, name in _NAMES.items()]
        small = w.Layout(width="185px")
        return {
            "hypothesis_class": w.Dropdown(options=names, value="halfspace", description="class",
                                           layout=small),
            "preset": w.Dropdown(options=PRESETS, value="triangle", description="points",
                                 layout=small),
            "seed": w.IntSlider(value=0, min=0, max=20, description="seed", layout=small),
            "point": w.Dropdown(options=list(range(6)), value=0, description="move point",
                                layout=small),
            "dx": w.FloatSlider(value=0.0, min=-1.0, max=1.0, step=0.05, description="dx",
                                layout=small),
            "dy": w.FloatSlider(value=0.0, min=-1.0, max=1.0, step=0.05, description="dy",
                                layout=small),
        }

    def setup(self, fig):
        from matplotlib.colors import to_rgb

        fig.set_layout_engine("none")
        self.ax = fig.add_axes([0.01, 0.01, 0.98, 0.93])
        self.ax.set_axis_off()
        # gutter, labelled 0, labelled 1, impossible, boundary: RGB bytes, no colormap
        colours = ["white", "#f3f4f6", "#bfdbfe", "#fecaca", "#1d4ed8"]
        self.palette = (255 * np.array([to_rgb(c) for c in colours])).astype(np.uint8)
        self.image = self.ax.imshow(np.zeros((2, 2, 3), np.uint8), interpolation="nearest",
                                    origin="upper")
        self.ones = self.ax.scatter([], [], s=22, c="#111827", zorder=3, label="label 1")
        self.zeros = self.ax.scatter([], [], s=22, marker="s", facecolors="white",
                                     edgecolors="#b91c1c", linewidths=1.2, zorder=3)
        self.title = fig.suptitle("", fontsize=12)
        r = self._RES
        u = ((np.arange(r) + 0.5) / r - 0.5) * 2 * self._VIEW / 0.9
        self.grid = np.column_stack([np.tile(u, r), np.repeat(-u, r)])  # row-major pixels
        self.inside = (np.abs(self.grid) <= self._VIEW).all(axis=1).reshape(r, r)

    def update(self, hypothesis_class, preset, seed, point, dx, dy):
        X = preset_points(preset, seed=seed)
        if point < len(X):
            X[point] = np.clip(X[point] + (dx, dy), -1.0, 1.0)
        one_d = _DIMENSION.get(hypothesis_class) == 1
        found = witness_hypotheses(X[:, :1] if one_d else X, hypothesis_class=hypothesis_class)
        n, r = len(X), self._RES
        rows = {0: 1, 1: 1, 2: 1, 3: 2, 4: 2, 5: 4, 6: 8}[n]  # wide grids for a wide figure
        cols = 2 ** n // rows
        panels = np.full((2 ** n, r, r), 3)  # impossible unless a witness exists
        for bits, h in found.items():
            positive = h.predict(self.grid[:, :1] if one_d else self.grid).reshape(r, r).astype(bool)
            edge = np.zeros_like(positive)
            edge[1:] |= positive[1:] != positive[:-1]
            edge[:, 1:] |= positive[:, 1:] != positive[:, :-1]
            panels[bits] = np.where(edge, 4, np.where(positive, 2, 1))
        panels[:, ~self.inside] = 0
        picture = panels.reshape(rows, cols, r, r).transpose(0, 2, 1, 3).reshape(rows * r, cols * r)
        self.image.set_data(self.palette[picture])
        self.image.set_extent((0, cols, 0, rows))
        labels = labelings(n)
        panel = np.repeat(np.arange(2 ** n), n)
        x = panel % cols + 0.5 + np.tile(X[:, 0], 2 ** n) * 0.45 / self._VIEW
        y = rows - panel // cols - 0.5 + np.tile(X[:, 1], 2 ** n) * 0.45 / self._VIEW
        flat = labels.ravel().astype(bool)
        size = {1: 60, 2: 50, 4: 40, 8: 16}[rows]
        self.ones.set_sizes([size])
        self.zeros.set_sizes([size])
        self.ones.set_offsets(np.column_stack([x[flat], y[flat]]))
        self.zeros.set_offsets(np.column_stack([x[~flat], y[~flat]]))
        self.ax.set(xlim=(0, cols), ylim=(0, rows))
        verdict = "shattered" if len(found) == 2 ** n else "not shattered"
        self.title.set_text(f"{_NAMES[hypothesis_class]}, {preset}: {len(found)}/{2 ** n} "
                            f"realizable, {verdict}")
