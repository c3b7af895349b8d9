"""Feature selection (chapter 7): wrapper search and mutual-information filters.

Wrappers score subsets with the learner itself, by cross-validation:
:func:`forward_search`, :func:`backward_search` (each :math:`O(n^2)` fits)
and :func:`exhaustive_search` (:math:`2^n` subsets, small :math:`n`).
Filters score each feature alone: :func:`mutual_information` (two discrete
variables, from counts), :func:`mi_scores` (every column of a 0/1
matrix at once; ``binarize=`` reduces counts explicitly) and
:func:`correlation_scores`; :class:`MIFilter` keeps the
top ``k`` inside a scikit-learn ``Pipeline``; :func:`g_test_scores` and
:func:`benjamini_hochberg` turn the MI into p-values and a false-discovery-rate
filter; :func:`mrmr_select` and :func:`jmi_select` are multivariate filters;
:func:`stability_selection` counts how often an L1 model selects each feature
over half-subsamples. Checked against
scikit-learn's ``SequentialFeatureSelector``, ``mutual_info_score`` and
``mutual_info_classif`` in ``tests/test_feature_selection.py``.
"""

from ._figure import FilterSizeFigure, ForwardSearchFigure
from ._filter import MIFilter, correlation_scores, mi_scores, mutual_information
from ._multivariate import jmi_select, mrmr_select, stability_selection
from ._search import (SearchResult, backward_search, exhaustive_search, forward_search,
                      gaussian_nb_subset_accuracy)
from ._significance import benjamini_hochberg, g_test_scores

__all__ = [
    "forward_search",
    "backward_search",
    "exhaustive_search",
    "gaussian_nb_subset_accuracy",
    "SearchResult",
    "mutual_information",
    "mi_scores",
    "correlation_scores",
    "MIFilter",
    "g_test_scores",
    "benjamini_hochberg",
    "mrmr_select",
    "jmi_select",
    "stability_selection",
    "ForwardSearchFigure",
    "FilterSizeFigure",
]
