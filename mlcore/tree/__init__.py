"""Decision trees (chapter 12), written from scratch for teaching.

Split criteria: :func:`entropy`, :func:`information_gain` (ID3),
:func:`intrinsic_value` and :func:`gain_ratio` (C4.5), :func:`gini` and
:func:`gini_index` (CART), :func:`threshold_gains` for continuous attributes.
:class:`DecisionTreeClassifier` grows a tree on discrete and continuous
attributes with missing values, pre- or post-prunes it on a validation
set and prunes it by CART's cost complexity (``ccp_alpha``, checked against
scikit-learn's path); :class:`ObliqueTreeClassifier` splits on linear
combinations (the best of LDA's direction, the axes and a grid of directions
at each node); :func:`plot_tree` draws either kind of tree (as SVG; :func:`oblique_split_text`
writes an oblique split), :class:`TreeDepthFigure`
is the chapter's interactive figure. On numeric data without ties the tree equals
scikit-learn's ``DecisionTreeClassifier(criterion="entropy")``
(``tests/test_tree.py``).
"""

from ._criteria import (entropy, gain_ratio, gini, gini_index, information_gain, intrinsic_value,
                        threshold_gains)
from ._draw import TreeDepthFigure, oblique_split_text, plot_tree
from ._oblique import ObliqueTreeClassifier
from ._tree import DecisionTreeClassifier

__all__ = [
    "entropy",
    "gini",
    "information_gain",
    "intrinsic_value",
    "gain_ratio",
    "gini_index",
    "threshold_gains",
    "DecisionTreeClassifier",
    "ObliqueTreeClassifier",
    "plot_tree",
    "oblique_split_text",
    "TreeDepthFigure",
]
