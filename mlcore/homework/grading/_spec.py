"""The autograder's specification: questions, points, tests and solution anchors.

``assign`` writes it as ``autograder.json`` next to the reference solution;
``grade`` reads it back, checks its shape, and may add a teacher's private
tests (``--extra-tests``) as hidden tests.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ._format import FormatError, check_chapter, parse_questions, tags_of
from ._flags import answer_hash
from ._rules import answer_names, check_forbid

__all__ = ["SPEC_NAME", "build_spec", "check_spec", "load_spec", "add_extra_tests",
           "test_weights"]

SPEC_NAME = "autograder.json"


def _source(cell) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def cell_key(source: str) -> str:
    """A hash of a code cell's source, trailing spaces and line endings ignored."""
    lines = [line.rstrip() for line in source.strip().splitlines()]
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogatepass")).hexdigest()


def chapter_cell_sources(nb) -> dict:
    """``{hash of a code cell's source: its id}`` for the chapter's code cells with an id."""
    found = {}
    for cell in nb["cells"]:
        if cell.get("cell_type") == "code" and cell.get("id") and _source(cell).strip():
            found.setdefault(cell_key(_source(cell)), cell["id"])
    return found


def _stub(source: str) -> str:
    from ._format import stub_solution
    try:
        return stub_solution(source)
    except ValueError:
        return source


def _test_points(cell, q) -> dict:
    """``{"points": N}`` for a test cell tagged ``points:N``, else ``{}``."""
    found = [t.split(":", 1)[1] for t in tags_of(cell) if t.startswith("points:")]
    if not found:
        return {}
    try:
        value = float(found[0])
    except ValueError:
        value = float("nan")
    if len(found) > 1 or not 0 <= value < float("inf"):
        raise FormatError(f"a test cell of {q.name!r} has tags {sorted(found)}; give one "
                          "'points:N' with N >= 0.")
    return {"points": value}


def test_weights(q: dict) -> list:
    """Points of each test of a question: ``points:N`` tags, the rest shared equally.

    Examples
    --------
    >>> test_weights({"points": 3, "tests": [{"points": 2}, {}, {}]})
    [2, 0.5, 0.5]
    """
    tests = q["tests"]
    tagged = [t["points"] for t in tests if "points" in t]
    rest = max(q["points"] - sum(tagged), 0.0)
    untagged = len(tests) - len(tagged)
    return [t["points"] if "points" in t else rest / untagged for t in tests]


def build_spec(nb, chapter: str) -> dict:
    """Return the autograder's specification of a chapter: questions, points, tests, anchors.

    Parameters
    ----------
    nb : dict
        The chapter (or the autograder notebook derived from it).
    chapter : str
        The chapter's file stem.

    Returns
    -------
    dict
        JSON-serialisable; written as ``autograder.json``.
    """
    check_chapter(chapter)
    questions = []
    for q in parse_questions(nb):
        cells = nb["cells"]
        answers = []
        for i in q.solution_cells:
            answers += [n for n in answer_names(_source(cells[i])) if n not in answers]
        questions.append({
            "name": q.name, "points": q.points, "manual": q.manual,
            "anchors": [cells[i].get("id") or f"cell-{i}" for i in q.solution_cells],
            "test_anchors": [cells[i].get("id") or f"cell-{i}" for i, _ in q.test_cells],
            "answers": answers, "forbid": list(q.forbid),
            "binds": sorted({n for i in q.solution_cells for n in answer_names(
                _source(cells[i]), marked_only=False)}),
            "solution_hash": answer_hash([_source(cells[i]) for i in q.solution_cells]),
            "stub_hash": answer_hash([_stub(_source(cells[i])) for i in q.solution_cells]),
            "tests": [dict({"source": _source(cells[i]), "hidden": hidden, "origin": "chapter"},
                           **_test_points(cells[i], q))
                      for i, hidden in q.test_cells]})
        tagged = sum(t.get("points", 0) for t in questions[-1]["tests"])
        if tagged > q.points + 1e-9:
            raise FormatError(f"exercise {q.name!r}: its test cells' points:N tags add up to "
                              f"{tagged:g}, more than its {q.points:g} points.")
    cells = [c.get("id") for c in nb["cells"] if c.get("cell_type") == "code" and c.get("id")]
    return {"format": 1, "chapter": chapter, "questions": questions, "cells": cells,
            "cell_sources": chapter_cell_sources(nb)}


def check_spec(spec, name: str = "spec") -> dict:
    """Check the shape of an autograder specification; return it.

    Examples
    --------
    >>> check_spec({})
    Traceback (most recent call last):
    ...
    ValueError: spec is not an autograder specification of format 1: it needs 'format': 1, a 'chapter' string and a 'questions' list; got keys [].
    """
    if not isinstance(spec, dict) or spec.get("format") != 1 or not isinstance(
            spec.get("questions"), list) or not isinstance(spec.get("chapter"), str):
        keys = sorted(map(str, spec))[:10] if isinstance(spec, dict) else type(spec).__name__
        raise ValueError(f"{name} is not an autograder specification of format 1: it needs "
                         f"'format': 1, a 'chapter' string and a 'questions' list; got keys "
                         f"{keys}.")
    seen = set()
    for i, q in enumerate(spec["questions"]):
        where = f"{name}['questions'][{i}]"
        ok = (isinstance(q, dict) and isinstance(q.get("name"), str) and q["name"]
              and isinstance(q.get("points"), (int, float)) and not isinstance(q["points"], bool)
              and q["points"] > 0 and isinstance(q.get("manual"), bool)
              and isinstance(q.get("anchors", []), list)
              and isinstance(q.get("tests"), list))
        if not ok:
            raise ValueError(f"{where} must have a 'name' string, positive 'points', a "
                             f"'manual' flag and a 'tests' list, got {str(q)[:120]}.")
        for key in ("answers", "test_anchors", "binds"):
            if not (isinstance(q.get(key, []), list)
                    and all(isinstance(v, str) for v in q.get(key, []))):
                raise ValueError(f"{where}['{key}'] must be a list of strings.")
        check_forbid(q.get("forbid"), where)
        if q["name"] in seen:
            raise ValueError(f"{where}: question {q['name']!r} appears twice.")
        seen.add(q["name"])
        for k, test in enumerate(q["tests"]):
            points = test.get("points", 0) if isinstance(test, dict) else 0
            if not (isinstance(test, dict) and isinstance(test.get("source"), str)
                    and isinstance(test.get("hidden"), bool)
                    and isinstance(points, (int, float)) and not isinstance(points, bool)
                    and 0 <= points <= q["points"]):
                raise ValueError(f"{where}['tests'][{k}] must have a 'source' string, a "
                                 "'hidden' flag and at most the question's points.")
        if not q["manual"] and not q["tests"]:
            raise ValueError(f"{where}: autograded question {q['name']!r} has no tests.")
    return spec


def load_spec(path) -> dict:
    """Read an autograder folder (or its ``autograder.json``).

    Examples
    --------
    >>> load_spec("no/such/folder")
    Traceback (most recent call last):
    ...
    FileNotFoundError: autograder='no/such/folder' is not an autograder folder: no/such/folder/autograder.json does not exist; make one with `python -m mlcore.homework assign`.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"autograder must be a path, got {type(path).__name__}.")
    path = Path(path)
    file = path if path.suffix == ".json" else path / SPEC_NAME
    if not file.is_file():
        raise FileNotFoundError(f"autograder={str(path)!r} is not an autograder folder: {file} "
                                "does not exist; make one with `python -m mlcore.homework assign`.")
    try:
        spec = json.loads(file.read_bytes().decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise ValueError(f"{file} is not UTF-8 text (byte at position {error.start}); write "
                         "it again with `python -m mlcore.homework assign`.") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{file} is not valid JSON (line {error.lineno}, column "
                         f"{error.colno}: {error.msg}); write it again with `python -m "
                         "mlcore.homework assign`.") from None
    return check_spec(spec, name=str(file))


def add_extra_tests(spec: dict, folder) -> dict:
    """Return a copy of ``spec`` with a teacher's private tests added as hidden tests.

    ``folder/<question>.py`` is one test cell of that question, and so is
    each ``folder/<question>/*.py``.
    """
    check_spec(spec)
    if not isinstance(folder, (str, os.PathLike)):
        raise TypeError(f"extra_tests must be a path, got {type(folder).__name__}.")
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"extra_tests={str(folder)!r} is not a folder.")
    spec = json.loads(json.dumps(spec))
    by_name = {q["name"]: q for q in spec["questions"]}
    files = sorted(folder.glob("*.py")) + sorted(folder.glob("*/*.py"))
    if not files:
        raise ValueError(f"extra_tests={str(folder)!r} holds no <question>.py or "
                         "<question>/*.py files.")
    for file in files:
        name = file.stem if file.parent == folder else file.parent.name
        question = by_name.get(name)
        if question is None or question["manual"]:
            coded = ", ".join(q["name"] for q in spec["questions"] if not q["manual"])
            raise ValueError(f"extra test {file} names question {name!r}, which is not an "
                             f"autograded question of chapter {spec['chapter']}; use one of: "
                             f"{coded}.")
        try:
            source = file.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError(f"extra test {file} is not UTF-8 text.") from None
        question["tests"].append({"source": source, "hidden": True, "origin": str(file)})
    return spec
