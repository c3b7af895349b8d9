"""Reading a fitted :class:`~mlcore.tree.DecisionTreeClassifier`: branch labels,
text export, leaf count and depth (mixed into the estimator), and the
argument checks shared with :func:`~mlcore.tree.plot_tree`.
"""

from __future__ import annotations

import sys

from sklearn.utils.validation import check_is_fitted

from .._validation import check_int


class _InspectionMixin:
    """Text export and size of the fitted tree."""

    def _check_feature_names(self, feature_names):
        """None, or a sequence of one name per feature (not a single string)."""
        if feature_names is None:
            return None
        if isinstance(feature_names, (str, bytes)) or not hasattr(feature_names, "__len__"):
            raise TypeError(f"feature_names must be a sequence of {self.n_features_in_} names, got "
                            f"{type(feature_names).__name__} {feature_names!r}.")
        if len(feature_names) != self.n_features_in_:
            raise ValueError(f"feature_names must have one name per feature ({self.n_features_in_}), "
                             f"got {len(feature_names)} names.")
        return list(feature_names)

    def _feature_name(self, j, feature_names):
        if feature_names is not None:
            return str(feature_names[j])
        if hasattr(self, "feature_names_in_"):
            return str(self.feature_names_in_[j])
        return f"x{j}"

    def branch_labels(self, node, feature_names=None):
        """The test on each branch of ``node``, e.g. ``["texture = clear", ...]`` or ``["density <= 0.38", ...]``."""
        name = self._feature_name(node.feature, feature_names)
        if node.threshold is None:
            return [f"{name} = {v}" for v in self.categories_[node.feature]]
        return [f"{name} <= {node.threshold:.4g}", f"{name} > {node.threshold:.4g}"]

    def export_text(self, feature_names=None, *, class_names=None, decimals=3):
        """The tree as indented text, one line per branch, leaves with their class and counts.

        ``class_names`` maps class labels to display names.
        """
        check_is_fitted(self)
        feature_names = self._check_feature_names(feature_names)
        names = _check_class_names(class_names)
        decimals = check_int(decimals, "decimals", low=1)
        lines = []

        def describe(node):
            counts = ", ".join(f"{c:.{decimals}g} {names.get(k, k)}" for k, c in zip(self.classes_, node.counts))
            return f"{names.get(self.classes_[node.prediction], self.classes_[node.prediction])} ({counts})"

        def walk(node, indent):
            for label, child in zip(self.branch_labels(node, feature_names), node.children):
                if child.is_leaf:
                    lines.append(f"{indent}{label}: {describe(child)}")
                else:
                    lines.append(f"{indent}{label}")
                    walk(child, indent + "|   ")

        if self.tree_.is_leaf:
            return describe(self.tree_)
        with _deep_recursion(self.depth()):
            walk(self.tree_, "")
        return "\n".join(lines)

    def get_n_leaves(self):
        """Number of leaves (scikit-learn's name; :meth:`n_leaves` is the same)."""
        return self.n_leaves()

    def get_depth(self):
        """Depth of the tree (scikit-learn's name; :meth:`depth` is the same)."""
        return self.depth()

    def n_leaves(self):
        """Number of leaves."""
        check_is_fitted(self)
        return sum(1 for node in _walk(self.tree_) if node.is_leaf)

    def depth(self):
        """Length of the longest path from the root to a leaf."""
        check_is_fitted(self)
        return max(node.depth for node in _walk(self.tree_) if node.is_leaf)


def _walk(root):
    """Every node, without recursion (a tree may be as deep as it has samples)."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def _check_class_names(class_names):
    """None or a mapping {class label: display name}, as a dict."""
    if class_names is None:
        return {}
    if not hasattr(class_names, "get") or not hasattr(class_names, "items"):
        raise TypeError(f"class_names must be a dict {{class label: display name}}, got "
                        f"{type(class_names).__name__} {class_names!r}.")
    return dict(class_names)


class _deep_recursion:
    """Raise Python's recursion limit for a tree of the given depth (restored on exit)."""

    def __init__(self, depth):
        self.needed = int(depth) * 3 + 200

    def __enter__(self):
        self.saved = sys.getrecursionlimit()
        if self.needed > self.saved:
            sys.setrecursionlimit(self.needed)

    def __exit__(self, *exc):
        sys.setrecursionlimit(self.saved)
