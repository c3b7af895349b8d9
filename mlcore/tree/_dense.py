"""Growing a tree on continuous features with no missing value: the fast path of
:class:`~mlcore.tree.DecisionTreeClassifier`.

Every feature is sorted once, at the root; a node's samples stay sorted per
feature as the rows of an ``(m, F)`` array of sample numbers, and a split
filters those rows (a stable filter keeps them sorted), so no node sorts
again. The scores are the arrays of ``DecisionTreeClassifier._score_continuous_all``,
computed the same way, and the choice between features, thresholds and
classes follows ``_best_split`` and ``_grow``: the tree is the general path's,
node for node (``tests/test_tree.py`` compares them). What the general path
spends per node beyond the arithmetic (gathering columns, sorting, masks per
feature, the candidate list) is what this path saves, and a deep tree has
thousands of small nodes.
"""

from __future__ import annotations

import numpy as np
from scipy.special import xlogy

from ._criteria import _entropy_of, _gini_of, _midpoints
from ._node import Node, _majority

_LN2 = np.log(2)


def grow_dense(X, y, n_classes, criterion, max_depth, min_samples_split):
    """The root of the tree grown on ``X`` (float, no NaN) and class indices ``y``, unit weights."""
    order = np.argsort(X, axis=0, kind="mergesort")                 # ties by sample number
    onehot = np.eye(n_classes)[y]
    grower = _Grower(X, y, onehot, n_classes, criterion, max_depth, min_samples_split)
    return grower.grow(order, 0, None)


def threshold_scores(xs, onehot, criterion):
    """The score of every threshold of every feature of a node, and each feature's best.

    ``xs`` is the node's ``(m, F)`` block sorted down each column and
    ``onehot`` its ``(m, F, K)`` weighted class indicators in the same order.
    The threshold after sorted position ``i`` sends positions ``0..i`` left;
    only positions between distinct values count (``distinct``). Returns
    ``scores`` of shape ``(m - 1, F)`` (the gain in bits, or the children's
    weighted Gini index for ``"gini"``; -inf or inf where not distinct),
    ``best`` (the first best position of each feature), ``distinct`` and the
    left and right weights.
    """
    K = onehot.shape[2]
    left = np.cumsum(onehot, axis=0)[:-1]                                # (m-1, F, K)
    total = onehot[:, 0, :].sum(axis=0)
    n_left = left.sum(axis=2)
    n_right, n = total.sum() - n_left, total.sum()
    distinct = xs[1:] > xs[:-1]
    if criterion == "gini":
        right = total - left
        scores = (n_left * _gini_of(left) + n_right * _gini_of(right)) / n
        scores = np.where(distinct, scores, np.inf)
        return scores, np.argmin(scores, axis=0), distinct, n_left, n_right
    # Only thresholds between distinct values, and with the counts unnormalized:
    # n_l Ent(l) = (n_l ln n_l - sum_k l_k ln l_k) / ln 2, the same for the right side.
    at = np.flatnonzero(distinct.ravel())
    lefts = left.reshape(-1, K)[at]
    # With fractional weights (missing values) total - left can round to -1e-16,
    # and xlogy of a negative count is NaN, which argmax would pick as the best.
    rights = np.maximum(total - lefts, 0.0)
    nl, nr = n_left.ravel()[at], np.maximum(n_right.ravel()[at], 0.0)
    children = (xlogy(nl, nl) - xlogy(lefts, lefts).sum(axis=1)
                + xlogy(nr, nr) - xlogy(rights, rights).sum(axis=1)) / _LN2
    scores = np.full(distinct.shape, -np.inf)
    scores.ravel()[at] = _entropy_of(total) - children / n
    return scores, np.argmax(scores, axis=0), distinct, n_left, n_right


class _Grower:
    def __init__(self, X, y, onehot, n_classes, criterion, max_depth, min_samples_split):
        self.X, self.y, self.onehot, self.K = X, y, onehot, n_classes
        self.criterion, self.max_depth, self.min_split = criterion, max_depth, min_samples_split
        self.columns = np.arange(X.shape[1])
        self.left_member = np.zeros(len(y), dtype=bool)

    def grow(self, order, depth, parent_prediction):
        m = len(order)
        counts = np.bincount(self.y[order[:, 0]], minlength=self.K).astype(float)
        node = Node(counts, _majority(counts, parent_prediction if parent_prediction is not None else 0),
                    depth)
        if np.count_nonzero(counts) <= 1:
            return node
        if (self.max_depth is not None and depth >= self.max_depth) or m < self.min_split:
            return node
        split = self.best_split(order)
        if split is None:
            return node
        feature, threshold = split
        goes_left = self.X[order[:, feature], feature] <= threshold      # in the feature's order
        n_left = int(goes_left.sum())
        if n_left in (0, m):
            return node                  # a child equal to its parent: the split separates nothing
        node.feature, node.threshold = feature, threshold
        shares = np.array([n_left, m - n_left], dtype=float)
        node.child_shares = shares / shares.sum()
        member = self.left_member
        member[order[goes_left, feature]] = True
        keep = member[order]                                             # (m, F): left rows
        left = order.T[keep.T].reshape(len(self.columns), n_left).T      # stable: stays sorted
        right = order.T[~keep.T].reshape(len(self.columns), m - n_left).T
        member[order[goes_left, feature]] = False
        node.children = [self.grow(left, depth + 1, node.prediction),
                         self.grow(right, depth + 1, node.prediction)]
        return node

    def best_split(self, order):
        """(feature, threshold) as ``_best_split`` chooses among continuous features, or None."""
        m = len(order)
        xs = self.X[order, self.columns]                                 # (m, F), sorted
        scores, best, distinct, n_left, n_right = threshold_scores(xs, self.onehot[order],
                                                                   self.criterion)
        valid = distinct[best, self.columns]                             # False: a constant feature
        if not valid.any():
            return None
        features = self.columns[valid]
        chosen = best[valid]
        gains = scores[chosen, features]
        if self.criterion == "gain":
            pick = int(np.argmax(gains))
        elif self.criterion == "gini":
            pick = int(np.argmin(gains))
        else:   # C4.5: among gains >= the average, the highest ratio
            iv = _entropy_of(np.column_stack([n_left[chosen, features], n_right[chosen, features]]))
            ratios = np.where(iv > 0, gains / np.where(iv > 0, iv, 1.0), 0.0)
            eligible = gains >= gains.mean() - 1e-12
            pick = int(np.flatnonzero(eligible)[np.argmax(ratios[eligible])])
        f, b = features[pick], chosen[pick]
        threshold = float(_midpoints(xs[b, f], xs[min(b + 1, m - 1), f]))
        return int(f), threshold
