"""Pruning for :class:`~mlcore.tree.DecisionTreeClassifier`: reduced-error pre- and
post-pruning on a validation set (Zhou section 4.3), and minimal cost-complexity
pruning as scikit-learn's ``ccp_alpha`` does it: CART's weakest-link algorithm
(Breiman et al. 1984, section 3.3) with the leaves' weighted impurity as the cost
:math:`R(T)` where CART uses the training misclassification rate.

Validation samples are routed as :meth:`predict` routes them: a sample whose
value of the split attribute is missing goes down every branch with the
branch's training share as its weight, and one with a value never seen in
training stops at the node. Post-pruning compares the whole tree's
predictions, so it never lowers validation accuracy.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils import Bunch

from ._criteria import _entropy_of, _gini_of


def _dist(counts, fallback, n_classes):
    """Class probabilities of a node as a leaf, as ``predict_proba`` computes them."""
    total = counts.sum()
    if total > 0:
        return counts / total
    out = np.zeros(n_classes)
    out[fallback] = 1.0
    return out


class _PruningMixin:
    """The validation-set and cost-complexity pruning of the tree (mixed into the estimator)."""

    # -- routing validation samples ------------------------------------------------------
    def _val_branches(self, j, threshold, val_idx, n_children):
        """Per validation row at a node: its branch (>= 0), -1 if missing, -2 if it stops here."""
        x = self._val[0][j][val_idx]
        if threshold is None:
            return np.where(x >= 0, x, np.where(x == -1, -1, -2)).astype(int)
        return np.where(np.isnan(x), -1, (x > threshold).astype(int))

    def _route_val(self, j, threshold, val, shares):
        """Split the weighted validation rows ``val = (idx, w)`` among the children."""
        if val is None:
            return [None] * len(shares)
        idx, w = val
        branch = self._val_branches(j, threshold, idx, len(shares))
        out = []
        for v, share in enumerate(shares):
            known, missing = branch == v, (branch == -1) & (share > 0)
            out.append((idx[known | missing], np.where(known, w, w * share)[known | missing]))
        return out

    # -- pre-pruning ----------------------------------------------------------------------
    def _split_helps(self, node, feature, threshold, parts, val):
        """Pre-pruning: does splitting ``node`` (children as leaves) raise the weighted validation hits?"""
        idx, w = val
        y_val = self._val[1][idx]
        n_classes = len(self.classes_)
        child_counts = [np.bincount(self._y[p_idx], weights=p_w, minlength=n_classes) for p_idx, p_w in parts]
        dists = np.array([_dist(c, node.prediction, n_classes) for c in child_counts])
        shares = np.array([p_w.sum() for _, p_w in parts])
        shares = shares / shares.sum()
        branch = self._val_branches(feature, threshold, idx, len(parts))
        mix = np.zeros((len(idx), len(parts)))
        known = branch >= 0
        mix[np.flatnonzero(known), branch[known]] = 1.0
        mix[branch == -1] = shares
        proba = mix @ dists
        proba[branch == -2] = _dist(node.counts, node.prediction, n_classes)
        split_right = float(np.sum(w * (np.argmax(proba, axis=1) == y_val)))
        leaf_right = float(np.sum(w * (y_val == node.prediction)))
        return split_right > leaf_right + 1e-9          # on a tie both prune_ties rules keep the leaf

    # -- post-pruning ---------------------------------------------------------------------
    def _val_hits(self, rows):
        """How many of the validation rows (indices) the current whole tree predicts right."""
        y_val = self._val[1]
        return sum(int(np.argmax(self._proba_one(self.tree_, self._val_rows[i])) == y_val[i]) for i in rows)

    def _post_prune(self, node, rows):
        """Bottom-up: make ``node`` a leaf if that does not lower (ties: see prune_ties) validation accuracy."""
        if node.is_leaf:
            return
        branch = self._val_branches(node.feature, node.threshold, rows, len(node.children))
        for v, child in enumerate(node.children):
            self._post_prune(child, rows[(branch == v) | ((branch == -1) & (node.child_shares[v] > 0))])
        as_tree = self._val_hits(rows)
        saved = node.children, node.feature, node.threshold
        node.children, node.feature, node.threshold = [], None, None
        as_leaf = self._val_hits(rows)
        if not (as_leaf > as_tree or (as_leaf == as_tree and self.prune_ties == "prune")):
            node.children, node.feature, node.threshold = saved

    # -- minimal cost-complexity pruning ----------------------------------------------------
    def _impurity(self, counts):
        return float(_gini_of(counts) if self.criterion == "gini" else _entropy_of(counts))

    def _weakest_links(self, ccp_alpha=np.inf, prune=False):
        """CART's weakest-link sequence on the fitted tree: (alphas, total leaf impurities).

        :math:`R(t) = \\frac{w_t}{w}\\,\\mathrm{impurity}(t)` and, for the branch
        :math:`T_t`, :math:`g(t) = (R(t) - R(T_t)) / (|\\tilde T_t| - 1)`; the
        internal node with the smallest :math:`g` (the first in pre-order on
        ties, as scikit-learn) is pruned, until the root is a leaf or the next
        :math:`g` exceeds ``ccp_alpha``. With ``prune`` the tree is changed.
        """
        nodes, parent, stack = [], [], [(self.tree_, -1)]
        while stack:                                        # pre-order, first child first
            node, up = stack.pop()
            parent.append(up)
            nodes.append(node)
            stack.extend((child, len(nodes) - 1) for child in reversed(node.children))
        size = [1] * len(nodes)                    # node i's branch: nodes i to i + size[i] - 1
        for i in range(len(nodes) - 1, 0, -1):
            size[parent[i]] += size[i]

        def ancestors(i):                          # walked when needed: a chain-like tree
            chain = []                             # of m nodes would need m^2 stored
            while parent[i] >= 0:
                i = parent[i]
                chain.append(i)
            return chain

        counts = np.array([n.counts for n in nodes])
        impurity = _gini_of(counts) if self.criterion == "gini" else _entropy_of(counts)
        r_node = counts.sum(axis=1) / self.tree_.counts.sum() * impurity
        leaves, r_branch = np.zeros(len(nodes), dtype=np.intp), np.zeros(len(nodes))
        # Each branch sums its leaves' R in pre-order, one addition at a time: the
        # floats of CART's definition, in the order scikit-learn adds them.
        for i, node in enumerate(nodes):
            if not node.children:
                leaves[i], r_branch[i] = 1, r_node[i]
                up = ancestors(i)
                leaves[up] += 1
                r_branch[up] += r_node[i]
        alive = np.ones(len(nodes), dtype=bool)
        alphas, impurities = [0.0], [r_branch[0]]
        while leaves[0] > 1:
            # g of every live internal node at once; argmin takes the first in
            # pre-order on ties, as the weakest link is defined.
            internal = alive & (leaves > 1)
            with np.errstate(divide="ignore", invalid="ignore"):
                g = np.where(internal, (r_node - r_branch) / (leaves - 1), np.inf)
            best = int(np.argmin(g))
            best_alpha = g[best]
            if best_alpha > ccp_alpha:
                break
            alive[best + 1:best + size[best]] = False
            removed, diff = leaves[best] - 1, r_node[best] - r_branch[best]
            leaves[best], r_branch[best] = 1, r_node[best]
            up = ancestors(best)
            leaves[up] -= removed
            r_branch[up] += diff
            if prune:
                node = nodes[best]
                node.children, node.feature, node.threshold = [], None, None
            alphas.append(best_alpha)
            impurities.append(r_branch[0])
        return np.array(alphas), np.array(impurities)

    def pruned(self, ccp_alpha):
        """A copy of this fitted tree, cost-complexity pruned at ``ccp_alpha`` (no refit).

        The same tree as refitting with ``ccp_alpha=ccp_alpha``, for the price
        of a copy: the way to score a whole :meth:`cost_complexity_pruning_path`.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from mlcore.tree import DecisionTreeClassifier
        >>> X, y = load_iris(return_X_y=True)
        >>> full = DecisionTreeClassifier().fit(X, y)
        >>> refit = DecisionTreeClassifier(ccp_alpha=0.02).fit(X, y)
        >>> full.pruned(0.02).n_leaves() == refit.n_leaves() < full.n_leaves()
        True
        """
        import copy

        from sklearn.utils.validation import check_is_fitted

        from .._validation import check_real

        check_is_fitted(self)
        ccp_alpha = check_real(ccp_alpha, "ccp_alpha", low=0)
        tree = copy.deepcopy(self)
        tree.set_params(ccp_alpha=max(ccp_alpha, self.ccp_alpha))
        tree._weakest_links(ccp_alpha, prune=True)
        tree._flat_tree = (tree.tree_, tree._build_flat())    # the copy's arrays describe the unpruned tree
        return tree

    def cost_complexity_pruning_path(self, X, y):
        """The effective alphas of CART's minimal cost-complexity pruning, as in scikit-learn.

        Grows the tree on ``(X, y)`` with this estimator's parameters (without
        ``ccp_alpha`` and without validation pruning) and returns the
        weakest-link sequence: a ``Bunch`` with ``ccp_alphas`` (increasing, 0
        first) and ``impurities``, the total leaf impurity (weighted by the
        leaves' shares; entropy in bits, or Gini) of the subtree that is
        optimal for alphas from that value to the next.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from mlcore.tree import DecisionTreeClassifier
        >>> X, y = load_iris(return_X_y=True)
        >>> path = DecisionTreeClassifier(criterion="gini").cost_complexity_pruning_path(X, y)
        >>> path.ccp_alphas[0], round(float(path.impurities[-1]), 4)   # the root alone: Gini of 3 equal classes
        (np.float64(0.0), 0.6667)
        """
        grower = self.__class__(**{**self.get_params(), "ccp_alpha": 0.0, "pruning": None})
        grower.fit(X, y)
        alphas, impurities = grower._weakest_links()
        return Bunch(ccp_alphas=alphas, impurities=impurities)
