"""The built website, loaded page by page in a real browser (headless Chromium).

Runs in the README's test command after its build (``_build/html``; set
``SITE_SOURCE`` to another book folder, e.g. a preview under
``_build/preview/``, to test its build instead). It finds every page of
the built site by itself, serves the site on 127.0.0.1 and, for each page,
in one cold load that also serves tests/test_site_phone.py (``visit_page``;
one server and one browser per worker, tests/conftest.py), checks what a
reader behind a blocked CDN would see:

* no console error, no page error, no failed request, no HTTP error, and no
  request to any host but 127.0.0.1 (the site serves everything itself);
* MathJax finished, typeset every formula, and produced no error node
  (undefined macros are errors: ``_config.yml`` removes ``noundefined``);
* every ipywidgets view rendered from the page's saved widget state;
* every kernel-free interactive figure responds: each control of an
  explorable figure (``InteractiveFigure.explore``) changes the value shown
  beside it and the picture; moving a slider changes the picture of
  ``to_jshtml`` animations and of image widgets next to a slider;
* the animation buttons show their icons, self-check options show feedback
  when clicked, output images sit on white in dark mode;
* the page weighs less than 3 MB (its HTML plus the images and data it loads
  that are not the site's shared ``_static/`` files or search index);
* every page's weight is written to ``_build/site-report.json``; with
  ``SITE_SCREENSHOTS=1``, a screenshot of the page and of each of its
  interactive figures is saved in ``_build/site-screenshots/`` (they are
  for a person to look at, not checks, and cost ~3 CPU-s a chapter).

It also searches the site for the glossary's Chinese terms (offline search
must find the glossary) and checks that launch buttons follow
``repository.url``. The browser is Debian's ``chromium`` (``CHROMIUM``
overrides the path), driven by Playwright's Python package; when it is
missing the browser tests are skipped with the reason, except under
``CI=true``, where that is a failure (``scripts/tasks.py test`` installs it).
"""

from __future__ import annotations

import http.server
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest
import yaml

from site_weight import MATHJAX_DONE, WeightRecorder, write_report

ROOT = Path(__file__).resolve().parent.parent
# The book whose built site is tested: this repository, or another book folder
# (e.g. a preview) given by SITE_SOURCE; SITE_HTML overrides the built site.
SOURCE = Path(os.environ.get("SITE_SOURCE", ROOT)).resolve()
SITE = Path(os.environ.get("SITE_HTML", SOURCE / "_build" / "html")).resolve()
SHOTS = SITE.parent / "site-screenshots"
# Screenshots are for a person reviewing the site, not checks: rendering them
# cost 2.5-4 CPU-s per chapter (desktop and phone), ~90 CPU-s of the test
# command, so they are taken only when asked for.
SCREENSHOTS = os.environ.get("SITE_SCREENSHOTS") == "1"
REPORT = SITE.parent / "site-report.json"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() == "true"
MAX_PAGE_BYTES = 3_000_000
HOST = "127.0.0.1"
# Chromium's own background traffic stays off: with it, this machine's closed
# network refuses connections and a fresh profile phones home.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
# Folders of the build that hold no pages of their own (slides/: the chapters'
# reveal.js decks, not site pages; tests/test_slides.py checks them).
NOT_PAGES = {"_static", "_sources", "_images", "_downloads", "jupyter_execute", ".doctrees",
             "slides"}
# Console messages proven harmless, each with the reason. Keep this short.
ALLOWED_CONSOLE_ERRORS: list[tuple[re.Pattern, str]] = []

sys.path.insert(0, str(ROOT / "_ext"))
from site_assets import cjk_terms  # noqa: E402  (the search tweak, tested below)

sys.path.insert(0, str(ROOT / "scripts"))
import sync_notebooks  # noqa: E402


def site_pages() -> list[str]:
    """Every HTML page of the built site, as paths relative to its root.

    Returns
    -------
    list of str
        Sorted ``posix`` paths, the Chinese edition's (``zh_CN/...``, a site
        of its own inside the English one) included; each edition's root
        ``index.html`` (a redirect to the preface) and asset folders are left out.
    """
    if not (SITE / "index.html").exists():
        return []
    pages = []
    for path in SITE.rglob("*.html"):
        relative = path.relative_to(SITE)
        parts = relative.parts[1:] if relative.parts[0] == "zh_CN" else relative.parts
        if parts[0] in NOT_PAGES or parts == ("index.html",):
            continue
        pages.append(relative.as_posix())
    return sorted(pages)


PAGES = site_pages()


def _missing_site_reason() -> str | None:
    if PAGES:
        return None
    return (f"no built site in {SITE}: run `python scripts/tasks.py book` first "
            "(the test command builds it before running the tests)")


# -- unit tests of the pieces (no browser) ----------------------------------------

def test_cjk_index_terms_hold_the_pairs_a_query_splits_into():
    assert cjk_terms("bootstrap") == ["bootstrap"]
    assert cjk_terms("自助法") == ["自助法", "自助", "助法"]
    assert cjk_terms("VC维") == ["VC维", "VC", "维"]
    # Any two-character query inside a longer run is an index term.
    run = "自助法估计"
    assert {run[i:i + 2] for i in range(len(run) - 1)} <= set(cjk_terms(run))


def test_setup_cell_installs_mlcore_from_the_repository_url():
    with_url = sync_notebooks.setup_cell_source(
        {"repository": {"url": "https://github.com/example-org/course", "branch": "main"}})
    assert '"mlcore @ git+https://github.com/example-org/course@main"' in with_url
    without = sync_notebooks.setup_cell_source({"repository": {"url": ""}})
    assert "git+" not in without and "ImportError" in without


def test_vendored_files_match_their_manifest():
    sys.path.insert(0, str(ROOT / "scripts"))
    import vendor_assets

    assert vendor_assets.check() == [], "run python scripts/vendor_assets.py"


def test_launch_buttons_follow_the_repository_url():
    reason = _missing_site_reason()
    if reason:
        pytest.skip(reason)
    config = yaml.safe_load((SOURCE / "_config.yml").read_text(encoding="utf-8"))
    url = (config.get("repository") or {}).get("url") or ""
    notebooks = [p for p in PAGES
                 if (SOURCE / p).with_suffix(".ipynb").exists()]
    assert notebooks or not list((SOURCE / "chapters").glob("*.ipynb")), "no notebook page found"
    for page in PAGES:
        html = (SITE / page).read_text(encoding="utf-8")
        has_repository_link = "btn-source-repository-button" in html
        if url:
            assert has_repository_link and f'href="{url}"' in html, f"{page}: no repository link"
        elif not url:
            assert not has_repository_link, f"{page}: a repository link without repository.url"
    for page in notebooks:
        html = (SITE / page).read_text(encoding="utf-8")
        has_binder = "mybinder.org/v2/" in html
        has_colab = "colab.research.google.com/github/" in html
        if url:
            assert has_binder and has_colab, f"{page}: no Binder/Colab button though url={url}"
        else:
            assert not (has_binder or has_colab), (
                f"{page}: a launch button without repository.url; it would point nowhere")
        assert f"{Path(page).stem}.ipynb" in html, f"{page}: no notebook download button"


def _code_cells(notebook: Path) -> list[tuple[str, list[str]]]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return [("".join(c["source"]), c.get("metadata", {}).get("tags", []))
            for c in cells if c["cell_type"] == "code"]


def test_every_live_figure_has_a_kernel_free_counterpart():
    """A live panel needs a kernel: each one must come with a figure that responds without one.

    Counts, per chapter notebook, the ``.live()`` panels and ``interact``
    calls, and the kernel-free figures on its built page: explorable figures
    (``InteractiveFigure.explore``), ``to_jshtml`` animations
    (``InteractiveFigure.scrub``) and ``jslink``-ed widget figures.
    """
    reason = _missing_site_reason()
    if reason:
        pytest.skip(reason)
    problems = []
    for page in PAGES:
        notebook = (SOURCE / page).with_suffix(".ipynb")
        if not notebook.exists():
            continue
        cells = _code_cells(notebook)
        live = sum(".live()" in src for src, _tags in cells)
        only_python = [src.splitlines()[0] for src, tags in cells
                       if re.search(r"\binteract(_manual)?\b", src) and "remove-output" not in tags]
        html = (SITE / page).read_text(encoding="utf-8")
        kernel_free = (html.count('<div class="mlcore-explore"') + html.count('<div class="animation">')
                       + sum("jslink(" in s for s, _ in cells))
        if live > kernel_free:
            problems.append(f"{page}: {live} live panel(s) but {kernel_free} kernel-free "
                            "figure(s); add figure.explore(...) in a remove-input cell")
        if only_python:
            problems.append(f"{page}: interact() output changes only through Python and does "
                            f"nothing on the site; use InteractiveFigure: {only_python}")
    assert not problems, "\n".join(problems)


def test_every_static_figure_reaches_the_page():
    """Each shown cell that calls ``plt.show()`` leaves an image on the built page.

    A kernel started with ``MPLBACKEND=Agg`` shows nothing on ``plt.show()``,
    and the build stays green while every static figure disappears from the
    site; this counts them.
    """
    reason = _missing_site_reason()
    if reason:
        pytest.skip(reason)
    problems = []
    for page in PAGES:
        notebook = (SOURCE / page).with_suffix(".ipynb")
        if not notebook.exists():
            continue
        shown = sum("plt.show()" in src for src, tags in _code_cells(notebook)
                    if not {"remove-output", "remove-cell"} & set(tags))
        images = (SITE / page).read_text(encoding="utf-8").count('src="../_images/')
        if images < shown:
            problems.append(f"{page}: {shown} cell(s) call plt.show() but the page has "
                            f"{images} output image(s)")
    assert not problems, "\n".join(problems)


def test_api_reference_lists_every_public_module():
    """The built API page documents every public module of mlcore.

    The book's build runs with -W, so a docstring that renders badly (a
    typical culprit is ``|x - y|`` in plain text, which reStructuredText reads
    as a substitution) already fails it, naming the docstring; this checks
    what -W cannot: that no public module is missing from the page.
    """
    reason = _missing_site_reason()
    if reason:
        pytest.skip(reason)
    html = (SITE / "chapters" / "api.html").read_text(encoding="utf-8")
    from mlcore_api import public_modules

    modules = public_modules("mlcore")
    missing = [m for m in modules if f'id="module-{m}"' not in html]
    assert not missing, f"the API reference lacks {missing}"
    assert html.count('class="sig sig-object py"') >= len(modules)


# -- the browser ----------------------------------------------------------------

class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


@pytest.fixture(scope="session")
def weights():
    collected: dict[str, int] = {}
    yield collected
    if collected:
        write_report(REPORT, {"max_page_bytes": MAX_PAGE_BYTES}, collected)


class PageLog:
    """Everything a page did that the tests judge: console, errors, requests, bytes."""

    def __init__(self, page, origin: str):
        self.origin = origin
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.failed: list[str] = []
        self.aborted: list[str] = []   # prefetches the page itself cancelled: not failures
        self.http_errors: list[str] = []
        self.foreign: list[str] = []
        self.page_bytes: dict[str, int] = {}
        self.counting = True   # whether a response counts in page_bytes
        self.pending = 0
        page.on("request", lambda request: self._count(+1))
        page.on("requestfinished", lambda request: self._count(-1))
        page.on("requestfailed", lambda request: self._count(-1))
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.on("requestfailed", self._on_failed)
        page.on("response", self._on_response)
        page.route("**/*", self._route)

    def _count(self, step: int) -> None:
        self.pending += step

    def _on_failed(self, request) -> None:
        """A failed request, unless it is an aborted prefetch of one of the site's pages.

        The search page fetches every result page to show a summary under it;
        moving on (the next query) cancels the fetches still running, which
        Chromium reports as ``net::ERR_ABORTED``. Such a request is no failure
        of the site when it is a script's ``fetch``/XHR of the same origin for
        a page that exists in the built site; anything else (another error, a
        document, an image, a missing page) is counted.
        """
        if (request.failure == "net::ERR_ABORTED" and request.resource_type in ("fetch", "xhr")
                and _is_site_page(request.url, self.origin)):
            self.aborted.append(request.url)
        else:
            self.failed.append(f"{request.url} ({request.failure})")

    def settle(self, page, timeout_ms: int = 60_000) -> None:
        """Wait until the page's requests have all finished (late loads are judged too).

        Playwright's "networkidle" counts every connection in the browser and
        times out on a busy machine; this counts only the page's requests.
        """
        waited = 0
        quiet = 0
        while waited < timeout_ms and quiet < 300:
            page.wait_for_timeout(100)
            waited += 100
            quiet = quiet + 100 if self.pending <= 0 else 0
        if self.pending > 0:
            self.failed.append(f"{self.pending} request(s) still pending after {timeout_ms} ms")

    def _on_console(self, message) -> None:
        if message.type != "error":
            return
        text = message.text
        if any(pattern.search(text) for pattern, _why in ALLOWED_CONSOLE_ERRORS):
            return
        location = message.location or {}
        self.console_errors.append(f"{text} [{location.get('url', '')}:"
                                   f"{location.get('lineNumber', '')}]")

    def _route(self, route) -> None:
        url = route.request.url
        parts = urlsplit(url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname != HOST:
            self.foreign.append(url)
            route.abort("blockedbyclient")  # record it, and fail fast instead of hanging
        else:
            route.continue_()

    def _on_response(self, response) -> None:
        url = response.url
        if response.status >= 400:
            self.http_errors.append(f"{response.status} {url}")
            return
        path = urlsplit(url).path
        if not url.startswith(self.origin) or not self.counting:
            return
        # The page's own bytes: its HTML and the images and data it loads;
        # not the shared theme/vendored scripts in _static/ or the search index.
        if "/_static/" in path or path.endswith("/searchindex.js"):
            return
        try:
            self.page_bytes[path] = len(response.body())
        except Exception:  # a redirect or an aborted load has no body
            pass

    def problems(self) -> list[str]:
        found = []
        for label, items in (("console error", self.console_errors),
                             ("page error", self.page_errors),
                             ("failed request", self.failed),
                             ("HTTP error", self.http_errors),
                             ("request to another host", self.foreign)):
            found += [f"{label}: {item}" for item in items]
        return found


def _is_site_page(url: str, origin: str) -> bool:
    """True when ``url`` is on ``origin`` and names an HTML page of the built site."""
    if not url.startswith(origin):
        return False
    relative = unquote(urlsplit(url).path).lstrip("/")
    target = SITE / relative
    if relative == "" or relative.endswith("/"):
        target = target / "index.html"
    try:
        return target.suffix == ".html" and target.resolve().is_relative_to(SITE) and target.is_file()
    except OSError:
        return False


class _FakeRequest:
    def __init__(self, url, failure, resource_type="fetch"):
        self.url, self.failure, self.resource_type = url, failure, resource_type


class _FakePage:
    def __init__(self):
        self.handlers = {}

    def on(self, event, handler):
        self.handlers.setdefault(event, []).append(handler)

    def route(self, pattern, handler):
        pass

    def fail(self, request):
        for handler in self.handlers["requestfailed"]:
            handler(request)


def test_an_aborted_prefetch_of_a_site_page_is_not_a_failed_request(tmp_path, monkeypatch):
    """The criterion the browser tests use, without a browser (LOAD-2: the search page's
    cancelled summary fetches were counted as failed requests on a busy machine)."""
    monkeypatch.setitem(globals(), "SITE", tmp_path)
    (tmp_path / "chapters").mkdir()
    (tmp_path / "chapters" / "01_x.html").write_text("<p>x</p>", encoding="utf-8")
    (tmp_path / "index.html").write_text("<p>i</p>", encoding="utf-8")
    origin = "http://127.0.0.1:8000/"
    page = _FakePage()
    log = PageLog(page, origin)
    benign = [_FakeRequest(origin + "chapters/01_x.html", "net::ERR_ABORTED"),
              _FakeRequest(origin, "net::ERR_ABORTED", "xhr")]
    real = [_FakeRequest(origin + "chapters/02_missing.html", "net::ERR_ABORTED"),
            _FakeRequest(origin + "chapters/01_x.html", "net::ERR_CONNECTION_RESET"),
            _FakeRequest(origin + "chapters/01_x.html", "net::ERR_ABORTED", "document"),
            _FakeRequest(origin + "_static/x.js", "net::ERR_ABORTED", "script"),
            _FakeRequest(origin + "../etc/passwd.html", "net::ERR_ABORTED"),
            _FakeRequest("http://example.org/chapters/01_x.html", "net::ERR_ABORTED")]
    for request in benign + real:
        page.fail(request)
    assert log.aborted == [r.url for r in benign]
    assert [f.split(" (")[0] for f in log.failed] == [r.url for r in real]
    assert len([p for p in log.problems() if p.startswith("failed request")]) == len(real)


# MathJax is loaded (deferred) only on pages with math; wait for its typesetting.
_MATHJAX_DONE = """async () => {
  const mj = window.MathJax;
  if (!mj || !mj.startup || !mj.startup.promise) return {loaded: false};
  await mj.startup.promise;
  if (mj.typesetPromise) await mj.typesetPromise();
  const math = Array.from(document.querySelectorAll("span.math, div.math"));
  return {
    loaded: true,
    errors: Array.from(document.querySelectorAll("mjx-merror"))
      .map((e) => e.getAttribute("data-mjx-error") || e.textContent).slice(0, 10),
    untypeset: math.filter((e) => !e.querySelector("mjx-container"))
      .map((e) => e.textContent.slice(0, 80)).slice(0, 10),
    count: math.length,
  };
}"""

_WIDGETS_RENDERED = """() => {
  const views = document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]');
  return Array.from(views).every((view) => {
    const area = view.previousElementSibling;
    return area && area.classList.contains("widget-subarea") && area.querySelector(".lm-Widget");
  });
}"""


def _check_mathjax(page) -> list[str]:
    result = page.evaluate(_MATHJAX_DONE)
    has_math = page.locator("span.math, div.math").count() > 0
    if not result["loaded"]:
        return ["the page has math but MathJax did not load"] if has_math else []
    problems = [f"MathJax error: {e}" for e in result["errors"]]
    problems += [f"formula not typeset: {t}" for t in result["untypeset"]]
    return problems


def _check_widgets(page) -> list[str]:
    views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
    if not views:
        return []
    try:
        page.wait_for_function(_WIDGETS_RENDERED, timeout=60_000)   # generous: a loaded machine
    except Exception:
        return [f"not every one of the {views} widget view(s) rendered within 60 s"]
    return []


def _check_animations(page) -> list[str]:
    """Each to_jshtml animation: icons drawn, and moving the slider changes the frame."""
    problems = []
    animations = page.locator(".cell_output .animation")
    for i in range(animations.count()):
        animation = animations.nth(i)
        animation.scroll_into_view_if_needed()
        # Pause it (the default mode may play it once), then go to the first frame.
        pause = animation.locator("button[onclick*='pause_animation']")
        if pause.count():
            pause.first.click()
        slider = animation.locator("input[type=range]")
        image = animation.locator("img")
        if not (slider.count() and image.count()):
            problems.append(f"animation {i}: no slider or no frame image")
            continue
        slider.first.focus()
        page.keyboard.press("Home")
        before = image.first.get_attribute("src")
        page.keyboard.press("End")
        after = image.first.get_attribute("src")
        if not before or before == after:
            problems.append(f"animation {i}: moving its slider does not change the picture")
        # Font Awesome (the theme's) turns each <i class="fa fa-play"> into an SVG.
        blank = animation.evaluate("""(el) => Array.from(el.querySelectorAll("button"))
            .filter((b) => { const icon = b.querySelector("svg, i");
                             return !icon || icon.getBoundingClientRect().width < 4; })
            .map((b) => b.getAttribute("title") || b.outerHTML.slice(0, 60))""")
        if blank:
            problems.append(f"animation {i}: buttons without a visible icon: {blank}")
    return problems


def _check_explorers(page) -> list[str]:
    """Each explorable figure (``InteractiveFigure.explore``): every control moves the picture.

    For each control in turn, from the page's starting state: a range goes to
    its first and its last value (keyboard Home/End), a select to its first
    and last option, a checkbox is toggled; the value shown beside it and the
    image must change (the labels must differ, so must the frames).
    """
    problems = []
    figures = page.locator(".cell_output .mlcore-explore")
    for i in range(figures.count()):
        figure = figures.nth(i)
        figure.scroll_into_view_if_needed()
        image = figure.locator("img.mlx-image")
        controls = figure.locator("[data-mlx]")
        if not (image.count() and controls.count()):
            problems.append(f"explorable figure {i}: no image or no control")
            continue
        for j in range(controls.count()):
            control = controls.nth(j)
            kind = control.evaluate("(el) => el.type")
            label = figure.locator(f"label[for='{control.get_attribute('id')}']").text_content()
            shown = figure.locator(f"output[for='{control.get_attribute('id')}']")
            if kind == "range":
                control.focus()
                page.keyboard.press("Home")
                before = (shown.text_content(), image.get_attribute("src"))
                page.keyboard.press("End")
            elif kind == "checkbox":
                before = (shown.text_content(), image.get_attribute("src"))
                control.press("Space")
            else:
                count = control.locator("option").count()
                control.select_option(index=0)
                before = (shown.text_content(), image.get_attribute("src"))
                control.select_option(index=count - 1)
            after = (shown.text_content(), image.get_attribute("src"))
            if before[0] == after[0]:
                problems.append(f"explorable figure {i}, control {label!r}: the value shown "
                                f"does not change ({before[0]!r})")
            if before[1] == after[1]:
                problems.append(f"explorable figure {i}, control {label!r}: the picture does not "
                                f"change ({before[0]!r} -> {after[0]!r})")
    return problems


def _check_widget_figures(page) -> list[str]:
    """Widget outputs holding a slider and an image (e.g. a jslink-ed Stack) respond to it."""
    problems = []
    areas = page.locator(".widget-subarea")
    for i in range(areas.count()):
        area = areas.nth(i)
        handle = area.locator(".noUi-handle, input[type=range]")
        if not (handle.count() and area.locator("img").count()):
            continue
        area.scroll_into_view_if_needed()
        handle.first.focus()
        page.keyboard.press("Home")
        page.wait_for_timeout(150)
        before = area.screenshot()
        page.keyboard.press("End")
        # wait for the repaint by polling (up to 10 s), not for a fixed time a busy machine can miss
        for _ in range(50):
            page.wait_for_timeout(200)
            if area.screenshot() != before:
                break
        else:
            problems.append(f"widget figure {i}: moving its slider does not change the picture")
    return problems


def _check_self_checks(page) -> list[str]:
    """Feedback is hidden until an option is clicked; clicking shows that option's feedback.

    The first question gets a real mouse click (the option is reachable and on
    top); every question's first option is then clicked through the DOM in
    one round trip to the page: the same handler runs, and a chapter's dozen
    questions no longer cost a dozen actionability waits (seconds a page).
    """
    problems = []
    shown_early = page.eval_on_selector_all(
        ".self-check-feedback", "(fs) => fs.filter((f) => f.offsetParent !== null).length")
    if shown_early:
        problems.append(f"{shown_early} self-check feedback(s) visible before any click")
    first = page.locator(".self-check .self-check-option")
    if not first.count():
        return problems
    first.first.click()
    feedback = first.first.locator(".self-check-feedback")
    if not feedback.count() or not feedback.first.is_visible():
        problems.append("self-check 0: a real click on an option shows no feedback")
    silent = page.eval_on_selector_all(".self-check", """(questions) => questions
        .map((question, i) => {
            const option = question.querySelector(".self-check-option");
            if (option) option.click();
            const feedback = option && option.querySelector(".self-check-feedback");
            return feedback && feedback.offsetParent !== null ? -1 : i;
        })
        .filter((i) => i >= 0)""")
    problems += [f"self-check {i}: clicking an option shows no feedback" for i in silent]
    return problems


def _check_dark_mode_images(page) -> list[str]:
    """In the theme's dark mode (followed from the reader's system setting), images sit on white."""
    if not page.locator(".cell_output img").count():
        return []
    page.emulate_media(color_scheme="dark")
    try:
        page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'",
                               timeout=30_000)
        backgrounds = page.eval_on_selector_all(
            ".cell_output img", "(imgs) => imgs.map((i) => getComputedStyle(i).backgroundColor)")
    except Exception:
        return ["the page did not switch to dark mode with the reader's system setting"]
    finally:
        page.emulate_media(color_scheme="light")
    dark = [b for b in backgrounds if b != "rgb(255, 255, 255)"]
    return [f"{len(dark)} output image(s) not on white in dark mode: {dark[:3]}"] if dark else []


def _screenshots(page, path: str) -> None:
    """The page's first screen, and each interactive figure as the test left it.

    Only with SITE_SCREENSHOTS=1. A full-page screenshot of a long chapter
    takes seconds of rendering; set SITE_FULL_SCREENSHOTS=1 too to have them.
    """
    if not SCREENSHOTS:
        return
    stem = path.removesuffix(".html").replace("/", "__")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    full = os.environ.get("SITE_FULL_SCREENSHOTS") == "1"
    page.screenshot(path=str(SHOTS / f"{stem}.png"), full_page=full)
    figures = page.locator(".cell_output .animation, .cell_output .mlcore-explore")
    for i in range(figures.count()):
        figures.nth(i).screenshot(path=str(SHOTS / f"{stem}__figure{i}.png"))


@dataclass
class Visit:
    """What one cold load of a page showed, for the tests of both files."""

    offline: list          # problems for test_page_works_offline
    own_bytes: int         # the page's own bytes over the whole visit (site-report.json)
    weight: object         # site_weight.Weight of the initial load
    phone: list            # problems for test_site_phone's layout test
    # test_mathjax_accessibility_components_load_from_the_site, on the first chapter:
    # what the accessibility components' load returned, and the page's problems after it
    mathjax_a11y: tuple | None = None


def visit_page(browser, server, path: str) -> Visit:
    """Load ``path`` once, cold, and gather every fact the page tests judge.

    In order: the initial load's weight (no cache, until quiet), the checks
    of a working offline page at desktop size (they move the figures and
    click the options), then the phone layout (tests/test_site_phone.py;
    each explorable shows the narrow version of the frame it was left at).
    Routing every request (PageLog) disables the browser's cache, so the
    load is cold, as both tests required of their own load before. (Going
    from the phone's width back to the desktop's, axe found a display
    formula of chapter 4 scrollable and not focusable: the phone comes last.)
    On the first chapter, the MathJax menu's accessibility components are
    then loaded into the same page (``_load_mathjax_a11y``).
    """
    from test_site_phone import phone_layout

    page = browser.new_page()
    try:
        log = PageLog(page, server)
        recorder = WeightRecorder(page)
        page.goto(server + path, wait_until="load")
        page.evaluate(MATHJAX_DONE)
        recorder.settle(page)
        weight = recorder.weight
        recorder.detach()
        problems = _check_mathjax(page)
        # The Chinese edition's pages carry the English pages' outputs (the same
        # cached notebooks): their static widgets, animations, live-widget
        # images and dark-mode image backgrounds are checked once, on the
        # English page; what the translation touches is checked on both.
        translated = path.startswith("zh_CN/")
        if not translated:
            problems += _check_widgets(page)
            problems += _check_animations(page)
        problems += _check_explorers(page)
        if not translated:
            problems += _check_widget_figures(page)
        problems += _check_self_checks(page)
        problems += _check_accessibility(page, contrast=not translated)
        if not translated:
            problems += _check_dark_mode_images(page)
        log.settle(page)
        _screenshots(page, path)
        problems += log.problems()
        own = sum(log.page_bytes.values())
        if own >= MAX_PAGE_BYTES:
            heaviest = sorted(log.page_bytes.items(), key=lambda kv: -kv[1])[:3]
            problems.append(f"page weighs {own / 1e6:.2f} MB >= 3 MB; heaviest: {heaviest}")
        # Last, the phone. Its narrow frames are not what a desktop reader loads:
        # they do not count in the page's own bytes above.
        log.counting = False
        phone = phone_layout(page, path)
        phone += [f"page error: {e}" for e in log.page_errors]
        a11y = None
        if path == _first_chapter():
            loaded = _load_mathjax_a11y(page)
            log.settle(page)
            a11y = (loaded, log.problems())
    finally:
        page.close()
    return Visit(problems, own, weight, phone, a11y)


def _site_page(path):
    """A page's parameter: both files' tests of the page run on one worker, one load."""
    return pytest.param(path, marks=pytest.mark.xdist_group(f"site-page-{path}"))


SITE_PAGES = [_site_page(p) for p in PAGES] or ["(no built site)"]


@pytest.mark.parametrize("path", SITE_PAGES)
def test_page_works_offline(path, page_visits, weights):
    visit = page_visits(path)
    weights[path] = visit.own_bytes
    assert not visit.offline, f"{path}:\n  " + "\n  ".join(visit.offline)


AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
# WCAG 2.0/2.1, levels A and AA: what the UX review measured.
_AXE_RUN = """async () => {
  // resultTypes: passes and incomplete results get one node each, not a CSS
  // selector for every node that passed (thousands on a chapter): only
  // violations are judged.
  const result = await axe.run(document, {runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"],
                                             rules: RULES, resultTypes: ["violations"]});
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id} (${v.nodes.length}): ` +
                v.nodes.slice(0, 2).map((n) => n.target.join(" ")).join("; "));
}"""


def _check_accessibility(page, *, contrast: bool = True) -> list[str]:
    """axe-core's serious and critical WCAG 2.1 A/AA violations on the page as it now is.

    ``contrast=False`` leaves out color-contrast, about half of axe's time on
    a chapter (it measures every glyph of every formula): the Chinese pages
    share the English pages' style sheets, colours and outputs, so the
    English page's run answers it for both.
    """
    page.add_script_tag(path=str(AXE))
    rules = "{}" if contrast else '{"color-contrast": {enabled: false}}'
    return [f"axe: {v}" for v in page.evaluate(_AXE_RUN.replace("RULES", rules))]


def _glossary_terms() -> tuple[list[str], list[str]]:
    """Chinese and English words of the glossary's terms, from the built page."""
    glossary = next((SITE / p for p in PAGES if Path(p).stem == "glossary"), None)
    if glossary is None:
        return [], []
    html = glossary.read_text(encoding="utf-8")
    terms = [re.sub(r"<[^>]+>", "", t) for t in re.findall(r"<dt[^>]*>(.*?)</dt>", html, re.S)]
    chinese = [run for t in terms for run in re.findall(r"[\u4e00-\u9fff]{2,}", t)]
    english = [w for t in terms for w in re.findall(r"[A-Za-z]{5,}", t)]
    return list(dict.fromkeys(chinese)), list(dict.fromkeys(english))


def _glossary_anchors() -> dict[str, str]:
    """Each glossary term's anchor and its text, from the built page."""
    glossary = next((SITE / p for p in PAGES if Path(p).stem == "glossary"), None)
    html = glossary.read_text(encoding="utf-8") if glossary else ""
    return {anchor: re.sub(r"<[^>]+>", "", text)
            for anchor, text in re.findall(r'<dt id="(term-[^"]+)">(.*?)</dt>', html, re.S)}


def _lands_on_its_term(query: str, links: list[str]) -> bool:
    """A hit links to a glossary anchor whose term holds the query (UX review D10)."""
    anchors = _glossary_anchors()
    return any("glossary" in (href or "") and "#" in href
               and query.lower() in anchors.get(href.split("#", 1)[1], "").lower()
               for href in links)


def test_glossary_anchors_are_readable():
    """No ``#term-0``: each term's anchor is made of its English words (UX review D10, D19)."""
    anchors = _glossary_anchors()
    if not anchors:
        pytest.skip("no glossary page in the built site")
    unreadable = [a for a in anchors if not re.fullmatch(r"term-[A-Za-z0-9]+(-[A-Za-z0-9]+)*", a)
                  or re.fullmatch(r"term-\d+", a)]
    assert not unreadable, f"unreadable glossary anchors: {unreadable}"


def test_every_link_to_a_glossary_term_lands_on_it():
    """A {term} link's anchor exists on its glossary page (both editions).

    The readable anchors replace Sphinx's own; a reference still holding the
    old one (a term with an apostrophe, whose text smartquotes had changed)
    lands on the glossary's top and is an undefined reference in the PDF.
    """
    glossaries = {p: set(re.findall(r'id="(term-[^"]+)"', (SITE / p).read_text(encoding="utf-8")))
                  for p in PAGES if Path(p).stem == "glossary"}
    if not glossaries:
        pytest.skip("no glossary page in the built site")
    broken = []
    for page in PAGES:
        html = (SITE / page).read_text(encoding="utf-8")
        for href in set(re.findall(r'href="([^"]*glossary\.html#term-[^"]+)"', html)):
            target, anchor = href.split("#", 1)
            glossary = (Path(page).parent / target).as_posix()
            glossary = os.path.normpath(glossary).replace(os.sep, "/")
            if anchor not in glossaries.get(glossary, set()):
                broken.append(f"{page}: {href}")
    assert not broken, f"{len(broken)} term link(s) to no anchor: {sorted(broken)[:10]}"


# The search page's own form reloads the page with ``?q=``; in place, a submit
# clears the results and runs what a load with ``?q=`` runs (searchtools.js's
# Search.init: Search.performSearch), so every query shares one load of the page.
_SEARCH_IN_PLACE = """() => {
  const form = document.querySelector(".bd-search-container form.bd-search");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    document.getElementById("search-results").replaceChildren();
    Search.performSearch(form.querySelector("input[name=q]").value);
  });
}"""
# Search.performSearch fills the status after the last result is listed
# (_finishSearch), so one query's listing has ended when the next one starts.
_SEARCH_DONE = """() => {
  const s = document.querySelector("#search-results .search-summary, #search-results p");
  return s && s.textContent.trim().length > 0 &&
         !/Preparing search|Searching/.test(s.textContent);
}"""


def test_offline_search_finds_glossary_terms_in_chinese_and_english(server, browser):
    """Each query typed in turn into the search page's field, in one load of the page."""
    chinese, english = _glossary_terms()
    if not chinese:
        pytest.skip("the glossary has no Chinese terms yet")
    # The glossary's own examples first, then a sample of the rest; plus English.
    wanted = ["分散", "自助法"]
    queries = [q for q in wanted if q in chinese] + [q for q in chinese if q not in wanted][:3]
    queries += english[:2]
    page = browser.new_page()
    log = PageLog(page, server)
    missing = []
    try:
        page.goto(f"{server}search.html", wait_until="load")
        page.evaluate(_SEARCH_IN_PLACE)
        field = page.locator(".bd-search-container input[name=q]")
        for query in queries:
            field.fill(query)
            field.press("Enter")
            page.wait_for_function(_SEARCH_DONE, timeout=60_000)
            links = page.eval_on_selector_all("#search-results ul.search li a",
                                              "(as) => as.map((a) => a.getAttribute('href'))")
            if not any("glossary" in (href or "") for href in links):
                missing.append(f"{query!r} -> {links[:5]}")
            elif re.search(r"[\u4e00-\u9fff]", query) and not _lands_on_its_term(query, links):
                missing.append(f"{query!r} -> {links[:5]}: no hit on the term's own anchor (D10)")
        assert page.url == f"{server}search.html", f"a query left the page: {page.url}"
        log.settle(page)
    finally:
        page.close()
    print(f"\n{len(queries)} queries in one load; {len(log.aborted)} cancelled summary "
          "prefetch(es) of existing pages, not failures")
    assert not missing, "offline search does not find the glossary for: " + "; ".join(missing)
    assert not log.problems(), log.problems()


def _first_chapter() -> str | None:
    return next((p for p in PAGES if re.match(r"chapters/\d\d_", p)), None)


_MATHJAX_A11Y = """async () => {
    await MathJax.startup.promise;
    await MathJax.loader.load('a11y/assistive-mml', 'a11y/semantic-enrich',
                              'a11y/complexity', 'a11y/explorer');
    const base = new URL(MathJax.config.loader.paths.mathjax + '/sre/mathmaps/',
                         document.baseURI);
    const sizes = [];
    for (const name of ['base.json', 'en.json', 'nemeth.json']) {
        const response = await fetch(new URL(name, base));
        sizes.push(response.ok ? (await response.text()).length : -response.status);
    }
    return {explorer: MathJax._.a11y && !!MathJax._.a11y.explorer, sizes};
}"""


def _load_mathjax_a11y(page) -> dict:
    """Load what the MathJax menu's "Accessibility" items load into ``page``."""
    return page.evaluate(_MATHJAX_A11Y)


@pytest.mark.xdist_group(f"site-page-{_first_chapter()}")
def test_mathjax_accessibility_components_load_from_the_site(page_visits):
    """The MathJax menu's accessibility options fetch their code from the site, not a CDN.

    Loads the components the menu's "Accessibility" items load (assistive
    MathML, semantic enrichment with the speech rule engine, the explorer,
    complexity) and the English and Nemeth rule sets the speech engine
    fetches; every request must be served by the site. They are loaded at
    the end of the first chapter's one cold load (``visit_page``; this test
    is in that page's xdist group, so on the same worker it reuses the load).
    """
    path = _first_chapter()
    if path is None:
        pytest.skip("no chapter page in the built site")
    loaded, problems = page_visits(path).mathjax_a11y
    assert loaded["explorer"], loaded
    assert min(loaded["sizes"]) > 1000, f"speech rule sets not served: {loaded['sizes']}"
    assert not problems, problems


def test_site_opened_from_a_file_works(browser):
    """A student who downloads the built site and opens a chapter from disk (file://).

    The text, the formulas and the explorable figures work; what needs a
    server (the search page's index) is not required here.
    """
    reason = _missing_site_reason()
    if reason:
        pytest.skip(reason)
    path = next((p for p in PAGES if (SITE / p).read_text(encoding="utf-8")
                 .count('class="mlcore-explore"')), _first_chapter())
    if path is None:
        pytest.skip("no chapter page in the built site")
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto((SITE / path).as_uri(), wait_until="load")
        page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise",
                               timeout=60_000)
        page.evaluate("() => MathJax.startup.promise")
        typeset = page.locator("mjx-container").count()
        problems = _check_explorers(page) + _check_mathjax(page)
    finally:
        page.close()
    assert typeset > 0, f"{path} from file://: no formula typeset"
    assert not problems, problems
    assert not errors, f"{path} from file://: {errors[:5]}"
