"""Hypothesis tests for comparing learners (chapter 10).

One learner against a claimed error rate (:func:`binomial_test_error`); two
learners on cross-validation results (:func:`paired_t_test_cv`,
:func:`corrected_resampled_t_test`, :func:`paired_t_test_5x2cv`,
:func:`f_test_5x2cv`) or on one test set (:func:`mcnemar_test`); many
learners on many data sets (:func:`friedman_test`,
:func:`nemenyi_critical_difference`). Each returns a :class:`TestResult`
and is checked against SciPy, statsmodels or mlxtend in
``tests/test_compare.py``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import special, stats
from sklearn.base import clone, is_classifier
from sklearn.metrics import get_scorer
from sklearn.model_selection import train_test_split
from .._validation import as_random_state as check_random_state  # every seed mlcore accepts

from .._validation import (check_array, check_bool, check_estimator_object, check_int, check_option,
                           check_probability)


class TestResult(NamedTuple):
    """A test's statistic, its p-value and the degrees of freedom of its null distribution."""

    statistic: float
    pvalue: float
    df: object = None


def _as_vector(values, name, *, min_size=1):
    values = check_array(values, name, allow_nan=True)   # numbers only; NaN worded below
    if values.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {values.shape}.")
    if values.size < min_size:
        raise ValueError(f"{name} needs at least {min_size} values, got {values.size}.")
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{name} contains NaN or inf.")
    if np.abs(values).max(initial=0.0) > 1e150:   # squared differences would overflow
        raise ValueError(f"{name} must lie within [-1e150, 1e150], got largest |value| "
                         f"{np.abs(values).max():g}.")
    return values


def _paired(a, b, name_a, name_b, min_size=2):
    a, b = _as_vector(a, name_a, min_size=min_size), _as_vector(b, name_b, min_size=min_size)
    if a.shape != b.shape:
        raise ValueError(f"{name_a} and {name_b} must have the same length (paired results), "
                         f"got {a.size} and {b.size}.")
    return a - b


def _unit_scale(d):
    """``d`` divided by its largest |value|: every statistic here is scale-invariant, and without
    this the squares of differences near 1e-300 underflow to 0 (a false "all equal")."""
    top = np.abs(d).max(initial=0.0)
    return d / top if top > 0 else d


def _t_p_value(t, df, alternative):
    if alternative == "two-sided":
        return float(2 * stats.t.sf(abs(t), df))
    return float(stats.t.sf(t, df) if alternative == "greater" else stats.t.cdf(t, df))


def binomial_test_error(n_errors, n_samples, epsilon0, *, alternative="greater"):
    """Exact binomial test of a classifier's error rate from its errors on a test set.

    The number of errors on :math:`m` independent test samples is
    Binomial(:math:`m`, :math:`\\epsilon`). With ``alternative="greater"``
    the null hypothesis is :math:`\\epsilon \\le \\epsilon_0` and the p-value is
    :math:`P(X \\ge k)` under :math:`\\epsilon_0`; a small p-value is evidence
    that the error rate *exceeds* :math:`\\epsilon_0`. To conclude that it is
    *below* :math:`\\epsilon_0`, test ``alternative="less"`` (p-value
    :math:`P(X \\le k)`): failing to reject the first null is not evidence for it.

    Parameters
    ----------
    n_errors : int
        Misclassified test samples :math:`k`, 0 <= k <= n_samples.
    n_samples : int
        Test samples :math:`m` >= 1.
    epsilon0 : float
        The error rate under the null hypothesis, in (0, 1).
    alternative : {"greater", "less", "two-sided"}

    Returns
    -------
    TestResult
        ``statistic`` is the observed error rate :math:`k/m`; ``df`` is ``None``.
        The p-value equals ``scipy.stats.binomtest(k, m, epsilon0, alternative).pvalue``.

    Examples
    --------
    >>> result = binomial_test_error(90, 300, 0.25)
    >>> round(result.statistic, 3), round(result.pvalue, 4)
    (0.3, 0.0283)
    """
    n_samples = check_int(n_samples, "n_samples", low=1)
    n_errors = check_int(n_errors, "n_errors", low=0, high=n_samples)
    epsilon0 = check_probability(epsilon0, "epsilon0", why="it is the error rate under H0")
    check_option(alternative, "alternative", ["greater", "less", "two-sided"])
    law = stats.binom(n_samples, epsilon0)
    if alternative == "greater":
        pvalue = law.sf(n_errors - 1)
    elif alternative == "less":
        pvalue = law.cdf(n_errors)
    else:
        # Sum the probabilities of every count no more likely than the one
        # observed (the rule of scipy.stats.binomtest), with its tolerance.
        pmf = law.pmf(np.arange(n_samples + 1))
        pvalue = min(1.0, float(pmf[pmf <= law.pmf(n_errors) * (1 + 1e-7)].sum()))
    return TestResult(n_errors / n_samples, float(pvalue))


def paired_t_test_cv(scores_a, scores_b, *, alternative="two-sided"):
    """Paired t-test on two learners' scores on the same K folds (or splits).

    :math:`t = \\sqrt K\\,\\bar d / s_d` with :math:`K - 1` degrees of freedom,
    :math:`d_i` the score differences. It assumes the :math:`d_i` independent;
    on K-fold results they are not (the training sets overlap), and the test
    rejects a true null too often (chapter 10 measures how often).

    Returns
    -------
    TestResult
        As ``scipy.stats.ttest_rel(scores_a, scores_b)``.

    Examples
    --------
    >>> paired_t_test_cv([0.90, 0.85, 0.88, 0.91], [0.86, 0.84, 0.85, 0.87]).df
    3
    """
    check_option(alternative, "alternative", ["two-sided", "greater", "less"])
    d = _unit_scale(_paired(scores_a, scores_b, "scores_a", "scores_b"))
    sd = d.std(ddof=1)
    if sd == 0:
        raise ValueError("the score differences are all equal; the t statistic is undefined.")
    t = float(d.mean() / (sd / np.sqrt(d.size)))
    return TestResult(t, _t_p_value(t, d.size - 1, alternative), d.size - 1)


def corrected_resampled_t_test(scores_a, scores_b, n_train, n_test, *, alternative="two-sided"):
    """Nadeau and Bengio's corrected resampled t-test.

    For :math:`J` random train/test splits with :math:`n_1` training and
    :math:`n_2` test samples, the variance of the mean difference is
    inflated from :math:`s_d^2/J` to :math:`(1/J + n_2/n_1)\\,s_d^2`, which
    accounts for the overlap of the training sets:
    :math:`t = \\bar d / \\sqrt{(1/J + n_2/n_1)\\,s_d^2}`, :math:`J - 1` degrees
    of freedom.

    Examples
    --------
    >>> result = corrected_resampled_t_test([0.9, 0.85, 0.88, 0.91], [0.86, 0.84, 0.85, 0.87],
    ...                                     n_train=90, n_test=10)
    >>> round(result.statistic, 3)
    3.53
    """
    check_option(alternative, "alternative", ["two-sided", "greater", "less"])
    d = _unit_scale(_paired(scores_a, scores_b, "scores_a", "scores_b"))
    n_train = check_int(n_train, "n_train", low=1)
    n_test = check_int(n_test, "n_test", low=1)
    variance = d.var(ddof=1)
    if variance == 0:
        raise ValueError("the score differences are all equal; the t statistic is undefined.")
    t = float(d.mean() / np.sqrt((1 / d.size + n_test / n_train) * variance))
    return TestResult(t, _t_p_value(t, d.size - 1, alternative), d.size - 1)


def _five_by_two_differences(estimator_a, estimator_b, X, y, scoring, random_state):
    """Score differences (5, 2) on the 5 x 2 splits mlxtend draws for the same seed."""
    rng = check_random_state(random_state)
    if scoring is None:
        scoring = "accuracy" if is_classifier(estimator_a) else "r2"
    try:
        scorer = get_scorer(scoring)
    except (ValueError, TypeError) as error:          # sklearn's InvalidParameterError is a ValueError
        raise ValueError(f"scoring must be None, a scikit-learn scorer name or a callable "
                         f"scorer(estimator, X, y), got scoring={scoring!r}.") from error
    differences = np.empty((5, 2))
    for i in range(5):
        seed = rng.randint(low=0, high=32767)
        X_1, X_2, y_1, y_2 = train_test_split(X, y, test_size=0.5, random_state=seed)
        for j, (X_fit, y_fit, X_eval, y_eval) in enumerate([(X_1, y_1, X_2, y_2), (X_2, y_2, X_1, y_1)]):
            a = clone(estimator_a).fit(X_fit, y_fit)
            b = clone(estimator_b).fit(X_fit, y_fit)
            try:
                differences[i, j] = scorer(a, X_eval, y_eval) - scorer(b, X_eval, y_eval)
            except (ValueError, TypeError) as error:   # a callable of the wrong signature, ...
                plain = ValueError if isinstance(error, ValueError) else TypeError
                raise plain(f"scoring={scoring!r:.80} could not score the fitted estimators "
                            f"(a scorer is called as scorer(estimator, X, y)): {error}") from error
    return differences


def _five_by_two(estimator_a, estimator_b, X, y, differences, scoring, random_state, statistic):
    """The (5, 2) differences (given, or computed on mlxtend's splits) and the variances s_i^2."""
    if differences is None:
        check_estimator_object(estimator_a, "estimator_a")
        check_estimator_object(estimator_b, "estimator_b")
        differences = _five_by_two_differences(estimator_a, estimator_b, X, y, scoring, random_state)
    d = check_array(differences, "differences", ndim=2)
    if d.shape != (5, 2) or np.abs(d).max() > 1e150:
        raise ValueError(f"differences must be a (5, 2) array of numbers within [-1e150, 1e150], "
                         f"got shape {d.shape}.")
    d = _unit_scale(d)   # the t and F statistics do not change; tiny differences no longer underflow
    variances = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    if variances.sum() == 0:
        raise ValueError(f"every 5x2 pair of differences is equal; the {statistic} statistic is undefined.")
    return d, variances


def paired_t_test_5x2cv(estimator_a=None, estimator_b=None, X=None, y=None, *, differences=None,
                        scoring=None, random_state=None):
    """Dietterich's 5 x 2 cv paired t-test.

    Five times, split the data in half at random, train both learners on each
    half and score them on the other: differences :math:`d_{i,1}, d_{i,2}`,
    with mean :math:`\\bar d_i` and variance
    :math:`s_i^2 = (d_{i,1} - \\bar d_i)^2 + (d_{i,2} - \\bar d_i)^2`. Then
    :math:`t = d_{1,1} / \\sqrt{\\tfrac15\\sum_i s_i^2}` has 5 degrees of freedom
    (two-sided p-value). Only the *first* difference is in the numerator.
    The reason is the dependence *between* replications: the five halvings
    reuse one data set, so the ten differences are positively correlated and
    their mean has a variance above :math:`\\sigma^2/10`, while one difference
    has variance :math:`\\sigma^2` whatever that correlation. (Under the
    idealized model of ten independent :math:`N(0, \\sigma^2)` differences the
    choice would be the wrong one: :math:`d_{1,1}` is not independent of
    :math:`s_1^2`, and the size at nominal 0.05 is 0.028, see
    :func:`five_by_two_null_sizes`.)

    Give either the two estimators with ``X`` and ``y`` (the splits are the
    ones ``mlxtend.evaluate.paired_ttest_5x2cv`` draws for the same
    ``random_state``), or the (5, 2) array of ``differences``.

    Examples
    --------
    >>> d = np.array([[0.02, 0.01], [0.03, -0.01], [0.0, 0.02], [0.01, 0.01], [0.02, 0.0]])
    >>> round(paired_t_test_5x2cv(differences=d).statistic, 3)
    1.265
    """
    d, variances = _five_by_two(estimator_a, estimator_b, X, y, differences, scoring, random_state, "t")
    t = float(d[0, 0] / np.sqrt(variances.mean()))
    return TestResult(t, float(2 * stats.t.sf(abs(t), 5)), 5)


def f_test_5x2cv(estimator_a=None, estimator_b=None, X=None, y=None, *, differences=None,
                 scoring=None, random_state=None):
    """Alpaydin's combined 5 x 2 cv F test.

    Uses all ten differences: :math:`F = \\sum_{i,j} d_{i,j}^2 / (2\\sum_i s_i^2)`,
    referred to the F distribution with (10, 5) degrees of freedom. (Numerator
    and denominator share :math:`\\sum_i s_i^2`; with ten independent normal
    differences :math:`F` is exactly :math:`(1 + F_{5,5})/2`, and the test's
    size at nominal 0.05 is 0.0175: it is conservative by construction.) Arguments as
    in :func:`paired_t_test_5x2cv` (the same splits as
    ``mlxtend.evaluate.combined_ftest_5x2cv``).

    Examples
    --------
    >>> d = np.array([[0.02, 0.01], [0.03, -0.01], [0.0, 0.02], [0.01, 0.01], [0.02, 0.0]])
    >>> round(f_test_5x2cv(differences=d).statistic, 3)
    1.0
    """
    d, variances = _five_by_two(estimator_a, estimator_b, X, y, differences, scoring, random_state, "F")
    f = float((d**2).sum() / (2 * variances.sum()))
    return TestResult(f, float(stats.f.sf(f, 10, 5)), (10, 5))


def mcnemar_test(y_true, y_pred_a, y_pred_b, *, correction=True, method="chi2"):
    """McNemar's test of two *fitted* classifiers on one test set.

    Only the samples on which they disagree count: :math:`b` (A right, B
    wrong) and :math:`c` (A wrong, B right). Under the null of equal error
    rates :math:`b` is Binomial(:math:`b + c`, ½). The test is about these two
    trained models: it ignores the variation due to the training set.

    Parameters
    ----------
    y_true, y_pred_a, y_pred_b : array_like of shape (n_samples,)
    correction : bool, default=True
        With ``method="chi2"``: the continuity-corrected
        :math:`\\chi^2 = \\max(|b - c| - 1, 0)^2/(b + c)`, else :math:`(b - c)^2/(b + c)`,
        referred to :math:`\\chi^2_1`.
    method : {"chi2", "exact", "mid-p"}, default="chi2"
        ``"exact"``: the two-sided binomial p-value
        :math:`\\min(1, 2P(B \\le \\min(b, c)))`; ``"mid-p"``: the same with half
        the probability of the observed count,
        :math:`\\min(1, 2P(B < \\min(b, c)) + P(B = \\min(b, c)))`, which is
        less conservative (Fagerland, Lydersen and Laake 2013). For both the
        statistic is :math:`\\min(b, c)`.

    Returns
    -------
    TestResult
        ``df`` is ``(b, c)``. For ``"chi2"`` and ``"exact"`` as
        ``statsmodels.stats.contingency_tables.mcnemar(table, exact=...,
        correction=correction)``, with one documented difference: when
        :math:`b = c` the corrected statistic is clipped at 0 (p = 1, no
        evidence either way), where statsmodels squares :math:`|b - c| - 1 = -1`
        and returns :math:`1/(b + c)`.

    Examples
    --------
    >>> y = np.array([1, 1, 0, 0, 1, 0, 1, 0, 1, 1])
    >>> a = np.array([1, 1, 0, 0, 1, 0, 1, 1, 1, 1])
    >>> b = np.array([0, 1, 1, 0, 0, 1, 1, 0, 1, 0])
    >>> result = mcnemar_test(y, a, b)
    >>> result.df, round(result.statistic, 3)
    ((5, 1), 1.5)
    >>> round(mcnemar_test(y, a, b, method="mid-p").pvalue, 4)
    0.125
    """
    check_bool(correction, "correction")
    check_option(method, "method", ["chi2", "exact", "mid-p"])
    arrays = []
    for name, value in [("y_true", y_true), ("y_pred_a", y_pred_a), ("y_pred_b", y_pred_b)]:
        if value is None:
            raise TypeError(f"{name} must be an array of labels, got None.")
        arrays.append(np.asarray(value))
    y_true, a, b_pred = arrays
    if not (y_true.ndim == a.ndim == b_pred.ndim == 1) or not (y_true.size == a.size == b_pred.size):
        raise ValueError(f"y_true, y_pred_a and y_pred_b must be 1-D of one length, got shapes "
                         f"{y_true.shape}, {a.shape}, {b_pred.shape}.")
    right_a, right_b = a == y_true, b_pred == y_true
    b = int(np.sum(right_a & ~right_b))
    c = int(np.sum(~right_a & right_b))
    if b + c == 0:
        raise ValueError("the two classifiers never disagree; McNemar's statistic is undefined.")
    if method != "chi2":
        law = stats.binom(b + c, 0.5)
        low = min(b, c)
        pvalue = 2 * law.cdf(low) if method == "exact" else 2 * law.cdf(low - 1) + law.pmf(low)
        return TestResult(float(low), float(min(1.0, pvalue)), (b, c))
    statistic = (max(abs(b - c) - 1, 0) if correction else abs(b - c)) ** 2 / (b + c)
    return TestResult(float(statistic), float(stats.chi2.sf(statistic, 1)), (b, c))


def average_ranks(scores):
    """Rank the learners on each data set (1 = best, i.e. highest score; ties share) and average.

    Parameters
    ----------
    scores : array_like of shape (n_datasets, n_learners)
        Higher is better (accuracy, AUC); pass ``-error`` for error rates.

    Notes
    -----
    Scores are compared exactly, as stored: two means that are equal in exact
    arithmetic but differ in the last bit (summed in another order) are *not*
    tied. Round float scores that should tie first, e.g. to 12 decimals, or
    rank exact quantities such as pooled error counts (:func:`friedman_test`
    and :func:`nemenyi_pvalues` rank the same way).

    Examples
    --------
    >>> average_ranks([[0.9, 0.8, 0.7], [0.6, 0.6, 0.9]]).tolist()
    [1.75, 2.25, 2.0]
    """
    scores = _score_table(scores)
    # Rank the scores themselves (largest -> rank k), in their own dtype: casting int64 beyond
    # 2**53 to float would create ties, and negating would overflow at the smallest integer.
    return (scores.shape[1] + 1 - stats.rankdata(scores, axis=1)).mean(axis=0)


def _score_table(scores):
    """``scores`` as a finite 2-D array, integer dtypes kept (exact ranks beyond 2**53)."""
    table = np.asarray(scores)
    if table.dtype.kind not in "iu":
        table = check_array(scores, "scores", allow_nan=True)
    if table.ndim != 2 or table.shape[0] < 2 or table.shape[1] < 2:
        raise ValueError(f"scores must be (n_datasets, n_learners) with at least 2 of each, "
                         f"got shape {table.shape}.")
    if table.dtype.kind == "f" and not np.all(np.isfinite(table)):
        raise ValueError("scores contains NaN or inf.")
    return table


def friedman_test(scores, *, iman_davenport=False):
    """Friedman's test that k learners perform alike on N data sets, from their ranks.

    :math:`\\chi^2_F = \\frac{12N}{k(k+1)}\\bigl[\\sum_j R_j^2 - \\frac{k(k+1)^2}{4}\\bigr]`,
    :math:`R_j` the average ranks, divided by the tie correction
    :math:`1 - \\sum (t^3 - t)/(Nk(k^2-1))` (as ``scipy.stats.friedmanchisquare``);
    :math:`\\chi^2_{k-1}` under the null. Iman and Davenport's
    :math:`F_F = \\frac{(N-1)\\chi^2_F}{N(k-1) - \\chi^2_F}` is F-distributed with
    :math:`(k-1, (k-1)(N-1))` degrees of freedom and less conservative.

    Examples
    --------
    >>> scores = [[0.9, 0.8, 0.7], [0.8, 0.75, 0.7], [0.95, 0.9, 0.85], [0.7, 0.72, 0.6]]
    >>> round(friedman_test(scores).statistic, 3)
    6.5
    """
    iman_davenport = check_bool(iman_davenport, "iman_davenport")
    scores = _score_table(scores)
    ranks_mean = average_ranks(scores)
    n, k = scores.shape
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(ranks_mean**2) - k * (k + 1) ** 2 / 4)
    ties = 0.0
    for row in scores:
        _, counts = np.unique(row, return_counts=True)
        ties += np.sum(counts**3 - counts)
    correction = 1 - ties / (n * k * (k**2 - 1))
    if correction <= 0:
        raise ValueError("every learner ties on every data set; the statistic is undefined.")
    chi2 = float(chi2 / correction)
    if not iman_davenport:
        return TestResult(chi2, float(stats.chi2.sf(chi2, k - 1)), k - 1)
    denominator = n * (k - 1) - chi2
    f = np.inf if denominator <= 0 else (n - 1) * chi2 / denominator
    df = (k - 1, (k - 1) * (n - 1))
    return TestResult(float(f), float(stats.f.sf(f, *df)), df)


def nemenyi_critical_difference(n_learners, n_datasets, *, alpha=0.05):
    """Nemenyi's critical difference of average ranks: :math:`q_\\alpha\\sqrt{k(k+1)/(6N)}`.

    Two learners whose average ranks differ by more than this perform
    differently at level :math:`\\alpha` (all pairs at once).
    :math:`q_\\alpha` is the studentized range quantile for :math:`k` groups
    and infinite degrees of freedom, divided by :math:`\\sqrt 2`
    (Demšar 2006, Table 5: 2.728 for k = 5 at 0.05). Below ``alpha`` = 1e-10,
    where SciPy's quantile is unreliable, the far-tail pairwise (Bonferroni)
    limit is used.

    Examples
    --------
    >>> round(nemenyi_critical_difference(5, 10), 3)
    1.929
    """
    k = check_int(n_learners, "n_learners", low=2)
    n = check_int(n_datasets, "n_datasets", low=1)
    alpha = check_probability(alpha, "alpha", why="it is the level of the test")
    if alpha >= 1e-10:
        q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2)
    else:
        # SciPy's studentized-range quantile saturates (at 100 or inf) below ~1e-12. In the far
        # tail the range exceeds q when one of the k(k-1)/2 pairs does: P = k(k-1) P(Z > q/sqrt 2)
        # (equal to SciPy's to 4e-6 relative at alpha = 1e-10, k <= 10).
        # On the log scale: alpha / (k(k-1)) underflows to 0 for alpha = 5e-324 (q = inf).
        q = -special.ndtri_exp(np.log(alpha) - np.log(k * (k - 1)))
    return float(q * np.sqrt(k * (k + 1) / (6 * n)))
