"""Shattering and the VC dimension, decided exactly (chapter 3).

A labeling of points is *realizable* by a hypothesis class when some
hypothesis of the class reproduces it; the class *shatters* the points when
all :math:`2^n` labelings are realizable. Five classes, labels 0/1:

=============  ======================================  =====  =========
class          hypothesis                              input  VC dim.
=============  ======================================  =====  =========
``threshold``  1 if x >= t                             1-D    1
``interval``   1 if a <= x <= b                        1-D    2
``halfspace``  1 if w.x + b >= 0                       n-D    n + 1
``rectangle``  1 inside an axis-aligned box            2-D    4
``disc``       1 inside a closed disc                  2-D    3
=============  ======================================  =====  =========

Every decision is exact and proved by a witness hypothesis that is checked
against the labels. Thresholds, intervals and rectangles have closed forms.
Half-spaces are decided by linear-programming feasibility (``linprog``); in
the plane :func:`realizable_labelings` enumerates instead the O(n²) *angular
cells* of directions (between two consecutive critical directions the order
of the projections is fixed, and the realizable labelings for that order are
its n + 1 prefixes). Discs lift to the paraboloid ``z = |x|²``: a disc labeling is
a set of lifted points below a plane, and every such set is reached from a
circle through three points by a small tilt.
"""

from ._bounds import (margin_vc_bound, rademacher_vc_gap, rademacher_vc_sample_size,
                      regular_simplex, sauer_bound, vc_bound_gap, vc_sample_size)
from ._explorer import PRESETS, ShatteringExplorer, preset_points
from ._hypotheses import (HYPOTHESIS_CLASSES, Disc, HalfSpace, Interval, Rectangle, Threshold,
                          is_realizable)
from ._simulation import halfplane_noise_gaps, min_halfplane_errors
from ._labelings import (erm_halfplane, labelings, realizable_labelings, shatters,
                         witness_hypotheses)

__all__ = [
    "HYPOTHESIS_CLASSES", "VC_DIMENSIONS", "Threshold", "Interval", "HalfSpace", "Rectangle",
    "Disc", "is_realizable", "witness_hypotheses", "realizable_labelings", "shatters",
    "labelings", "erm_halfplane", "min_halfplane_errors", "halfplane_noise_gaps", "sauer_bound", "vc_bound_gap", "vc_sample_size",
    "margin_vc_bound", "rademacher_vc_gap", "rademacher_vc_sample_size", "regular_simplex", "preset_points", "PRESETS", "ShatteringExplorer",
]

# Defined here rather than in a submodule so that the API reference, which reads
# the "#:" comments of this file, documents it.
#: VC dimension of each class; a half-space in R^n has n + 1 (here for the plane).
VC_DIMENSIONS = {"threshold": 1, "interval": 2, "halfspace": 3, "rectangle": 4, "disc": 3}
