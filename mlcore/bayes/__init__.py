"""Regularization, the Bayesian view (chapter 8).

A prior on the parameters turns maximum likelihood into maximum a posteriori
(MAP) estimation; a Gaussian prior :math:`\\mathcal N(0, \\tau^2 I)` is the
L2 penalty :math:`\\lVert w\\rVert^2/(2\\tau^2)`. Keeping the whole posterior
instead of its mode gives predictive distributions whose uncertainty grows
away from the data, and a score for the prior itself, the evidence.

- :class:`MAPLogisticRegression`: the MAP estimate, equal to
  ``LogisticRegression(C=tau**2)``;
- :class:`LaplaceLogisticRegression`: a Gaussian around the MAP (Laplace's
  approximation), predictive probabilities by :func:`probit_predictive` or
  Monte Carlo, and the approximate log evidence;
- :class:`BayesianLinearRegression`: the exact posterior, predictive and
  evidence of linear regression, with evidence maximization (checked against
  ``BayesianRidge``);
- :func:`importance_posterior`: the exact posterior of logistic regression by
  importance sampling (evidence and predictive), the Laplace approximation's
  referee; :func:`tau_averaged_predictive`: the prior's width integrated out;
- :func:`log_loss_from_logit`: the log loss computed from log-odds, exactly;
- :class:`PriorWidthFigure`: the chapter's interactive figure.
"""

from ._exact import ImportancePosterior, importance_posterior, tau_averaged_predictive
from ._figure import PriorWidthFigure, polynomial_moons
from ._linear import BayesianLinearRegression
from ._logistic import (LaplaceLogisticRegression, MAPLogisticRegression, log_loss_from_logit,
                        probit_predictive)

__all__ = [
    "MAPLogisticRegression",
    "LaplaceLogisticRegression",
    "BayesianLinearRegression",
    "probit_predictive",
    "log_loss_from_logit",
    "importance_posterior",
    "ImportancePosterior",
    "tau_averaged_predictive",
    "polynomial_moons",
    "PriorWidthFigure",
]
