"""The built website on a phone, on paper, and by weight (issue 31: UX review D4, D5, item 5).

Reuses the site test's server and browser (``tests/conftest.py``: one of each
per worker); no build of its own. For every page of the built site, the one
cold load that ``tests/test_site.py`` makes of it (``test_site.visit_page``,
which calls ``phone_layout`` below right after weighing the load):

* **weight** (``tests/site_weight.py`` defines it): the bytes Chromium receives
  on a cold load from a local server without compression, all requests
  included; the shared assets (``_static/``, the search index) must stay
  <= 2.0 MB and the whole initial load <= 3.0 MB. Both are printed per page
  and written to ``_build/site-weight.json``;
* **phone** (390 x 844, the UX review's size): no page scrolls sideways
  (``document.scrollingElement.scrollWidth <= innerWidth``); each explorable
  figure shows its narrow frame, whose smallest text is at least
  ``TEXT_FLOOR_PX`` CSS pixels tall as displayed; with ``SITE_SCREENSHOTS=1``,
  screenshots go to ``_build/site-screenshots/phone-*.png``.

And one chapter printed through Chromium (``page.pdf``) into
``_build/print/``: every line of its shown code cells is in the PDF's text
whole (a line cut at the margin would lose its end), and the answers at the
chapter's end list every self-check's key.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from site_weight import MAX_PAGE_BYTES, MAX_SHARED_BYTES, MATHJAX_DONE, write_report
from test_site import PAGES, SCREENSHOTS, SHOTS, SITE, SITE_PAGES, SOURCE, _missing_site_reason

PHONE = {"width": 390, "height": 844}
# The smallest text of an explorable's frame, as displayed on the phone, in CSS
# px. The figures' smallest text on the desktop is 6.7 px (a 6-pt legend at
# 80 dpi; most tick labels are 8.9-11 px); the narrow frames keep every figure
# at 6.3 px or more. The UX review found 3-5 px unreadable; 6 px is the floor
# that a frame shrunk to the phone column (0.43-0.64 of its size) fails.
TEXT_FLOOR_PX = 6.0
WEIGHT_REPORT = SITE.parent / "site-weight.json"
PRINTED = SITE.parent / "print"
PRINTED_CHAPTER = "04_cross_validation"

_NO_SIDEWAYS = """() => {
  const width = window.innerWidth;
  const scrolling = document.scrollingElement.scrollWidth;
  if (scrolling <= width) return {scrolling, width, culprits: []};
  const clipped = (e) => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement)
                             if (getComputedStyle(p).overflowX !== "visible") return true; return false; };
  const culprits = Array.from(document.querySelectorAll("body *"))
    .filter((e) => e.getBoundingClientRect().right > width + 1 && !clipped(e))
    .slice(0, 3).map((e) => e.tagName.toLowerCase() + "." + String(e.className).split(" ")[0] +
                     ": " + (e.textContent || "").trim().slice(0, 50));
  return {scrolling, width, culprits};
}"""

_FRAMES_SHOWN = """() => Array.from(document.querySelectorAll(".mlcore-explore")).map((root) => {
  const data = JSON.parse(root.querySelector("script.mlx-data").textContent);
  const image = root.querySelector("img.mlx-image");
  return {id: root.id, narrowSet: "narrow" in data, src: image.currentSrc,
          natural: image.naturalWidth, shown: image.clientWidth, textPx: data.textPx};
})"""

_FRAMES_LOADED = """() => Array.from(document.querySelectorAll(".mlcore-explore img.mlx-image"))
  .every((image) => image.complete && image.naturalWidth > 0 &&
                    (!image.closest("picture").querySelector("source") ||
                     image.currentSrc.includes("narrow")))"""


@pytest.fixture(scope="session")
def weight_report():
    collected: dict[str, dict] = {}
    yield collected
    if collected:
        write_report(WEIGHT_REPORT, {
            "definition": "bytes received on a cold load from a local server without "
                          "compression, all requests (tests/site_weight.py)",
            "max_shared_bytes": MAX_SHARED_BYTES, "max_page_bytes": MAX_PAGE_BYTES}, collected)


def phone_layout(page, path: str) -> list[str]:
    """The page (loaded at desktop size) at the phone's size: the layout problems found.

    Called by ``test_site.visit_page`` right after the cold load it weighs.
    """
    problems = []
    page.set_viewport_size(PHONE)
    # The page's resize handlers (site.js marks formulas wider than a
    # line) run before the next frame's callbacks: wait two frames.
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_function(_FRAMES_LOADED, timeout=60_000)
    layout = page.evaluate(_NO_SIDEWAYS)
    if layout["scrolling"] > layout["width"]:
        problems.append(f"at {PHONE['width']} px the page scrolls sideways "
                        f"({layout['scrolling']} px wide): {layout['culprits']}")
    stem = path.removesuffix(".html").replace("/", "__")
    if SCREENSHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / f"phone-{stem}.png"))
    for i, frame in enumerate(page.evaluate(_FRAMES_SHOWN)):
        if SCREENSHOTS:
            figure = page.locator(f"#{frame['id']}")
            figure.scroll_into_view_if_needed()
            figure.screenshot(path=str(SHOTS / f"phone-{stem}__figure{i}.png"))
        if frame["narrowSet"] and "narrow" not in frame["src"]:
            problems.append(f"explorable {i}: shows {frame['src'][-40:]}, not its narrow frame")
        text = frame["textPx"] * frame["shown"] / frame["natural"]
        if text < TEXT_FLOOR_PX:
            problems.append(f"explorable {i}: its smallest text shows {text:.1f} px tall "
                            f"(< {TEXT_FLOOR_PX}); frame {frame['natural']} px shown at "
                            f"{frame['shown']} px")
    page.evaluate("() => window.scrollTo(0, 0)")
    return problems


# One cold load per page serves this test and test_site.test_page_works_offline
# (test_site.visit_page; the same xdist group, so the same worker).
@pytest.mark.parametrize("path", SITE_PAGES)
def test_page_weight_and_phone_layout(path, page_visits, weight_report):
    visit = page_visits(path)
    weight = visit.weight
    weight_report[path] = {"shared": weight.shared, "own": weight.own, "total": weight.total,
                           "requests": len(weight.requests)}
    print(f"\n{path}: shared {weight.shared / 1e6:.2f} MB, own {weight.own / 1e6:.2f} MB, "
          f"initial load {weight.total / 1e6:.2f} MB, {len(weight.requests)} requests")
    problems = weight.problems() + visit.phone
    assert not problems, f"{path}:\n  " + "\n  ".join(problems)


# -- print ---------------------------------------------------------------------------

def _shown_code_lines(notebook: Path) -> list[str]:
    """The lines of the code cells a reader sees on the page (and so on paper)."""
    hidden = {"remove-input", "remove-cell", "hide-input", "hide-cell"}
    lines = []
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        tags = set(cell.get("metadata", {}).get("tags", []))
        if cell["cell_type"] != "code" or tags & hidden:
            continue
        for line in "".join(cell["source"]).splitlines():
            # The solution markers are hidden on the site (_ext/solution_markers.py).
            if line.strip() and not re.match(r"\s*# (BEGIN|END) SOLUTION", line):
                lines.append(line)
    return lines


_SELF_CHECK = re.compile(r":::\{self-check\}(.*?)\n(.*?)\n:::", re.S)


def _self_check_keys(notebook: Path) -> list[str]:
    """The text of each self-check's correct option(s), in the chapter's order."""
    keys = []
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for _question, body in _SELF_CHECK.findall("".join(cell["source"])):
            correct = [m.group(1) for m in re.finditer(r"^\s*[-*]\s+\[[xX]\]\s+(.+?)(?:\s+~\s+|$)",
                                                       body, re.M)]
            keys.append(" ".join(correct))
    return keys


def _words(text: str) -> list[str]:
    """Plain words of MyST text: math, roles' markup and punctuation left out."""
    text = re.sub(r"\$\$?.*?\$\$?", " ", text)
    text = re.sub(r"\{[a-z:]+\}`([^`<]*)(<[^>]*>)?`", r"\1", text)
    return re.findall(r"[A-Za-z]{4,}", text)


def _squeezed(text: str) -> str:
    # Without spaces (a wrapped line) and hyphens: pdftotext joins a word
    # broken after a hyphen at a line's end ("heavy-\ntailed" -> "heavytailed").
    return re.sub(r"[\s-]+", "", text)


def test_a_printed_chapter_keeps_its_code_and_lists_the_answers(server, browser):
    reason = _missing_site_reason()
    if reason:
        pytest.skip(reason)
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    path = f"chapters/{PRINTED_CHAPTER}.html"
    notebook = SOURCE / "chapters" / f"{PRINTED_CHAPTER}.ipynb"
    if path not in PAGES or not notebook.exists():
        pytest.skip(f"no {path} in the built site")
    PRINTED.mkdir(parents=True, exist_ok=True)
    pdf = PRINTED / f"{PRINTED_CHAPTER}.pdf"
    page = browser.new_page()
    try:
        page.goto(server + path, wait_until="load")
        page.evaluate(MATHJAX_DONE)
        page.pdf(path=str(pdf), format="A4", print_background=True)
    finally:
        page.close()
    text = subprocess.run([pdftotext, "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    body, marker, answers = text.partition("Answers to the self-checks")
    assert marker, "the printed chapter has no answer section"

    squeezed = _squeezed(body)
    lines = _shown_code_lines(notebook)
    cut = [line for line in lines if _squeezed(line) not in squeezed]
    print(f"\n{pdf}: {len(lines)} code lines, {len(cut)} not whole in the PDF's text")
    assert lines and not cut, f"{len(cut)} code line(s) cut in print, e.g. {cut[:3]}"

    keys = _self_check_keys(notebook)
    numbered = re.findall(r"^\s*(\d+)\.\s", answers, re.M)
    assert keys and [int(n) for n in numbered[:len(keys)]] == list(range(1, len(keys) + 1)), (
        f"{len(keys)} self-checks, answers numbered {numbered[:len(keys) + 2]}")
    answer_words = set(re.findall(r"[A-Za-z]{4,}", answers))
    missing = [key for key in keys if not set(_words(key)) <= answer_words]
    assert not missing, f"keys missing from the printed answers: {missing[:3]}"
    # Under each question, no key: the printed question shows no verdict.
    assert "Correct." not in body.split("Self-check 1.", 1)[-1], "a verdict prints under a question"


# -- the build's rewrites, without a browser ------------------------------------------

def test_explorable_frames_become_files_loaded_on_demand(tmp_path):
    """_ext/site_assets.py moves an explorable's frames out of the page (item 5, lazy frames)."""
    import types

    import ipywidgets as w
    import numpy as np

    from mlcore.widgets import InteractiveFigure
    from site_assets import _frames_as_files

    class TwoPanels(InteractiveFigure):
        figsize, dpi = (8.0, 2.0), 40

        def controls(self):
            return {"k": w.IntSlider(value=1, min=1, max=3)}

        def setup(self, fig):
            self.axes = fig.subplots(1, 2)
            self.lines = [ax.plot([0, 1], [0, 1])[0] for ax in self.axes]
            for ax in self.axes:
                ax.set(ylim=(0, 3), title="panel")

        def update(self, k):
            for line in self.lines:
                line.set_ydata([0, k])

    html = TwoPanels().explore().data
    context = {"body": f"<p>before</p>{html}<p>after</p>",
               "pathto": lambda target, resource: "../" + target}
    app = types.SimpleNamespace(outdir=str(tmp_path))
    _frames_as_files(app, "chapters/x", "page.html", context, None)
    body = context["body"]
    assert "base64," not in body.split("<script>")[0].split('class="mlx-data"')[0]
    data = json.loads(re.search(r'class="mlx-data">(.*?)</script>', body, re.S).group(1))
    files = sorted(p.name for p in (tmp_path / "_images" / "explore").iterdir())
    assert len(files) == len(data["frames"]) + len(data["narrow"]) == 6
    first = data["index"][data["start"]]
    assert data["frames"][first] == "" == data["narrow"][first]
    assert all(f.startswith("../_images/explore/") and f.endswith(".png")
               for i, f in enumerate(data["frames"] + data["narrow"]) if f)
    assert re.search(r'<img class="mlx-image"[^>]* src="\.\./_images/explore/mlx-\w+-\d\.png"', body)
    assert re.search(r'srcset="\.\./_images/explore/mlx-\w+-\d-narrow\.png"', body)
    assert body.startswith("<p>before</p>") and body.endswith("<p>after</p>")
    assert np.all([(tmp_path / "_images" / "explore" / f).read_bytes()[:4] == b"\x89PNG"
                   for f in files])


def test_search_scripts_leave_every_page_but_the_search_page(tmp_path):
    import types

    from site_assets import _drop_search_scripts_outside_search

    page = ('<head>\n    <script src="../_static/searchtools.js"></script>\n'
            '    <script src="../_static/language_data.js"></script>\n'
            '    <script src="../searchindex.js"></script>\n<script src="../_static/x.js"></script>')
    (tmp_path / "chapters").mkdir()
    (tmp_path / "chapters" / "a.html").write_text(page, encoding="utf-8")
    (tmp_path / "search.html").write_text(page, encoding="utf-8")
    app = types.SimpleNamespace(outdir=str(tmp_path), builder=types.SimpleNamespace(format="html"),
                                config=types.SimpleNamespace(html_theme_options={}))
    _drop_search_scripts_outside_search(app, None)
    assert (tmp_path / "chapters" / "a.html").read_text() == '<head>\n<script src="../_static/x.js"></script>'
    assert (tmp_path / "search.html").read_text() == page


def test_the_icon_font_keeps_exactly_the_icons_the_site_shows(tmp_path):
    """_ext/icon_subset.py on the theme's own files: 157 kB of solid icons -> the few used."""
    import pydata_sphinx_theme
    from fontTools.ttLib import TTFont

    from icon_subset import SUBSET_NAME, subset_icons

    theme = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"
    shutil.copytree(theme / "styles", tmp_path / "_static" / "styles")
    shutil.copytree(theme / "vendor", tmp_path / "_static" / "vendor")
    (tmp_path / "page.html").write_text('<i class="fa-solid fa-bars"></i>', encoding="utf-8")
    css_saved, font_saved = subset_icons(tmp_path)
    css = (tmp_path / "_static" / "styles" / "pydata-sphinx-theme.css").read_text(encoding="utf-8")
    assert ".fa-bars:before" in css and ".fa-moon:before" not in css and css_saved > 50_000
    assert f"{SUBSET_NAME}) format(\"woff\")" in css and "fa-solid-900.woff2" not in css
    font = TTFont(tmp_path / "_static" / "vendor" / "fontawesome" / "webfonts" / SUBSET_NAME)
    kept = set(font.getBestCmap())
    assert 0xF0C9 in kept and 0xF186 not in kept          # fa-bars kept, fa-moon gone
    # The theme's own icons (admonitions, links) stay: every private-use character in the CSS.
    # (Those the solid font has: a few belong to the brands font.)
    solid = set(TTFont(theme / "vendor" / "fontawesome" / "webfonts" / "fa-solid-900.ttf").getBestCmap())
    theme_icons = {ord(c) for c in re.findall("[\ue000-\uf8ff]", css)} & solid
    assert len(theme_icons) > 5 and theme_icons <= kept
    assert font_saved > 100_000
