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


# -- one chapter only (python scripts/tasks.py test --fast NN) ---------------------
import re  # noqa: E402

_CHAPTER = re.compile(r"\b(\d\d)_[a-z][a-z0-9_]*")
# Files whose tests concern all chapters or the whole grader: left out of a
# one-chapter run except for their tests parametrized by that chapter.
_WHOLE_BOOK_FILES = ("tests/test_homework.py", "tests/test_site.py", "tests/test_site_phone.py",
                     "tests/test_pdf.py")


def pytest_addoption(parser):
    parser.addoption("--chapter", metavar="NN", default=None,
                     help="run only what concerns chapter NN beside the unit tests: its "
                          "notebook, homework and page tests (tasks.py test --fast NN)")


def pytest_collection_modifyitems(config, items):
    chapter = config.getoption("--chapter")
    if not chapter:
        return
    if not re.fullmatch(r"\d\d", chapter):
        raise ValueError(f"--chapter takes a two-digit chapter number, got {chapter!r}")
    keep, drop = [], []
    for item in items:
        numbers = set(_CHAPTER.findall(item.nodeid))
        whole_book = item.nodeid.startswith(_WHOLE_BOOK_FILES)
        if numbers:
            (keep if chapter in numbers else drop).append(item)
        else:
            (drop if whole_book else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
