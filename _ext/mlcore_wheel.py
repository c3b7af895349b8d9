"""mlcore's wheel on the site: a downloaded notebook can install its library without the repository.

Registered in ``_config.yml`` under ``sphinx.local_extensions``. When an HTML
build finishes it copies a pure-Python wheel of ``mlcore``, built from this
tree (no chapters, no network: ``pip wheel --no-deps --no-build-isolation
--no-index``, the builder of ``mlcore.homework``'s class bundle), to
``_static/mlcore-<version>-py3-none-any.whl``. The notebooks' hidden setup cell
(``scripts/sync_notebooks.py``) names that file and the ``pip install`` line,
or installs it from ``html.baseurl`` when the site's address is configured.

The wheel is built once per state of ``mlcore/`` and ``pyproject.toml`` and
kept in ``_build/mlcore-wheel/<hash>/``: a rebuild of the site that changed no
code of mlcore costs a copy, not a build.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "_build" / "mlcore-wheel"


def source_hash() -> str:
    """SHA-256 of the files the wheel is made of (mlcore/ without caches, pyproject.toml)."""
    digest = hashlib.sha256()
    files = [ROOT / "pyproject.toml"] + sorted(
        p for p in (ROOT / "mlcore").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    for path in files:
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def site_wheel() -> Path:
    """The wheel of the current tree, built now or taken from the cache."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from sync_notebooks import wheel_name
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    cached = CACHE / source_hash()[:16] / wheel_name()
    if cached.is_file():
        return cached
    from mlcore.homework.editions._bundle import _wheel

    with tempfile.TemporaryDirectory() as folder:
        built = _wheel(Path(folder))
        if built.name != cached.name:
            raise RuntimeError(f"pip built {built.name}, but the notebooks' setup cell names "
                               f"{cached.name} (scripts/sync_notebooks.py's wheel_name).")
        if CACHE.exists():
            shutil.rmtree(CACHE)      # one state of the tree is kept
        cached.parent.mkdir(parents=True)
        shutil.copy(built, cached)
    return cached


def _copy_wheel(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    for old in static.glob("mlcore-*.whl"):
        old.unlink()
    shutil.copy(site_wheel(), static)


def setup(app):
    app.connect("build-finished", _copy_wheel)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
