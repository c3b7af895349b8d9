r"""The AUC's sampling variance (DeLong et al. 1988) and the partial AUC (McClish 1989).

DeLong's estimator uses the *structural components* of the Mann–Whitney
statistic: for each positive the share of negatives it outscores
(:math:`V_{10}`), for each negative the share of positives that outscore it
(:math:`V_{01}`), ties counting one half. Both come from three rankings
(all samples, positives alone, negatives alone), :math:`O(m \log m)`, as in
Sun & Xu (2014). Checked in ``tests/test_evaluation.py`` against the
pairwise definition and against the bootstrap.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.stats import norm, rankdata

from .._validation import check_real
from ._measures import _check_binary, roc_curve


def _structural_components(positive, score):
    """(V10 per positive, V01 per negative) from mid-ranks; their means are the AUC."""
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    all_ranks = rankdata(score)
    v10 = (all_ranks[positive] - rankdata(score[positive])) / n_neg
    v01 = 1.0 - (all_ranks[~positive] - rankdata(score[~positive])) / n_pos
    return v10, v01


class DeLongResult(NamedTuple):
    """The result of :func:`delong_auc`."""

    auc: np.ndarray
    """The AUC of each scorer."""
    covariance: np.ndarray
    """DeLong's estimate of their covariance matrix (the variances on the diagonal)."""
    standard_error: np.ndarray
    """The square roots of the diagonal."""


def delong_auc(y_true, *y_scores, pos_label=None):
    r"""AUCs of one or more scorers on the same samples, with DeLong's covariance estimate.

    With :math:`V_{10}(i) = \frac{1}{m^-}\sum_j \psi(s_i, s_j)` for each
    positive, :math:`V_{01}(j) = \frac{1}{m^+}\sum_i \psi(s_i, s_j)` for each
    negative, :math:`\psi = 1` if the positive is scored higher, ½ if tied, 0
    otherwise, the AUC is the mean of either, and

    .. math::
        \widehat{\mathrm{Cov}}(\widehat{A}_r, \widehat{A}_s)
        = \frac{S_{10}^{rs}}{m^+} + \frac{S_{01}^{rs}}{m^-},

    :math:`S_{10}`, :math:`S_{01}` the sample covariances (divisor
    :math:`m - 1`) of the components across scorers (DeLong, DeLong &
    Clarke-Pearson 1988). It is a U-statistic (jackknife-type) estimate for a
    fixed set of trained scorers: it measures the test set's noise, not the
    training set's.

    Parameters
    ----------
    y_true : array_like of shape (m,)
        Two classes; ``pos_label`` positive (default 1 for 0/1 or ±1 labels).
    *y_scores : array_like of shape (m,)
        One or more scorers' finite scores.
    pos_label : label, optional

    Returns
    -------
    DeLongResult
        ``auc`` and ``standard_error`` of shape (k,), ``covariance`` (k, k).

    Examples
    --------
    >>> result = delong_auc([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> result.auc.round(4), result.standard_error.round(4)
    (array([0.8889]), array([0.1571]))
    """
    if not y_scores:
        raise TypeError("delong_auc needs at least one array of scores after y_true.")
    components = []
    for score in y_scores:
        positive, score = _check_binary(y_true, score, pos_label)
        components.append(_structural_components(positive, score))
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    if min(n_pos, n_neg) < 2:
        raise ValueError(f"y_true has {n_pos} positive(s) and {n_neg} negative(s); DeLong's "
                         "variance needs at least 2 of each.")
    v10 = np.array([c[0] for c in components])
    v01 = np.array([c[1] for c in components])
    covariance = (np.atleast_2d(np.cov(v10)) / n_pos + np.atleast_2d(np.cov(v01)) / n_neg)
    return DeLongResult(v10.mean(axis=1), covariance, np.sqrt(np.diag(covariance)))


class AUCComparison(NamedTuple):
    """The result of :func:`delong_test`."""

    difference: float
    """AUC of ``score_a`` minus AUC of ``score_b``."""
    standard_error: float
    """DeLong's standard error of the difference (the two are correlated)."""
    z: float
    """difference / standard_error."""
    p_value: float
    """Two-sided, from the normal approximation."""


def delong_test(y_true, score_a, score_b, *, pos_label=None):
    """DeLong's test that two scorers have the same AUC on the same samples.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> test = delong_test(y, [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.3, 0.7], [0.5, 0.4, 0.3, 0.8, 0.2, 0.6, 0.1, 0.7])
    >>> round(test.difference, 4), round(test.standard_error, 4)
    (0.0625, 0.0884)
    """
    result = delong_auc(y_true, score_a, score_b, pos_label=pos_label)
    difference = float(result.auc[0] - result.auc[1])
    c = result.covariance
    se = float(np.sqrt(max(c[0, 0] + c[1, 1] - 2 * c[0, 1], 0.0)))
    z = difference / se if se > 0 else (0.0 if difference == 0 else np.copysign(np.inf, difference))
    return AUCComparison(difference, se, float(z), float(2 * norm.sf(abs(z))))


def partial_auc(y_true, y_score, *, max_fpr, standardized=True, pos_label=None):
    r"""Area under the ROC curve for false positive rates up to ``max_fpr``.

    The curve is cut at ``max_fpr`` by linear interpolation. The raw area
    lies between :math:`\mathrm{max\_fpr}^2/2` (the diagonal) and
    ``max_fpr`` (a perfect scorer); McClish's (1989) standardization maps it
    to :math:`\frac12\bigl(1 + \frac{A - \min}{\max - \min}\bigr)`, so that a
    random scorer gets ½ and a perfect one 1, like the full AUC. This is what
    ``sklearn.metrics.roc_auc_score(max_fpr=...)`` returns.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`roc_curve`.
    max_fpr : float in (0, 1]
    standardized : bool, default=True
        McClish's standardization; ``False`` gives the raw area.

    Examples
    --------
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
    >>> round(partial_auc(y, s, max_fpr=0.5, standardized=False), 4), round(partial_auc(y, s, max_fpr=0.5), 4)
    (0.3889, 0.8519)
    """
    max_fpr = check_real(max_fpr, "max_fpr", low=0, high=1, low_open=True,
                         why="it is the largest false positive rate kept")
    if not isinstance(standardized, (bool, np.bool_)):
        raise TypeError(f"standardized must be True or False, got standardized={standardized!r}.")
    fpr, tpr, _ = roc_curve(y_true, y_score, pos_label=pos_label)
    stop = np.searchsorted(fpr, max_fpr, side="right")   # fpr[stop - 1] <= max_fpr < fpr[stop]
    if stop < fpr.size:
        cut = np.interp(max_fpr, fpr[stop - 1:stop + 1], tpr[stop - 1:stop + 1])
        x, y = np.r_[fpr[:stop], max_fpr], np.r_[tpr[:stop], cut]
    else:                                                  # max_fpr = 1: the whole curve
        x, y = fpr, tpr
    area = float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))
    if not standardized:
        return area
    low, high = max_fpr**2 / 2, max_fpr
    return float(0.5 * (1 + (area - low) / (high - low)))
