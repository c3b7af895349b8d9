"""No chapter shows a warning on its page (ch07-08 review, finding 5).

A ``ConvergenceWarning``, ``RuntimeWarning`` or ``FutureWarning`` in a cell's
output reaches the website (``_config.yml`` keeps stderr) and usually means a
number the chapter quotes was computed from unconverged fits or an overflow.
The notebooks are not run again here: the test reads the outputs the build
already stored in its execution cache (``_build/.jupyter_cache``, filled by
``scripts/execute_notebooks.py`` before Sphinx reads it), matched to each
chapter's current code, as the site shows them.

A cell that shows a warning on purpose (a lesson about the warning itself)
carries the cell tag ``warning-expected`` (CONTRIBUTING.md, "A chapter, in
order"); its warnings are allowed, and only there.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))
CACHE = ROOT / "_build" / ".jupyter_cache"
TAG = "warning-expected"
# How Python shows a warning (warnings.showwarning: "file.py:12: FutureWarning: ..."),
# and any warning category named on stderr, where nothing but warnings and logs go.
SHOWN = re.compile(r":\d+: (?P<category>\w*Warning): ")
ON_STDERR = re.compile(r"\b(?P<category>[A-Z]\w*Warning)\b")


def warnings_in(notebook) -> list[str]:
    """``"cell N (id): Category: first line"`` for each warning in a notebook's outputs,
    except in cells tagged ``warning-expected``."""
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code" or TAG in cell.get("metadata", {}).get("tags", []):
            continue
        for output in cell.get("outputs", []):
            if output.get("output_type") != "stream":
                continue
            text = "".join(output.get("text", ""))
            pattern = ON_STDERR if output.get("name") == "stderr" else SHOWN
            for line in text.splitlines():
                match = pattern.search(line)
                if match:
                    found.append(f"cell {index} ({cell.get('id')}): {line.strip()[:160]}")
    return found


def test_the_check_finds_a_warning_and_honours_the_tag():
    shown = "/x/sklearn/svm/_base.py:1250: ConvergenceWarning: Liblinear failed to converge\n"
    cell = {"cell_type": "code", "id": "fit", "metadata": {},
            "outputs": [{"output_type": "stream", "name": "stderr", "text": shown}]}
    printed = {"cell_type": "code", "id": "say", "metadata": {},
               "outputs": [{"output_type": "stream", "name": "stdout",
                            "text": "no RuntimeWarning here, just a sentence\n"}]}
    assert warnings_in({"cells": [cell, printed]}) == [
        "cell 0 (fit): " + shown.strip()]
    cell["metadata"]["tags"] = [TAG]
    assert warnings_in({"cells": [cell, printed]}) == []


def _executed(chapter: Path):
    """The chapter as the build executed it, or a reason why there is none."""
    if not (CACHE / "global.db").is_file():
        return None, "no execution cache: build the site first (python scripts/tasks.py book)"
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import execute_notebooks
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    stamp = CACHE / "mlcore.sha256"
    if not stamp.is_file() or stamp.read_text() != execute_notebooks._mlcore_hash():
        return None, "the cached outputs were computed with another mlcore: rebuild the site"
    from jupyter_cache import get_cache

    cache = get_cache(str(CACHE))
    try:
        record = cache.match_cache_notebook(execute_notebooks._read(chapter))
    except KeyError:
        return None, f"{chapter.name} has changed since the build executed it: rebuild the site"
    return cache.get_cache_bundle(record.pk).nb, None


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda path: path.stem)
def test_an_executed_chapter_shows_no_warning(chapter):
    notebook, why = _executed(chapter)
    if notebook is None:
        pytest.skip(why)
    found = warnings_in(notebook)
    assert not found, (f"{chapter.name} shows warnings on its page; fix their cause, or tag "
                       f"the cell '{TAG}' if the warning is the lesson:\n" + "\n".join(found))
