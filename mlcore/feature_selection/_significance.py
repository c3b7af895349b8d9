"""Significance for filters (chapter 7): the G-test of independence for every feature at once
(:math:`G = 2m\\,\\widehat{\\mathrm{MI}}`, asymptotically :math:`\\chi^2`) and the
Benjamini-Hochberg step-up rule that controls the false discovery rate.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from .._validation import check_array, check_real
from ._filter import _check_class_labels, mi_scores


def g_test_scores(X, y, *, binarize=None):
    """G statistic and p-value of the test "feature presence is independent of the class", per column.

    The likelihood-ratio (G) statistic of a contingency table equals
    :math:`2m` times the plug-in mutual information in nats,
    :math:`G = 2m\\,\\widehat{\\mathrm{MI}}`, and under independence it is
    asymptotically :math:`\\chi^2` with :math:`(|X|-1)(|Y|-1)` degrees of
    freedom (here :math:`|X| = 2`). Equals
    ``scipy.stats.chi2_contingency(table, correction=False, lambda_="log-likelihood")``
    column by column (tested), for all columns at once.

    Parameters
    ----------
    X : array_like or sparse matrix of shape (m, n)
        0/1 presence values, or any real values with ``binarize`` (as in :func:`mi_scores`).
    y : array_like of shape (m,)
        Class labels.
    binarize : float or None, default=None
        As in :func:`mi_scores`.

    Returns
    -------
    G : ndarray of shape (n,)
    p_values : ndarray of shape (n,)

    Examples
    --------
    >>> X = np.array([[1, 0]] * 6 + [[0, 1]] * 2 + [[0, 0]] * 8)
    >>> y = [1] * 6 + [1] * 2 + [0] * 8
    >>> G, p = g_test_scores(X, y)
    >>> G.round(3), p.round(4)
    (array([12.173,  3.059]), array([0.0005, 0.0803]))
    """
    y = _check_class_labels(y)
    n_classes = np.unique(y).size
    mi = mi_scores(X, y, binarize=binarize)
    G = 2.0 * len(y) * mi
    return G, stats.chi2.sf(G, df=n_classes - 1)


def benjamini_hochberg(p_values, q=0.05):
    """Which hypotheses the Benjamini-Hochberg step-up rule rejects at false discovery rate ``q``.

    Sort the :math:`N` p-values, :math:`p_{(1)} \\le \\dots \\le p_{(N)}`, find
    the largest :math:`i` with :math:`p_{(i)} \\le q\\,i/N`, and reject the
    hypotheses with the :math:`i` smallest p-values. For independent (or
    positively dependent) tests the expected share of false rejections among
    the rejections is at most :math:`q`. Rejects exactly the hypotheses whose
    ``scipy.stats.false_discovery_control(p_values)`` is ``<= q`` (tested).

    Parameters
    ----------
    p_values : array_like of shape (N,)
        In [0, 1].
    q : float, default=0.05
        Target false discovery rate, in (0, 1).

    Returns
    -------
    ndarray of bool, shape (N,)

    Examples
    --------
    >>> benjamini_hochberg([0.001, 0.008, 0.025, 0.039, 0.6], q=0.05).tolist()
    [True, True, True, True, False]
    >>> benjamini_hochberg([0.02, 0.03], q=0.01).tolist()
    [False, False]
    """
    p = check_array(p_values, "p_values", ndim=1, min_length=1)
    if np.any((p < 0) | (p > 1)):
        raise ValueError(f"p_values must lie in [0, 1], got values from {p.min():g} to {p.max():g}.")
    q = check_real(q, "q", low=0, high=1, low_open=True, high_open=True,
                   why="it is the target false discovery rate")
    order = np.argsort(p, kind="stable")
    thresholds = q * np.arange(1, p.size + 1) / p.size
    passing = np.flatnonzero(p[order] <= thresholds)
    reject = np.zeros(p.size, dtype=bool)
    if passing.size:
        reject[order[: passing[-1] + 1]] = True
    return reject
