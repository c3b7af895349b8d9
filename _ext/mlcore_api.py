"""``mlcore-api``: the API reference of every public ``mlcore`` module, found at build time.

The directive takes no arguments. It lists the public modules of the
``mlcore`` package (every module or subpackage whose name does not start
with an underscore), and writes for each a section titled with the module's
name, holding ``automodule`` with its members; a module added to ``mlcore``
appears in the reference at the next build with no edit. Docstrings are
numpydoc, rendered by ``sphinx.ext.napoleon``; each module's ``__all__``
decides which members are shown.

Used once, in ``chapters/api.md``::

    :::{mlcore-api}
    :::

Chapters link a function with ``{py:func}`mlcore.bounds.finite_class_sample_size```
(or ``{py:class}``, ``{py:mod}``).
"""

from __future__ import annotations

import importlib
import pkgutil
import re

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


def public_modules(package: str = "mlcore") -> list[str]:
    """Dotted names of the public modules and subpackages of ``package``, sorted.

    Parameters
    ----------
    package : str
        An importable package.

    Returns
    -------
    list of str
        ``package.name`` for each direct submodule whose ``name`` does not
        start with ``_``.
    """
    module = importlib.import_module(package)
    return sorted(f"{package}.{info.name}" for info in pkgutil.iter_modules(module.__path__)
                  if not info.name.startswith("_"))


class MlcoreApi(SphinxDirective):
    """Write one section with ``automodule`` per public module of ``mlcore``."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        # The page is MyST Markdown: headings in Markdown, and autodoc inside
        # eval-rst, since docstrings are reStructuredText (numpydoc).
        lines = []
        for name in public_modules("mlcore"):
            lines += [f"## `{name}`", "", "```{eval-rst}",
                      f".. automodule:: {name}",
                      "   :members:",
                      "   :show-inheritance:",
                      "```", ""]
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="mlcore-api"), container)
        return container.children


_SKLEARN_GENERATED = re.compile(r"set_\w+_request")


def _skip_generated_members(app, what, name, obj, skip, options):
    # scikit-learn writes set_fit_request & co. into every estimator class it
    # derives (metadata routing); they are sklearn's, documented there.
    if _SKLEARN_GENERATED.fullmatch(name):
        return True
    return None


def setup(app):
    """Register the directive and the autodoc/napoleon settings it relies on."""
    app.setup_extension("sphinx.ext.autodoc")
    app.setup_extension("sphinx.ext.napoleon")
    app.add_directive("mlcore-api", MlcoreApi)
    app.connect("autodoc-skip-member", _skip_generated_members)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
