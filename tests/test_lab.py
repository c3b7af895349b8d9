"""What a student sees in JupyterLab: a chapter copy of ``tasks.py lab``, in a real browser.

The test makes the lab copies (``scripts/tasks.py``'s ``lab_copies``) in a
temporary folder, starts JupyterLab itself from the course's Python on
127.0.0.1 (a free port, a token, no browser, temporary Jupyter config, data,
runtime and IPython folders so that no user setting or extension leaks in,
no news or update check), opens chapter 2 in headless Chromium and checks:

* every Markdown cell rendered, and none shows MyST source: no directive
  fence (```` ```{ ````, ``:::{``), no ``{prf:``/``{cite}``/``{term}`` role, no
  ``(label)=`` target, no "unknown directive" box;
* no self-check gives its key away: no ticked box, no ``[x]``, no answer
  text visible; opening one answer (a click on "Answer", as a student does)
  shows its key and its feedback;
* the live panel works: running the setup, import and panel cells gives
  labelled sliders and an image; moving the γ slider with the keyboard
  redraws the image (its bytes change, and change back when the slider
  returns). The redraw time (key press to new image, median of the moves)
  is printed, not asserted: it depends on the machine's load.

Screenshots of the opened self-check and of the live panel are saved in
``_build/lab-screenshots/``.

Chapter 2's panel (``SampleSizeFigure``) needs only the imports cell, so the
kernel runs three cells (a few seconds), not the chapter. Every wait is an
event (a selector, a condition in the page), with generous timeouts: the test
passes beside CPU burners. No request may leave 127.0.0.1. Without Chromium
or Playwright the test is skipped with the reason, except under ``CI=true``,
where that is a failure (as in ``tests/test_site.py``).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() == "true"
HOST = "127.0.0.1"
# The same flags as tests/test_site.py: no background traffic from Chromium itself.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
CHAPTER = "02_finite_hypothesis_classes.ipynb"
# The cells the live panel needs: the hidden setup cell, the imports, the panel.
PANEL_SOURCE = "sample_size_figure.live()"
SLIDER = "γ"
MOVES = 10
# What the student saw, for a person to look at (beside the site's screenshots).
SHOTS = ROOT / "_build" / "lab-screenshots"
# Generous: a loaded 2-core machine starts JupyterLab and a kernel in tens of seconds.
TIMEOUT_MS = 240_000
# MyST that must never reach the student: a directive fence, a role, a target.
RAW_MYST = re.compile(r"(`{3,}|:{3,})\{[\w:-]+\}|\{(prf:\w+|cite(:\w+)?|term|ref|numref|eq|doc)\}"
                      r"|^\([\w:.-]+\)=\s*$|\[[xX]\]", re.M)


def _skip_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return (f"no Chromium at {CHROMIUM}: install Debian's `chromium` "
                "(`python scripts/tasks.py test` does so when it runs as root)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing: pip install -r requirements.txt"
    try:
        import jupyterlab  # noqa: F401
    except ImportError:
        return "jupyterlab is missing: pip install -r requirements.txt"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def _lab_copies(folder: Path) -> list[Path]:
    """The notebooks `tasks.py lab` gives a student, written into ``folder``."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import tasks
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    saved = tasks.LAB
    tasks.LAB = folder
    try:
        return tasks.lab_copies()
    finally:
        tasks.LAB = saved


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on the lab copies: yields (url, token, notebook folder)."""
    reason = _skip_reason()
    if reason:
        if IN_CI:
            pytest.fail(f"CI=true and the JupyterLab test cannot run: {reason}")
        pytest.skip(reason)
    home = tmp_path_factory.mktemp("lab-home")
    notebooks = home / "my-notebooks"
    assert CHAPTER in [p.name for p in _lab_copies(notebooks)]
    # Every cell in the page: JupyterLab 4 otherwise renders only the cells near the
    # viewport, and the test reads every Markdown cell.
    settings = home / "config" / "lab" / "user-settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    # No "notified about Jupyter news?" toast over the screenshots (nothing is fetched anyway).
    notification = settings.parent / "apputils-extension"
    notification.mkdir()
    (notification / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "IPYTHON"))}
    env.update(JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), IPYTHONDIR=str(home / "ipython"),
               JUPYTERLAB_SETTINGS_DIR=str(home / "config" / "lab" / "user-settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "config" / "lab" / "workspaces"),
               PYTHONPATH=os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]),
               MLCORE_QUIET="1", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    env.pop("MPLBACKEND", None)       # the kernel picks the inline backend (see tasks.py)
    port, token = _free_port(), secrets.token_hex(16)
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", f"--ServerApp.ip={HOST}",
         f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={notebooks}",
         "--LabApp.news_url=None",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
         "--LabApp.extension_manager=readonly", "--ServerApp.terminals_enabled=False",
         "--LabApp.expose_app_in_browser=True"]
        + (["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []),
        cwd=notebooks, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log, ready = [], threading.Event()

    def drain():        # the server's log; "is running at" is the event that it listens
        for line in server.stdout:
            log.append(line)
            if "is running at" in line or f":{port}/" in line:
                ready.set()
        ready.set()     # it exited
    threading.Thread(target=drain, daemon=True).start()
    try:
        if not ready.wait(TIMEOUT_MS / 1000) or server.poll() is not None:
            pytest.fail(f"JupyterLab did not start (exit code {server.poll()}): "
                        + "".join(log)[-3000:])
        yield f"http://{HOST}:{port}", token, notebooks
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _cells(notebook: Path) -> list[dict]:
    return json.loads(notebook.read_text(encoding="utf-8"))["cells"]


def _panel_cells(cells: list[dict]) -> list[int]:
    """Indices of the setup cell, the imports cell and the live panel's cell."""
    code = [(i, "".join(c["source"])) for i, c in enumerate(cells) if c["cell_type"] == "code"]
    setup = next(i for i, c in enumerate(cells) if "setup" in c["metadata"].get("tags", []))
    imports = next(i for i, s in code if "from mlcore.bounds import" in s)
    panel = next(i for i, s in code if PANEL_SOURCE in s)
    return [setup, imports, panel]


_IMAGE_DIGEST = """async (img) => {
    const bytes = await (await fetch(img.src)).arrayBuffer();
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    return Array.from(new Uint8Array(digest), b => b.toString(16).padStart(2, "0")).join("");
}"""


# Parametrized by the chapter so that `tasks.py test --fast NN` runs it for chapter 2 only.
@pytest.mark.parametrize("chapter", [CHAPTER], ids=lambda name: name.removesuffix(".ipynb"))
def test_a_chapter_reads_as_a_student_should_see_it_and_its_live_slider_redraws(chapter, lab,
                                                                                 browser):
    url, token, notebooks = lab
    cells = _cells(notebooks / chapter)
    n_markdown = sum(c["cell_type"] == "markdown" for c in cells)
    foreign, page_errors = [], []

    def only_this_machine(route):
        if route.request.url.startswith(("http://127.0.0.1:", "ws://127.0.0.1:")):
            route.continue_()
        else:
            foreign.append(route.request.url)
            route.abort()

    # The worker's one Chromium (tests/conftest.py): a second sync Playwright in the
    # same process fails ("Sync API inside the asyncio loop").
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.route("**/*", only_this_machine)
    page.on("pageerror", lambda error: page_errors.append(str(error)))
    page.goto(f"{url}/lab/tree/{chapter}?token={token}")

    # -- the notebook opened, every Markdown cell rendered
    page.wait_for_function(
        """(n) => { const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                    if (!(nb && nb.context && nb.context.isReady && nb.content)) return false;
                    const shown = document.querySelectorAll('.jp-Notebook .jp-MarkdownCell .jp-RenderedMarkdown');
                    // a cell's node is there before its (asynchronous) rendering fills it
                    return shown.length >= n && Array.from(shown).every(e => e.childElementCount > 0); }""",
        arg=n_markdown)
    rendered = page.eval_on_selector_all(
        ".jp-Notebook .jp-MarkdownCell .jp-RenderedMarkdown", "els => els.map(e => e.innerText)")
    assert len(rendered) == n_markdown
    raw = [f"{m.group(0)!r} in {text[max(0, m.start() - 40):m.end() + 40]!r}"
           for text in rendered for m in RAW_MYST.finditer(text)]
    assert not raw, raw[:10]
    text = "\n".join(rendered)
    assert "unknown directive" not in text.lower()
    assert page.locator(".jp-Notebook .jp-MarkdownCell .myst-unknown-directive").count() == 0

    # -- self-checks: no key before the student opens one, the key after
    assert page.locator(".jp-Notebook .jp-MarkdownCell input[type=checkbox]:checked").count() == 0
    answers = page.locator(".jp-MarkdownCell details", has=page.locator("summary", has_text="Answer"))
    n_checks = sum("".join(c["source"]).count("**Check yourself.**") for c in cells)
    assert n_checks >= 3 and answers.count() == n_checks
    assert "Correct." not in text and "Not quite." not in text      # every key is folded away
    first = answers.first
    assert first.get_attribute("open") is None
    key = first.locator("text=Correct.").first
    assert not key.is_visible()
    first.locator("summary").click()
    key.wait_for(state="visible")
    assert first.get_attribute("open") is not None
    assert "Correct." in first.inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    first.locator("xpath=ancestor::div[contains(@class, 'jp-MarkdownCell')]").screenshot(
        path=SHOTS / f"{chapter.removesuffix('.ipynb')}-self-check-opened.png")

    # -- the live panel: run the three cells it needs
    indices = _panel_cells(cells)
    page.evaluate("""async (indices) => {
        const nb = window.jupyterapp.shell.currentWidget;
        await nb.sessionContext.ready;
        for (const i of indices) {
            nb.content.activeCellIndex = i;
            await window.jupyterapp.commands.execute('notebook:run-cell');
        }
    }""", indices)
    page.wait_for_function(
        """(indices) => { const cells = window.jupyterapp.shell.currentWidget.content.widgets;
                          return indices.every(i => cells[i].model.executionCount !== null); }""",
        arg=indices)
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'],"
                          " .jp-OutputArea-output .jp-RenderedText[data-mime-type*='error']")
    panel = page.locator(".jp-CodeCell").nth(sum(c["cell_type"] == "code" for c in cells[:indices[2]]))
    image = panel.locator(".widget-image")
    image.wait_for(state="visible")
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    assert errors.count() == 0, errors.all_inner_texts()[:3]
    slider = panel.locator(".widget-slider", has=page.locator(".widget-label", has_text=SLIDER))
    assert panel.locator(".widget-slider").count() == 3 and slider.count() == 1
    readout, handle = slider.locator(".widget-readout"), slider.locator(".noUi-handle")
    start_value, start_image = readout.inner_text(), image.evaluate(_IMAGE_DIGEST)

    # Each key press: the time from the key to the new image, taken in the page.
    page.evaluate("""(img) => {
        window.labRedraws = [];
        document.addEventListener('keydown', () => { window.labKey = performance.now(); }, true);
        new MutationObserver(() => window.labRedraws.push(performance.now() - window.labKey))
            .observe(img, {attributes: true, attributeFilter: ['src']});
    }""", image.element_handle())
    values, digests = [start_value], [start_image]
    for key in ["ArrowRight"] * MOVES + ["ArrowLeft"] * MOVES:
        before = image.get_attribute("src")
        handle.press(key)
        page.wait_for_function("([img, before]) => img.src !== before && img.complete",
                               arg=[image.element_handle(), before])
        values.append(readout.inner_text())
        digests.append(image.evaluate(_IMAGE_DIGEST))
    redraws = page.evaluate("window.labRedraws")
    panel.screenshot(path=SHOTS / f"{chapter.removesuffix('.ipynb')}-live-panel.png")
    print(f"\nJupyterLab live slider {SLIDER!r}: {len(redraws)} redraws, key press to new image "
          f"median {statistics.median(redraws):.0f} ms (min {min(redraws):.0f}, "
          f"max {max(redraws):.0f}); values {values[0]} -> {values[MOVES]} -> {values[-1]}")
    assert len(set(values[:MOVES + 1])) == MOVES + 1          # every press moved the slider
    assert len(set(digests[:MOVES + 1])) == MOVES + 1         # ... and redrew the figure
    assert (values[-1], digests[-1]) == (start_value, start_image)   # back where it started
    assert not foreign, foreign[:5]
    assert not page_errors, page_errors[:5]
    page.close()
