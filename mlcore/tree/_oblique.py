"""Multivariate (oblique) decision trees: one linear split per node (chapter 12)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_int
from .._validation import naming
from ..lda import FisherLDA
from ._criteria import threshold_gains


@dataclass
class ObliqueNode:
    counts: np.ndarray
    prediction: int
    coef: np.ndarray | None = None            # split: coef @ x + intercept > 0 goes right
    intercept: float = 0.0
    source: str | None = None                 # which candidate won: "lda", "axis" or "grid"
    children: list = field(default_factory=list)


class ObliqueTreeClassifier(ClassifierMixin, BaseEstimator):
    """A binary tree whose nodes split on a linear combination of all attributes.

    At each node the split :math:`w^\\top x + b > 0` is the one with the
    largest information gain among candidate directions: Fisher's LDA
    direction (:class:`mlcore.lda.FisherLDA`, the node's majority class
    against the rest), every axis, and evenly spaced directions; for each,
    the best threshold comes from :func:`threshold_gains`. A few such oblique
    splits can follow a slanted boundary that axis-parallel splits could only
    approximate by a staircase.

    Parameters
    ----------
    max_depth : int or None, default=None
    min_samples_split : int, default=2

    Attributes
    ----------
    classes_ : ndarray
    tree_ : ObliqueNode
        The root; each split node has ``coef``, ``intercept`` and ``source``,
        the candidate that won: ``"lda"``, ``"axis"`` or ``"grid"`` (an
        earlier candidate keeps a tie).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(size=(200, 2)); y = (X[:, 0] + X[:, 1] > 1).astype(int)
    >>> tree = ObliqueTreeClassifier(max_depth=1).fit(X, y)
    >>> round(float(tree.score(X, y)), 2)
    1.0
    """

    def __init__(self, *, max_depth=None, min_samples_split=2):
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split

    def fit(self, X, y):
        """Grow the tree; returns ``self``."""
        if self.max_depth is not None:
            check_int(self.max_depth, "max_depth", low=1)
        check_int(self.min_samples_split, "min_samples_split", low=2)
        with naming("X or y"):
            X, y = validate_data(self, X, y, dtype=np.float64)
        if np.abs(X).max(initial=0.0) > 1e150:   # projections and scatters would overflow
            raise ValueError(f"X must lie within [-1e150, 1e150], got largest |x| "
                             f"{np.abs(X).max():g}; standardize X.")
        with naming("y"):
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
        best = self._best_oblique_split(X, y)
        if best is None:
            return node
        coef, intercept, source = best
        side = (X @ coef + intercept) > 0
        node.coef, node.intercept, node.source = coef, intercept, source
        node.children = [self._grow(X[~side], y[~side], depth + 1),
                         self._grow(X[side], y[side], depth + 1)]
        return node

    def _best_oblique_split(self, X, y):
        """The (w, b) among candidate directions whose best threshold has the largest gain.

        Candidates: Fisher's LDA direction for the node's majority class
        against the rest, each axis (so the tree is never worse, split by
        split, than an axis-parallel one), and evenly spaced directions (180
        angles in the plane, or 64 seeded random ones in more dimensions).
        """
        n_features = X.shape[1]
        directions = [(w, "axis") for w in np.eye(n_features)]
        target = (y == np.argmax(np.bincount(y))).astype(int)
        if 0 < target.sum() < len(target) and len(y) > 2:
            try:
                directions.insert(0, (FisherLDA().fit(X, target).coef_[0], "lda"))
            except ValueError:
                pass
        if n_features == 2:
            angles = np.linspace(0, np.pi, 180, endpoint=False)
            grid = np.column_stack([np.cos(angles), np.sin(angles)])
        else:
            grid = np.random.default_rng(0).normal(size=(64, n_features))
        directions += [(w, "grid") for w in grid]
        best, best_gain = None, 0.0
        for w, source in directions:
            norm = np.linalg.norm(w)
            if norm == 0:
                continue
            w = w / norm
            thresholds, gains = threshold_gains(X @ w, y)
            if len(gains) and gains.max() > best_gain + 1e-12:
                best_gain = gains.max()
                best = (w, -float(thresholds[np.argmax(gains)]), source)
        return best

    def _leaf_for(self, node, x):
        while node.children:
            node = node.children[int(x @ node.coef + node.intercept > 0)]
        return node

    def predict_proba(self, X):
        """Class shares of the leaf each sample reaches."""
        check_is_fitted(self)
        with naming("X"):
            X = validate_data(self, X, dtype=np.float64, reset=False)
        return np.array([self._leaf_for(self.tree_, x).counts / self._leaf_for(self.tree_, x).counts.sum()
                         for x in X]).reshape(len(X), -1)

    def predict(self, X):
        """The majority class of the leaf each sample reaches."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def splits(self):
        """The split nodes in pre-order, as (depth, coef, intercept, source) tuples."""
        check_is_fitted(self)
        out, stack = [], [(self.tree_, 0)]
        while stack:
            node, depth = stack.pop()
            if node.children:
                out.append((depth, node.coef, node.intercept, node.source))
                stack.extend((c, depth + 1) for c in reversed(node.children))
        return out

    def n_leaves(self):
        """Number of leaves."""
        check_is_fitted(self)

        def count(node):
            return 1 if not node.children else sum(count(c) for c in node.children)

        return count(self.tree_)
