"""Read a submitted notebook and find, in it, each question's answers and test point.

A submission is whatever a student's tools saved: cells may have lost their
ids and metadata (nbformat 4.0-4.4, Colab, jupytext, a copy into a fresh
notebook). A code cell whose source is a cell of the chapter's (the
autograder's notebook, recorded in the specification) is the chapter's,
whatever its id; a question whose solution cells are not found by id or
metadata starts after the previous question's tests, or at its exercise's
Markdown (found by its label), never at the notebook's first cell.
"""

from __future__ import annotations

import ast
import copy
import json
import re

from ._format import META_KEY, TEST_TAGS, check_notebook, tags_of
from ._parse import parse_or_none
from ._spec import _source, cell_key, chapter_cell_sources  # noqa: F401 -- re-exported

__all__ = ["read_notebook", "chapter_cell_sources", "adopt_chapter_ids", "plan_notebook",
           "MAX_FILE_BYTES", "MAX_BYTES"]

MAX_FILE_BYTES = 200 * 1024 * 1024      # the file as handed in, outputs included
MAX_BYTES = 50 * 1024 * 1024            # the notebook once its outputs are dropped


def _drop_outputs(raw) -> None:
    """Remove saved outputs (never graded) from a parsed notebook of any nbformat, in place."""
    if not isinstance(raw, dict):
        return
    cells = list(raw.get("cells") or []) if isinstance(raw.get("cells"), list) else []
    for sheet in raw.get("worksheets") or [] if isinstance(raw.get("worksheets"), list) else []:
        if isinstance(sheet, dict) and isinstance(sheet.get("cells"), list):
            cells += sheet["cells"]
    for cell in cells:
        if isinstance(cell, dict):
            for key in ("outputs", "attachments"):
                if key in cell:
                    cell[key] = [] if key == "outputs" else {}


def read_notebook(data: bytes):
    """Return ``(notebook, None)``, or ``(None, why)`` without quoting the file's content.

    A UTF-8 byte-order mark is accepted (Jupyter opens such files). Saved
    outputs are dropped before the size of the code is checked: a notebook
    is refused only above 200 MiB as a file, or above 50 MiB without its
    outputs.

    Examples
    --------
    >>> read_notebook(b"root:x:0:0:root:/root:/bin/bash")[1]
    'it is not valid JSON (line 1, column 1: Expecting value)'
    """
    import nbformat
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"data must be the file's bytes, got {type(data).__name__}.")
    if len(data) > MAX_FILE_BYTES:
        return None, f"the file is larger than {MAX_FILE_BYTES // 2**20} MiB"
    try:
        text = bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return None, f"it is not UTF-8 text (position {error.start})"
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        return None, f"it is not valid JSON (line {error.lineno}, column {error.colno}: " \
                     f"{error.msg})"
    except RecursionError:
        return None, "it is not a notebook (nested too deeply)"
    del text
    _drop_outputs(raw)
    try:
        text = json.dumps(raw)
    except (ValueError, RecursionError):
        return None, "it is not a notebook (nested too deeply)"
    if len(text.encode("utf-8")) > MAX_BYTES:
        return None, (f"it is larger than {MAX_BYTES // 2**20} MiB even without its outputs "
                      "(the code and Markdown alone)")
    try:
        nb = nbformat.reads(text, as_version=4)
        check_notebook(nb, "the notebook")
    except Exception as error:   # any other way a file fails to be a notebook
        return None, f"it is not a Jupyter notebook ({type(error).__name__})"
    return nb, None


def adopt_chapter_ids(nb, spec: dict):
    """A copy of ``nb`` where a code cell whose source is a chapter cell's has that cell's id.

    Only cells whose own id the chapter does not have are changed, so a
    notebook that kept its ids is graded as before.
    """
    sources = spec.get("cell_sources") or {}
    known = set(spec.get("cells") or [])
    if not sources:
        return nb
    nb = copy.copy(nb)
    cells = []
    for cell in nb["cells"]:
        if cell.get("cell_type") == "code" and cell.get("id") not in known:
            chapter = sources.get(cell_key(_source(cell)))
            if chapter is not None:
                cell = copy.copy(cell)
                cell["id"] = chapter
        cells.append(cell)
    nb["cells"] = cells
    return nb


def _exercise_markdown(nb, name: str):
    """Index of the Markdown cell that states exercise ``name`` (by its label), or None."""
    label = re.compile(rf"^\s*:label:\s*{re.escape(name)}\s*$", re.MULTILINE)
    for i, cell in enumerate(nb["cells"]):
        if cell.get("cell_type") == "markdown" and label.search(_source(cell)):
            return i
    return None


def plan_notebook(nb, spec: dict):
    """The student's code cells, each question's snapshot point and its solution cells.

    A question's answers are saved right before its first test cell (found by
    cell id or by the public test's source), as Jupyter would run them, so an
    answer written in a new cell below the stub counts. Test cells never run.
    Returns ``(sources, cells, points, spans, coded, notes)``.
    """
    coded = [q for q in spec["questions"] if not q["manual"]]
    public, anchors = {}, {}
    for number, q in enumerate(coded):
        for test in q["tests"]:
            if not test["hidden"]:
                public.setdefault(test["source"].strip(), number)
        for anchor in q.get("test_anchors", []):
            anchors.setdefault(anchor, number)
    sources, first_test, solution_at, where, ids = [], {}, {}, [], []
    known, solution_cells = set(spec.get("cells") or []), set()
    for i, cell in enumerate(nb["cells"]):
        if cell.get("cell_type") != "code":
            continue
        tags, text = tags_of(cell), _source(cell)
        owner = anchors.get(cell.get("id"))
        if owner is None:
            owner = public.get(text.strip())
        if owner is not None or tags & TEST_TAGS:
            if owner is not None:
                first_test.setdefault(owner, len(sources))
            continue
        if "heavy" in tags:
            continue
        meta = (cell.get("metadata") or {}).get(META_KEY) or {}
        for number, q in enumerate(coded):
            if (isinstance(meta, dict) and meta.get("question") == q["name"]) or \
                    cell.get("id") in q["anchors"]:
                solution_at.setdefault(number, len(sources))
                solution_at[number, "last"] = len(sources)
                solution_cells.add(len(sources))
        sources.append(text)
        where.append(i)
        ids.append(cell.get("id"))
    points, spans, notes, previous = [], [], [], 0
    for number, q in enumerate(coded):
        if number in first_test:
            at = first_test[number] - 1
        elif (number, "last") in solution_at:
            at = solution_at[number, "last"]
        else:
            notes.append(f"The solution and test cells of {q['name']} were not found (deleted, "
                         "or their metadata removed); its tests ran after your last cell.")
            at = len(sources) - 1
        if number in solution_at:
            start = solution_at[number]
        else:
            # No solution cell is known: start at the exercise's statement, or right after
            # the previous question's tests; never at the chapter's first cells, whose
            # imports a rule would otherwise blame on the student.
            markdown = _exercise_markdown(nb, q["name"])
            below = [k for k in range(len(sources)) if markdown is not None
                     and where[k] > markdown]
            if below:
                start = max(previous, below[0])
            else:
                start = previous if number else max(at, 0)
        # the solution cells and the student's own cells up to the tests (not the chapter's)
        spans.append([k for k in range(min(start, at + 1), at + 1)
                      if k in solution_cells or ids[k] not in known])
        previous = at + 1
        points.append(at)
    return sources, where, points, spans, coded, notes


def names_used(sources) -> set:
    """Every name the checks' code mentions: what the reference must provide."""
    names = set()
    for source in sources:
        tree = parse_or_none(source)
        if tree is None:
            continue
        names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return names


def first_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[0][:70] if lines else "(empty)"
