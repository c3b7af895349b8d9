"""Fisher's linear discriminant analysis (chapter 11).

Two classes: project onto :math:`w` so that the projected class means are
far apart and each class's projected spread is small, maximizing
:math:`J(w) = \\frac{w^\\top S_b w}{w^\\top S_w w}`; the maximizer is
:math:`w \\propto S_w^{-1}(\\mu_0 - \\mu_1)` (:func:`fisher_direction`).
Many classes: the directions of the generalized eigenproblem
:math:`S_b w = \\lambda S_w w`, at most :math:`N - 1` of them
(:class:`FisherLDA`). Checked against
``sklearn.discriminant_analysis.LinearDiscriminantAnalysis`` in
``tests/test_lda.py``; :class:`ProjectionFigure` is the chapter's
interactive figure. From ``_shrinkage.py``: :func:`fisher_direction_exact`
(rational arithmetic, the reference for rounding errors),
:func:`coded_least_squares` (Fisher's direction as least squares),
:func:`ledoit_wolf` and :class:`ShrinkageLDA` (fewer samples than features).

The package holds all of chapter 11: Fisher's LDA (``_fisher.py``,
``_shrinkage.py``, ``_figure.py``), the multiclass reductions
(``_multiclass.py``, documented as :mod:`mlcore.multiclass`) and the remedies
for class imbalance (``_imbalance.py``, ``_imbalance_study.py``, documented as
:mod:`mlcore.imbalance`). The names of those two are importable from here
too; ``__all__`` lists LDA's own, so that each name is documented once.
"""

from ._figure import ProjectionFigure
from ._fisher import FisherLDA, fisher_criterion, fisher_direction, scatter_matrices
from ._imbalance import (EasyEnsembleClassifier, best_f1_threshold,  # noqa: F401  (mlcore.imbalance)
                         random_undersample, rescale_threshold, smote, undersampling_correction)
from ._imbalance_study import REMEDIES, remedy_study  # noqa: F401  (mlcore.imbalance)
from ._multiclass import ECOCClassifier, code_separation, coding_matrix  # noqa: F401  (mlcore.multiclass)
from ._shrinkage import ShrinkageLDA, coded_least_squares, fisher_direction_exact, ledoit_wolf

__all__ = ["scatter_matrices", "fisher_direction", "fisher_criterion", "FisherLDA",
           "ProjectionFigure", "fisher_direction_exact", "coded_least_squares", "ledoit_wolf",
           "ShrinkageLDA"]
