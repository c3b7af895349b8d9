"""Many learners on many data sets, beyond Friedman and Nemenyi (chapter 10).

:func:`nemenyi_pvalues` (Nemenyi's all-pairs test as p-values),
:func:`wilcoxon_holm` (Wilcoxon signed-rank tests with Holm's step-down
correction, Demšar's recommendation for pairs) and
:func:`bayesian_signed_rank` (Benavoli et al.'s Bayesian signed-rank test
with a region of practical equivalence, the only one of these that can
conclude "equivalent"). Checked against scikit-posthocs and baycomp in
``tests/test_compare.py``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import as_random_state, check_int, check_real
from ._tests import _paired, _score_table, average_ranks


def _names(names, k):
    names = list(range(k)) if names is None else list(names)
    if len(names) != k:
        raise ValueError(f"names must have one entry per learner ({k}), got {len(names)}.")
    return names


def nemenyi_pvalues(scores, *, names=None):
    """Nemenyi's all-pairs p-values from the average ranks of k learners on N data sets.

    For learners i and j, :math:`q = |R_i - R_j|/\\sqrt{k(k+1)/(6N)}` and the
    p-value is the upper tail of the studentized range (k groups, infinite
    degrees of freedom) at :math:`q\\sqrt2`: the p-value form of
    :func:`nemenyi_critical_difference` (a pair differs at level α exactly
    when its p-value is at most α). As
    ``scikit_posthocs.posthoc_nemenyi_friedman``.

    Parameters
    ----------
    scores : array_like of shape (n_datasets, n_learners)
        Higher is better.
    names : sequence of length n_learners, optional

    Returns
    -------
    pandas.DataFrame
        Symmetric k x k, ones on the diagonal.

    Examples
    --------
    >>> p = nemenyi_pvalues([[0.9, 0.8, 0.7], [0.8, 0.75, 0.7], [0.95, 0.9, 0.85], [0.7, 0.72, 0.6]])
    >>> round(float(p.iloc[0, 2]), 4)
    0.0356
    """
    table = _score_table(scores)
    n, k = table.shape
    ranks = average_ranks(table)
    q = np.abs(ranks[:, None] - ranks[None, :]) / np.sqrt(k * (k + 1) / (6 * n))
    p = stats.studentized_range.sf(q * np.sqrt(2), k, np.inf)
    np.fill_diagonal(p, 1.0)
    labels = _names(names, k)
    return pd.DataFrame(np.minimum(p, 1.0), index=labels, columns=labels)


def _holm(pvalues):
    """Holm's step-down adjusted p-values (as statsmodels' multipletests(method="holm"))."""
    pvalues = np.asarray(pvalues, dtype=float)
    order = np.argsort(pvalues, kind="stable")
    m = pvalues.size
    stepped = np.maximum.accumulate((m - np.arange(m)) * pvalues[order])
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(stepped, 1.0)
    return adjusted


def wilcoxon_holm(scores, *, names=None, control=None):
    """Wilcoxon signed-rank tests between learners over data sets, Holm-corrected.

    Each pair (or each learner against ``control``) is tested by
    ``scipy.stats.wilcoxon`` on its N paired scores (zeros dropped, exact
    null law when possible), and the p-values of the family are adjusted
    by Holm's step-down procedure, which controls the family-wise error
    without Nemenyi's dependence on the *other* learners' ranks: adding or
    removing a third learner does not change a pair's raw p-value.

    Parameters
    ----------
    scores : array_like of shape (n_datasets, n_learners)
    names : sequence of length n_learners, optional
    control : name or index, optional
        Compare every learner with this one only (k - 1 tests).

    Returns
    -------
    pandas.DataFrame
        All pairs: a symmetric k x k matrix of adjusted p-values (ones on the
        diagonal), as ``scikit_posthocs.posthoc_wilcoxon(scores.T,
        p_adjust="holm")``. With ``control``: one row per other learner, with
        ``pvalue`` and ``holm_pvalue``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> scores = rng.normal(size=(12, 3)) + [0.0, 0.0, 1.5]
    >>> p = wilcoxon_holm(scores, names=["a", "b", "c"])
    >>> bool(p.loc["a", "c"] < 0.05 < p.loc["a", "b"])
    True
    """
    table = _score_table(scores).astype(float)
    n, k = table.shape
    labels = _names(names, k)
    if control is not None:
        if control not in labels:
            raise ValueError(f"control must be one of the learners' names {labels}, got control={control!r}.")
        j = labels.index(control)
        others = [i for i in range(k) if i != j]
        raw = np.array([_wilcoxon_p(table[:, i], table[:, j]) for i in others])
        return pd.DataFrame({"pvalue": raw, "holm_pvalue": _holm(raw)}, index=[labels[i] for i in others])
    upper = np.triu_indices(k, 1)
    raw = np.array([_wilcoxon_p(table[:, i], table[:, j]) for i, j in zip(*upper)])
    p = np.ones((k, k))
    p[upper] = _holm(raw)
    p[upper[::-1]] = p[upper]
    return pd.DataFrame(p, index=labels, columns=labels)


def _wilcoxon_p(a, b):
    if np.all(a == b):
        return 1.0                                         # no evidence of a difference
    return float(stats.wilcoxon(a, b).pvalue)


class BayesianSignedRank(NamedTuple):
    """Posterior probabilities that A is better, that the two are practically equivalent, that B is better."""

    p_a_better: float
    p_rope: float
    p_b_better: float


def bayesian_signed_rank(scores_a, scores_b, *, rope=0.01, prior=0.5, n_samples=50000,
                         random_state=None):
    """Benavoli et al.'s Bayesian signed-rank test with a region of practical equivalence.

    The N score differences :math:`z_i = b_i - a_i` over data sets, plus one
    pseudo-observation at 0 of weight ``prior``, get a Dirichlet-process
    posterior: a draw gives weights :math:`w` on these N + 1 points, and
    :math:`\\theta_\\text{left} = \\sum_{i,j} w_i w_j\\,1[z_i + z_j < -2r]`,
    :math:`\\theta_\\text{right}` likewise with :math:`> 2r` (ties count ½),
    :math:`\\theta_\\text{rope} = 1 - \\theta_\\text{left} - \\theta_\\text{right}`
    (Walsh averages beyond ± ``rope`` :math:`r`). The returned probabilities
    are the shares of posterior draws in which each of the three is the
    largest. A large ``p_rope`` says that a difference within ± ``rope`` is
    the most probable outcome on a data set like these (not that the mean
    scores differ by less than ``rope``): *practical equivalence*, a
    conclusion no null-hypothesis test can draw. The draws are
    ``baycomp.SignedRankTest``'s for the same integer ``random_state``, so
    the numbers are equal.

    Parameters
    ----------
    scores_a, scores_b : array_like of shape (n_datasets,)
        Higher is better (e.g. mean accuracies).
    rope : float, default=0.01
        Half-width of the region of practical equivalence, in score units; 0
        for no region (then ``p_rope`` is 0).
    prior : float, default=0.5
        Weight of the pseudo-observation at 0.
    n_samples : int, default=50000
        Posterior draws.
    random_state : int, RandomState or None

    Returns
    -------
    BayesianSignedRank
        ``(p_a_better, p_rope, p_b_better)``.

    Examples
    --------
    >>> a = np.array([0.80, 0.71, 0.92, 0.65, 0.88, 0.77, 0.83, 0.90])
    >>> result = bayesian_signed_rank(a, a + 0.002, rope=0.01, random_state=0)
    >>> result.p_rope > 0.95
    True
    """
    d = _paired(scores_b, scores_a, "scores_b", "scores_a", min_size=1)
    rope = check_real(rope, "rope", low=0, why="it is the half-width of the region of practical equivalence")
    prior = check_real(prior, "prior", low=0, low_open=True, why="it is the weight of the pseudo-observation")
    n_samples = check_int(n_samples, "n_samples", low=1, high=10**7)
    z = np.concatenate([[0.0], d])
    sums = z[:, None] + z[None, :]

    def heaviside(a, threshold):
        return (a > threshold).astype(float) + 0.5 * (a == threshold)

    weights = np.ones(z.size)
    weights[0] = prior
    draws = as_random_state(random_state).dirichlet(weights, n_samples)
    right = np.einsum("si,ij,sj->s", draws, heaviside(sums, 2 * rope), draws)
    if rope > 0:
        left = np.einsum("si,ij,sj->s", draws, heaviside(-sums, 2 * rope), draws)
    else:
        left = 1 - right
    sample = np.column_stack([left, 1 - left - right, right])
    if rope == 0:
        sample[:, 1] = 0.0
    winners = np.bincount(np.argmax(sample, axis=1), minlength=3) / n_samples
    return BayesianSignedRank(*map(float, winners))
