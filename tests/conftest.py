"""Shared pytest configuration: the Hypothesis profiles of the property-based tests.

* ``ci`` (the default under the project's test command and when ``CI=true``):
  derandomized, few examples, no deadline, so the whole property suite stays
  within about 60 s of CPU on a loaded 2-core machine and never flakes.
* ``dev`` / ``thorough`` (select with ``HYPOTHESIS_PROFILE=dev`` or
  ``HYPOTHESIS_PROFILE=thorough``): random seeds and many more examples, for
  local bug hunting.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, max_examples=25, deadline=None,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=200, deadline=None)
settings.register_profile("thorough", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# -- one chapter only (python scripts/tasks.py test --fast NN) ---------------------
import re  # noqa: E402

import pytest  # noqa: E402

_CHAPTER = re.compile(r"\b(\d\d)_[a-z][a-z0-9_]*")
# Files whose tests concern all chapters or the whole grader: a one-chapter run
# keeps only their tests parametrized by that chapter (its homework, wrong
# solutions, catalog, warnings, page and deck). The rest (every catalog, the
# Chinese student edition, the grader's security suite: about 140 worker-seconds
# on the tiny fixture chapter, none of it about a chapter) is for the whole command.
# Which files a one-chapter run collects at all is scripts/tasks.py's
# _fast_selection: the chapter's notebook, its mlcore modules' tests and doctests.
_WHOLE_BOOK_FILES = ("tests/test_homework.py", "tests/test_site.py", "tests/test_site_phone.py",
                     "tests/test_pdf.py", "tests/test_grading_security.py",
                     "tests/test_wrong_solutions.py", "tests/test_i18n.py",
                     "tests/test_chapter_warnings.py", "tests/test_slides.py")


def pytest_addoption(parser):
    parser.addoption("--chapter", metavar="NN", default=None,
                     help="of the whole-book files, run only chapter NN's tests: its "
                          "homework, catalog, page and deck (tasks.py test --fast NN)")


# tryfirst: before pytest-xdist's own hook, which appends each test's xdist_group
# to its node id (--dist loadgroup) and so must see the groups given below.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    _select_chapter(config, items)
    _group_for_workers(items)
    _name_groups_in_node_ids(config, items)


def _select_chapter(config, items):
    chapter = config.getoption("--chapter")
    if not chapter:
        return
    if not re.fullmatch(r"\d\d", chapter):
        raise ValueError(f"--chapter takes a two-digit chapter number, got {chapter!r}")
    keep, drop = [], []
    for item in items:
        numbers = set(_CHAPTER.findall(item.nodeid))
        whole_book = item.nodeid.startswith(_WHOLE_BOOK_FILES)
        if numbers:
            (keep if chapter in numbers else drop).append(item)
        else:
            (drop if whole_book else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# -- how the test command's workers share the tests (--dist loadgroup) ---------------
#
# Each xdist group runs on one worker, in collection order. A test without an
# xdist_group mark of its own is grouped with its file (a module's module-scoped
# fixtures are built once, a notebook's nbval cells share one kernel). The
# tests that are expensive one by one (a chapter's homework verification, a
# page of the site, a chapter's wrong solutions) carry a group each, so they
# spread over the workers. The scheduler hands the next group to whichever
# worker runs low, in collection order (tasks.py passes --no-loadscope-reorder,
# which keeps it), so the groups are sorted longest first: then no long group
# starts last and leaves the other worker idle (longest-first list scheduling).
#
# A group's length is what the previous run of the command measured
# (_build/test-report.xml, whose test names end in "@group"); a group that
# report does not hold (a first run, a new test, a run after `test --fast`)
# gets the estimate below, worker-seconds from a full run on the 2-core
# machine (issue #43), by the first prefix its name starts with.
_ESTIMATES = (("tests/test_homework.py", 400), ("tests/test_widgets_speed.py", 160),
              ("tests/test_grading_security.py", 140), ("tests/test_feature_selection.py", 115),
              ("homework-", 80), ("tests/test_lab.py", 80), ("tests/test_bayes.py", 64),
              ("tests/test_i18n.py", 50), ("chapters/", 45), ("tests/test_pdf.py", 40),
              ("site-page-", 35), ("tests/test_slides.py", 30),
              ("tests/test_dask_grading.py", 45))
_REPORT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "_build", "test-report.xml")


def _group_of(item):
    """The item's xdist group, named as pytest-xdist names it (its marks' names joined)."""
    return "_".join(sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                            for m in item.iter_markers("xdist_group")}))


def _measured_seconds(report=_REPORT):
    """{group: seconds} summed over the test cases of the previous run's JUnit report."""
    import xml.etree.ElementTree as ElementTree
    seconds = {}
    try:
        cases = ElementTree.parse(report).getroot().iter("testcase")
        for case in cases:
            name = case.get("name", "")
            if "@" in name.rpartition("]")[2]:
                group = name.rsplit("@", 1)[1]
                seconds[group] = seconds.get(group, 0.0) + float(case.get("time") or 0)
    except (OSError, ValueError, ElementTree.ParseError):
        return {}       # no previous run (or an unreadable one): the estimates decide
    return seconds


def _group_for_workers(items):
    order = {}
    for item in items:
        if not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
        order.setdefault(_group_of(item), len(order))
    measured = _measured_seconds() if len(order) > 1 else {}

    def seconds(group):
        if group in measured:
            return measured[group]
        return next((s for prefix, s in _ESTIMATES if group.startswith(prefix)), 0.0)
    length = {group: seconds(group) for group in order}
    # stable: each group keeps its tests' order; equal lengths keep collection order
    items.sort(key=lambda item: (-length[_group_of(item)], order[_group_of(item)]))


def _name_groups_in_node_ids(config, items):
    """Append ``@group`` to each node id in a --dist loadgroup worker, as xdist means to.

    The scheduler knows a test's group only from its node id. pytest-xdist
    3.8 appends the group by setting ``item._nodeid``, which pytest 9 no
    longer reads (a node id is ``item._id``, a ``NodeId``): the suffix was
    lost, every test became a group of its own, and a notebook's nbval cells
    ran on both workers, each without the kernel state of the cells before
    it. Where xdist's own suffix works (pytest < 9), it is left to xdist.
    """
    if not getattr(config.option, "loadgroup", False):
        return
    try:
        from _pytest.nodeid import NodeId
    except ImportError:     # pytest < 9: xdist's own hook appends the group
        return
    for item in items:
        if "@" in item.nodeid.rpartition("]")[2] or not hasattr(item, "_id"):
            continue
        group = _group_of(item)
        if group:
            item._id = NodeId.parse(f"{item.nodeid}@{group}")


# -- the site's browser tests: one server and one browser per worker ----------------
#
# Session-scoped, so that a worker that runs pages of tests/test_site.py and
# tests/test_site_phone.py between other tests starts Chromium once, and each
# page is loaded once for both files (test_site.visit_page).


@pytest.fixture(scope="session")
def server():
    import functools
    import http.server
    import threading

    from test_site import HOST, SITE, _missing_site_reason, _QuietHandler
    reason = _missing_site_reason()
    if reason:
        pytest.skip(reason)
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    httpd = http.server.ThreadingHTTPServer((HOST, 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://{HOST}:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    from pathlib import Path

    from test_site import CHROMIUM, CHROMIUM_ARGS, IN_CI
    problem = None
    if not Path(CHROMIUM).exists():
        problem = (f"no Chromium at {CHROMIUM}: install Debian's `chromium` "
                   "(`python scripts/tasks.py test` does so when it runs as root)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        problem = "the playwright package is missing: pip install -r requirements.txt"
    if problem:
        if IN_CI:
            pytest.fail(f"CI=true and the browser test cannot run: {problem}")
        pytest.skip(problem)
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as playwright:
        # A persistent context is how Playwright takes a fresh --user-data-dir.
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900}, service_workers="block")
        # Playwright's 30 s default for a click or a screenshot is what a loaded machine
        # exceeds; a slow action is not a broken page (LOAD-2), so give each two minutes.
        context.set_default_timeout(120_000)
        yield context
        context.close()


@pytest.fixture(scope="session")
def page_visits(server, browser):
    """``visit(path)``: the facts of one cold load of a page, gathered once per session."""
    from test_site import visit_page
    done = {}

    def visit(path):
        if path not in done:
            try:
                done[path] = visit_page(browser, server, path)
            except Exception as error:      # both tests of the page report it
                done[path] = error
        if isinstance(done[path], Exception):
            raise done[path]
        return done[path]
    return visit
