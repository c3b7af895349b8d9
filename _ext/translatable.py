"""Make the text that sphinx-exercise parses itself translatable.

Sphinx's gettext builder extracts, and its Locale transform replaces, only
text nodes that carry their raw source text and a source location
(``sphinx.util.nodes.is_translatable``). sphinx-exercise 1.2 builds an
exercise's subtitle (``{exercise} Labels in $\\{-1, +1\\}$``) from the
directive's argument without either, so the Chinese edition would keep every
exercise title in English. The subclasses below run sphinx-exercise's own
directives and only add the raw text and location to that subtitle; the
exercise's body is ordinary nested Markdown, translatable already.

The gettext builder extracts messages from the *resolved* doctree, where
sphinx-exercise's ResolveTitlesInExercises post-transform has already merged
the subtitle into a plain title ("Exercise (Labels in ...)"), while the Locale
transform translates the doctree as *read*. So that both see the same
messages, the gettext builder runs without that post-transform (it only
formats titles for display), and the generated "Exercise" + subtitle title
itself is not a message.

``NotMessages`` marks two kinds of text not translatable, before extraction
and before the Locale transform:

- the API reference's docstrings (chapters/api.md): mlcore's source, the text
  help() prints in a notebook of either language, changing with the code
  (~1,100 messages that would go stale at every refactoring); the page's own
  prose and headings are messages like any other;
- display math (``$$…$$``, ``{math}`` blocks): Sphinx extracts math blocks
  as messages, but a formula is the same in both editions, and a translator
  could only copy it or break it;
- the glossary's terms ("logit (对数几率)"): already bilingual, and the
  target every chapter's {term} reference names; a translated term would be
  registered under its new text and every reference would break.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx_exercise.directive import ExerciseDirective, ExerciseStartDirective
from sphinx_exercise.nodes import (exercise_enumerable_node, exercise_node, exercise_subtitle,
                                   exercise_title, solution_title)
from sphinx_exercise.post_transforms import ResolveTitlesInExercises

__all__ = ["setup"]


def _with_translatable_subtitle(directive_class):
    class Translatable(directive_class):
        def run(self):
            result = super().run()
            if self.arguments:
                for node in result:
                    for title in node.findall(exercise_title):
                        title["translatable"] = False
                    for subtitle in node.findall(exercise_subtitle):
                        subtitle.rawsource = self.arguments[0]
                        self.set_source_info(subtitle)
            return result

    Translatable.__name__ = f"Translatable{directive_class.__name__}"
    return Translatable


class TableCellSources(SphinxTransform):
    """Give notebook table cells the source that makes them messages.

    In a notebook's Markdown table, myst-nb leaves the cells' paragraphs
    without a source file (a Markdown page's get it), so gettext skipped
    every table cell of the chapters. The cell's text is already its raw
    source; only the file is missing.
    """

    default_priority = 15  # before sphinx.transforms.i18n.Locale (20)

    def apply(self, **kwargs) -> None:
        for entry in self.document.findall(nodes.entry):
            for node in entry.findall(nodes.TextElement):
                if node.rawsource and not node.source:
                    node.source = self.document["source"]


class NotMessages(SphinxTransform):
    """Docstrings (autodoc), display math and glossary terms are not messages (see above)."""

    default_priority = 15  # before sphinx.transforms.i18n.Locale (20)

    def apply(self, **kwargs) -> None:
        for desc in self.document.findall(addnodes.desc):
            for node in desc.findall(nodes.TextElement):
                node["translatable"] = False
        for node in self.document.findall(nodes.TextElement):
            if ":docstring of " in (node.source or ""):
                node["translatable"] = False
        for block in self.document.findall(nodes.math_block):
            block["translatable"] = False
        # "Solution to" + a reference: sphinx-exercise's words (its own zh_CN
        # catalog), not the page's text.
        for title in self.document.findall(solution_title):
            title["translatable"] = False
        for glossary in self.document.findall(addnodes.glossary):
            for term in glossary.findall(nodes.term):
                term["translatable"] = False


def _registry_after_translation(app, doctree) -> None:
    # sphinx-exercise keeps a copy of each exercise node, made when the
    # directive ran (before the Locale transform), and builds a solution's
    # title "Solution to Exercise 1.2 (title)" from it: refresh the copies
    # with the translated exercises so the solution's title is translated too.
    registry = getattr(app.env, "sphinx_exercise_registry", {})
    for node in doctree.findall(lambda n: isinstance(n, (exercise_node, exercise_enumerable_node))):
        entry = registry.get(node.get("label"))
        if entry is not None and entry.get("docname") == app.env.docname:
            entry["node"] = node.deepcopy()


def _keep_subtitles_for_gettext(app) -> None:
    if app.builder.name == "gettext" and ResolveTitlesInExercises in app.registry.post_transforms:
        app.registry.post_transforms.remove(ResolveTitlesInExercises)


def setup(app):
    app.add_transform(TableCellSources)
    app.add_transform(NotMessages)
    app.setup_extension("sphinx_exercise")
    app.add_directive("exercise", _with_translatable_subtitle(ExerciseDirective), override=True)
    app.add_directive("exercise-start", _with_translatable_subtitle(ExerciseStartDirective),
                      override=True)
    app.connect("builder-inited", _keep_subtitles_for_gettext)
    app.connect("doctree-read", _registry_after_translation)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
