"""Every autograded question's tests take points from plausible wrong solutions (#39).

``tests/homework_fixtures/wrong/<question>/<name>.py`` holds wrong answers to
an autograded exercise, each starting with ``# wrong: <what is wrong>``. A
fixture is the code a student writes in place of the solution cell's ``...``
(the lines between ``# BEGIN SOLUTION`` and ``# END SOLUTION``, written at
column 0); a fixture that starts with ``def <answer>`` replaces the whole
solution cell instead.

For each chapter the teacher's notebook runs once, in process, the way the
grader's reference run sees it (``autograder_notebook``: no ``heavy`` cells;
``_plan``: the code cells and each question's snapshot point), but only the
cells the exercises need (a backward slice over the names the cells bind and
read: ``tests/cell_slicing.py``, shared with ``test_homework.py``), so the
whole file costs seconds, not a notebook per fixture. At each
question's snapshot point its answers are replaced by the fixture's (its
solution cell run again with the fixture filled in, ``stub_solution``'s
hole) and its public and hidden checks run with the grader's own
``run_check`` on the teacher's namespace, restored from ``cloudpickle``
blobs as ``_checker.py`` restores it. A fixture must fail at least one
check; the teacher's own solution, filled in through the same path, must
pass every check.
"""

from __future__ import annotations

import builtins
import functools
import io
import json
import re
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from cell_slicing import bound_and_read, imports_of, needed_cells

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = ROOT / "chapters"
FIXTURES = Path(__file__).parent / "homework_fixtures" / "wrong"
MIN_FIXTURES = 3
_HEADER = re.compile(r"^# wrong: \S.*$")
_LABEL = re.compile(r"^\s*:label:\s*(\S+)\s*$", re.MULTILINE)


def _source(cell) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def autograded_labels() -> dict:
    """``{label: chapter stem}`` of every autograded exercise (a glob over chapters)."""
    found = {}
    for path in sorted(CHAPTERS.glob("[0-9][0-9]_*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            tags = set((cell.get("metadata") or {}).get("tags") or [])
            if "exercise" in tags and "manual" not in tags:
                label = _LABEL.search(_source(cell))
                if label:
                    found[label.group(1)] = path.stem
    return found


LABELS = autograded_labels()


def fixture_files() -> list:
    return sorted(FIXTURES.glob("*/*.py"))


# -- one chapter: the teacher's run, and each fixture's checks ---------------------


def fill_solution(source: str, answer: str) -> str:
    """The solution cell with ``answer`` in ``stub_solution``'s hole (its ``...``)."""
    from mlcore.homework.grading._format import stub_solution

    lines = stub_solution(source).split("\n")
    holes = [i for i, line in enumerate(lines) if line.strip() == "..."]
    assert len(holes) == 1, f"expected one solution block, found {len(holes)}"
    indent = lines[holes[0]][: len(lines[holes[0]]) - len(lines[holes[0]].lstrip())]
    body = [indent + line if line.strip() else ""
            for line in answer.strip("\n").split("\n")]
    return "\n".join(lines[: holes[0]] + body + lines[holes[0] + 1:])


def teacher_answer(source: str) -> str:
    """The lines between BEGIN and END SOLUTION, dedented: the reference answer."""
    import textwrap

    lines = source.split("\n")
    begin = next(i for i, line in enumerate(lines) if "# BEGIN SOLUTION" in line)
    end = next(i for i, line in enumerate(lines) if "# END SOLUTION" in line)
    return textwrap.dedent("\n".join(lines[begin + 1:end]))


def _run(source: str, namespace: dict) -> None:
    with redirect_stdout(io.StringIO()):
        exec(compile(source, "<cell>", "exec"), namespace)


@functools.lru_cache(maxsize=None)
def chapter_verdicts(chapter: str) -> dict:
    """``{(question, fixture name): [verdict of each check]}``; ``"reference"`` is the
    teacher's own solution, filled in like a fixture."""
    import cloudpickle
    import matplotlib
    import nbformat

    from mlcore.homework.sandbox._checker import run_check
    from mlcore.homework.editions._edition import autograder_notebook
    from mlcore.homework.grading._grade import build_spec
    from mlcore.homework.grading._plan import (adopt_chapter_ids, names_used,
                                               plan_notebook)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    nb = nbformat.reads((CHAPTERS / f"{chapter}.ipynb").read_text(encoding="utf-8"),
                        as_version=4)
    graded = autograder_notebook(nb, chapter)
    spec = build_spec(graded, chapter)
    plan = plan_notebook(adopt_chapter_ids(graded, spec), spec)
    sources, _, points, spans, coded, notes = plan
    assert not notes, notes
    # In the teacher's notebook every cell is the chapter's: a question's span holds
    # its solution cells only.
    solution = {n: [sources[k] for k in spans[n]] for n in range(len(coded))}
    wanted = {}
    for n, q in enumerate(coded):
        wanted.setdefault(points[n], []).extend(
            solution[n] + [t["source"] for t in q["tests"]])
    keep = needed_cells(sources, wanted)
    by_point = {}
    for n, at in enumerate(points):
        by_point.setdefault(at, []).append(n)
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    _run("from IPython.display import display", namespace)
    verdicts, carried = {}, {}
    for k, source in enumerate(sources):
        _run(source if k in keep else imports_of(source), namespace)
        plt.close("all")
        for n in by_point.get(k, []):
            q = coded[n]
            tests = [t["source"] for t in q["tests"]]
            # The reference: the names the checks use, as _checker.py restores them.
            blobs = {name: cloudpickle.dumps(namespace[name])
                     for name in sorted(names_used(tests)) if name in namespace}
            assert len(solution[n]) == 1, f"{q['name']}: one solution cell expected"
            cell = solution[n][0]
            answers = {"reference": teacher_answer(cell)}
            for path in sorted((FIXTURES / q["name"]).glob("*.py")):
                answers[path.stem] = path.read_text(encoding="utf-8")
            for name, answer in answers.items():
                student = dict(namespace)
                for a in q["answers"]:
                    student.pop(a, None)
                whole = any(re.match(rf"def {re.escape(a)}\(", line)
                            for a in q["answers"] for line in answer.split("\n"))
                code = answer if whole else fill_solution(cell, answer)
                _run(code, student)
                # _checker.py runs a chapter's checks in one namespace: what the
                # earlier questions' tests bound stays, under the reference's names.
                checks = {key: cloudpickle.loads(blob) for key, blob in carried.items()}
                checks.update({key: cloudpickle.loads(blob)
                               for key, blob in blobs.items()})
                checks.update({"__name__": "__main__", "__builtins__": builtins})
                checks.update({a: student[a] for a in q["answers"] if a in student})
                verdicts[q["name"], name] = found = []
                with redirect_stdout(io.StringIO()):
                    for i, test in enumerate(tests):
                        found.append(run_check(test, i, checks))
                        if name != "reference" and not found[-1]["ok"]:
                            break       # it loses points: the later checks cost time
                if name == "reference":
                    # (a test the slicer cannot read carries every name it mentions)
                    for key in set().union(*((bound_and_read(t) or [names_used([t])])[0]
                                             for t in tests)):
                        if key in checks:
                            carried[key] = cloudpickle.dumps(checks[key])
    return verdicts


def _params():
    params = []
    for path in fixture_files():
        question = path.parent.name
        chapter = LABELS.get(question, "unknown")
        marks = [pytest.mark.xdist_group(chapter)]
        params.append(pytest.param(chapter, question, path.stem, marks=marks,
                                   id=f"{chapter}/{question}/{path.stem}"))
    return params


@pytest.mark.parametrize("chapter", [
    pytest.param(chapter, marks=pytest.mark.xdist_group(chapter))
    for chapter in sorted(set(LABELS.values()))])
def test_reference_solution_keeps_full_marks(chapter):
    verdicts = chapter_verdicts(chapter)
    for question in sorted(q for q, c in LABELS.items() if c == chapter):
        failed = [v for v in verdicts[question, "reference"] if not v["ok"]]
        assert not failed, f"{question}: the teacher's solution fails {failed}"


@pytest.mark.parametrize("chapter, question, fixture", _params())
def test_wrong_solution_loses_points(chapter, question, fixture):
    assert question in LABELS, (
        f"fixtures folder {question!r} names no autograded exercise of the chapters")
    verdicts = chapter_verdicts(chapter)[question, fixture]
    assert not all(v["ok"] for v in verdicts), (
        f"{question}/{fixture}.py (wrong) passes all {len(verdicts)} checks: "
        "strengthen the question's hidden tests")


def test_fixtures_are_marked_wrong():
    for path in fixture_files():
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        assert _HEADER.match(first), (
            f"{path.relative_to(ROOT)}: its first line must be "
            "'# wrong: <what is wrong>'")


def test_every_autograded_question_has_enough_wrong_solutions():
    counts = {label: len(list((FIXTURES / label).glob("*.py"))) for label in LABELS}
    few = {label: n for label, n in counts.items() if n < MIN_FIXTURES}
    assert not few, (
        f"autograded questions with fewer than {MIN_FIXTURES} wrong-solution fixtures "
        f"under tests/homework_fixtures/wrong/<label>/ (CONTRIBUTING.md): {few}")
