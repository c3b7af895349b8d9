"""``self-check``: multiple-choice questions that answer on the static site.

A chapter writes, in a Markdown cell::

    :::{self-check} Which function maps log-odds back to a probability?
    - [ ] The logit. ~ No: the logit goes the other way.
    - [x] The sigmoid $\\sigma(z)$. ~ Yes: it inverts the logit.
    :::

Each option line is ``- [x]`` (correct) or ``- [ ]`` (wrong), the option's
text, `` ~ `` and the feedback shown when the reader picks it. The question,
options and feedback are MyST inline text, so math works. On the page a click
(or Enter) on an option reveals its feedback; no kernel and no network are
needed, only ``selfcheck.js`` served with the site.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

# The one reader of the self-check format, shared with the notebooks students
# open and the LMS quizzes, so the three cannot read a self-check differently.
from mlcore._notebook_text import parse_self_check

__all__ = ["SelfCheck", "setup"]

# The verdict shown before an option's feedback (right, wrong), per language
# of the build (conf.py's `language`); two words do not need a catalog.
_VERDICTS = {"en": ("Correct.", "Not quite."), "zh_CN": ("正确。", "不对。")}
# The heading of the printed answer section, likewise.
_ANSWERS_HEADING = {"en": "Answers to the self-checks", "zh_CN": "自测题答案"}


class SelfCheck(SphinxDirective):
    """The ``self-check`` directive: a question, then one option per content line."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True

    def _inline(self, text: str, classes: list[str]) -> nodes.paragraph:
        children, messages = self.state.inline_text(text, self.lineno)
        # The raw text and the source location make the paragraph a message
        # that Sphinx's gettext builder extracts and its Locale transform
        # replaces (sphinx.util.nodes.is_translatable needs both).
        paragraph = nodes.paragraph(text, "", *children, classes=classes)
        self.set_source_info(paragraph)
        paragraph.extend(messages)
        return paragraph

    def _feedback(self, verdict: str, text: str) -> nodes.paragraph:
        """``**verdict** feedback``: only the feedback is a message to translate.

        The verdict is the directive's own word (_VERDICTS), so translators do
        not translate "Correct." in every one of the book's options.
        """
        children, messages = self.state.inline_text(text, self.lineno)
        feedback = nodes.inline(text, "", *children, translatable=True)
        self.set_source_info(feedback)
        paragraph = nodes.paragraph("", "", nodes.strong(verdict, verdict),
                                    classes=["self-check-feedback"])
        if text:
            paragraph += [nodes.Text(" "), feedback]
        paragraph.extend(messages)
        return paragraph

    def run(self) -> list[nodes.Node]:
        # parse_self_check drops a feedback's own verdict ("Yes: ..."), which
        # would read "Correct. Yes: ..." after the directive's verdict.
        try:
            check = parse_self_check(self.arguments[0], list(self.content))
        except ValueError as error:
            raise self.error(str(error)) from None
        box = nodes.container(classes=["self-check"])
        box += self._inline(self.arguments[0], ["self-check-question"])
        verdicts = _VERDICTS.get(self.config.language or "en", _VERDICTS["en"])
        for choice in check.options:
            option = nodes.container(classes=["self-check-option",
                                              "self-check-correct" if choice.correct
                                              else "self-check-wrong"])
            option += self._inline(choice.text, ["self-check-text"])
            option += self._feedback(verdicts[0 if choice.correct else 1], choice.feedback)
            box += option
        return [box]


def _is_self_check(node) -> bool:
    return isinstance(node, nodes.container) and "self-check" in node["classes"]


def _answer_section(app, doctree, docname) -> None:
    """The chapter's self-check keys, numbered, in a box at its end: shown only in print.

    On screen a reader answers by clicking; on paper the key under each
    question would give it away, so the printed page (see selfcheck.css)
    shows the questions numbered and this list of answers at the end.
    """
    questions = [node for node in doctree.findall(_is_self_check)]
    if not questions:
        return
    answers = nodes.enumerated_list(enumtype="arabic", prefix="", suffix=".")
    for question in questions:
        item = nodes.list_item()
        item += question.children[0].deepcopy()   # the question
        for option in question.findall(nodes.container):
            if "self-check-correct" in option["classes"]:
                text, feedback = option.children[0].deepcopy(), option.children[1].deepcopy()
                text["classes"] = ["self-check-answer"]
                feedback["classes"] = ["self-check-answer-why"]
                item += [text, feedback]
        answers += item
    box = nodes.container(classes=["self-check-answers"])
    language = app.config.language or "en"
    box += nodes.rubric("", _ANSWERS_HEADING.get(language, _ANSWERS_HEADING["en"]))
    box += answers
    sections = list(doctree.findall(nodes.section))
    (sections[0] if sections else doctree).append(box)


def _add_static_path(app) -> None:
    static = str(Path(__file__).parent / "selfcheck_static")
    if static not in app.config.html_static_path:
        app.config.html_static_path.append(static)


def setup(app):
    app.add_directive("self-check", SelfCheck)
    app.connect("builder-inited", _add_static_path)
    app.connect("doctree-resolved", _answer_section)
    app.add_css_file("selfcheck.css")
    app.add_js_file("selfcheck.js")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
