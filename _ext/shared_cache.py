"""One execution cache for every build of the book.

myst-nb keeps executed notebooks in ``<output>/_build/.jupyter_cache`` unless
``execute.cache`` names a folder, and resolves a relative name against the
working directory. So the student site (``--path-output _build/student``),
the PDF and a translated edition each started an empty cache and executed
every chapter again. ``_config.yml`` names ``_build/.jupyter_cache``; this
extension makes a relative name relative to the book's folder (Sphinx's
source folder), whatever the working directory or output path, so every
build reads the cache that ``scripts/execute_notebooks.py`` fills.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["resolve_cache_path", "setup"]


def resolve_cache_path(app, config) -> None:
    """Make a relative ``nb_execution_cache_path`` absolute, under the book's folder."""
    value = config.nb_execution_cache_path
    if value and not Path(value).is_absolute():
        config.nb_execution_cache_path = str((Path(app.srcdir) / value).resolve())


def setup(app):
    """Sphinx extension entry point; runs before myst-nb reads the value (builder-inited)."""
    app.connect("config-inited", resolve_cache_path)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
