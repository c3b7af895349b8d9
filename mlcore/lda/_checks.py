"""Input checks shared by chapter 11's estimators and functions (private; the public face
is :mod:`mlcore.lda`).
"""

from __future__ import annotations

import numpy as np

from .._validation import check_array, check_labels


def _check_X_y(X, y, *, cap=True):
    """X a finite (m, n >= 1) array, within [-1e150, 1e150] if ``cap`` (scatters square it);
    y m class labels (not continuous values)."""
    X = check_array(X, "X", ndim=2, min_length=1)
    if X.shape[1] == 0:
        raise ValueError(f"X must have at least one column (feature), got shape {X.shape}.")
    if cap and np.abs(X).max(initial=0.0) > 1e150:
        raise ValueError(f"X must lie within [-1e150, 1e150] (its scatter matrices would "
                         f"overflow), got largest |x| {np.abs(X).max():g}; standardize X.")
    y = check_labels(y, "y", n_samples=len(X))
    if y.dtype.kind == "f" and not np.array_equal(y, np.round(y)):
        raise ValueError(f"y must hold class labels, got continuous values (e.g. {float(y[y != np.round(y)][0]):g}); "
                         "discretize y first.")
    return X, y


def _check_two_class(X, y, *, cap=True):
    X, y = _check_X_y(X, y, cap=cap)
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(f"y must hold exactly two classes, got {classes.size} ({classes.tolist()[:5]}).")
    return X, y, classes
