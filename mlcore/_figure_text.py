"""Text alternatives for figures: what a screen reader says instead of a picture.

Every figure of the course has a title and labelled axes (CONTRIBUTING.md), so
a useful description can be read off the figure itself: its title, then each
panel's title and axis labels. :func:`describe_figure` does that;
:func:`install_notebook_alt_text` makes every figure a notebook shows carry it
as the PNG's ``alt`` metadata, which the website's ``<img alt>`` then uses
(``_ext/site_assets.py``), and the explorable figures put it before their
values.
"""

from __future__ import annotations

import re

__all__ = ["describe_figure", "install_notebook_alt_text"]

_TEX = re.compile(r"\$([^$]*)\$")
_SPACE = re.compile(r"\s+")
_GREEK = ("alpha beta gamma delta epsilon varepsilon zeta eta theta kappa lambda mu nu xi pi rho "
          "sigma tau phi varphi chi psi omega Gamma Delta Theta Lambda Pi Sigma Phi Psi Omega").split()
_SYMBOLS = {name: chr(code) for name, code in zip(
    _GREEK, [945, 946, 947, 948, 1013, 949, 950, 951, 952, 954, 955, 956, 957, 958, 960, 961,
             963, 964, 981, 966, 967, 968, 969, 915, 916, 920, 923, 928, 931, 934, 936, 937])}
_SYMBOLS.update({"le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "times": "×", "cdot": "·",
                 "infty": "∞", "pm": "±", "approx": "≈", "ne": "≠", "to": "→"})
_ACCENT = re.compile(r"\\(hat|bar|tilde|sqrt)\{([^{}]*)\}")
_COMMAND = re.compile(r"\\([A-Za-z]+)\s*")
_NAME = re.compile(r"\\([A-Za-z]+)")
_DROPPED = {"mathrm", "mathbf", "mathcal", "mathbb", "mathsf", "operatorname", "text", "left",
            "right", "big", "Big", "displaystyle"}
_ACCENTS = {"hat": "\u0302", "bar": "\u0304", "tilde": "\u0303"}


def _tex_to_text(tex: str) -> str:
    """Readable text for a TeX formula: Greek letters and common symbols as characters."""
    # Symbols first, keeping their backslash (\\hat{\\varepsilon} -> \\hat{\\ε}) so
    # that the accent pattern still sees one argument; the rest are then dropped.
    tex = _NAME.sub(lambda m: "\\" + _SYMBOLS[m.group(1)] if m.group(1) in _SYMBOLS
                    else m.group(0), tex)
    tex = _ACCENT.sub(lambda m: f"√({m.group(2)})" if m.group(1) == "sqrt"
                      else m.group(2) + _ACCENTS[m.group(1)], tex)
    tex = _COMMAND.sub(lambda m: "" if m.group(1) in _DROPPED else m.group(1) + " ", tex)
    tex = tex.replace("\\", "")
    return tex.replace("{", "").replace("}", "")


def _plain(text: str) -> str:
    """Label text with its TeX made readable, on one line."""
    return _SPACE.sub(" ", _TEX.sub(lambda m: _tex_to_text(m.group(1)), text)).strip()


def describe_figure(figure, *, max_panels: int = 6) -> str:
    """Describe a Matplotlib figure in one sentence or a few, from its titles and labels.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        The figure to describe.
    max_panels : int, default=6
        Panels (axes with something drawn) described one by one; more are
        counted, not described. A panel with no title or axis labels is
        described by the words written on it.

    Returns
    -------
    str
        ``"<suptitle>. Panel 1: <title> (x: <label>; y: <label>). ..."``;
        ``"Figure"`` when it has no text at all. Colour bars and empty axes are
        left out.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([0, 1], [1, 0]); _ = ax.set(title="Loss against step", xlabel="step", ylabel="$J(\\\\theta)$")
    >>> describe_figure(fig)
    'Loss against step (x: step; y: J(θ)).'
    >>> plt.close(fig)
    """
    if not isinstance(max_panels, int) or isinstance(max_panels, bool) or max_panels < 1:
        raise ValueError(f"max_panels must be a whole number >= 1, got {max_panels!r}.")
    parts = []
    suptitle = getattr(figure, "_suptitle", None)
    if suptitle is not None and suptitle.get_text().strip():
        parts.append(_plain(suptitle.get_text()) + ".")
    panels = [ax for ax in figure.axes
              if ax.get_visible() and ax.get_label() != "<colorbar>"
              and (ax.lines or ax.collections or ax.patches or ax.images or ax.texts)]
    for i, ax in enumerate(panels[:max_panels]):
        title = _plain(ax.get_title() or ax.get_title("left") or ax.get_title("right"))
        labels = [f"{name}: {_plain(text)}" for name, text in
                  (("x", ax.get_xlabel()), ("y", ax.get_ylabel())) if ax.axison and text.strip()]
        if not (title or labels):
            # A diagram drawn with text (a critical-difference plot, a tree):
            # its words say what it shows.
            words = list(dict.fromkeys(_plain(t.get_text()) for t in ax.texts if t.get_text().strip()))
            labels = [f"labels: {', '.join(words[:10])}" + (", ..." if len(words) > 10 else "")] if words else []
        if title and labels:
            described = f"{title} ({'; '.join(labels)})"
        else:
            described = title or "; ".join(labels)
        if not described:
            continue
        prefix = f"Panel {i + 1}: " if len(panels) > 1 else ""
        parts.append(prefix + described + ".")
    if len(panels) > max_panels:
        parts.append(f"And {len(panels) - max_panels} more panels.")
    return " ".join(parts) or "Figure"


def install_notebook_alt_text() -> None:
    """Give every figure a notebook shows inline its :func:`describe_figure` text as ``alt``.

    Wraps matplotlib-inline's figure metadata so each displayed PNG carries
    ``{"image/png": {"alt": ...}}``. The course's build runs it in every
    kernel it starts (``scripts/tasks.py`` writes it into the kernels' IPython
    profile); it changes nothing that a notebook computes or shows.
    """
    from matplotlib_inline import backend_inline

    original = getattr(backend_inline._fetch_figure_metadata, "__wrapped__",
                       backend_inline._fetch_figure_metadata)

    def with_alt(fig):
        metadata = dict(original(fig) or {})
        metadata.setdefault("image/png", {})["alt"] = describe_figure(fig)
        return metadata

    with_alt.__wrapped__ = original
    backend_inline._fetch_figure_metadata = with_alt
