"""The project's commands: one file, plain Python, so it runs on Linux, macOS and Windows.

    python scripts/tasks.py book    # build the website: _build/html and the Chinese _build/html/zh_CN
    python scripts/tasks.py book --language en   # one edition (en or zh_CN)
    python scripts/tasks.py book --no-solutions   # for a class: _build/student/_build/html
    python scripts/tasks.py pdf     # _build/pdf/book.pdf and book-student.pdf (TeX Live)
    python scripts/tasks.py test    # unit tests, doctests, every notebook, the site
    python scripts/tasks.py test --fast 03   # chapter 3: notebook, its modules' tests, page
    python scripts/tasks.py slides  # each chapter's deck: _build/html/slides, _build/html/zh_CN/slides
    python scripts/tasks.py lab     # JupyterLab on copies of the chapters (my-notebooks/)
    python scripts/tasks.py lab --language zh_CN   # Chinese copies (my-notebooks-zh_CN/)
    python scripts/tasks.py lock    # regenerate requirements.txt from requirements.in

Each command first creates (or reuses) the virtual environment ``.venv`` from
``requirements.txt`` and installs ``mlcore`` into it in editable mode. The
environment is rebuilt only when ``requirements.txt`` or ``pyproject.toml``
changes (their hash is stored in ``.venv/requirements.sha256``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BUILD = ROOT / "_build"
STAMP = VENV / "requirements.sha256"


def _venv_python() -> Path:
    sub = "Scripts/python.exe" if os.name == "nt" else "bin/python"
    return VENV / sub


def _run(*args: str | Path, env: dict | None = None) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    completed = subprocess.run([str(a) for a in args], cwd=ROOT, env=env)
    if completed.returncode:
        sys.exit(completed.returncode)


def _requirements_hash() -> str:
    digest = hashlib.sha256()
    for name in ("requirements.txt", "pyproject.toml"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def ensure_venv() -> Path:
    """Create or reuse .venv with the pinned requirements and an editable mlcore."""
    python = _venv_python()
    wanted = _requirements_hash()
    if python.exists() and STAMP.exists() and STAMP.read_text().strip() == wanted:
        return python
    if not python.exists():
        print(f"Creating the virtual environment {VENV} ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    _run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "-r", ROOT / "requirements.txt")
    _run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--no-deps", "-e", ROOT)
    STAMP.write_text(wanted)
    return python


def _env() -> dict:
    env = dict(os.environ)
    # Quiet, deterministic runs: no progress bars or parallel pools in logs and
    # the built site (mlcore reads MLCORE_QUIET), one BLAS thread per process
    # so that parallel notebooks do not oversubscribe the cores.
    env.setdefault("MLCORE_QUIET", "1")
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env.setdefault("OMP_NUM_THREADS", "1")
    # No MPLBACKEND here: a kernel started with MPLBACKEND=Agg shows nothing on
    # plt.show(), so every static figure vanished from the built site. Kernels
    # pick the inline backend themselves, and plain Python picks Agg when there
    # is no display. An inherited MPLBACKEND is dropped for the same reason.
    env.pop("MPLBACKEND", None)
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    env["IPYTHONDIR"] = str(_kernel_profile())
    return env


def _kernel_profile() -> Path:
    """An IPython directory of the project's own for the kernels the build and tests start.

    Three reasons: every inline figure gets its text alternative; a reader's
    ``~/.ipython`` startup files must not change what the book computes; and
    ipykernel's own log level is set here (ERROR) to
    drop its "Kernel is running over TCP without encryption" warning, printed
    once per notebook: the kernels talk to the build over 127.0.0.1 only.
    """
    profile = BUILD / "ipython" / "profile_default"
    config = profile / "ipython_kernel_config.py"
    # Every inline figure carries a text alternative (its titles and axis
    # labels, mlcore._figure_text) that becomes the website's <img alt>.
    text = ("# Written by scripts/tasks.py for the kernels of the build and the tests.\n"
            "c.IPKernelApp.log_level = 'ERROR'\n"
            "c.InteractiveShellApp.exec_lines = [\n"
            "    'from mlcore._figure_text import install_notebook_alt_text as _alt',\n"
            "    '_alt(); del _alt',\n"
            "]\n")
    if not config.exists() or config.read_text() != text:
        profile.mkdir(parents=True, exist_ok=True)
        config.write_text(text)
    return profile.parent


def _tree_hash(paths) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in paths if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _site_inputs_hash() -> str:
    """What an incremental Sphinx build does not track: extensions, static files, mlcore."""
    return _tree_hash([*(ROOT / "_ext").rglob("*"), ROOT / "_vendor" / "MANIFEST.txt",
                       *(ROOT / "mlcore").rglob("*.py")])


# Folders no build reads: an edit of a test alone must not make ``test`` rebuild
# both sites and the PDFs (about 160 s of the test command when it did).
NOT_BUILD_INPUTS = ("tests",)


def _project_files() -> list[Path] | None:
    """Every file a build can read: git's tracked files and the new ones it does not ignore.

    The tests (``NOT_BUILD_INPUTS``) are left out. None outside a git
    checkout (an unpacked archive): then nothing is skipped.
    """
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [ROOT / name for name in listing.decode("utf-8", "surrogateescape").split("\0")
            if name and name.split("/", 1)[0] not in NOT_BUILD_INPUTS]


def build_inputs_hash() -> str | None:
    """One hash of everything a build depends on: the project's files and the pinned packages."""
    files = _project_files()
    return None if files is None else _tree_hash(files) + ":" + _requirements_hash()


def _up_to_date(kind: str, inputs: str | None, *outputs: Path) -> bool:
    """Whether build KIND last succeeded on exactly these inputs and its outputs are there.

    ``test`` right after ``book`` (or a second ``test``) then builds nothing:
    a no-op Sphinx or LaTeX run still costs minutes (the PDF's xelatex pass,
    pages Sphinx re-reads because another builder touched their doctree).
    """
    stamp = BUILD / f"{kind}.built-from.sha256"
    return (inputs is not None and all(path.exists() for path in outputs)
            and stamp.exists() and stamp.read_text() == inputs)


def _record_built(kind: str, inputs: str | None) -> None:
    if inputs is not None:
        (BUILD / f"{kind}.built-from.sha256").write_text(inputs)


def execute_notebooks(python: Path) -> None:
    """Execute the notebooks that changed, in parallel, into the one execution cache.

    Every build (site, student site, PDF) then reads every notebook from
    ``_build/.jupyter_cache`` (``execute.cache`` in ``_config.yml``) instead of
    running them one after the other; an unchanged notebook never runs again.
    """
    if subprocess.run([str(python), str(ROOT / "scripts" / "execute_notebooks.py")],
                      cwd=ROOT, env=_env()).returncode:
        sys.exit("A chapter notebook failed (above); the book was not built.")


def build_book(python: Path, *, fresh: bool = False) -> Path:
    """Execute every notebook (cached) and write the HTML site; fail on any warning."""
    if fresh and BUILD.exists():
        shutil.rmtree(BUILD)
    start = time.perf_counter()
    project, index = build_inputs_hash(), BUILD / "html" / "index.html"
    if _up_to_date("site-en", project, index):
        print(f"The site is up to date (no input changed since it was built): {index}")
        return index
    execute_notebooks(python)
    # An incremental Sphinx build re-reads only the pages whose source changed.
    # It misses edited static files and extensions, and the API page's
    # docstrings: when any of those changed (or on the first build), write
    # every page again with --all.
    stamp, inputs = BUILD / "site-inputs.sha256", _site_inputs_hash()
    full = not index.exists() or not stamp.exists() or stamp.read_text() != inputs
    _run(python, "-c", "from jupyter_book.cli.main import main; main()", "build", ROOT,
         "--path-output", ROOT, "--warningiserror", "--keep-going", *(["--all"] if full else []),
         env=_env())
    stamp.write_text(inputs)
    _record_built("site-en", project)
    print(f"\nBuilt the site in {time.perf_counter() - start:.0f} s: open {index}")
    return index


LANGUAGES = ("en", "zh_CN")  # the English site, and the Chinese one in _build/html/zh_CN


def build_editions(python: Path, *, fresh: bool = False, languages=LANGUAGES) -> Path:
    """The English site (``en``, _build/html) and the Chinese one (``zh_CN``), both by default.

    The Chinese site is a second Sphinx run (scripts/i18n.py build) into
    _build/html/zh_CN from the same execution cache; like the English build it
    rewrites every page when an extension, a static file or mlcore changed.
    """
    if "en" in languages:
        index = build_book(python, fresh=fresh)
    else:
        index = BUILD / "html" / "index.html"
        if subprocess.run([str(python), str(ROOT / "scripts" / "execute_notebooks.py")],
                          cwd=ROOT, env=_env()).returncode:
            sys.exit("A chapter notebook failed (above); the site was not built.")
    chinese = BUILD / "html" / "zh_CN" / "index.html"
    project = build_inputs_hash()
    if "zh_CN" in languages and _up_to_date("site-zh_CN", project, chinese):
        print(f"The Chinese site is up to date (no input changed since it was built): {chinese}")
    elif "zh_CN" in languages:
        start = time.perf_counter()
        stamp, inputs = BUILD / "site-inputs-zh_CN.sha256", _site_inputs_hash()
        full = not chinese.exists() or not stamp.exists() or stamp.read_text() != inputs
        _run(python, ROOT / "scripts" / "i18n.py", "build", *(["--all"] if full else []),
             env=_env())
        stamp.write_text(inputs)
        _record_built("site-zh_CN", project)
        print(f"Built the Chinese site in {time.perf_counter() - start:.0f} s: open {chinese}")
    return index


def build_student_book(python: Path, *, fresh: bool = False) -> Path:
    """Build the site without exercise solutions into _build/student/_build/html (for a class)."""
    out = BUILD / "student"
    if fresh and out.exists():
        shutil.rmtree(out)
    config = out / "student_config.yml"
    # The book's _config.yml plus mlcore.homework.sphinx_student, which removes
    # every solution (sphinx-exercise's hide_solutions leaves gated solutions' cells).
    _run(python, "-c", "import sys; from mlcore.homework.sphinx_student import "
         "write_student_config as w; w(sys.argv[1], sys.argv[2])", ROOT, config)
    start = time.perf_counter()
    execute_notebooks(python)  # the site's cache: nothing runs that the site build ran
    _run(python, "-c", "from jupyter_book.cli.main import main; main()", "build", ROOT,
         "--config", config, "--path-output", out, "--warningiserror", "--keep-going", "--all",
         env=_env())
    index = out / "_build" / "html" / "index.html"
    publish_pdf(index.parent, "book-student.pdf")  # its header's PDF button (tasks.py pdf)
    print(f"\nBuilt the student site (no solutions) in {time.perf_counter() - start:.0f} s: "
          f"open {index}")
    return index


PDF = BUILD / "pdf"
# Debian's TeX Live and fonts for the printed book (about 600 MB): xelatex,
# Sphinx's LaTeX packages, xeCJK, latexmk, Sphinx's xelatex fonts (FreeSerif,
# FreeSans), DejaVu Sans Mono for code, a CJK font for the glossary, and
# poppler-utils for the PDF's test.
TEX_PACKAGES = {"texlive-xetex": "/usr/bin/xelatex", "texlive-latex-extra": "fncychap.sty",
                # the rsfs fonts of mathrsfs, which Jupyter Book's LaTeX class loads
                "texlive-fonts-recommended": "rsfs10.tfm",
                "texlive-lang-chinese": "xeCJK.sty", "latexmk": "/usr/bin/latexmk",
                "fonts-noto-cjk": "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
                "fonts-freefont-otf": "/usr/share/fonts/opentype/freefont/FreeSerif.otf",
                "fonts-dejavu-core": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
                "poppler-utils": "/usr/bin/pdftotext",
                # the SVG outputs (chapter 12's trees) become PDF figures
                "librsvg2-bin": "/usr/bin/rsvg-convert"}
TEX_INSTALL = ("apt-get install -y --no-install-recommends " + " ".join(TEX_PACKAGES))


def missing_tex_packages() -> list[str]:
    """The Debian packages of TEX_PACKAGES whose file is not on this machine."""
    missing = []
    for package, needed in TEX_PACKAGES.items():
        if needed.startswith("/"):
            present = Path(needed).exists()
        else:  # a LaTeX package: ask TeX's own file search
            kpsewhich = shutil.which("kpsewhich")
            present = bool(kpsewhich) and subprocess.run(
                [kpsewhich, needed], capture_output=True, text=True).stdout.strip() != ""
        if not present:
            missing.append(package)
    return missing


def ensure_tex() -> bool:
    """Install TeX Live for the PDF when missing and we are root; False if it is still missing."""
    missing = missing_tex_packages()
    if not missing:
        return True
    apt = shutil.which("apt-get")
    if apt and hasattr(os, "geteuid") and os.geteuid() == 0:
        print(f"Installing TeX Live for the PDF ({', '.join(missing)}; about 600 MB) ...", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        if not subprocess.run([apt, "update", "-qq"], env=env).returncode:
            subprocess.run([apt, "install", "-y", "-qq", "--no-install-recommends", *missing], env=env)
        missing = missing_tex_packages()
        if not missing:
            return True
    print(f"The PDF needs Debian packages that are not installed ({', '.join(missing)}). "
          "As root, run:\n"
          f"    {TEX_INSTALL}", flush=True)
    return False


def build_pdf(python: Path) -> list[Path]:
    """Write _build/pdf/book.pdf and book-student.pdf (no solutions) from one LaTeX run.

    Jupyter Book's LaTeX route (``--builder pdflatex``: Sphinx's LaTeX builder,
    then ``make all-pdf``, latexmk with xelatex). The notebooks come from the
    one execution cache, and Sphinx's environment is the HTML build's
    (``_build/.doctrees``), so after ``book`` no page is read again;
    ``_ext/print_edition.py`` writes both documents in the one run and make
    typesets them side by side (``-j2``).
    """
    start = time.perf_counter()
    project = build_inputs_hash()
    written = [PDF / "book.pdf", PDF / "book-student.pdf"]
    if _up_to_date("pdf", project, *written):
        publish_pdf(BUILD / "html", "book.pdf")
        publish_pdf(BUILD / "student" / "_build" / "html", "book-student.pdf")
        print("The PDFs are up to date (no input changed since they were built): "
              + ", ".join(str(p) for p in written))
        return written
    execute_notebooks(python)
    latex = BUILD / "latex"
    # Old PDFs must not pass for new ones, and an old index makes latexmk run
    # xindy (the book has no index). The .aux files stay: with them, an
    # unchanged book needs one xelatex pass instead of three.
    for pattern in ("*.pdf", "*.idx", "*.ind", "*.ilg"):
        for stale in latex.glob(pattern):
            stale.unlink()
    env = {**_env(), "MAKEFLAGS": "-j2",
           # No prompt on a TeX error: latexmk fails and names the log.
           "LATEXOPTS": "-interaction=nonstopmode -halt-on-error -file-line-error"}
    _run(python, "-c", "from jupyter_book.cli.main import main; main()", "build", ROOT,
         "--builder", "pdflatex", "--path-output", ROOT, "--warningiserror", "--keep-going",
         env=env)
    PDF.mkdir(parents=True, exist_ok=True)
    for name in ("book", "book-student"):
        shutil.copy2(latex / f"{name}.pdf", PDF / f"{name}.pdf")
    _record_built("pdf", project)
    publish_pdf(BUILD / "html", "book.pdf")
    publish_pdf(BUILD / "student" / "_build" / "html", "book-student.pdf")
    print(f"\nBuilt the PDFs in {time.perf_counter() - start:.0f} s: "
          + ", ".join(str(p) for p in written))
    return written


def publish_pdf(site: Path, name: str) -> None:
    """Copy _build/pdf/NAME into a built site, where its header's PDF button points."""
    if (site / "index.html").exists() and (PDF / name).exists():
        shutil.copy2(PDF / name, site / name)


def cmd_slides(argv: list[str]) -> None:
    """Each chapter's reveal.js deck, in both editions, from the execution cache.

    ``book`` writes them too (``_ext/slides.py`` runs when each edition's HTML
    build finishes); this rewrites them alone, after a change of the marked
    cells, without building the site again (no notebook runs either, unless
    its code changed since the cache was filled).
    """
    python = ensure_venv()
    execute_notebooks(python)
    start = time.perf_counter()
    for language, site in (("en", BUILD / "html"), ("zh_CN", BUILD / "html" / "zh_CN")):
        _run(python, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import slides; "
             "from pathlib import Path; slides.build_site_decks(Path(sys.argv[2]), sys.argv[3])",
             ROOT / "_ext", site, language, env=_env())
    print(f"Wrote the decks in {time.perf_counter() - start:.0f} s: "
          f"{BUILD / 'html' / 'slides'}, {BUILD / 'html' / 'zh_CN' / 'slides'}")


def cmd_pdf(argv: list[str]) -> None:
    if not ensure_tex():
        sys.exit(2)
    build_pdf(ensure_venv())


def cmd_book(argv: list[str]) -> None:
    if "--no-solutions" in argv:
        build_student_book(ensure_venv(), fresh="--fresh" in argv)
    else:
        python = ensure_venv()
        build_editions(python, fresh="--fresh" in argv, languages=_languages(argv))
        # The header's PDF button points at the printed book: build it too
        # where TeX Live is installed (never installed from here: 600 MB).
        if not missing_tex_packages():
            build_pdf(python)
        else:
            print("The header's PDF button needs the printed book: install TeX Live and run "
                  "`python scripts/tasks.py pdf` (it names the packages).", flush=True)


def _languages(argv: list[str]) -> tuple[str, ...]:
    """``--language en`` or ``--language zh_CN``: one edition; both without it."""
    if "--language" not in argv:
        return LANGUAGES
    at = argv.index("--language")
    if at + 1 >= len(argv) or argv[at + 1] not in LANGUAGES:
        sys.exit(f"usage: python scripts/tasks.py book --language {{{','.join(LANGUAGES)}}}")
    return (argv[at + 1],)


def _ensure_debian_package(binary: Path, package: str, purpose: str) -> None:
    """Install Debian's ``package`` (which provides ``binary``) when missing and we can.

    Where it cannot be installed (not root, no apt-get), say what is skipped.
    """
    if binary.exists():
        return
    apt = shutil.which("apt-get")
    is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if apt and is_root:
        print(f"Installing {package} for {purpose} ...", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for command in ([apt, "update", "-qq"], [apt, "install", "-y", "-qq", package]):
            if subprocess.run(command, env=env).returncode:
                break
        if binary.exists():
            return
        reason = f"apt-get could not install {package}"
    else:
        reason = "no apt-get on this system" if not apt else "not running as root"
    print(f"No {binary} ({reason}): {purpose} is skipped or degraded; install {package}.",
          flush=True)


def ensure_browser() -> None:
    """Debian's Chromium for the site's browser test (never a downloaded browser).

    tests/test_site.py drives ``/usr/bin/chromium`` (or ``$CHROMIUM``) with
    Playwright. Without it the browser tests skip with the reason, and fail
    under CI=true.
    """
    _ensure_debian_package(Path(os.environ.get("CHROMIUM", "/usr/bin/chromium")), "chromium",
                           "the browser test of the site")


def ensure_sandbox() -> None:
    """bubblewrap, which makes the grader's sandbox read-only outside a submission's folder."""
    _ensure_debian_package(Path("/usr/bin/bwrap"), "bubblewrap",
                           "the homework grader's filesystem isolation")


def _phase(classname: str) -> str:
    """The phase a test belongs to, from its JUnit class name."""
    if classname.startswith("chapters"):
        return "notebooks (nbval)"
    if classname.startswith("mlcore"):
        return "doctests"
    for module, phase in [("tests.test_homework", "homework"), ("tests.test_site", "site"),
                          ("tests.test_pdf", "pdf"), ("tests.test_slides", "slides"),
                          ("tests.test_widgets_speed", "figure speed"),
                          ("tests.test_properties", "property tests"),
                          ("tests.test_i18n", "Chinese edition")]:
        if classname.startswith(module):
            return phase
    return "unit tests"


def timing_table(junit_xml: Path, build_seconds: float, pytest_seconds: float) -> str:
    """Per-phase timings of a test run, from pytest's JUnit report, as a printable table.

    Test times are summed over the workers (worker-seconds), so a phase's
    share shows where the time goes even when the workers run in parallel.
    """
    import xml.etree.ElementTree as ElementTree

    totals: dict[str, list[float]] = {}
    for case in ElementTree.parse(junit_xml).getroot().iter("testcase"):
        phase = _phase(case.get("classname", ""))
        entry = totals.setdefault(phase, [0, 0.0])
        entry[0] += 1
        entry[1] += float(case.get("time", 0.0))
    summed = sum(t for _, t in totals.values()) or 1.0
    lines = ["", "Timing by phase (test times summed over workers):",
             f"  {'phase':<20} {'tests':>6} {'seconds':>9} {'share':>7}",
             f"  {'site build (wall)':<20} {'':>6} {build_seconds:>9.0f} {'':>7}"]
    for phase, (count, seconds) in sorted(totals.items(), key=lambda kv: -kv[1][1]):
        lines.append(f"  {phase:<20} {count:>6} {seconds:>9.0f} {seconds / summed:>7.0%}")
    lines.append(f"  {'pytest (wall)':<20} {sum(c for c, _ in totals.values()):>6} {pytest_seconds:>9.0f}")
    return "\n".join(lines)


# `test --fast NN` runs, beside what concerns chapter NN, these cheap checks of the
# whole repository (a few seconds): notebooks in sync, code width, import rules.
_FAST_ALWAYS = ("tests/test_repository.py", "tests/test_code_width.py", "tests/test_imports.py")
# Files whose tests are parametrized by chapter: a one-chapter run keeps only that
# chapter's tests of them (tests/conftest.py, --chapter).
_FAST_BY_CHAPTER = ("tests/test_homework.py", "tests/test_wrong_solutions.py",
                    "tests/test_i18n.py", "tests/test_chapter_warnings.py",
                    "tests/test_site.py", "tests/test_site_phone.py", "tests/test_slides.py")


def chapter_modules(notebook: Path) -> list[str]:
    """The ``mlcore`` topic modules a chapter notebook imports (``from mlcore.X import``).

    Read from the notebook's code cells, so a chapter that starts to use another
    module gets that module's tests in ``test --fast`` without a table to update.
    """
    import re

    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    found = re.compile(r"^\s*(?:from|import)\s+mlcore\.([A-Za-z]\w*)", re.MULTILINE)
    names = {name for cell in cells if cell["cell_type"] == "code"
             for name in found.findall("".join(cell["source"]))}
    return sorted(names)


def _fast_selection(argv: list[str]) -> tuple[list[str], list[str]]:
    """``--fast NN`` -> (pytest paths, extra options) for one chapter; else the whole book.

    One chapter: its notebook (nbval); the tests (``tests/test_X.py``) and the
    doctests (``mlcore/X``) of each ``mlcore`` module X the notebook imports; its
    tests in the files parametrized by chapter (homework, wrong solutions, the
    Chinese catalog, warnings, its site page and deck); the cheap repository-wide
    checks. Collecting only these files is part of the saving: pytest imports no
    other test module.
    """
    if "--fast" not in argv:
        return ["tests", "mlcore", "chapters"], argv
    at = argv.index("--fast")
    if at + 1 >= len(argv) or not argv[at + 1].isdigit():
        sys.exit("usage: python scripts/tasks.py test --fast NN   (NN: a chapter number, e.g. 03)")
    number = f"{int(argv[at + 1]):02d}"
    notebooks = sorted((ROOT / "chapters").glob(f"{number}_*.ipynb"))
    if not notebooks:
        sys.exit(f"--fast {argv[at + 1]}: there is no chapters/{number}_*.ipynb")
    paths = [notebooks[0].relative_to(ROOT).as_posix()]
    for module in chapter_modules(notebooks[0]):
        paths += [candidate for candidate in (f"tests/test_{module}.py", f"mlcore/{module}",
                                              f"mlcore/{module}.py")
                  if (ROOT / candidate).exists()]
    paths += [name for name in (*_FAST_BY_CHAPTER, *_FAST_ALWAYS) if (ROOT / name).exists()]
    rest = argv[:at] + argv[at + 2:]
    return list(dict.fromkeys(paths)), ["--chapter", number, *rest]


# The whole command after `book`, on an idle 2-core machine, and `test --fast NN`
# (CONTRIBUTING.md, "The test budget").
BUDGET_SECONDS = 900
FAST_BUDGET_SECONDS = 180


def _machine_line() -> str:
    """The cores and the load the timings below were measured with (a shared machine is slower)."""
    try:
        load = f"{os.getloadavg()[0]:.2f}"
    except (AttributeError, OSError):   # Windows has no load average
        load = "unknown"
    return f"Machine: {os.cpu_count()} cores, 1-minute load average {load}"


def cmd_test(argv: list[str]) -> None:
    everything = time.perf_counter()
    print(_machine_line(), flush=True)
    paths, argv = _fast_selection(argv)
    python = ensure_venv()
    ensure_browser()
    ensure_sandbox()
    # mlcore is installed editable, and where PYTHONDONTWRITEBYTECODE is set
    # (many CI and Docker images) nothing writes its bytecode: each of the
    # run's hundreds of Pythons (kernels, the grader's sandboxed runs, the
    # workers) would compile it again. Python reads this bytecode either way.
    _run(python, "-m", "compileall", "-q", "-j", "0", ROOT / "mlcore")
    start = time.perf_counter()
    build_editions(python)
    build_seconds = time.perf_counter() - start
    # The printed book, checked by tests/test_pdf.py (skipped without TeX Live,
    # failed under CI=true); not for one chapter (--fast).
    if "--chapter" not in argv and ensure_tex():
        pdf_start = time.perf_counter()
        build_pdf(python)
        print(f"PDF build (wall): {time.perf_counter() - pdf_start:.0f} s", flush=True)
    # One pytest run so that its closing line counts everything: unit tests,
    # doctests of mlcore, every chapter notebook under nbval (a second, fresh
    # run of each notebook, independent of the build's cached one), the site tests.
    # --dist loadgroup: each xdist group runs whole on one worker, in collection
    # order. tests/conftest.py groups every test: a file's tests together (a
    # notebook's nbval cells share one kernel; a module's fixtures are built
    # once), except the tests marked with a group of their own (a chapter's
    # homework verification, a page of the site), which spread over the
    # workers. It also sorts the groups longest first; loadgroup's scheduler
    # is loadscope's, whose default reorder (most tests first) would undo
    # that: --no-loadscope-reorder keeps the order.
    workers = os.environ.get("TEST_WORKERS", "2")
    report = BUILD / "test-report.xml"
    # The homework fixtures are inputs of tests/test_homework.py (one sleeps
    # for a minute as a "heavy" demo), not chapters to collect.
    command = [str(python), "-m", "pytest", *paths,
               "--ignore=tests/homework_fixtures",
               "--doctest-modules", "--nbval-lax", "--nbval-current-env",
               "-n", workers, "--dist", "loadgroup", "--no-loadscope-reorder",
               "-q", "-rs", "--durations=15", f"--junitxml={report}", *argv]
    print("+", " ".join(command), flush=True)
    pytest_start = time.perf_counter()
    returncode = subprocess.run(command, cwd=ROOT, env=_env()).returncode
    if report.exists():
        print(timing_table(report, build_seconds, time.perf_counter() - pytest_start))
    print(f"Test command finished in {time.perf_counter() - start:.0f} s")
    print(_machine_line())
    budget = (f"budget {BUDGET_SECONDS} s" if "--chapter" not in argv
              else f"budget {FAST_BUDGET_SECONDS} s for one chapter")
    print(f"total wall: {time.perf_counter() - everything:.0f} s ({budget})")
    if returncode:
        sys.exit(returncode)


LAB = ROOT / "my-notebooks"


def _by_path(name: str, relative: str):
    """A standard-library-only module of mlcore, loaded by path: this script may
    run on a Python without mlcore's dependencies."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _notebook_text():
    """mlcore/_notebook_text.py (the plain-Markdown rewriting and its words)."""
    return _by_path("_notebook_text", "mlcore/_notebook_text.py")


def lab_folder(language: str = "en") -> Path:
    """``my-notebooks/`` for English, ``my-notebooks-zh_CN/`` for Chinese copies."""
    return LAB if language == "en" else LAB.with_name(f"{LAB.name}-{language}")


def lab_copies(language: str = "en") -> list[Path]:
    """Write each chapter notebook into ``my-notebooks/`` unless a copy is already there.

    JupyterLab then works on the copies: a student's saved outputs and edits
    never touch the tracked ``chapters/`` (which are committed clean and
    checked by ``scripts/sync_notebooks.py --check``), and a later run keeps
    the student's work. The copies' Markdown is plain Markdown
    (``mlcore._notebook_text``): JupyterLab shows MyST directives as raw
    text and a self-check's key as a ticked box; a theorem shows the number
    the website gives it, and so does a reference to it. With
    ``language="zh_CN"`` the copies go to ``my-notebooks-zh_CN/``, their
    Markdown translated from the Chinese edition's catalogs
    (``mlcore/homework/editions/_translate.py``) and the words the rewriting adds in
    Chinese too. Returns the notebooks written now.
    """
    text = _notebook_text()
    text.check_language(language)
    translate = (None if language == "en"
                 else _by_path("_translate", "mlcore/homework/editions/_translate.py"))
    bibliography = text.read_bibliography(ROOT / "chapters" / "references.bib")
    folder = lab_folder(language)
    folder.mkdir(exist_ok=True)
    copied = []
    labels = text.book_labels(ROOT / "chapters")   # references between chapters
    for notebook in sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb")):
        target = folder / notebook.name
        if target.exists():
            continue
        content = json.loads(notebook.read_text(encoding="utf-8"))
        if translate is not None:
            catalog = translate.catalog_path(notebook, language, root=ROOT)
            if catalog.is_file():
                content, _ = translate.translate_notebook(content,
                                                          translate.read_catalog(catalog))
        numbers = {**labels, **text.proof_numbers(content, notebook.stem)}
        for cell in content["cells"]:
            if cell["cell_type"] == "markdown":
                source = "".join(cell["source"])
                cell["source"] = text.plain_markdown(
                    source, bibliography, language=language,
                    numbers=numbers).splitlines(keepends=True)
        target.write_text(json.dumps(content, indent=1, ensure_ascii=False) + "\n",
                          encoding="utf-8")
        copied.append(target)
    return copied


def cmd_lab(argv: list[str]) -> None:
    language = "en"
    if "--language" in argv:
        at = argv.index("--language")
        if at + 1 >= len(argv) or argv[at + 1] not in LANGUAGES:
            sys.exit(f"usage: python scripts/tasks.py lab --language {{{','.join(LANGUAGES)}}}")
        language = argv[at + 1]
        argv = argv[:at] + argv[at + 2:]
    python = ensure_venv()
    copied = lab_copies(language)
    folder = lab_folder(language)
    print(f"JupyterLab opens your copies in {folder} ({len(copied)} new); "
          "delete one there to start that chapter afresh.", flush=True)
    _run(python, "-m", "jupyterlab", "--notebook-dir", folder, *argv)


def cmd_lock(argv: list[str]) -> None:
    """Resolve requirements.in in a scratch environment and write the exact pins."""
    scratch = BUILD / "lock-venv"
    if scratch.exists():
        shutil.rmtree(scratch)
    venv.EnvBuilder(with_pip=True).create(scratch)
    sub = "Scripts/python.exe" if os.name == "nt" else "bin/python"
    python = scratch / sub
    _run(python, "-m", "pip", "install", "--quiet", "-r", ROOT / "requirements.in")
    frozen = subprocess.run([str(python), "-m", "pip", "freeze", "--exclude-editable"],
                            capture_output=True, text=True, check=True).stdout
    header = ("# Generated by `python scripts/tasks.py lock` from requirements.in;"
              " do not edit by hand.\n")
    (ROOT / "requirements.txt").write_text(header + frozen)
    shutil.rmtree(scratch)
    print("Wrote requirements.txt")


COMMANDS = {"book": cmd_book, "pdf": cmd_pdf, "slides": cmd_slides, "test": cmd_test,
            "lab": cmd_lab, "lock": cmd_lock}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        sys.exit(f"usage: python scripts/tasks.py {{{','.join(COMMANDS)}}} [args]")
    COMMANDS[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
