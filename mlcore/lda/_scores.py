"""What the two linear discriminant classifiers share, :class:`FisherLDA` and
:class:`ShrinkageLDA` (private; the public face is :mod:`mlcore.lda`): per-class
coefficients collapsed to one row for two classes, the scores of new samples, and
the probabilities and labels those scores give.
"""

from __future__ import annotations

import numpy as np
import scipy.special
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import naming


def _collapse_two_classes(coef, intercept):
    """Per-class coefficients as scikit-learn stores them: for two classes one row, the log-odds of class 1."""
    if len(coef) == 2:
        return (coef[1] - coef[0])[None, :], np.array([intercept[1] - intercept[0]])
    return coef, intercept


def _linear_scores(estimator, X):
    """``X @ coef_.T + intercept_`` of a fitted estimator, raveled for two classes."""
    check_is_fitted(estimator)
    with naming("X"):
        X = validate_data(estimator, X, dtype=np.float64, reset=False)
    scores = X @ estimator.coef_.T + estimator.intercept_
    return scores.ravel() if estimator.classes_.size == 2 else scores


def _probabilities(scores):
    """The softmax of the scores (two classes: the sigmoid of the log-odds), one column per class."""
    if scores.ndim == 1:
        positive = scipy.special.expit(scores)
        return np.column_stack([1 - positive, positive])
    return scipy.special.softmax(scores, axis=1)


def _labels(classes, scores):
    """The class with the largest score (two classes: ``classes[1]`` where the log-odds are positive)."""
    if scores.ndim == 1:
        return classes[(scores > 0).astype(int)]
    return classes[np.argmax(scores, axis=1)]
