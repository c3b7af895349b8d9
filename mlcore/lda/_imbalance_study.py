"""The chapter 11 study of remedies for class imbalance, each scored by cross-validation
with the remedy applied inside the training folds only. Private; the public
faces are :mod:`mlcore.imbalance` and :mod:`mlcore.lda`; used by the chapter and by ``scripts/imbalance_seeds.py``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from .._validation import check_estimator_object, check_int
from ..evaluation import average_precision, fbeta
from . import _imbalance as im
from ._checks import _check_two_class

__all__ = ["REMEDIES", "remedy_study"]

REMEDIES = ("none", "rescaling", "F1 threshold", "undersampling", "undersampling, corrected",
            "EasyEnsemble", "SMOTE")


def _log_loss(y, p):
    p = np.clip(p, 1e-15, 1 - 1e-15)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log1p(-p)))


def remedy_study(X, y, remedies=REMEDIES, *, estimator=None, n_splits=5, random_state=None):
    """Score remedies for a rare positive class (label 1) by stratified K-fold cross-validation.

    Every remedy is applied to the training folds only; the test folds keep
    the real class proportions. The remedies, with the criterion each one
    targets:

    - ``"none"``: the model, threshold ½ (error rate).
    - ``"rescaling"``: the same model, positive when the odds exceed
      :math:`m^+/m^-` (:func:`~mlcore.imbalance.rescale_threshold`): the Bayes rule for
      balanced error.
    - ``"F1 threshold"``: the same model, thresholded at
      :func:`~mlcore.imbalance.best_f1_threshold` of out-of-fold (3-fold)
      probabilities *within* the training folds: F1.
    - ``"undersampling"``: the model trained on a balanced undersample,
      threshold ½ (balanced error).
    - ``"undersampling, corrected"``: those probabilities mapped back by
      :func:`~mlcore.imbalance.undersampling_correction`, threshold ½
      (calibrated probabilities: log loss).
    - ``"EasyEnsemble"``: :class:`~mlcore.imbalance.EasyEnsembleClassifier`
      with 10 subsets, threshold ½ (balanced error).
    - ``"SMOTE"``: the model trained on :func:`~mlcore.imbalance.smote`'s
      balanced data, threshold ½ (balanced error).

    Parameters
    ----------
    X : array_like of shape (m, n)
    y : array_like of shape (m,), 0/1
    remedies : sequence of names from ``REMEDIES``
    estimator : classifier with ``predict_proba``, optional
        Default: standardization then logistic regression.
    n_splits : int, default=5
    random_state : int or None
        Seeds the folds and every resampling.

    Returns
    -------
    table : pandas.DataFrame
        One row per remedy: the means over folds of F1, balanced accuracy,
        average precision (AP), log loss and the share predicted positive.
    out_of_fold : dict
        ``{remedy: (predicted labels, scores)}`` for every sample, from the
        fold where it was a test sample.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> X, y = make_classification(600, 5, weights=[0.93], random_state=0)
    >>> table, _ = remedy_study(X, y, ["none", "rescaling"], random_state=0)
    >>> bool(table.loc["rescaling", "balanced accuracy"] > table.loc["none", "balanced accuracy"])
    True
    """

    X, y, classes = _check_two_class(X, y, cap=False)
    if not np.array_equal(classes, [0, 1]):
        raise ValueError(f"y must hold the labels 0 and 1 (1 = the rare class), got {classes.tolist()}.")
    if isinstance(remedies, str) or not all(isinstance(r, str) and r in REMEDIES for r in remedies):
        raise ValueError(f"remedies must be a list of names from {list(REMEDIES)}, got {remedies!r}.")
    if len(remedies) == 0:
        raise ValueError(f"remedies must name at least one remedy from {list(REMEDIES)}, got [].")
    n_splits = check_int(n_splits, "n_splits", low=2, high=int(min(np.bincount(y.astype(int)))),
                         why="each fold needs a sample of each class")
    if estimator is None:
        estimator = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    check_estimator_object(estimator, "estimator", ("fit", "predict_proba"))
    return _study(X, y.astype(int), list(remedies), estimator, n_splits, random_state)


def _study(X, y, remedies, estimator, n_splits, random_state):

    rows, out = [], {r: (np.zeros(len(y), dtype=int), np.zeros(len(y))) for r in remedies}
    for train, test in StratifiedKFold(n_splits, shuffle=True, random_state=random_state).split(X, y):
        X_t, y_t = X[train], y[train]
        n_pos, n_neg = int(y_t.sum()), int(len(y_t) - y_t.sum())
        base = None
        if {"none", "rescaling", "F1 threshold"} & set(remedies):
            base = clone(estimator).fit(X_t, y_t).predict_proba(X[test])[:, 1]
        under = None
        if {"undersampling", "undersampling, corrected"} & set(remedies):
            X_u, y_u = im.random_undersample(X_t, y_t, random_state=random_state)
            under = clone(estimator).fit(X_u, y_u).predict_proba(X[test])[:, 1]
        for remedy in remedies:
            if remedy == "none":
                p, predicted = base, (base >= 0.5).astype(int)
            elif remedy == "rescaling":
                p, predicted = base, im.rescale_threshold(base, n_pos, n_neg)
            elif remedy == "F1 threshold":
                inner = cross_val_predict(clone(estimator), X_t, y_t, method="predict_proba",
                                          cv=StratifiedKFold(3, shuffle=True, random_state=random_state))[:, 1]
                threshold, _ = im.best_f1_threshold(y_t, inner)
                p, predicted = base, (base >= threshold).astype(int)
            elif remedy == "undersampling":
                p, predicted = under, (under >= 0.5).astype(int)
            elif remedy == "undersampling, corrected":
                p = im.undersampling_correction(under, n_pos / n_neg)
                predicted = (p >= 0.5).astype(int)
            elif remedy == "EasyEnsemble":
                model = im.EasyEnsembleClassifier(clone(estimator), n_subsets=10, random_state=random_state)
                p = model.fit(X_t, y_t).predict_proba(X[test])[:, 1]
                predicted = (p >= 0.5).astype(int)
            else:                                          # SMOTE
                X_s, y_s = im.smote(X_t, y_t, random_state=random_state)
                p = clone(estimator).fit(X_s, y_s).predict_proba(X[test])[:, 1]
                predicted = (p >= 0.5).astype(int)
            y_test = y[test]
            recall, specificity = predicted[y_test == 1].mean(), 1 - predicted[y_test == 0].mean()
            rows.append({"remedy": remedy, "F1": fbeta(y_test, predicted),
                         "balanced accuracy": (recall + specificity) / 2,
                         "AP": average_precision(y_test, p), "log loss": _log_loss(y_test, p),
                         "predicted positive": predicted.mean()})
            out[remedy][0][test], out[remedy][1][test] = predicted, p
    table = pd.DataFrame(rows).groupby("remedy", sort=False).mean()
    return table, out
