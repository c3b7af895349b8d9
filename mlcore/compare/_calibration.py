"""The tests of chapter 10 as calibrated instruments: exact null laws of the 5x2cv family,
and vectorized p-values of every two-learner test on the midpoint-classifier problem, for
calibration (type-I error, QQ plots) and power curves.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import as_generator, check_int, check_option, check_probability, check_real

CALIBRATED_TESTS = ["10-fold paired t", "resampled t (10 splits)", "corrected resampled t",
                    "10x10 CV t (uncorrected)", "10x10 corrected repeated CV t",
                    "5x2cv paired t", "5x2cv Zhou's t", "5x2cv mean-of-ten t", "5x2cv F",
                    "McNemar (corrected)", "McNemar (exact)", "McNemar (mid-p)"]


def five_by_two_null_sizes(*, n_draws=200_000, alpha=0.05, random_state=None):
    """Sizes of the 5x2cv statistics when the ten differences are iid :math:`N(0, \\sigma^2)`.

    Write :math:`d_{i,1} = (S_i + \\Delta_i)/2`, :math:`d_{i,2} = (S_i - \\Delta_i)/2`
    with :math:`S_i, \\Delta_i` iid :math:`N(0, 2\\sigma^2)`; then
    :math:`s_i^2 = \\Delta_i^2/2`. So

    - the mean of the ten, :math:`\\sum_i S_i/10`, is independent of every
      :math:`s_i^2`, and :math:`\\bar d/\\sqrt{\\sum_i s_i^2/50}` is exactly
      :math:`t_5` (size ``alpha``);
    - Dietterich's :math:`d_{1,1}/\\sqrt{\\sum_i s_i^2/5}` shares :math:`\\Delta_1`
      with its denominator: not :math:`t_5` (no closed form; simulated);
    - Zhou's variant with :math:`\\mu = (d_{1,1} + d_{1,2})/2 = S_1/2` is
      :math:`t_5/\\sqrt2` in law;
    - Alpaydin's :math:`F = \\sum d^2/(2\\sum s_i^2) = (1 + \\sum S_i^2/\\sum\\Delta_i^2)/2`
      is exactly :math:`(1 + F_{5,5})/2`, not :math:`F_{10,5}`.

    Parameters
    ----------
    n_draws : int in [10, 1e8], default=200_000
        Simulated sets of ten differences.
    alpha : float in [1e-15, 1), default=0.05
        The nominal level.
    random_state : int, Generator, RandomState or None, default=None

    Returns
    -------
    pandas.DataFrame
        One row per statistic: ``size`` (simulated rejection rate at nominal
        ``alpha`` with the reference law the test uses), its Monte Carlo
        ``se``, and ``exact`` (the size implied by the exact law; NaN for
        Dietterich's t).

    Examples
    --------
    >>> table = five_by_two_null_sizes(n_draws=20000, random_state=0)
    >>> exact = table.dropna()
    >>> bool(np.all(np.abs(exact["size"] - exact["exact"]) < 4 * exact["se"]))
    True
    """
    n_draws = check_int(n_draws, "n_draws", low=10, high=10**8)
    # Below 1e-15 SciPy's t and F quantiles fail (t.isf(5e-309, 5) is -inf,
    # f.isf(1e-20, 10, 5) is inf, giving sizes 1.0 and 2.0), and no affordable
    # n_draws could see a rejection anyway.
    alpha = check_real(alpha, "alpha", low=1e-15, high=1, high_open=True,
                       why="the nominal level; below 1e-15 the reference quantiles are unreliable")
    d = as_generator(random_state).normal(size=(n_draws, 5, 2))
    s2 = ((d - d.mean(axis=2, keepdims=True)) ** 2).sum(axis=2).sum(axis=1)     # sum_i s_i^2
    t_crit = stats.t.isf(alpha / 2, 5)
    f_crit = stats.f.isf(alpha, 10, 5)
    rejected = {
        "Dietterich's t (d11)": np.abs(d[:, 0, 0] / np.sqrt(s2 / 5)) > t_crit,
        "mean-of-ten t": np.abs(d.mean(axis=(1, 2)) / np.sqrt(s2 / 50)) > t_crit,
        "Zhou's t (mean of replication 1)": np.abs(d[:, 0, :].mean(axis=1) / np.sqrt(s2 / 5)) > t_crit,
        "Alpaydin's F": (d**2).sum(axis=(1, 2)) / (2 * s2) > f_crit,
    }
    exact = [np.nan, alpha, 2 * stats.t.sf(np.sqrt(2) * t_crit, 5), stats.f.sf(2 * f_crit - 1, 5, 5)]
    size = np.array([r.mean() for r in rejected.values()])
    return pd.DataFrame({"size": size, "se": np.sqrt(size * (1 - size) / n_draws), "exact": exact},
                        index=list(rejected))


def _accuracy_differences(X, y, train, test, learner="midpoint"):
    """Accuracy of learner A (feature 0) minus B (feature 1), for one split shared by all
    repetitions; also the per-sample correctness on the test points. ``learner`` is
    "midpoint" (:class:`MidpointClassifier`) or "1-nn" (nearest neighbour on the one feature)."""
    right = []
    for j in (0, 1):
        if learner == "1-nn":
            x_train, x_test = X[:, train, j], X[:, test, j]
            nearest = np.abs(x_test[:, :, None] - x_train[:, None, :]).argmin(axis=2)
            predicted = np.take_along_axis(y[:, train], nearest, axis=1)
            right.append(predicted == y[:, test])
            continue
        x_train, y_train = X[:, train, j], y[:, train]
        ones = y_train.sum(axis=1)
        mean1 = (x_train * y_train).sum(axis=1) / np.maximum(ones, 1)
        mean0 = (x_train * (1 - y_train)).sum(axis=1) / np.maximum(len(train) - ones, 1)
        upper = (mean1 >= mean0)[:, None]
        above = X[:, test, j] > ((mean0 + mean1) / 2)[:, None]
        right.append(np.where(above, upper, ~upper) == y[:, test].astype(bool))
    return right[0].mean(axis=1) - right[1].mean(axis=1), right


def _t_pvalues(d, variance_factor, df):
    """Two-sided p-values of mean(d) / sqrt(variance_factor * var(d)); 1 where var(d) = 0."""
    mean, var = d.mean(axis=1), d.var(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / np.sqrt(variance_factor * var)
    return np.where(var > 0, 2 * stats.t.sf(np.abs(t), df), 1.0)


def simulate_test_pvalues(*, weight=1.0, n_samples=60, n_repetitions=2000, learner="midpoint",
                          random_state=None):
    """p-values of every two-learner test of chapter 10, vectorized over repetitions.

    Each repetition draws ``n_samples`` points :math:`x \\sim N(0, I_2)`,
    :math:`y = 1[x_1 + w x_2 + \\varepsilon > 0]` (as
    :func:`two_feature_sampler`) and compares the midpoint learner on
    :math:`x_1` (A) with the one on :math:`x_2` (B), by the tests of
    :data:`CALIBRATED_TESTS`: with ``weight`` :math:`w = 1` the null is true
    (calibration), with :math:`w < 1` A is better (power). The learners are
    fitted with array arithmetic for all repetitions at once, so 10 x 10
    repeated cross-validation is cheap. ``learner="1-nn"`` replaces the
    stable midpoint rule by an unstable one, the nearest neighbour on the
    learner's feature (ties in distance go to the first training point).
    Every repetition draws its own splits (folds, random 90/10 splits,
    halvings), as a user of the tests does: one split shared by all
    repetitions would make the rates of the random-split tests conditional on
    how much that draw's test sets overlap. The McNemar tests use one half for
    training and the other for testing. A statistic with zero variance gets p = 1.

    Returns
    -------
    pandas.DataFrame of shape (n_repetitions, 12)

    Examples
    --------
    >>> p = simulate_test_pvalues(n_repetitions=400, random_state=0)
    >>> bool(p["resampled t (10 splits)"].le(0.05).mean() > p["corrected resampled t"].le(0.05).mean())
    True
    """
    weight = check_real(weight, "weight", low=-1e6, high=1e6, why="it is the second feature's weight")
    m = check_int(n_samples, "n_samples", low=20, high=10**5)
    reps = check_int(n_repetitions, "n_repetitions", low=1, high=10**6)
    learner = check_option(learner, "learner", ["midpoint", "1-nn"])
    rng = as_generator(random_state)
    X = rng.normal(size=(reps, m, 2))
    y = (X[:, :, 0] + weight * X[:, :, 1] + rng.normal(size=(reps, m)) > 0).astype(np.int8)
    columns = {}

    def shuffled():
        # A fresh random order of every repetition's points, so that fixed index sets
        # below are fresh random splits in each repetition (one gather, then fast
        # slicing). With one split shared by all repetitions, the random-split tests'
        # rates would be conditional on how much that draw's test sets overlap.
        order = rng.permuted(np.broadcast_to(np.arange(m), (reps, m)), axis=1)
        return np.take_along_axis(X, order[:, :, None], axis=1), np.take_along_axis(y, order, axis=1)

    def kfold(k):
        Xs, ys = shuffled()
        return np.column_stack([_accuracy_differences(Xs, ys, np.setdiff1d(np.arange(m), f), f,
                                                      learner)[0]
                                for f in np.array_split(np.arange(m), k)])

    d = kfold(10)
    columns["10-fold paired t"] = _t_pvalues(d, 1 / 10, 9)
    n_test = int(round(0.1 * m))
    test, train = np.arange(n_test), np.arange(n_test, m)
    d = np.column_stack([_accuracy_differences(*shuffled(), train, test, learner)[0]
                         for _ in range(10)])
    columns["resampled t (10 splits)"] = _t_pvalues(d, 1 / 10, 9)
    columns["corrected resampled t"] = _t_pvalues(d, 1 / 10 + n_test / (m - n_test), 9)
    d = np.column_stack([kfold(10) for _ in range(10)])                           # 10 x 10 CV
    n2 = m / 10
    columns["10x10 CV t (uncorrected)"] = _t_pvalues(d, 1 / 100, 99)
    columns["10x10 corrected repeated CV t"] = _t_pvalues(d, 1 / 100 + n2 / (m - n2), 99)
    first, second = np.arange(m // 2), np.arange(m // 2, m)
    halves = []
    for _ in range(5):
        Xs, ys = shuffled()
        halves.append([_accuracy_differences(Xs, ys, first, second, learner)[0],
                       _accuracy_differences(Xs, ys, second, first, learner)[0]])
    d = np.stack([np.column_stack(h) for h in halves], axis=1)                      # (reps, 5, 2)
    s2 = ((d - d.mean(axis=2, keepdims=True)) ** 2).sum(axis=2).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = d[:, 0, 0] / np.sqrt(s2 / 5)
        t10 = d.mean(axis=(1, 2)) / np.sqrt(s2 / 50)
        t_zhou = d[:, 0, :].mean(axis=1) / np.sqrt(s2 / 5)
        f = (d**2).sum(axis=(1, 2)) / (2 * s2)
    columns["5x2cv paired t"] = np.where(s2 > 0, 2 * stats.t.sf(np.abs(t), 5), 1.0)
    columns["5x2cv Zhou's t"] = np.where(s2 > 0, 2 * stats.t.sf(np.abs(t_zhou), 5), 1.0)
    columns["5x2cv mean-of-ten t"] = np.where(s2 > 0, 2 * stats.t.sf(np.abs(t10), 5), 1.0)
    columns["5x2cv F"] = np.where(s2 > 0, stats.f.sf(f, 10, 5), 1.0)
    _, (right_a, right_b) = _accuracy_differences(*shuffled(), first, second, learner)
    b = (right_a & ~right_b).sum(axis=1)
    c = (~right_a & right_b).sum(axis=1)
    n, low = b + c, np.minimum(b, c)
    with np.errstate(divide="ignore", invalid="ignore"):
        chi2 = np.maximum(np.abs(b - c) - 1, 0) ** 2 / n
    columns["McNemar (corrected)"] = np.where(n > 0, stats.chi2.sf(chi2, 1), 1.0)
    columns["McNemar (exact)"] = np.where(n > 0, np.minimum(1, 2 * stats.binom.cdf(low, n, 0.5)), 1.0)
    columns["McNemar (mid-p)"] = np.where(
        n > 0, np.minimum(1, 2 * stats.binom.cdf(low - 1, n, 0.5) + stats.binom.pmf(low, n, 0.5)), 1.0)
    return pd.DataFrame(columns)[CALIBRATED_TESTS]


def rejection_table(pvalues, *, alpha=0.05):
    """Rejection rate at ``alpha`` of each column of :func:`simulate_test_pvalues`, with its Monte Carlo s.e.

    Parameters
    ----------
    pvalues : pandas.DataFrame or array_like of shape (n_repetitions, n_tests)
        One column of p-values per test, each in [0, 1], at least one row.
    alpha : float in (0, 1), default=0.05

    Returns
    -------
    pandas.DataFrame
        Columns ``rate`` and ``se``, one row per test.

    Examples
    --------
    >>> rejection_table(pd.DataFrame({"t": [0.01, 0.2, 0.5, 0.04]}))["rate"].tolist()
    [0.5]
    """
    alpha = check_probability(alpha, "alpha", why="it is the level of the tests")
    if pvalues is None:
        raise TypeError("pvalues must be a DataFrame or 2-D array of p-values, got None.")
    pvalues = pd.DataFrame(pvalues)
    if pvalues.size == 0:
        raise ValueError(f"pvalues must hold at least one row and one column, got shape "
                         f"{pvalues.shape}.")
    values = pvalues.to_numpy()
    if values.dtype.kind not in "biuf" and not all(k in "biuf" for k in pvalues.dtypes.map(
            lambda d: d.kind)):
        raise TypeError(f"pvalues must hold numbers, got dtypes {sorted(set(map(str, pvalues.dtypes)))}.")
    values = values.astype(float)
    # A NaN would count as "not rejected" and a p above 1 is no p-value: both
    # would bias the rate silently.
    if not np.all((values >= 0) & (values <= 1)):
        bad = values[~((values >= 0) & (values <= 1))][0]
        raise ValueError(f"pvalues must lie in [0, 1] (no NaN), got a value {bad!r}.")
    rate = (pvalues <= alpha).mean()
    return pd.DataFrame({"rate": rate, "se": np.sqrt(rate * (1 - rate) / len(pvalues))})
