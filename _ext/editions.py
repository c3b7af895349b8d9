"""The book's two editions, English and Chinese (中文版), built from one source.

The English site is ``_build/html``; the Chinese one, a second Sphinx run with
``language = zh_CN`` over the same source and execution cache, is
``_build/html/zh_CN`` (``scripts/i18n.py``, called by ``scripts/tasks.py book``).
Its text comes from the catalogs in ``locales/zh_CN/LC_MESSAGES`` through
Sphinx's own Locale transform. This extension adds what that does not:

* a language switch in every page's header, linking the same page of the
  other edition (a plain link in the same tab: the reader changes language,
  not windows);
* Chinese search: Sphinx's Chinese splitter needs jieba and, without it,
  indexes no Chinese at all; the project's CJK splitter (character pairs,
  ``site_assets.cjk_terms``) is registered for ``zh`` too, so 分散 and 自助法
  are found on both sites the same way;
* the table of contents' part captions (``_toc.yml``), which
  sphinx-external-toc inserts after the Locale transform has run, are
  translated from the root page's catalog, where extraction puts them;
* the Chinese edition's download button gives a Chinese notebook: the
  chapter's notebook with its Markdown cells translated from the same
  catalogs (``mlcore.homework.editions._translate``; code cells, labels and metadata
  untouched) replaces the English copy in ``_sources/``;
* the Chinese build records every message it met without a translation
  (missing, empty or fuzzy in the catalog: Sphinx shows the English there)
  in ``_build/i18n-untranslated.json``, which tests/test_i18n.py requires to
  be empty: a change of the English text fails the test until the catalog
  is updated and the message translated again.
"""

from __future__ import annotations

import gettext
import json
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.util.i18n import docname_to_domain
from sphinx.util.nodes import extract_messages

from site_assets import SearchEnglishWithCJK, add_header_template

HERE = Path(__file__).resolve().parent
CHINESE = "zh_CN"
# The folder of the Chinese edition inside the English site's output.
CHINESE_FOLDER = "zh_CN"
# Each edition's switch names the *other* language in that language.
_SWITCH = {
    "en": {"text": "中文", "hreflang": "zh-CN", "title": "中文版: 本页"},
    CHINESE: {"text": "English", "hreflang": "en", "title": "English edition: this page"},
}


class SearchChineseWithCJK(SearchEnglishWithCJK):
    """The site's search for the Chinese edition: CJK character pairs, English words stemmed."""

    lang = "zh"
    language_name = "Chinese"


def is_chinese(config) -> bool:
    return (config.language or "en") == CHINESE


def other_edition_url(pagename: str, chinese: bool) -> str:
    """The relative URL, from page ``pagename``, of the same page in the other edition.

    >>> other_edition_url("chapters/01_logistic_regression", chinese=False)
    '../zh_CN/chapters/01_logistic_regression.html'
    >>> other_edition_url("chapters/01_logistic_regression", chinese=True)
    '../../chapters/01_logistic_regression.html'
    >>> other_edition_url("search", chinese=False)
    'zh_CN/search.html'
    """
    up = "../" * pagename.count("/")
    if chinese:
        return f"{up}../{pagename}.html"
    return f"{up}{CHINESE_FOLDER}/{pagename}.html"


def _add_static_path(app) -> None:
    static = str(HERE / "editions_static")
    if static not in app.config.html_static_path:
        app.config.html_static_path.append(static)


def _add_switch_template(app, config) -> None:
    add_header_template(config, HERE / "editions_templates", "language-switch.html")


# Theme words that do not come from a catalog: Jupyter Book sets the search
# box's placeholder itself, and sphinx-togglebutton reads its own catalog
# before the build's language is known (the words are those of its zh-cn
# catalog).
_CHINESE_THEME_WORDS = {"search_bar_text": "搜索本书……",
                        "togglebutton_hint": "点击显示", "togglebutton_hint_hide": "点击隐藏"}


def _chinese_theme_words(app, config) -> None:
    if not is_chinese(config):
        return
    config.html_theme_options["search_bar_text"] = _CHINESE_THEME_WORDS["search_bar_text"]
    for name in ("togglebutton_hint", "togglebutton_hint_hide"):
        if name in config:
            config[name] = _CHINESE_THEME_WORDS[name]


def _language_switch(app, pagename, templatename, context, doctree) -> None:
    chinese = is_chinese(app.config)
    context["language_switch"] = {
        **_SWITCH[CHINESE if chinese else "en"],
        "url": other_edition_url(pagename, chinese),
    }


def _translate_toc_captions(app, doctree) -> None:
    if not is_chinese(app.config):
        return
    captions = list(doctree.findall(addnodes.toctree))
    if not any(node.get("caption") for node in captions):
        return
    domain = docname_to_domain(app.env.docname, app.config.gettext_compact)
    dirs = [str(Path(app.srcdir) / folder) for folder in app.config.locale_dirs]
    for directory in dirs:
        try:
            catalog = gettext.translation(domain, directory, [CHINESE])
        except OSError:
            continue
        for node in captions:
            caption = node.get("caption")
            if caption and catalog.gettext(caption) != caption:
                node["caption"] = node["rawcaption"] = catalog.gettext(caption)
                node["translated"] = True
        return


# Where the Chinese build lists the messages it showed in English.
UNTRANSLATED_REPORT = "i18n-untranslated.json"
# Where it lists the translations it could not put back into a notebook cell.
NOTEBOOK_REPORT = "i18n-notebooks-unplaced.json"


def _untranslated(doctree) -> list[str]:
    """The messages of a translated doctree that the Locale transform left in English."""
    left = []
    for node, message in extract_messages(doctree):
        if isinstance(node, nodes.image):
            continue  # alt texts of notebook outputs: outputs are not translated
        if not node.get("translated"):
            left.append(message)
    return left


def _record_untranslated(app, doctree) -> None:
    if is_chinese(app.config):
        if not hasattr(app.env, "editions_untranslated"):
            app.env.editions_untranslated = {}
        app.env.editions_untranslated[app.env.docname] = _untranslated(doctree)


def _purge(app, env, docname) -> None:
    getattr(env, "editions_untranslated", {}).pop(docname, None)


def _merge(app, env, docnames, other) -> None:
    if not hasattr(env, "editions_untranslated"):
        env.editions_untranslated = {}
    for docname in docnames:
        if docname in getattr(other, "editions_untranslated", {}):
            env.editions_untranslated[docname] = other.editions_untranslated[docname]


def _translate_notebooks(app) -> dict:
    """Write the Chinese notebooks over _sources/; {docname: messages not placed in a cell}."""
    from mlcore.homework.editions._translate import (catalog_path, read_catalog,
                                                     translate_notebook)

    unplaced = {}
    for docname in sorted(app.env.found_docs):
        source = Path(app.env.doc2path(docname))
        copy = Path(app.outdir) / "_sources" / f"{docname}.ipynb"
        catalog = catalog_path(source, CHINESE, root=app.srcdir)
        if source.suffix != ".ipynb" or not copy.exists() or not catalog.exists():
            continue
        notebook = json.loads(source.read_text(encoding="utf-8"))
        translated, missing = translate_notebook(notebook, read_catalog(catalog))
        copy.write_text(json.dumps(translated, ensure_ascii=False, indent=1) + "\n",
                        encoding="utf-8")
        if missing:
            unplaced[docname] = missing
    return unplaced


def _write_report(app, exception) -> None:
    if exception is not None or not is_chinese(app.config) or app.builder.format != "html":
        return
    report = getattr(app.env, "editions_untranslated", {})
    # _build/html/zh_CN -> _build/i18n-untranslated.json, outside the published site.
    path = Path(app.outdir).parent.parent / UNTRANSLATED_REPORT
    path.write_text(json.dumps({doc: report[doc] for doc in sorted(report) if report[doc]},
                               ensure_ascii=False, indent=1), encoding="utf-8")
    # Translations the notebooks could not take (tests/test_i18n.py reads it).
    unplaced = _translate_notebooks(app)
    (path.parent / NOTEBOOK_REPORT).write_text(
        json.dumps(unplaced, ensure_ascii=False, indent=1), encoding="utf-8")


def setup(app):
    app.connect("config-inited", _add_switch_template)
    # Before sphinx-togglebutton writes its hints into the page (config-inited, 500).
    app.connect("config-inited", _chinese_theme_words, priority=400)
    app.connect("builder-inited", _add_static_path)
    app.add_css_file("editions.css")
    app.connect("html-page-context", _language_switch)
    # Before Sphinx's toctree collector (priority 500) copies the toctrees.
    app.connect("doctree-read", _translate_toc_captions, priority=400)
    app.connect("doctree-read", _record_untranslated, priority=450)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("build-finished", _write_report)
    app.add_search_language(SearchChineseWithCJK)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
