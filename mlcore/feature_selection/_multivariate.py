"""Multivariate filters (chapter 7): mRMR (Peng, Long and Ding 2005) and JMI (Yang and Moody
1999; Brown et al. 2012) on 0/1 features, greedy, with every candidate scored at once from
sparse products; and stability selection (Meinshausen and Buhlmann 2010).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import clone

from .._validation import as_generator, check_estimator_object, check_int, check_labels
from ._filter import _check_class_labels, _presence, mi_scores


def _mi_from_counts(counts, m):
    """Plug-in MI (nats) of tables ``counts`` of shape (n, a, b) (each summing to m)."""
    joint = counts / m
    outer = joint.sum(axis=2, keepdims=True) * joint.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(joint > 0, joint * np.log(joint / outer), 0.0)
    return np.maximum(terms.sum(axis=(1, 2)), 0.0)


def _pair_tables(P, column, m):
    """2x2 tables of (x_j, x_s) for every column j of the presence matrix P and one column s."""
    x_s = np.asarray(P[:, column].todense()).ravel()
    n11 = np.asarray(P.T @ x_s).ravel()
    n1_ = np.asarray(P.sum(axis=0)).ravel()
    n_1 = x_s.sum()
    n10, n01 = n1_ - n11, n_1 - n11
    n00 = m - n11 - n10 - n01
    return np.stack([np.stack([n00, n01], axis=1), np.stack([n10, n11], axis=1)], axis=1)


def _triple_tables(P, Y, column, m):
    """Tables of ((x_j, x_s), class) of shape (n, 4, classes) for every column j and one s."""
    x_s = np.asarray(P[:, column].todense()).ravel()
    n1_c = np.asarray((P.T @ Y).todense())                      # x_j = 1, class c
    n11c = np.asarray((P.T @ Y.multiply(x_s[:, None])).todense())   # x_j = 1, x_s = 1, class c
    n_1c = np.asarray(Y.multiply(x_s[:, None]).sum(axis=0)).ravel()[None, :]
    n_c = np.asarray(Y.sum(axis=0)).ravel()[None, :]
    n10c, n01c = n1_c - n11c, n_1c - n11c
    n00c = n_c - n11c - n10c - n01c
    return np.stack([n00c, n01c, n10c, n11c], axis=1)


def _greedy(criterion, X, y, k, binarize):
    y = _check_class_labels(y)
    classes, yi = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"y has one class ({classes[0]!r}); nothing to select for.")
    P = _presence(X, binarize).tocsc()
    m, n = P.shape
    if m != len(y):
        raise ValueError(f"X and y must have the same number of samples, got {m} and {len(y)}.")
    k = check_int(k, "k", low=1, high=n, why=f"it is how many of the {n} features to select")
    Y = sp.csr_matrix((np.ones(m), (np.arange(m), yi)), shape=(m, classes.size))
    relevance = mi_scores(P, y)
    selected = [int(np.argmax(relevance))]
    accumulated = np.zeros(n)
    for _ in range(1, k):
        last = selected[-1]
        if criterion == "mrmr":
            accumulated += _mi_from_counts(_pair_tables(P, last, m), m)
            score = relevance - accumulated / len(selected)
        else:
            accumulated += _mi_from_counts(_triple_tables(P, Y, last, m), m)
            score = accumulated.copy()
        score[selected] = -np.inf
        selected.append(int(np.argmax(score)))          # ties: the smallest column index
    return selected


def mrmr_select(X, y, k, *, binarize=None):
    """Minimum-redundancy maximum-relevance selection (mRMR, difference form), greedy.

    The first feature maximizes :math:`I(x_j; y)`; each next one maximizes
    :math:`I(x_j; y) - \\frac{1}{|S|}\\sum_{s \\in S} I(x_j; x_s)`: relevant,
    and not redundant with the features already chosen (Peng, Long and Ding
    2005). Mutual information is the plug-in estimate in nats on presence
    (0/1) features, every candidate's redundancy updated by one sparse
    product per step. Ties go to the smallest column index. Equals a brute
    force loop over the same criterion (tested).

    Parameters
    ----------
    X : array_like or sparse matrix of shape (m, n)
        0/1 features (or any real values with ``binarize``, as in :func:`mi_scores`).
    y : array_like of shape (m,)
    k : int
        How many features to select, 1 <= k <= n.
    binarize : float or None, default=None

    Returns
    -------
    list of int
        The selected columns, in the order chosen.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a = rng.integers(0, 2, 300); b = rng.integers(0, 2, 300)
    >>> y = a | b
    >>> mrmr_select(np.c_[a, a, b], y, 2)      # the copy of a is redundant
    [0, 2]
    """
    return _greedy("mrmr", X, y, k, binarize)


def jmi_select(X, y, k, *, binarize=None):
    """Joint mutual information selection (JMI), greedy.

    The first feature maximizes :math:`I(x_j; y)`; each next one maximizes
    :math:`\\sum_{s \\in S} I(x_j, x_s; y)`, the information the *pair*
    carries about the class (Yang and Moody 1999; recommended by Brown et
    al. 2012). Unlike a univariate filter it can find features that are
    useful only together, as in an XOR, but only when its greedy path
    reaches one of them: once it has chosen a feature outside the
    interaction, every candidate independent of y and of that feature has
    the same pair term in the population, and sampling noise breaks the tie
    (chapter 7 measures how often it lands on an XOR bit). Plug-in MI in
    nats on 0/1 features;
    ties go to the smallest column index. Equals a brute force loop (tested).

    Parameters and Returns as in :func:`mrmr_select`.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a, b, noise = rng.integers(0, 2, (3, 400))
    >>> y = a ^ b
    >>> copy = np.where(rng.random(400) < 0.3, 1 - y, y)
    >>> jmi_select(np.c_[noise, a, b, copy], y, 3)
    [3, 2, 1]
    """
    return _greedy("jmi", X, y, k, binarize)


def stability_selection(estimator, X, y, *, n_subsamples=100, random_state=None):
    """Selection frequencies over random half-subsamples (Meinshausen and Buhlmann 2010).

    Fits ``clone(estimator)`` on ``n_subsamples`` random halves of the
    samples (drawn without replacement, size ``m // 2``) and returns, for
    each feature, the fraction of fits in which its coefficient is non-zero
    (``coef_``, any class). With a threshold :math:`\\pi_{thr} \\in (1/2, 1]`
    on these frequencies, the expected number of noise features selected is
    at most :math:`q^2 / ((2\\pi_{thr} - 1)\\,n)`, where :math:`q` is the
    average number of features one fit selects (under the paper's two
    assumptions: the noise features are exchangeable, and the selector is
    not worse than random guessing). The bound controls something only when
    :math:`q` is small, about :math:`\\sqrt{(2\\pi_{thr} - 1)\\,n}` or less
    for at most one noise feature expected: choose the regularization so.

    Parameters
    ----------
    estimator : scikit-learn estimator with ``coef_`` after fitting
        For instance ``LogisticRegression(l1_ratio=1.0, solver="liblinear", C=0.1)``.
    X : array_like of shape (m, n)
    y : array_like of shape (m,)
    n_subsamples : int, default=100
    random_state : int, Generator or None
        Seeds the half-samples, and the estimator's own ``random_state`` when
        it has one left at None (``liblinear`` shuffles): the same value gives
        the same frequencies.

    Returns
    -------
    frequencies : ndarray of shape (n,)
    mean_selected : float
        The average number of features selected per fit, :math:`q`.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 5)); y = (X[:, 0] > 0).astype(int)
    >>> freq, q = stability_selection(LogisticRegression(l1_ratio=1.0, solver="liblinear", C=0.05),
    ...                               X, y, n_subsamples=20, random_state=0)
    >>> freq.round(2).tolist()[0], bool(freq[1:].max() < 0.5)
    (1.0, True)
    """
    check_estimator_object(estimator, "estimator")
    from .._validation import check_array

    X = check_array(X, "X", ndim=2, min_length=4)
    y = check_labels(y, "y", n_samples=len(X))
    n_subsamples = check_int(n_subsamples, "n_subsamples", low=1)
    rng = as_generator(random_state)
    m, n = X.shape
    counts = np.zeros(n)
    total = 0.0
    for _ in range(n_subsamples):
        rows = rng.choice(m, m // 2, replace=False)
        model = clone(estimator)
        # A learner that draws its own random numbers (liblinear shuffles) and was
        # given no seed would make the frequencies differ from run to run: seed it
        # from random_state, so the same random_state gives the same answer.
        if "random_state" in model.get_params() and model.get_params()["random_state"] is None:
            model.set_params(random_state=int(rng.integers(2**31 - 1)))
        model = model.fit(X[rows], y[rows])
        if not hasattr(model, "coef_"):
            raise TypeError(f"estimator must have coef_ after fitting (a linear model), got "
                            f"{type(estimator).__name__}.")
        chosen = np.any(np.atleast_2d(model.coef_) != 0, axis=0)
        counts += chosen
        total += chosen.sum()
    return counts / n_subsamples, total / n_subsamples
