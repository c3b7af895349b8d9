"""The translation checker reads markup as MyST does (scripts/check_translations.py).

Next to a Chinese character, CommonMark recognises ``**`` only when its other
side is not punctuation, so ``这是**自助法，**的`` shows its asterisks; a
translation that parses as a list or as two paragraphs is ignored by Sphinx.
The regular expressions of the checker cannot see either; MyST's parser can.
The catalogs themselves are checked by tests/test_i18n.py
(test_every_catalog_is_complete_and_faithful), which runs the same function.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import check_translations as ct  # noqa: E402

ENGLISH = "The **bootstrap** draws *with* replacement: $m$ draws, `resample(X)`, {term}`bootstrap`."


@pytest.mark.parametrize("chinese", [
    "**自助法**进行*有*放回抽样：$m$次抽取，`resample(X)`，{term}`自助法 <bootstrap>`。",
    "“**自助法**”进行“*有*”放回抽样：$m$次抽取，`resample(X)`，{term}`自助法 <bootstrap>`。",
])
def test_markup_that_myst_reads_as_the_english_passes(chinese):
    assert ct.markup_problems(ENGLISH, chinese) == []


@pytest.mark.parametrize("chinese, expected", [
    # punctuation just inside the delimiters, a Chinese character outside
    ("这是**自助法，**进行*有*放回抽样：$m$，`resample(X)`，{term}`自助法 <bootstrap>`。",
     ["markup: 1 strong (**…**) in the English, 0 as MyST parses",
      "markup: 4 literal '*' would show"]),
    ("**自助法**进行*“有”*放回抽样：$m$，`resample(X)`，{term}`自助法 <bootstrap>`。",
     ["markup: 1 emphasis (*…*) in the English, 0", "markup: 2 literal '*'"]),
    ("**自助法**进行*有*放回抽样：$m次，`resample(X)`，{term}`自助法 <bootstrap>`。",
     ["markup: 1 inline math in the English, 0", "markup: 1 literal '$'"]),
    ("**自助法**进行*有*放回抽样：$m$，resample(X)，{term}`自助法 <bootstrap>`。",
     ["markup: 1 inline code in the English, 0"]),
    # a line starting "1)" starts a list; a blank line, a second paragraph
    ("**自助法**进行*有*放回抽样：$m$，`resample(X)`，\n1) {term}`自助法 <bootstrap>`。",
     ["markup: MyST parses the translation as paragraph_open + ordered_list_open"]),
    ("**自助法**进行*有*放回抽样：$m$，\n\n`resample(X)`，{term}`自助法 <bootstrap>`。",
     ["markup: MyST parses the translation as paragraph_open + paragraph_open"]),
])
def test_markup_that_myst_reads_otherwise_is_named(chinese, expected):
    problems = ct.markup_problems(ENGLISH, chinese)
    assert len(problems) == len(expected), problems
    for problem, start in zip(problems, expected):
        assert problem.startswith(start), problems


def test_a_literal_asterisk_of_the_english_may_stay():
    assert ct.markup_problems("Multiply: 3 \\* 4 (an asterisk).", "相乘：3 \\* 4（星号）。") == []


def test_the_markup_check_is_part_of_the_message_check():
    broken = "这是**自助法，**进行*有*放回抽样：$m$，`resample(X)`，{term}`自助法 <bootstrap>`。"
    assert any(p.startswith("markup:") for p in ct.message_problems(ENGLISH, broken))
