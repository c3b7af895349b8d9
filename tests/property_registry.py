"""What the property tests share: the coverage registry and the edge strategies.

Every public callable of ``mlcore`` (the ``__all__`` of each subpackage) is put
under a property test by decorating that test with :func:`covers`;
``tests/test_properties_coverage.py`` enumerates every ``__all__`` and fails,
naming them, on any callable that no test covers and :data:`EXCLUDED` does not
list with its reason.

The strategies reach the edges the fuzz reports found defects at: subnormals,
magnitudes 1e+-300, int64 beyond 2**53, float32, and one-class labels.
"""

from __future__ import annotations

import re

import numpy as np
from hypothesis import Phase, settings, strategies as st

COVERED: dict[object, list[str]] = {}

# Callables with no numeric contract of their own, and why.
EXCLUDED: dict[str, str] = {
    # Figures and widgets: they draw what tested functions compute; their
    # rendering is checked by the chapters' notebooks and tests/test_figures*.
    **{name: "figure or widget: draws what tested functions compute" for name in (
        "PriorWidthFigure", "NeverDrawnFigure", "BootstrapIntervalFigure",
        "SampleSizeFigure", "ViolationRateFigure", "BiasVarianceFigure",
        "KLCriterionFigure", "ThresholdFigure", "ForwardSearchFigure",
        "FilterSizeFigure", "ProjectionFigure", "GradientDescentFigure",
        "FoldAssignmentFigure", "DegreeSelectionFigure", "TreeDepthFigure",
        "ShatteringExplorer", "InteractiveFigure", "plot_cd_diagram")},
    # Result records: frozen containers of what a tested function returned;
    # their fields' properties are asserted on that function's output.
    **{name: "result record: its fields are checked on the function returning it"
       for name in (
           "ImportancePosterior", "BootstrapErrorReport", "ConfidenceInterval",
           "UniformConvergenceResult", "BayesianSignedRank", "TestResult",
           "CostCurve", "DeLongResult", "AUCComparison", "ReliabilityTable",
           "PRGCurve", "SearchResult")},
}

# Settings of every added property test: deterministic, no deadline, few
# examples (the whole suite's CPU budget, CONTRIBUTING.md "The test budget").
# No shrinking: a failure is reported as drawn, rather than after minutes of
# refitting estimators to shrink it.
_PHASES = (Phase.explicit, Phase.reuse, Phase.generate)
FAST = settings(max_examples=6, deadline=None, derandomize=True, phases=_PHASES)
TINY = settings(max_examples=2, deadline=None, derandomize=True, phases=_PHASES)


def covers(*callables):
    """Record that the decorated test is a property test of ``callables``."""
    def mark(test):
        for c in callables:
            COVERED.setdefault(c, []).append(test.__name__)
        return test
    return mark


# -- strategies -----------------------------------------------------------------
# Powers of ten to scale data by: the whole normal range, its ends, and factors
# that make unit-sized data subnormal.
exponents = st.one_of(st.integers(-300, 300), st.sampled_from([-310, -300, 0, 300]))
# float dtypes the callables are given
float_dtypes = st.sampled_from([np.float64, np.float32])
# int64 scores beyond 2**53, where neighbours are not distinct floats
big_ints = st.integers(2**53, 2**62)
edge_floats = st.sampled_from([5e-324, 2.2e-308, 1e-300, 1e-100, 1.0, 1e100, 1e300])
seeds = st.integers(0, 2**32 - 1)


def names(error, *params) -> bool:
    """Whether the message of ``error`` names one of ``params`` as a word."""
    text = str(error)
    return any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(p)}(?![A-Za-z0-9_])", text)
               for p in params)


def value_or_refusal(call, *params):
    """``call()``'s value, or None after a ValueError/TypeError naming one of ``params``.

    A refusal at an extreme magnitude is allowed when it is worded (names the
    parameter); any other exception, or an unnamed message, fails the test.
    """
    try:
        return call()
    except (ValueError, TypeError) as error:
        assert names(error, *params), f"message names none of {params}: {error}"
        return None


def scaled(X, k):
    """``X * 10**k`` computed without overflow or a rounded factor at the ends."""
    X = np.asarray(X, dtype=float)
    if k >= 0:
        return X * 10.0**k
    # 10**-320 is not a float; two factors keep the product exact enough
    return X * 10.0**max(k, -300) * 10.0**(k - max(k, -300))
