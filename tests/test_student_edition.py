"""The student edition (``python -m mlcore.homework assign``) reads as the lab copies do.

For every chapter with exercises, the student edition's Markdown is the plain
form of ``mlcore._notebook_text``: what a student sees before opening an
answer (the text outside the closed ``<details>``) holds no raw MyST and no
self-check key, every self-check's key is still there behind its "Answer",
and the homework tool still reads the edition (``check`` finds every
question by its label). No notebook is run: the editions are made in memory.
"""

import json
import re
from pathlib import Path

import pytest

from mlcore._notebook_text import book_labels, read_bibliography
from mlcore.homework import parse_questions, student_edition
from mlcore.homework.editions._assign import check_student_edition
from mlcore.homework.editions._edition import autograder_notebook
from mlcore.homework.grading._spec import build_spec

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))
BIBLIOGRAPHY = read_bibliography(ROOT / "chapters" / "references.bib")

DETAILS = re.compile(r"<details>.*?</details>", re.S)
# MyST a notebook front end shows raw: a directive fence, a role, a target, a task box.
RAW_MYST = re.compile(r"^\s*(`{3,}|:{3,})\{[\w:-]+\}|\{[\w:-]+\}`|^\([\w:.-]+\)=\s*$"
                      r"|^\s*[-*] \[[xX ]\]", re.M)
# A self-check's key as plain_markdown writes it: "**(b).**", then a verdict per option.
KEY = re.compile(r"^\*\*\([a-z]\)(, \([a-z]\))*\.\*\*$|^- \([a-z]\) (Correct|Not quite)\.", re.M)
SELF_CHECK = re.compile(r"^\s*(`{3,}|:{3,})\{self-check\}", re.M)


def _markdown(nb) -> list[str]:
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in nb["cells"] if c["cell_type"] == "markdown"]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_a_student_edition_shows_no_raw_myst_and_no_key_before_an_answer(chapter):
    nb = json.loads(chapter.read_text(encoding="utf-8"))
    questions = parse_questions(nb)
    if not questions:
        pytest.skip(f"{chapter.name} has no exercises")
    student = student_edition(nb, chapter.stem, BIBLIOGRAPHY)
    cells = _markdown(student)
    seen = "\n".join(DETAILS.sub("", text) for text in cells)     # before any answer is opened
    raw = [m.group(0) for m in RAW_MYST.finditer("\n".join(cells))]
    assert not raw, raw[:10]
    assert not KEY.findall(seen), KEY.findall(seen)[:5]
    # Every self-check of the chapter keeps its key, folded behind "Answer".
    folded = [d for text in cells for d in DETAILS.findall(text) if "<summary>Answer</summary>" in d]
    n_checks = sum(len(SELF_CHECK.findall(text)) for text in _markdown(nb))
    assert n_checks > 0 and len(folded) == n_checks
    assert all(KEY.search(d) for d in folded)
    # The homework tool reads it as before: the same questions, statements and public tests.
    assert [q.name for q in parse_questions(student)] == [q.name for q in questions]
    spec = build_spec(autograder_notebook(nb, chapter.stem), chapter.stem)
    assert check_student_edition(nb, student, spec, chapter.stem, BIBLIOGRAPHY) == []


def test_the_statement_check_still_finds_a_missing_statement():
    """The plain form must not make the statement check vacuous."""
    chapter = next(p for p in CHAPTERS if parse_questions(json.loads(p.read_text(encoding="utf-8"))))
    nb = json.loads(chapter.read_text(encoding="utf-8"))
    student = student_edition(nb, chapter.stem, BIBLIOGRAPHY)
    spec = build_spec(autograder_notebook(nb, chapter.stem), chapter.stem)
    first = parse_questions(nb)[0].name
    for cell in student["cells"]:
        if f":label: {first}" in cell["source"]:
            cell["source"] = cell["source"].split("> **Exercise")[0] + "> **Exercise.**"
    problems = check_student_edition(nb, student, spec, chapter.stem, BIBLIOGRAPHY)
    assert problems == [f"{first}: the exercise's statement is missing from the student edition"]


# --- The tool's own words in the Chinese edition (zh review, finding 13) and the
# cross-references (finding 14): one chapter, translated once for every test below.
REFERENCED = ROOT / "chapters" / "02_finite_hypothesis_classes.ipynb"
# What the website prints for two of its references (sphinx-proof numbers each kind
# per chapter; all 91 numbers of the book agreed with a site build of 2026-11-28).
SITE_NUMBERS = {"lem-hoeffding": ("Lemma 2.2", "引理 2.2"),
                "thm-finite-uniform": ("Theorem 2.1", "定理 2.1")}
# Every English word the tool (not the chapter) writes into a student edition.
TOOL_WORDS = ["Student edition of chapter", "Autograded:", "Graded by your teacher:",
              "Check yourself.", "<summary>Answer</summary>", "Correct.", "Not quite.",
              "**Theorem", "**Lemma", "**Definition", "**Corollary", "**Proof.",
              "**Exercise `", "Your answer to", "hand it in on paper"]


@pytest.fixture(scope="module")
def editions():
    """The English and the Chinese student edition of REFERENCED (the Chinese one
    made as ``assign --language zh_CN`` makes it)."""
    from mlcore.homework.editions._assign import _in_language

    nb = json.loads(REFERENCED.read_text(encoding="utf-8"))
    chinese = _in_language(nb, REFERENCED, "zh_CN", lambda line: None)
    return {"nb": nb, "chinese_nb": chinese,
            "en": student_edition(nb, REFERENCED.stem, BIBLIOGRAPHY),
            "zh_CN": student_edition(chinese, REFERENCED.stem, BIBLIOGRAPHY,
                                     language="zh_CN")}


def test_a_chinese_student_edition_has_no_english_tool_words(editions):
    english, chinese = ("\n".join(_markdown(editions[k])) for k in ("en", "zh_CN"))
    # The English edition keeps every word (so the Chinese check is not vacuous) ...
    assert [w for w in TOOL_WORDS if w not in english] == []
    assert editions["en"] == student_edition(editions["nb"], REFERENCED.stem, BIBLIOGRAPHY,
                                             language="en")
    assert not re.search(r"自我检验|定理|正确。|学生版", english)
    # ... and the Chinese one has none of them, but the Chinese site's words instead.
    assert [w for w in TOOL_WORDS if w in chinese] == []
    for word in ["**02_finite_hypothesis_classes一章的学生版。**", "自动评分：", "**自我检验：**",
                 "<summary>答案</summary>", "正确。", "不对。", "**定理 2.1（", "**证明**",
                 "**练习 `ex02-", "的解答**（也可以写在纸上提交）："]:
        assert word in chinese, word
    # The statement check and the homework tool read the Chinese edition as the English.
    spec = build_spec(autograder_notebook(editions["chinese_nb"], REFERENCED.stem),
                      REFERENCED.stem)
    assert check_student_edition(editions["chinese_nb"], editions["zh_CN"], spec,
                                 REFERENCED.stem, BIBLIOGRAPHY, "zh_CN") == []
    assert ([q.name for q in parse_questions(editions["zh_CN"])]
            == [q.name for q in parse_questions(editions["en"])])


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_a_cross_reference_reads_as_the_website_numbers_it(editions, language):
    text = "\n".join(_markdown(editions[language]))
    column = 0 if language == "en" else 1
    for label, shown in SITE_NUMBERS.items():
        assert f"[{shown[column]}](#{label})" in text, label
        assert f'<a id="{label}"></a>' in text            # the link's target is there
    source = "\n".join(_markdown(editions["nb"]))
    referenced = set(re.findall(r"\{prf:ref\}`([\w-]+)`", source))
    assert len(referenced) >= 5
    raw = [label for label in referenced if f"[{label}](#{label})" in text]
    assert raw == [], raw                                  # no label shown as text


def test_no_reference_in_any_student_edition_shows_its_label():
    """A {ref} reads as the website's section title, an exercise by the name the
    notebook gives it, another chapter as "Chapter 3" / "第3章" (#39, item 3)."""
    from mlcore.homework.editions._assign import _in_language

    labels = book_labels(ROOT / "chapters")
    assert labels["ch-vc-dimension"] == ("chapter", "3") and labels["sec-threshold"] == ("chapter", "1")
    assert labels["thm-finite-uniform"] == ("prf:theorem", "2.1")
    for chapter in CHAPTERS:
        nb = json.loads(chapter.read_text(encoding="utf-8"))
        referenced = set(re.findall(r"\{(?:prf:)?ref\}`([\w-]+)`", "\n".join(_markdown(nb))))
        text = "\n".join(_markdown(student_edition(nb, chapter.stem, BIBLIOGRAPHY,
                                                   chapters=labels)))
        raw = [label for label in referenced if f"[{label}](#{label})" in text]
        assert raw == [], (chapter.stem, raw)
    first = CHAPTERS[0]
    nb = json.loads(first.read_text(encoding="utf-8"))
    english = "\n".join(_markdown(student_edition(nb, first.stem, BIBLIOGRAPHY, chapters=labels)))
    for shown in ["[The decision threshold: ½ is a choice](#sec-threshold)",
                  "[Chapter 3](#ch-vc-dimension)", "[Exercise `ex01-separable`](#ex01-separable)"]:
        assert shown in english, shown
    chinese_nb = _in_language(nb, first, "zh_CN", lambda line: None)
    chinese = "\n".join(_markdown(student_edition(chinese_nb, first.stem, BIBLIOGRAPHY,
                                                  language="zh_CN", chapters=labels)))
    for shown in ["[决策阈值：½只是一种选择](#sec-threshold)", "[第3章](#ch-vc-dimension)",
                  "[练习`ex01-separable`](#ex01-separable)"]:
        assert shown in chinese, shown
