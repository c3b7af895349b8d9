"""The chapters' self-checks as LMS quizzes: Moodle XML and a QTI 1.2 zip for Canvas.

``python -m mlcore.homework quiz 01 03 --format moodle --out DIR`` reads every
``self-check`` of the chapters (:func:`mlcore._notebook_text.self_checks`, the
reader the website and the student notebooks use) and writes

* ``moodle``: ``DIR/self-checks.xml``, one ``<quiz>`` with a category per
  chapter and a ``multichoice`` question per self-check (Moodle's "Moodle XML
  format" import);
* ``qti``: ``DIR/self-checks-qti.zip``, an ``imsmanifest.xml`` and one QTI 1.2
  assessment per chapter in Canvas's flavour (Settings > Import course content
  > QTI .zip file).

Texts are HTML; math stays TeX between MathJax's delimiters ``\\( \\)`` and
``\\[ \\]`` (Moodle's MathJax filter and Canvas render them), with the book's
notation macros (``\\eps``, ``\\hH`` ...) expanded, because an LMS does not know
them. With ``language="zh_CN"`` the Markdown comes from the Chinese edition's
catalogs, as the Chinese student edition's does.
"""

from __future__ import annotations

import html
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree as ET

from ..._notebook_text import TEXT, _KINDS, _roles, read_bibliography, self_checks
from ._translate import LANGUAGES

__all__ = ["FORMATS", "Quiz", "QuizQuestion", "chapter_quiz", "moodle_xml", "qti_zip",
           "export_quizzes"]

FORMATS = ("moodle", "qti")
_NEWCOMMAND = re.compile(
    r"\\newcommand\s*\{\\(?P<name>[A-Za-z]+)\}\s*(?:\[(?P<n>\d)\])?\s*\{")
_REFERENCE = re.compile(r"\{(?:prf:ref|ref|numref)\}`(?P<body>[^`]*)`")
_EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.S)
# The word sphinx-proof and sphinx-exercise put before a referenced block's title.
_KIND_WORDS = {"en": {**_KINDS, "exercise": "Exercise"},
               "zh_CN": {"prf:theorem": "定理", "prf:lemma": "引理", "prf:corollary": "推论",
                         "prf:proposition": "命题", "prf:definition": "定义",
                         "prf:example": "例", "prf:remark": "注", "prf:algorithm": "算法",
                         "exercise": "练习"}}
# A directive's opening line and its ":key: value" option lines.
_LABELLED = re.compile(r"(?m)^[ \t]*(?:`{3,}|:{3,})\{(?P<kind>[\w:-]+)\}[ \t]*"
                       r"(?P<title>[^\n]*)\n(?P<options>(?:[ \t]*:[\w-]+:[^\n]*\n)*)")


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _document(root) -> bytes:
    ET.indent(root)
    declaration = b'<?xml version="1.0" encoding="UTF-8"?>\n'
    return declaration + ET.tostring(root, "utf-8") + b"\n"


@dataclass
class QuizQuestion:
    """One self-check as an LMS question: HTML texts, keys, feedback."""

    name: str
    text: str                   # the question, HTML
    options: list               # (HTML text, correct, HTML feedback) per option

    @property
    def single(self) -> bool:
        """Exactly one option is keyed (radio buttons, not checkboxes)."""
        return sum(correct for _, correct, _ in self.options) == 1


@dataclass
class Quiz:
    """The self-checks of one chapter."""

    chapter: str                # the notebook's stem, e.g. 01_logistic_regression
    title: str                  # "01 Logistic regression from first principles"
    questions: list


def _group(tex: str, start: int) -> tuple[str, int]:
    """The balanced ``{...}`` group opening at ``tex[start]``: (inside, index after)."""
    depth = 0
    for i in range(start, len(tex)):
        if tex[i] == "\\":
            continue
        if tex[i] == "{" and (i == 0 or tex[i - 1] != "\\"):
            depth += 1
        elif tex[i] == "}" and tex[i - 1] != "\\":
            depth -= 1
            if depth == 0:
                return tex[start + 1:i], i + 1
    raise ValueError(f"unbalanced braces in the TeX {tex[start:start + 60]!r}.")


def read_macros(notebook: dict) -> dict:
    """``{name: (arguments, body)}`` of the notebook's ``\\newcommand`` lines.

    The chapters define the book's notation in their hidden first cell
    (written by scripts/sync_notebooks.py from _config.yml).
    """
    macros = {}
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = _source(cell)
        for match in _NEWCOMMAND.finditer(source):
            body, _ = _group(source, match.end() - 1)
            macros[match["name"]] = (int(match["n"] or 0), body)
    return macros


def expand_macros(tex: str, macros: dict) -> str:
    r"""``tex`` with the notebook's macros replaced by their bodies, as TeX does.

    >>> expand_macros(r"\eps(h) \le \epshat(h)+\eps_1 \epsilon",
    ...               {"eps": (0, r"\varepsilon"), "epshat": (0, r"\hat{\varepsilon}")})
    '\\varepsilon(h) \\le \\hat{\\varepsilon}(h)+\\varepsilon_1 \\epsilon'
    >>> expand_macros(r"\norm{x}^2", {"norm": (1, r"\lVert #1\rVert")})
    '\\lVert x\\rVert^2'
    """
    if not macros:
        return tex
    pattern = re.compile(r"\\(" + "|".join(sorted(map(re.escape, macros), key=len,
                                                    reverse=True)) + r")(?![A-Za-z])")
    for _ in range(10):              # nested macros: a body may use another macro
        out, position = [], 0
        for match in pattern.finditer(tex):
            if match.start() < position:
                continue
            count, body = macros[match[1]]
            end = match.end()
            for k in range(1, count + 1):
                while end < len(tex) and tex[end] == " ":
                    end += 1
                if end < len(tex) and tex[end] == "{":
                    argument, end = _group(tex, end)
                else:
                    argument, end = tex[end:end + 1], end + 1
                body = body.replace(f"#{k}", argument)
            out += [tex[position:match.start()], body]
            position = end
        expanded = "".join(out) + tex[position:]
        if expanded == tex:
            return tex
        tex = expanded
    raise ValueError(f"the TeX macros expand without end in {tex[:60]!r}.")


def _markdown(macros: dict):
    """A MyST-inline to HTML renderer: CommonMark, with ``$`` math as MathJax TeX."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark", {"html": False})
    dollarmath_plugin(md, allow_space=True, allow_digits=True, double_inline=True)

    def inline(self, tokens, i, options, env):
        tex = html.escape(expand_macros(tokens[i].content, macros), False)
        return r"\(" + tex + r"\)"

    def display(self, tokens, i, options, env):
        tex = html.escape(expand_macros(tokens[i].content, macros), False)
        return r"\[" + tex + r"\]"

    md.add_render_rule("math_inline", inline)
    md.add_render_rule("math_inline_double", display)
    return md


def _labels(notebook: dict, language: str) -> dict:
    """``{label: "Lemma (Title)"}`` of the notebook's labelled blocks."""
    words = _KIND_WORDS.get(language, _KIND_WORDS["en"])
    found = {}
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = _source(cell)
        for match in _LABELLED.finditer(source):
            label = re.search(r"(?m)^[ \t]*:label:\s*(\S+)", match["options"])
            if label:
                word, title = words.get(match["kind"], ""), match["title"].strip()
                left, right = ("（", "）") if language == "zh_CN" else (" (", ")")
                found[label.group(1)] = (f"{word}{left}{title}{right}" if word and title
                                         else word or title)
    return found


def _chapter_title(notebook: dict, stem: str) -> str:
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            source = _source(cell)
            heading = re.search(r"(?m)^#\s+(.+?)\s*$", source)
            if heading:
                return f"{stem[:2]} {heading.group(1)}"
    return stem


def chapter_quiz(path, language: str = "en", say=print) -> Quiz:
    """Read the self-checks of one chapter notebook as LMS questions.

    Parameters
    ----------
    path : path-like
        The chapter notebook (``chapters/NN_name.ipynb``).
    language : {"en", "zh_CN"}
        ``zh_CN`` translates the Markdown from ``locales/zh_CN`` first, as the
        Chinese student edition does (untranslated text stays English, and
        ``say`` reports it).
    say : callable
        Receives notes (untranslated messages).

    Returns
    -------
    Quiz
    """
    import json

    from ._assign import _in_language
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, "
                         f"got language={language!r}.")
    path = Path(path)
    english = json.loads(path.read_text(encoding="utf-8"))
    notebook = _in_language(english, path, language, say)
    macros = read_macros(english)
    labels = _labels(notebook, language)
    bib = path.parent / "references.bib"
    bibliography = read_bibliography(bib) if bib.is_file() else {}
    md = _markdown(macros)

    def to_html(text: str, block: bool = False) -> str:
        def reference(match):
            explicit = _EXPLICIT.match(match["body"])
            if explicit:
                return explicit["text"]
            if match["body"] not in labels:
                raise ValueError(f"{path.name}: a self-check refers to "
                                 f"{match['body']!r}, which is no labelled theorem "
                                 "or exercise of the chapter.")
            return labels[match["body"]]
        # References are resolved above (the LMS has no anchors to link to).
        text = _roles(_REFERENCE.sub(reference, text), bibliography, TEXT[language], {})
        return md.render(text).strip() if block else md.renderInline(text)

    questions = []
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = _source(cell)
        for check in self_checks(source):
            number = len(questions) + 1
            options = [(to_html(o.text), o.correct, to_html(o.feedback))
                       for o in check.options]
            text = to_html(check.question, block=True)
            # The bank lists questions by name: the number and the question's start.
            plain = " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).split())
            short = plain if len(plain) <= 60 else plain[:59].rsplit(" ", 1)[0] + " …"
            questions.append(QuizQuestion(f"{path.stem[:2]}.{number:02d} {short}", text,
                                          options))
    return Quiz(path.stem, _chapter_title(notebook, path.stem), questions)


def _sub(parent, tag: str, text=None, **attributes):
    attributes = {k.rstrip("_"): str(v) for k, v in attributes.items()}
    element = ET.SubElement(parent, tag, attributes)
    if text is not None:
        element.text = text
    return element


def _text(parent, tag: str, text: str, format_: str = "html"):
    element = _sub(parent, tag, format=format_)
    _sub(element, "text", text)
    return element


def moodle_xml(quizzes) -> bytes:
    """One Moodle ``<quiz>``: a category per chapter, a ``multichoice`` per self-check.

    One keyed option: ``<single>true</single>``, the key worth 100 %, the others
    0. Several: ``false``, the keys share 100 % and the wrong options share
    -100 %, so ticking every box scores 0.
    """
    root = ET.Element("quiz")
    for quiz in quizzes:
        category = _sub(root, "question", type="category")
        _sub(_sub(category, "category"), "text",
             "$course$/top/Self-checks/" + quiz.title.replace("/", "//"))
        for q in quiz.questions:
            question = _sub(root, "question", type="multichoice")
            _sub(_sub(question, "name"), "text", q.name)
            _text(question, "questiontext", q.text)
            _text(question, "generalfeedback", "")
            _sub(question, "defaultgrade", "1")
            _sub(question, "penalty", "0")
            _sub(question, "hidden", "0")
            _sub(question, "single", "true" if q.single else "false")
            _sub(question, "shuffleanswers", "true")
            _sub(question, "answernumbering", "abc")
            right = sum(correct for _, correct, _ in q.options)
            wrong = len(q.options) - right
            for text, correct, feedback in q.options:
                share = (100 / right if correct else 0 if q.single else -100 / wrong)
                # Seven significant digits, as Moodle writes its own grade fractions.
                answer = _sub(question, "answer", fraction=f"{share:.7g}",
                              format="html")
                _sub(answer, "text", text)
                _text(answer, "feedback", feedback)
    return _document(root)


_QTI = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
_CP = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"


def _mattext(parent, text: str):
    _sub(_sub(parent, "material"), "mattext", text, texttype="text/html")


def _field(metadata, label: str, entry: str):
    field = _sub(metadata, "qtimetadatafield")
    _sub(field, "fieldlabel", label)
    _sub(field, "fieldentry", entry)


def qti_assessment(quiz: Quiz, ident: str) -> bytes:
    """One chapter as a QTI 1.2 ``<assessment>`` in Canvas's flavour."""
    root = ET.Element("questestinterop", xmlns=_QTI)
    assessment = _sub(root, "assessment", ident=ident, title=quiz.title)
    section = _sub(assessment, "section", ident="root_section")
    for number, q in enumerate(quiz.questions, 1):
        item_id = f"{ident}_q{number:02d}"
        item = _sub(section, "item", ident=item_id, title=q.name)
        metadata = _sub(_sub(item, "itemmetadata"), "qtimetadata")
        answer_ids = [f"{item_id}_{i}" for i in range(1, len(q.options) + 1)]
        _field(metadata, "question_type", "multiple_choice_question" if q.single
               else "multiple_answers_question")
        _field(metadata, "points_possible", "1.0")
        _field(metadata, "original_answer_ids", ",".join(answer_ids))
        presentation = _sub(item, "presentation")
        _mattext(presentation, q.text)
        response = _sub(presentation, "response_lid", ident="response1",
                        rcardinality="Single" if q.single else "Multiple")
        choices = _sub(response, "render_choice")
        for answer_id, (text, _, _) in zip(answer_ids, q.options):
            _mattext(_sub(choices, "response_label", ident=answer_id), text)
        processing = _sub(item, "resprocessing")
        _sub(_sub(processing, "outcomes"), "decvar", maxvalue="100", minvalue="0",
             varname="SCORE", vartype="Decimal")
        # Canvas shows an option's feedback through a condition that only
        # displays it (continue="Yes"), then scores in a last one.
        for answer_id in answer_ids:
            condition = _sub(processing, "respcondition", continue_="Yes")
            _sub(_sub(condition, "conditionvar"), "varequal", answer_id,
                 respident="response1")
            _sub(condition, "displayfeedback", feedbacktype="Response",
                 linkrefid=f"{answer_id}_fb")
        condition = _sub(processing, "respcondition", continue_="No")
        test = _sub(condition, "conditionvar")
        keys = [a for a, (_, correct, _) in zip(answer_ids, q.options) if correct]
        if q.single:
            _sub(test, "varequal", keys[0], respident="response1")
        else:
            both = _sub(test, "and")
            for answer_id, (_, correct, _) in zip(answer_ids, q.options):
                parent = both if correct else _sub(both, "not")
                _sub(parent, "varequal", answer_id, respident="response1")
        _sub(condition, "setvar", "100", action="Set", varname="SCORE")
        for answer_id, (_, _, feedback) in zip(answer_ids, q.options):
            flow = _sub(_sub(item, "itemfeedback", ident=f"{answer_id}_fb"), "flow_mat")
            _mattext(flow, feedback)
    return _document(root)


def qti_manifest(idents) -> bytes:
    """``imsmanifest.xml``: one ``imsqti_xmlv1p2`` resource per assessment file."""
    root = ET.Element("manifest", identifier="mlcore_self_checks", xmlns=_CP)
    metadata = _sub(root, "metadata")
    _sub(metadata, "schema", "IMS Content")
    _sub(metadata, "schemaversion", "1.1.3")
    _sub(root, "organizations")
    resources = _sub(root, "resources")
    for ident in idents:
        resource = _sub(resources, "resource", identifier=ident, type="imsqti_xmlv1p2")
        _sub(resource, "file", href=f"{ident}/{ident}.xml")
    return _document(root)


def qti_zip(quizzes, path) -> Path:
    """Write the QTI 1.2 zip Canvas imports: a manifest, an assessment per chapter."""
    path = Path(path)
    idents = [f"self_checks_{quiz.chapter}" for quiz in quizzes]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("imsmanifest.xml", qti_manifest(idents))
        for ident, quiz in zip(idents, quizzes):
            archive.writestr(f"{ident}/{ident}.xml", qti_assessment(quiz, ident))
    return path


def export_quizzes(chapters, format: str, out, language: str = "en", say=print) -> Path:
    """Write the self-checks of ``chapters`` as a Moodle XML file or a QTI 1.2 zip.

    Parameters
    ----------
    chapters : list of path-like
        Chapter notebooks (:func:`mlcore.homework.find_chapters`); those without
        self-checks are left out.
    format : {"moodle", "qti"}
    out : path-like
        The folder to write ``self-checks.xml`` or ``self-checks-qti.zip`` in
        (``self-checks.zh_CN.xml`` ... for another language).
    language : {"en", "zh_CN"}
    say : callable
        Receives notes.

    Returns
    -------
    Path
        The file written.
    """
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, "
                         f"got format={format!r}.")
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, "
                         f"got language={language!r}.")
    quizzes = [quiz for quiz in (chapter_quiz(c, language, say) for c in chapters)
               if quiz.questions]
    if not quizzes:
        raise ValueError("none of these chapters has a self-check: nothing to export.")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    suffix = "" if language == "en" else f".{language}"
    if format == "moodle":
        path = out / f"self-checks{suffix}.xml"
        path.write_bytes(moodle_xml(quizzes))
    else:
        path = qti_zip(quizzes, out / f"self-checks-qti{suffix}.zip")
    count = sum(len(quiz.questions) for quiz in quizzes)
    say(f"wrote {path}: {count} questions from {len(quizzes)} chapter(s)")
    return path
