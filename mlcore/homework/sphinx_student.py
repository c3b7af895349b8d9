"""Sphinx extension for the student website: every exercise solution removed.

``python scripts/tasks.py book --no-solutions`` builds the book with this
extension added (config from :func:`write_student_config`). sphinx-exercise's
own ``hide_solutions`` is not enough for this book: it drops a
``{solution-start}`` directive but leaves the cells up to ``{solution-end}``
(the solution code) on the page, because the gated solution is then never
merged. So this extension lets sphinx-exercise merge gated solutions as
usual, then removes every solution node, and every cell tagged ``solution``
or ``hidden-tests`` wherever it is.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.transforms import SphinxTransform

__all__ = ["RemoveSolutions", "write_student_config", "setup"]

BANNER = ("Student edition of the course: the solutions of the exercises are hidden while "
          "your class works on them.")


class RemoveSolutions(SphinxTransform):
    """Remove solution directives (merged gated ones included) and solution cells."""

    # After sphinx-exercise's MergeGatedSolutions (priority 10).
    default_priority = 50

    def apply(self, **kwargs) -> None:
        from sphinx_exercise.nodes import solution_node
        doomed = list(self.document.findall(solution_node))
        doomed += [node for node in self.document.findall()
                   if set(getattr(node, "get", lambda *_: [])("classes", []) or [])
                   & {"tag_solution", "tag_hidden-tests"}]
        for node in doomed:
            if node.parent is not None:
                node.parent.remove(node)


def write_student_config(root, out) -> Path:
    """Write the book's ``_config.yml`` plus this extension and a banner to ``out``.

    Relative ``local_extensions`` paths become absolute, since jupyter-book
    reads them relative to the config file.

    Parameters
    ----------
    root : path-like
        The repository (holds ``_config.yml``).
    out : path-like
        The config file to write.

    Returns
    -------
    Path
    """
    import yaml
    root, out = Path(root).resolve(), Path(out)
    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
    sphinx = config.setdefault("sphinx", {})
    local = sphinx.get("local_extensions") or {}
    sphinx["local_extensions"] = {name: str((root / path).resolve())
                                  for name, path in local.items()}
    extensions = sphinx.setdefault("extra_extensions", [])
    if __name__ not in extensions:
        extensions.append(__name__)
    config.setdefault("html", {})["announcement"] = BANNER
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return out


def setup(app):
    """Register the transform (Sphinx extension entry point)."""
    app.add_transform(RemoveSolutions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
