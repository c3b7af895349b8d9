"""The Chinese edition: catalogs complete and faithful, directives translatable, editions linked.

* the checker of scripts/check_translations.py on hand-made messages (what
  it must catch and what it must let through), and on every catalog of
  ``locales/zh_CN``: 100 % translated, nothing fuzzy, math, numbers, code,
  roles and links kept, glossary terms used;
* the Chinese build's own record (``_build/i18n-untranslated.json``): no
  message of the current English source is shown in English, so a change of
  the English text fails here until ``scripts/i18n.py update`` and a new
  translation;
* a small Sphinx project with the book's extensions: self-check questions,
  options and feedback, exercise titles, theorem titles, admonitions and
  figure captions are extracted by the gettext builder, display math and
  glossary terms are not, and a zh_CN build shows the translations;
* the built sites: every page of each edition links the same page of the
  other (the header's language switch), and Chinese search finds 分散 and
  自助法 in the glossary and the chapters (in the browser, with
  tests/test_site.py's server and Chromium).
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path
from urllib.parse import quote

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import check_translations as ct  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
import test_site  # noqa: E402

SITE = ROOT / "_build" / "html"
CHINESE_SITE = SITE / "zh_CN"
UNTRANSLATED = ROOT / "_build" / "i18n-untranslated.json"


# -- the checker, on messages made for it ---------------------------------------

GLOSSARY = ct.GlossaryRule(
    terms=[("cross-validation", "交叉验证"), ("K-fold cross-validation", "K折交叉验证"),
           ("shatter", "分散"), ("precision", "查准率"), ("AUC", "ROC曲线下面积")],
    exceptions=ct.Exceptions(aliases={"auc": ["AUC"]}, not_terms=["double precision"]))

SOURCE = ("For each of $m = 60$ students, `fit(X, y)` runs {term}`cross-validation "
          "<cross-validation (交叉验证)>` 10 times ({cite}`kohavi1995`, see {ref}`sec-cv`).")
GOOD = ("对$m = 60$名学生中的每一名，`fit(X, y)`运行10次{term}`交叉验证 "
        "<cross-validation (交叉验证)>`（{cite}`kohavi1995`，见{ref}`sec-cv`）。")


def test_a_faithful_translation_passes():
    assert ct.message_problems(SOURCE, GOOD, GLOSSARY) == []


@pytest.mark.parametrize("broken, expected", [
    (GOOD.replace("$m = 60$", "$m=60$"), "math missing: 'm = 60'"),
    (GOOD.replace("`fit(X, y)`", "fit"), "code missing: 'fit(X, y)'"),
    (GOOD.replace("10次", "十次"), "numbers missing: '10'"),
    (GOOD.replace("<cross-validation (交叉验证)>", "<交叉验证>"),
     "roles missing: '{term}cross-validation (交叉验证)'"),
    (GOOD.replace("{cite}`kohavi1995`，", ""), "roles missing: '{cite}kohavi1995'"),
    (GOOD + "共2组。", "numbers not in the English: '2'"),
    # The role's target holds 交叉验证, but the reader sees only its text.
    (GOOD.replace("{term}`交叉验证 ", "{term}`CV "), "glossary: 'cross-validation' is 交叉验证"),
    ("For each of $m = 60$ students, `fit(X, y)` runs it 10 times.",
     "still English"),
])
def test_the_checker_names_what_a_translation_lost(broken, expected):
    problems = ct.message_problems(SOURCE, broken, GLOSSARY)
    assert any(p.startswith(expected) for p in problems), problems


def test_a_longer_term_claims_its_words_and_exceptions_apply():
    # K折交叉验证 satisfies "K-fold cross-validation"; "cross-validation" inside it
    # asks nothing more.
    assert GLOSSARY.problems("Run K-fold cross-validation.", "运行K折交叉验证。") == []
    assert GLOSSARY.problems("A class shatters the set.", "该类分散此集合。") == []
    assert GLOSSARY.problems("A class shatters the set.", "该类打散此集合。") != []
    assert GLOSSARY.problems("In double precision.", "在双精度下。") == []
    assert GLOSSARY.problems("Precision is low.", "精度低。") != []
    assert GLOSSARY.problems("The AUC is 0.9.", "AUC为0.9。") == []


def test_math_and_code_are_not_numbers_or_terms():
    parts = ct.split_message("In $x_2 + 3$ call `shatter(2)` and {cite}`vapnik1971`, 4 times.")
    assert parts.numbers == ct.Counter({"4": 1})
    assert parts.math == ct.Counter({"x_2 + 3": 1}) and parts.code == ct.Counter({"shatter(2)": 1})
    assert GLOSSARY.problems(parts.prose, "四次") == []


def test_the_glossary_gives_every_term_its_chinese():
    terms = dict(ct.glossary_terms())
    assert terms["shatter"] == "分散" and terms["bootstrap"] == "自助法"
    assert terms["MMD"] == terms["maximum mean discrepancy"] == "最大均值差异"
    assert len(terms) > 100


def test_every_glossary_exception_has_a_reason(tmp_path):
    exceptions = ct.Exceptions.read()  # exits with the line number on a bad line
    assert exceptions.aliases and exceptions.not_terms
    bad = tmp_path / "exceptions.txt"
    bad.write_text("alias: AUC -> AUC\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="a reason is required"):
        ct.Exceptions.read(bad)


def test_a_fuzzy_or_empty_entry_fails_the_file(tmp_path):
    po = tmp_path / "page.po"
    po.write_text(textwrap.dedent('''\
        msgid ""
        msgstr ""
        "Content-Type: text/plain; charset=UTF-8\\n"

        #, fuzzy
        #| msgid "Old text."
        msgid "New text with 3 items."
        msgstr "旧译文，3项。"

        msgid "Untouched."
        msgstr ""

        msgid "Done with 2 items."
        msgstr "完成，2项。"

        # verbatim: a citation, in its original language
        msgid "Vapnik, V. (1998). Statistical Learning Theory."
        msgstr "Vapnik, V. (1998). Statistical Learning Theory."

        msgid "Copied without a reason, 1998."
        msgstr "Copied without a reason, 1998."
        '''), encoding="utf-8")
    count, report = ct.check_file(po, GLOSSARY)
    assert count == 5
    assert [line.split(": ")[1] for line in report] == [
        "fuzzy (the English changed; revise, then delete '#, fuzzy' and the '#|' lines)\n"
        "    new", "untranslated", "still English"]
    assert ct.main([str(po)]) == 1
    fuzzy = report[0]
    assert "    new: New text with 3 items.\n    old: Old text.\n" in fuzzy
    assert "changed: [-Old text.-]{+New text with 3 items.+}" in fuzzy


def test_update_keeps_the_old_english_of_a_changed_message(tmp_path):
    """scripts/i18n.py's merge (babel, as sphinx-intl) writes '#| msgid' (review zh3 #11)."""
    import i18n

    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    old = "The figure shows what that costs: 30 samples, and a long tail of bad fits."
    new = old.replace("30", "40")
    pot, po = tmp_path / "page.pot", tmp_path / "zh_CN" / "page.po"
    pot.write_text(header + f'msgid "{new}"\nmsgstr ""\n\nmsgid "Kept."\nmsgstr ""\n',
                   encoding="utf-8")
    po.parent.mkdir()
    po.write_text(header + f'msgid "{old}"\nmsgstr "图中显示了代价：30个样本。"\n\n'
                  'msgid "Kept."\nmsgstr "保留。"\n', encoding="utf-8")
    assert i18n.merge(pot, po, "zh_CN").startswith("Update: ")
    text = po.read_text(encoding="utf-8")
    assert f'#, fuzzy\n#| msgid "The figure shows what that costs: 30 samples,' in text
    assert ct.previous_msgids(po) == {new: old}
    assert 'msgid "Kept."\nmsgstr "保留。"' in text
    count, report = ct.check_file(po)
    assert count == 2 and "changed: costs: [-30-]{+40+} samples," in report[0]
    assert i18n.merge(pot, po, "zh_CN").startswith("Not Changed: ")


# -- the catalogs of the book ---------------------------------------------------

def test_every_catalog_is_complete_and_faithful(capsys):
    files = ct.catalog_files()
    assert len(files) >= 17, "run python scripts/i18n.py update"
    status = ct.main([str(f) for f in files])
    report = capsys.readouterr().out
    assert status == 0, ("translation problems (python scripts/check_translations.py FILE "
                         "prints them per file):\n" + "\n".join(report.splitlines()[-40:]))


def test_the_chinese_site_shows_no_english_message():
    if not UNTRANSLATED.exists():
        pytest.skip("no Chinese build: run python scripts/tasks.py book")
    left = json.loads(UNTRANSLATED.read_text(encoding="utf-8"))
    count = sum(len(messages) for messages in left.values())
    sample = [f"{doc}: {messages[0][:80]}" for doc, messages in left.items()][:10]
    assert count == 0, (f"{count} messages of the current English text have no translation "
                        "(run python scripts/i18n.py update, translate, check):\n  "
                        + "\n  ".join(sample))


# -- the directives produce messages, and the translations reach the page -------

PAGE = textwrap.dedent("""\
    # A page

    :::{self-check} Which maps log-odds to a probability?
    - [ ] The logit. ~ No: the logit goes the other way.
    - [x] The sigmoid $\\sigma(z)$. ~ Yes: it inverts the logit.
    :::

    ```{exercise} Labels in $\\{-1, +1\\}$
    :label: ex-labels

    Show that $s = 2y - 1$.
    ```

    ```{solution} ex-labels
    Because $y = (s + 1)/2$.
    ```

    :::{prf:theorem} Gradient of the cross-entropy
    :label: thm-gradient

    The gradient is $X^T(\\hat y - y)/m$.
    :::

    :::{admonition} Learning objectives
    Explain the logit.
    :::

    ```{figure} pixel.png
    A one-pixel figure.
    ```

    $$
    J(\\theta) = -\\frac1m \\sum_i \\log p_i
    $$

    :::{glossary}
    logit (对数几率)
      The logarithm of the odds.
    :::
    """)
TRANSLATIONS = {
    "A page": "一页",
    "Which maps log-odds to a probability?": "哪个函数把对数几率映射为概率？",
    "The sigmoid $\\sigma(z)$.": "sigmoid函数$\\sigma(z)$。",
    "It inverts the logit.": "它是logit的反函数。",
    "Labels in $\\{-1, +1\\}$": "取值于$\\{-1, +1\\}$的标记",
    "(Gradient of the cross-entropy)": "（交叉熵的梯度）",
    "Learning objectives": "学习目标",
    "A one-pixel figure.": "一个像素的图。",
}
# 1x1 transparent PNG.
PIXEL = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                      "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")


def _mini_book(folder: Path) -> Path:
    source = folder / "src"
    source.mkdir()
    (source / "index.md").write_text(PAGE, encoding="utf-8")
    (source / "pixel.png").write_bytes(PIXEL)
    (source / "conf.py").write_text(textwrap.dedent(f"""\
        import sys
        sys.path.insert(0, {str(ROOT / "_ext")!r})
        extensions = ["myst_parser", "sphinx_proof", "selfcheck", "translatable"]
        myst_enable_extensions = ["colon_fence", "dollarmath"]
        gettext_compact = False
        gettext_uuid = False
        gettext_location = False
        locale_dirs = ["locales"]
        """), encoding="utf-8")
    return source


def _sphinx(source: Path, out: Path, builder: str, **overrides) -> None:
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    # As sphinx-build does: directives and nodes registered for this app only.
    with patch_docutils(source), docutils_namespace():
        app = Sphinx(str(source), str(source), str(out), str(out / ".doctrees"), builder,
                     confoverrides=overrides, status=None, warning=None, freshenv=True,
                     warningiserror=True)
        app.build()


def test_directives_give_messages_and_translations_reach_the_page(tmp_path):
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    source = _mini_book(tmp_path)
    _sphinx(source, tmp_path / "gettext", "gettext")
    with open(tmp_path / "gettext" / "index.pot", "rb") as handle:
        messages = {m.id for m in read_po(handle) if m.id}
    for wanted in [*TRANSLATIONS, "The logit.", "The logit goes the other way.",
                   "Show that $s = 2y - 1$.", "Explain the logit.", "The logarithm of the odds."]:
        assert wanted in messages, (wanted, sorted(messages))
    for unwanted in ["logit (对数几率)", "Correct.", "Not quite.", "Exercise"]:
        assert unwanted not in messages
    assert not [m for m in messages if "\\frac1m" in m], "display math became a message"

    catalog = Catalog(locale="zh_CN")
    for english, chinese in TRANSLATIONS.items():
        catalog.add(english, chinese)
    mo = source / "locales" / "zh_CN" / "LC_MESSAGES" / "index.mo"
    mo.parent.mkdir(parents=True)
    with open(mo, "wb") as handle:
        write_mo(handle, catalog)
    _sphinx(source, tmp_path / "html", "html", language="zh_CN")
    html = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", html)
    for chinese in TRANSLATIONS.values():
        assert re.findall(r"[\u4e00-\u9fff]+", chinese)[0] in text, chinese
    assert "<strong>正确。</strong>" in html and "<strong>不对。</strong>" in html
    # The solution's title repeats the exercise's, translated ("... (取值于...)").
    assert text.count("取值于") == 2, text
    assert "The logit goes the other way." in text  # untranslated: shown in English


# -- the built sites ----------------------------------------------------------

def _pages(site: Path) -> list[Path]:
    skip = {"_static", "_sources", "_images", "jupyter_execute", "zh_CN", "slides"}
    return sorted(p for p in site.rglob("*.html")
                  if not set(p.relative_to(site).parts[:-1]) & skip and p.name != "index.html")


_SWITCH = re.compile(r'<a href="(?P<href>[^"]+)" class="btn btn-sm btn-language-switch"')


def test_every_page_links_the_same_page_of_the_other_edition():
    if not (CHINESE_SITE / "index.html").exists() or not (SITE / "index.html").exists():
        pytest.skip("no built sites: run python scripts/tasks.py book")
    english, chinese = _pages(SITE), _pages(CHINESE_SITE)
    assert [p.relative_to(SITE) for p in english] == [p.relative_to(CHINESE_SITE) for p in chinese]
    problems = []
    for page, site, other in [*[(p, SITE, CHINESE_SITE) for p in english],
                              *[(p, CHINESE_SITE, SITE) for p in chinese]]:
        links = _SWITCH.findall(page.read_text(encoding="utf-8"))
        target = (page.parent / links[0]).resolve() if len(links) == 1 else None
        if target != other / page.relative_to(site):
            problems.append(f"{page.relative_to(SITE)}: switch {links} -> {target}")
    assert not problems, "\n".join(problems)


def test_the_chinese_pages_are_chinese():
    if not (CHINESE_SITE / "index.html").exists():
        pytest.skip("no Chinese build: run python scripts/tasks.py book")
    page = (CHINESE_SITE / "chapters" / "00_preface.html").read_text(encoding="utf-8")
    assert '<html lang="zh-CN"' in page
    assert "搜索" in page  # the theme's words, from Sphinx's and the theme's zh_CN catalogs


def test_chinese_search_finds_the_glossary_and_the_chapters(server, browser):
    if not (CHINESE_SITE / "search.html").exists():
        pytest.skip("no Chinese build: run python scripts/tasks.py book")
    page = browser.new_page()
    log = test_site.PageLog(page, server)
    found = {}
    try:
        for query in ["分散", "自助法"]:
            page.goto(f"{server}zh_CN/search.html?q={quote(query)}", wait_until="load")
            # Sphinx writes the summary once the search has finished (any language).
            page.wait_for_function(
                """() => { const s = document.querySelector("#search-results .search-summary");
                           return s && s.textContent.trim().length > 0; }""", timeout=60_000)
            found[query] = page.eval_on_selector_all(
                "#search-results ul.search li a", "(as) => as.map((a) => a.getAttribute('href'))")
    finally:
        page.close()
    for query, links in found.items():
        assert any("glossary" in link for link in links), (query, links)
        assert any(re.search(r"chapters/\d\d_", link) for link in links), (query, links)
    assert not log.problems(), log.problems()


# -- Chinese notebooks: the download button and the homework -----------------------

TINY = ROOT / "tests" / "homework_fixtures" / "99_tiny_chapter.ipynb"
TINY_CATALOG = textwrap.dedent('''\
    msgid ""
    msgstr ""
    "Content-Type: text/plain; charset=UTF-8\\n"

    msgid "A tiny chapter"
    msgstr "一个小章节"

    msgid "The sigmoid"
    msgstr "sigmoid函数"

    msgid "Write `sigmoid(z)`, $1/(1+e^{-z})$, elementwise on an array."
    msgstr "编写`sigmoid(z)`，对数组逐元素计算$1/(1+e^{-z})$。"

    msgid "The sigmoid maps 0 to one half. This explanation is part of the solution."
    msgstr "sigmoid把0映射为二分之一。这段解释是解答的一部分。"

    #, fuzzy
    msgid "Mean squared error"
    msgstr "过时的译文"

    msgid "Set `mse` to the mean squared error between `y` and `y_hat`."
    msgstr "令`mse`为`y`与`y_hat`之间的均方误差。"

    msgid "Summary"
    msgstr "小结"
    ''')


def _code(notebook: dict) -> list:
    return [(c["source"], c.get("metadata")) for c in notebook["cells"] if c["cell_type"] == "code"]


def test_the_chinese_student_edition_is_graded_like_the_english(tmp_path):
    from mlcore.homework import Limits, assign

    chapter = tmp_path / "chapters" / TINY.name
    chapter.parent.mkdir()
    chapter.write_bytes(TINY.read_bytes())
    po = tmp_path / "locales" / "zh_CN" / "LC_MESSAGES" / "chapters" / "99_tiny_chapter.po"
    po.parent.mkdir(parents=True)
    po.write_text(TINY_CATALOG, encoding="utf-8")

    english, = assign([chapter], tmp_path / "en", verify=False)
    chinese, = assign([chapter], tmp_path / "zh", language="zh_CN", limits=Limits(timeout=120))
    assert chinese.problems == []
    spec = {lang: json.loads((tmp_path / lang / "autograder" / TINY.stem / "autograder.json")
                             .read_text(encoding="utf-8")) for lang in ("en", "zh")}
    assert spec["zh"] == spec["en"]  # same questions, points and tests
    for folder in ("student", f"autograder/{TINY.stem}"):
        en, zh = (json.loads((tmp_path / lang / folder / TINY.name).read_text(encoding="utf-8"))
                  for lang in ("en", "zh"))
        assert _code(zh) == _code(en)
        text = "\n".join("".join(c["source"]) for c in zh["cells"] if c["cell_type"] == "markdown")
        assert "编写`sigmoid(z)`" in text and "# 一个小章节" in text and "## 小结" in text
        assert "Mean squared error" in text  # a fuzzy translation is not used
    # The scores tests/test_homework.py asserts for the English edition.
    assert chinese.solution.scores == {"ex99-sigmoid": 2.0, "ex99-mse": 3.0,
                                       "ex99-gradient": None}
    assert chinese.untouched.scores == {"ex99-sigmoid": 0.0, "ex99-mse": 0.0,
                                        "ex99-gradient": None}
    with pytest.raises(ValueError, match="language must be one of en, zh_CN, got 'fr'"):
        assign([chapter], tmp_path / "fr", language="fr", verify=False)
    po.unlink()
    with pytest.raises(FileNotFoundError, match="language='zh_CN': the catalog"):
        assign([chapter], tmp_path / "zh2", language="zh_CN", verify=False)


def test_chapter_3_in_chinese_has_the_english_code_and_tests(tmp_path):
    from mlcore.homework import assign

    chapter = ROOT / "chapters" / "03_vc_dimension.ipynb"
    for language in ("en", "zh_CN"):
        assign([chapter], tmp_path / language, verify=False, language=language)
    read = lambda lang, rel: json.loads((tmp_path / lang / rel).read_text(encoding="utf-8"))  # noqa: E731
    rel = f"autograder/{chapter.stem}/autograder.json"
    assert read("zh_CN", rel) == read("en", rel)
    student = f"student/{chapter.name}"
    assert _code(read("zh_CN", student)) == _code(read("en", student))


def test_every_translation_reaches_the_chinese_notebooks():
    report = ROOT / "_build" / "i18n-notebooks-unplaced.json"
    if not report.exists():
        pytest.skip("no Chinese build: run python scripts/tasks.py book")
    unplaced = json.loads(report.read_text(encoding="utf-8"))
    assert unplaced == {}, {doc: messages[:3] for doc, messages in unplaced.items()}
    notebook = json.loads((CHINESE_SITE / "_sources" / "chapters" / "03_vc_dimension.ipynb")
                          .read_text(encoding="utf-8"))
    english = json.loads((ROOT / "chapters" / "03_vc_dimension.ipynb").read_text(encoding="utf-8"))
    assert _code(notebook) == _code(english)


@pytest.mark.parametrize("chapter", sorted(p.stem for p in (ROOT / "chapters").glob("*.ipynb")))
def test_every_message_of_a_catalog_is_still_in_its_notebook(chapter):
    """The drift guard without a build: a catalog message that its notebook no
    longer holds is English that changed (or went) after the last
    ``scripts/i18n.py update``. The checker reads only the catalogs, and the
    Chinese build's own record (test above) exists only after a full build; this
    finds such a message in the notebook's Markdown cells the way the Chinese
    notebooks are made (mlcore.homework.editions._translate). It does not see a new
    English block (no message yet): only the gettext extraction of ``update``
    finds those."""
    from mlcore.homework.editions._translate import (catalog_path, read_catalog,
                                                     translate_notebook)

    notebook_path = ROOT / "chapters" / f"{chapter}.ipynb"
    catalog = catalog_path(notebook_path, "zh_CN", root=ROOT)
    if not catalog.exists():
        pytest.skip(f"{chapter} has no Chinese catalog")
    notebook = json.loads(notebook_path.read_text(encoding="utf-8"))
    _, unplaced = translate_notebook(notebook, read_catalog(catalog))
    assert unplaced == [], (
        f"{len(unplaced)} message(s) of {catalog.relative_to(ROOT)} are no longer in "
        f"chapters/{chapter}.ipynb: the English changed; run python scripts/i18n.py update "
        "and retranslate the fuzzy entries:\n  " + "\n  ".join(m[:120] for m in unplaced[:5]))


def test_catalog_translations_find_their_blocks_in_a_notebook(tmp_path):
    from mlcore.homework.editions._translate import read_catalog, translate_notebook

    po = tmp_path / "page.po"
    po.write_text(textwrap.dedent('''\
        msgid ""
        msgstr ""
        "Content-Type: text/plain; charset=UTF-8\\n"

        msgid "(Gradient of the loss)"
        msgstr "（损失的梯度）"

        msgid "Proof. Differentiate $\\\\log(1 + e^{z})$ term by term."
        msgstr ""
        "证明：逐项对$\\\\log(1 + e^{z})$"
        "求导。"

        msgid "A \\"quoted\\" word spans two lines in a block quote."
        msgstr "一个“带引号”的词在引用块中跨两行。"

        msgid "The sigmoid."
        msgstr "sigmoid函数。"

        msgid "It inverts the logit."
        msgstr "它是logit的反函数。"
        '''), encoding="utf-8")
    catalog = read_catalog(po)
    assert catalog["Proof. Differentiate $\\log(1 + e^{z})$ term by term."] == \
        "证明：逐项对$\\log(1 + e^{z})$求导。"
    cell = ":::{prf:theorem} Gradient of the loss\n:label: thm-g\n\nText.\n:::\n\n" \
           ":::{prf:proof}\nDifferentiate $\\log(1 + e^{z})$\nterm by term.\n:::\n\n" \
           "> A \"quoted\" word spans two lines\n> in a block quote.\n\n" \
           ":::{self-check} Q?\n- [x] The sigmoid. ~ Yes: it inverts the logit.\n- [ ] No. ~ No.\n:::"
    code = {"cell_type": "code", "metadata": {}, "source": "x = 1  # The sigmoid.",
            "outputs": [], "execution_count": None}
    notebook = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": cell}, code]}
    translated, unplaced = translate_notebook(notebook, catalog)
    assert unplaced == []
    text = translated["cells"][0]["source"]
    assert ":::{prf:theorem} 损失的梯度\n:label: thm-g" in text
    assert ":::{prf:proof}\n逐项对$\\log(1 + e^{z})$求导。\n:::" in text
    assert "> 一个“带引号”的词在引用块中跨两行。\n" in text
    assert "- [x] sigmoid函数。 ~ 它是logit的反函数。\n" in text
    assert translated["cells"][1] == code and notebook["cells"][0]["source"] == cell
