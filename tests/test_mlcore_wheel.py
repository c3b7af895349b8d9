"""A downloaded chapter notebook finds mlcore without the repository (UX review D15).

Every HTML build puts mlcore's wheel in the site's ``_static/``
(``_ext/mlcore_wheel.py``), and each notebook's hidden setup cell names it
and the exact ``pip install`` line when mlcore is missing, or installs it from
the site's address (``html.baseurl``) when that is configured. The built
site's wheel installs with pip (``--no-deps --target``: cheap, no network)
and holds exactly this tree's mlcore.
"""

import importlib.util
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("SITE_HTML", ROOT / "_build" / "html")).resolve()
sys.path.insert(0, str(ROOT / "scripts"))
import sync_notebooks  # noqa: E402

WHEEL = sync_notebooks.wheel_name()


def _run_setup_cell(source: str) -> str:
    """Run a setup cell as if mlcore were missing; return the error it raises."""
    missing = source.replace('find_spec("mlcore")', 'find_spec("mlcore_is_not_installed_here")')
    assert missing != source
    with pytest.raises(ImportError) as raised:
        exec(compile(missing, "setup-cell", "exec"), {"importlib": importlib})
    return str(raised.value)


def test_without_a_repository_the_setup_cell_names_the_wheel_and_the_command():
    message = _run_setup_cell(sync_notebooks.setup_cell_source({"repository": {"url": ""}}))
    assert f"pip install https://<the course website>/_static/{WHEEL}" in message
    assert "git+" not in message


def test_with_the_sites_address_the_setup_cell_installs_the_wheel_from_it():
    source = sync_notebooks.setup_cell_source(
        {"repository": {"url": ""}, "html": {"baseurl": "https://example.org/course/"}})
    assert f'%pip install --quiet "https://example.org/course/_static/{WHEEL}"' in source
    # The repository, when set, still comes first (Binder and Colab run its branch).
    with_both = sync_notebooks.setup_cell_source(
        {"repository": {"url": "https://github.com/example-org/course", "branch": "main"},
         "html": {"baseurl": "https://example.org/course/"}})
    assert "git+https://github.com/example-org/course@main" in with_both and WHEEL not in with_both


def test_every_chapter_carries_the_current_setup_cell():
    expected = sync_notebooks.setup_cell_source(sync_notebooks.load_config())
    import json
    for chapter in sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb")):
        cells = json.loads(chapter.read_text(encoding="utf-8"))["cells"]
        setup = next(c for c in cells if "setup" in c["metadata"].get("tags", []))
        assert "".join(setup["source"]) == expected, chapter.name


def test_the_built_site_serves_a_wheel_of_this_mlcore_that_installs_and_imports(tmp_path):
    if not (SITE / "index.html").exists():
        pytest.skip(f"no built site in {SITE}: run `python scripts/tasks.py book` first")
    wheel = SITE / "_static" / WHEEL
    assert wheel.is_file(), f"the site has no {WHEEL} in _static/ (is _ext/mlcore_wheel.py on?)"
    with zipfile.ZipFile(wheel) as packed:
        assert not [n for n in packed.namelist() if n.endswith(".ipynb")]
    target = tmp_path / "site-packages"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    "--disable-pip-version-check", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, text=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONPATH=str(target), MLCORE_QUIET="1")
    shown = subprocess.run(
        [sys.executable, "-c", "import mlcore, mlcore.datasets as d; "
                               "print(mlcore.__file__); print(d.load_wine_quality(\"red\", return_X_y=True)[0].shape)"],
        cwd=tmp_path, env=env, check=True, capture_output=True, text=True).stdout.split("\n")
    assert Path(shown[0]).is_relative_to(target)        # the wheel's mlcore, not the checkout's
    assert shown[1] == "(1599, 11)"                      # its data files came along
    # The wheel is this tree's mlcore, data included: a stale wheel fails here.
    tree = {p.relative_to(ROOT).as_posix(): p.read_bytes() for p in (ROOT / "mlcore").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}
    installed = {p.relative_to(target).as_posix(): p.read_bytes()
                 for p in (target / "mlcore").rglob("*")
                 if p.is_file() and "__pycache__" not in p.parts}
    assert installed == tree
