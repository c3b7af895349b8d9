"""Simulations of chapter 10: the bias-variance decomposition, No Free Lunch
on a tiny domain, and the type-I error and power of the tests of
:mod:`mlcore.compare`.
"""

from __future__ import annotations

import copy
import itertools
import math
from functools import partial

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data
from sklearn.model_selection import KFold
from .._validation import as_random_state as check_random_state  # every seed mlcore accepts

from .._parallel import parallel_map
from .._validation import naming
from .._validation import (as_generator, check_estimator_object, check_int, check_n_jobs, check_option,
                           check_probability, check_real)
from ._tests import (corrected_resampled_t_test, f_test_5x2cv, mcnemar_test, paired_t_test_5x2cv,
                     paired_t_test_cv)


# -- bias and variance -----------------------------------------------------------------
def bias_variance_decomposition(estimator, X_train, y_train, X_test, y_test, *, loss="mse",
                                n_rounds=200, random_state=None):
    """Expected loss, bias and variance of a learner, by bootstrap training sets.

    The learner is trained on ``n_rounds`` bootstrap samples of the training
    set and predicts the test set each time. With ``loss="mse"`` the *main
    prediction* is the mean prediction :math:`\\bar f(x)` and
    expected loss = bias² + variance exactly, where bias² is the mean of
    :math:`(\\bar f(x) - y)^2` and variance the mean of
    :math:`(f(x; D) - \\bar f(x))^2`. With ``loss="0-1"`` the main prediction
    is the most frequent one (Domingos' decomposition; the terms no longer
    add up). The test labels play the role of :math:`y`, so the noise is
    inside the bias term (chapter 10 separates it with a known truth).
    Same resamples and numbers as ``mlxtend.evaluate.bias_variance_decomp``
    for the same integer ``random_state``.

    Returns
    -------
    expected_loss, bias, variance : float
        For ``"mse"``, ``bias`` is the squared bias.

    Examples
    --------
    >>> from sklearn.linear_model import LinearRegression
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, (60, 1)); y = X[:, 0] ** 2 + rng.normal(scale=0.1, size=60)
    >>> loss, bias, var = bias_variance_decomposition(LinearRegression(), X[:40], y[:40],
    ...                                               X[40:], y[40:], random_state=1)
    >>> bool(np.isclose(loss, bias + var))
    True
    """
    check_estimator_object(estimator, "estimator")
    check_option(loss, "loss", ["mse", "0-1"])
    n_rounds = check_int(n_rounds, "n_rounds", low=1)
    X_train, y_train = np.asarray(X_train), np.asarray(y_train)
    X_test, y_test = np.asarray(X_test), np.asarray(y_test)
    if len(X_train) != len(y_train) or len(X_test) != len(y_test):
        raise ValueError("X_train/y_train and X_test/y_test must have matching lengths, got "
                         f"{len(X_train)}/{len(y_train)} and {len(X_test)}/{len(y_test)}.")
    if loss == "mse":   # squared errors of targets beyond 1e150 overflow (the estimator's too)
        for name, values in (("y_train", y_train), ("y_test", y_test)):
            if values.dtype.kind not in "biuf":
                raise TypeError(f"{name} must hold real numbers with loss='mse', got dtype "
                                f"{values.dtype}.")
            if values.size and not np.abs(values.astype(float)).max() <= 1e150:
                raise ValueError(f"{name} must be finite and within [-1e150, 1e150] with "
                                 f"loss='mse' (its squared errors would overflow), got largest "
                                 f"|{name}| {np.abs(values.astype(float)).max():g}; rescale it.")
    rng = check_random_state(random_state)   # mlcore's as_random_state: every accepted seed
    predictions = np.empty((n_rounds, len(y_test)), dtype=float if loss == "mse" else np.int64)
    indices = np.arange(len(X_train))
    for i in range(n_rounds):
        rows = rng.choice(indices, size=indices.size, replace=True)
        predictions[i] = clone(estimator).fit(X_train[rows], y_train[rows]).predict(X_test)
    # Finite predictions beyond 1e150 (a regression on X near 1e-308) still
    # overflow once squared: refuse them like NaN, never return inf.
    if loss == "mse" and not np.all(np.abs(predictions) <= 1e150):
        raise ValueError("the estimator returned NaN or inf predictions, or predictions beyond "
                         "1e150 in magnitude whose squared errors overflow (e.g. on subnormal or "
                         "extreme X_train values); rescale X_train and X_test.")
    if loss == "mse":
        main = predictions.mean(axis=0)
        expected = float(np.mean((predictions - y_test) ** 2))
        return expected, float(np.mean((main - y_test) ** 2)), float(np.mean((predictions - main) ** 2))
    main = np.array([np.argmax(np.bincount(column)) for column in predictions.T])
    expected = float(np.mean(predictions != y_test))
    return expected, float(np.mean(main != y_test)), float(np.mean(predictions != main))


def polynomial_bias_variance(true_function, degrees, *, n_samples=25, noise=0.3, n_datasets=500,
                             x_range=(0.0, 1.0), n_test=200, design="uniform", n_groups=20,
                             random_state=None):
    """Bias², variance and noise of least-squares polynomials, with a known truth.

    Draws ``n_datasets`` training sets of ``n_samples`` points,
    :math:`y = f(x) + \\varepsilon`, :math:`\\varepsilon \\sim N(0, \\text{noise}^2)`,
    with :math:`x \\sim U(x_\\text{range})` (``design="uniform"``) or the same
    equally spaced :math:`x` in every set (``design="grid"``, a fixed design:
    only the labels are random). It fits a polynomial of each degree to each
    set (one batched least-squares solve per degree) and evaluates on
    ``n_test`` fixed grid points: variance = mean over x of the sample
    variance (ddof 1) of :math:`f(x; D)`; bias² = mean over x of
    :math:`(\\bar f(x) - f(x))^2 - s^2(x)/n`, which removes the Monte Carlo
    noise of :math:`\\bar f` (the plain square overstates bias² by
    variance/``n_datasets``, which dominates where the true bias² is tiny), so
    it is unbiased and can come out slightly negative; and the expected
    squared error against a fresh noisy label, estimated directly, which
    equals bias² + variance + noise² up to Monte Carlo error.

    Each estimate carries a Monte Carlo standard error, from a delete-a-group
    jackknife over ``n_groups`` groups of training sets. With
    ``design="grid"`` the fit is linear in the labels, so bias² and variance
    are also computed exactly (``bias2_exact``, ``variance_exact``).

    Returns
    -------
    pandas.DataFrame
        Indexed by degree: ``bias2``, ``variance``, ``noise``, ``sum``,
        ``expected_error`` (measured), and ``bias2_se``, ``variance_se``,
        ``expected_error_se`` (plus the two exact columns for the grid design).

    Examples
    --------
    >>> table = polynomial_bias_variance(np.sin, [1, 3], n_datasets=50, random_state=0)
    >>> bool(np.allclose(table["sum"], table["expected_error"], atol=5 * table["expected_error_se"].max()))
    True
    >>> grid = polynomial_bias_variance(np.sin, [1, 3], design="grid", n_datasets=400, random_state=0)
    >>> bool(np.all(np.abs(grid["variance"] - grid["variance_exact"]) < 4 * grid["variance_se"]))
    True
    """
    if not callable(true_function):
        raise TypeError("true_function must be callable, e.g. np.sin.")
    if isinstance(degrees, (str, bytes)) or not np.iterable(degrees) or not len(degrees):
        raise TypeError(f"degrees must be a non-empty sequence of integers, got "
                        f"degrees={degrees!r:.80}.")
    degrees = [check_int(d, "degrees", low=0) for d in degrees]
    noise = abs(check_real(noise, "noise", low=0, high=1e100, why="it is the noise standard deviation"))
    n_samples = check_int(n_samples, "n_samples", low=2)
    n_datasets = check_int(n_datasets, "n_datasets", low=2)
    n_test = check_int(n_test, "n_test", low=1)
    check_option(design, "design", ["uniform", "grid"])
    n_groups = min(check_int(n_groups, "n_groups", low=2), n_datasets)
    low, high = _check_range(x_range)
    rng = as_generator(random_state)
    x = (rng.uniform(low, high, (n_datasets, n_samples)) if design == "uniform"
         else np.broadcast_to(np.linspace(low, high, n_samples), (n_datasets, n_samples)))
    y = true_function(x) + rng.normal(scale=noise, size=x.shape)
    x_test = np.linspace(low, high, n_test)
    f_test = true_function(x_test)
    y_new = f_test + rng.normal(scale=noise, size=(n_datasets, n_test))   # a fresh label per set
    centre, half = (low + high) / 2, (high - low) / 2
    group = np.arange(n_datasets) * n_groups // n_datasets                 # contiguous groups
    rows = {}
    for degree in degrees:
        if degree >= n_samples:
            raise ValueError(f"degree {degree} needs more than n_samples={n_samples} points.")
        # Scaled powers keep the least-squares problems well conditioned.
        V_test = ((x_test - centre) / half)[:, None] ** np.arange(degree + 1)
        if design == "grid":
            V = ((x[0] - centre) / half)[:, None] ** np.arange(degree + 1)
            hat = V_test @ np.linalg.pinv(V)                                  # (n_test, n_samples)
            fits = y @ hat.T
        else:
            V = ((x - centre) / half)[..., None] ** np.arange(degree + 1)
            fits = ((np.linalg.pinv(V) @ y[..., None])[..., 0]) @ V_test.T  # (n_datasets, n_test)
        per_set = ((fits - y_new) ** 2).mean(axis=1)
        # Group sums give the full estimates and the delete-a-group ones (jackknife).
        starts = np.searchsorted(group, np.arange(n_groups))
        s1 = np.add.reduceat(fits, starts, axis=0)
        s2 = np.add.reduceat(fits**2, starts, axis=0)
        e1 = np.add.reduceat(per_set, starts)
        counts = np.bincount(group, minlength=n_groups).astype(float)

        def estimates(t1, t2, te, n):
            mean = t1 / n
            var = np.maximum(t2 - t1 * mean, 0) / (n - 1)
            return np.array([np.mean((mean - f_test) ** 2 - var / n), np.mean(var), te / n])

        full = estimates(s1.sum(0), s2.sum(0), e1.sum(), float(n_datasets))
        leave = np.array([estimates(s1.sum(0) - s1[g], s2.sum(0) - s2[g], e1.sum() - e1[g],
                                    n_datasets - counts[g]) for g in range(n_groups)])
        se = np.sqrt((n_groups - 1) / n_groups * ((leave - leave.mean(axis=0)) ** 2).sum(axis=0))
        row = {"bias2": full[0], "variance": full[1], "noise": noise**2,
               "sum": full[0] + full[1] + noise**2, "expected_error": full[2],
               "bias2_se": se[0], "variance_se": se[1], "expected_error_se": se[2]}
        if design == "grid":
            row["bias2_exact"] = float(np.mean((hat @ true_function(x[0]) - f_test) ** 2))
            row["variance_exact"] = float(noise**2 * np.mean((hat**2).sum(axis=1)))
        rows[degree] = {key: float(value) for key, value in row.items()}
    table = pd.DataFrame(rows).T
    table.index.name = "degree"
    return table


def _check_range(x_range):
    """Two finite numbers, low < high (and a finite width), as floats."""
    if isinstance(x_range, (str, bytes)) or not np.iterable(x_range) or len(x_range) != 2:
        raise TypeError(f"x_range must be a pair (low, high) of finite numbers, got x_range={x_range!r:.80}.")
    low, high = (check_real(v, "x_range") for v in x_range)
    if not low < high or not np.isfinite(high - low):
        raise ValueError(f"x_range must be (low, high) with low < high and a finite width, "
                         f"got x_range=({low!r}, {high!r}).")
    return low, high


# -- No Free Lunch ----------------------------------------------------------------------
def no_free_lunch_table(learners, *, n_bits=3, train_points=None, target_weights=None):
    """Off-training-set error of learners averaged over *every* target function.

    The domain is the :math:`2^{n}` binary vectors of length ``n_bits``; a
    target is any of the :math:`2^{2^n}` labelings. For each target, each
    learner sees the labels of ``train_points`` (indices into the domain) and
    predicts the other points; the table gives its mean error on those
    off-training-set points, averaged over all targets (uniform distribution,
    0-1 loss). No Free Lunch says every learner gets exactly ½.

    Parameters
    ----------
    learners : dict
        Name to a function ``learner(X_train, y_train, X_test) -> y_pred``.
    n_bits : int, default=3
        The domain has ``2**n_bits`` points (at most 4 bits: 65,536 targets).
    train_points : sequence of int, optional
        Default: the first half of the domain.
    target_weights : callable, optional
        ``weight(domain, f) -> float >= 0``: a non-uniform distribution over
        targets (normalized here), to see what the theorem does *not* say.

    Returns
    -------
    pandas.DataFrame
        One row per learner: ``mean_ots_error``, ``min`` and ``max`` over
        targets, and ``n_targets``.

    Examples
    --------
    >>> majority = lambda X, y, Xt: np.full(len(Xt), int(y.mean() >= 0.5))
    >>> float(no_free_lunch_table({"majority": majority}).loc["majority", "mean_ots_error"])
    0.5
    """
    n_bits = check_int(n_bits, "n_bits", low=1, high=4)
    domain = np.array(list(itertools.product([0, 1], repeat=n_bits)))
    size = len(domain)
    train = np.arange(size // 2) if train_points is None else np.asarray(train_points, dtype=int)
    if train.size == 0 or train.size >= size or np.any((train < 0) | (train >= size)):
        raise ValueError(f"train_points must be indices in [0, {size}) leaving some points out, "
                         f"got {train.tolist()}.")
    test = np.setdiff1d(np.arange(size), train)
    targets = np.array(list(itertools.product([0, 1], repeat=size)))
    weights = (np.ones(len(targets)) if target_weights is None
               else np.array([float(target_weights(domain, f)) for f in targets]))
    if np.any(weights < 0) or weights.sum() <= 0:
        raise ValueError("target_weights must return weights >= 0, not all 0.")
    if not isinstance(learners, dict) or not learners or not all(map(callable, learners.values())):
        raise TypeError(f"learners must be a non-empty dict {{name: function(X_train, y_train, X_test)}}, "
                        f"got learners={learners!r:.80}.")
    rows = {}
    for name, learner in learners.items():
        errors = np.array([np.mean(np.asarray(learner(domain[train], f[train], domain[test])) != f[test])
                           for f in targets])
        rows[name] = {"mean_ots_error": float(errors @ weights / weights.sum()), "min": errors.min(),
                      "max": errors.max(), "n_targets": len(targets)}
    return pd.DataFrame(rows).T


# -- type-I error and power --------------------------------------------------------------
def two_feature_sampler(weight=1.0):
    """A sampler of the two-feature problem of chapter 10's test simulations.

    Returns ``sampler(n, rng) -> (X, y)`` drawing :math:`x \\sim N(0, I_2)` and
    :math:`y = 1[x_1 + w\\,x_2 + \\varepsilon > 0]`, :math:`\\varepsilon \\sim N(0, 1)`.
    With ``weight`` :math:`w = 1` the two features are equally informative,
    so learners that use one feature each are equally good by symmetry.

    Examples
    --------
    >>> X, y = two_feature_sampler(1.0)(5, np.random.default_rng(0))
    >>> X.shape, sorted(set(y.tolist())) <= [0, 1]
    ((5, 2), True)
    """
    weight = check_real(weight, "weight", why="it is the second feature's weight")

    def sampler(n, rng):
        X = rng.normal(size=(n, 2))
        return X, (X[:, 0] + weight * X[:, 1] + rng.normal(size=n) > 0).astype(int)

    return sampler


TESTS = ["10-fold paired t", "resampled t (10 splits)", "corrected resampled t",
         "5x2cv paired t", "5x2cv F", "McNemar"]


def _index_split(n_samples, test_size, seed, generator=None):
    """``train_test_split(np.arange(n_samples), test_size=test_size, random_state=seed)``.

    The same (train, test) index arrays, without its input checks and
    ``_safe_indexing``, which cost more than the midpoint learner's fit: a
    permutation by ``RandomState(seed)``, its first ``ceil(test_size * n)``
    entries for testing. A ``generator`` (a ``RandomState``) is reseeded with
    ``seed`` and used instead: the same stream, 15 times cheaper than
    constructing a ``RandomState``, which first seeds itself from the OS.
    """
    n_test = math.ceil(test_size * n_samples)
    if generator is None:
        generator = np.random.RandomState(seed)
    else:
        generator.seed(seed)
    permutation = generator.permutation(n_samples)
    return permutation[n_test:], permutation[:n_test]


def _one_repetition(sampler, estimator_a, estimator_b, n_samples, seed):
    rng = np.random.default_rng(seed)
    X, y = sampler(n_samples, rng)
    # A deep copy of an unfitted clone is that clone, at a quarter of clone's cost.
    unfitted_a, unfitted_b = clone(estimator_a), clone(estimator_b)

    def scores(train, test):            # accuracy as in ``score``, without its input checks (faster)
        a = np.mean(copy.deepcopy(unfitted_a).fit(X[train], y[train]).predict(X[test]) == y[test])
        b = np.mean(copy.deepcopy(unfitted_b).fit(X[train], y[train]).predict(X[test]) == y[test])
        return a, b

    state = int(rng.integers(2**31 - 1))
    kfold = np.array([scores(tr, te) for tr, te in KFold(10, shuffle=True, random_state=state).split(X)])
    generator = np.random.RandomState()
    splits = [_index_split(n_samples, 0.1, state + r, generator)
              for r in range(10)]
    resampled = np.array([scores(tr, te) for tr, te in splits])
    n_test = len(splits[0][1])
    halves = []
    for i in range(5):
        first, second = _index_split(n_samples, 0.5, state + 100 + i, generator)
        halves.append([np.subtract(*scores(first, second)), np.subtract(*scores(second, first))])
    differences = np.array(halves)
    train, test = _index_split(n_samples, 0.5, state + 200, generator)
    a = copy.deepcopy(unfitted_a).fit(X[train], y[train]).predict(X[test])
    b = copy.deepcopy(unfitted_b).fit(X[train], y[train]).predict(X[test])
    pvalues = []
    for test_function in (
            lambda: paired_t_test_cv(kfold[:, 0], kfold[:, 1]),
            lambda: paired_t_test_cv(resampled[:, 0], resampled[:, 1]),
            lambda: corrected_resampled_t_test(resampled[:, 0], resampled[:, 1],
                                               n_samples - n_test, n_test),
            lambda: paired_t_test_5x2cv(differences=differences),
            lambda: f_test_5x2cv(differences=differences),
            lambda: mcnemar_test(y[test], a, b)):
        try:
            pvalues.append(test_function().pvalue)
        except ValueError:                     # identical results: no evidence of a difference
            pvalues.append(1.0)
    return pvalues


def rejection_rates(sampler, estimator_a, estimator_b, *, n_samples=200, n_repetitions=200,
                    alpha=0.05, n_jobs=None, random_state=None):
    """How often each test rejects "the two learners are equally good" at level ``alpha``.

    Each repetition draws a fresh data set of ``n_samples`` from
    ``sampler(n_samples, rng) -> (X, y)`` and runs the six tests of
    :data:`TESTS` on the same data. When the learners are equally good by
    construction the rate is the type-I error (it should be at most
    ``alpha``); otherwise it is the power.

    Returns
    -------
    pandas.DataFrame
        One row per test: ``rejection_rate`` and its Monte Carlo standard
        error ``se`` = sqrt(rate (1 - rate) / n_repetitions).

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> def sampler(n, rng):
    ...     X = rng.normal(size=(n, 1)); return X, (X[:, 0] > 0).astype(int)
    >>> table = rejection_rates(sampler, DummyClassifier(), DummyClassifier(), n_repetitions=2,
    ...                         random_state=0)
    >>> table["rejection_rate"].tolist()          # identical learners never differ
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    """
    if not callable(sampler):
        raise TypeError("sampler must be callable: sampler(n_samples, rng) -> (X, y).")
    n_samples = check_int(n_samples, "n_samples", low=20)
    n_repetitions = check_int(n_repetitions, "n_repetitions", low=1, high=10**7)
    alpha = check_probability(alpha, "alpha", why="it is the level of the tests")
    check_estimator_object(estimator_a, "estimator_a")
    check_estimator_object(estimator_b, "estimator_b")
    n_jobs = check_n_jobs(n_jobs)
    seed = check_random_state(random_state).randint(2**31 - 1) if not isinstance(random_state, int) \
        else random_state
    children = [int(c.generate_state(1)[0]) for c in np.random.SeedSequence(seed).spawn(n_repetitions)]
    pvalues = parallel_map(partial(_one_repetition, sampler, estimator_a, estimator_b, n_samples),
                           children, n_jobs=n_jobs, desc="repetitions")
    rejected = np.asarray(pvalues) <= alpha
    rate = rejected.mean(axis=0)
    return pd.DataFrame({"rejection_rate": rate,
                         "se": np.sqrt(rate * (1 - rate) / n_repetitions)}, index=TESTS)


def _plain(estimator, X):
    """True for a finite 2-D float64 array with at least one row, given to an estimator fitted
    without feature names: the inputs ``validate_data`` would pass unchanged."""
    return (type(X) is np.ndarray and X.dtype == np.float64 and X.ndim == 2 and X.shape[0] > 0
            and X.shape[1] > 0 and not hasattr(estimator, "feature_names_in_") and np.isfinite(X).all())


class MidpointClassifier(ClassifierMixin, BaseEstimator):
    """A one-feature classifier: threshold halfway between the two class means.

    Predicts the class whose mean of ``X[:, feature]`` is nearer. It is the
    simplest learner that still learns from data, and fast, which suits
    simulations that fit thousands of models: two of them using different,
    equally informative features are equally good *by construction*, the
    setting in which chapter 10 measures each test's type-I error.

    Parameters
    ----------
    feature : int, default=0
        Column of ``X`` to use, >= 0.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    threshold_ : float
        Midpoint of the two class means of the feature.
    n_features_in_ : int

    Examples
    --------
    >>> X = np.array([[0.0, 5.0], [1.0, 3.0], [3.0, 1.0], [4.0, 0.0]])
    >>> model = MidpointClassifier(feature=0).fit(X, [0, 0, 1, 1])
    >>> model.threshold_, model.predict([[1.9, 0.0], [2.1, 0.0]]).tolist()
    (2.0, [0, 1])
    """

    def __init__(self, feature=0):
        self.feature = feature

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.classifier_tags.poor_score = True            # one feature: scores low by design
        return tags

    def fit(self, X, y):
        """Store the classes and the midpoint of their means; returns ``self``."""
        if _plain(self, X) and isinstance(y, np.ndarray) and y.ndim == 1 and y.dtype.kind in "iu" \
                and len(y) == len(X):
            self.n_features_in_ = X.shape[1]     # the simulations' inputs: skip the (slow) generic checks
        else:
            with naming("X or y"):
                X, y = validate_data(self, X, y)
            with naming("y"):
                check_classification_targets(y)
        feature = check_int(self.feature, "feature", low=0, high=X.shape[1] - 1)
        self.classes_ = np.unique(y)
        if self.classes_.size != 2:
            found = f"{self.classes_.size} class{'' if self.classes_.size == 1 else 'es'}"
            raise ValueError(f"Only binary classification is supported: y must hold two classes, "
                             f"got {found}.")
        means = [X[y == c, feature].mean(dtype=np.float64) for c in self.classes_]   # float16 X too
        self.threshold_ = float((means[0] + means[1]) / 2)
        self._upper = int(means[1] >= means[0])               # which class lies above
        return self

    def predict(self, X):
        """The class on the same side of the threshold as its mean."""
        check_is_fitted(self)
        if not (_plain(self, X) and X.shape[1] == self.n_features_in_):
            with naming("X"):
                X = validate_data(self, X, reset=False)
        above = X[:, int(self.feature)] > self.threshold_
        return self.classes_[np.where(above, self._upper, 1 - self._upper)]
