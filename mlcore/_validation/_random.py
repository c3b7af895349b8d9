"""The one seed convention: ``random_state`` checked, and turned into the generator a
function needs (part of :mod:`mlcore._validation`; import them from there).
"""

from __future__ import annotations

import numbers

import numpy as np


_RANDOM_STATE_TYPES = (np.random.Generator, np.random.RandomState, np.random.BitGenerator,
                       np.random.SeedSequence)


def check_random_state(value, name: str = "random_state"):
    """Return ``value`` after checking it can seed a random generator.

    The convention of every mlcore function: ``random_state`` may be None
    (fresh entropy), a non-negative integer of any size (NumPy integers
    included), or an existing ``numpy.random.Generator``, ``RandomState``,
    ``BitGenerator`` or ``SeedSequence``. A generator object is used, and
    advanced, in place; an integer gives the same draws on every call.
    :func:`as_generator` and :func:`as_random_state` convert the accepted
    value to the kind of generator a function needs.

    Examples
    --------
    >>> check_random_state(np.int32(3))
    3
    >>> check_random_state(-1)
    Traceback (most recent call last):
    ...
    ValueError: random_state must be None, a non-negative integer or a numpy random generator, got random_state=-1.
    """
    allowed = "None, a non-negative integer or a numpy random generator"
    if value is None or isinstance(value, _RANDOM_STATE_TYPES):
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be {allowed}, got {name}={value!r} "
                        f"of type {type(value).__name__}.")
    if int(value) < 0:
        raise ValueError(f"{name} must be {allowed}, got {name}={int(value)}.")
    return int(value)


def as_generator(value, name: str = "random_state") -> np.random.Generator:
    """A ``numpy.random.Generator`` from any value :func:`check_random_state` accepts.

    Integers and None give ``numpy.random.default_rng(value)``; a ``RandomState``
    is wrapped, sharing (and advancing) its state.

    Examples
    --------
    >>> bool(as_generator(0).integers(10) == np.random.default_rng(0).integers(10))
    True
    """
    value = check_random_state(value, name)
    if isinstance(value, np.random.RandomState):
        return np.random.Generator(value._bit_generator)
    return np.random.default_rng(value)


def as_random_state(value, name: str = "random_state") -> np.random.RandomState:
    """A ``numpy.random.RandomState`` (what scikit-learn uses) from any accepted value.

    Integers below 2**32 and None give what ``sklearn.utils.check_random_state``
    gives; a ``Generator`` or ``BitGenerator`` is wrapped, sharing its state.

    Examples
    --------
    >>> bool(as_random_state(0).randint(10) == np.random.RandomState(0).randint(10))
    True
    """
    value = check_random_state(value, name)
    if isinstance(value, np.random.RandomState):
        return value
    if isinstance(value, np.random.Generator):
        return np.random.RandomState(value.bit_generator)
    if isinstance(value, np.random.BitGenerator):
        return np.random.RandomState(value)
    if isinstance(value, np.random.SeedSequence) or (value is not None and value >= 2 ** 32):
        return np.random.RandomState(np.random.MT19937(value))
    return np.random.RandomState(value)
