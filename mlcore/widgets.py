"""One pattern for every interactive figure in the book.

An interactive figure is a subclass of :class:`InteractiveFigure` that writes
three things:

``controls()``
    the ipywidgets controls, a dict ``{parameter name: widget}``;
``setup(fig)``
    creates the axes and the artists once;
``update(**params)``
    calls a pure, tested compute function of the topic's module and moves
    the artists (``set_data``, ``set_height`` ...), never re-plotting.

The base class turns that into

* :meth:`~InteractiveFigure.live` — the control panel for a running kernel:
  each slider move calls ``update`` and swaps the PNG of an ``Image`` widget
  (no ipympl needed, works in JupyterLab, Colab and Binder);
* :meth:`~InteractiveFigure.explore` — the kernel-free counterpart for the
  website: the same ``update`` run over a grid of every control's values,
  with a labelled input and the current value for each control, which
  responds to the reader with no kernel and no network;
* :meth:`~InteractiveFigure.scrub` — an animation over one parameter
  (matplotlib's ``to_jshtml``), for a figure that is a movie;
* :meth:`~InteractiveFigure.time_updates` — what ``scripts/bench_widgets.py`` times:
  milliseconds per ``update`` plus redraw.

In a chapter the live cell carries the tag ``remove-output`` (a widget needs
a kernel) and the explore cell the tag ``remove-input``; see the preface,
"How a chapter is built".
"""

from __future__ import annotations

import io
from abc import ABC, abstractmethod
import re
import time

import numpy as np
from matplotlib.animation import FuncAnimation
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ._validation import check_real

__all__ = ["InteractiveFigure", "strip_cdn_links"]

_CDN_LINK = re.compile(r"<link[^>]+href=[\"']https?://[^\"']+[\"'][^>]*>\s*", re.IGNORECASE)


def strip_cdn_links(html: str) -> str:
    """Remove ``<link href="http...">`` tags, e.g. the CDN stylesheet of ``to_jshtml``.

    The book's theme already ships the icon font the animation controls use,
    so the page needs nothing from another host.

    Examples
    --------
    >>> strip_cdn_links('<link rel="stylesheet" href="https://cdn.example/fa.css">\\n<div>x</div>')
    '<div>x</div>'
    """
    if not isinstance(html, str):
        raise TypeError(f"html must be a str, got html of type {type(html).__name__}.")
    return _CDN_LINK.sub("", html)


class InteractiveFigure(ABC):
    """Base class of the book's interactive figures (see the module docstring).

    Parameters
    ----------
    figsize : tuple of float
        Figure size in inches.
    dpi : int
        Resolution of the live PNG and of the animation frames; modest, so
        a page with an animation stays small.

    Examples
    --------
    >>> import ipywidgets as w
    >>> import numpy as np
    >>> class Sine(InteractiveFigure):
    ...     def controls(self):
    ...         return {"freq": w.FloatSlider(value=1.0, min=0.5, max=3.0, step=0.5)}
    ...     def setup(self, fig):
    ...         ax = fig.add_subplot()
    ...         self.x = np.linspace(0, 1, 200)
    ...         (self.line,) = ax.plot(self.x, np.sin(self.x))
    ...         ax.set(xlim=(0, 1), ylim=(-1.1, 1.1), xlabel="t (s)", ylabel="signal")
    ...     def update(self, freq):
    ...         self.line.set_ydata(np.sin(2 * np.pi * freq * self.x))
    >>> figure = Sine()
    >>> figure.render(freq=2.0)[:4] == b"\\x89PNG"
    True
    >>> "<script" in figure.scrub("freq", [0.5, 1.0]).data
    True
    >>> figure.time_updates("freq", [1.0, 2.0]).shape     # milliseconds per move
    (2,)
    """

    figsize: tuple[float, float] = (7.0, 3.6)
    dpi: int = 80
    #: Keep the layout computed for the default parameters (fast redraws).
    freeze_layout: bool = True

    def __init__(self, *, figsize=None, dpi=None):
        if figsize is not None:
            if isinstance(figsize, (str, bytes)) or np.ndim(figsize) != 1 or len(figsize) != 2:
                raise TypeError(f"figsize must be a pair (width, height) in inches, got "
                                f"figsize={figsize!r}.")
            self.figsize = tuple(check_real(side, "figsize", low=0.5, high=100,
                                            why="each side is in inches")
                                 for side in figsize)
        if dpi is not None:
            self.dpi = int(check_real(dpi, "dpi", low=10, high=1000, why="it is dots per inch"))
        # A bare Figure (not pyplot) so the inline backend never shows it twice.
        self.fig = Figure(figsize=self.figsize, dpi=self.dpi, facecolor="white",
                          layout="constrained")
        FigureCanvasAgg(self.fig)
        try:
            self._controls = self.controls()
            self.setup(self.fig)
            self.update(**self.defaults())
        except (IndexError, KeyError) as error:
            # A safety net for arguments whose lengths or keys do not fit together,
            # which a subclass did not check itself: a ValueError at construction.
            raise ValueError(
                f"{type(self).__name__}: the arguments do not fit together ({type(error).__name__}: "
                f"{error} while building the figure); check that the lists given have the "
                f"lengths, and the mappings the keys, that the other arguments imply.") from error
        if self.freeze_layout:
            # Lay the figure out once, then keep that layout: constrained layout
            # otherwise re-measures every tick label on every redraw, about half
            # the cost of a slider move or an animation frame.
            self.fig.canvas.draw()
            self.fig.set_layout_engine("none")

    # -- what a subclass writes -------------------------------------------
    @abstractmethod
    def controls(self) -> dict:
        """The controls, ``{parameter name: ipywidgets widget}``."""

    @abstractmethod
    def setup(self, fig) -> None:
        """Create the axes and artists on ``fig`` once."""

    @abstractmethod
    def update(self, **params) -> None:
        """Move the artists to show ``params`` (compute in a pure function)."""

    # -- what the base class gives ----------------------------------------
    def defaults(self) -> dict:
        """The controls' current values."""
        return {name: control.value for name, control in self._controls.items()}

    def dynamic_artists(self) -> list:
        """The artists ``update`` changes, to repaint over a cached background.

        Return them only when ``update`` changes nothing else (no axis limits,
        ticks or other artists): a redraw then restores the background and
        draws just these, in z-order, instead of every axis and tick label,
        which is most of a full redraw's cost. The default, an empty list,
        means a full redraw each time. Animations (:meth:`scrub`) always draw
        in full.
        """
        return []

    def frame_key(self, **params):
        """A hashable summary of the frame at ``params``, or None (the default).

        :meth:`explore` draws a combination whose key it has met before no
        more: it reuses that frame. Return a key only when equal keys mean
        identical frames (the key holds everything ``update`` sets), e.g. for
        controls that some settings ignore. None renders every combination.
        """
        return None

    def _draw(self, **params) -> None:
        self.update(**{**self.defaults(), **params})
        canvas = self.fig.canvas
        dynamic = sorted(self.dynamic_artists(), key=lambda artist: artist.get_zorder())
        if not dynamic:
            canvas.draw()
            return
        if getattr(self, "_background", None) is None:
            visible = [artist.get_visible() for artist in dynamic]
            for artist in dynamic:
                artist.set_visible(False)
            canvas.draw()
            self._background = canvas.copy_from_bbox(self.fig.bbox)
            for artist, was_visible in zip(dynamic, visible):
                artist.set_visible(was_visible)
        else:
            canvas.restore_region(self._background)
        for artist in dynamic:
            self.fig.draw_artist(artist)

    def render(self, **params) -> bytes:
        """PNG bytes of the figure at ``params`` (others at their defaults).

        Encodes the canvas just drawn, rather than ``savefig``, which would
        draw the whole figure a second time.
        """
        from PIL import Image

        self._draw(**params)
        width, height = self.fig.canvas.get_width_height()
        image = Image.frombuffer("RGBA", (width, height), self.fig.canvas.buffer_rgba(),
                                 "raw", "RGBA", 0, 1)
        buffer = io.BytesIO()
        image.save(buffer, format="png", compress_level=1)
        return buffer.getvalue()

    def as_image(self, **params):
        """The figure at ``params`` as a displayable PNG with its text alternative.

        Like :meth:`render`, but an ``IPython.display.Image`` whose ``alt``
        (the figure's titles and axis labels, then the values shown) reaches
        the website's ``<img alt>`` and screen readers.

        Examples
        --------
        >>> import ipywidgets as w
        >>> class Line(InteractiveFigure):
        ...     def controls(self):
        ...         return {"slope": w.FloatSlider(value=1.0, min=0.0, max=2.0, description="slope")}
        ...     def setup(self, fig):
        ...         ax = fig.add_subplot()
        ...         (self.line,) = ax.plot([0, 1], [0, 1])
        ...         ax.set(title="A line", xlabel="x", ylim=(0, 2))
        ...     def update(self, slope):
        ...         self.line.set_ydata([0, slope])
        >>> Line().as_image(slope=2.0).metadata["alt"]
        'A line (x: x). Shown for slope 2.0.'
        """
        from IPython.display import Image

        from ._figure_text import describe_figure

        png = self.render(**params)
        shown = ", ".join(f"{name} {value}" for name, value in params.items())
        alt = describe_figure(self.fig).rstrip(".") + (f". Shown for {shown}." if shown else ".")
        return Image(png, metadata={"alt": alt})

    def live(self):
        """An ipywidgets panel: the controls above the figure, redrawn on every change."""
        import ipywidgets as widgets

        image = widgets.Image(value=self.render(), format="png")

        def on_change(_change):
            image.value = self.render(**self.defaults())

        for control in self._controls.values():
            control.observe(on_change, names="value")
        return widgets.VBox([widgets.HBox(list(self._controls.values())), image])

    def scrub(self, name: str, values, *, interval: int = 200, **params):
        """A kernel-free animation of the figure as ``name`` runs over ``values``.

        The other parameters take ``params`` or their defaults. Returns an
        ``IPython.display.HTML`` object to leave as a cell's last expression.
        """
        from IPython.display import HTML

        if name not in self._controls:
            raise ValueError(f"name must be one of {sorted(self._controls)}, got name={name!r}.")
        values = list(values)
        if not values:
            raise ValueError("values must hold at least one value of the parameter to scrub.")
        fixed = {**self.defaults(), **params}

        def frame(i):
            self.update(**{**fixed, name: values[i]})
            return []

        animation = FuncAnimation(self.fig, frame, frames=len(values), interval=interval,
                                  blit=False)
        html = animation.to_jshtml(default_mode="once")
        self.update(**fixed)
        return HTML(strip_cdn_links(html))

    def explore(self, *, max_frames: int = 48, note: str | None = None, **grid):
        """A kernel-free version of the live panel: every control, labelled, with its value.

        Renders the figure (through :meth:`update`, as the live panel does)
        for every combination of the controls' values and returns one
        self-contained ``IPython.display.HTML`` output: a label, an input of
        the control's kind (a range slider over the grid for numbers, a
        select for choices, a checkbox for booleans) and the current value for
        each control, above the image, which swaps on every ``input`` event.
        It needs no kernel, no network and no script from another host.

        Parameters
        ----------
        max_frames : int, default=48
            The most combinations rendered. Controls without an explicit grid
            get one from the widget (slider min/max/step, dropdown options,
            checkbox), thinned evenly (ends and the default kept) until the
            product of the grid sizes fits.
        note : str, optional
            A sentence shown under the figure, e.g. why a control is held.
        **grid : sequence
            ``name=values`` for a control: the values the page offers, in
            order. One value holds the control there (shown, not movable).

        Returns
        -------
        mlcore._explore.ExploredFigure
            Displays as the HTML above (``.data``); its ``image/png`` (the
            default frame) and ``text/plain`` (what it shows, which controls
            move it) are what the printed book uses.

        Raises
        ------
        ValueError
            If a name is not a control, a grid is empty or the explicit
            grids alone exceed ``max_frames``.
        """
        from ._explore import explore_html

        return explore_html(self, grid, max_frames=max_frames, note=note)

    def time_updates(self, name: str, values) -> np.ndarray:
        """Milliseconds taken by ``update`` plus the redraw, for each value of ``name``."""
        timings = []
        for value in values:
            start = time.perf_counter()
            self._draw(**{name: value})
            timings.append(1000.0 * (time.perf_counter() - start))
        return np.asarray(timings)
