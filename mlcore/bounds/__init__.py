"""Generalization bounds for finite hypothesis classes, and a Monte Carlo check of them.

Chapter 2. For k classifiers and m i.i.d. examples, Hoeffding's inequality and
the union bound give P(exists h: ``|eps(h) - eps_hat(h)| > gamma``) <= 2k exp(-2 gamma^2 m).
The formula functions turn that around (how many samples, how small a gap)
and accept scalars (returning Python numbers) or broadcasting arrays
(returning arrays), so a figure draws a whole curve in one call. The
simulation functions measure, on threshold classifiers whose true errors are
known exactly, how often the event on the left really happens.
"""

from ._figures import SampleSizeFigure, ViolationRateFigure
from ._formulas import (
    binomial_deviation_tail,
    finite_class_failure_bound,
    finite_class_gap,
    finite_class_sample_size,
    hoeffding_tail,
)
from ._simulation import (
    UniformConvergenceResult,
    sample_threshold_data,
    simulate_uniform_convergence,
    threshold_grid,
    threshold_training_errors,
    threshold_true_errors,
)

__all__ = [
    "hoeffding_tail",
    "binomial_deviation_tail",
    "finite_class_failure_bound",
    "finite_class_sample_size",
    "finite_class_gap",
    "threshold_grid",
    "threshold_true_errors",
    "sample_threshold_data",
    "threshold_training_errors",
    "simulate_uniform_convergence",
    "UniformConvergenceResult",
    "SampleSizeFigure",
    "ViolationRateFigure",
]
