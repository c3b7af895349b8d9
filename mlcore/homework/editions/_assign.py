"""Derive the student edition and the autograder of chapters, and check both.

``assign`` writes, for each chapter ``NN_name`` with exercises::

    OUT/student/NN_name.ipynb                 no outputs, no solutions, no hidden tests
    OUT/autograder/NN_name/NN_name.ipynb      the full chapter: the reference solution
    OUT/autograder/NN_name/autograder.json    questions, points and every test

checks that the student edition holds every exercise, its statement and its
public tests and that ``check`` can read it, then grades the reference
solution (it must get full marks and run without errors) and the untouched
student edition against it (it must get zero on every autograded question: a
stub that already passes a test is an error).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..._notebook_text import (book_labels, plain_markdown, proof_numbers,
                               read_bibliography)
from ..grading import (SPEC_NAME, build_spec, check_jobs, grade_one, parse_questions,
                       read_notebook)
from ._edition import autograder_notebook, student_edition
from ..sandbox import Limits

__all__ = ["find_chapters", "assign", "Assigned"]

_QUOTE = re.compile(r"^(?:>[ \t]?)+")


def np_bool():
    """numpy's bool type (a flag may be ``np.True_``)."""
    import numpy as np
    return np.bool_


def _chapters_folder() -> Path:
    here = Path.cwd() / "chapters"
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[3] / "chapters"


def find_chapters(selectors=(), folder=None) -> list:
    """Resolve chapter numbers (``"01"``) or notebook paths; none means every chapter.

    Parameters
    ----------
    selectors : list of str
        ``"01"`` or ``"1"`` picks ``chapters/01_*.ipynb``; anything ending in
        ``.ipynb`` is a path.
    folder : path-like, optional
        The chapters folder; default ``./chapters`` or the repository's.

    Returns
    -------
    list of Path

    Examples
    --------
    >>> find_chapters(["07x"])
    Traceback (most recent call last):
    ...
    ValueError: CHAPTER must be a chapter number such as 01 or a path to a .ipynb notebook, got '07x'.
    """
    if isinstance(selectors, (str, os.PathLike)):
        selectors = [selectors]
    if selectors is None:
        selectors = ()
    if not hasattr(selectors, "__iter__"):
        raise TypeError(f"selectors must be a list of chapter numbers or notebook paths, got "
                        f"{selectors!r}.")
    folder = Path(folder) if folder else _chapters_folder()
    if not selectors:
        found = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
        if not found:
            raise FileNotFoundError(f"no chapter notebooks chapters/NN_*.ipynb in {folder}.")
        return found
    paths = []
    for selector in selectors:
        selector = str(selector)
        if selector.endswith(".ipynb"):
            path = Path(selector)
            if not path.is_file():
                raise FileNotFoundError(f"CHAPTER {selector!r} does not exist.")
            paths.append(path)
        elif selector.isdigit():
            matches = sorted(folder.glob(f"{int(selector):02d}_*.ipynb"))
            if not matches:
                raise FileNotFoundError(f"no notebook for chapter {selector}: nothing matches "
                                        f"{folder / f'{int(selector):02d}_*.ipynb'}.")
            paths += matches
        else:
            raise ValueError("CHAPTER must be a chapter number such as 01 or a path to a .ipynb "
                             f"notebook, got {selector!r}.")
    return paths


@dataclass
class Assigned:
    """One chapter's outputs and the problems its verification found (empty when sound)."""

    chapter: str
    student: Path | None = None
    autograder: Path | None = None
    problems: list = field(default_factory=list)
    solution: object = None
    untouched: object = None


def _dump(path: Path, notebook: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _source(cell) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def check_student_edition(chapter_nb, student: dict, spec: dict, chapter: str,
                          bibliography: dict | None = None, language: str = "en",
                          chapters: dict | None = None) -> list:
    """What the student edition lacks: exercises, their statements, public tests, or a
    specification that ``check`` can build from it.

    A statement counts as kept when its plain form (``plain_markdown`` with the
    ``bibliography``, ``language`` and ``chapters`` the edition was made with) is in
    the edition's text, read without the quote marks ("> ") that set an exercise
    apart and with every run of white space as one space (a quoted formula is
    written on one line)."""
    problems = []
    try:
        student_spec = build_spec(student, chapter)
    except (ValueError, TypeError) as error:
        return [f"the student edition cannot be checked (`check` would fail): {error}"]
    text = "\n".join(_source(c) for c in student["cells"])
    unquoted = " ".join(" ".join(_QUOTE.sub("", line) for line in text.split("\n")).split())
    theirs = {q["name"]: q for q in student_spec["questions"]}
    plain = {"language": language, "numbers": {**(chapters or {}),
                                               **proof_numbers(chapter_nb, chapter)}}
    for q, parsed in zip(spec["questions"], parse_questions(chapter_nb)):
        if q["name"] not in theirs:
            problems.append(f"{q['name']}: the exercise is missing from the student edition")
            continue
        statement = _strip_directives_kept(_source(chapter_nb["cells"][parsed.exercise_cell]))
        statement = " ".join(plain_markdown(statement, bibliography, **plain).split())
        if statement and statement not in unquoted:
            problems.append(f"{q['name']}: the exercise's statement is missing from the student "
                            "edition")
        public = [t["source"] for t in q["tests"] if not t["hidden"]]
        mine = [t["source"] for t in theirs[q["name"]]["tests"]]
        if public != mine or any(t["hidden"] for t in theirs[q["name"]]["tests"]):
            problems.append(f"{q['name']}: the student edition's test cells are not exactly the "
                            "public tests")
        if theirs[q["name"]]["manual"] != q["manual"]:
            problems.append(f"{q['name']}: manual in one edition and autograded in the other")
    return problems


def _strip_directives_kept(text: str) -> str:
    """The exercise directive's body (its statement), as the student edition must show it."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if "{exercise}" in line:
            body = []
            for rest in lines[i + 1:]:
                if rest.strip().startswith(("```", ":::")):
                    break
                if not rest.strip().startswith(":"):
                    body.append(rest)
            return "\n".join(body).strip()
    return ""


def _verify(item: Assigned, spec: dict) -> None:
    solution, untouched = item.solution, item.untouched
    if solution.status != "ok":
        item.problems.append(f"the solution notebook ends with status {solution.status!r}: "
                             + "; ".join(solution.notes))
    for q in spec["questions"]:
        if q["manual"]:
            continue
        name, points = q["name"], q["points"]
        if abs(solution.scores[name] - points) > 1e-9:
            item.problems.append(f"{name}: the solution scores {solution.scores[name]:g} of "
                                 f"{points:g}; failing: " + "; ".join(solution.failures[name]))
        if untouched.scores[name] > 1e-9:
            passing = len(q["tests"]) - len(untouched.failures[name])
            item.problems.append(f"{name}: the untouched student edition already scores "
                                 f"{untouched.scores[name]:g} of {points:g} ({passing} test "
                                 "cell(s) pass on the stub `...`); make every test check the "
                                 "answer, not just its type or shape.")


def _in_language(nb: dict, path: Path, language: str, say) -> dict:
    """The chapter with its Markdown cells in ``language`` (code cells untouched)."""
    from ._translate import catalog_path, read_catalog, translate_notebook

    if language == "en":
        return nb
    catalog = catalog_path(path, language)
    if not catalog.is_file():
        raise FileNotFoundError(f"language={language!r}: the catalog {catalog} of "
                                f"{path.name} does not exist (locales/TRANSLATING.md).")
    translated, unplaced = translate_notebook(nb, read_catalog(catalog))
    if unplaced:
        say(f"{path.stem}: {len(unplaced)} translation(s) of {catalog.name} match no "
            "Markdown cell; those cells stay English")
    return translated


def assign(chapters, out, *, verify: bool = True, limits: Limits | None = None,
           jobs: int | None = None, progress=None, language: str = "en") -> list:
    """Write the student edition and the autograder of each chapter, then verify them.

    Parameters
    ----------
    chapters : list of path-like
        Chapter notebooks (see :func:`find_chapters`); those without
        exercises are skipped.
    out : path-like
        Output folder; ``student/`` and ``autograder/`` are written inside.
    verify : bool
        Grade the solution (full marks) and the untouched student edition (zero).
    limits : Limits, optional
        Sandbox limits of the verification runs (default: 300 s each).
    jobs : int, optional
        Notebooks run at once during verification; default: CPU cores.
    progress : callable, optional
        Called with one line of text per step.
    language : {"en", "zh_CN"}
        The language of the Markdown cells: ``"zh_CN"`` translates them from
        ``locales/zh_CN/LC_MESSAGES/chapters/NN_name.po`` (the website's
        Chinese edition); code cells, exercise labels and tests are the
        English chapter's, so both editions are graded alike.

    Returns
    -------
    list of Assigned
        One per chapter with exercises; ``problems`` lists what verification found.
    """
    if isinstance(chapters, (str, os.PathLike)):
        chapters = [chapters]
    chapters = list(chapters) if hasattr(chapters, "__iter__") else chapters
    if not isinstance(chapters, list) or not all(isinstance(c, (str, os.PathLike))
                                                 for c in chapters):
        raise TypeError(f"chapters must be a list of notebook paths, got {chapters!r:.80}.")
    if not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"out must be a path (str or os.PathLike), got {out!r:.80}.")
    if not isinstance(verify, (bool, np_bool())):
        raise TypeError(f"verify must be True or False, got verify={verify!r}.")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable or None, got progress={progress!r}.")
    if limits is not None and not isinstance(limits, Limits):
        raise TypeError(f"limits must be a Limits or None, got {type(limits).__name__}.")
    from ._translate import LANGUAGES

    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {language!r}.")
    say = progress or (lambda text: None)
    jobs = check_jobs(jobs)
    limits = limits or Limits(timeout=300)
    out = Path(out)
    items, runs, specs = [], [], {}
    for path in map(Path, chapters):
        chapter = path.stem
        nb, problem = read_notebook(path.read_bytes())
        if nb is None:
            raise ValueError(f"CHAPTER {str(path)!r} cannot be read: {problem}.")
        nb = _in_language(nb, path, language, say)
        if not parse_questions(nb):
            say(f"{chapter}: no exercises, skipped")
            continue
        bib = path.parent / "references.bib"      # the chapters' citations, as "(Author Year)"
        bibliography = read_bibliography(bib) if bib.is_file() else {}
        # what a reference to another chapter shows: "Chapter 3", "Theorem 2.1"
        chapters_labels = book_labels(path.parent)
        student = student_edition(nb, chapter, bibliography, language=language,
                                  chapters=chapters_labels)
        graded = autograder_notebook(nb, chapter)
        spec = build_spec(graded, chapter)
        item = Assigned(chapter, out / "student" / f"{chapter}.ipynb",
                        out / "autograder" / chapter)
        item.problems += check_student_edition(nb, student, spec, chapter, bibliography,
                                               language, chapters_labels)
        _dump(item.student, student)
        _dump(item.autograder / f"{chapter}.ipynb", graded)
        (item.autograder / SPEC_NAME).write_text(json.dumps(spec, indent=1) + "\n",
                                                 encoding="utf-8")
        say(f"{chapter}: wrote {item.student} and {item.autograder}")
        items.append(item)
        specs[chapter] = spec
        runs += [(item, "solution", spec, json.dumps(graded).encode()),
                 (item, "untouched", spec, json.dumps(student).encode())]
    if verify and runs:
        say(f"verifying: running {len(runs)} notebooks ({len(items)} solutions, "
            f"{len(items)} untouched student editions)")
        references = {}

        def run(entry):
            item, role, spec, data = entry
            if role == "solution":      # the teacher's notebook is its own (trusted) reference
                references[item.chapter] = Path(tempfile.mkdtemp(prefix="mlcore-reference-"))
                graded = grade_one(f"{item.chapter} ({role})", data, spec, limits, hide=[out],
                                   keep_reference=references[item.chapter])
            else:
                graded = grade_one(f"{item.chapter} ({role})", data, spec, limits, hide=[out],
                                   reference=references[item.chapter])
            setattr(item, role, graded)
        try:
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                list(pool.map(run, [r for r in runs if r[1] == "solution"]))
                list(pool.map(run, [r for r in runs if r[1] != "solution"]))
        finally:
            for folder in references.values():
                shutil.rmtree(folder, ignore_errors=True)
        for item in items:
            _verify(item, specs[item.chapter])
            say(f"{item.chapter}: " + ("verified: the solution gets full marks, the "
                                       "untouched student edition gets zero, and the student "
                                       "edition holds every exercise and public test"
                                       if not item.problems else
                                       f"{len(item.problems)} problem(s)"))
    return items

