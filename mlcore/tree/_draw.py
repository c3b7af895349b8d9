"""Drawing decision trees: an SVG of the whole tree (text in any script, so
Chinese attribute names show on the website without a CJK font in
matplotlib), and the chapter's interactive figure of depth against the
decision boundary.
"""

from __future__ import annotations

import html

import numpy as np

from .._validation import check_array, check_int, check_option, check_real
from ..widgets import InteractiveFigure
from ._inspect import _check_class_names, _deep_recursion
from ._oblique import ObliqueTreeClassifier
from ._tree import DecisionTreeClassifier


class TreeDrawing:
    """An SVG picture of a fitted tree; shows itself in Jupyter (``_repr_svg_``).

    ``alt`` says in words what the picture shows (its size and root test); a
    notebook's output carries it as the image's text alternative.
    """

    def __init__(self, svg: str, alt: str = "A decision tree."):
        self.svg = svg
        self.alt = alt

    def _repr_svg_(self):
        return self.svg, {"alt": self.alt}


def plot_tree(tree, feature_names=None, *, class_names=None, width=None):
    """Draw a fitted :class:`DecisionTreeClassifier` or :class:`ObliqueTreeClassifier` as SVG.

    Each internal node shows its attribute and its (weighted) class counts;
    each edge the branch's value or threshold test; each leaf its class and
    counts. An oblique node shows its split as an inequality, e.g.
    ``0.42·density − 0.91·sugar ≤ 0.13``, and its edges ``yes`` (left) and
    ``no``. Names may be in any script (e.g. ``"纹理 texture"``): the browser
    renders the text.

    Parameters
    ----------
    tree : DecisionTreeClassifier or ObliqueTreeClassifier, fitted
    feature_names : sequence of str, optional
        Shown instead of the fitted column names (``x0``, ``x1``, ... for an
        oblique tree fitted on an array).
    class_names : dict, optional
        Display name for each class label.
    width : int >= 1, optional
        Width in pixels; by default 110 per leaf (more for oblique labels).

    Raises
    ------
    TypeError, ValueError
        When ``tree`` is not a fitted tree of these two classes,
        ``feature_names`` not one name per feature, ``class_names`` not a
        dict, or ``width`` not an integer >= 1.

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
    >>> X = np.array([[0.2, 0.1], [0.3, 0.4], [0.7, 0.2], [0.8, 0.6]])
    >>> oblique = ObliqueTreeClassifier(max_depth=1).fit(X, [0, 1, 0, 1])
    >>> "≤" in plot_tree(oblique, ["density", "sugar"]).svg
    True
    """
    if isinstance(tree, ObliqueTreeClassifier) and hasattr(tree, "tree_"):
        return _plot_oblique(tree, feature_names, class_names, width)
    if not isinstance(tree, DecisionTreeClassifier) or not hasattr(tree, "tree_"):
        raise ValueError(f"tree must be a fitted mlcore.tree.DecisionTreeClassifier or ObliqueTreeClassifier, "
                         f"got {type(tree).__name__}{'' if hasattr(tree, 'tree_') else ' (not fitted)'}.")
    feature_names = tree._check_feature_names(feature_names)
    names = _check_class_names(class_names)

    def describe(node):
        if node.is_leaf:
            return tree.classes_[node.prediction], []
        labels = tree.branch_labels(node, feature_names)
        return (tree._feature_name(node.feature, feature_names),
                [label.split(" = ", 1)[1] if " = " in label else label.split(" ", 1)[1] for label in labels])

    return _svg_tree(tree.tree_, tree.classes_, names, describe, tree.depth(), width, box=104)


def _plot_oblique(tree, feature_names, class_names, width):
    n = tree.n_features_in_
    if feature_names is None:
        feature_names = [str(c) for c in getattr(tree, "feature_names_in_", [f"x{j}" for j in range(n)])]
    elif isinstance(feature_names, (str, bytes)) or not hasattr(feature_names, "__len__"):
        raise TypeError(f"feature_names must be a sequence of {n} names, got "
                        f"{type(feature_names).__name__} {feature_names!r}.")
    elif len(feature_names) != n:
        raise ValueError(f"feature_names must have one name per feature ({n}), got {len(feature_names)} names.")
    names = _check_class_names(class_names)

    def describe(node):
        if not node.children:
            return tree.classes_[node.prediction], []
        return oblique_split_text(node.coef, node.intercept, feature_names), ["yes", "no"]

    labels = [oblique_split_text(coef, b, feature_names) for _, coef, b, _ in tree.splits()]
    box = max([104] + [7 * len(label) + 12 for label in labels])
    return _svg_tree(tree.tree_, tree.classes_, names, describe, _depth(tree.tree_), width, box=box)


def oblique_split_text(coef, intercept, feature_names, decimals=2):
    """A split ``coef @ x + intercept > 0`` (right) as its left branch's test, ``"0.42·a − 0.91·b ≤ 0.13"``.

    Parameters
    ----------
    coef : array_like of shape (n,)
        The split's weights, finite.
    intercept : float
    feature_names : sequence of n str
        One name per weight.
    decimals : int in [0, 15], default=2
        Digits after the point.

    Examples
    --------
    >>> oblique_split_text(np.array([0.42, -0.91]), -0.13, ["density", "sugar"])
    '0.42·density − 0.91·sugar ≤ 0.13'
    """
    coef = check_array(coef, "coef", ndim=1)
    intercept = check_real(intercept, "intercept")
    try:
        names = None if isinstance(feature_names, str) else list(feature_names)
    except TypeError:
        names = None
    if names is None or not all(isinstance(n, str) for n in names):
        raise TypeError(f"feature_names must be a sequence of str, got {feature_names!r:.80}.")
    feature_names = names
    if len(feature_names) != coef.size:
        raise ValueError(f"feature_names must name every weight of coef: got {len(feature_names)} "
                         f"names for {coef.size} weights.")
    # Beyond 15 decimals a double has no digits left to show.
    decimals = check_int(decimals, "decimals", low=0, high=15)
    terms = []
    for c, name in zip(coef, feature_names):
        if round(abs(c), decimals) == 0:
            continue
        magnitude = f"{abs(c):.{decimals}f}·{name}"
        terms.append(("−" if c < 0 else "") + magnitude if not terms else (" − " if c < 0 else " + ") + magnitude)
    threshold = -intercept
    return f"{''.join(terms) or '0'} ≤ {'−' if threshold < 0 else ''}{abs(threshold):.{decimals}f}"


def _svg_tree(root, classes, names, describe, depth, width, *, box):
    """The SVG markup of a tree; ``describe(node)`` gives (title, edge labels) of a node."""
    leaves = _leaves(root)
    width = max(220, (box + 6) * leaves) if width is None else check_int(width, "width", low=1)
    level_height = 92
    height = level_height * (depth + 1) + 20
    elements = []
    with _deep_recursion(depth):
        positions = _layout(root, width, level_height, top=36)

        def draw(node):
            x, y = positions[id(node)]
            counts = " / ".join(f"{names.get(k, k)} {c:.3g}" for k, c in zip(classes, node.counts))
            title, edge_labels = describe(node)
            if node.children:
                fill = "#ffffff"
                for test, child in zip(edge_labels, node.children):
                    cx, cy = positions[id(child)]
                    elements.append(f'<line x1="{x:.1f}" y1="{y + 18:.1f}" x2="{cx:.1f}" y2="{cy - 18:.1f}" '
                                    'stroke="#555" stroke-width="1"/>')
                    elements.append(f'<text x="{(x + cx) / 2:.1f}" y="{(y + cy) / 2:.1f}" font-size="11" '
                                    f'text-anchor="middle" fill="#333" paint-order="stroke" stroke="white" '
                                    f'stroke-width="3">{html.escape(str(test))}</text>')
                    draw(child)
            else:
                title = names.get(title, title)
                fill = "#e8f1fb" if node.prediction == 0 else "#fde8e6"
            elements.append(f'<rect x="{x - box / 2:.1f}" y="{y - 18:.1f}" width="{box}" height="36" rx="5" '
                            f'fill="{fill}" stroke="#333"/>')
            elements.append(f'<text x="{x:.1f}" y="{y - 3:.1f}" font-size="12" text-anchor="middle" '
                            f'font-weight="bold">{html.escape(str(title))}</text>')
            elements.append(f'<text x="{x:.1f}" y="{y + 12:.1f}" font-size="9" text-anchor="middle" '
                            f'fill="#444">{html.escape(counts)}</text>')

        draw(root)
    body = "\n".join(elements)
    root_title, _ = describe(root)
    if root.children:
        alt = (f"Decision tree with {leaves} leaves and depth {depth}; "
               f"the root tests {root_title}.")
    else:
        alt = f"Decision tree with a single leaf, predicting {names.get(root_title, root_title)}."
    return TreeDrawing(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                       f'viewBox="0 0 {width} {height}" font-family="sans-serif" '
                       f'style="background:white">\n{body}\n</svg>', alt)


def _layout(root, width, level_height, top=0.0):
    """``{id(node): (x, y)}``: each node centred over its leaves' share of ``width``, one level per row."""
    positions = {}

    def place(node, left, right, level):
        positions[id(node)] = ((left + right) / 2, top + level * level_height)
        if not node.children:
            return
        sizes = [_leaves(child) for child in node.children]
        start = left
        for child, size in zip(node.children, sizes):
            span = (right - left) * size / sum(sizes)
            place(child, start, start + span, level + 1)
            start += span

    place(root, 0, width, 0)
    return positions


def _leaves(node):
    return 1 if not node.children else sum(_leaves(c) for c in node.children)


def _depth(node):
    return 0 if not node.children else 1 + max(_depth(c) for c in node.children)


class TreeDepthFigure(InteractiveFigure):
    """A tree's decision regions on two continuous features as its depth grows, and the tree.

    Left, the training points and the regions of a tree of the chosen
    ``max_depth`` (the staircase of axis-parallel splits); middle, that tree
    drawn (leaves coloured by their class; the splits of its top three levels
    labelled, e.g. ``x₁ ≤ 0.42``); right, training and validation accuracy
    against depth, with the chosen depth marked. Controls: ``max_depth``, and
    ``pruning``: ``"none"``, or ``"post"`` for the same tree post-pruned on
    the validation set (whose validation accuracy is then optimistic: the
    validation set chose it). The compute is :class:`DecisionTreeClassifier`;
    the tree's layout is :func:`plot_tree`'s, computed once per tree.

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
    >>> len(figure.drawings[(False, 1)][0])                # depth 1: a root and two leaves
    3
    """

    benchmark = ("max_depth", [1, 2, 3, 4, 6, 8, 10])
    figsize = (11.5, 3.4)
    labelled_levels = 3

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
        self.drawings = {(pruned, d): self._tree_geometry((self.pruned if pruned else self.trees)[d])
                         for pruned in (False, True) for d in self.depths}
        super().__init__(figsize=figsize, dpi=dpi)

    def _tree_geometry(self, tree):
        """(node xy, node colours, edge segments, [(xy, split text)]) of ``tree`` in the unit square."""
        depth = max(tree.depth(), 1)
        positions = _layout(tree.tree_, 1.0, 1.0 / depth)
        nodes, colours, edges, labels = [], [], [], []
        stack = [tree.tree_]
        while stack:
            node = stack.pop()
            x, y = positions[id(node)]
            nodes.append((x, y))
            colours.append("#ffffff" if node.children else ("#3b4cc0" if node.prediction == 0 else "#b40426"))
            if node.children:
                if y * depth < self.labelled_levels - 0.5:
                    subscript = "₁₂"[node.feature]
                    labels.append(((x, y), f"x{subscript} ≤ {node.threshold:.2f}"))
                edges += [[(x, y), positions[id(child)]] for child in node.children]
                stack.extend(node.children)
        return np.array(nodes), colours, edges, labels

    def controls(self):
        import ipywidgets as widgets

        return {"max_depth": widgets.IntSlider(value=3, min=1, max=10, step=1, description="max depth"),
                "pruning": widgets.Dropdown(options=[("none", "none"), ("post-pruned", "post")], value="none",
                                            description="pruning")}

    def setup(self, fig):
        from matplotlib.collections import LineCollection

        self.ax_map, self.ax_tree, self.ax_acc = fig.subplots(1, 3, width_ratios=[1, 1.15, 1])
        self.image = self.ax_map.imshow(np.zeros((70, 90)), origin="lower", cmap="coolwarm", alpha=0.35,
                                        extent=(-1.6, 2.6, -1.2, 1.7), vmin=0, vmax=1, aspect="auto")
        self.ax_map.scatter(*self.X.T, c=self.y, cmap="coolwarm", s=12, edgecolors="k", linewidths=0.3)
        self.ax_map.set(xlabel="$x_1$", ylabel="$x_2$")
        self.ax_tree.set(xlim=(-0.02, 1.02), ylim=(1.1, -0.14))
        self.ax_tree.set_axis_off()
        self.ax_tree.set_title("the tree (left branch: test true)", fontsize=9)
        self.edges = self.ax_tree.add_collection(LineCollection([], colors="#555", linewidths=0.8))
        self.nodes = self.ax_tree.scatter([], [], s=22, edgecolors="#333", linewidths=0.6, zorder=3)
        self.split_labels = [self.ax_tree.text(0, 0, "", fontsize=8, ha="center", va="bottom", zorder=4,
                                               bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                                                     "alpha": 0.85})
                             for _ in range(2 ** self.labelled_levels - 1)]
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
        nodes, colours, edges, labels = self.drawings[(pruned, depth)]
        self.nodes.set_offsets(nodes)
        self.nodes.set_facecolors(colours)
        self.edges.set_segments(edges)
        for i, text in enumerate(self.split_labels):
            if i < len(labels):
                (x, y), label = labels[i]
                text.set_position((x, y - 0.03))
                text.set_text(label)
            text.set_visible(i < len(labels))

    def dynamic_artists(self):
        return [self.image, *self.ax_map.collections, self.marker, self.caption, self.edges, self.nodes,
                *self.split_labels]
