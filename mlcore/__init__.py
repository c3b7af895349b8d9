"""mlcore: the companion library of *Learning Theory and Model Selection*.

One module per topic; each chapter of the book calls into one of them.

==============================  ==============================================
module                          topic
==============================  ==============================================
:mod:`mlcore.linear`            logistic regression by gradient descent (ch. 1)
:mod:`mlcore.bounds`            finite-class bounds, uniform convergence (ch. 2)
:mod:`mlcore.vc`                shattering, VC dimension, VC bounds (ch. 3)
:mod:`mlcore.model_selection`   cross-validation splitters and studies (ch. 4)
:mod:`mlcore.divergence`        Gaussian KL and the number of folds (ch. 5)
:mod:`mlcore.bootstrap`         out-of-bag, .632, .632+, intervals (ch. 6)
:mod:`mlcore.feature_selection` wrapper search and mutual-information filters (ch. 7)
:mod:`mlcore.bayes`             priors, MAP, Laplace, Bayesian regression (ch. 8)
:mod:`mlcore.evaluation`        precision, recall, ROC, AUC, cost curves (ch. 9)
:mod:`mlcore.compare`           tests, bias and variance, No Free Lunch (ch. 10)
:mod:`mlcore.lda`               Fisher's linear discriminant analysis (ch. 11)
:mod:`mlcore.multiclass`        one-vs-one, one-vs-rest, output codes (ch. 11)
:mod:`mlcore.imbalance`         threshold rescaling, undersampling, SMOTE (ch. 11)
:mod:`mlcore.tree`              decision trees: gain, gain ratio, Gini, pruning (ch. 12)
:mod:`mlcore.datasets`          the data sets shipped with the book
:mod:`mlcore.widgets`           the pattern of every interactive figure
:mod:`mlcore.homework`          student editions and the autograder (teachers)
==============================  ==============================================

The public names of every topic module (its ``__all__``) are re-exported
here, so ``from mlcore import LogisticRegressionGD`` works as well as
``from mlcore.linear import LogisticRegressionGD``.
"""

from . import (bayes, bootstrap, bounds, compare, datasets, divergence, evaluation,
               feature_selection, imbalance, lda, linear, model_selection, multiclass, tree, vc,
               widgets)
from ._validation import raise_from_public as _raise_from_public
from ._validation import rebind_wrapped as _rebind_wrapped

# A refused argument raises from the public function or method the user called,
# not from inside the shared checks (mlcore/_validation/_public.py).
for _module in (bayes, bootstrap, bounds, compare, datasets, divergence, evaluation,
                feature_selection, imbalance, lda, linear, model_selection, multiclass, tree,
                vc, widgets):
    _raise_from_public(_module)
del _module
_rebind_wrapped()
from .bayes import *  # noqa: F403
from .bootstrap import *  # noqa: F403
from .bounds import *  # noqa: F403
from .compare import *  # noqa: F403
from .datasets import *  # noqa: F403
from .divergence import *  # noqa: F403
from .evaluation import *  # noqa: F403
from .feature_selection import *  # noqa: F403
from .imbalance import *  # noqa: F403
from .lda import *  # noqa: F403
from .linear import *  # noqa: F403
from .model_selection import *  # noqa: F403
from .multiclass import *  # noqa: F403
from .tree import *  # noqa: F403
from .vc import *  # noqa: F403
from .widgets import *  # noqa: F403

__version__ = "0.1.0"

# model_selection re-exports divergence's K-fold functions: list each name once.
__all__ = list(dict.fromkeys(name for module in (linear, bounds, vc, model_selection, divergence,
                                                 bootstrap, feature_selection, bayes, evaluation, compare, lda,
                                                 multiclass, imbalance, tree, datasets,
                                                 widgets)
                             for name in module.__all__))
