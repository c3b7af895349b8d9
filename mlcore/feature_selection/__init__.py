"""Feature selection (chapter 7): wrapper search and mutual-information filters.

Wrappers score subsets with the learner itself, by cross-validation:
:func:`forward_search`, :func:`backward_search` (each :math:`O(n^2)` fits)
and :func:`exhaustive_search` (:math:`2^n` subsets, small :math:`n`).
Filters score each feature alone: :func:`mutual_information` (two discrete
variables, from counts), :func:`mi_scores` (every column of a 0/1 or count
matrix at once) and :func:`correlation_scores`; :class:`MIFilter` keeps the
top ``k`` inside a scikit-learn ``Pipeline``. Checked against
scikit-learn's ``SequentialFeatureSelector``, ``mutual_info_score`` and
``mutual_info_classif`` in ``tests/test_feature_selection.py``.
"""

from ._figure import FilterSizeFigure, ForwardSearchFigure
from ._filter import MIFilter, correlation_scores, mi_scores, mutual_information
from ._search import (SearchResult, backward_search, exhaustive_search, forward_search,
                      gaussian_nb_subset_accuracy)

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
    "ForwardSearchFigure",
    "FilterSizeFigure",
]
