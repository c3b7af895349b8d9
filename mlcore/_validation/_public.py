"""Errors that read as the user's: a refused argument raises from the function called.

The checks of this package raise from inside ``mlcore._validation`` (or a
private helper), so without help a traceback ends in a frame the user never
called. :func:`raise_from_public` wraps every public function and method of a
topic module so that a ``ValueError``/``TypeError`` raised wholly inside
mlcore loses the frames below the public one: its last frame is the line of
the function or method the user called. An error raised in code that is not
mlcore's (a user's statistic, NumPy, scikit-learn) keeps every frame, since
those are where its cause is. Nothing is re-raised as a new exception: the
type, message and ``__cause__`` stay as they were.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_MARK = "_mlcore_public"
# original -> wrapper: a name two modules export stays one object
_WRAPPERS: dict = {}


def _inside_mlcore(tb) -> bool:
    """Whether every frame from ``tb`` down is mlcore's own code."""
    while tb is not None:
        if not tb.tb_frame.f_code.co_filename.startswith(_ROOT):
            return False
        tb = tb.tb_next
    return True


def _trim(error: BaseException, code) -> None:
    """Cut ``error``'s traceback after ``code``'s frame when the rest is mlcore's."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code is not code:
        tb = tb.tb_next
    if tb is not None and _inside_mlcore(tb.tb_next):
        tb.tb_next = None


def _wrap(function):
    if getattr(function, _MARK, False) or not inspect.isfunction(function):
        return function
    if function in _WRAPPERS:
        return _WRAPPERS[function]
    code = function.__code__

    @functools.wraps(function)
    def public(*args, **kwargs):
        # IPython and pytest hide this frame
        __tracebackhide__ = True  # noqa: F841
        try:
            return function(*args, **kwargs)
        except (ValueError, TypeError) as error:
            _trim(error, code)
            raise

    setattr(public, _MARK, True)
    _WRAPPERS[function] = public
    return public


def _wrap_class(cls) -> None:
    """Wrap the public methods mlcore defines on ``cls`` and its bases, in place."""
    for klass in cls.__mro__:
        if not klass.__module__.startswith("mlcore"):
            continue
        for name, member in list(vars(klass).items()):
            if name.startswith("_") or not inspect.isfunction(member):
                continue
            setattr(klass, name, _wrap(member))


def raise_from_public(module) -> None:
    """Make each public callable of ``module`` (``__all__``) raise from its own frame.

    Functions are replaced by a wrapper in ``module`` and in the module that
    defines them (so ``pickle`` finds the same object); classes keep their
    identity and have their public methods wrapped.
    """
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isclass(obj) and obj.__module__.startswith("mlcore"):
            _wrap_class(obj)
        elif inspect.isfunction(obj) and obj.__module__.startswith("mlcore"):
            wrapped = _wrap(obj)
            setattr(module, name, wrapped)
            home = sys.modules.get(obj.__module__)
            if home is not None and getattr(home, obj.__name__, None) is obj:
                setattr(home, obj.__name__, wrapped)


def rebind_wrapped() -> None:
    """Give every mlcore module the wrapper wherever it still holds a wrapped original.

    A name re-exported by a module whose ``__all__`` does not list it (chapter
    11's ``lda`` package holds ``coding_matrix``, which its face
    ``multiclass`` lists) must still be the one object everywhere.
    """
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "mlcore" or name.startswith("mlcore.")):
            continue
        for attribute, value in list(vars(module).items()):
            try:
                wrapper = _WRAPPERS.get(value)
            except TypeError:     # unhashable
                continue
            if wrapper is not None:
                setattr(module, attribute, wrapper)
