"""Performance measures (chapter 9), written from scratch for teaching.

The confusion matrix (:func:`confusion_counts`), F-beta with binary, macro
and micro averaging (:func:`fbeta`), the ROC and PR curves
(:func:`roc_curve`, :func:`precision_recall_curve`), AUC from ranks
(:func:`auc_rank`), average precision (:func:`average_precision`), the ROC
convex hull (:func:`roc_convex_hull`) and the cost curve
(:func:`cost_curve`), each checked against ``sklearn.metrics`` or SciPy; and
the chapter's interactive figure, :class:`ThresholdFigure`.
"""

from ._figure import ThresholdFigure
from ._measures import (CostCurve, auc_rank, average_precision, confusion_counts, cost_curve,
                        fbeta, precision_recall_curve, roc_convex_hull, roc_curve)

__all__ = [
    "confusion_counts",
    "fbeta",
    "roc_curve",
    "precision_recall_curve",
    "average_precision",
    "auc_rank",
    "roc_convex_hull",
    "cost_curve",
    "CostCurve",
    "ThresholdFigure",
]
