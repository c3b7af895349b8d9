"""Read the exercise format of CONTRIBUTING.md: a chapter's questions, tests, solutions.

A chapter notebook is the one source of every exercise. Its cells carry tags:

=====================  =======================================================
tag                    meaning
=====================  =======================================================
``exercise``           Markdown cell holding an ``{exercise}`` directive with
                       a ``:label:`` (the question's name)
``points:N``           the exercise is worth N points (on the exercise cell);
                       on a test cell: that test is worth N of them
``manual``             pen-and-paper: graded by the teacher (on the exercise
                       cell)
``solution``           code cell with the solution; the part a student writes
                       is between ``# BEGIN SOLUTION`` and ``# END SOLUTION``
                       or is one line ending in ``# SOLUTION``
``tests``              public test cell (the student sees and runs it)
``hidden-tests``       test cell only the autograder runs
``heavy``              long demo, dropped from the student edition and from
                       grading
=====================  =======================================================

Grading reads a chapter (and its specification, ``_spec.py``) through this
module; the two editions derived from it are written by
:mod:`mlcore.homework.editions` (``_edition.py``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from ._parse import parse
from ._rules import check_forbid

__all__ = ["Question", "FormatError", "parse_questions", "stub_solution",
           "tags_of", "check_notebook"]

TEST_TAGS = {"tests", "hidden-tests"}
META_KEY = "homework"

_LABEL = re.compile(r"^\s*:label:\s*(\S+)\s*$", re.MULTILINE)
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")
_POINTS = re.compile(r"^points:(.*)$")
_BEGIN = re.compile(r"^(\s*)#\s*BEGIN SOLUTION\s*$")
_END = re.compile(r"^\s*#\s*END SOLUTION\s*$")
_ONE_LINE = re.compile(r"#\s*SOLUTION\s*$")


class FormatError(ValueError):
    """A chapter's exercise cells do not follow the format of CONTRIBUTING.md."""


@dataclass
class Question:
    """One exercise of a chapter.

    Attributes
    ----------
    name : str
        The exercise's ``:label:``, e.g. ``"ex01-sigmoid"``; a column of grades.csv.
    points : float
        Points the exercise is worth.
    manual : bool
        True for a pen-and-paper exercise graded by the teacher.
    exercise_cell : int
        Index of the exercise's Markdown cell in the notebook.
    solution_cells : list of int
        Indices of its ``solution`` code cells.
    test_cells : list of (int, bool)
        Indices of its test cells and whether each is hidden.
    forbid : list of str
        Names its solution must not use (``homework.forbid`` in the exercise
        cell's metadata), checked by
        :func:`mlcore.homework.grading._rules.forbidden_uses`.
    """

    name: str
    points: float
    manual: bool
    exercise_cell: int
    solution_cells: list = field(default_factory=list)
    test_cells: list = field(default_factory=list)
    forbid: list = field(default_factory=list)


def check_notebook(nb, name: str = "nb") -> None:
    """Check that ``nb`` has the shape of a Jupyter notebook; raise a clear error if not.

    Examples
    --------
    >>> check_notebook({"cells": "abc"})
    Traceback (most recent call last):
    ...
    TypeError: nb['cells'] must be a list of cells, got str.
    """
    if not hasattr(nb, "get") or not hasattr(nb, "__getitem__"):
        raise TypeError(f"{name} must be a notebook (a dict with a 'cells' list), got "
                        f"{type(nb).__name__}.")
    if "cells" not in nb:
        raise FormatError(f"{name} is not a notebook: it has no 'cells' (keys: "
                          f"{sorted(map(str, nb))[:10]}).")
    cells = nb["cells"]
    if not isinstance(cells, list):
        raise TypeError(f"{name}['cells'] must be a list of cells, got {type(cells).__name__}.")
    for index, cell in enumerate(cells):
        where = f"{name}['cells'][{index}]"
        if not hasattr(cell, "get"):
            raise TypeError(f"{where} must be a cell (a dict), got {type(cell).__name__}.")
        if cell.get("cell_type") not in ("code", "markdown", "raw"):
            raise FormatError(f"{where} has cell_type={cell.get('cell_type')!r}; a cell is "
                              "'code', 'markdown' or 'raw'.")
        source = cell.get("source", "")
        if not (isinstance(source, str) or (isinstance(source, list)
                                            and all(isinstance(s, str) for s in source))):
            raise TypeError(f"{where}['source'] must be a string or a list of strings, got "
                            f"{type(source).__name__}.")
        metadata = cell.get("metadata", {})
        if metadata is not None and not hasattr(metadata, "get"):
            raise TypeError(f"{where}['metadata'] must be a dict, got {type(metadata).__name__}.")
        tags = (metadata or {}).get("tags", [])
        if tags is not None and not (isinstance(tags, list)
                                     and all(isinstance(t, str) for t in tags)):
            raise TypeError(f"{where}['metadata']['tags'] must be a list of strings, got "
                            f"{tags!r:.80}.")


def check_chapter(chapter) -> str:
    """Return ``chapter`` if it is a non-empty string (a chapter's file stem)."""
    if not isinstance(chapter, str) or not chapter.strip():
        raise TypeError(f"chapter must be the chapter's file stem as a non-empty string, "
                        f"got chapter={chapter!r}.")
    return chapter


def tags_of(cell) -> set:
    """Return the set of a cell's tags.

    Examples
    --------
    >>> sorted(tags_of({"metadata": {"tags": ["exercise", "points:2"]}}))
    ['exercise', 'points:2']
    """
    return set((cell.get("metadata") or {}).get("tags", []) or [])


def _source(cell) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _where(index: int, cell) -> str:
    first = _source(cell).strip().splitlines()[:1]
    preview = first[0][:60] if first else "(empty)"
    return f"cell {index} ({cell.get('cell_type')}: {preview!r})"


def _points(index: int, cell, tags: set) -> float:
    found = [m.group(1) for m in (_POINTS.match(t) for t in tags) if m]
    if len(found) != 1:
        raise FormatError(f"{_where(index, cell)} is tagged 'exercise' and needs exactly one "
                          f"'points:N' tag, got {sorted(found) or 'none'}.")
    try:
        value = float(found[0])
    except ValueError:
        value = float("nan")
    if not value > 0 or value != value or value == float("inf"):
        raise FormatError(f"{_where(index, cell)}: points must be a positive number, got "
                          f"'points:{found[0]}'.")
    return value


def _label(index: int, cell) -> str:
    labels = _LABEL.findall(_source(cell))
    if len(labels) != 1:
        raise FormatError(f"{_where(index, cell)} is tagged 'exercise' and needs exactly one "
                          f"':label:' (the question's name), got {labels or 'none'}.")
    name = labels[0]
    if not _NAME.match(name):
        raise FormatError(f"{_where(index, cell)}: label {name!r} must start with a letter and "
                          "hold only letters, digits, '-', '_' or '.' (it names a CSV column).")
    return name


def parse_questions(nb) -> list[Question]:
    """List a notebook's exercises, checking the cell format of CONTRIBUTING.md.

    Parameters
    ----------
    nb : dict or nbformat.NotebookNode
        The chapter notebook (a student edition parses too).

    Returns
    -------
    list of Question
        In notebook order.

    Raises
    ------
    FormatError
        When an exercise lacks its label or points, a coding exercise lacks a
        solution or tests, tests come before any exercise, or labels repeat.

    Examples
    --------
    >>> cells = [
    ...     {"cell_type": "markdown", "metadata": {"tags": ["exercise", "points:2"]},
    ...      "source": "```{exercise} Sigmoid\\n:label: ex01-sigmoid\\n```"},
    ...     {"cell_type": "code", "metadata": {"tags": ["solution"]},
    ...      "source": "s = 1  # SOLUTION"},
    ...     {"cell_type": "code", "metadata": {"tags": ["tests"]}, "source": "assert s == 1"},
    ... ]
    >>> [(q.name, q.points, q.solution_cells, q.test_cells) for q in parse_questions({"cells": cells})]
    [('ex01-sigmoid', 2.0, [1], [(2, False)])]
    """
    check_notebook(nb)
    questions: list[Question] = []
    for index, cell in enumerate(nb["cells"]):
        tags = tags_of(cell)
        if "exercise" in tags:
            if cell.get("cell_type") != "markdown":
                raise FormatError(f"{_where(index, cell)}: the 'exercise' tag belongs on the "
                                  "Markdown cell holding the {exercise} directive.")
            name = _label(index, cell)
            if any(q.name == name for q in questions):
                raise FormatError(f"{_where(index, cell)}: the label {name!r} is used by two "
                                  "exercises; labels name questions and must be unique.")
            meta = (cell.get("metadata") or {}).get(META_KEY) or {}
            forbid = check_forbid(meta.get("forbid") if isinstance(meta, dict) else None,
                                  _where(index, cell))
            questions.append(Question(name, _points(index, cell, tags), "manual" in tags, index,
                                      forbid=forbid))
            continue
        role = tags & ({"solution"} | TEST_TAGS)
        if not role:
            continue
        if cell.get("cell_type") != "code":
            raise FormatError(f"{_where(index, cell)}: tags {sorted(role)} belong on code cells.")
        if len(role) > 1:
            raise FormatError(f"{_where(index, cell)} has the tags {sorted(role)}; a cell is "
                              "either a solution, public tests or hidden tests.")
        if not questions:
            raise FormatError(f"{_where(index, cell)} is tagged {sorted(role)[0]!r} but comes "
                              "before any cell tagged 'exercise'.")
        question = questions[-1]
        if "solution" in role:
            question.solution_cells.append(index)
        else:
            question.test_cells.append((index, "hidden-tests" in role))
    for q in questions:
        where = _where(q.exercise_cell, nb["cells"][q.exercise_cell])
        if q.manual and q.test_cells:
            raise FormatError(f"{where}: exercise {q.name!r} is tagged 'manual' but has test "
                              "cells; remove 'manual' to autograde it, or remove its tests.")
        if not q.manual and not q.test_cells:
            raise FormatError(f"{where}: coding exercise {q.name!r} has no cell tagged 'tests' "
                              "or 'hidden-tests'; tag it 'manual' if a teacher grades it.")
        if not q.manual and not q.solution_cells:
            raise FormatError(f"{where}: coding exercise {q.name!r} has no code cell tagged "
                              "'solution' before its tests.")
    return questions


def _stub_line(line: str) -> str:
    indent = line[: len(line) - len(line.lstrip())]
    code = _ONE_LINE.sub("", line).strip()
    try:
        node = parse(code).body
    except SyntaxError:
        node = []
    if len(node) == 1 and isinstance(node[0], (ast.Assign, ast.AnnAssign)) and node[0].value:
        # Keep the target as written: everything before the assigned value.
        return indent + code[: node[0].value.col_offset].rstrip() + " ..."
    return indent + "..."


def stub_solution(source: str, *, where: str = "the solution cell") -> str:
    """Replace the solution part of a code cell by ``...``.

    Lines between ``# BEGIN SOLUTION`` and ``# END SOLUTION`` become one
    ``...`` at the marker's indentation; a line ending in ``# SOLUTION``
    becomes ``name = ...`` when it is an assignment, else ``...``.

    Parameters
    ----------
    source : str
        The cell's code.
    where : str
        How error messages name the cell.

    Returns
    -------
    str

    Raises
    ------
    FormatError
        When the cell has no markers or they do not pair up.

    Examples
    --------
    >>> print(stub_solution("def f(x):\\n    # BEGIN SOLUTION\\n    return 2 * x\\n    # END SOLUTION"))
    def f(x):
        ...
    >>> stub_solution("w = np.zeros(3)  # SOLUTION")
    'w = ...'
    """
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        source = "".join(source)      # nbformat's list-of-lines form
    if not isinstance(source, str):
        raise TypeError(f"source must be the cell's code as a string, got "
                        f"{type(source).__name__}.")
    out, inside, marked = [], False, False
    for number, line in enumerate(source.split("\n"), start=1):
        begin = _BEGIN.match(line)
        if begin:
            if inside:
                raise FormatError(f"{where}, line {number}: '# BEGIN SOLUTION' inside another "
                                  "BEGIN/END SOLUTION block.")
            inside = marked = True
            out.append(begin.group(1) + "...")
        elif _END.match(line):
            if not inside:
                raise FormatError(f"{where}, line {number}: '# END SOLUTION' without a "
                                  "'# BEGIN SOLUTION' before it.")
            inside = False
        elif inside:
            continue
        elif _ONE_LINE.search(line):
            marked = True
            out.append(_stub_line(line))
        else:
            out.append(line)
    if inside:
        raise FormatError(f"{where}: '# BEGIN SOLUTION' is never closed by '# END SOLUTION'.")
    if not marked:
        raise FormatError(f"{where} is tagged 'solution' but has no '# BEGIN SOLUTION' / "
                          "'# END SOLUTION' lines and no line ending in '# SOLUTION', so the "
                          "student edition would show the answer.")
    stub = "\n".join(out)
    if not stub.lstrip().startswith(("%", "!")):
        try:
            parse(stub)
        except SyntaxError as error:
            raise FormatError(f"{where}: replacing the solution by '...' leaves invalid Python "
                              f"({error.msg}, line {error.lineno}); put the markers around whole "
                              "statements.") from None
    return stub
