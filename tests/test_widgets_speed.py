"""The work a slider move of every interactive figure does, counted (no clock).

Every ``InteractiveFigure`` subclass defined in ``mlcore`` declares
``benchmark = (parameter, values)``; these tests find them all and guard what
makes a slider move fast, as counts that do not depend on how busy the machine
is: ``update`` moves artists and never adds them (the figure holds as many
artists after a second pass over the values as after the first), a move costs at
most one full canvas draw and none at all for a figure that repaints only its
``dynamic_artists()`` over a cached background, the layout is computed once,
and ``explore()`` renders each frame once. The speed itself (p95 of a slider
move against the 100 ms target, and each ``explore()`` time) is measured and
printed by ``python scripts/bench_widgets.py``: a clock belongs in a
benchmark, not in a test that must pass on a loaded machine.
"""

import importlib
import pkgutil

import re
import sys

import numpy as np
import pytest
from matplotlib.layout_engine import ConstrainedLayoutEngine, TightLayoutEngine

import mlcore
from mlcore.widgets import InteractiveFigure


def _all_figures():
    for info in pkgutil.iter_modules(mlcore.__path__):
        if info.name != "homework":
            importlib.import_module(f"mlcore.{info.name}")
    found, stack = [], list(InteractiveFigure.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("mlcore.") and getattr(cls, "benchmark", None):
            found.append(cls)
    return sorted(found, key=lambda c: c.__qualname__)


FIGURES = _all_figures()


class _CountingCanvas:
    """Counts the full draws of a figure's canvas (``canvas.draw``) while active."""

    def __init__(self, figure):
        self.canvas, self.full_draws = figure.fig.canvas, 0

    def __enter__(self):
        draw = self.canvas.draw

        def counted(*args, **kwargs):
            self.full_draws += 1
            return draw(*args, **kwargs)

        self.canvas.draw = counted
        return self

    def __exit__(self, *exc):
        del self.canvas.draw            # back to the class's method
        return False


@pytest.fixture(scope="module")
def built():
    """``built(cls)``: one figure of each class for all the tests of this file.

    Building a figure is often its costliest step (its default frame's
    simulation, the constrained layout): each test built its own, up to three
    per class. No test here needs a fresh one; each brings it to the state it
    checks (the caches warm, the values it moves through).
    """
    figures = {}

    def get(figure_class):
        if figure_class not in figures:
            figures[figure_class] = figure_class()
        return figures[figure_class]
    yield get
    figures.clear()


def test_every_figure_declares_a_benchmark():
    # mlcore's own figures: a class its module holds. A doctest's example class
    # (mlcore/widgets.py defines a Line) carries the module's name but is not in the
    # module, and lives on only if the doctest ran earlier on this worker.
    missing = [c.__qualname__ for c in InteractiveFigure.__subclasses__()
               if c.__module__.startswith("mlcore.")
               and getattr(sys.modules.get(c.__module__), c.__name__, None) is c
               and not getattr(c, "benchmark", None)]
    assert not missing, f"InteractiveFigure subclasses without a benchmark attribute: {missing}"


@pytest.mark.parametrize("figure_class", FIGURES, ids=lambda c: c.__qualname__)
def test_slider_move_work(figure_class, built):
    """Per slider move: no new artists, at most one full draw (none for a fast figure)."""
    name, values = figure_class.benchmark
    figure = built(figure_class)
    if figure.freeze_layout:
        assert not isinstance(figure.fig.get_layout_engine(),
                              (ConstrainedLayoutEngine, TightLayoutEngine)), (
            f"{figure_class.__qualname__}: the layout is recomputed on every redraw")
    # First pass: the caches and the fast path's background. It draws as a move
    # does (_draw, what render() encodes), without the PNG nobody looks at.
    for value in values:
        figure._draw(**{name: value})
    artists = len(figure.fig.findobj())
    fast = bool(figure.dynamic_artists())
    # One counted pass of real moves (render: draw and encode) shows both faults:
    # an update() that adds artists adds them on every move of it, and a move
    # that draws in full more than once does so every time.
    with _CountingCanvas(figure) as counter:
        for value in values:
            figure.render(**{name: value})
    moves = len(values)
    assert len(figure.fig.findobj()) == artists, (
        f"{figure_class.__qualname__}: update() adds artists on every slider move "
        f"({artists} -> {len(figure.fig.findobj())} after {moves} more moves); move them instead")
    allowed = 0 if fast else moves
    assert counter.full_draws <= allowed, (
        f"{figure_class.__qualname__}: {counter.full_draws} full canvas draws in {moves} "
        f"slider moves (at most {allowed}: "
        f"{'its dynamic artists repaint over a cached background' if fast else 'one per move'})")
    print(f"\n{figure_class.__qualname__}: {artists} artists, {counter.full_draws} full draws "
          f"in {moves} moves{' (fast path)' if fast else ''}")


@pytest.mark.parametrize("figure_class", [c for c in FIGURES if c.dynamic_artists is not
                                          InteractiveFigure.dynamic_artists],
                         ids=lambda c: c.__qualname__)
def test_fast_redraw_draws_what_a_full_redraw_draws(figure_class, built):
    """A figure that repaints only its dynamic artists must look like a full redraw."""
    import io

    from PIL import Image

    name, values = figure_class.benchmark
    figure = built(figure_class)
    for value in values[:: max(1, len(values) // 4)]:
        fast = np.asarray(Image.open(io.BytesIO(figure.render(**{name: value}))).convert("RGB"))
        buffer = io.BytesIO()
        figure.fig.savefig(buffer, format="png", dpi=figure.dpi)
        full = np.asarray(Image.open(buffer).convert("RGB"))
        differing = (np.abs(fast.astype(int) - full.astype(int)).max(axis=2) > 40).mean()
        assert differing < 0.01, (
            f"{figure_class.__qualname__} at {name}={value!r}: {differing:.1%} of the pixels "
            "differ from a full redraw; dynamic_artists() misses an artist that update() changes")


@pytest.mark.parametrize("figure_class", FIGURES, ids=lambda c: c.__qualname__)
def test_explore_renders_each_frame_once(figure_class, built):
    """The website version over the benchmark parameter: one render per value, no more."""
    name, values = figure_class.benchmark
    figure = built(figure_class)
    calls = []
    render = figure.render
    figure.render = lambda **params: calls.append(params) or render(**params)
    try:
        output = figure.explore(**{n: [v] for n, v in figure.defaults().items() if n != name},
                                **{name: values})
    finally:
        del figure.render           # the class's method again, for the file's other tests
    # Then, for a one-column figure wider than a phone, the phone's narrow
    # frames: each distinct frame drawn once more at 360 px (mlcore._explore);
    # a figure of several columns gets them by cropping, with no drawing.
    from mlcore._explore import _columns

    columns = _columns(figure.fig)
    narrow = re.search(r'"narrow":\[', output.data) is not None and not (columns and len(columns) > 1)
    page, phone = calls[:len(values)], calls[len(values):]
    assert [c[name] for c in page] == list(values), (
        f"{figure_class.__qualname__}: explore() rendered {len(calls)} frames for "
        f"{len(values)} values of {name}")
    assert len(phone) <= (len(values) if narrow else 0), (
        f"{figure_class.__qualname__}: {len(phone)} extra renders for {len(values)} values")
    print(f"\n{figure_class.__qualname__}: explore() {len(calls)} frames, "
          f"{len(output.data) / 1e3:.0f} kB")
