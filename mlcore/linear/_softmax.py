"""Multinomial (softmax) logistic regression: the softmax, its mean cross-entropy and gradient.

With :math:`N_c` classes the model keeps one parameter vector per class, the
rows of ``Theta`` (shape ``(N_c, n + 1)``, intercept first, as in the binary
functions), and predicts :math:`P(y = c \\mid x) = \\operatorname{softmax}(\\Theta\\tilde x)_c`.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_array, check_int_array
from ._functions import _LARGEST, _design

_THETA_WHY = ("Theta holds one row per class, each with the intercept first, then one "
              "weight per column of X")


def softmax(Z):
    """Row-wise softmax :math:`e^{z_c} / \\sum_k e^{z_k}`, computed without overflow.

    The largest entry of each row is subtracted before exponentiating, which
    does not change the result (numerator and denominator share the factor)
    and keeps every exponent at most 0.

    Parameters
    ----------
    Z : array_like of shape (m, N_c) or (N_c,)
        Scores (log-odds up to a common shift), finite real numbers.

    Returns
    -------
    ndarray of the shape of ``Z``
        Each row is a probability vector: positive entries summing to 1.

    Examples
    --------
    >>> softmax([0.0, 0.0]).tolist()
    [0.5, 0.5]
    >>> softmax([[1000.0, 0.0]]).round(6).tolist()   # no overflow
    [[1.0, 0.0]]
    >>> p = softmax([[2.0, 0.0]])[0, 0]               # two classes: the sigmoid of the difference
    >>> bool(np.isclose(p, 1 / (1 + np.exp(-2.0))))
    True
    """
    Z = check_array(Z, "Z", ndim=(1, 2))
    if Z.shape[-1] < 1:
        raise ValueError(f"Z must have at least one column (one score per class), got shape "
                         f"{Z.shape}.")
    shifted = Z - Z.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


def _check_softmax_problem(Theta, X, y):
    X = check_array(X, "X", ndim=2, min_length=1)
    if np.abs(X).max(initial=0.0) > _LARGEST:
        raise ValueError(f"X must lie within [-{_LARGEST:g}, {_LARGEST:g}] (X @ Theta would "
                         f"overflow), got largest |x| {np.abs(X).max():g}; standardize X.")
    Theta = check_array(Theta, "Theta", ndim=2)
    if Theta.shape[1] != X.shape[1] + 1 or Theta.shape[0] < 2:
        raise ValueError(f"Theta must have shape (N_c, {X.shape[1] + 1}) with N_c >= 2 classes "
                         f"for X with {X.shape[1]} features, got shape {Theta.shape}; "
                         f"{_THETA_WHY}.")
    if np.abs(Theta).max(initial=0.0) > _LARGEST:
        raise ValueError(f"Theta must lie within [-{_LARGEST:g}, {_LARGEST:g}] "
                         f"(X @ Theta would overflow), got largest |Theta| "
                         f"{np.abs(Theta).max():g}.")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"y must be a 1-D array with one label per row of X ({X.shape[0]}), "
                         f"got shape {y.shape}.")
    if y.dtype.kind == "f" and np.all(np.isfinite(y)) and np.all(y == np.round(y)):
        y = y.astype(np.int64)
    y = check_int_array(y, "y", low=0, why="labels are the class indices 0, ..., N_c - 1")
    if y.size and y.max() >= Theta.shape[0]:
        raise ValueError(f"y must hold class indices 0, ..., {Theta.shape[0] - 1} (one per row "
                         f"of Theta), got the label {int(y.max())}.")
    return Theta, _design(X), y


def _log_softmax(Z):
    shifted = Z - Z.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def softmax_loss(Theta, X, y):
    """Mean cross-entropy of the softmax model, :math:`-\\frac1m\\sum_i \\log \\hat p_{i, y_i}`.

    Here :math:`\\hat p_i = \\operatorname{softmax}(\\Theta\\tilde x^{(i)})`; the
    log-probabilities are computed as :math:`z_c - \\log\\sum_k e^{z_k}` with the
    largest score subtracted first, so the loss is exact for any scores.

    Parameters
    ----------
    Theta : array_like of shape (N_c, n + 1)
        One row per class: intercept, then one weight per column of ``X``.
    X : array_like of shape (m, n)
    y : array_like of shape (m,)
        Class indices 0, ..., N_c - 1.

    Returns
    -------
    float

    Examples
    --------
    >>> X = [[0.0], [1.0], [2.0]]
    >>> round(softmax_loss(np.zeros((3, 2)), X, [0, 1, 2]), 4)   # log 3: uniform guess
    1.0986
    """
    Theta, X1, y = _check_softmax_problem(Theta, X, y)
    log_p = _log_softmax(X1 @ Theta.T)
    return float(-np.mean(log_p[np.arange(len(y)), y]))


def softmax_gradient(Theta, X, y):
    """Gradient of :func:`softmax_loss`: :math:`\\frac1m (\\hat P - Y)^\\top \\tilde X`.

    :math:`\\hat P` holds the predicted probabilities (one row per sample) and
    :math:`Y` the one-hot labels, so row :math:`c` is
    :math:`\\frac1m\\sum_i (\\hat p_{ic} - [y_i = c])\\,\\tilde x^{(i)}`: the binary
    formula, once per class.

    Parameters
    ----------
    Theta : array_like of shape (N_c, n + 1)
    X : array_like of shape (m, n)
    y : array_like of shape (m,)
        Class indices 0, ..., N_c - 1.

    Returns
    -------
    ndarray of shape (N_c, n + 1)

    Examples
    --------
    >>> X, y = [[0.0], [1.0], [2.0]], [0, 1, 2]
    >>> G = softmax_gradient(np.zeros((3, 2)), X, y)
    >>> G.shape, bool(np.allclose(G.sum(axis=0), 0))   # the rows always sum to 0
    ((3, 2), True)
    """
    Theta, X1, y = _check_softmax_problem(Theta, X, y)
    residual = softmax(X1 @ Theta.T)
    residual[np.arange(len(y)), y] -= 1.0
    return residual.T @ X1 / X1.shape[0]
