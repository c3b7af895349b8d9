"""Resampling, the out-of-bag splitter and the error estimators (out-of-bag, .632, .632+).

Holds :func:`never_drawn_probability`, :func:`bootstrap_indices`,
:func:`draw_counts`, :class:`BootstrapOutOfBag`, the losses, and
:func:`bootstrap_error_report` / :func:`bootstrap_error` with
:class:`BootstrapErrorReport`. Part of :mod:`mlcore.bootstrap`.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from functools import partial

import numpy as np
from sklearn.base import clone
from sklearn.utils.validation import check_X_y

from .._parallel import parallel_map
from ._batch import fit_predict_many
from .._validation import (check_bool, check_int, check_int_array, check_labels, check_option,
                           check_random_state, naming, num_rows)

_WHY_B = "it is the number of bootstrap samples drawn"


def _rng(random_state):
    """A numpy Generator, or the legacy RandomState passed in (to reproduce mlxtend's draws)."""
    random_state = check_random_state(random_state)
    if isinstance(random_state, (np.random.Generator, np.random.RandomState)):
        return random_state
    return np.random.default_rng(random_state)


def never_drawn_probability(n_samples):
    """Probability (1 - 1/m)^m that a given sample is missing from a bootstrap sample.

    Parameters
    ----------
    n_samples : int or array of int
        The size m >= 1 of the data set (and of the bootstrap sample).

    Returns
    -------
    float or ndarray
        Tends to 1/e ~ 0.3679 from below as m grows.

    Examples
    --------
    >>> round(float(never_drawn_probability(10)), 4)
    0.3487
    >>> bool(never_drawn_probability(10_000) < np.exp(-1))
    True
    """
    m = check_int_array(n_samples, "n_samples", low=1, why="it is the size m of the data set")
    m = np.asarray(m, dtype=float)  # exact enough: log1p keeps (1 - 1/m)^m accurate for huge m
    with np.errstate(divide="ignore"):  # m = 1: log1p(-1) = -inf, and the probability is 0
        return np.exp(m * np.log1p(-1.0 / m))


def bootstrap_indices(n_samples, n_resamples, random_state=None):
    """Indices of ``n_resamples`` bootstrap samples of ``range(n_samples)``.

    Row b holds m indices drawn uniformly with replacement. An int seed or a
    Generator draws ``rng.integers(0, m, (n_resamples, m))``, the same draws as
    ``scipy.stats.bootstrap``; a legacy ``RandomState`` draws one row at a time
    with ``randint``, the same draws as ``mlxtend.evaluate.BootstrapOutOfBag``.

    Returns
    -------
    ndarray of int, shape (n_resamples, n_samples)

    Examples
    --------
    >>> idx = bootstrap_indices(5, 3, random_state=0)
    >>> idx.shape, bool(idx.min() >= 0), bool(idx.max() < 5)
    ((3, 5), True, True)
    >>> bool((idx == bootstrap_indices(5, 3, random_state=0)).all())
    True
    """
    m = check_int(n_samples, "n_samples", low=1, why="it is the size m of the data set")
    n_resamples = check_int(n_resamples, "n_resamples", low=1, why=_WHY_B)
    rng = _rng(random_state)
    if isinstance(rng, np.random.RandomState):
        return np.stack([rng.randint(0, m, size=m) for _ in range(n_resamples)])
    return rng.integers(0, m, size=(n_resamples, m))


def draw_counts(n_samples, n_resamples, random_state=None):
    """How often each sample is drawn in each of ``n_resamples`` bootstrap samples.

    Entry (b, i) counts the copies of sample i in bootstrap sample b; it follows
    a Binomial(m, 1/m) law, and ``(counts == 0).mean(axis=1)`` is the fraction
    left out of the bag.

    Examples
    --------
    >>> counts = draw_counts(1000, 200, random_state=0)
    >>> bool((counts.sum(axis=1) == 1000).all())
    True
    >>> round(float((counts == 0).mean()), 2)
    0.37
    """
    return _counts(bootstrap_indices(n_samples, n_resamples, random_state))


def _counts(idx):
    b, m = idx.shape
    flat = (idx + m * np.arange(b)[:, None]).ravel()
    return np.bincount(flat, minlength=b * m).reshape(b, m)


class BootstrapOutOfBag:
    """Bootstrap splitter: train on a bootstrap sample, test on its out-of-bag samples.

    A scikit-learn splitter (``split``, ``get_n_splits``), so it plugs into
    ``cross_val_score`` and ``GridSearchCV``. Training indices repeat; test
    indices are the samples the bootstrap sample missed, sorted. A bootstrap
    sample that draws every sample (no test set; likely only for m < 10) is
    drawn again, so every split has a test set.

    Parameters
    ----------
    n_resamples : int, default=200
        Number of bootstrap samples (splits), >= 1.
    random_state : None, int, numpy Generator or RandomState
        An int gives the same splits on every call of ``split``.

    Examples
    --------
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> X = np.arange(40.0).reshape(20, 2); y = np.arange(20) % 2
    >>> cv = BootstrapOutOfBag(n_resamples=5, random_state=0)
    >>> train, test = next(cv.split(X))
    >>> len(train), bool(np.intersect1d(train, test).size == 0)
    (20, True)
    >>> cross_val_score(KNeighborsClassifier(3), X, y, cv=cv).shape
    (5,)
    """

    def __init__(self, n_resamples=200, random_state=None):
        self.n_resamples = check_int(n_resamples, "n_resamples", low=1, why=_WHY_B)
        _rng(random_state)  # type check only; the generator is made in split()
        self.random_state = random_state

    def __repr__(self):
        return f"BootstrapOutOfBag(n_resamples={self.n_resamples}, random_state={self.random_state!r})"

    def get_n_splits(self, X=None, y=None, groups=None):
        """Number of splits, ``n_resamples``."""
        return self.n_resamples

    def split(self, X, y=None, groups=None):
        """Yield ``(train, test)`` index arrays: a bootstrap sample and its out-of-bag samples."""
        m = num_rows(X, "X")
        if m < 2:
            raise ValueError(f"X must hold at least 2 samples, got n_samples={m}: a bootstrap "
                             "sample of one sample always draws it, leaving no out-of-bag test set.")
        rng = _rng(self.random_state)
        for _ in range(self.n_resamples):
            while True:
                train = bootstrap_indices(m, 1, rng)[0]
                test = np.flatnonzero(np.bincount(train, minlength=m) == 0)
                if test.size:
                    break
            yield train, test


# --------------------------------------------------------------------------- errors
def _zero_one(y_true, y_pred):
    return float(np.mean(np.asarray(y_true) != np.asarray(y_pred)))


def _squared(y_true, y_pred):
    return float(np.mean((np.asarray(y_true, float) - np.asarray(y_pred, float)) ** 2))


_LOSSES = {"zero_one": _zero_one, "squared_error": _squared}


def _check_loss(loss, y):
    """The loss function; refuse scorers and functions where a perfect fit scores higher."""
    if loss is None:
        return _zero_one
    if isinstance(loss, str):
        return _LOSSES[check_option(loss, "loss", list(_LOSSES))]
    if hasattr(loss, "_score_func") or not callable(loss):
        raise TypeError(f"loss must be a function loss(y_true, y_pred) returning an error, got "
                        f"loss={loss!r}; a scikit-learn scorer takes (estimator, X, y) and returns "
                        "a score. Pass e.g. sklearn.metrics.zero_one_loss.")
    values = []
    for y_pred in (y, np.roll(y, 1)):
        value = loss(y, y_pred)
        if np.ndim(value) != 0 or not isinstance(value, (numbers.Real, np.floating, np.integer)) \
                or not np.isfinite(value):
            raise ValueError("loss must return one finite number, the mean loss over the samples, "
                             f"got {value!r} from loss(y, y).")
        values.append(float(value))
    if values[0] == values[1] and values[0] > 1e-6:  # y has one class: no shifted prediction
        raise ValueError(f"loss must be an error (lower is better, 0 for a perfect fit), but "
                         f"loss(y, y) = {values[0]:g}: it behaves like a score such as accuracy. "
                         "Pass an error, e.g. lambda y, p: 1 - accuracy_score(y, p).")
    if values[0] > values[1]:
        raise ValueError(f"loss must be an error (lower is better), but loss(y, y) = {values[0]:g} "
                         f"exceeds loss(y, shifted y) = {values[1]:g}: it behaves like a score such "
                         "as accuracy. Pass an error, e.g. lambda y, p: 1 - accuracy_score(y, p).")
    return loss


class _estimator_limits:
    """Reword a ValueError/TypeError raised by the user's estimator to name it and X, y.

    What fails there is the estimator's own limit (e.g. scikit-learn's trees
    work in float32 and refuse |x| > 3.4e38), not a check of this module.
    """

    def __init__(self, estimator):
        self.estimator = estimator

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        from sklearn.exceptions import NotFittedError
        if kind is None or not issubclass(kind, (ValueError, TypeError)) \
                or issubclass(kind, NotFittedError):
            return False
        plain = ValueError if issubclass(kind, ValueError) else TypeError
        raise plain(f"estimator={self.estimator!r} could not be fitted to, or predict, the "
                    f"bootstrap samples of X and y: {error}") from error


def _fit_predict(estimator, X, y, trains):
    """Predictions on all of X of the models fitted on each training index set."""
    with _estimator_limits(estimator):
        return fit_predict_many(estimator, X, y, trains, X)   # batched for 1-NN and LDA


@dataclass(frozen=True)
class BootstrapErrorReport:
    """Every ingredient of the bootstrap error estimates, and two standard errors.

    See :func:`bootstrap_error_report` for the formulas; ``se_leave_one_out``
    and ``se_point632plus`` are jackknife-after-bootstrap standard errors.
    """

    resubstitution: float          # err-bar: the model fitted on all data, tested on it
    out_of_bag: float              # mean over resamples of the out-of-bag error
    leave_one_out: float           # Err^(1): mean over samples of their out-of-bag error
    no_information: float          # gamma: error when inputs and labels are unrelated
    relative_overfitting: float    # R' in [0, 1]
    point632: float                # .368 err-bar + .632 Err^(1)
    point632plus: float            # .632 plus a correction growing with R' (see below)
    n_resamples: int               # resamples with a non-empty out-of-bag set
    naive: float                   # Err_boot: each f_b tested on all of D (ESL eq. 7.54)
    se_leave_one_out: float = float("nan")  # jackknife-after-bootstrap s.e. of Err^(1)
    se_point632plus: float = float("nan")   # jackknife-after-bootstrap s.e. of .632+

    @property
    def weight(self):
        """The .632+ weight w = .632 / (1 - .368 R') of Err^(1), in [.632, 1] (exact when unclipped)."""
        return 0.632 / (1.0 - 0.368 * self.relative_overfitting)


def bootstrap_error_report(estimator, X, y, *, n_resamples=200, loss=None, random_state=None,
                           n_jobs=None, standard_errors=True):
    """Out-of-bag, .632 and .632+ estimates of an estimator's generalization error.

    With f fitted on all m samples and f_b on bootstrap sample b (Efron 1983;
    Efron & Tibshirani 1997):

    * ``resubstitution`` err = (1/m) sum_i L(y_i, f(x_i));
    * ``naive`` Err_boot = (1/B) sum_b (1/m) sum_i L(y_i, f_b(x_i)), every
      bootstrap model tested on all of the data, the samples it was trained on
      included (Hastie, Tibshirani & Friedman 2009, eq. 7.54): optimistic;
    * ``out_of_bag``: the mean over b of f_b's error on the samples b missed;
    * ``leave_one_out`` Err1 = (1/m) sum_i mean_{b: i not in b} L(y_i, f_b(x_i)),
      over the samples left out at least once;
    * ``no_information`` gamma = (1/m^2) sum_i sum_j L(y_i, f(x_j));
    * ``point632`` = .368 err + .632 Err1;
    * ``relative_overfitting`` R' = (Err1' - err) / (gamma - err), with
      Err1' = min(Err1, gamma), when Err1 > err and gamma > err; R' = 0
      otherwise. So 0 <= R' <= 1: the papers' R, clipped;
    * ``point632plus`` = Err.632 + (Err1' - err) .368 .632 R' / (1 - .368 R')
      (eq. 32 of Efron & Tibshirani 1997), which is (1 - w) err + w Err1 with
      w = .632 / (1 - .368 R') when no clipping happens;
    * ``se_leave_one_out`` and ``se_point632plus``: jackknife-after-bootstrap
      standard errors of Err1 and of .632+ (Efron 1992), from the same
      resamples, with no further fit. For each sample i the estimate is
      recomputed as ``theta_(i)`` from the resamples that miss i, with i left
      out of every average over samples: ``Err1_(i)`` averages over j != i the
      mean loss of j over the resamples that miss both i and j; ``err_(i)`` and
      ``gamma_(i)`` drop i's terms from the sums of the full model's losses. Then
      ``se = sqrt((n - 1)/n * sum_i (theta_(i) - mean)^2)`` over the n samples
      missed by some resample (nan when n < 2). The full model is not refitted
      without i, so ``err_(i)`` and ``gamma_(i)`` keep i's influence on that fit: the
      standard error of .632+ ignores the variability of err and gamma through
      the fit (Err1's is complete). The jackknife values also carry the Monte
      Carlo noise of a finite B, about 0.368 B resamples each, which adds to
      the variance the jackknife sees: use a large B. The jackknife variance
      itself errs on the large side (Efron & Stein 1981). The delta-method
      standard error of Err1 (Efron & Tibshirani 1997, sec. 4) is not
      implemented.

    Parameters
    ----------
    estimator : scikit-learn estimator with ``fit`` and ``predict``
    X : array-like, shape (n_samples, n_features)
    y : array-like, shape (n_samples,)
    n_resamples : int, default=200
        Number of bootstrap samples, >= 1.
    loss : None, "zero_one", "squared_error" or callable
        ``loss(y_true, y_pred)``, the *mean* of per-sample losses (lower is
        better), like ``zero_one_loss`` or ``mean_squared_error``: Err1 and
        gamma apply it to groups of predictions. None is the 0-1 loss.
    random_state : None, int, numpy Generator or RandomState
    n_jobs : int or None
        Fit the bootstrap models in parallel (joblib); None runs here.
    standard_errors : bool, default=True
        Compute ``se_leave_one_out`` and ``se_point632plus`` (False leaves
        them nan). It needs every out-of-bag loss on its own: free for the
        built-in losses, one call of a callable ``loss`` per distinct
        (label, prediction) pair, which is slow for a callable loss on
        continuous predictions.

    Returns
    -------
    BootstrapErrorReport

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 2)); y = rng.integers(0, 2, 40)   # labels unrelated to X
    >>> r = bootstrap_error_report(KNeighborsClassifier(1), X, y, n_resamples=50, random_state=0)
    >>> r.resubstitution, r.relative_overfitting        # 1-NN memorizes: R' = 1
    (0.0, 1.0)
    >>> bool(r.point632 < 0.4 < r.point632plus)         # .632 is fooled, .632+ is not
    True
    >>> bool(0 < r.se_point632plus < 0.2 and 0 < r.se_leave_one_out < 0.2)  # its own uncertainty
    True
    """
    with naming("X and y"):
        X, y = check_X_y(X, y, accept_sparse=True, dtype=None, ensure_all_finite=False)
    check_labels(y, "y")
    loss = _check_loss(loss, y)
    standard_errors = check_bool(standard_errors, "standard_errors")
    m = len(y)
    idx = bootstrap_indices(m, n_resamples, random_state)
    counts = _counts(idx)
    rows = np.flatnonzero((counts == 0).any(axis=1))
    if rows.size == 0:
        raise ValueError(f"every one of the n_resamples={n_resamples} bootstrap samples of "
                         f"n_samples={m} drew every sample, so no out-of-bag sample is left to "
                         "test on; use more samples or a larger n_resamples.")
    trains = [idx[b] for b in rows]
    tests = [np.flatnonzero(counts[b] == 0) for b in rows]
    chunks = [trains[i:i + 10] for i in range(0, len(trains), 10)]
    on_all = parallel_map(partial(_fit_predict, estimator, X, y), chunks, n_jobs=n_jobs,
                          desc="bootstrap fits")
    on_all = [p for chunk in on_all for p in chunk]
    naive = float(np.mean([loss(y, p) for p in on_all]))
    predicted = [p[test] for p, test in zip(on_all, tests)]
    out_of_bag = float(np.mean([loss(y[t], p) for t, p in zip(tests, predicted)]))
    # Err^(1): group every out-of-bag prediction by the sample it predicts.
    owner, values = np.concatenate(tests), np.concatenate(predicted)
    order = np.argsort(owner, kind="stable")
    owner, values = owner[order], values[order]
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    ends = np.r_[starts[1:], owner.size]
    leave_one_out = float(np.mean([loss(y[owner[s:e]], values[s:e]) for s, e in zip(starts, ends)]))
    with _estimator_limits(estimator):
        full = clone(estimator).fit(X, y).predict(X)
    resub = float(loss(y, full))
    labels, times = np.unique(full, return_counts=True)
    gamma = float(sum(t / m * loss(y, np.full(m, v)) for v, t in zip(labels, times)))
    r, point632, plus = _plus(resub, leave_one_out, gamma)
    se_loo = se_plus = float("nan")
    if standard_errors:
        rows_of = np.repeat(np.arange(rows.size), [t.size for t in tests])
        se_loo, se_plus = _jackknife_after_bootstrap(
            loss, y, full, counts[rows] == 0, rows_of, np.concatenate(tests),
            np.concatenate(predicted))
    return BootstrapErrorReport(resub, out_of_bag, leave_one_out, gamma, float(r), float(point632),
                                float(plus), int(rows.size), naive, se_loo, se_plus)


def _plus(resub, leave_one_out, gamma):
    """R', .632 and .632+ from err, Err1 and gamma (scalars or arrays of the same shape)."""
    resub, leave_one_out, gamma = np.broadcast_arrays(*map(np.asarray, (resub, leave_one_out, gamma)))
    err1 = np.minimum(leave_one_out, gamma)
    overfits = (leave_one_out > resub) & (gamma > resub)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(overfits, (err1 - resub) / np.where(overfits, gamma - resub, 1.0), 0.0)
    point632 = 0.368 * resub + 0.632 * leave_one_out
    plus = point632 + (err1 - resub) * 0.368 * 0.632 * r / (1.0 - 0.368 * r)
    return r, point632, plus


def _pointwise(loss, y_true, y_pred):
    """Per-sample losses L(y_i, p_i) of a mean loss: vectorized for the built-in losses, else one
    call of ``loss`` on length-1 arrays per distinct (y, p) pair."""
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if loss is _zero_one:
        return (y_true != y_pred).astype(float)
    if loss is _squared:
        return (y_true.astype(float) - y_pred.astype(float)) ** 2
    _, t_code = np.unique(y_true, return_inverse=True)
    p_values, p_code = np.unique(y_pred, return_inverse=True)
    pair = t_code.ravel() * p_values.size + p_code.ravel()
    codes, first, back = np.unique(pair, return_index=True, return_inverse=True)
    values = np.array([float(loss(y_true[k:k + 1], y_pred[k:k + 1])) for k in first])
    return values[back.ravel()]


def _jackknife_after_bootstrap(loss, y, full, out, rows_of, owner, predicted):
    """Jackknife-after-bootstrap standard errors of Err1 and .632+ (Efron 1992), no new fits.

    ``out[b, i]`` says sample i is out of bag in resample b; the out-of-bag prediction
    ``predicted[k]`` of resample ``rows_of[k]`` is for sample ``owner[k]``; ``full`` holds the
    predictions of the model fitted on all the data. Memory stays O(B m): blocks of samples.
    """
    m = y.size
    oob_loss = np.zeros(out.shape)
    oob_loss[rows_of, owner] = _pointwise(loss, y[owner], predicted)
    out = out.astype(float)
    err1, usable = np.zeros(m), np.zeros(m, dtype=bool)
    step = max(1, 2 ** 22 // m)
    for lo in range(0, m, step):
        block = np.arange(lo, min(m, lo + step))
        num, den = out[:, block].T @ oob_loss, out[:, block].T @ out   # over resamples missing i, j
        keep = den > 0
        keep[np.arange(block.size), block] = False                    # Err1_(i): j != i only
        ratio = np.divide(num, den, out=np.zeros_like(num), where=keep)
        usable[block] = keep.any(axis=1)          # some resample misses i and another sample
        err1[block] = ratio.sum(axis=1) / np.maximum(keep.sum(axis=1), 1)
    resub_each = _pointwise(loss, y, full)
    resub = (resub_each.sum() - resub_each) / (m - 1)
    # gamma_(i) = (1/(m-1)^2) sum_{j != i} sum_{k != i} L(y_j, f(x_k)), from mean losses:
    # sum_j L(y_j, v) = m loss(y, v...) and sum_k L(y_i, f(x_k)) = m loss(y_i..., f(X)).
    values, code, times = np.unique(full, return_inverse=True, return_counts=True)
    to_value = np.array([m * float(loss(y, np.full(m, v))) for v in values])
    labels, label_code = np.unique(y, return_inverse=True)
    from_label = np.array([m * float(loss(np.full(m, t), full)) for t in labels])
    total = to_value @ times
    gamma = (total - from_label[label_code.ravel()] - to_value[code.ravel()] + resub_each) \
        / (m - 1) ** 2
    if usable.sum() < 2:
        return float("nan"), float("nan")
    plus = _plus(resub[usable], err1[usable], gamma[usable])[2]
    return _jackknife_se(err1[usable]), _jackknife_se(plus)


def _jackknife_se(values):
    """``sqrt((n - 1)/n * sum (v_i - mean)^2)``, the jackknife standard error."""
    n = values.size
    return float(np.sqrt((n - 1) / n * np.sum((values - values.mean()) ** 2)))


def bootstrap_error(estimator, X, y, method="oob", n_resamples=200, loss=None, random_state=None,
                    n_jobs=None):
    """Bootstrap estimate of generalization error (lower is better).

    ``method`` is "oob" (mean out-of-bag error over resamples), ".632" or
    ".632+"; see :func:`bootstrap_error_report` for the formulas and the other
    parameters.

    Examples
    --------
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> rng = np.random.default_rng(1)
    >>> y = np.arange(60) % 2; X = rng.normal(size=(60, 2)) + 2.0 * y[:, None]
    >>> e = bootstrap_error(LinearDiscriminantAnalysis(), X, y, ".632+", 50, random_state=0)
    >>> bool(0.0 < e < 0.2)
    True
    """
    method = check_option(method, "method", ["oob", ".632", ".632+"])
    report = bootstrap_error_report(estimator, X, y, n_resamples=n_resamples, loss=loss,
                                    random_state=random_state, n_jobs=n_jobs,
                                    standard_errors=False)
    return {"oob": report.out_of_bag, ".632": report.point632, ".632+": report.point632plus}[method]
