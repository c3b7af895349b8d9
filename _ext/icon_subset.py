"""The theme's icon font, cut down to the icons the built site shows (page weight, issue 31).

pydata-sphinx-theme's stylesheet carries Font Awesome 6: ~1,900 rules
``.fa-NAME:before{content:"\\fXXX"}`` (86 kB of its 397 kB) and a solid-icon
font of 157 kB (woff2), for the dozen icons the course's pages show. After
the build (``build-finished``, called from ``site_assets``) this

* finds the icon classes the site uses: ``fa-NAME`` in any built page or in
  the theme's own script (which adds ``fa-xmark`` and the like at run time);
* drops the stylesheet's rules for every other icon;
* writes ``fa-solid-900.subset.woff``: the solid font with only the glyphs of
  the icons kept **and** every other private-use character the stylesheet
  still names (the theme's admonition, link and dropdown icons in
  ``--pst-icon-*`` and ``content``), and points the stylesheet's solid
  ``@font-face`` at it. WOFF (zlib), not WOFF2: writing WOFF2 needs the
  ``brotli`` package, and at this size the difference is a few hundred bytes.

The fonts for regular and brand icons are left as they are: no page uses them,
so no browser fetches them.
"""

from __future__ import annotations

import re
from pathlib import Path

_ICON_RULE = re.compile(r'(?P<selectors>(?:\.fa-[a-z0-9-]+:before,?)+)\{content:"(?P<code>[^"]*)"\}\n?')
_ICON_CLASS = re.compile(r"\bfa-[a-z0-9]+(?:-[a-z0-9]+)*")
_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?")
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
_SOLID_FACE = re.compile(r'(font-weight:900;src:)url\((?P<dir>[^)]*/)fa-solid-900\.woff2\) format\("woff2"\),'
                         r'url\([^)]*fa-solid-900\.ttf\) format\("truetype"\)')
SUBSET_NAME = "fa-solid-900.subset.woff"


def _characters(css_value: str) -> set[str]:
    """The characters a CSS string names, escapes (``\\f0c9``) decoded."""
    return set(_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), css_value))


def used_icon_classes(outdir: Path) -> set[str]:
    """Every ``fa-NAME`` class named in the built pages or in the theme's own script."""
    used: set[str] = set()
    sources = list(outdir.rglob("*.html")) + list((outdir / "_static" / "scripts").glob("pydata-sphinx-theme*.js"))
    for path in sources:
        used.update(_ICON_CLASS.findall(path.read_text(encoding="utf-8", errors="replace")))
    return used


def subset_icons(outdir: Path) -> tuple[int, int] | None:
    """Cut the stylesheet's icon rules and the solid font down to what ``outdir`` uses.

    Returns
    -------
    (int, int) or None
        Bytes saved in the stylesheet and in the font, or ``None`` when the
        theme's files are not where pydata-sphinx-theme puts them (then
        nothing is changed).
    """
    from fontTools import subset
    from fontTools.ttLib import TTFont

    css_path = outdir / "_static" / "styles" / "pydata-sphinx-theme.css"
    if not css_path.is_file():
        return None
    css = css_path.read_text(encoding="utf-8")
    face = _SOLID_FACE.search(css)
    if face is None:
        return None
    font_dir = (css_path.parent / face["dir"]).resolve()
    source, woff2 = font_dir / "fa-solid-900.ttf", font_dir / "fa-solid-900.woff2"
    if not source.is_file():
        return None

    used = used_icon_classes(outdir)

    def keep_rule(match):
        selectors = [s.removesuffix(":before") for s in match["selectors"].split(",") if s]
        return match.group(0) if any(s[1:] in used for s in selectors) else ""

    lighter = _ICON_RULE.sub(keep_rule, css)
    # Every private-use character the remaining stylesheet names: the kept
    # icons and the theme's own (admonitions, external links, dropdowns).
    strings = re.findall(r'"([^"]*)"', lighter)
    wanted = set().union(*(_characters(s) for s in strings)) if strings else set()
    wanted = {c for c in wanted if _PRIVATE_USE.fullmatch(c)}

    font = TTFont(str(source))
    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = ["*"]
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(unicodes=sorted(ord(c) for c in wanted))
    subsetter.subset(font)
    target = font_dir / SUBSET_NAME
    font.flavor = "woff"
    font.save(str(target))

    lighter = _SOLID_FACE.sub(lambda m: f'{m.group(1)}url({m["dir"]}{SUBSET_NAME}) format("woff")',
                              lighter)
    css_path.write_text(lighter, encoding="utf-8")
    font_saved = (woff2.stat().st_size if woff2.is_file() else 0) - target.stat().st_size
    return len(css.encode()) - len(lighter.encode()), font_saved
