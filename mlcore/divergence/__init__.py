"""KL divergence between Gaussians, and choosing K in K-fold CV by it (chapter 5).

:func:`gaussian_kl` and :func:`symmetric_gaussian_kl` are the closed forms.
:func:`kfold_kl_curve` estimates D_AKL(K): the symmetric KL between the
Gaussian fitted to the training part and the one fitted to the test part,
averaged over the K folds and over repeated shuffles.
:func:`regularized_kl_criterion` adds the penalty lam * exp(-K) of the source
paper and :func:`select_n_folds` returns its minimizer K*.

The fast path (``_kl.py``) never re-estimates a covariance from samples. In each
repetition the standardized data are put in one shuffled order; K-fold CV
(like scikit-learn's ``KFold``) then cuts that order into K contiguous
blocks, so the sums of x and x x^T over every fold of every K are
differences of one table of prefix sums. All folds of all K are then
handled at once by a Cholesky factorization vectorized over folds.
"""

from ._criterion import regularized_kl_criterion, select_n_folds
from ._figure import KLCriterionFigure
from ._kl import gaussian_kl, kfold_kl_curve, max_n_folds, symmetric_gaussian_kl
from ._paper import gaussian_mmd2, paper_datasets, uninverted_mean_term_curve

__all__ = ["gaussian_kl", "symmetric_gaussian_kl", "max_n_folds", "kfold_kl_curve",
           "regularized_kl_criterion", "select_n_folds", "paper_datasets",
           "KLCriterionFigure", "uninverted_mean_term_curve", "gaussian_mmd2"]
