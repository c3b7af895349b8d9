"""Logistic regression from first principles (chapter 1).

The model is :math:`P(y = 1 \\mid x; \\theta) = \\sigma(\\theta^\\top \\tilde x)` with
:math:`\\tilde x = (1, x_1, \\dots, x_n)`, so ``theta[0]`` is the intercept
:math:`b` and ``theta[1:]`` the weights. Everything here works on the *mean*
cross-entropy over the :math:`m` samples,

.. math::

    J(\\theta) = -\\frac1m \\sum_{i=1}^m \\bigl[y^{(i)} \\log \\sigma(z^{(i)})
                 + (1 - y^{(i)}) \\log(1 - \\sigma(z^{(i)}))\\bigr],
    \\qquad z^{(i)} = \\theta^\\top \\tilde x^{(i)},

whose gradient is :math:`\\frac1m \\tilde X^\\top(\\sigma(\\tilde X\\theta) - y)`.

Pure functions (each tested against SciPy or scikit-learn):
:func:`sigmoid`, :func:`logit`, :func:`cross_entropy`, :func:`logistic_loss`,
:func:`logistic_gradient`, :func:`logistic_hessian`,
:func:`gradient_descent_path`, :func:`sample_logistic_data`, and for
:math:`N_c` classes :func:`softmax`, :func:`softmax_loss`, :func:`softmax_gradient`.
The estimator :class:`LogisticRegressionGD` fits the same model by full-batch
gradient descent with the scikit-learn API, and :class:`GradientDescentFigure`
is the chapter's interactive figure.
"""

from ._estimator import LogisticRegressionGD
# The input checks of a two-class linear model, shared with mlcore.bayes (the same
# model, fitted the Bayesian way), which imports them from this face, not from _estimator.
from ._estimator import _named, _reject_text, _validate_binary  # noqa: F401
from ._figure import GradientDescentFigure, _boundary_points  # noqa: F401
from ._functions import (
    cross_entropy,
    gradient_descent_path,
    logistic_gradient,
    logistic_hessian,
    logistic_loss,
    logit,
    sample_logistic_data,
    sigmoid,
)
from ._softmax import softmax, softmax_gradient, softmax_loss

__all__ = [
    "sigmoid",
    "logit",
    "cross_entropy",
    "logistic_loss",
    "logistic_gradient",
    "logistic_hessian",
    "gradient_descent_path",
    "sample_logistic_data",
    "softmax",
    "softmax_loss",
    "softmax_gradient",
    "LogisticRegressionGD",
    "GradientDescentFigure",
]
