"""The bootstrap: resampling with replacement, out-of-bag error, .632 and .632+, intervals.

A bootstrap sample of a data set of size m draws m indices uniformly *with
replacement*. A given sample is never drawn with probability (1 - 1/m)^m,
which tends to 1/e ~ 0.368, so each bootstrap sample leaves about a third of
the data "out of the bag": a free test set (:func:`draw_counts`,
:class:`BootstrapOutOfBag`). Averaging the error on those points gives the
out-of-bag estimate; mixing it with the training error gives Efron's .632
estimator, and capping the mix by the error of guessing gives the .632+
estimator of Efron & Tibshirani (:func:`bootstrap_error_report`). The same
resamples give standard errors and confidence intervals of any statistic
(:func:`bootstrap_se`, :func:`bootstrap_interval`). Two simulations support
chapter 6 of the book: :func:`simulate_error_estimates` compares the error
estimates with cross-validation against the truth, and
:func:`interval_coverage` measures how often the intervals cover it.
"""

from ._intervals import (ConfidenceInterval, bootstrap_distribution, bootstrap_interval,
                         bootstrap_se, interval_coverage)
from ._resampling import (BootstrapErrorReport, BootstrapOutOfBag, bootstrap_error,
                          bootstrap_error_report, bootstrap_indices, draw_counts,
                          never_drawn_probability)
from ._simulation import (BootstrapIntervalFigure, NeverDrawnFigure, gaussian_classes,
                          oob_gap_study, simulate_error_estimates)

# Private helpers that tests import from ``mlcore.bootstrap`` (not public: not in __all__).
from ._intervals import _interval  # noqa: F401
from ._simulation import _cv_error  # noqa: F401

__all__ = [
    "never_drawn_probability", "draw_counts", "bootstrap_indices", "BootstrapOutOfBag",
    "BootstrapErrorReport", "bootstrap_error_report", "bootstrap_error",
    "bootstrap_distribution", "bootstrap_se", "bootstrap_interval", "ConfidenceInterval",
    "interval_coverage",
    "gaussian_classes", "simulate_error_estimates", "oob_gap_study", "NeverDrawnFigure",
    "BootstrapIntervalFigure",
]
