"""The self-checks as LMS quizzes (``python -m mlcore.homework quiz``), read back.

Each export is parsed again (xml.etree, zipfile) and compared with the
chapter's self-checks (English: chapters 1 and 3; Chinese: chapter 4, from
its catalog); a tiny synthetic chapter's export is compared, element by
element, with hand-checked samples of what Moodle and Canvas import.
"""

import html
import json
import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from mlcore._notebook_text import self_checks
from mlcore.homework import find_chapters
from mlcore.homework.editions._quiz import (chapter_quiz, export_quizzes, expand_macros,
                                            read_macros)
from mlcore.homework.editions._translate import catalog_path, read_catalog

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "quiz_fixtures"
QTI = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
CP = "{http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1}"


def _markdown_cells(path: Path) -> list:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def _checks(path: Path) -> list:
    return [check for source in _markdown_cells(path) for check in self_checks(source)]


def _words(text: str, math: bool = False) -> str:
    """Source Markdown or exported HTML as comparable text: no math, markup, spaces.

    With ``math`` the formulas are kept, as ``$...$``, for comparing them.
    """
    text = html.unescape(re.sub(r"<[^>]+>", "", text))
    text = re.sub(r"\\\((.*?)\\\)", lambda m: f"${m[1]}$", text)
    if not math:
        text = re.sub(r"\$[^$]*\$", " ", text)
    return " ".join(re.sub(r"[*`]", "", text).split())


def _formulas(text: str) -> list:
    return re.findall(r"\$([^$]*)\$", _words(text, math=True))


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    out = tmp_path_factory.mktemp("quiz")
    chapters = find_chapters(["01", "03"])
    moodle = export_quizzes(chapters, "moodle", out, say=lambda _: None)
    qti = export_quizzes(chapters, "qti", out, say=lambda _: None)
    chinese = export_quizzes(find_chapters(["04"]), "moodle", out, language="zh_CN",
                             say=lambda _: None)
    return chapters, moodle, qti, chinese


def _moodle_questions(path: Path) -> list:
    """[(category, question, [(text, fraction, feedback)])] of a Moodle XML file."""
    found, category = [], None
    for question in ET.parse(path).getroot():
        if question.get("type") == "category":
            category = question.findtext("category/text")
            continue
        assert question.get("type") == "multichoice"
        options = [(a.findtext("text"), float(a.get("fraction")),
                    a.findtext("feedback/text")) for a in question.findall("answer")]
        found.append((category, question.findtext("questiontext/text"), options,
                      question.findtext("single")))
    return found


def _compare(exported, english_checks, macros, translate=lambda text: text):
    assert len(exported) == len(english_checks)
    for (_, text, options, single), check in zip(exported, english_checks):
        assert _words(text) == _words(translate(check.question))
        assert _formulas(text) == [expand_macros(f, macros)
                                   for f in _formulas(translate(check.question))]
        assert [_words(o[0]) for o in options] == [_words(translate(o.text))
                                                   for o in check.options]
        assert [_words(o[2]) for o in options] == [_words(translate(o.feedback))
                                                   for o in check.options]
        assert [o[1] == 100 for o in options] == [o.correct for o in check.options]
        assert single == "true"            # every chapter self-check has one key


def test_moodle_export_holds_every_self_check_with_its_key_and_feedback(exports):
    chapters, moodle, _, _ = exports
    exported = _moodle_questions(moodle)
    for chapter in chapters:
        mine = [q for q in exported if q[0].split("/")[-1].startswith(chapter.stem[:2])]
        macros = read_macros(json.loads(chapter.read_text(encoding="utf-8")))
        _compare(mine, _checks(chapter), macros)
    text = moodle.read_text(encoding="utf-8")
    # The book's macros are expanded: an LMS does not know them.
    assert not re.search(r"\\(eps|epshat|T|hH|dD)(?![A-Za-z])", text)
    assert "\\(" in text and "$" not in text.replace("$course$", "")


def test_qti_zip_holds_every_self_check_with_its_key_and_feedback(exports):
    chapters, _, qti, _ = exports
    with zipfile.ZipFile(qti) as archive:
        manifest = ET.fromstring(archive.read("imsmanifest.xml"))
        files = [f.get("href") for f in manifest.iter(f"{CP}file")]
        assert [r.get("type") for r in manifest.iter(f"{CP}resource")] == \
            ["imsqti_xmlv1p2"] * len(chapters)
        names = [n for n in archive.namelist() if n != "imsmanifest.xml"]
        assert sorted(files) == sorted(names)
        for chapter, name in zip(chapters, files):
            root = ET.fromstring(archive.read(name))
            exported = []
            for item in root.iter(f"{QTI}item"):
                labels = item.findall(f".//{QTI}response_label")
                key = item.find(f".//{QTI}respcondition[@continue='No']"
                                f"//{QTI}varequal").text
                feedback = {f.get("ident"): f.findtext(f".//{QTI}mattext")
                            for f in item.findall(f"{QTI}itemfeedback")}
                kind = item.find(f".//{QTI}fieldentry").text
                exported.append((None, item.findtext(f"{QTI}presentation/{QTI}material/"
                                                     f"{QTI}mattext"),
                                 [(label.findtext(f".//{QTI}mattext"),
                                   100 if label.get("ident") == key else 0,
                                   feedback[label.get("ident") + "_fb"])
                                  for label in labels],
                                 "true" if kind == "multiple_choice_question"
                                 else kind))
            macros = read_macros(json.loads(chapter.read_text(encoding="utf-8")))
            _compare(exported, _checks(chapter), macros)


def test_chinese_export_takes_the_chinese_catalog(exports):
    _, _, _, chinese = exports
    chapter = find_chapters(["04"])[0]
    catalog = read_catalog(catalog_path(chapter, "zh_CN"))
    exported = _moodle_questions(chinese)
    macros = read_macros(json.loads(chapter.read_text(encoding="utf-8")))
    _compare(exported, _checks(chapter), macros, lambda text: catalog.get(text, text))
    translated = sum(text in catalog for check in _checks(chapter)
                     for text in [check.question] + [o.text for o in check.options])
    assert translated > len(exported)      # the texts really are the catalog's
    assert re.search(r"[\u4e00-\u9fff]", exported[0][1])


def _sample_chapter(tmp_path: Path) -> Path:
    sample = (FIXTURES / "99_quiz_sample.md").read_text(encoding="utf-8")
    source = sample.split("-->\n", 1)[1]
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown", "metadata": {"tags": ["macros"]},
         "source": "$$\n\\newcommand{\\eps}{\\varepsilon}\n$$"},
        {"cell_type": "markdown", "metadata": {},
         "source": "# A tiny chapter\n\n" + source}]}
    path = tmp_path / "chapters" / "99_quiz_sample.ipynb"
    path.parent.mkdir()
    path.write_text(json.dumps(notebook), encoding="utf-8")
    return path


def _same_tree(made, sample, where="") -> None:
    where = f"{where}/{sample.tag}"
    assert made.tag == sample.tag, where
    assert made.attrib == sample.attrib, where
    assert (made.text or "").strip() == (sample.text or "").strip(), where
    assert len(made) == len(sample), where
    for made_child, sample_child in zip(made, sample):
        _same_tree(made_child, sample_child, where)


@pytest.mark.parametrize("fmt", ["moodle", "qti"])
def test_a_tiny_export_matches_the_hand_checked_sample(tmp_path, fmt):
    chapter = _sample_chapter(tmp_path)
    path = export_quizzes([chapter], fmt, tmp_path / "out", say=lambda _: None)
    if fmt == "moodle":
        made = ET.parse(path).getroot()
    else:
        with zipfile.ZipFile(path) as archive:
            made = ET.fromstring(archive.read(
                "self_checks_99_quiz_sample/self_checks_99_quiz_sample.xml"))
    _same_tree(made, ET.parse(FIXTURES / f"{fmt}_sample.xml").getroot())
    raw = path.read_text(encoding="utf-8") if fmt == "moodle" else ""
    if raw:
        # '<' and '&' are escaped twice: once in the HTML, once in the XML around it;
        # a '$' that is no math stays a dollar, and MathJax's delimiters survive.
        assert r"\(a &amp;lt; b\) &amp;amp; is \(\varepsilon &amp;gt; 0\)" in raw
        assert "<text>$5</text>" in raw
        assert "&lt;code&gt;x &amp;amp; y&lt;/code&gt;" in raw


def test_the_sample_scores_one_key_or_shares_several():
    quiz = ET.parse(FIXTURES / "moodle_sample.xml").getroot()
    single, multiple = quiz.findall("question[@type='multichoice']")
    assert single.findtext("single") == "true"
    assert [a.get("fraction") for a in single.findall("answer")] == ["100", "0"]
    assert multiple.findtext("single") == "false"
    fractions = [a.get("fraction") for a in multiple.findall("answer")]
    assert fractions == ["50", "50", "-100"]


def test_errors_name_the_argument(tmp_path):
    chapter = _sample_chapter(tmp_path)
    with pytest.raises(ValueError,
                       match="format must be one of moodle, qti, got format='pdf'"):
        export_quizzes([chapter], "pdf", tmp_path)
    with pytest.raises(ValueError,
                       match="language must be one of en, zh_CN, got language='fr'"):
        chapter_quiz(chapter, "fr")
    with pytest.raises(ValueError, match="CHAPTER must be a chapter number"):
        find_chapters(["one"])
    with pytest.raises(FileNotFoundError, match="no notebook for chapter 42"):
        find_chapters(["42"])
