"""Comparing learners (chapter 10): hypothesis tests, bias and variance, No Free Lunch.

Tests: :func:`binomial_test_error` (one learner), :func:`paired_t_test_cv`,
:func:`corrected_resampled_t_test`, :func:`paired_t_test_5x2cv`,
:func:`f_test_5x2cv`, :func:`mcnemar_test` (two learners),
:func:`friedman_test`, :func:`average_ranks`,
:func:`nemenyi_critical_difference` and :func:`plot_cd_diagram` (many
learners, many data sets), :func:`nemenyi_pvalues`, :func:`wilcoxon_holm`
and :func:`bayesian_signed_rank` (pairs over data sets, with Holm's
correction or a region of practical equivalence). Calibration:
:func:`five_by_two_null_sizes`, :func:`simulate_test_pvalues`,
:func:`rejection_table`. Simulations: :func:`rejection_rates` (type-I
error and power), :func:`bias_variance_decomposition` and
:func:`polynomial_bias_variance`, :func:`no_free_lunch_table`. Each test is
checked against SciPy, statsmodels or mlxtend in ``tests/test_compare.py``.
"""

from ._calibration import (CALIBRATED_TESTS, five_by_two_null_sizes, rejection_table,
                           simulate_test_pvalues)
from ._figure import BiasVarianceFigure, plot_cd_diagram
from ._multiple import BayesianSignedRank, bayesian_signed_rank, nemenyi_pvalues, wilcoxon_holm
from ._simulation import (TESTS, MidpointClassifier, bias_variance_decomposition, no_free_lunch_table,
                          polynomial_bias_variance, rejection_rates, two_feature_sampler)
from ._tests import (TestResult, average_ranks, binomial_test_error, corrected_resampled_t_test,
                     f_test_5x2cv, friedman_test, mcnemar_test, nemenyi_critical_difference,
                     paired_t_test_5x2cv, paired_t_test_cv)

__all__ = [
    "binomial_test_error",
    "paired_t_test_cv",
    "corrected_resampled_t_test",
    "paired_t_test_5x2cv",
    "f_test_5x2cv",
    "mcnemar_test",
    "average_ranks",
    "friedman_test",
    "nemenyi_critical_difference",
    "plot_cd_diagram",
    "nemenyi_pvalues",
    "wilcoxon_holm",
    "bayesian_signed_rank",
    "BayesianSignedRank",
    "five_by_two_null_sizes",
    "simulate_test_pvalues",
    "rejection_table",
    "CALIBRATED_TESTS",
    "bias_variance_decomposition",
    "polynomial_bias_variance",
    "no_free_lunch_table",
    "rejection_rates",
    "MidpointClassifier",
    "two_feature_sampler",
    "TESTS",
    "TestResult",
    "BiasVarianceFigure",
]
