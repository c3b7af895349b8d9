"""The printed book: ``_build/pdf/book.pdf`` and ``book-student.pdf``, checked with poppler-utils.

``python scripts/tasks.py test`` builds both PDFs after the website
(``tasks.build_pdf``); these tests only read them, the LaTeX logs and the
built site, so they take a few seconds. Where TeX Live is missing and cannot
be installed (not root), they are skipped with the reason, except under
``CI=true``, where that is a failure.

Checked: each PDF opens; every chapter's title is in its text, in the
table of contents' order; no ``??`` (an unresolved reference); no "Missing
character" in the LaTeX log (a glyph a font lacks prints as nothing); every
figure of the website's pages is an image of the PDF (counted); every font is
embedded; the student edition holds no solution (no "Solution to Exercise",
no line of a solution cell), while ``book.pdf`` holds them all; self-checks
and explorables have their printed forms. Four pages are rendered to
``_build/pdf-pages/`` to look at.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
PDF = ROOT / "_build" / "pdf"
LATEX = ROOT / "_build" / "latex"
SITE = ROOT / "_build" / "html"
PAGES = ROOT / "_build" / "pdf-pages"
EDITIONS = ("book", "book-student")
IN_CI = os.environ.get("CI", "").lower() == "true"
# Pages of the website that are not in the printed book (web-only).
WEB_ONLY = {"chapters/api"}

sys.path.insert(0, str(ROOT / "scripts"))
import tasks  # noqa: E402  (TEX_PACKAGES, missing_tex_packages: the PDF's requirements)


def _missing_reason() -> str | None:
    missing = tasks.missing_tex_packages()
    if missing:
        return (f"TeX Live is not installed ({', '.join(missing)}); as root: {tasks.TEX_INSTALL}, "
                "then python scripts/tasks.py pdf")
    absent = [name for name in EDITIONS if not (PDF / f"{name}.pdf").exists()]
    if absent:
        return (f"no {', '.join(absent)}.pdf in {PDF}: run `python scripts/tasks.py pdf` "
                "(the test command builds them)")
    return None


@pytest.fixture(scope="module", autouse=True)
def _pdfs_built():
    reason = _missing_reason()
    if reason and IN_CI:
        pytest.fail(reason)
    if reason:
        pytest.skip(reason)


def _run(*command: str) -> str:
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


_TEXT: dict[str, str] = {}


def pdf_text(name: str) -> str:
    """The PDF's text, pages separated by form feeds (``pdftotext -layout`` off: reading order)."""
    if name not in _TEXT:
        _TEXT[name] = _run("pdftotext", str(PDF / f"{name}.pdf"), "-")
    return _TEXT[name]


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def toc_pages() -> list[str]:
    """The book's pages in _toc.yml's order (root first), web-only ones left out."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    pages = [toc["root"]]
    for part in toc.get("parts", []):
        pages += [entry["file"] for entry in part["chapters"]]
    return [page for page in pages if page not in WEB_ONLY]


def page_title(page: str) -> str:
    """A page's title as the website shows it (its <h1>, tags and the pilcrow dropped)."""
    html = (SITE / f"{page}.html").read_text(encoding="utf-8")
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S).group(1)
    text = re.sub(r"<[^>]+>", "", heading).replace("#", "").replace("¶", "")
    return _squeeze(text).strip()


@pytest.mark.parametrize("name", EDITIONS)
def test_pdf_opens_and_has_every_chapter_title_in_order(name):
    info = _run("pdfinfo", str(PDF / f"{name}.pdf"))
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    print(f"{name}.pdf: {pages} pages")
    assert pages > 100
    text = _squeeze(pdf_text(name))
    titles = [page_title(page) for page in toc_pages()]
    # Past the table of contents (which lists every title): after the last
    # title's first occurrence, each title must come after the one before.
    position = text.index(titles[-1]) + len(titles[-1])
    for title in titles[1:]:  # the preface (root) opens the book, before the contents
        found = text.find(title, position)
        assert found >= 0, f"{name}.pdf: the chapter title {title!r} is missing or out of order"
        position = found + len(title)


@pytest.mark.parametrize("name", EDITIONS)
def test_no_unresolved_reference_and_no_missing_character(name):
    text = pdf_text(name)
    assert "??" not in text, (f"{name}.pdf has an unresolved reference: "
                              f"...{text[max(0, text.index('??') - 80):text.index('??') + 20]}...")
    log = (LATEX / f"{name}.log").read_text(encoding="utf-8", errors="replace")
    missing = sorted(set(re.findall(r"Missing character: There is no .*", log)))
    assert not missing, f"{name}: glyphs no font has:\n" + "\n".join(missing)
    assert "There were undefined references" not in log


def site_figure_count() -> int:
    """Images in the website's pages that the book prints (one per explorable: its frame)."""
    count = 0
    for page in toc_pages():
        html = (SITE / f"{page}.html").read_text(encoding="utf-8")
        article = html[html.index("<main"):]
        count += len(re.findall(r"<img\b", article))
    return count


def pdf_image_count(name: str) -> int:
    """Images drawn in the PDF (pdfimages lists each once per page; masks left out),
    plus the vector figures (SVG outputs turned into PDF, and PDF figures such as
    the instructor's guide's chapter map), which are drawings, not images."""
    rows = _run("pdfimages", "-list", str(PDF / f"{name}.pdf")).splitlines()[2:]
    images = sum(1 for row in rows if row.split()[2] == "image")
    tex = (LATEX / f"{name}.tex").read_text(encoding="utf-8")
    drawings = len(re.findall(r"\\sphinxincludegraphics(?:\[[^]]*\])?\{\{[^{}]+\}\.pdf\}", tex))
    return images + drawings


def test_every_figure_of_the_website_is_in_the_pdf():
    site, printed = site_figure_count(), pdf_image_count("book")
    print(f"figures: website {site}, book.pdf {printed}")
    assert site > 50 and printed == site


@pytest.mark.parametrize("name", EDITIONS)
def test_every_font_is_embedded(name):
    rows = _run("pdffonts", str(PDF / f"{name}.pdf")).splitlines()[2:]
    assert rows, f"{name}.pdf lists no fonts"
    # Columns: name type encoding emb sub uni object-ID; name may hold no spaces.
    not_embedded = [row for row in rows if row.split()[-5] != "yes"]
    assert not not_embedded, f"{name}.pdf has fonts that are not embedded:\n" + "\n".join(not_embedded)


def solution_lines() -> dict[str, list[str]]:
    """Per chapter, code lines of its solution cells that no other cell has (20-60 characters)."""
    result = {}
    for notebook in sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        solution, other = set(), set()
        for cell in cells:
            lines = {line.strip() for line in "".join(cell["source"]).splitlines()}
            is_solution = "solution" in cell.get("metadata", {}).get("tags", [])
            (solution if is_solution and cell["cell_type"] == "code" else other).update(lines)
        # Compared squeezed and as substrings (as the PDF's text is searched), so a
        # line that is part of another cell's line ("score = cross_val_score(" in
        # "cv_score = cross_val_score(") is not the solution's own.
        others = _squeeze("\n".join(other))
        distinctive = sorted(line for line in solution - other if 20 <= len(line) <= 60
                             and "SOLUTION" not in line and not line.startswith("#")
                             and _squeeze(line) not in others)
        if distinctive:
            result[notebook.stem] = distinctive
    return result


def test_student_edition_has_no_solution_and_the_book_has_them_all():
    book, student = _squeeze(pdf_text("book")), _squeeze(pdf_text("book-student"))
    assert book.count("Solution to Exercise") >= 12
    assert "Solution to Exercise" not in student
    lines = solution_lines()
    assert len(lines) >= 10, "the chapters' solution cells were not found"
    for chapter, chapter_lines in lines.items():
        printed = [line for line in chapter_lines if _squeeze(line) in book]
        assert printed, f"book.pdf holds none of {chapter}'s solution lines, e.g. {chapter_lines[0]!r}"
        leaked = [line for line in chapter_lines if _squeeze(line) in student]
        assert not leaked, f"book-student.pdf holds {chapter}'s solution line(s): {leaked[:3]}"


def test_printed_forms_of_self_checks_and_explorables():
    text = _squeeze(pdf_text("book"))
    assert text.count("Answers to the self-checks") >= 12
    assert re.search(r"Self-check 3\.1\. .{10,}?\(a\)", text)
    assert re.search(r"Self-check 3\.1: answers? \([a-e]\)", text)
    explorables = re.findall(r"Interactive figure\. .*? The controls move it on the course "
                             r"website \(page chapters/(\d\d)_\w+\.html\)", text)
    assert len(set(explorables)) == 12, f"explorables printed in chapters {sorted(set(explorables))}"


def test_render_pages_to_look_at():
    """Four pages as PNG in _build/pdf-pages/ to look at: the title, exercises with
    their solutions, an explorable's printed form, the glossary's Chinese terms."""
    PAGES.mkdir(parents=True, exist_ok=True)
    pages = pdf_text("book").split("\f")

    def first(text, after=20):
        return next(i for i, page in enumerate(pages, 1) if text in page and i > after)

    wanted = {"title": 1, "exercises": first("Solution to Exercise 1.1"),
              "explorable": first("Interactive figure."), "glossary": first("交叉验证")}
    for label, number in wanted.items():
        _run("pdftoppm", "-png", "-r", "60", "-f", str(number), "-l", str(number),
             "-singlefile", str(PDF / "book.pdf"), str(PAGES / f"book-{label}"))
        assert (PAGES / f"book-{label}.png").stat().st_size > 5_000
