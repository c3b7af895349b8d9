"""Slides for every chapter: one reveal.js deck per chapter notebook, in both editions.

    python scripts/tasks.py slides                 # every deck of the built site, both editions
    python _ext/slides.py NOTEBOOK.ipynb --out DIR [--language zh_CN]   # one deck

The deck is made from the chapter, never written beside it. A lecturer's
cells are marked in the notebook with Markdown-cell tags (CONTRIBUTING.md,
"Slides"):

* ``slide``: the cell's *showable blocks* become slides, one each: every
  theorem-like statement (``prf:definition``, ``prf:theorem`` ..., not the
  proof), admonition (the learning objectives) and list (the summary); a
  cell with none of them is one slide of its text. Its
  paragraphs and proofs, and the untagged Markdown cells after it, are the
  speaker notes of its slides.
* ``slide-check``: the cell's self-checks become question slides (a self-check
  in a cell without it is left out of the deck, notes included).
* ``slide-figure``: the images drawn by the code cells that follow the cell
  (up to the next Markdown cell) become one slide: static figures, and the
  explorable figures' default frames (their ``image/png``).
* ``slide-code``: the first shown code cell after the cell becomes a slide of
  its code and printed output (the chapter's call into ``mlcore``).

Code cells are never tagged: the execution cache's key includes their
metadata, so a tag there would run the notebook again. Outputs come from that
cache (``_build/.jupyter_cache``, filled by ``scripts/execute_notebooks.py``
and read by every build): no notebook runs to make a deck.

A self-check becomes a question slide whose key and explanation appear on
the next step (a reveal.js fragment); every option's feedback goes to the
notes. Section headings title the slides. MyST is rewritten to plain Markdown
by ``mlcore/_notebook_text.py`` (as for the students' notebooks), then
rendered by markdown-it with the formulas left to MathJax.

The Chinese deck takes its text from the Chinese edition's catalog
(``locales/zh_CN/LC_MESSAGES/chapters/NN_name.po``) through
``mlcore/homework/editions/_translate.py``, which already puts those translations back
into a notebook's Markdown cells for the Chinese homework; the deck is then
built from the translated notebook exactly as the English one. (Reading the
built Chinese HTML instead would need the Markdown cells' boundaries, which
myst-nb does not keep in the page.)

As a Sphinx extension (``_config.yml``) it writes ``<site>/slides/NN_name.html``
when the HTML build finishes, in the build's language, and puts a "Slides"
link in every chapter page's header. Decks load reveal.js (vendored by
``scripts/vendor_assets.py``) and the site's own MathJax from ``_static/``:
they work offline. ``slides.js`` shrinks a slide's text (to 55 % at least)
when it would not fit the 1280x720 frame; the tests check that none overflows.
"""

from __future__ import annotations

import argparse
import base64
import html
import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
STATIC = HERE / "slides_static"
TAGS = ("slide", "slide-check", "slide-figure", "slide-code")
_WORDS = {
    "en": {"slides": "Slides", "check": "Check yourself", "answer": "Answer",
           "objectives": "Learning objectives", "title": "Slides of {title}"},
    "zh_CN": {"slides": "幻灯片", "check": "自测题", "answer": "答案",
              "objectives": "学习目标", "title": "{title}：幻灯片"},
}
_KINDS_ZH = {"Theorem": "定理", "Lemma": "引理", "Corollary": "推论", "Proposition": "命题",
             "Definition": "定义", "Example": "例", "Remark": "注", "Algorithm": "算法",
             "Conjecture": "猜想", "Axiom": "公理", "Observation": "观察", "Property": "性质",
             "Criterion": "准则", "Assumption": "假设"}
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_TARGET = re.compile(r"^\([\w:.-]+\)=\s*$")
_LIST = re.compile(r"^\s{0,3}(?:[-*+]|\d+[.)])\s")
_LABEL_OPT = re.compile(r"^\s*:label:\s*(\S+)", re.M)
_GLUE = re.compile(r"\{glue(?::text)?\}`(?P<name>[^`:]+)(?::(?P<fmt>[^`]*))?`")
_REF = re.compile(r"\{(?:prf:ref|ref|numref|eq)\}`(?P<body>[^`]*)`")
_NOTES_SKIP = {"exercise", "solution", "solution-start", "solution-end", "dropdown"}


def _load(name: str, path: Path):
    # By path: the helpers need only the standard library, and importing the
    # mlcore package would import NumPy and scikit-learn into every build.
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_TEXT = _load("_slides_notebook_text", ROOT / "mlcore" / "_notebook_text.py")
_TRANSLATE = _load("_slides_translate",
                   ROOT / "mlcore" / "homework" / "editions" / "_translate.py")


def _markdown():
    from markdown_it import MarkdownIt
    from mdit_py_plugins.amsmath import amsmath_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    def math(content, options):
        # MathJax typesets \( \) and \[ \]; the TeX itself is only escaped.
        if options.get("display_mode"):
            return f'<div class="math">\\[{html.escape(content)}\\]</div>\n'
        return f'<span class="math">\\({html.escape(content)}\\)</span>'

    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    dollarmath_plugin(md, double_inline=True, renderer=math)
    amsmath_plugin(md, renderer=lambda content: math(content, {"display_mode": True}))
    return md


class _Chapter:
    """One notebook's text helpers: cross-reference titles, glued values, MyST -> HTML."""

    def __init__(self, cells: list[dict], glued: dict[str, str], bibliography: dict):
        self.md, self.glued, self.bibliography = _markdown(), glued, bibliography
        self.titles = {}
        for cell in cells:
            if cell["cell_type"] != "markdown":
                continue
            lines = _source(cell).splitlines()
            for i, line in enumerate(lines):
                opening = _TEXT._OPEN.match(line)
                label = _LABEL_OPT.match(lines[i + 1]) if i + 1 < len(lines) else None
                if opening and label and opening["arg"]:
                    self.titles[label.group(1)] = opening["arg"]
                target = re.match(r"^\(([\w:.-]+)\)=", line)
                heading = _HEADING.match(lines[i + 1]) if target and i + 1 < len(lines) else None
                if heading:
                    self.titles[target.group(1)] = heading.group(2)

    def _plain(self, text: str) -> str:
        def glue(match):
            value = self.glued.get(match["name"], match["name"])
            try:
                return format(float(value), match["fmt"]) if match["fmt"] else value
            except ValueError:
                return value

        def ref(match):
            explicit = _TEXT._EXPLICIT.match(match["body"])
            if explicit:
                return explicit["text"]
            return f"*{self.titles.get(match['body'], match['body'])}*"
        text = _REF.sub(ref, _GLUE.sub(glue, text))
        return _TEXT.plain_markdown(text, self.bibliography)

    def html(self, text: str) -> str:
        return self.md.render(self._plain(text))

    def inline(self, text: str) -> str:
        return self.md.renderInline(self._plain(text).strip())


def _source(cell) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _blocks(text: str) -> list[tuple[str, str, dict]]:
    """A Markdown cell's top-level blocks: (kind, source, facts), kind in
    heading, directive, list, text."""
    lines, out, i = text.splitlines(), [], 0
    while i < len(lines):
        line = lines[i]
        if not line.strip() or _TARGET.match(line):
            i += 1
            continue
        heading, opening = _HEADING.match(line), _TEXT._OPEN.match(line)
        if heading:
            out.append(("heading", heading[2], {"level": len(heading[1])}))
            i += 1
        elif opening:
            fence, end = opening["fence"], i + 1
            closing = re.compile(rf"\s*{re.escape(fence[0])}{{{len(fence)},}}\s*")
            while end < len(lines) and not closing.fullmatch(lines[end]):
                end += 1
            out.append(("directive", "\n".join(lines[i:end + 1]),
                        {"name": opening["name"], "arg": opening["arg"],
                         "body": lines[i + 1:end]}))
            i = end + 1
        else:
            is_list, end = bool(_LIST.match(line)), i + 1
            in_math = line.strip().startswith("$$") and line.strip().count("$$") == 1
            while end < len(lines):
                nxt = lines[end]
                if in_math:
                    in_math = "$$" not in nxt
                elif not nxt.strip():
                    later = next((x for x in lines[end:] if x.strip()), "")
                    if not (is_list and (later.startswith((" ", "\t")) or _LIST.match(later))):
                        break
                elif _HEADING.match(nxt) or _TEXT._OPEN.match(nxt):
                    break
                elif nxt.strip().startswith("$$") and nxt.strip().count("$$") == 1:
                    in_math = True
                end += 1
            out.append(("list" if is_list else "text", "\n".join(lines[i:end]), {}))
            i = end
    return out


class _Slide:
    def __init__(self, title: str, body: str, classes: str = ""):
        self.title, self.body, self.classes, self.notes = title, body, classes, []

    def html(self) -> str:
        title = f"<h2>{self.title}</h2>\n" if self.title else ""
        notes = ("\n<aside class=\"notes\">\n" + "\n".join(self.notes) + "\n</aside>"
                 if self.notes else "")
        klass = f' class="{self.classes}"' if self.classes else ""
        return f"<section{klass}>\n<div class=\"fit\">\n{title}{self.body}\n</div>{notes}\n</section>"


def _self_check(chapter: _Chapter, arg: str, body: list[str], words) -> _Slide:
    options = [_TEXT._SELF_CHECK_OPTION.match(line) for line in body if line.strip()]
    if not options or any(o is None for o in options):
        raise ValueError(f"self-check {arg!r}: an option line does not read "
                         "'- [x] text ~ feedback'")
    letters = _TEXT._LETTERS
    items = "\n".join(f"<li>({letters[i]}) {chapter.inline(o['text'])}</li>"
                      for i, o in enumerate(options))
    right = [i for i, o in enumerate(options) if o["mark"] in "xX"]
    key = ", ".join(f"({letters[i]})" for i in right)

    def feedback(o):
        text = _TEXT._LEADING_VERDICT.sub("", o["feedback"] or "")
        return chapter.inline(text[:1].upper() + text[1:])
    explained = " ".join(feedback(options[i]) for i in right)
    answer = (f'<div class="fragment answer"><p><strong>{words["answer"]}: {key}.</strong> '
              f"{explained}</p></div>")
    slide = _Slide(f'<span class="kicker">{words["check"]}</span> {chapter.inline(arg)}',
                   f'<ul class="options">\n{items}\n</ul>\n{answer}', "self-check")
    slide.notes.append("<ul>" + "".join(f"<li>({letters[i]}) {feedback(o)}</li>"
                                         for i, o in enumerate(options)) + "</ul>")
    return slide


def _statement(chapter: _Chapter, facts: dict, language: str) -> str:
    name, arg = facts["name"], facts["arg"]
    body = [line for line in facts["body"] if not _TEXT._OPTION.match(line)]
    if name in _TEXT._KINDS:
        kind = _TEXT._KINDS[name]
        kind = _KINDS_ZH.get(kind, kind) if language == "zh_CN" else kind
        head = f"{kind}（{arg}）" if language == "zh_CN" and arg else (
            f"{kind} ({arg})" if arg else kind)
    else:
        head = arg or name.capitalize()
    return (f'<div class="statement"><p class="statement-title"><strong>'
            f"{chapter.inline(head)}</strong></p>\n{chapter.html(chr(10).join(body))}</div>")


def _images(cell, folder: Path, stem: str, count: int) -> list[str]:
    tags = cell.get("metadata", {}).get("tags", [])
    if "remove-output" in tags or "remove-cell" in tags:
        return []
    shown = []
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        for mime, suffix in (("image/png", "png"), ("image/svg+xml", "svg")):
            if mime not in data:
                continue
            meta = output.get("metadata", {}).get(mime) or {}
            alt = meta.get("alt") or "".join(data.get("text/plain", "")) or "Figure"
            name = f"{stem}-{count + len(shown) + 1}.{suffix}"
            raw = data[mime]
            raw = "".join(raw) if isinstance(raw, list) else raw
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(base64.b64decode(raw) if suffix == "png"
                                        else raw.encode("utf-8"))
            shown.append(f'<img src="{folder.name}/{name}" alt="{html.escape(alt)}">')
            break
    return shown


def _code(cell) -> str:
    parts = [f'<pre class="code"><code>{html.escape(_source(cell))}</code></pre>']
    printed = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            printed.append("".join(output.get("text", "")))
        elif output.get("output_type") == "execute_result":
            printed.append("".join(output.get("data", {}).get("text/plain", "")))
    if printed:
        parts.append(f'<pre class="output">{html.escape("".join(printed).rstrip())}</pre>')
    return "\n".join(parts)


def executed_notebook(notebook: Path, cache_path: Path) -> dict:
    """The notebook with the outputs of its cached execution (KeyError when not cached)."""
    import nbformat
    from jupyter_cache import get_cache

    node = nbformat.reads(notebook.read_text(encoding="utf-8"), as_version=4)
    _, merged = get_cache(str(cache_path)).merge_match_into_notebook(node)
    # The cached cells carry the metadata they were executed with; the
    # notebook's own (its tags now) is what says what is shown.
    for ours, cached in zip(node.cells, merged.cells):
        cached["metadata"] = ours.get("metadata", {})
    return json.loads(nbformat.writes(merged))


def slides(notebook: dict, language: str, folder: Path, stem: str,
           bibliography: dict) -> tuple[str, list[_Slide]]:
    """The chapter's title and its slides, from an executed (and translated) notebook."""
    words = _WORDS[language]
    glued = {}
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            name = (output.get("metadata", {}).get("scrapbook") or {}).get("name")
            if name:
                glued[name] = "".join(output.get("data", {}).get("text/plain", "")).strip("'\"")
    chapter, title, section = _Chapter(notebook["cells"], glued, bibliography), "", ""
    out, figures, cells = [], 0, notebook["cells"]
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        tags = cell.get("metadata", {}).get("tags", [])
        if "remove-cell" in tags:
            continue
        new, pending = [], []
        for kind, text, facts in _blocks(_source(cell)):
            if kind == "heading":
                if facts["level"] == 1 and not title:
                    title = chapter.inline(text)
                else:
                    section = chapter.inline(text)
                continue
            name = facts.get("name", "")
            if name == "self-check":
                # Asked only where marked; elsewhere left out, even from the
                # notes, so that a deck asks the two or three questions chosen.
                if "slide-check" in tags:
                    new.append(_self_check(chapter, facts["arg"], facts["body"], words))
            elif "slide" in tags and (kind == "list" or (kind == "directive" and name not in
                                                          _NOTES_SKIP | {"prf:proof"})):
                body = chapter.html(text) if kind == "list" else _statement(chapter, facts,
                                                                              language)
                new.append(_Slide(section or title, body))
            elif name not in _NOTES_SKIP and "exercise" not in tags:
                (new[-1].notes if new else pending).append(chapter.html(text))
        if "slide" in tags and not new and pending:
            new.append(_Slide(section or title, "\n".join(pending)))
            pending = []
        if new:
            new[0].notes[:0] = pending
        elif out:
            out[-1].notes += pending
        following = []
        for cell_after in cells[index + 1:]:
            if cell_after["cell_type"] == "markdown":
                break
            following.append(cell_after)
        if "slide-figure" in tags:
            images = [img for c in following
                      for img in _images(c, folder, stem, figures)]
            figures += len(images)
            if images:
                new.append(_Slide(section or title, '<div class="images">\n'
                                  + "\n".join(images) + "\n</div>", "figure"))
        if "slide-code" in tags:
            shown = [c for c in following if not {"remove-input", "remove-cell", "hide-input"}
                     & set(c.get("metadata", {}).get("tags", []))]
            if shown:
                new.append(_Slide(section or title, _code(shown[0]), "code"))
        out += new
    cover = _Slide("", f'<h1>{title}</h1>\n<p class="subtitle">{words["slides"]}</p>', "cover")
    return title, [cover, *out]


def build_deck(notebook, out_dir, *, language: str = "en", cache=None, root=None,
               static: str = "../_static") -> Path:
    """Write ``out_dir/<notebook stem>.html`` (and its figures) from one chapter notebook.

    Parameters
    ----------
    notebook : path-like
        A chapter notebook, executed into ``cache`` (its code unchanged since).
    out_dir : path-like
        Where the deck goes (``<site>/slides``).
    language : {"en", "zh_CN"}
        The deck's language; Chinese text comes from ``root/locales``.
    cache : path-like, optional
        The execution cache; default ``root/_build/.jupyter_cache``.
    root : path-like, optional
        The book's folder (catalogs, bibliography, ``_config.yml``); default this
        repository.
    static : str
        The site's ``_static/`` relative to ``out_dir``.
    """
    notebook, out_dir = Path(notebook), Path(out_dir)
    root = Path(root) if root is not None else ROOT
    cache = Path(cache) if cache is not None else root / "_build" / ".jupyter_cache"
    if language not in _WORDS:
        raise ValueError(f"language must be one of {sorted(_WORDS)}, got language={language!r}")
    try:
        content = executed_notebook(notebook, cache)
    except KeyError:
        raise RuntimeError(f"{notebook} is not in the execution cache {cache}: run "
                           "python scripts/execute_notebooks.py first") from None
    if language != "en":
        catalog = _TRANSLATE.catalog_path(notebook, language, root)
        content, _ = _TRANSLATE.translate_notebook(content, _TRANSLATE.read_catalog(catalog))
    bib = root / "chapters" / "references.bib"
    bibliography = _TEXT.read_bibliography(bib) if bib.exists() else {}
    folder = out_dir / notebook.stem
    if folder.exists():
        shutil.rmtree(folder)
    title, shown = slides(content, language, folder, notebook.stem, bibliography)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{notebook.stem}.html"
    target.write_text(_page(title, shown, language, static, root), encoding="utf-8")
    return target


def _mathjax(root: Path, static: str) -> dict:
    import yaml

    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
    tex = config["sphinx"]["config"]["mathjax3_config"]["tex"]
    return {"mathjax": f"{static}/mathjax/tex-chtml.js",
            "tex": {**tex, "inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]]},
            "options": {"menuOptions": {"settings": {"inTabOrder": False}}}}


def _page(title: str, shown: list[_Slide], language: str, static: str, root: Path) -> str:
    plain = re.sub(r"<[^>]+>", "", title)
    head_title = html.escape(_WORDS[language]["title"].format(title=html.unescape(plain)))
    config = {"width": 1280, "height": 720, "margin": 0.04, "hash": True,
              "slideNumber": "c/t", "center": True, "pdfMaxPagesPerSlide": 1,
              "pdfSeparateFragments": False, "mathjax3": _mathjax(root, static)}
    slides_html = "\n".join(slide.html() for slide in shown)
    lang = "zh-CN" if language == "zh_CN" else "en"
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{head_title}</title>
<link rel="icon" href="{static}/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="{static}/reveal/reveal.css">
<link rel="stylesheet" href="{static}/reveal/theme/white.css">
<link rel="stylesheet" href="{static}/slides.css">
</head>
<body>
<div class="reveal"><div class="slides">
{slides_html}
</div></div>
<script src="{static}/reveal/reveal.js"></script>
<script src="{static}/reveal/plugin/math/math.js"></script>
<script src="{static}/reveal/plugin/notes/notes.js"></script>
<script>window.SLIDES_CONFIG = {json.dumps(config)};</script>
<script src="{static}/slides.js"></script>
</body>
</html>
"""


def chapter_notebooks(srcdir) -> list[Path]:
    return sorted((Path(srcdir) / "chapters").glob("[0-9][0-9]_*.ipynb"))


def build_site_decks(site: Path, language: str, root=None, cache=None) -> list[Path]:
    """Every chapter's deck into ``site/slides`` (``site`` is one edition's HTML root)."""
    root = Path(root) if root is not None else ROOT
    static = site / "_static"
    if not (static / "reveal").exists():     # a site built before the decks existed
        for name in ("reveal", "mathjax"):
            shutil.copytree(root / "_vendor" / name, static / name, dirs_exist_ok=True)
    shutil.copy2(STATIC / "slides.css", static / "slides.css")
    shutil.copy2(STATIC / "slides.js", static / "slides.js")
    return [build_deck(nb, site / "slides", language=language, cache=cache, root=root)
            for nb in chapter_notebooks(root)]


# -- Sphinx: the decks of the edition being built, and the header's "Slides" link ----

def _add_link_template(app, config) -> None:
    # Imported here: the deck builder also runs as a script without Sphinx's site.
    from site_assets import add_header_template

    add_header_template(config, HERE / "slides_templates", "slides-link.html")


def _language(config) -> str:
    return "zh_CN" if (config.language or "en") == "zh_CN" else "en"


def _slides_link(app, pagename, templatename, context, doctree) -> None:
    match = re.fullmatch(r"chapters/(\d\d_[\w]+)", pagename)
    if match and (Path(app.srcdir) / f"{pagename}.ipynb").exists():
        text = _WORDS[_language(app.config)]["slides"]
        context["slides_link"] = {"url": f"../slides/{match[1]}.html", "text": text}


def _write_decks(app, exception) -> None:
    if exception is not None or app.builder.name != "html":
        return
    cache = app.config.nb_execution_cache_path
    build_site_decks(Path(app.outdir), _language(app.config), root=Path(app.srcdir),
                     cache=Path(cache) if cache else None)


def setup(app):
    """Sphinx extension entry point."""
    app.connect("config-inited", _add_link_template)
    app.connect("html-page-context", _slides_link)
    app.connect("build-finished", _write_decks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True, help="folder of the decks")
    parser.add_argument("--language", default="en", choices=sorted(_WORDS))
    parser.add_argument("--cache", type=Path, default=None)
    args = parser.parse_args(argv)
    for notebook in args.notebooks:
        print(build_deck(notebook, args.out, language=args.language, cache=args.cache))
    return 0


if __name__ == "__main__":
    sys.exit(main())
