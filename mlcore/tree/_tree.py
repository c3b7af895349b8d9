"""The decision tree of chapter 12: ID3, C4.5 and CART splits on discrete and
continuous attributes, C4.5's missing values, and pre- and post-pruning
with a validation set.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (check_consistent_length, check_is_fitted, column_or_1d,
                                      validate_data)

from .._validation import as_random_state, check_int, check_option, check_real
from .._validation import naming
from ._criteria import _entropy_of, _gini_of, _gini_with_rho, _is_missing, _midpoints, _numeric_column
from ._dense import grow_dense, threshold_scores
from ._inspect import _deep_recursion, _InspectionMixin
from ._node import Node, _leaf_proba, _majority, _pick
from ._prune import _PruningMixin


class DecisionTreeClassifier(_PruningMixin, _InspectionMixin, ClassifierMixin, BaseEstimator):
    """A decision tree for discrete and continuous attributes, written from scratch.

    Discrete attributes split into one branch per value (every value seen in
    the training set; an empty branch becomes a leaf with its parent's
    majority class) and are not reused below; continuous attributes split in
    two at the best midpoint between sorted values and may be reused.
    Missing values (None, NaN, ``pd.NA``) are handled as in C4.5: the split is scored
    on the samples whose value is known, times their share :math:`\\rho` (for
    every criterion, see :func:`gini_index`), and a
    sample with a missing value goes down every branch with weight
    proportional to the branch's share; at prediction time its class
    probabilities are the branches' mixed by those shares.

    Parameters
    ----------
    criterion : {"gain", "gain_ratio", "gini"}, default="gain"
        ID3's information gain; C4.5's gain ratio with its heuristic (among
        attributes whose gain is at least the average, the highest ratio);
        CART's Gini index (lowest wins).
    max_depth : int or None, default=None
    min_samples_split : int, default=2
        A node reached by fewer samples becomes a leaf. Samples are counted
        as rows, whatever their weights (as scikit-learn does), so the default
        never stops a node that Zhou's algorithm would split; C4.5's MINOBJS
        counts the fractional weights of missing values instead.
    pruning : {None, "pre", "post"}, default=None
        Use the validation set given to ``fit``: ``"pre"`` splits a node only
        if that raises the validation accuracy; ``"post"`` grows the full tree,
        then, bottom-up, replaces a subtree by a leaf if that raises it.
        Validation samples with missing values are routed as in
        :meth:`predict`, and post-pruning compares the whole tree's
        predictions, so it never lowers validation accuracy.
    prune_ties : {"keep", "prune"}, default="keep"
        When the validation accuracy is *equal* with and without a split:
        ``"keep"`` the simpler tree for pre-pruning and the subtree for
        post-pruning (the rule of Zhou's book), or ``"prune"`` (prefer the
        smaller tree in both: the two differ only in post-pruning). The choice
        changes the result on watermelon 2.0.
    ccp_alpha : float, default=0.0
        CART's minimal cost-complexity pruning after growing (and after any
        validation pruning): the subtree minimizing
        :math:`R(T) + \\alpha|\\tilde T|`, :math:`R` the leaves' impurity weighted
        by their shares (entropy for the gain criteria, Gini for ``"gini"``),
        as scikit-learn's ``ccp_alpha``. See :meth:`cost_complexity_pruning_path`.
    validation_fraction : float in (0, 1) or None, default=None
        With ``pruning`` and no validation set passed to ``fit``: hold out
        this share of the training set (stratified, seeded by
        ``random_state``) as the validation set, so that a pruned tree can be
        fitted by ``fit(X, y)`` alone, e.g. inside ``cross_val_score``.
    random_state : int, Generator or None, default=None
        Seeds the hold-out of ``validation_fraction``.
    categorical_features : "auto" or list, default="auto"
        ``"auto"``: columns of object, string, category or bool dtype are
        discrete, numeric ones continuous. Or a list of column indices or
        names that are discrete.

    Ties between attributes are broken by column order (the first wins);
    ties between thresholds by the smallest; ties between classes by their
    sorted order.

    Attributes
    ----------
    classes_ : ndarray
    tree_ : Node
        The root.
    feature_names_in_ : ndarray of str
        When fitted on a DataFrame.
    categories_ : list
        For each column, its sorted values if discrete, else None.

    Examples
    --------
    >>> X = pd.DataFrame({"texture": ["clear", "clear", "blurry", "slightly"],
    ...                   "density": [0.70, 0.60, 0.25, 0.40]})
    >>> tree = DecisionTreeClassifier().fit(X, ["good", "good", "bad", "bad"])
    >>> print(tree.export_text())
    texture = blurry: bad (1 bad, 0 good)
    texture = clear: good (0 bad, 2 good)
    texture = slightly: bad (1 bad, 0 good)
    """

    def __init__(self, criterion="gain", *, max_depth=None, min_samples_split=2, pruning=None,
                 prune_ties="keep", ccp_alpha=0.0, validation_fraction=None, random_state=None,
                 categorical_features="auto"):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.pruning = pruning
        self.prune_ties = prune_ties
        self.ccp_alpha = ccp_alpha
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.categorical_features = categorical_features

    # -- input ----------------------------------------------------------------------
    def _columns(self, X, fitting, name="X"):
        """The columns as a list of 1-D arrays: codes (-1 missing, -2 unseen) or floats (NaN missing)."""
        frame = X if isinstance(X, pd.DataFrame) else None
        with naming(name):
            array = validate_data(self, X, reset=fitting, dtype=None, ensure_all_finite="allow-nan",
                                  accept_sparse=False)
        if fitting:
            frame = frame if frame is not None else pd.DataFrame(array)
            self._discrete = self._which_discrete(frame)
            self.categories_ = [sorted({v for v in array[:, j] if not _is_missing(v)}, key=str)
                                if self._discrete[j] else None for j in range(array.shape[1])]
        columns = []
        for j in range(array.shape[1]):
            values = array[:, j]
            if self._discrete[j]:
                lookup = {v: i for i, v in enumerate(self.categories_[j])}
                columns.append(np.array([-1 if _is_missing(v) else lookup.get(v, -2) for v in values]))
            elif values.dtype.kind in "fiu":
                numbers = values.astype(float)                  # the fast path: a numeric array
                if np.any(np.isinf(numbers)):
                    raise ValueError("Input X contains infinity or a value too large for dtype('float64').")
                columns.append(numbers)
            else:
                try:
                    numbers = np.array([np.nan if _is_missing(v) else float(v) for v in values])
                except (TypeError, ValueError) as error:
                    raise ValueError(f"column {j} holds non-numeric values; list it in "
                                     "categorical_features.") from error
                if np.any(np.isinf(numbers)):
                    raise ValueError("Input X contains infinity or a value too large for dtype('float64').")
                columns.append(numbers)
        return columns

    def _which_discrete(self, frame):
        if isinstance(self.categorical_features, str):
            check_option(self.categorical_features, "categorical_features", ["auto"])
            return [not _numeric_column(frame.iloc[:, j]) for j in range(frame.shape[1])]
        names = list(frame.columns)
        discrete = [False] * frame.shape[1]
        for item in self.categorical_features:
            if item in names:
                discrete[names.index(item)] = True
            elif isinstance(item, (int, np.integer)) and 0 <= item < frame.shape[1]:
                discrete[int(item)] = True
            else:
                raise ValueError(f"categorical_features names {item!r}, which is not a column of X.")
        return discrete

    # -- fitting ----------------------------------------------------------------------
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True               # C4.5's missing values
        tags.input_tags.string = True
        return tags

    def fit(self, X, y, X_val=None, y_val=None):
        """Grow (and, with ``pruning``, prune) the tree; returns ``self``."""
        check_option(self.criterion, "criterion", ["gain", "gain_ratio", "gini"])
        check_option(self.pruning, "pruning", [None, "pre", "post"])
        check_option(self.prune_ties, "prune_ties", ["keep", "prune"])
        if self.max_depth is not None:
            check_int(self.max_depth, "max_depth", low=1)
        check_int(self.min_samples_split, "min_samples_split", low=2)
        check_real(self.ccp_alpha, "ccp_alpha", low=0)
        columns = self._columns(X, fitting=True)
        with naming("y"):
            y = column_or_1d(y, warn=True)
        with naming("X and y"):
            check_consistent_length(columns[0], y)
        with naming("y"):
            check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        if self.validation_fraction is not None:
            check_real(self.validation_fraction, "validation_fraction", low=0, high=1, low_open=True,
                       high_open=True)
        if self.pruning is not None and X_val is None and y_val is None and self.validation_fraction is not None:
            columns, y_index, val = self._hold_out(columns, y_index)
            self._val = val
            self._val_rows = list(zip(*val[0]))
        elif self.pruning is not None:
            if X_val is None or y_val is None:
                raise ValueError(f"pruning={self.pruning!r} needs a validation set: fit(X, y, X_val, y_val), "
                                 "or validation_fraction to hold one out of (X, y).")
            self._val = (self._columns(X_val, fitting=False, name="X_val"), self._encode(y_val))
            check_consistent_length(self._val[0][0], self._val[1])
            self._val_rows = list(zip(*self._val[0]))
        self._X, self._y = columns, y_index
        y = y_index
        n_val = len(self._val[1]) if self.pruning is not None else 0
        # Continuous features without a missing value and no pre-pruning: the same tree,
        # grown on presorted columns (mlcore/tree/_dense.py).
        dense = (self.pruning != "pre" and not any(self._discrete)
                 and not any(np.isnan(c).any() for c in columns))
        with _deep_recursion(len(y) + n_val):
            if dense:
                self.tree_ = grow_dense(np.column_stack(columns), y, len(self.classes_), self.criterion,
                                        self.max_depth, self.min_samples_split)
            else:
                self.tree_ = self._grow(np.arange(len(y)), np.ones(len(y)),
                                        set(np.flatnonzero(self._discrete)), 0, None,
                                        (np.arange(n_val), np.ones(n_val)) if self.pruning == "pre" else None)
            if self.pruning == "post":
                self._post_prune(self.tree_, np.arange(n_val))
            if self.ccp_alpha > 0:
                self._weakest_links(self.ccp_alpha, prune=True)
        del self._X, self._y
        for name in ("_val", "_val_rows"):
            self.__dict__.pop(name, None)
        self._flat_tree = (self.tree_, self._build_flat())
        return self

    def _hold_out(self, columns, y_index):
        """Split off validation_fraction of the rows (stratified when every class has 2 rows)."""
        from sklearn.model_selection import train_test_split

        rows = np.arange(len(y_index))
        stratify = y_index if np.bincount(y_index).min() >= 2 else None
        try:
            fit_rows, val_rows = train_test_split(rows, test_size=self.validation_fraction, stratify=stratify,
                                                  random_state=as_random_state(self.random_state))
        except ValueError:
            fit_rows, val_rows = train_test_split(rows, test_size=self.validation_fraction,
                                                  random_state=as_random_state(self.random_state))
        if len(fit_rows) == 0 or len(val_rows) == 0:
            raise ValueError(f"validation_fraction={self.validation_fraction} leaves no training or no "
                             f"validation row of {len(rows)}.")
        return ([c[fit_rows] for c in columns], y_index[fit_rows],
                ([c[val_rows] for c in columns], y_index[val_rows]))

    def _encode(self, y):
        y = np.asarray(y)
        index = np.searchsorted(self.classes_, y)
        index = np.clip(index, 0, len(self.classes_) - 1)
        if not np.all(self.classes_[index] == y):
            raise ValueError("y_val holds labels that are not in y.")
        return index

    def _grow(self, idx, w, discrete_left, depth, parent_prediction, val):
        n_classes = len(self.classes_)
        counts = np.bincount(self._y[idx], weights=w, minlength=n_classes)
        node = Node(counts, _majority(counts, parent_prediction if parent_prediction is not None else 0), depth)
        if counts.sum() == 0 or np.count_nonzero(counts) <= 1:
            return node
        if (self.max_depth is not None and depth >= self.max_depth) or len(idx) < self.min_samples_split:
            return node
        split = self._best_split(idx, w, discrete_left)
        if split is None:
            return node
        feature, threshold, parts = split
        if any(len(p_idx) == len(idx) and np.array_equal(p_w, w) for p_idx, p_w in parts):
            return node                  # a child equal to its parent: the split separates nothing
        if self.pruning == "pre" and not self._split_helps(node, feature, threshold, parts, val):
            return node
        node.feature, node.threshold = feature, threshold
        shares = np.array([p_w.sum() for _, p_w in parts])
        node.child_shares = shares / shares.sum() if shares.sum() > 0 else np.full(len(parts), 1 / len(parts))
        below = discrete_left - {feature}
        routes = self._route_val(feature, threshold, val, node.child_shares)
        node.children = [self._grow(p_idx, p_w, below, depth + 1, node.prediction, v)
                         for (p_idx, p_w), v in zip(parts, routes)]
        return node

    def _best_split(self, idx, w, discrete_left):
        """(feature, threshold or None, [(indices, weights) per child]) of the best split, or None."""
        candidates = []
        dense = [j for j in range(self.n_features_in_)
                 if not self._discrete[j] and not np.isnan(self._X[j][idx]).any()]
        scored_dense = self._score_continuous_all(dense, idx, w) if dense else {}
        for j in range(self.n_features_in_):
            if self._discrete[j]:
                if j in discrete_left:
                    scored = self._score_discrete(j, idx, w)
                    if scored is not None:
                        candidates.append((j, None, *scored))
            else:
                scored = scored_dense[j] if j in scored_dense else self._score_continuous(j, idx, w)
                if scored is not None:
                    candidates.append((j, *scored))
        if not candidates:
            return None
        best = _pick(self.criterion, np.array([c[2] for c in candidates]),
                     np.array([c[3] for c in candidates]))
        feature, threshold = candidates[best][0], candidates[best][1]
        return feature, threshold, self._partition(feature, threshold, idx, w)

    def _score_discrete(self, j, idx, w):
        x = self._X[j][idx]
        known = x >= 0
        if len(np.unique(x[known])) < 2:
            return None
        n_values = len(self.categories_[j])
        table = np.zeros((n_values, len(self.classes_)))
        np.add.at(table, (x[known], self._y[idx][known]), w[known])
        rho = w[known].sum() / w.sum()
        sizes = table.sum(axis=1)
        total = sizes.sum()
        if self.criterion == "gini":
            parent = _gini_of(np.bincount(self._y[idx], weights=w, minlength=len(self.classes_)))
            return float(_gini_with_rho(parent, rho, table.sum(axis=0), table)), 0.0
        gain = rho * (_entropy_of(table.sum(axis=0)) - np.sum(sizes / total * _entropy_of(table)))
        iv = _entropy_of(sizes)
        return float(gain), float(gain / iv if iv > 0 else 0.0)

    def _score_continuous(self, j, idx, w):
        x = self._X[j][idx]
        known = ~np.isnan(x)
        if known.sum() < 2:
            return None
        order = np.argsort(x[known], kind="mergesort")
        xs = x[known][order]
        distinct = xs[1:] > xs[:-1]
        if not distinct.any():
            return None
        onehot = np.zeros((len(xs), len(self.classes_)))
        onehot[np.arange(len(xs)), self._y[idx][known][order]] = w[known][order]
        left = np.cumsum(onehot, axis=0)[:-1][distinct]
        total = onehot.sum(axis=0)
        right = np.maximum(total - left, 0.0)      # rounding with fractional weights: never < 0
        n_left, n_right, n = left.sum(axis=1), right.sum(axis=1), total.sum()
        thresholds = _midpoints(xs[:-1], xs[1:])[distinct]
        rho = w[known].sum() / w.sum()
        if self.criterion == "gini":
            scores = (n_left * _gini_of(left) + n_right * _gini_of(right)) / n
            if rho < 1:
                parent = _gini_of(np.bincount(self._y[idx], weights=w, minlength=len(self.classes_)))
                scores = parent - rho * (_gini_of(total) - scores)
            best = int(np.argmin(scores))
            return float(thresholds[best]), float(scores[best]), 0.0
        gains = rho * (_entropy_of(total) - (n_left * _entropy_of(left) + n_right * _entropy_of(right)) / n)
        best = int(np.argmax(gains))
        iv = _entropy_of(np.array([n_left[best], n_right[best]]))
        return float(thresholds[best]), float(gains[best]), float(gains[best] / iv if iv > 0 else 0.0)

    def _score_continuous_all(self, features, idx, w):
        """Best threshold of every continuous feature without missing values, all at once.

        One argsort of the node's (m, F) block, cumulative weighted class
        counts along it, and the scores of all (position, feature) pairs as
        arrays: the per-node cost is a handful of NumPy calls, not F of them.
        """
        X = np.column_stack([self._X[j][idx] for j in features])            # (m, F)
        order = np.argsort(X, axis=0, kind="mergesort")
        xs = np.take_along_axis(X, order, axis=0)
        n_classes = len(self.classes_)
        weights = np.zeros((n_classes, len(idx), len(features)))             # (K, m, F)
        rows = np.arange(len(idx))[:, None]
        weights[self._y[idx][order], rows, np.arange(len(features))[None, :]] = w[order]
        _, score, valid, threshold, n_left, n_right = threshold_scores(xs, weights, self.criterion)
        out = {}
        for f, j in enumerate(features):
            if not valid[0, f]:
                out[j] = None                                                  # a constant feature
            elif self.criterion != "gain_ratio":
                out[j] = (float(threshold[0, f]), float(score[0, f]), 0.0)
            else:
                iv = _entropy_of(np.array([n_left[0, f], n_right[0, f]]))
                ratio = score[0, f] / iv if iv > 0 else 0.0
                out[j] = (float(threshold[0, f]), float(score[0, f]), float(ratio))
        return out

    def _partition(self, j, threshold, idx, w):
        x = self._X[j][idx]
        if threshold is None:
            known = x >= 0
            masks = [x == v for v in range(len(self.categories_[j]))]
        else:
            known = ~np.isnan(x)
            masks = [known & (x <= threshold), known & (x > threshold)]
        shares = np.array([w[m].sum() for m in masks])
        shares = shares / shares.sum()
        missing = ~known
        parts = []
        for mask, share in zip(masks, shares):
            take = mask | (missing & (share > 0))
            weights = np.where(mask, w, w * share)[take]
            parts.append((idx[take], weights))
        return parts

    # -- prediction ----------------------------------------------------------------------
    def _proba_one(self, node, row):
        if node.is_leaf:
            return _leaf_proba(node, len(self.classes_))
        value = row[node.feature]
        if node.threshold is None:
            if value == -1:
                branches = range(len(node.children))
            elif value == -2:                       # a value never seen in training
                return node.counts / node.counts.sum()
            else:
                return self._proba_one(node.children[value], row)
        else:
            if np.isnan(value):
                branches = range(2)
            else:
                return self._proba_one(node.children[0 if value <= node.threshold else 1], row)
        return sum(node.child_shares[b] * self._proba_one(node.children[b], row) for b in branches)

    def _flat(self):
        """The tree as arrays (feature, threshold, children, leaf probabilities).

        ``fit`` stores them with the root they were built from (predicting
        must not change the estimator); a tree whose root is another, e.g. one
        assigned by hand, is flattened afresh.
        """
        cached = self.__dict__.get("_flat_tree")
        if cached is not None and cached[0] is self.tree_:
            return cached[1]
        return self._build_flat()

    def _build_flat(self):
        nodes, stack = [], [self.tree_]
        while stack:                                   # preorder; a node's number is its position
            node = stack.pop()
            nodes.append(node)
            stack.extend(reversed(node.children))
        number = {id(node): i for i, node in enumerate(nodes)}
        width = max(1, max(len(node.children) for node in nodes))
        feature = np.zeros(len(nodes), dtype=np.intp)
        threshold = np.full(len(nodes), np.nan)
        children = np.full((len(nodes), width), -1, dtype=np.intp)
        leaf = np.zeros((len(nodes), len(self.classes_)))
        for i, node in enumerate(nodes):
            if node.is_leaf:
                leaf[i] = _leaf_proba(node, len(self.classes_))
                continue
            feature[i] = node.feature
            if node.threshold is not None:
                threshold[i] = node.threshold
            children[i, :len(node.children)] = [number[id(c)] for c in node.children]
        return feature, threshold, children, leaf

    def predict_proba(self, X):
        """Class probabilities from the leaves' (weighted) class counts, in the order of ``classes_``."""
        check_is_fitted(self)
        columns = self._columns(X, fitting=False)
        feature, threshold, children, leaf = self._flat()
        values = np.column_stack([c.astype(float) for c in columns])   # codes of discrete columns too
        n = len(values)
        # All rows descend together, one level per step (depth steps of NumPy, not a
        # Python walk per row). A row meeting a missing or unseen value stops there
        # and is finished by the recursive walk, which mixes the branches.
        node = np.zeros(n, dtype=np.intp)
        mixed = np.zeros(n, dtype=bool)
        while True:
            active = np.flatnonzero((children[node, 0] >= 0) & ~mixed)
            if active.size == 0:
                break
            at = node[active]
            value = values[active, feature[at]]
            continuous = ~np.isnan(threshold[at])
            missing = np.where(continuous, np.isnan(value), value < 0)
            mixed[active[missing]] = True
            go = ~missing
            branch = np.where(continuous, value > threshold[at], np.where(go, value, 0)).astype(np.intp)
            node[active[go]] = children[at[go], branch[go]]
        proba = leaf[node]
        if mixed.any():
            with _deep_recursion(self.depth()):
                for r in np.flatnonzero(mixed):
                    proba[r] = self._proba_one(self.tree_, tuple(c[r] for c in columns))
        return proba

    def predict(self, X):
        """The most probable class (the first in sorted order on ties)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
