"""Growing a tree on continuous features with no missing value: the fast path of
:class:`~mlcore.tree.DecisionTreeClassifier`.

Every feature is sorted once, at the root. The tree then grows level by level
(breadth first): all the nodes of one depth are scored and split together, as
one ``(m, F)`` array of sample numbers whose rows hold the nodes one after
another, each column sorted by its feature within each node. A split moves
each node's rows into its two children's, keeping their order (a stable
partition), so no node sorts again. A deep tree has thousands of small nodes
but only a few dozen levels: the Python work per node is a few scalar
assignments, and the arithmetic is a handful of NumPy calls per level.

The scores are those of :func:`threshold_scores`, the one implementation
that ``DecisionTreeClassifier._score_continuous_all`` (the general path)
also calls, and the choice between features, thresholds and classes follows
``_best_split`` and ``_grow``: the tree is the general path's, node for node
(``tests/test_tree.py`` compares them).
"""

from __future__ import annotations

import numpy as np
from scipy.special import xlogy

from ._criteria import _entropy_of, _gini_of, _midpoints
from ._node import Node, _pick

_LN2 = np.log(2)


def threshold_scores(xs, counts, criterion, starts=None):
    """The best threshold of every feature of one node, or of several nodes at once.

    ``xs`` is an ``(m, F)`` block of feature values and ``counts`` the
    ``(K, m, F)`` class indicators of the same entries: booleans (unit
    weights, counted exactly in integers) or float weights. The class axis
    comes first so that each class's running count is one cumulative sum down
    contiguous columns, several times faster than along ``(m, F, K)``. Without
    ``starts`` the block is one node, each column sorted; with ``starts``
    (increasing, from 0) it holds several nodes one after another, node ``s``
    in rows ``starts[s]`` up to the next start, each column sorted within the
    node, and ``counts`` must be booleans: a node's counts are then
    differences of one cumulative sum, which is exact only for whole numbers.

    The threshold after sorted position ``i`` sends positions up to ``i`` of
    its node left; only positions between distinct values of one node count.
    Scores are the gain in bits (argmax) or, for ``"gini"``, the children's
    weighted Gini index (argmin). Returns, each of shape ``(S, F)`` for ``S``
    nodes: ``best``, the first best position in the block of each node and
    feature; its ``score``; ``valid`` (False when the feature is constant in
    the node: ``best`` is then no threshold); the ``threshold`` (a midpoint,
    as :func:`~mlcore.tree.threshold_gains` gives it); and the left and right
    weights.
    """
    K, m, F = counts.shape
    columns = np.arange(F)
    whole = counts.dtype == bool
    cumulative = np.cumsum(counts, axis=1, dtype=np.int32 if whole else float)
    distinct = xs[1:] > xs[:-1]
    if starts is None:
        starts = np.zeros(1, dtype=np.intp)
        # Summed down a contiguous (m, K) copy: the float weights add in the order
        # they always did, so a tie between features stays a tie.
        total = np.ascontiguousarray(counts[:, :, 0].T).sum(axis=0)[None]   # (1, K)
        before = None
    else:
        if not whole:
            raise ValueError("threshold_scores: several nodes need boolean counts.")
        distinct[starts[1:] - 1] = False       # last row of a node, first of the next
        ends = np.append(starts[1:], m) - 1
        before = np.zeros((len(starts), F, K), dtype=cumulative.dtype)  # earlier nodes' rows
        before[1:] = np.moveaxis(cumulative[:, starts[1:] - 1], 0, -1)
        total = cumulative[:, ends, 0].T - before[:, 0]
    n = total.sum(axis=1)
    node_of = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, m)))[:-1]
    # Only thresholds between distinct values are scored. Position p of the
    # (m - 1, F) block is entry p of each class's (m, F) slab.
    at = np.flatnonzero(distinct.ravel())
    node, feature = node_of[at // F], at % F
    lefts = np.ascontiguousarray(cumulative.reshape(K, m * F)[:, at].T)    # (positions, K)
    if before is not None:
        lefts = lefts - before[node, feature]
    nl = lefts.sum(axis=1)
    if criterion == "gini":
        rights, nr = total[node] - lefts, n[node] - nl
        values = (nl * _gini_of(lefts) + nr * _gini_of(rights)) / n[node]
        fill, extreme, pick = np.inf, np.minimum, np.argmin
    else:
        # With the counts unnormalized,
        # n_l Ent(l) = (n_l ln n_l - sum_k l_k ln l_k) / ln 2,
        # the same for the right side. With fractional weights (missing values)
        # total - left can round to -1e-16, and xlogy of a negative count is NaN,
        # which argmax would pick as the best. Whole counts look c ln c up in a
        # table (the same numbers xlogy gives, without a logarithm per entry).
        if whole:
            size = np.arange(m + 1.0)
            table = xlogy(size, size)
            rights, nr = total[node] - lefts, n[node] - nl
            children = (table[nl] - table[lefts].sum(axis=1)
                        + table[nr] - table[rights].sum(axis=1)) / _LN2
        else:
            rights = np.maximum(total[node] - lefts, 0.0)
            nr = np.maximum(n[node] - nl, 0.0)
            children = (xlogy(nl, nl) - xlogy(lefts, lefts).sum(axis=1)
                        + xlogy(nr, nr) - xlogy(rights, rights).sum(axis=1)) / _LN2
        values = _entropy_of(total)[node] - children / n[node]
        fill, extreme, pick = -np.inf, np.maximum, np.argmax
    scores = np.full(distinct.shape, fill)
    scores.ravel()[at] = values
    if len(starts) == 1:
        best = pick(scores, axis=0)[None]
    else:
        # The first best position of each node: its best score by one reduceat, then the
        # first position holding it (a node's positions and the row after it, which is
        # not distinct, lie between its start and the next). Unit weights give no NaN.
        top = extreme.reduceat(scores, starts, axis=0)
        positions = np.where(scores == top[node_of], np.arange(m - 1)[:, None], m)
        best = np.minimum.reduceat(positions, starts, axis=0)
    left_best = np.ascontiguousarray(np.moveaxis(cumulative[:, best, columns], 0, -1))  # (S, F, K)
    if before is not None:
        left_best = left_best - before
    n_left = left_best.sum(axis=2)
    threshold = _midpoints(xs[best, columns], xs[best + 1, columns])
    n_right = n[:, None] - n_left
    score, valid = scores[best, columns], distinct[best, columns]
    return best, score, valid, threshold, n_left, n_right


def grow_dense(X, y, n_classes, criterion, max_depth, min_samples_split):
    """The root of the tree grown on ``X`` (float, no NaN), classes ``y``, unit weights.

    Level by level: ``order`` holds the rows of the nodes still to split, one
    node after another (``starts``, ``sizes``), each column sorted within its
    node; ties keep sample order, from the stable sort at the root.
    """
    n, F = X.shape
    columns = np.arange(F)
    classes = np.arange(n_classes)[:, None, None]
    member = np.zeros(n, dtype=bool)
    order = np.argsort(X, axis=0, kind="mergesort")         # ties by sample number
    counts = np.bincount(y, minlength=n_classes).astype(float)[None]
    root = Node(counts[0], int(np.argmax(counts[0])), 0)
    nodes, depth = [root], 0
    sizes = np.array([n])
    if not _splittable(counts, sizes, depth, max_depth, min_samples_split)[0]:
        return root
    while len(nodes):
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        node_of = np.repeat(np.arange(len(nodes)), sizes)
        xs = X[order, columns]
        best, score, valid, threshold, n_left, n_right = threshold_scores(
            xs, y[order][None] == classes, criterion, starts if len(nodes) > 1 else None)
        feature, splits = _choose(criterion, score, valid, n_left, n_right)
        feature = np.where(splits, feature, 0)
        cut = threshold[np.arange(len(nodes)), feature]
        # Which child each row goes to, read in the chosen feature's column.
        samples = order[np.arange(len(order)), feature[node_of]]
        goes_left = X[samples, feature[node_of]] <= cut[node_of]
        m_left = np.bincount(node_of, weights=goes_left, minlength=len(nodes))
        m_left = m_left.astype(np.intp)
        # A child equal to its parent (the split separates nothing) leaves a leaf.
        splits &= (m_left > 0) & (m_left < sizes)
        if not splits.any():
            break
        rank = np.cumsum(splits) - 1                        # the split nodes' numbers
        row_splits = splits[node_of]
        child = 2 * rank[node_of] + ~goes_left          # left child 2r, right 2r + 1
        child_counts = np.bincount(
            child[row_splits] * n_classes + y[samples[row_splits]],
            minlength=2 * (rank[-1] + 1) * n_classes)
        child_counts = child_counts.reshape(-1, n_classes).astype(float)
        child_sizes = np.column_stack([m_left, sizes - m_left])[splits].ravel()
        shares = np.column_stack([m_left, sizes - m_left])[splits].astype(float)
        shares = shares / shares.sum(axis=1, keepdims=True)
        majority = np.argmax(child_counts, axis=1)          # the first on ties
        # Python ints and floats from .tolist(): a loop over NumPy scalars costs more.
        children = [Node(c, p, depth + 1) for c, p in zip(child_counts, majority.tolist())]
        split_nodes = np.flatnonzero(splits)
        for r, (s, f, t) in enumerate(zip(split_nodes.tolist(), feature[split_nodes].tolist(),
                                          cut[split_nodes].tolist())):
            node = nodes[s]
            node.feature, node.threshold = f, t
            node.child_shares = shares[r]
            node.children = children[2 * r:2 * r + 2]
        depth += 1
        opened = _splittable(child_counts, child_sizes, depth, max_depth,
                             min_samples_split)
        if not opened.any():
            break
        # Every entry of the split nodes' rows moves to its child's rows, kept in order
        # (a stable partition of each column within the node), the children that are
        # leaves dropped. An entry's place: its child's start plus the entries of that
        # child before it in its column.
        member[samples[goes_left & row_splits]] = True
        left = member[order]                                                 # (m, F)
        member[samples] = False
        before = np.cumsum(left, axis=0) - left             # lefts above, block-wide
        lefts_above = before - before[starts][node_of]
        within = (np.arange(len(order)) - starts[node_of])[:, None]
        place = np.where(left, lefts_above, within - lefts_above)
        child_of = 2 * rank[node_of][:, None] + ~left
        keep = row_splits[:, None] & opened[child_of]
        new_sizes = child_sizes[opened]
        new_starts = np.zeros(len(child_sizes), dtype=np.intp)
        new_starts[opened] = np.concatenate([[0], np.cumsum(new_sizes)[:-1]])
        moved = np.empty((new_sizes.sum(), F), dtype=order.dtype)
        # (rows of unsplit nodes get child_of < 0, a wrapped index that keep masks out)
        column_of = np.broadcast_to(columns, left.shape)
        moved[(new_starts[child_of] + place)[keep], column_of[keep]] = order[keep]
        order, sizes = moved, new_sizes
        nodes = [children[i] for i in np.flatnonzero(opened).tolist()]
    return root


def _splittable(counts, sizes, depth, max_depth, min_samples_split):
    """Which nodes may split: two classes or more, enough rows, above max_depth."""
    opened = (np.count_nonzero(counts, axis=1) > 1) & (sizes >= min_samples_split)
    if max_depth is not None and depth >= max_depth:
        opened[:] = False
    return opened


def _choose(criterion, score, valid, n_left, n_right):
    """The chosen feature of each node, and whether it splits.

    The rule of :func:`._node._pick` among the features with a threshold
    (``valid``): for gain and Gini as one argmax or argmin over all nodes (the
    first best feature, as ``_pick`` takes it), for C4.5 by ``_pick`` node by node.
    """
    splits = valid.any(axis=1)
    if criterion == "gain":
        return np.argmax(np.where(valid, score, -np.inf), axis=1), splits
    if criterion == "gini":
        return np.argmin(np.where(valid, score, np.inf), axis=1), splits
    chosen = np.zeros(len(score), dtype=np.intp)
    # The mean over each node's valid features, summed as _best_split sums them.
    for s in np.flatnonzero(splits):
        features = np.flatnonzero(valid[s])
        gains = score[s, features]
        iv = _entropy_of(np.column_stack([n_left[s, features], n_right[s, features]]))
        ratios = np.where(iv > 0, gains / np.where(iv > 0, iv, 1.0), 0.0)
        chosen[s] = features[_pick(criterion, gains, ratios)]
    return chosen, splits
