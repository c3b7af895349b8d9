"""The website's own assets: vendored scripts, site CSS/JS, and search that finds Chinese terms.

Registered in ``_config.yml`` under ``sphinx.local_extensions``. It

* serves ``_vendor/`` (MathJax 3, require.js, the ipywidgets HTML manager;
  written by ``scripts/vendor_assets.py``) from the site's ``_static/``, so
  ``mathjax_path`` and ``nb_ipywidgets_js`` in ``_config.yml`` can name local
  files. It is added here, at ``builder-inited``, and not in ``_config.yml``'s
  ``html_static_path``, because Jupyter Book links every ``.js`` and ``.css``
  file of the configured static paths into every page;
* adds ``site.css`` (output images on white in dark mode) and ``site.js``
  (require.js's ``baseUrl`` for the widget manager, and a MathJax 2
  ``MathJax.Hub.Queue`` shim that ipywidgets still calls) to every page;
* replaces the English search language by one that also indexes runs of
  Chinese, Japanese or Korean characters as overlapping character pairs and
  splits queries the same way, so a search for 分散 or 自助法 finds the
  glossary even where the term sits inside a longer run of Chinese text.
  English words are indexed and stemmed exactly as before;
* leaves the widget state and scripts out of pages that show no widget (the
  live panels are removed from the site; their kernel-free counterparts are
  animations);
* makes ``repository.url`` of ``_config.yml`` the one switch for the
  repository link and the Binder and Colab launch buttons: with a URL they
  are on, without one they are off (the theme would otherwise fail or build
  links to nowhere).
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

from docutils import nodes
from sphinx.errors import ExtensionError
from sphinx.search.en import SearchEnglish
from sphinx.transforms import SphinxTransform

HERE = Path(__file__).resolve().parent
STATIC = HERE / "site_assets_static"
SITE_ROOT = HERE / "site_root"
# Han, Hiragana, Katakana, Hangul: scripts written without spaces between words.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_CJK_RUN = re.compile(f"[{_CJK}]+")


def cjk_terms(word: str) -> list[str]:
    """Index terms for one word: the word, and the character pairs of its CJK runs.

    Parameters
    ----------
    word : str
        One ``\\w+`` token of the text.

    Returns
    -------
    list of str
        ``[word]`` for a word without CJK characters; otherwise the word, its
        other pieces (``VC`` of ``VC维``), each CJK run of two or more
        characters, and every pair of adjacent characters of those runs (a
        single CJK character stands for itself).

    Examples
    --------
    >>> cjk_terms("shatter")
    ['shatter']
    >>> cjk_terms("自助法")
    ['自助法', '自助', '助法']
    >>> cjk_terms("VC维")
    ['VC维', 'VC', '维']
    """
    terms = [word]
    if _CJK_RUN.search(word):
        terms.extend(piece for piece in _CJK_RUN.split(word) if piece)
    for run in _CJK_RUN.findall(word):
        if len(run) == 1:
            terms.append(run)
            continue
        if run != word:
            terms.append(run)
        terms.extend(run[i:i + 2] for i in range(len(run) - 1))
    return list(dict.fromkeys(terms))


# The browser side of cjk_terms for queries: each CJK run of the query
# becomes its character pairs, which the index holds for every page whose
# text contains the run; Sphinx then requires all of them (AND).
_JS_SPLITTER = """
var splitQuery = (query) => {
  const cjkRun = /[%(cjk)s]+/gu;
  const terms = [];
  for (const word of query.split(/[^\\p{Letter}\\p{Number}_\\p{Emoji_Presentation}]+/gu)) {
    if (!word) continue;
    const runs = word.match(cjkRun);
    if (!runs) { terms.push(word); continue; }
    const rest = word.replace(cjkRun, " ").trim();
    if (rest) terms.push(...rest.split(/\\s+/));
    for (const run of runs) {
      const chars = Array.from(run);
      if (chars.length === 1) { terms.push(run); continue; }
      for (let i = 0; i + 1 < chars.length; i++) terms.push(chars[i] + chars[i + 1]);
    }
  }
  return terms;
};
""" % {"cjk": _CJK}


class SearchEnglishWithCJK(SearchEnglish):
    """Sphinx's English search, plus CJK runs indexed as character pairs (see :func:`cjk_terms`)."""

    js_splitter_code = _JS_SPLITTER

    def split(self, input: str) -> list[str]:  # noqa: A002 (Sphinx's signature)
        """Split text into index terms: English words as usual, CJK runs as pairs too."""
        return [term for word in super().split(input) for term in cjk_terms(word)]


def add_header_template(config, templates: Path, template: str) -> None:
    """Put ``template`` (an HTML file in the folder ``templates``) first in every page's header.

    The language switch (editions.py) and the "Slides" link (slides.py) sit
    in the article header beside the theme's own buttons.
    """
    if str(templates) not in config.templates_path:
        config.templates_path.append(str(templates))
    options = config.html_theme_options
    end = list(options.get("article_header_end") or ["article-header-buttons.html"])
    if template not in end:
        options["article_header_end"] = [template, *end]


def _repository_buttons(app, config) -> None:
    options = config.html_theme_options
    launch = options.setdefault("launch_buttons", {})
    if (options.get("repository_url") or "").strip():
        # (Jupyter Book's defaults set it False; with a URL, the link is wanted.)
        options["use_repository_button"] = True
        return
    options["use_repository_button"] = False
    for key in ("binderhub_url", "jupyterhub_url", "colab_url", "jupyterlite_url", "deepnote_url"):
        launch[key] = ""


def _add_static_paths(app) -> None:
    vendor = Path(app.srcdir) / "_vendor"
    if not (vendor / "MANIFEST.txt").is_file():
        raise ExtensionError(
            f"{vendor} is missing or incomplete: the site serves MathJax and the widget "
            "scripts from it. Restore it from git or run: python scripts/vendor_assets.py")
    for path in (str(vendor), str(STATIC)):
        if path not in app.config.html_static_path:
            app.config.html_static_path.append(path)
    # /favicon.ico at the site's root (a PNG inside), for the redirecting
    # index.html and any page a browser asks before it reads <link rel=icon>.
    if str(SITE_ROOT) not in app.config.html_extra_path:
        app.config.html_extra_path.append(str(SITE_ROOT))


def _drop_duplicate_scripts(app, pagename, templatename, context, doctree) -> None:
    # In a Jupyter Book build the inline configuration scripts of sphinx-thebe
    # and sphinx-togglebutton reach every page twice (once with filename None,
    # once with "", so Sphinx's own de-duplication misses them); the second
    # ``const THEBE_JS_URL`` is a SyntaxError on every page. Keep the first.
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        # Same file and attributes (an inline script's body is an attribute);
        # the copies differ only in a filename of None or "".
        key = (getattr(script, "filename", str(script)) or "",
               tuple(sorted(getattr(script, "attributes", {}).items())))
        if key in seen:
            continue
        seen.add(key)
        unique.append(script)
    scripts[:] = unique


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _drop_unused_widget_scripts(app, pagename, templatename, context, doctree) -> None:
    # myst-nb embeds a notebook's whole widget state and loads the widget
    # manager whenever the notebook's metadata has state, even when every
    # widget output was removed (the live panel of an interactive figure is
    # tagged remove-output). Without a view on the page they render nothing:
    # drop the state (it holds the live panel's PNG) and the 3.7 MB of scripts.
    scripts = context.get("script_files")
    if not scripts or WIDGET_VIEW in context.get("body", ""):
        return
    widget_js = {f"_static/{path}" for path in app.config.nb_ipywidgets_js}
    widget_js |= set(app.config.nb_ipywidgets_js)
    scripts[:] = [script for script in scripts
                  if getattr(script, "attributes", {}).get("type") != WIDGET_STATE
                  and (getattr(script, "filename", None) or "") not in widget_js]


_BIBLIOGRAPHY_ROLES = re.compile(r'(?<=<div) role="list"(?= class="citation-list")'
                                 r'|(?<=class="citation-list") role="list"|\s+role="doc-biblioentry"')


def _plain_bibliography_markup(app, pagename, templatename, context, doctree) -> None:
    # docutils writes the bibliography as <div role="list"> whose children are
    # not list items, and a deprecated role on every entry: axe-core's
    # "aria-required-children" (critical) and "aria-deprecated-role". Plain
    # <div>s with their links are what the entries are.
    body = context.get("body")
    if body and "citation-list" in body:
        context["body"] = _BIBLIOGRAPHY_ROLES.sub("", body)


_DEFINITION_TERM = re.compile(r"(<dt\b[^>]*>)(.*?)(</dt>)", re.S)
_TEXT_RUN = re.compile(r">([^<]+)<")


def _mark_chinese_terms(app, pagename, templatename, context, doctree) -> None:
    # Glossary terms carry their Chinese name: marked lang="zh" (WCAG 3.1.2) so
    # a screen reader switches voice and the CJK font stack of site.css applies.
    body = context.get("body")
    if not body or "<dt" not in body or not _CJK_RUN.search(body):
        return

    def text(match):
        return ">" + _CJK_RUN.sub(lambda m: f'<span lang="zh">{m.group(0)}</span>', match.group(1)) + "<"

    def term(match):
        return match.group(1) + _TEXT_RUN.sub(text, ">" + match.group(2) + "<")[1:-1] + match.group(3)

    context["body"] = _DEFINITION_TERM.sub(term, body)


def _image_alt_from_output_metadata() -> None:
    # myst-nb takes only width and height from an output's metadata; the
    # course's kernels also put a text alternative there (mlcore._figure_text),
    # which becomes the <img alt> instead of the image's file name. A cell's
    # own `mystnb: image: alt:` still wins.
    from myst_nb.core.render import NbElementRenderer

    original = getattr(NbElementRenderer.render_image, "__wrapped__", NbElementRenderer.render_image)

    def render_image(self, data):
        rendered = original(self, data)
        alt = (data.output_metadata.get(data.mime_type) or {}).get("alt")
        cell_alt = self.renderer.get_cell_level_config(
            "render_image_options", data.cell_metadata, line=data.line).get("alt")
        if alt and not cell_alt:
            for node in rendered:
                for image in node.findall(nodes.image):
                    image["alt"] = str(alt)
        return rendered

    render_image.__wrapped__ = original
    NbElementRenderer.render_image = render_image


# pydata-sphinx-theme draws its icons twice over: its CSS carries Font Awesome
# as a web font (each icon a glyph of a 156 kB woff2, loaded on first use),
# and every page also loads fontawesome.js (1.49 MB) to swap each <i> for an
# inline <svg role="img"> whose <title> then fails axe's label-in-name rule
# on the colour-mode button. The script adds nothing the CSS does not draw.
_FONTAWESOME_JS = re.compile(r'<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>\n?')


def _drop_fontawesome_script(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        lighter = _FONTAWESOME_JS.sub("", html)
        if lighter != html:
            page.write_text(lighter, encoding="utf-8")


# An explorable figure (mlcore's InteractiveFigure.explore) carries all its
# frames inside the page as base64, up to 1 MB a figure. On the site they
# become files under _images/explore/: the page loads the first frame (the
# wide one, or on a phone the narrow one), and the figure's script fetches the
# others when a reader first touches a control. Plain <img> URLs, so the site
# still works from file://. The notebook keeps its self-contained output.
_EXPLORABLE = re.compile(r'<div class="mlcore-explore" id="(?P<uid>mlx-[0-9a-f]+)">.*?'
                         r'<script type="application/json" class="mlx-data">(?P<data>.*?)</script>',
                         re.S)
_INLINE_PNG = "data:image/png;base64,"


def _frames_as_files(app, pagename, templatename, context, doctree) -> None:
    body = context.get("body")
    if not body or 'class="mlcore-explore"' not in body:
        return
    folder = Path(app.outdir) / "_images" / "explore"

    def as_file(uid: str, name: str, encoded: str) -> str:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{uid}-{name}.png").write_bytes(base64.b64decode(encoded))
        return context["pathto"](f"_images/explore/{uid}-{name}.png", 1)

    def rewrite(match):
        uid, block = match["uid"], match.group(0)
        data = json.loads(match["data"].replace("<\\/", "</"))
        first = data["index"][data["start"]]
        for key, suffix, attribute in (("frames", "", ' src="'), ("narrow", "-narrow", ' srcset="')):
            if key not in data:
                continue
            inline = attribute + _INLINE_PNG
            start = block.index(inline) + len(inline)
            end = block.index('"', start)
            url = as_file(uid, f"{first}{suffix}", block[start:end])
            block = block[:start - len(_INLINE_PNG)] + url + block[end:]
            data[key] = [url if i == first else as_file(uid, f"{i}{suffix}", frame)
                         for i, frame in enumerate(data[key])]
            data[key][first] = ""
        payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
        head, _, _ = block.rpartition(match["data"])
        return head + payload + "</script>"

    context["body"] = _EXPLORABLE.sub(rewrite, body)


def _drop_unused_design_assets(app, pagename, templatename, context, doctree) -> None:
    # Jupyter Book loads sphinx-design's stylesheet and tab script on every
    # page; none of the course's pages uses a design element (grid, card, tab).
    if 'class="sd-' in context.get("body", ""):
        return
    for key, name in (("css_files", "sphinx-design.min.css"), ("script_files", "design-tabs.js")):
        files = context.get(key)
        if files:
            files[:] = [f for f in files if not (getattr(f, "filename", None) or str(f)).endswith(name)]


# pydata-sphinx-theme links Sphinx's search scripts and the whole search index
# (290 kB) into every page for its "search as you type", which is off here
# (search_as_you_type = False): the search button goes to search.html, which
# loads them itself.
_SEARCH_SCRIPTS = re.compile(
    r'[ \t]*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|searchindex\.js)">'
    r'</script>\n?')


def _drop_search_scripts_outside_search(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    if app.config.html_theme_options.get("search_as_you_type"):
        return
    for page in Path(app.outdir).rglob("*.html"):
        if page.name == "search.html" and page.parent == Path(app.outdir):
            continue
        html = page.read_text(encoding="utf-8")
        lighter = _SEARCH_SCRIPTS.sub("", html)
        if lighter != html:
            page.write_text(lighter, encoding="utf-8")


_HIGHLIGHT_BLOCK = re.compile(r'(<div class="highlight"><pre>)(.*?)(</pre></div>)', re.S)
# Pygments' token classes that pygments.css colours exactly as the block's own
# text, in both colour modes (name, punctuation, whitespace, module name).
_PLAIN_TOKEN = re.compile(r'<span class="(?:n|p|w|nn)">([^<]*)</span>')
# Sphinx wraps each word of an inline literal and of a signature in
# <span class="pre"> (white-space: nowrap); site.css lets those words wrap on
# a phone anyway, so the wrapper (6,000 on the API page) goes.
_LITERAL_WORD = re.compile(r'<span class="pre">([^<]*)</span>')


def _unwrap_plain_tokens(app, pagename, templatename, context, doctree) -> None:
    # A highlighted line wraps every name and bracket in its own <span>; those
    # of the classes above look the same without it. The API reference (1.3 MB
    # of HTML, ~6,500 such spans and ~6,000 literal words) is what this keeps
    # within the 3 MB page budget; every code cell gets a little lighter too.
    body = context.get("body")
    if not body:
        return

    def plain(match):
        return match.group(1) + _PLAIN_TOKEN.sub(r"\1", match.group(2)) + match.group(3)

    context["body"] = _LITERAL_WORD.sub(r"\1", _HIGHLIGHT_BLOCK.sub(plain, body))


def _subset_icon_font(app, exception) -> None:
    # The theme's Font Awesome, cut to the icons the site shows (_ext/icon_subset.py).
    if exception is not None or app.builder.format != "html":
        return
    from icon_subset import subset_icons

    subset_icons(Path(app.outdir))


class GlossaryAnchorsAndChineseEntries(SphinxTransform):
    """Glossary terms: anchors named after the English term, index entries for the Chinese one.

    Sphinx names a term's anchor after its whole text, "``.632 estimator
    (.632 估计)``" -> ``#term-.632-estimator-.632``, and gives up with
    ``#term-0`` when two names collide (".632+ estimator"). Here the anchor is
    the English term's words (``#term-632-plus-estimator``, ``#term-5x2-cross-validation``).

    The search page finds an index entry only when the query is at least half
    of the entry, so a query for 自助法 missed the entry "bootstrap (自助法)"
    and the hit went to the glossary's top (UX review D10). Each term also
    gets index entries for its Chinese name and each run of Chinese in it,
    which the search page (and the general index) then lead to the term.
    Runs before Sphinx's domains read the document's index nodes (priority 850).
    """

    default_priority = 840

    def apply(self, **kwargs) -> None:
        from sphinx import addnodes

        std = self.env.get_domain("std")
        used = set(self.document.ids)
        for glossary in list(self.document.findall(addnodes.glossary)):
            for term in list(glossary.findall(nodes.term)):
                if not term["ids"]:
                    continue
                text, old = term.astext(), term["ids"][0]
                english, chinese = _term_parts(text)
                new = "term-" + (re.sub(r"[^A-Za-z0-9]+", "-", english.replace("+", " plus ")
                                        .replace("×", "x")).strip("-") or "glossary")
                if new != old:
                    base, n = new, 2
                    while new in used:
                        new, n = f"{base}-{n}", n + 1
                    used.add(new)
                    term["ids"][0] = new
                    self.document.ids[new] = self.document.ids.pop(old, term)
                    # Re-point every record of the old anchor: the glossary directive
                    # recorded the term's source text, which smartquotes has since
                    # changed ("Radon's" -> "Radon’s"), so a lookup by `text`
                    # alone left {term} references on the old, vanished anchor.
                    place, moved = (self.env.docname, old), (self.env.docname, new)
                    for table in (std.objects, std._terms):
                        for key in [k for k, v in table.items() if v == place]:
                            table[key] = moved
                    std.objects["term", text] = moved
                    std._terms[text.lower()] = moved
                for index in term.findall(addnodes.index):
                    entries = [(kind, value, new if target == old else target, main, key)
                               for kind, value, target, main, key in index["entries"]]
                    entries += [("single", name, new, "main", None) for name in chinese]
                    index["entries"] = entries


def _reread_glossaries(app, env, added, changed, removed) -> list[str]:
    # Sphinx 7.4 collects a page's index entries for the search page only while
    # it writes that page, and IndexBuilder.load() does not restore those of the
    # pages an incremental build leaves alone: the glossary's entries (and so
    # every term's anchor in search hits) vanished whenever it was not
    # re-read. It is one small page: read it on every build.
    std = env.get_domain("std")
    glossaries = {docname for (kind, _name), (docname, _id) in std.objects.items() if kind == "term"}
    return sorted(glossaries - set(added) - set(changed) - set(removed))


def _term_parts(text: str) -> tuple[str, list[str]]:
    """A glossary term's English words and its Chinese names (the parenthesis, its CJK runs).

    >>> _term_parts("5×2 cross-validation (5×2交叉验证)")
    ('5×2 cross-validation', ['5×2交叉验证', '交叉验证'])
    >>> _term_parts("bootstrap (自助法)")
    ('bootstrap', ['自助法'])
    """
    match = re.fullmatch(r"(?P<en>.*?)\s*\((?P<zh>[^()]*)\)\s*", text)
    if not match or not _CJK_RUN.search(match["zh"]):
        return text, []
    names = [match["zh"].strip()] + _CJK_RUN.findall(match["zh"])
    return match["en"], list(dict.fromkeys(names))


def setup(app):
    """Register the static paths, the site CSS/JS and the search language."""
    app.connect("config-inited", _repository_buttons)
    app.connect("builder-inited", _add_static_paths)
    app.connect("html-page-context", _drop_duplicate_scripts, priority=900)
    app.connect("html-page-context", _drop_unused_widget_scripts, priority=900)
    app.connect("html-page-context", _plain_bibliography_markup)
    app.connect("html-page-context", _mark_chinese_terms)
    app.connect("build-finished", _drop_fontawesome_script)
    app.connect("html-page-context", _frames_as_files)
    app.connect("html-page-context", _unwrap_plain_tokens)
    app.connect("html-page-context", _drop_unused_design_assets, priority=900)
    app.connect("build-finished", _drop_search_scripts_outside_search)
    app.connect("build-finished", _subset_icon_font)
    app.add_css_file("site.css")
    # Before the page's own scripts (priority 500): site.js configures
    # require.js, which myst-nb loads on pages with widgets.
    app.add_js_file("site.js", priority=450)
    app.add_search_language(SearchEnglishWithCJK)
    app.add_transform(GlossaryAnchorsAndChineseEntries)
    app.connect("env-get-outdated", _reread_glossaries)
    _image_alt_from_output_metadata()
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
