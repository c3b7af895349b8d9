"""The chapters' slide decks (``_ext/slides.py``), both editions.

In headless Chromium, from the built site and offline (the session's server
and browser of ``tests/conftest.py``), every deck: opens with no console
error and no failed or foreign request; MathJax renders every formula; every
image loads; the keyboard steps through every slide and fragment; no slide's
content overflows the 1280x720 frame. One deck's print view gives one page a
slide. Without a browser: a changed marked cell changes its slide (a deck
built from a modified copy of a notebook, from the same execution cache), a
changed code cell is refused (its outputs are not in the cache), and each
chapter page links its deck. Screenshots go to ``_build/slides-screenshots/``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from test_site import SITE, PageLog

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))
import slides  # noqa: E402

SHOTS = SITE.parent / "slides-screenshots"
CACHE = ROOT / "_build" / ".jupyter_cache"
CHAPTERS = [p.stem for p in slides.chapter_notebooks(ROOT)]
EDITIONS = {"en": "", "zh_CN": "zh_CN/"}
DECKS = [f"{prefix}slides/{stem}.html" for prefix in EDITIONS.values() for stem in CHAPTERS]
SECTION = re.compile(r"<section[ >]")


def _need(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path} is missing: run `python scripts/tasks.py book` first "
                    "(the test command builds the site and its decks before the tests)")


# Everything about the slide on screen, in one round trip.
_CURRENT = """() => {
  const s = Reveal.getCurrentSlide(), c = Reveal.getConfig(), i = Reveal.getIndices();
  const problems = [];
  if (s.scrollHeight > c.height + 1 || s.scrollWidth > c.width + 1)
    problems.push(`content ${s.scrollWidth}x${s.scrollHeight} overflows ${c.width}x${c.height}`);
  s.querySelectorAll("pre, code, table").forEach(e => {
    if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
      problems.push(`a clipped <${e.tagName.toLowerCase()}>`);
  });
  return {h: i.h, f: i.f === undefined ? -1 : i.f, problems,
          next: Reveal.availableFragments().next, last: Reveal.isLastSlide()};
}"""

_WHOLE_DECK = """() => {
  const slides = Array.from(document.querySelectorAll(".reveal .slides > section"));
  const shown = slides.flatMap(s => Array.from(s.querySelectorAll(".math"))
                                        .filter(m => !m.closest("aside")));
  return {
    slides: slides.length,
    fragments: document.querySelectorAll(".reveal .slides .fragment").length,
    math: shown.length,
    untypeset: shown.filter(m => !m.querySelector("mjx-container")).length,
    errors: document.querySelectorAll("mjx-merror").length,
    images: document.querySelectorAll(".reveal .slides img").length,
    broken: Array.from(document.querySelectorAll(".reveal .slides img"))
      .filter(img => !img.complete || img.naturalWidth === 0).map(img => img.src),
  };
}"""


# Each slide in turn (Reveal's own API, no key presses), measured by _CURRENT.
_EVERY_SLIDE_FITS = """() => {
  const current = CURRENT, problems = [];
  const count = document.querySelectorAll(".reveal .slides > section").length;
  for (let h = 0; h < count; h++) {
    Reveal.slide(h, 0, Number.MAX_SAFE_INTEGER);   // its last fragment: everything shown
    current().problems.forEach(p => problems.push(`slide ${h + 1}: ${p}`));
  }
  return problems;
}"""


def _open_deck(browser, server, path: str):
    page = browser.new_page()   # the session's context; its pages take a size each
    page.set_viewport_size({"width": 1280, "height": 720})
    log = PageLog(page, server)
    page.goto(server + path, wait_until="load")
    page.wait_for_selector("html[data-slides-ready]", state="attached")
    return page, log


@pytest.mark.parametrize("path", DECKS)
def test_deck_presents_offline(browser, server, path):
    _need(SITE / path)
    page, log = _open_deck(browser, server, path)
    try:
        deck = page.evaluate(_WHOLE_DECK)
        assert 15 <= deck["slides"] <= 30, f"{path}: {deck['slides']} slides"
        assert deck["untypeset"] == 0 and deck["errors"] == 0, deck
        assert deck["math"] > 0, "a deck with no formula: its math was lost"
        assert deck["images"] > 0 and deck["broken"] == [], deck
        if path.startswith("zh_CN/"):
            # The Chinese deck runs the English deck's scripts, so its keyboard steps
            # are the English test's; what the translation changes is how much each
            # slide holds. Show every slide in one round trip and measure each.
            problems = page.evaluate(_EVERY_SLIDE_FITS.replace("CURRENT", _CURRENT))
            assert problems == [], f"{path}: " + "; ".join(problems)
            log.settle(page)
            assert log.problems() == [], f"{path}: " + "; ".join(log.problems())
            return
        # The keys step through the deck as a speaker's do, without reveal's 0.8 s
        # slide and 0.2 s fragment animations: each press then shows its slide at
        # once (no wait before a screenshot) and the browser draws no animation
        # frames while the test measures. What a slide holds is the same.
        page.evaluate("() => Reveal.configure({transition: 'none', backgroundTransition: 'none'})")
        page.add_style_tag(content=".reveal .slides section .fragment {transition: none !important}")
        seen, fragments, problems = {0}, 0, []
        state = page.evaluate(_CURRENT)
        problems += [f"slide 1: {p}" for p in state["problems"]]
        shots = path.endswith("01_logistic_regression.html")
        while not (state["last"] and not state["next"]):
            page.keyboard.press("ArrowRight")
            after = page.evaluate(_CURRENT)
            assert (after["h"], after["f"]) != (state["h"], state["f"]), \
                f"{path}: the key did not move on from slide {state['h'] + 1}"
            if after["h"] == state["h"]:
                fragments += 1
            else:
                seen.add(after["h"])
                problems += [f"slide {after['h'] + 1}: {p}" for p in after["problems"]]
            if shots and (after["h"] in (0, 1, 3) or after["f"] >= 0):
                SHOTS.mkdir(parents=True, exist_ok=True)
                name = f"{path.replace('/', '_')[:-5]}-{after['h'] + 1}-{after['f'] + 1}.png"
                page.screenshot(path=str(SHOTS / name))
            state = after
        assert len(seen) == deck["slides"], f"{path}: reached {len(seen)} slides"
        assert fragments == deck["fragments"], f"{path}: stepped {fragments} fragments"
        assert problems == [], f"{path}: " + "; ".join(problems)
        log.settle(page)
        assert log.problems() == [], f"{path}: " + "; ".join(log.problems())
    finally:
        page.close()


def test_print_view_has_one_page_per_slide(browser, server):
    path = DECKS[0]
    _need(SITE / path)
    page, log = _open_deck(browser, server, path + "?print-pdf")
    try:
        page.wait_for_function("document.querySelectorAll('.pdf-page').length > 0")
        counts = page.evaluate("""() => [document.querySelectorAll('.pdf-page').length,
            document.querySelectorAll('.reveal .slides section').length]""")
        assert counts[0] == counts[1], f"{counts[0]} pages for {counts[1]} slides"
        log.settle(page)
        assert log.problems() == []
    finally:
        page.close()


@pytest.mark.parametrize("language", list(EDITIONS))
def test_every_chapter_page_links_its_deck(language):
    site = SITE / EDITIONS[language].rstrip("/")
    for stem in CHAPTERS:
        page = site / "chapters" / f"{stem}.html"
        _need(page)
        link = re.search(r'<a href="([^"]+)" class="btn btn-sm btn-slides"', page.read_text())
        assert link and link[1] == f"../slides/{stem}.html", page
        assert (site / "slides" / f"{stem}.html").exists()


def _deck(notebook: Path, out: Path, language: str = "en") -> list[str]:
    html = slides.build_deck(notebook, out, language=language, cache=CACHE, root=ROOT)
    return SECTION.split(html.read_text(encoding="utf-8"))[1:]


def test_changing_a_marked_cell_changes_its_slide(tmp_path):
    notebook = ROOT / "chapters" / f"{CHAPTERS[0]}.ipynb"
    _need(CACHE)
    content = json.loads(notebook.read_text(encoding="utf-8"))
    # The chapter's first marked cell: its learning objectives.
    cell = next(c for c in content["cells"] if "slide" in c["metadata"].get("tags", []))
    source = "".join(cell["source"])
    assert "1. " in source
    cell["source"] = source.replace("1. ", "1. Zebra-striped objective: ", 1)
    copy = tmp_path / "chapters" / notebook.name
    copy.parent.mkdir()
    copy.write_text(json.dumps(content), encoding="utf-8")
    before = _deck(notebook, tmp_path / "before")
    after = _deck(copy, tmp_path / "after")
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    assert len(before) == len(after) and len(changed) == 1, changed
    assert "Zebra-striped objective" in after[changed[0]]
    assert "Zebra-striped objective" not in before[changed[0]]
    # The Chinese deck of the same copy: the untranslated sentence shows in English,
    # the rest comes from the catalog.
    chinese = _deck(copy, tmp_path / "zh", "zh_CN")
    assert len(chinese) == len(after) and "Zebra-striped objective" in chinese[changed[0]]
    assert "学习目标" in "".join(chinese)
    # A changed code cell has no outputs in the cache: the deck is refused, not stale.
    code = next(c for c in content["cells"] if c["cell_type"] == "code"
                and "remove-cell" not in c["metadata"].get("tags", []))
    code["source"] = "".join(code["source"]) + "\nx_unseen = 1"
    copy.write_text(json.dumps(content), encoding="utf-8")
    with pytest.raises(RuntimeError, match="not in the execution cache"):
        _deck(copy, tmp_path / "stale")


def test_each_deck_has_the_conventions_slides():
    _need(SITE / DECKS[0])
    for path in DECKS:
        html = (SITE / path).read_text(encoding="utf-8")
        checks = html.count('<section class="self-check">')
        assert 2 <= checks <= 4, f"{path}: {checks} self-check slides"
        assert html.count('<section class="code">') == 1, path
        assert html.count('<section class="figure">') >= 2, path
        assert 'class="fragment answer"' in html and '<aside class="notes">' in html, path
