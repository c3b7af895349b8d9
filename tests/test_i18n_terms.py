"""One Chinese word per term: locales/term_variants.txt and its check (scripts/check_translations.py).

The catalogs are checked by tests/test_i18n.py (test_every_catalog_is_complete_and_faithful),
which runs the same message check; here, what the rule catches and what it lets through.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import check_translations as ct  # noqa: E402


def test_every_variant_names_the_books_word_and_a_reason():
    rules = ct.term_variants()
    assert ("蒙特卡洛", "蒙特卡罗") in [(variant, word) for variant, word, _ in rules]
    for variant, word, reason in rules:
        assert variant != word and word not in variant and reason


def test_a_line_without_a_reason_is_refused(tmp_path):
    bad = tmp_path / "variants.txt"
    bad.write_text("# comment\n蒙特卡洛 -> 蒙特卡罗\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"variants.txt:2: .*a reason is required"):
        ct.term_variants(bad)


@pytest.mark.parametrize("english, chinese, expected", [
    ("A Monte Carlo standard error.", "一个蒙特卡洛标准误。", "term: write 蒙特卡罗, not 蒙特卡洛"),
    ("The accuracy is 0.9.", "准确率为0.9。", "term: write 精度, not 准确率"),
    ("Reject the null.", "拒绝零假设。", "term: write 原假设, not 零假设"),
])
def test_a_variant_fails_the_message(english, chinese, expected):
    assert any(p.startswith(expected) for p in ct.message_problems(english, chinese))


def test_the_books_word_and_code_pass():
    assert ct.message_problems("A Monte Carlo standard error.", "一个蒙特卡罗标准误。") == []
    # inside code the variant is not prose (a file or function name is kept verbatim)
    assert ct.variant_problems(ct.split_message("见`蒙特卡洛.py`。").prose) == []
