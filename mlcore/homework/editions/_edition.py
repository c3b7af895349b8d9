"""Derive a chapter's two editions: the student's and the autograder's notebooks.

Markdown between ``{solution-start}`` and ``{solution-end}`` and every
``{solution}`` directive are removed from the student edition; the rest of
its Markdown is the plain form students read in JupyterLab
(:func:`mlcore._notebook_text.plain_markdown`: no raw MyST, each self-check's
key folded in a closed ``<details>``). The chapter is read by
:mod:`mlcore.homework.grading`'s parser (``_format.py``), the one grading uses.
"""

from __future__ import annotations

import copy
import re

from ..._notebook_text import TEXT, check_language, plain_markdown, proof_numbers
from ..grading import (MAX_BYTES, MAX_FILE_BYTES, META_KEY, _source, _where,
                       check_chapter, parse_questions, stub_solution, tags_of)

__all__ = ["student_edition", "autograder_notebook"]

HEADER_TAGS = {"macros", "setup"}
_FENCE_OPEN = re.compile(r"^(\s*)(`{3,}|:{3,})\{([\w-]+)\}")


def _strip_directives(text: str, names: set) -> str:
    """Remove fenced MyST directives named in ``names`` (with their bodies) from Markdown."""
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        opened = _FENCE_OPEN.match(lines[i])
        if opened and opened.group(3) in names:
            fence = opened.group(2)
            i += 1
            while i < len(lines):
                closing = lines[i].strip()
                if closing and set(closing) == {fence[0]} and len(closing) >= len(fence):
                    break
                i += 1
            i += 1
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out).strip("\n")


def _opens(text: str, name: str) -> bool:
    return any((m := _FENCE_OPEN.match(line)) and m.group(3) == name
               for line in text.split("\n"))


def _cell_id(cell, index: int) -> str:
    return str(cell.get("id") or f"cell-{index}")


def _clean(cell, index: int) -> dict:
    cell = copy.deepcopy(dict(cell))
    cell["id"] = _cell_id(cell, index)
    cell["source"] = _source(cell)
    if cell["cell_type"] == "code":
        cell["outputs"], cell["execution_count"] = [], None
    cell["metadata"] = dict(cell.get("metadata") or {})
    cell["metadata"].pop("execution", None)
    return cell


def _markdown(cell_id: str, text: str, tags: list) -> dict:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {"tags": tags}, "source": text}


def _notebook(nb, cells: list, edition: str, chapter: str, questions: list) -> dict:
    metadata = copy.deepcopy(dict(nb.get("metadata", {})))
    metadata[META_KEY] = {"chapter": chapter, "edition": edition,
                          "questions": [q.name for q in questions]}
    return {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def _owner(questions: list) -> dict:
    return {i: q.name for q in questions for i in q.solution_cells}


def student_edition(nb, chapter: str, bibliography: dict | None = None, *,
                    language: str = "en", chapters: dict | None = None) -> dict:
    """Return the student edition of a chapter notebook.

    Solutions become ``...``; solution directives, gated solution cells,
    hidden tests, heavy demos and all outputs are removed; public tests
    stay. A note on how to work and hand in opens the notebook, and an
    answer cell follows every pen-and-paper exercise. The Markdown is plain
    Markdown (:func:`mlcore._notebook_text.plain_markdown`), so that no
    self-check shows its key and no MyST shows raw.

    Parameters
    ----------
    nb : dict or nbformat.NotebookNode
        The chapter notebook.
    chapter : str
        The chapter's file stem, e.g. ``"01_logistic_regression"``.
    bibliography : dict, optional
        BibTeX key -> "Author Year" (:func:`mlcore._notebook_text.read_bibliography`);
        without it a citation shows its key.
    language : {"en", "zh_CN"}
        The language of the words the edition adds (the note that opens it,
        "Check yourself.", "Theorem 2.1", the answer cells:
        :data:`mlcore._notebook_text.TEXT`); give the notebook already
        translated (``assign --language``), its own text is not touched.
    chapters : dict, optional
        The book's labels (:func:`mlcore._notebook_text.book_labels`), so that
        a reference to another chapter reads "Chapter 3" and to its theorem
        "Theorem 2.1"; without it such a reference shows its label.

    Returns
    -------
    dict
        An nbformat 4.5 notebook.
    """
    check_chapter(chapter)
    words = TEXT[check_language(language)]
    questions = parse_questions(nb)
    # The site's numbers of the chapter's theorems, for headings and {prf:ref}.
    plain = {"language": language, "numbers": {**(chapters or {}),
                                               **proof_numbers(nb, chapter)}}
    owner, manual = _owner(questions), {q.exercise_cell: q for q in questions if q.manual}
    cells, gated, noted = [], False, False
    for index, cell in enumerate(nb["cells"]):
        tags, text = tags_of(cell), _source(cell)
        if not noted and not (tags & HEADER_TAGS):
            cells.append(_markdown("homework-note", _note(chapter, questions, words),
                                   ["homework-note"]))
            noted = True
        if cell["cell_type"] == "markdown" and _opens(text, "solution-start"):
            # Keep what comes before the directive (the exercise's statement, in 01 and 05).
            lines = text.split("\n")
            start = next(i for i, line in enumerate(lines) if (m := _FENCE_OPEN.match(line))
                         and m.group(3) == "solution-start")
            before = _strip_directives("\n".join(lines[:start]), {"solution"})
            if before.strip():
                new = _clean(cell, index)
                new["source"] = plain_markdown(before, bibliography, **plain)
                cells.append(new)
            gated = True
        if cell["cell_type"] == "markdown" and _opens(text, "solution-end"):
            gated = False
            continue
        if tags & {"hidden-tests", "heavy"}:
            continue
        if index in owner:
            new = _clean(cell, index)
            new["source"] = stub_solution(text, where=_where(index, cell))
            new["metadata"][META_KEY] = {"question": owner[index]}
            cells.append(new)
            continue
        if gated:
            continue
        new = _clean(cell, index)
        if cell["cell_type"] == "markdown":
            new["source"] = plain_markdown(_strip_directives(
                text, {"solution", "solution-start", "solution-end"}), bibliography, **plain)
            if not new["source"].strip():
                continue
        cells.append(new)
        if index in manual:
            name = manual[index].name
            cells.append(_markdown(f"answer-{re.sub(r'[^A-Za-z0-9_-]', '-', name)}",
                                   words["your_answer"].format(name=name) + "\n\n",
                                   ["answer"]))
    return _notebook(nb, cells, "student", chapter, questions)


def _note(chapter: str, questions: list, words: dict) -> str:
    listed = [[q for q in questions if not q.manual], [q for q in questions if q.manual]]
    # The grader's own limits, in MiB (the note tells students what it refuses).
    lines = [words["note"].format(chapter=chapter, limit=MAX_BYTES // 2**20,
                                  file_limit=MAX_FILE_BYTES // 2**20), ""]
    for key, group in zip(("autograded", "manual"), listed):
        if group:
            points = [words["points"].format(name=q.name, points=q.points) for q in group]
            lines.append(words[key].format(questions=words["list_sep"].join(points)))
    return "\n".join(lines)


def autograder_notebook(nb, chapter: str) -> dict:
    """Return the full chapter without outputs and heavy demos: the reference solution.

    Solution cells are marked with their question (``metadata.homework``)
    like in the student edition, so the notebook can be graded as a submission.

    Parameters
    ----------
    nb : dict or nbformat.NotebookNode
        The chapter notebook.
    chapter : str
        The chapter's file stem.

    Returns
    -------
    dict
    """
    check_chapter(chapter)
    questions = parse_questions(nb)
    owner, cells = _owner(questions), []
    for index, cell in enumerate(nb["cells"]):
        if "heavy" in tags_of(cell):
            continue
        new = _clean(cell, index)
        if index in owner:
            stub_solution(new["source"], where=_where(index, cell))   # markers must be valid
            new["metadata"][META_KEY] = {"question": owner[index]}
        cells.append(new)
    return _notebook(nb, cells, "autograder", chapter, questions)
