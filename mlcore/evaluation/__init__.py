"""Performance measures (chapter 9), written from scratch for teaching.

The confusion matrix (:func:`confusion_counts`), F-beta with binary, macro
and micro averaging (:func:`fbeta`), the ROC and PR curves
(:func:`roc_curve`, :func:`precision_recall_curve`), AUC from ranks
(:func:`auc_rank`), average precision (:func:`average_precision`), the ROC
convex hull (:func:`roc_convex_hull`) and the cost curve
(:func:`cost_curve`); the AUC's variance by DeLong's method
(:func:`delong_auc`, :func:`delong_test`) and the partial AUC
(:func:`partial_auc`); the achievable area under a PR curve
(:func:`achievable_pr_area`) and the precision-recall-gain curve
(:func:`prg_curve`); scores as probabilities (:func:`brier_score`,
:func:`reliability_table`, :func:`isotonic_calibration`); each checked
against ``sklearn.metrics`` or SciPy; and the chapter's interactive figure,
:class:`ThresholdFigure`.
"""

from ._calibration import (IsotonicMap, ReliabilityTable, brier_score, isotonic_calibration,
                           reliability_table)
from ._figure import ThresholdFigure
from ._measures import (CostCurve, auc_rank, average_precision, confusion_counts, cost_curve,
                        fbeta, precision_recall_curve, roc_convex_hull, roc_curve)
from ._prg import PRGCurve, achievable_pr_area, prg_curve
from ._uncertainty import AUCComparison, DeLongResult, delong_auc, delong_test, partial_auc

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
    "delong_auc",
    "DeLongResult",
    "delong_test",
    "AUCComparison",
    "partial_auc",
    "brier_score",
    "reliability_table",
    "ReliabilityTable",
    "isotonic_calibration",
    "IsotonicMap",
    "achievable_pr_area",
    "prg_curve",
    "PRGCurve",
    "ThresholdFigure",
]
