"""Multivariate (oblique) decision trees: one linear split per node (chapter 12)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_int
from ..lda import FisherLDA


@dataclass
class ObliqueNode:
    counts: np.ndarray
    prediction: int
    coef: np.ndarray | None = None            # split: coef @ x + intercept > 0 goes right
    intercept: float = 0.0
    children: list = field(default_factory=list)


class ObliqueTreeClassifier(ClassifierMixin, BaseEstimator):
    """A binary tree whose nodes split on a linear combination of all attributes.

    At each node, Fisher's LDA (:class:`mlcore.lda.FisherLDA`, two classes:
    the node's majority class against the rest) gives a direction and a
    threshold, and the node splits on :math:`w^\\top x + b > 0`. A few such
    oblique splits can follow a slanted boundary that axis-parallel splits
    could only approximate by a staircase.

    Parameters
    ----------
    max_depth : int or None, default=None
    min_samples_split : int, default=2

    Attributes
    ----------
    classes_ : ndarray
    tree_ : ObliqueNode

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(size=(200, 2)); y = (X[:, 0] + X[:, 1] > 1).astype(int)
    >>> tree = ObliqueTreeClassifier(max_depth=1).fit(X, y)
    >>> round(float(tree.score(X, y)), 2)
    0.98
    """

    def __init__(self, *, max_depth=None, min_samples_split=2):
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split

    def fit(self, X, y):
        """Grow the tree; returns ``self``."""
        if self.max_depth is not None:
            check_int(self.max_depth, "max_depth", low=1)
        check_int(self.min_samples_split, "min_samples_split", low=2)
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, index = np.unique(y, return_inverse=True)
        self.tree_ = self._grow(X, index, 0)
        return self

    def _grow(self, X, y, depth):
        counts = np.bincount(y, minlength=len(self.classes_)).astype(float)
        node = ObliqueNode(counts, int(np.argmax(counts)))
        if (np.count_nonzero(counts) <= 1 or len(y) < self.min_samples_split
                or (self.max_depth is not None and depth >= self.max_depth)):
            return node
        target = (y == node.prediction).astype(int)
        if target.min() == target.max() or len(y) <= 2:
            return node
        try:
            lda = FisherLDA().fit(X, target)
        except ValueError:
            return node
        side = (X @ lda.coef_[0] + lda.intercept_[0]) > 0
        if side.all() or not side.any():
            return node
        node.coef, node.intercept = lda.coef_[0], float(lda.intercept_[0])
        node.children = [self._grow(X[~side], y[~side], depth + 1),
                         self._grow(X[side], y[side], depth + 1)]
        return node

    def _leaf_for(self, node, x):
        while node.children:
            node = node.children[int(x @ node.coef + node.intercept > 0)]
        return node

    def predict_proba(self, X):
        """Class shares of the leaf each sample reaches."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return np.array([self._leaf_for(self.tree_, x).counts / self._leaf_for(self.tree_, x).counts.sum()
                         for x in X]).reshape(len(X), -1)

    def predict(self, X):
        """The majority class of the leaf each sample reaches."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def n_leaves(self):
        """Number of leaves."""
        check_is_fitted(self)

        def count(node):
            return 1 if not node.children else sum(count(c) for c in node.children)

        return count(self.tree_)
