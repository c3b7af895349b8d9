"""Wrapper feature selection (chapter 7): forward and backward search with a
cross-validated score, counting the learner's fits, and exhaustive search
over every subset of a small feature set.
"""

from __future__ import annotations

import itertools
import numbers
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pandas as pd
from sklearn.base import clone, is_classifier
from sklearn.metrics import check_scoring
from sklearn.model_selection import cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier

from .._parallel import parallel_map
from .._validation import (check_array, check_cv, check_estimator_object, check_int,
                           check_labels, check_n_jobs, check_real)


@dataclass
class SearchResult:
    """The path of a forward or backward search.

    Attributes
    ----------
    path : pandas.DataFrame
        One row per step: the feature added (forward) or removed (backward),
        the selected features after the step, their CV score, and the number
        of fits of the learner so far.
    selected_ : list of int
        The features selected at the end (after ``tol`` stopping, if any).
    best_ : list of int
        The subset with the best score anywhere on the path (CS229's rule:
        output the best subset evaluated during the search).
    n_fits_ : int
        Fits of the learner in all.
    """

    path: pd.DataFrame
    selected_: list
    best_: list
    n_fits_: int = field(default=0)


def _cv_score(estimator, X, y, cv, scoring, features):
    # error_score="raise": a learner that fails says why, not "All the 5 fits failed".
    try:
        return float(cross_val_score(clone(estimator), X[:, list(features)], y, cv=cv,
                                     scoring=scoring, error_score="raise").mean())
    except (ValueError, TypeError) as error:   # the learner's own words, and which inputs
        plain = ValueError if isinstance(error, ValueError) else TypeError
        raise plain(f"estimator={estimator!r} could not be cross-validated on X[:, "
                    f"{list(features)}] and y: {error}") from error


def _check_scoring(estimator, scoring):
    if scoring is None:
        return
    if not (isinstance(scoring, str) or callable(scoring)):
        raise TypeError(f"scoring must be None, a scorer name such as 'accuracy' or a callable "
                        f"scorer(estimator, X, y), got scoring={scoring!r:.80}.")
    if isinstance(scoring, str):
        try:
            check_scoring(estimator, scoring=scoring)
        except (ValueError, KeyError) as error:
            raise ValueError(f"scoring must be one of sklearn.metrics.get_scorer_names(), got "
                             f"scoring={scoring!r}.") from error


def _check_search(estimator, X, y, cv, n_jobs, scoring=None):
    """The searches' shared checks; returns (X, y, splitter, n_jobs)."""
    check_estimator_object(estimator, "estimator")
    _check_scoring(estimator, scoring)
    X = check_array(X, "X", ndim=2, min_length=2)
    if X.shape[1] == 0:
        raise ValueError(f"X must have at least one feature (column), got shape {X.shape}.")
    y = check_labels(y, "y", n_samples=len(X))
    n_jobs = check_n_jobs(n_jobs)
    return X, y, check_cv(cv, y, classifier=is_classifier(estimator)), n_jobs


def _is_default_gaussian_nb(estimator, scoring):
    """Whether :func:`gaussian_nb_subset_accuracy` reproduces the learner's CV scores."""
    return (type(estimator) is GaussianNB and estimator.priors is None
            and scoring in (None, "accuracy") and estimator.var_smoothing == 1e-9)


def _is_plain_knn(estimator, scoring):
    """Whether :func:`_knn_subset_accuracy` reproduces the learner's CV scores:
    uniform votes, Euclidean distance, accuracy."""
    if type(estimator) is not KNeighborsClassifier or scoring not in (None, "accuracy"):
        return False
    params = estimator.get_params()
    k = params["n_neighbors"]
    euclidean = params["metric"] == "euclidean" or (
        params["metric"] == "minkowski" and params["p"] == 2)
    return (euclidean and params["weights"] == "uniform"
            and params["metric_params"] is None
            and isinstance(k, numbers.Integral) and not isinstance(k, bool) and k >= 1)


_KNN_CELLS = 2 ** 22   # largest (eval, fit, features or subsets) array of a k-NN batch


def _knn_subset_accuracy(X_fit, y_fit, X_eval, y_eval, subsets, n_neighbors):
    """Accuracy of k-NN (uniform votes, Euclidean) on every feature subset at once.

    A subset's squared distances are the sum of its columns' squared
    differences: one matrix product with the subsets' 0/1 indicator rows.
    Where the k-th and (k+1)-th nearest distances of an evaluation point
    nearly tie, or its vote ties, the neighbours or the winner depend on
    rounding and on scikit-learn's tie-breaking: that subset's accuracy is
    NaN, and the caller asks scikit-learn. Otherwise it equals
    ``KNeighborsClassifier(n_neighbors).fit(...).score(...)`` exactly: the same
    k neighbours, the same votes, the same mean of correct predictions.
    Returns None when the batch would be too large (or k too large).
    """
    m_eval, m_fit, n = len(X_eval), len(X_fit), X_fit.shape[1]
    if n_neighbors >= m_fit or m_eval * m_fit * n > _KNN_CELLS:
        return None
    classes, codes = np.unique(y_fit, return_inverse=True)
    indicator = np.zeros((len(subsets), n))
    for row, subset in enumerate(subsets):
        indicator[row, list(subset)] = 1.0
    squared = (X_eval[:, None, :] - X_fit[None, :, :]) ** 2      # (eval, fit, features)
    # The error bound of a distance as scikit-learn may compute it, |a|^2 - 2ab + |b|^2
    # (its brute-force kernel): a gap below it is a tie that rounding may break.
    norms_eval = X_eval ** 2 @ indicator.T                         # (eval, subsets)
    norms_fit = (X_fit ** 2 @ indicator.T).max(axis=0)             # (subsets,)
    accuracy = np.empty(len(subsets))
    step = max(1, _KNN_CELLS // (m_eval * m_fit))
    for lo in range(0, len(subsets), step):
        part = slice(lo, lo + step)
        dist = np.moveaxis(squared @ indicator[part].T, 2, 0)   # (subsets, eval, fit)
        near = np.argpartition(dist, n_neighbors, axis=2)
        kth = np.take_along_axis(dist, near[..., :n_neighbors], axis=2).max(axis=2)
        after = np.take_along_axis(dist, near[..., n_neighbors:n_neighbors + 1],
                                   axis=2)[..., 0]
        scale = after + norms_eval[:, part].T + norms_fit[part, None]
        tied = after - kth <= 1e-10 * scale           # rounding is ~1e-15 of scale
        votes = (codes[near[..., :n_neighbors]][..., None]       # (subsets, eval,
                 == np.arange(classes.size)).sum(axis=2)         #  classes)
        if classes.size > 1:                  # a tied vote: scikit-learn's tie-break
            top = np.sort(votes, axis=2)
            tied |= top[..., -1] == top[..., -2]
        predicted = classes[np.argmax(votes, axis=2)]
        accuracy[part] = (predicted == y_eval).mean(axis=1)
        accuracy[part][tied.any(axis=1)] = np.nan
    return accuracy


def _score_subsets(estimator, X, y, splitter, scoring, subsets, n_jobs, desc):
    """The CV score of every subset: ``_cv_score`` each, or one batch for GaussianNB
    and for plain k-NN."""
    # A splitter seeded by an int (or not shuffling) gives the same folds on every
    # split() call, as cross_val_score sees them per subset; then GaussianNB scores all
    # candidates of a step from one fit per fold, the same accuracies bit for bit.
    fixed = isinstance(getattr(splitter, "random_state", None), (type(None), numbers.Integral))
    if _is_default_gaussian_nb(estimator, scoring) and fixed:
        folds = [gaussian_nb_subset_accuracy(X[train], y[train], X[test], y[test], subsets)
                 for train, test in splitter.split(X, y)]
        return np.mean(folds, axis=0).tolist()
    scores = np.full(len(subsets), np.nan)
    if _is_plain_knn(estimator, scoring) and fixed:
        folds = [_knn_subset_accuracy(X[train], y[train], X[test], y[test], subsets,
                                      estimator.n_neighbors)
                 for train, test in splitter.split(X, y)]
        if all(fold is not None for fold in folds):
            scores = np.mean(folds, axis=0)       # NaN where a fold had a near tie
    # The rest (every subset of another learner): cross_val_score, one subset at a time.
    rest = np.flatnonzero(np.isnan(scores))
    if rest.size:
        score = partial(_cv_score, estimator, X, y, splitter, scoring)
        scores[rest] = parallel_map(score, [subsets[i] for i in rest], n_jobs=n_jobs,
                                    desc=desc)
    return scores.tolist()


def _search(direction, estimator, X, y, cv, scoring, max_features, tol, n_jobs):
    X, y, splitter, n_jobs = _check_search(estimator, X, y, cv, n_jobs, scoring)
    if tol is not None:
        tol = check_real(tol, "tol", low=0.0 if direction == "forward" else None,
                         why="forward search stops when the best addition gains less than tol"
                         if direction == "forward" else "the smallest change in score that "
                         "justifies a removal")
    n = X.shape[1]
    folds = splitter.get_n_splits(X, y)
    limit = n if max_features is None else check_int(max_features, "max_features", low=1, high=n)
    steps = limit if direction == "forward" else n - limit
    if direction == "backward" and max_features is None:
        steps = n - 1
    selected = [] if direction == "forward" else list(range(n))
    rows, n_fits = [], 0
    previous = -np.inf
    stopped_at = None
    if direction == "backward":
        previous = _cv_score(estimator, X, y, splitter, scoring, selected)
        n_fits += folds
        rows.append({"step": 0, "feature": None, "selected": list(selected), "score": previous,
                     "n_fits": n_fits})
    for step in range(1, steps + 1):
        candidates = ([f for f in range(n) if f not in selected] if direction == "forward"
                      else list(selected))
        subsets = [selected + [f] if direction == "forward" else [g for g in selected if g != f]
                   for f in candidates]
        scores = _score_subsets(estimator, X, y, splitter, scoring, subsets, n_jobs,
                                f"{direction} step {step}")
        n_fits += folds * len(candidates)
        best = int(np.argmax(scores))                  # the first candidate on ties
        if tol is not None and stopped_at is None and scores[best] - previous < tol:
            stopped_at = step - 1
            break
        selected = subsets[best]
        previous = scores[best]
        rows.append({"step": step, "feature": candidates[best], "selected": list(selected),
                     "score": scores[best], "n_fits": n_fits})
    path = pd.DataFrame(rows)
    # Ties: the smallest subset with the best score, in both directions.
    tied = path[path["score"] == path["score"].max()]
    best_row = tied.loc[tied["selected"].map(len).idxmin()]
    return SearchResult(path, list(selected), list(best_row["selected"]), n_fits)


def forward_search(estimator, X, y, *, cv=5, scoring=None, max_features=None, tol=None, n_jobs=None):
    """Forward search: start with no feature, add the one whose addition scores best, repeat.

    Each step scores every remaining feature added to the current set by
    cross-validation (``cross_val_score``, mean over folds), keeps the best,
    and records it. A full search over :math:`n` features evaluates
    :math:`n + (n-1) + \\dots + 1 = n(n+1)/2` subsets, each with ``K`` fits:
    :math:`O(n^2)` calls of the learner. On the same data, ``cv`` and
    ``scoring`` it adds the same features in the same order as
    ``sklearn.feature_selection.SequentialFeatureSelector(direction="forward")``.

    Parameters
    ----------
    estimator : scikit-learn estimator
    X : array_like of shape (m, n)
    y : array_like of shape (m,)
    cv : int, splitter or iterable, default=5
        As in ``cross_val_score`` (an int means stratified K-fold for classifiers).
    scoring : str or callable, optional
        As in ``cross_val_score``; None uses the estimator's ``score``.
    max_features : int, optional
        Stop after this many features (default: all).
    tol : float, optional
        Stop when the best addition improves the score by less than ``tol``
        (scikit-learn's ``SequentialFeatureSelector`` rule, not CS229's; it
        must be >= 0 going forward, and may be negative going backward,
        where it allows removals that lower the score by up to ``-tol``).
    n_jobs : int, optional
        Candidates of a step are scored in parallel with joblib.

    Returns
    -------
    SearchResult
        ``best_`` is the subset with the best score on the path; on ties, the
        smallest such subset (in both directions).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> result = forward_search(KNeighborsClassifier(3), X, y, cv=5, max_features=2)
    >>> result.selected_, result.n_fits_
    ([3, 0], 35)
    """
    return _search("forward", estimator, X, y, cv, scoring, max_features, tol, n_jobs)


def backward_search(estimator, X, y, *, cv=5, scoring=None, max_features=None, tol=None, n_jobs=None):
    """Backward search: start with every feature, remove the one whose removal scores best, repeat.

    Arguments as in :func:`forward_search`; ``max_features`` is the number of
    features to keep at the end (default: search down to one). Matches
    ``SequentialFeatureSelector(direction="backward")``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> backward_search(KNeighborsClassifier(3), X, y, cv=5, max_features=2).selected_
    [2, 3]
    """
    return _search("backward", estimator, X, y, cv, scoring, max_features, tol, n_jobs)


def gaussian_nb_subset_accuracy(X_fit, y_fit, X_eval, y_eval, subsets):
    r"""Accuracy of Gaussian naive Bayes on every feature subset, from one fit.

    Naive Bayes's log posterior is a sum over features:
    :math:`\\log P(c) + \\sum_{j \\in F}\\log p(x_j \\mid c)`. Fitting once on all
    features gives every per-feature term; a subset's scores are then one
    matrix product with its 0/1 indicator row, for all subsets at once.
    Equal to ``GaussianNB().fit(X_fit[:, F], y_fit).score(X_eval[:, F], y_eval)``
    for every subset ``F``, including its variance smoothing: every variance
    is increased by ``1e-9`` times the largest variance *of the subset's own
    columns*, so the subsets are grouped by their column of largest variance
    (at most ``n`` groups, one matrix product each). The result does not
    change when a column is rescaled.

    Returns
    -------
    ndarray of shape (n_subsets,)

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> gaussian_nb_subset_accuracy(X, y, X, y, [(0,), (2, 3)]).round(3)
    array([0.727, 0.96 ])
    """
    X_fit = check_array(X_fit, "X_fit", ndim=2, min_length=1)
    X_eval = check_array(X_eval, "X_eval", ndim=2, n_columns=X_fit.shape[1])
    for name, values in (("X_fit", X_fit), ("X_eval", X_eval)):
        if np.abs(values).max(initial=0.0) > 1e150:   # squared deviations would overflow
            raise ValueError(f"{name} must lie within [-1e150, 1e150], got largest |x| "
                             f"{np.abs(values).max():g}; standardize it.")
    y_fit = check_labels(y_fit, "y_fit", n_samples=len(X_fit))
    y_eval = check_labels(y_eval, "y_eval", n_samples=len(X_eval))
    if isinstance(subsets, (str, bytes)) or not np.iterable(subsets):
        raise TypeError(f"subsets must be a list of feature-index tuples, got subsets={subsets!r:.80}.")
    subsets = list(subsets)
    for subset in subsets:
        if isinstance(subset, (str, bytes)) or not np.iterable(subset) or not len(subset):
            raise TypeError(f"subsets must hold non-empty tuples of feature indices, got "
                            f"{subset!r:.80}.")
    # All the indices as one array: checked at once when they are plain ints in range
    # (an exhaustive search passes thousands of subsets per fold), one by one otherwise,
    # for check_int's message on the first bad one.
    lengths = np.array([len(subset) for subset in subsets])
    flat = list(itertools.chain.from_iterable(subsets))
    if not subsets:
        return np.empty(0)
    if not (all(type(j) is int for j in flat)
            and 0 <= min(flat) and max(flat) < X_fit.shape[1]):
        for j in flat:
            check_int(j, "subsets", low=0, high=X_fit.shape[1] - 1,
                      why="each entry is a column index of X_fit")
    flat = np.array(flat, dtype=np.intp)
    offsets = np.r_[0, np.cumsum(lengths)[:-1]]
    classes, index = np.unique(y_fit, return_inverse=True)
    means = np.array([X_fit[index == c].mean(axis=0) for c in range(classes.size)])
    class_variances = np.array([X_fit[index == c].var(axis=0) for c in range(classes.size)])
    total_variance = X_fit.var(axis=0)
    log_prior = np.log(np.bincount(index) / len(index))
    # GaussianNB's epsilon is 1e-9 x the largest variance over the subset's columns: group the
    # subsets by that largest variance.
    largest = np.maximum.reduceat(total_variance[flat], offsets)
    owner = np.repeat(np.arange(len(subsets)), lengths)    # the subset of each index
    accuracy = np.empty(len(subsets))
    for value in np.unique(largest):
        rows = np.flatnonzero(largest == value)
        variances = class_variances + 1e-9 * value
        # (samples, classes, features): log N(x_j | mean_cj, var_cj)
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = -0.5 * (np.log(2 * np.pi * variances)[None]
                            + (X_eval[:, None, :] - means[None]) ** 2 / variances[None])
        indicator = np.zeros((len(subsets), X_fit.shape[1]))
        indicator[owner, flat] = 1.0
        indicator = indicator[rows]
        # A column outside the subset may have a zero variance at this epsilon: mask it out.
        terms = np.where(np.isfinite(terms), terms, 0.0)
        scores = terms @ indicator.T + log_prior[None, :, None]         # (samples, classes, subsets)
        predicted = classes[np.argmax(scores, axis=1)]                   # (samples, subsets)
        accuracy[rows] = (predicted == y_eval[:, None]).mean(axis=0)
    return accuracy


def exhaustive_search(estimator, X, y, *, cv=5, scoring=None, n_jobs=None):
    """Score every non-empty subset of the features by cross-validation.

    :math:`2^n - 1` subsets: for small :math:`n` only (at most 12 features).
    For ``GaussianNB()`` with accuracy scoring the folds are scored with
    :func:`gaussian_nb_subset_accuracy`, all subsets at once; any other
    learner calls ``cross_val_score`` once per subset.

    Returns
    -------
    pandas.DataFrame
        One row per subset (``features`` as a tuple, ``size``, ``score``),
        sorted by score, best first (ties: smaller subsets, then column order).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> X, y = load_iris(return_X_y=True)
    >>> table = exhaustive_search(GaussianNB(), X, y)
    >>> len(table), table.iloc[0]["features"]
    (15, (3,))
    """
    X, y, splitter, n_jobs = _check_search(estimator, X, y, cv, n_jobs, scoring)
    n = X.shape[1]
    if n > 12:
        raise ValueError(f"X must have 1 to 12 features for exhaustive_search (2^n subsets), "
                         f"got {n}.")
    subsets = [s for size in range(1, n + 1) for s in itertools.combinations(range(n), size)]
    if (type(estimator) is GaussianNB and estimator.priors is None and scoring in (None, "accuracy")
            and estimator.var_smoothing == 1e-9):
        folds = [gaussian_nb_subset_accuracy(X[train], y[train], X[test], y[test], subsets)
                 for train, test in splitter.split(X, y)]
        scores = np.mean(folds, axis=0).tolist()
    else:
        scores = parallel_map(partial(_cv_score, estimator, X, y, splitter, scoring), subsets,
                              n_jobs=n_jobs, desc="subsets")
    table = pd.DataFrame({"features": subsets, "size": [len(s) for s in subsets], "score": scores})
    return table.sort_values(["score", "size"], ascending=[False, True], kind="stable").reset_index(drop=True)

