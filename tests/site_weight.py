"""Page weight, defined once for every page of every edition of the site.

**A page's weight is the bytes Chromium receives on a cold load of the page
from a local server without compression, all requests included**: the HTML,
its stylesheets, scripts, fonts, images and whatever its scripts fetch
before the page is quiet (MathJax's components and fonts included), with an
empty cache for that page. A byte is counted as Chromium's network layer
reports it (``Network.loadingFinished``'s ``encodedDataLength``: headers and
body as received), so a ``data:`` image inside the HTML counts once, with
the HTML.

Requests split in two:

* **shared**: what every page may share with the others: the site's
  ``_static/`` folder (theme, fonts, scripts, MathJax);
* **own**: the rest (the page's HTML, its ``_images/``, an explorable
  figure's first frame, and on the search page, the only page that loads
  it, the search index: 0.3 MB in English, 1.7 MB in Chinese, whose index
  holds every pair of Chinese characters).

The budgets (issue 31): shared <= 2.0 MB, shared + own <= 3.0 MB per page.
Frames of an explorable figure beyond its first are fetched on first
interaction and so are not part of a page's initial load.

Used by ``tests/test_site_phone.py`` and by any other edition's site test
(``from site_weight import cold_load_weight``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

MAX_SHARED_BYTES = 2_000_000
MAX_PAGE_BYTES = 3_000_000


def is_shared(url: str) -> bool:
    """True for a request of what pages share: the site's ``_static/`` files."""
    return "/_static/" in urlsplit(url).path


@dataclass
class Weight:
    """Bytes received on one cold load, per request URL."""

    requests: dict[str, int] = field(default_factory=dict)

    @property
    def shared(self) -> int:
        return sum(size for url, size in self.requests.items() if is_shared(url))

    @property
    def total(self) -> int:
        return sum(self.requests.values())

    @property
    def own(self) -> int:
        return self.total - self.shared

    def heaviest(self, count: int = 5) -> list[tuple[str, int]]:
        """The ``count`` largest requests, as (path, bytes)."""
        ranked = sorted(self.requests.items(), key=lambda item: -item[1])[:count]
        return [(urlsplit(url).path, size) for url, size in ranked]

    def problems(self, max_shared: int = MAX_SHARED_BYTES,
                 max_total: int = MAX_PAGE_BYTES) -> list[str]:
        """The budgets this load exceeds, each as a sentence naming the heaviest requests."""
        found = []
        if self.shared > max_shared:
            heavy = [h for h in self.heaviest(20) if is_shared(h[0])][:4]
            found.append(f"shared assets weigh {self.shared / 1e6:.2f} MB > "
                         f"{max_shared / 1e6:.1f} MB; heaviest: {heavy}")
        if self.total > max_total:
            found.append(f"the page weighs {self.total / 1e6:.2f} MB > {max_total / 1e6:.1f} MB "
                         f"on a cold load; heaviest: {self.heaviest(4)}")
        return found


class WeightRecorder:
    """Counts the bytes of a page's requests through the Chrome DevTools Protocol.

    Create it on a new page **before** navigating; it disables the browser
    cache for that page, so every request of the load reaches the server.
    """

    def __init__(self, page):
        self._urls: dict[str, str] = {}
        self.weight = Weight()
        self.pending = 0
        self._cdp = page.context.new_cdp_session(page)
        self._cdp.on("Network.requestWillBeSent", self._on_request)
        self._cdp.on("Network.loadingFinished", self._on_finished)
        self._cdp.on("Network.loadingFailed", self._on_failed)
        self._cdp.send("Network.enable")
        self._cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})

    def _on_request(self, event) -> None:
        url = event["request"]["url"]
        if url.startswith("data:"):
            return
        if event["requestId"] not in self._urls:
            self.pending += 1
        self._urls[event["requestId"]] = url

    def _on_finished(self, event) -> None:
        url = self._urls.pop(event["requestId"], None)
        if url is None:
            return
        self.pending -= 1
        size = int(event.get("encodedDataLength") or 0)
        self.weight.requests[url] = self.weight.requests.get(url, 0) + size

    def _on_failed(self, event) -> None:
        if self._urls.pop(event["requestId"], None) is not None:
            self.pending -= 1

    def settle(self, page, timeout_ms: int = 60_000) -> None:
        """Wait (polling, no fixed sleep) until no request has been open for 300 ms."""
        waited = quiet = 0
        while waited < timeout_ms and quiet < 300:
            page.wait_for_timeout(100)
            waited += 100
            quiet = quiet + 100 if self.pending <= 0 else 0

    def detach(self) -> None:
        try:
            self._cdp.detach()
        except Exception:  # the page may already be closed
            pass


# MathJax typesets after "load" and fetches its fonts while it does: wait for it.
MATHJAX_DONE = """async () => {
  const mj = window.MathJax;
  if (mj && mj.startup && mj.startup.promise) {
    await mj.startup.promise;
    if (mj.typesetPromise) await mj.typesetPromise();
  }
  if (document.fonts && document.fonts.ready) await document.fonts.ready;
  return true;
}"""


def cold_load_weight(browser_context, url: str) -> Weight:
    """The weight of ``url`` on a cold load: a new page, no cache, until it is quiet.

    Parameters
    ----------
    browser_context : playwright.sync_api.BrowserContext
        A Chromium context (the DevTools Protocol is Chromium's).
    url : str
        The page, served without compression (e.g. Python's ``http.server``).

    Returns
    -------
    Weight
    """
    page = browser_context.new_page()
    try:
        recorder = WeightRecorder(page)
        page.goto(url, wait_until="load")
        page.evaluate(MATHJAX_DONE)
        recorder.settle(page)
        recorder.detach()
        return recorder.weight
    finally:
        page.close()


def write_report(path, head: dict, pages: dict) -> None:
    """Write ``{**head, "pages": pages}`` as JSON, merged with the other workers' pages.

    Under pytest-xdist each worker loads some of the pages; the workers of
    one run (``PYTEST_XDIST_TESTRUNUID``) merge their pages into one file,
    under a lock, and a file of an earlier run is replaced.
    """
    import fcntl
    import json
    import os
    from pathlib import Path

    path = Path(path)
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            old = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        except ValueError:
            old = {}
        if run and old.get("run") == run:
            pages = {**old.get("pages", {}), **pages}
        report = {**head, "run": run, "pages": dict(sorted(pages.items()))}
        path.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
