"""InteractiveFigure.explore: the website's kernel-free figure with every control.

The browser side (each control moved in Chromium on the built pages) is in
tests/test_site.py; here: the grid, the frames and the page's data agree
with what ``render`` draws for each combination.
"""

import base64
import json
import re

import ipywidgets as w
import numpy as np
import pytest

from mlcore._explore import _palette_png, control_grid
from mlcore.widgets import InteractiveFigure


class Waves(InteractiveFigure):
    figsize = (3.0, 2.0)
    dpi = 40

    def controls(self):
        return {"freq": w.FloatSlider(value=1.0, min=0.5, max=3.0, step=0.5, description="f (Hz)"),
                "shape": w.Dropdown(options=[("sine", "sin"), ("cosine", "cos")], value="sin",
                                    description="shape"),
                "flip": w.Checkbox(value=False, description="flip"),
                "scale": w.FloatLogSlider(value=1.0, base=10, min=-1, max=1, step=1,
                                          description="scale")}

    def setup(self, fig):
        ax = fig.add_subplot()
        self.x = np.linspace(0, 1, 100)
        (self.line,) = ax.plot(self.x, self.x)
        ax.set(xlim=(0, 1), ylim=(-10.5, 10.5))

    def update(self, freq, shape, flip, scale):
        y = getattr(np, shape)(2 * np.pi * freq * self.x) * scale
        self.line.set_ydata(-y if flip else y)


def _data(output):
    html = output.data
    payload = json.loads(re.search(r'class="mlx-data">(.*?)</script>', html, re.S).group(1))
    first = re.search(r'class="mlx-image"[^>]*src="data:image/png;base64,([^"]+)"', html).group(1)
    frames = [f or first for f in payload["frames"]]
    return html, payload, frames


def test_control_grid_reads_each_kind_of_widget():
    assert control_grid(w.FloatSlider(value=1, min=0, max=1, step=0.25))[0] == [0, 0.25, 0.5,
                                                                                 0.75, 1.0]
    assert control_grid(w.FloatLogSlider(value=1, base=10, min=-2, max=0, step=1))[0] == \
        pytest.approx([0.01, 0.1, 1.0])
    assert control_grid(w.SelectionSlider(options=["a", "b"]))[1] == ["a", "b"]
    assert control_grid(w.Text(value="x")) is None


def test_every_combination_shows_what_render_draws():
    figure = Waves()
    output = figure.explore(freq=[0.5, 2.0, 3.0], scale=[1.0, 10.0])
    html, data, frames = _data(output)
    assert data["sizes"] == [3, 2, 2, 2]   # freq, shape, flip, scale, in the panel's order
    assert len(data["index"]) == 24
    assert html.count(" data-mlx") == 4
    assert 'type="range"' in html and "<select" in html and 'type="checkbox"' in html
    assert data["labels"][1] == ["sine", "cosine"] and data["labels"][2] == ["off", "on"]
    # Row-major over the controls: check a few combinations against render().
    for freq_i, shape_i, flip_i, scale_i in [(0, 0, 0, 0), (2, 1, 1, 1), (1, 0, 1, 0)]:
        flat = ((freq_i * 2 + shape_i) * 2 + flip_i) * 2 + scale_i
        expected = _palette_png(figure.render(freq=[0.5, 2.0, 3.0][freq_i],
                                              shape=["sin", "cos"][shape_i],
                                              flip=bool(flip_i), scale=[1.0, 10.0][scale_i]))
        assert base64.b64decode(frames[data["index"][flat]]) == expected
    # The page opens on the defaults (freq 1.0 is not in the grid: nearest, 0.5).
    assert data["start"] == 0


def test_identical_frames_are_stored_once():
    figure = Waves()
    # sin(2 pi f x) * 0 ... flipping a zero curve changes nothing: scale held, flip moved.
    output = figure.explore(freq=[1.0], shape=["sin"], scale=[1.0], flip=[False, True])
    _, data, frames = _data(output)
    assert len(data["index"]) == 2 and len(frames) == 2
    output = figure.explore(freq=[0.5, 0.5], shape=["sin"], scale=[1.0], flip=[False])
    _, data, frames = _data(output)
    assert data["index"] == [0, 0] and len(frames) == 1


def test_held_controls_are_named_and_auto_grids_thinned():
    figure = Waves()
    html, data, _ = _data(figure.explore(max_frames=12, shape=["cos"]))
    assert "Held here: shape" in html and "live panel" in html
    assert np.prod(data["sizes"]) <= 12
    # Ends kept, the default kept.
    freq = data["labels"][0]
    assert freq[0] == "0.50" or freq[0] == "0.5"
    assert len(data["index"]) == np.prod(data["sizes"])


@pytest.mark.parametrize("kwargs, message", [
    ({"speed": [1]}, "not controls"),
    ({"freq": []}, "empty grid"),
    ({"freq": list(np.linspace(0.5, 3, 30)), "scale": [0.1, 1, 10]}, "max_frames=48"),
    ({"max_frames": 0}, "max_frames"),
    ({"note": 3}, "note must be a str"),
])
def test_bad_arguments_are_named(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        Waves().explore(**kwargs)


def test_the_figure_is_left_at_its_defaults():
    figure = Waves()
    before = figure.render()
    figure.explore(freq=[3.0], flip=[True], shape=["cos"], scale=[10.0])
    assert figure.render() == before


def test_the_picture_is_described_and_each_move_announced():
    """UX review D2, D20, D21: alt text from the figure, a live region, held values in the caption."""
    figure = Waves()
    html, data, _ = _data(figure.explore(max_frames=12, shape=["cos"]))
    alt = re.search(r'<img class="mlx-image"[^>]*alt="([^"]*)"', html).group(1)
    assert not alt.startswith("Waves") and "Shown for" in alt
    assert data["alt"] and "Waves" not in data["alt"]
    assert 'class="mlx-status" aria-live="polite"' in html
    assert "mlx-held" not in html and "Held here: shape cos" in html


class TwoPanels(InteractiveFigure):
    figsize = (9.0, 3.0)
    dpi = 40

    def controls(self):
        return {"freq": w.FloatSlider(value=1.0, min=1.0, max=2.0, step=1.0, description="f")}

    def setup(self, fig):
        left, right = fig.subplots(1, 2)
        self.x = np.linspace(0, 1, 50)
        (self.left,) = left.plot(self.x, self.x)
        (self.right,) = right.plot(self.x, self.x)
        left.set(title="left", ylim=(-1, 1))
        right.set(title="right", ylim=(-1, 1))
        self.title = fig.suptitle("")

    def update(self, freq):
        self.left.set_ydata(np.sin(2 * np.pi * freq * self.x))
        self.right.set_ydata(np.cos(2 * np.pi * freq * self.x))
        self.title.set_text(f"f = {freq}: a figure title long enough to need wrapping on a phone")


def _narrow(html):
    from PIL import Image

    first = re.search(r'srcset="data:image/png;base64,([^"]+)"', html).group(1)
    return Image.open(__import__("io").BytesIO(base64.b64decode(first)))


def test_phones_get_narrow_frames_that_keep_the_text_size():
    """UX review D5: a two-column figure stacks its columns (and wraps its title) for phones."""
    from mlcore._explore import NARROW_MEDIA, NARROW_PX

    figure = TwoPanels()
    before = figure.render()
    html, data, frames = _data(figure.explore())
    assert f'<source class="mlx-narrow" media="{NARROW_MEDIA}"' in html
    narrow = _narrow(html)
    wide_width = 9.0 * 40
    assert narrow.width <= max(NARROW_PX, wide_width / 2 + 10) and narrow.height > 1.5 * 3.0 * 40
    assert len(data["narrow"]) == len(data["frames"]) and data["narrow"][data["index"][0]] == ""
    assert all(data["narrow"][i] for i in range(len(frames)) if i != data["index"][data["start"]])
    assert data["textPx"] == pytest.approx(10 * 40 / 72, abs=0.01)   # 10-pt text at 40 dpi
    assert figure.render() == before


def test_a_wide_one_column_figure_is_drawn_again_narrower_and_left_as_it_was():
    from mlcore._explore import NARROW_PX

    figure = Waves(figsize=(14.0, 2.0))   # 560 px at 40 dpi: wider than a phone
    before = figure.render()
    html, data, _ = _data(figure.explore(max_frames=4, shape=["sin"], flip=[False], scale=[1.0]))
    assert _narrow(html).width == NARROW_PX
    assert figure.render() == before
    small = Waves()                        # 120 px: fits a phone as it is
    assert "<source" not in small.explore(max_frames=4, shape=["sin"], flip=[False],
                                       scale=[1.0]).data


def test_output_carries_the_default_frame_and_a_caption_for_print():
    figure = Waves()
    output = figure.explore(freq=[0.5, 1.0, 2.0, 3.0, 4.0], shape=["sin"], scale=[1.0, 10.0])
    bundle = output._repr_mimebundle_()
    html, data, frames = _data(output)
    # The still is the frame the page opens on (the defaults: freq 1.0, scale 1.0).
    assert bundle["image/png"] == frames[data["index"][data["start"]]]
    assert bundle["text/html"] == html
    caption = bundle["text/plain"]
    assert "Shown for f (Hz) 1.00, flip off, scale 1." in caption
    assert "Controls: f (Hz) (0.50 to 4.00, 5 values); flip (off, on); scale (1, 10)." in caption
    assert caption.endswith("Held: shape sine.") and repr(output) == caption


def test_a_figure_with_axes_placed_by_hand_renders_narrow_without_a_warning():
    """Chapter 3's explorer (``fig.add_axes``) showed matplotlib's 'no gridspecs'
    warning on its page: constrained layout has no grid to place there."""
    import warnings

    from mlcore.vc import ShatteringExplorer
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ShatteringExplorer().explore(hypothesis_class=["halfspace"], preset=["triangle"],
                                     seed=[0], point=[0], dx=[0.0], dy=[0.0])


def test_a_grading_kernel_draws_only_the_default_frame(monkeypatch):
    """Nothing shows a graded notebook's outputs: the homework grader's kernel (its
    environment carries MLCORE_HOMEWORK_RUN) draws the frame the page opens on and says
    so, after checking the grid as always (issue #38 item 5)."""
    figure = Waves()
    held = {"shape": ["sin"], "flip": [False], "scale": [1.0]}
    full = figure.explore(freq=[0.5, 1.0], **held)
    monkeypatch.setenv("MLCORE_HOMEWORK_RUN", "0123")
    with pytest.raises(ValueError, match="not controls"):
        figure.explore(speed=[1])
    graded = figure.explore(freq=[0.5, 1.0], **held)
    html, data, frames = _data(graded)
    assert data["sizes"] == [] and len(frames) == 1 and "only the default frame" in html
    assert graded.frame == full.frame and figure.render() == Waves().render()


class _KeyedWaves(Waves):
    """Waves whose frame does not depend on the flip of a zero curve (scale 0)."""

    def frame_key(self, freq, shape, flip, scale):
        return (freq, shape, scale, flip if scale else None)


def test_a_frame_key_skips_drawing_a_frame_already_drawn_and_changes_nothing():
    grid = dict(freq=[1.0], shape=["sin"], scale=[0.0, 1.0], flip=[False, True])
    plain, keyed = Waves(), _KeyedWaves()
    calls = []
    render = keyed.render
    keyed.render = lambda **params: calls.append(params) or render(**params)
    assert keyed.explore(**grid).data == plain.explore(**grid).data
    assert len(calls) == 3   # 4 combinations, the flip of the zero curve skipped


def test_fold_figure_keys_equal_only_for_equal_frames():
    from mlcore.model_selection import FoldAssignmentFigure

    figure = FoldAssignmentFigure()
    loo = [dict(scheme="LOO", n_samples=12, n_splits=k, shuffle=False) for k in (2, 5)]
    assert figure.frame_key(**loo[0]) == figure.frame_key(**loo[1])
    assert figure.render(**loo[0]) == figure.render(**loo[1])
    kfold = [dict(scheme="K-fold", n_samples=12, n_splits=k, shuffle=False) for k in (2, 5)]
    assert figure.frame_key(**kfold[0]) != figure.frame_key(**kfold[1])
    # K beyond m draws an error frame: the same picture whatever was drawn before it
    # (it kept the previous frame's class strip), every sample unused (it showed "train").
    error = dict(scheme="K-fold", n_samples=6, n_splits=10, shuffle=False)
    assert figure.frame_key(**error) is not None
    after = [figure.render(**before) and figure.render(**error)
             for before in (kfold[0], dict(scheme="LOO", n_samples=40, n_splits=2))]
    assert after[0] == after[1]
    assert figure.image.get_array().tolist() == [[-1] * 6]
    assert figure.classes.get_array().tolist() == [[1, 1, 0, 0, 0, 0]]
