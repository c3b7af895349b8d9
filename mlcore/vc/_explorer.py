"""The shattering explorer of :mod:`mlcore.vc`: its point-set presets and the figure.

:data:`PRESETS`, :func:`preset_points` and :class:`ShatteringExplorer`, the
interactive figure of all labelings of a point set.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_int, check_option
from ..widgets import InteractiveFigure
from ._hypotheses import _DIMENSION
from ._labelings import labelings, witness_hypotheses


# -- the shattering explorer -----------------------------------------------------
def _polygon(k, radius=0.8, phase=np.pi / 2):
    angles = phase + 2 * np.pi * np.arange(k) / k
    return radius * np.column_stack([np.cos(angles), np.sin(angles)])


_PRESETS = {
    "triangle": lambda: np.array([[-0.7, -0.5], [0.7, -0.45], [0.05, 0.75]]),
    "collinear": lambda: np.array([[-0.75, -0.6], [0.0, 0.0], [0.75, 0.6]]),
    "square": lambda: np.array([[-0.6, -0.6], [0.6, -0.6], [0.6, 0.6], [-0.6, 0.6]]),
    "diamond": lambda: np.array([[-0.8, 0.05], [0.05, -0.8], [0.8, -0.05], [-0.05, 0.8]]),
    "pentagon": lambda: _polygon(5),
    "hexagon": lambda: _polygon(6),
}
PRESETS = (*_PRESETS, "random 4", "random 5", "random 6")
_NAMES = {"halfspace": "half-planes", "disc": "discs", "rectangle": "rectangles",
          "interval": "intervals (x)", "threshold": "thresholds (x)"}


def preset_points(preset, *, seed=0):
    """The explorer's point sets in [-1, 1]²: named shapes, or "random k" (k uniform points).

    Examples
    --------
    >>> preset_points("triangle").shape, preset_points("random 5", seed=1).shape
    ((3, 2), (5, 2))
    """
    preset = check_option(preset, "preset", PRESETS)
    seed = check_int(seed, "seed", low=0)  # checked even where a named shape ignores it
    if preset in _PRESETS:
        return _PRESETS[preset]()
    rng = np.random.default_rng(check_int(seed, "seed", low=0))
    return rng.uniform(-0.85, 0.85, size=(int(preset.split()[1]), 2))


class ShatteringExplorer(InteractiveFigure):
    """All 2^n labelings of a point set, each with a witness or marked impossible.

    Each panel is one labeling (filled dots: label 1, open squares: label 0);
    blue shading is the region the witness hypothesis labels 1; a red panel
    has no hypothesis of the class that produces its labeling. Threshold and
    interval classifiers read only the first coordinate (vertical bands).
    One axes, one image and two scatters for up to 64 panels: an update only
    replaces their data. *move point* picks a point (ignored beyond the set's
    size) and *dx*, *dy* shift it from its preset position.

    Examples
    --------
    >>> figure = ShatteringExplorer()
    >>> figure.render(hypothesis_class="rectangle", preset="diamond")[1:4] == b"PNG"
    True
    >>> figure.title.get_text()
    'rectangles, diamond: 16/16 realizable, shattered'
    """

    benchmark = ("preset", list(PRESETS))
    figsize = (8.0, 5.6)
    dpi = 72
    _RES = 52    # pixels per panel side
    _VIEW = 1.2  # a panel shows [-1.2, 1.2]^2

    def controls(self):
        import ipywidgets as w

        names = [(name, key) for key, name in _NAMES.items()]
        small = w.Layout(width="185px")
        return {
            "hypothesis_class": w.Dropdown(options=names, value="halfspace", description="class",
                                           layout=small),
            "preset": w.Dropdown(options=PRESETS, value="triangle", description="points",
                                 layout=small),
            "seed": w.IntSlider(value=0, min=0, max=20, description="seed", layout=small),
            "point": w.Dropdown(options=list(range(6)), value=0, description="move point",
                                layout=small),
            "dx": w.FloatSlider(value=0.0, min=-1.0, max=1.0, step=0.05, description="dx",
                                layout=small),
            "dy": w.FloatSlider(value=0.0, min=-1.0, max=1.0, step=0.05, description="dy",
                                layout=small),
        }

    def setup(self, fig):
        from matplotlib.colors import to_rgb

        fig.set_layout_engine("none")
        self.ax = fig.add_axes([0.01, 0.01, 0.98, 0.93])
        self.ax.set_axis_off()
        # gutter, labelled 0, labelled 1, impossible, boundary: RGB bytes, no colormap
        colours = ["white", "#f3f4f6", "#bfdbfe", "#fecaca", "#1d4ed8"]
        self.palette = (255 * np.array([to_rgb(c) for c in colours])).astype(np.uint8)
        self.image = self.ax.imshow(np.zeros((2, 2, 3), np.uint8), interpolation="nearest",
                                    origin="upper")
        self.ones = self.ax.scatter([], [], s=22, c="#111827", zorder=3, label="label 1")
        self.zeros = self.ax.scatter([], [], s=22, marker="s", facecolors="white",
                                     edgecolors="#b91c1c", linewidths=1.2, zorder=3)
        self.title = fig.suptitle("", fontsize=12)
        r = self._RES
        u = ((np.arange(r) + 0.5) / r - 0.5) * 2 * self._VIEW / 0.9
        self.grid = np.column_stack([np.tile(u, r), np.repeat(-u, r)])  # row-major pixels
        self.inside = (np.abs(self.grid) <= self._VIEW).all(axis=1).reshape(r, r)

    def update(self, hypothesis_class, preset, seed, point, dx, dy):
        X = preset_points(preset, seed=seed)
        if point < len(X):
            X[point] = np.clip(X[point] + (dx, dy), -1.0, 1.0)
        one_d = _DIMENSION.get(hypothesis_class) == 1
        found = witness_hypotheses(X[:, :1] if one_d else X, hypothesis_class=hypothesis_class)
        n, r = len(X), self._RES
        rows = {0: 1, 1: 1, 2: 1, 3: 2, 4: 2, 5: 4, 6: 8}[n]  # wide grids for a wide figure
        cols = 2 ** n // rows
        panels = np.full((2 ** n, r, r), 3)  # impossible unless a witness exists
        for bits, h in found.items():
            positive = h.predict(self.grid[:, :1] if one_d else self.grid).reshape(r, r).astype(bool)
            edge = np.zeros_like(positive)
            edge[1:] |= positive[1:] != positive[:-1]
            edge[:, 1:] |= positive[:, 1:] != positive[:, :-1]
            panels[bits] = np.where(edge, 4, np.where(positive, 2, 1))
        panels[:, ~self.inside] = 0
        picture = panels.reshape(rows, cols, r, r).transpose(0, 2, 1, 3).reshape(rows * r, cols * r)
        self.image.set_data(self.palette[picture])
        self.image.set_extent((0, cols, 0, rows))
        labels = labelings(n)
        panel = np.repeat(np.arange(2 ** n), n)
        x = panel % cols + 0.5 + np.tile(X[:, 0], 2 ** n) * 0.45 / self._VIEW
        y = rows - panel // cols - 0.5 + np.tile(X[:, 1], 2 ** n) * 0.45 / self._VIEW
        flat = labels.ravel().astype(bool)
        size = {1: 60, 2: 50, 4: 40, 8: 16}[rows]
        self.ones.set_sizes([size])
        self.zeros.set_sizes([size])
        self.ones.set_offsets(np.column_stack([x[flat], y[flat]]))
        self.zeros.set_offsets(np.column_stack([x[~flat], y[~flat]]))
        self.ax.set(xlim=(0, cols), ylim=(0, rows))
        verdict = "shattered" if len(found) == 2 ** n else "not shattered"
        self.title.set_text(f"{_NAMES[hypothesis_class]}, {preset}: {len(found)}/{2 ** n} "
                            f"realizable, {verdict}")
