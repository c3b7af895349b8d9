"""Drawing decision trees: an SVG of the whole tree (text in any script, so
Chinese attribute names show on the website without a CJK font in
matplotlib), and the chapter's interactive figure of depth against the
decision boundary.
"""

from __future__ import annotations

import html

import numpy as np

from .._validation import check_int, check_option
from ..widgets import InteractiveFigure
from ._inspect import _check_class_names, _deep_recursion
from ._tree import DecisionTreeClassifier


class TreeDrawing:
    """An SVG picture of a fitted tree; shows itself in Jupyter (``_repr_svg_``)."""

    def __init__(self, svg: str):
        self.svg = svg

    def _repr_svg_(self):
        return self.svg


def plot_tree(tree, feature_names=None, *, class_names=None, width=None):
    """Draw a fitted :class:`DecisionTreeClassifier` as SVG.

    Each internal node shows its attribute and its (weighted) class counts;
    each edge the branch's value or threshold test; each leaf its class and
    counts. Names may be in any script (e.g. ``"纹理 texture"``): the browser
    renders the text.

    Parameters
    ----------
    tree : DecisionTreeClassifier, fitted
    feature_names : sequence of str, optional
        Shown instead of the fitted column names.
    class_names : dict, optional
        Display name for each class label.
    width : int >= 1, optional
        Width in pixels; by default 110 per leaf.

    Raises
    ------
    TypeError, ValueError
        When ``feature_names`` is not one name per feature, ``class_names``
        not a dict, or ``width`` not an integer >= 1.

    Returns
    -------
    TreeDrawing
        Displays as SVG in a notebook; ``.svg`` holds the markup.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"纹理": ["清晰", "模糊", "清晰", "稍糊"]})
    >>> drawing = plot_tree(DecisionTreeClassifier().fit(X, ["是", "否", "是", "否"]))
    >>> drawing.svg.startswith("<svg") and "纹理" in drawing.svg
    True
    """
    if not isinstance(tree, DecisionTreeClassifier) or not hasattr(tree, "tree_"):
        raise ValueError("tree must be a fitted mlcore.tree.DecisionTreeClassifier.")
    feature_names = tree._check_feature_names(feature_names)
    names = _check_class_names(class_names)
    leaves = tree.n_leaves()
    width = max(220, 110 * leaves) if width is None else check_int(width, "width", low=1)
    level_height = 92
    height = level_height * (tree.depth() + 1) + 20
    positions, elements = {}, []

    def place(node, left, right, level):
        x = (left + right) / 2
        positions[id(node)] = (x, 36 + level * level_height)
        if node.is_leaf:
            return
        sizes = [_leaves(child) for child in node.children]
        start = left
        for child, size in zip(node.children, sizes):
            span = (right - left) * size / sum(sizes)
            place(child, start, start + span, level + 1)
            start += span

    def draw(node):
        x, y = positions[id(node)]
        counts = " / ".join(f"{names.get(k, k)} {c:.3g}" for k, c in zip(tree.classes_, node.counts))
        if node.is_leaf:
            title = f"{names.get(tree.classes_[node.prediction], tree.classes_[node.prediction])}"
            fill = "#e8f1fb" if node.prediction == 0 else "#fde8e6"
        else:
            title = tree._feature_name(node.feature, feature_names)
            fill = "#ffffff"
            for label, child in zip(tree.branch_labels(node, feature_names), node.children):
                cx, cy = positions[id(child)]
                test = label.split(" = ", 1)[1] if " = " in label else label.split(" ", 1)[1]
                elements.append(f'<line x1="{x:.1f}" y1="{y + 18:.1f}" x2="{cx:.1f}" y2="{cy - 18:.1f}" '
                                'stroke="#555" stroke-width="1"/>')
                elements.append(f'<text x="{(x + cx) / 2:.1f}" y="{(y + cy) / 2:.1f}" font-size="11" '
                                f'text-anchor="middle" fill="#333" paint-order="stroke" stroke="white" '
                                f'stroke-width="3">{html.escape(test)}</text>')
                draw(child)
        elements.append(f'<rect x="{x - 52:.1f}" y="{y - 18:.1f}" width="104" height="36" rx="5" '
                        f'fill="{fill}" stroke="#333"/>')
        elements.append(f'<text x="{x:.1f}" y="{y - 3:.1f}" font-size="12" text-anchor="middle" '
                        f'font-weight="bold">{html.escape(title)}</text>')
        elements.append(f'<text x="{x:.1f}" y="{y + 12:.1f}" font-size="9" text-anchor="middle" '
                        f'fill="#444">{html.escape(counts)}</text>')

    with _deep_recursion(tree.depth()):
        place(tree.tree_, 0, width, 0)
        draw(tree.tree_)
    body = "\n".join(elements)
    return TreeDrawing(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                       f'viewBox="0 0 {width} {height}" font-family="sans-serif" '
                       f'style="background:white">\n{body}\n</svg>')


def _leaves(node):
    return 1 if node.is_leaf else sum(_leaves(c) for c in node.children)


class TreeDepthFigure(InteractiveFigure):
    """A tree's decision regions on two continuous features as its depth grows.

    Left, the training points and the regions of a tree of the chosen
    ``max_depth`` (the staircase of axis-parallel splits); right, training
    and validation accuracy against depth, with the chosen depth marked.
    Controls: ``max_depth``, and ``pruning``: ``"none"``, or ``"post"`` for
    the same tree post-pruned on the validation set (whose validation
    accuracy is then optimistic: the validation set chose it). The compute is
    :class:`DecisionTreeClassifier`.

    Parameters
    ----------
    n_samples : int, default=200
        Points of scikit-learn's two moons (noise 0.3); a third of them is the
        validation set.

    Examples
    --------
    >>> figure = TreeDepthFigure(n_samples=80)
    >>> figure.render(max_depth=3)[:4] == b"\\x89PNG"
    True
    >>> all(p >= v for p, v in zip(figure.pruned_val_acc, figure.val_acc))   # pruning never lowers it
    True
    >>> figure.pruned[6].n_leaves() <= figure.trees[6].n_leaves()
    True
    """

    benchmark = ("max_depth", [1, 2, 3, 4, 6, 8, 10])
    figsize = (9.5, 3.6)

    def __init__(self, n_samples=200, *, random_state=0, figsize=None, dpi=None):
        from sklearn.datasets import make_moons

        n_samples = check_int(n_samples, "n_samples", low=20)
        X, y = make_moons(n_samples=n_samples, noise=0.3, random_state=random_state)
        cut = 2 * n_samples // 3
        self.X, self.y, self.X_val, self.y_val = X[:cut], y[:cut], X[cut:], y[cut:]
        g1, g2 = np.meshgrid(np.linspace(-1.6, 2.6, 90), np.linspace(-1.2, 1.7, 70))
        self.grid = np.column_stack([g1.ravel(), g2.ravel()])
        self.depths = np.arange(1, 11)
        self.trees = {d: DecisionTreeClassifier(max_depth=int(d)).fit(self.X, self.y) for d in self.depths}
        self.pruned = {d: DecisionTreeClassifier(max_depth=int(d), pruning="post").fit(self.X, self.y, self.X_val,
                                                                                        self.y_val)
                       for d in self.depths}
        self.train_acc = [self.trees[d].score(self.X, self.y) for d in self.depths]
        self.val_acc = [self.trees[d].score(self.X_val, self.y_val) for d in self.depths]
        self.pruned_val_acc = [self.pruned[d].score(self.X_val, self.y_val) for d in self.depths]
        self.regions = {d: self.trees[d].predict(self.grid).reshape(g1.shape) for d in self.depths}
        self.pruned_regions = {d: self.pruned[d].predict(self.grid).reshape(g1.shape) for d in self.depths}
        super().__init__(figsize=figsize, dpi=dpi)

    def controls(self):
        import ipywidgets as widgets

        return {"max_depth": widgets.IntSlider(value=3, min=1, max=10, step=1, description="max depth"),
                "pruning": widgets.Dropdown(options=[("none", "none"), ("post-pruned", "post")], value="none",
                                            description="pruning")}

    def setup(self, fig):
        self.ax_map, self.ax_acc = fig.subplots(1, 2)
        self.image = self.ax_map.imshow(np.zeros((70, 90)), origin="lower", cmap="coolwarm", alpha=0.35,
                                        extent=(-1.6, 2.6, -1.2, 1.7), vmin=0, vmax=1, aspect="auto")
        self.ax_map.scatter(*self.X.T, c=self.y, cmap="coolwarm", s=12, edgecolors="k", linewidths=0.3)
        self.ax_map.set(xlabel="$x_1$", ylabel="$x_2$")
        self.ax_acc.plot(self.depths, self.train_acc, "o-", label="training")
        self.ax_acc.plot(self.depths, self.val_acc, "s-", label="validation")
        self.ax_acc.plot(self.depths, self.pruned_val_acc, "^--", ms=4, label="validation, post-pruned")
        (self.marker,) = self.ax_acc.plot([], [], "k|", ms=30, mew=2)
        self.ax_acc.set(xlabel="max depth", ylabel="accuracy", ylim=(0.5, 1.02))
        self.ax_acc.legend(fontsize=8, loc="lower right")
        self.caption = self.ax_map.text(0.5, 1.02, " ", transform=self.ax_map.transAxes, ha="center",
                                        va="bottom", fontsize=9)

    def update(self, max_depth, pruning="none"):
        depth = check_int(max_depth, "max_depth", low=1, high=10)
        check_option(pruning, "pruning", ["none", "post"])
        pruned = pruning == "post"
        self.image.set_data((self.pruned_regions if pruned else self.regions)[depth])
        accuracy = (self.pruned_val_acc if pruned else self.val_acc)[depth - 1]
        self.marker.set_data([depth], [accuracy])
        tree = (self.pruned if pruned else self.trees)[depth]
        self.caption.set_text(f"depth {depth}{', post-pruned' if pruned else ''}: {tree.n_leaves()} leaves, "
                              f"validation accuracy {accuracy:.2f}")

    def dynamic_artists(self):
        return [self.image, *self.ax_map.collections, self.marker, self.caption]
