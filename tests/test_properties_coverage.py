"""Every public callable of mlcore is under a property test (FUZZ-3 item 2).

Enumerates the ``__all__`` of every ``mlcore`` subpackage and fails, naming
them, on the callables that no test of ``tests/test_properties*.py`` covers
(``property_registry.covers``) and that ``property_registry.EXCLUDED`` does
not list with a reason. ``mlcore.homework`` is the grading tool, not course
content, and is tested by ``tests/test_homework*.py`` and the attack suite.
"""

import importlib
import pkgutil

import mlcore
from property_registry import COVERED, EXCLUDED

TOPICS = ("test_properties", "test_properties_evaluation", "test_properties_models",
          "test_properties_stats")
SKIPPED_PACKAGES = {"homework"}


def _public_callables():
    for info in pkgutil.iter_modules(mlcore.__path__):
        if info.name.startswith("_") or info.name in SKIPPED_PACKAGES:
            continue
        module = importlib.import_module(f"mlcore.{info.name}")
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj):
                yield f"mlcore.{info.name}.{name}", name, obj


def test_every_public_callable_has_a_property_test():
    for topic in TOPICS:
        importlib.import_module(topic)    # registers its tests' @covers
    uncovered = sorted(qualified for qualified, name, obj in _public_callables()
                       if obj not in COVERED and name not in EXCLUDED)
    assert not uncovered, f"{len(uncovered)} public callables have no property test: " \
                          + ", ".join(uncovered)


def test_exclusions_are_public_and_not_covered():
    public = {name: obj for _, name, obj in _public_callables()}
    stale = sorted(name for name in EXCLUDED if name not in public or public[name] in COVERED)
    assert not stale, f"EXCLUDED lists names that are not public or are covered: {stale}"
