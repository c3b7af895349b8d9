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


def test_a_pending_rule_reports_without_failing_its_catalogs(tmp_path, capsys):
    rules = tmp_path / "variants.txt"
    rules.write_text("5×2cv -> 5×2交叉验证 | 周志华 §2.4.3 | pending: 10_comparing_learners\n",
                     encoding="utf-8")
    assert ct.term_variants(rules) == [("5×2cv", "5×2交叉验证", "周志华 §2.4.3")]
    assert ct.pending_catalogs("5×2cv", rules) == {"10_comparing_learners"}
    po = ("msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n"
          "msgid \"The 5×2cv test.\"\nmsgstr \"5×2cv检验。\"\n")
    pending_file, other = tmp_path / "10_comparing_learners.po", tmp_path / "04_cv.po"
    for path in (pending_file, other):
        path.write_text(po, encoding="utf-8")
    original = ct.VARIANTS
    ct.VARIANTS = rules
    try:
        ct.term_variants.__defaults__ = (rules,)
        ct.pending_catalogs.__defaults__ = (rules,)
        assert ct.main([str(pending_file)]) == 0
        assert "pending term: write 5×2交叉验证, not 5×2cv" in capsys.readouterr().out
        assert ct.main([str(other)]) == 1
    finally:
        ct.VARIANTS = original
        ct.term_variants.__defaults__ = (original,)
        ct.pending_catalogs.__defaults__ = (original,)


def test_the_books_decided_terms_are_enforced():
    rules = {(variant, word) for variant, word, _ in ct.term_variants()}
    assert {("5×2 CV", "5×2交叉验证"), ("macro-F1", "宏F1"), ("micro-F1", "微F1"),
            ("K折结果的配对t检验", "交叉验证t检验"), ("basic区间", "基本区间")} <= rules


def test_a_proof_opens_with_one_word():
    english = "Proof. Take $x$."
    assert ct.message_problems(english, "证明：取$x$。") == []
    for wrong in ("证明　取$x$。", "证明。取$x$。"):
        assert any(p.startswith("proof: start the translation with 证明：")
                   for p in ct.message_problems(english, wrong))


def test_a_glossary_term_may_drop_its_space_between_latin_and_chinese():
    glossary = ct.GlossaryRule(terms=[("sigmoid function", "sigmoid 函数")],
                               exceptions=ct.Exceptions(aliases={}, not_terms=[]))
    assert glossary.problems("The sigmoid function.", "sigmoid函数。") == []
    assert glossary.problems("The sigmoid function.", "sigmoid 函数。") == []
    assert glossary.problems("The sigmoid function.", "逻辑函数。") != []
