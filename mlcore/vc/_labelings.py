"""All labelings of a point set in :mod:`mlcore.vc`, decided exactly, and 0-1 ERM.

:func:`labelings`, the angular sweep of half-planes and the lifted arrangement
of discs, :func:`witness_hypotheses`, :func:`realizable_labelings`,
:func:`shatters` and :func:`erm_halfplane`.
"""

from __future__ import annotations

from functools import partial
from itertools import combinations

import numpy as np

from .._parallel import parallel_map
from .._validation import check_int, check_n_jobs, check_option
from ._hypotheses import (_CLOSED_FORM, _LP, Disc, HalfSpace, _check_labels, _check_points,
                          _far_disc, _interval_witness, _witness)

_MAX_POINTS = 20


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
    pad = 2 * np.maximum(1.0, 1e-6 * np.abs(ranked).max())  # 2, unless lost to rounding
    padded = np.column_stack([ranked[:, 0] + pad, ranked, ranked[:, -1] - pad])
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
    n_jobs = check_n_jobs(n_jobs)
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
        # the arrangement works in absolute units: solve it on standardized points, map back
        mean = unique.mean(axis=0)
        scale = np.abs(unique - mean).max() or max(1.0, 1e-6 * np.abs(mean).max())
        found = {k: Disc(h.center * scale + mean, h.radius * scale)
                 for k, h in _disc_arrangement((unique - mean) / scale).items()}
        found = {k: h for k, h in found.items()
                 if _bits(h.predict(unique)[None])[0] == k}  # keep only exact witnesses
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
    X, _ = _check_points(X, "halfspace", "X")
    if X.shape[1] != 2:
        raise ValueError(f"X must have shape (n_samples, 2) for half-planes, got shape {X.shape}.")
    y = _check_labels(y, len(X), "y", "X")
    unique = np.unique(X, axis=0)
    if len(unique) == 1:
        majority = 1.0 if 2 * y.sum() >= len(y) else -1.0  # one point: predict the majority
        return HalfSpace(np.array([1.0, 0.0]), float(majority - unique[0, 0]))
    W, b = _halfplane_candidates(unique)
    mistakes = ((X @ W.T + b >= 0) != y[:, None]).sum(axis=0)
    best = int(np.argmin(mistakes))
    return HalfSpace(W[best], float(b[best]))
