"""Shared pytest configuration: the Hypothesis profiles of the property-based tests.

* ``ci`` (the default under the project's test command and when ``CI=true``):
  derandomized, few examples, no deadline, so the whole property suite stays
  within about 60 s of CPU on a loaded 2-core machine and never flakes.
* ``dev`` / ``thorough`` (select with ``HYPOTHESIS_PROFILE=dev`` or
  ``HYPOTHESIS_PROFILE=thorough``): random seeds and many more examples, for
  local bug hunting.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, max_examples=25, deadline=None,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=200, deadline=None)
settings.register_profile("thorough", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
