"""Cross-validation: the splitters, the closed-form leave-one-out, and how good each estimate is.

Chapter 4 of the book. Most schemes are scikit-learn splitters, named by
:func:`make_splitter`; this module adds what scikit-learn lacks:

* :class:`BlockedMxTwoCV`, blocked r x 2 cross-validation: r two-fold splits
  built from a two-level orthogonal array over N blocks (the smallest
  Hadamard / Plackett-Burman array with N >= r + 1 rows, N a multiple of 4,
  or the regular one with :math:`2^q` rows), so that any two halves from
  different replications share a quarter of the samples;
* :func:`loo_residuals_linear` / :func:`loo_mse_linear`, leave-one-out for
  least squares from one fit, :math:`e_i / (1 - h_{ii})`;
* :func:`cv_split_errors`, the least-squares test error of every split of a
  splitter at once (batched QR), and :func:`cv_estimator_study`, the
  simulation that measures the bias and variance of each scheme;
* two interactive figures, :class:`FoldAssignmentFigure` and
  :class:`DegreeSelectionFigure`.
"""

from ..divergence import kfold_kl_curve, regularized_kl_criterion, select_n_folds
from ._figures import DegreeSelectionFigure, FoldAssignmentFigure
from ._splitters import (SCHEMES, BlockedMxTwoCV, fold_assignment, loo_mse_linear,
                         loo_residuals_linear, make_splitter, two_level_design)
from ._study import (SELECTION_SCHEMES, STUDY_SCHEMES, cv_estimator_study, cv_split_errors,
                     degree_curves, degree_selection_study,
                     legendre_design, mx2_variance_study, sine_regression, sine_target,
                     summarize_cv_study)

__all__ = [
    "BlockedMxTwoCV",
    "two_level_design",
    "loo_residuals_linear",
    "loo_mse_linear",
    "SCHEMES",
    "make_splitter",
    "fold_assignment",
    "sine_target",
    "sine_regression",
    "legendre_design",
    "cv_split_errors",
    "degree_curves",
    "STUDY_SCHEMES",
    "cv_estimator_study",
    "summarize_cv_study",
    "mx2_variance_study",
    "SELECTION_SCHEMES",
    "degree_selection_study",
    "FoldAssignmentFigure",
    "DegreeSelectionFigure",
    # chapter 5's choice of K, defined in mlcore.divergence
    "kfold_kl_curve",
    "regularized_kl_criterion",
    "select_n_folds",
]
