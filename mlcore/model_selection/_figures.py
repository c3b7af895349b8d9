"""The interactive figures of chapter 4.

Holds :class:`FoldAssignmentFigure` (which samples each split trains and
tests on) and :class:`DegreeSelectionFigure` (training vs cross-validation
vs true error over the polynomial degree). Part of
:mod:`mlcore.model_selection`.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._validation import check_int
from ..widgets import InteractiveFigure
from ._splitters import fold_assignment, make_splitter
from ._study import degree_curves, legendre_design, sine_regression, sine_target


# -- interactive figures ----------------------------------------------------
_FIGURE_SCHEMES = ["K-fold", "stratified K-fold", "repeated K-fold", "hold-out",
                   "stratified hold-out", "RLT", "LOO", "5x2", "blocked 3x2", "blocked rx2"]


class FoldAssignmentFigure(InteractiveFigure):
    """Rows are splits, columns samples: which samples each split trains and tests on.

    The strip on top shows the class of each sample (a third are positive,
    sorted first), so the stratified schemes can be told apart.
    """

    benchmark = ("n_samples", [8, 12, 16, 20, 24, 28, 32, 36, 40])
    figsize = (7.0, 4.2)

    def controls(self):
        import ipywidgets as w

        return {"scheme": w.Dropdown(options=_FIGURE_SCHEMES, value="K-fold", description="scheme"),
                "n_samples": w.IntSlider(value=20, min=6, max=40, description="m"),
                "n_splits": w.IntSlider(value=5, min=2, max=10, description="K (or r)"),
                "shuffle": w.Checkbox(value=False, description="shuffle")}

    def setup(self, fig):
        from matplotlib.colors import ListedColormap
        from matplotlib.patches import Patch
        from matplotlib.ticker import MaxNLocator

        # Fixed margins: constrained layout would re-measure every tick label on each redraw.
        fig.set_layout_engine("none")
        top, self.ax = fig.subplots(2, 1, gridspec_kw={"height_ratios": [1, 9], "hspace": 0.08,
                                                       "left": 0.09, "right": 0.82,
                                                       "bottom": 0.12, "top": 0.9}, sharex=True)
        self.classes = top.imshow(np.zeros((1, 2)), cmap="Greys", vmin=0, vmax=1.6,
                                  aspect="auto", interpolation="nearest")
        top.set(yticks=[], ylabel="class")
        colours = ListedColormap(["#e8e8e8", "#4c72b0", "#dd8452"])
        self.image = self.ax.imshow(np.zeros((1, 2)), cmap=colours, vmin=-1.5, vmax=1.5,
                                    aspect="auto", interpolation="nearest")
        self.ax.set(xlabel="sample index", ylabel="split")
        self.ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        self.ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        self.ax.legend(handles=[Patch(color="#4c72b0", label="train"),
                                Patch(color="#dd8452", label="test"),
                                Patch(color="#e8e8e8", label="unused")],
                       loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        self.title = top.set_title("")

    def _state(self, scheme, n_samples, n_splits, shuffle):
        """(class labels, assignment grid or None, title): all that ``update`` draws."""
        y = (np.arange(n_samples) < max(2, n_samples // 3)).astype(int)
        repeats = n_splits if scheme == "blocked rx2" else 3
        cv = make_splitter(scheme, n_splits=n_splits, n_repeats=repeats, shuffle=shuffle,
                           random_state=0)
        try:
            with warnings.catch_warnings():
                # "The least populated class has only ... members": the picture shows it.
                warnings.simplefilter("ignore", UserWarning)
                grid = fold_assignment(cv, n_samples, y)
        except ValueError as error:
            # The panel lets K exceed m (or the smaller class): say so instead of failing.
            return y, None, (f"{scheme} with K = {n_splits}, m = {n_samples}: "
                             f"{str(error).split(';')[0][:70]}")
        rows = len(grid)
        tested = np.unique(np.sum(grid == 1, axis=0))
        times = f"{tested[0]}" if len(tested) == 1 else f"{tested[0]} to {tested[-1]}"
        return y, grid, (f"{scheme}: {rows} split{'s' * (rows > 1)} of m = {n_samples}; "
                         f"each sample is tested {times} time{'s' * bool(tested[-1] != 1)}")

    def frame_key(self, scheme, n_samples, n_splits, shuffle):
        # Several schemes ignore K or the shuffle (LOO, hold-out, 5x2, ...):
        # equal grids and titles draw equal frames, so explore draws them once.
        y, grid, title = self._state(scheme, n_samples, n_splits, shuffle)
        if grid is None:                # an error frame: an empty grid under the classes
            return (n_samples, y.tobytes(), title)
        return (n_samples, y.tobytes(), grid.shape, grid.tobytes(), title)

    def update(self, scheme, n_samples, n_splits, shuffle):
        y, grid, title = self._state(scheme, n_samples, n_splits, shuffle)
        self.title.set_text(title)
        # An error frame (K > m): one row of unused samples (-1, not 0 = train),
        # under this m's classes (a frame must not depend on the one before it).
        if grid is None:
            grid = np.full((1, n_samples), -1)
        rows = len(grid)
        self.image.set_data(grid)
        self.image.set_extent((-0.5, n_samples - 0.5, rows - 0.5, -0.5))
        self.classes.set_data(y[None, :])
        self.classes.set_extent((-0.5, n_samples - 0.5, 0.5, -0.5))
        self.ax.set_ylim(rows - 0.5, -0.5)
        self.ax.set_xlim(-0.5, n_samples - 0.5)


class DegreeSelectionFigure(InteractiveFigure):
    """A polynomial fit of the chosen degree, and training vs 10-fold CV vs true error."""

    benchmark = ("degree", list(range(0, 13)))
    figsize = (8.0, 3.6)
    max_degree = 12

    def __init__(self, n_samples=30, noise=0.3, random_state=0, **kwargs):
        check_int(n_samples, "n_samples", low=10, why="the curves use 10-fold cross-validation")
        self.x, self.y = sine_regression(n_samples, noise=noise, random_state=random_state)
        self.noise = noise
        super().__init__(**kwargs)

    def controls(self):
        import ipywidgets as w

        return {"degree": w.IntSlider(value=3, min=0, max=self.max_degree, description="degree")}

    def setup(self, fig):
        from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

        fig.set_layout_engine("none")  # fixed margins: a redraw need not re-measure the ticks
        left, right = fig.subplots(1, 2, gridspec_kw={"left": 0.08, "right": 0.98, "bottom": 0.14,
                                                      "top": 0.9, "wspace": 0.28})
        grid = np.linspace(-1, 1, 200)
        self.grid = grid
        left.plot(self.x, self.y, "o", color="0.4", ms=4, label="data")
        left.plot(grid, sine_target(grid), "k--", lw=1, label="sin(pi x)")
        (self.fit,) = left.plot(grid, grid, color="C3", lw=2, label="fit")
        left.set(xlabel="x", ylabel="y", ylim=(-2, 2), yticks=[-2, -1, 0, 1, 2],
                 xticks=[-1, -0.5, 0, 0.5, 1])
        left.legend(loc="lower right", fontsize=8)
        degrees = np.arange(self.max_degree + 1)
        train, cv = degree_curves(self.x, self.y, degrees, random_state=0)
        x_true = np.linspace(-1, 1, 2001)
        true = [self.noise ** 2 + np.mean((sine_target(x_true) - legendre_design(x_true, d)
                                           @ np.linalg.lstsq(legendre_design(self.x, d),
                                                             self.y, rcond=None)[0]) ** 2)
                for d in degrees]
        right.semilogy(degrees, train, "o-", label="training error")
        right.semilogy(degrees, cv, "s-", label="10-fold CV error")
        right.semilogy(degrees, true, "k^--", label="true error")
        self.marker = right.axvline(3, color="C3", lw=2)
        right.set(xlabel="polynomial degree", ylabel="mean squared error (log scale)")
        # Plain-text tick labels: mathtext ones ("10^-1") cost most of a redraw.
        right.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
        right.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        right.yaxis.set_minor_locator(NullLocator())
        right.legend(fontsize=8)
        self.curves = (train, cv)
        self.title = left.set_title("")

    def update(self, degree):
        coef = np.linalg.lstsq(legendre_design(self.x, degree), self.y, rcond=None)[0]
        self.fit.set_ydata(legendre_design(self.grid, degree) @ coef)
        self.marker.set_xdata([degree, degree])
        train, cv = self.curves
        self.title.set_text(f"degree {degree}: training {train[degree]:.3f}, CV {cv[degree]:.3f}")
