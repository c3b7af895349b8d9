"""The printed book: ``book.pdf`` and ``book-student.pdf`` from one LaTeX run.

``python scripts/tasks.py pdf`` runs ``jupyter-book build --builder pdflatex``;
this extension makes that output a book rather than a dump of the website:

- one Sphinx run writes two LaTeX files (``latex_documents``): ``book.tex``
  with every exercise's solution and ``book-student.tex`` without them (the
  student site's :class:`~mlcore.homework.sphinx_student.RemoveSolutions`,
  applied to the student copy only), so the chapters are read once;
- xelatex with xeCJK (the glossary's Chinese terms) and the notation macros of
  ``_config.yml``'s MathJax list, so the chapters' math means the same thing;
- what only moves on a screen gets a printed form (:mod:`print_forms`): an
  explorable figure prints its default frame with a caption naming its
  controls and the web page where it moves, an SVG drawing becomes a PDF
  figure, and a self-check prints its question and options, with the keyed
  answers in an answer section at the chapter's end;
- the API reference stays web-only (its page is dropped from the PDF);
- the website's header gets a button that downloads the PDF (the student
  site's, the student edition); ``tasks.py pdf`` copies the PDFs into the sites.

Everything here is the same for every builder until the LaTeX builder runs,
so the HTML build's environment (``_build/.doctrees``) serves the PDF build
unchanged and no page is read again.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.builders.latex import LaTeXBuilder
from sphinx.builders.latex.constants import XELATEX_DEFAULT_FONTPKG
from sphinx.transforms.post_transforms import SphinxPostTransform

__all__ = ["BOOK_TARGETS", "latex_preamble", "BookLaTeXBuilder", "DropWebOnlyPages", "setup"]

# targetname -> (title suffix, with solutions?)
BOOK_TARGETS = {"book.tex": ("", True), "book-student.tex": (" (student edition)", False)}
WEB_ONLY_PAGES = ("chapters/api",)
FIRST_APPENDIX = "chapters/glossary"  # from here on: Appendix A, B, ... (as in _toc.yml)

# The glossary's Chinese terms: xeCJK switches to the CJK font for CJK
# characters only (Debian's fonts-noto-cjk). Sphinx's own xelatex fonts
# (FreeSerif, FreeSans: fonts-freefont-otf) stay for the text.
_CJK = r"""
\usepackage{xeCJK}
\setCJKmainfont{Noto Serif CJK SC}[ItalicFont=Noto Serif CJK SC]  % no italic CJK: upright
\setCJKsansfont{Noto Sans CJK SC}
\setCJKmonofont{Noto Sans Mono CJK SC}[ItalicFont=Noto Sans Mono CJK SC]
% Curly quotes, dashes and the ellipsis are English punctuation here, not
% full-width CJK punctuation ("Newton' s method" otherwise).
\xeCJKDeclareCharClass{Default}{"2018, "2019, "201C, "201D, "2013, "2014, "2026, "00B7}
% Latin Modern Math has no U+29F5, unicode-math's \setminus.
\AtBeginDocument{\renewcommand{\setminus}{\mathbin{\backslash}}}
"""
# Code and outputs in DejaVu Sans Mono (fonts-dejavu-core): FreeMono lacks
# characters the outputs print, such as the superscript T of a table's header.
_MONO = r"""\setmonofont{DejaVu Sans Mono}[Scale=MatchLowercase]
"""


_ALPHABETS = {"mathbb": ("DOUBLE-STRUCK", "MATHEMATICAL DOUBLE-STRUCK"),
              "mathcal": ("SCRIPT", "MATHEMATICAL SCRIPT")}
_PLAIN = {"varepsilon": "\u03b5", "epsilon": "\u03f5", "hat": "\u0302"}


def bookmark_text(body: str) -> str:
    r"""Plain Unicode for a macro's body, for the PDF's bookmarks (no math there).

    >>> bookmark_text(r"\mathbb{R}"), bookmark_text(r"\operatorname*{arg\,min}")
    ('ℝ', 'argmin')
    >>> bookmark_text(r"\hat{\varepsilon}"), bookmark_text(r"{\mathsf{T}}")
    ('ε̂', 'T')
    """
    import re
    import unicodedata

    def letter(match):
        for prefix in _ALPHABETS[match[1]]:
            kind = "CAPITAL" if match[2].isupper() else "SMALL"
            try:
                return unicodedata.lookup(f"{prefix} {kind} {match[2].upper()}")
            except KeyError:
                continue
        return match[2]

    text = re.sub(r"\\(mathbb|mathcal)\{(\w)\}", letter, body)
    text = re.sub(r"\\hat\{([^{}]*)\}", r"\1" + _PLAIN["hat"], text)
    text = re.sub(r"\\([A-Za-z]+)", lambda m: _PLAIN.get(m[1], "" if m[1] in (
        "operatorname", "mathsf", "mathrm") else m[1]), text)
    return re.sub(r"[{}*]|\\,", "", text)


def latex_preamble(macros: dict) -> str:
    r"""LaTeX definitions of the MathJax ``macros`` (name -> body), plus xeCJK.

    ``\providecommand`` then ``\renewcommand``: a name LaTeX or a package
    already defines (``\T``, ``\E``) gets the book's meaning, as on the site.

    >>> print(latex_preamble({"R": "\\mathbb{R}"}).strip().splitlines()[-2])
    \providecommand{\R}{}\renewcommand{\R}{{\mathbb{R}}}
    """
    lines = [_CJK.strip(), "% The notation macros of _config.yml (mathjax3_config.tex.macros)"]
    for name, body in macros.items():
        # In braces, as MathJax reads them: m_\hH is then m_{\mathcal{H}}. Not an
        # operator, whose limits (\argmin_h) a group would stop.
        if isinstance(body, str) and not body.startswith("\\operatorname"):
            body = "{" + body + "}"
        if isinstance(body, list):  # MathJax's [body, number of arguments]
            body, count = body[0], int(body[1])
            lines.append(rf"\providecommand{{\{name}}}{{}}\renewcommand{{\{name}}}[{count}]{{{body}}}")
        else:
            lines.append(rf"\providecommand{{\{name}}}{{}}\renewcommand{{\{name}}}{{{body}}}")
    # Section titles with math become PDF bookmarks, which hold plain text.
    plain = "".join(rf"\def\{name}{{{bookmark_text(body if isinstance(body, str) else body[0])}}}"
                    for name, body in macros.items())
    lines.append(rf"\AtBeginDocument{{\pdfstringdefDisableCommands{{{plain}}}}}")
    return "\n".join(lines) + "\n"


def _configure(app, config) -> None:
    """The LaTeX preamble: xeCJK and the MathJax macros."""
    macros = ((config.mathjax3_config or {}).get("tex") or {}).get("macros") or {}
    elements = dict(config.latex_elements or {})
    elements["preamble"] = latex_preamble(macros) + elements.get("preamble", "")
    elements.setdefault("fontpkg", XELATEX_DEFAULT_FONTPKG.split("\\setmonofont")[0] + _MONO)
    # No index: its only entries would be the API reference's, which is web-only.
    elements.setdefault("makeindex", "")
    elements.setdefault("printindex", "")
    config.latex_elements = elements
    config.latex_domain_indices = False
    config.print_edition_secnum_depth = config.numfig_secnum_depth
    stand_in = str(Path(__file__).parent / "print_edition_tex" / "bbm.sty")
    if stand_in not in config.latex_additional_files:
        config.latex_additional_files = [*config.latex_additional_files, stand_in]


def _keep_numbering(app) -> None:
    """Undo sphinx-jupyterbook-latex's ``numfig_secnum_depth = 2`` for books in parts.

    With it, every PDF build after an HTML build (and every HTML build after a
    PDF build) found the configuration changed and read every page again, and
    the PDF would number theorems "3.1.2" where the site says "Theorem 3.2".
    """
    if isinstance(app.builder, LaTeXBuilder):
        app.config.numfig_secnum_depth = app.config.print_edition_secnum_depth


class BookLaTeXBuilder(LaTeXBuilder):
    """Sphinx's LaTeX builder, removing the solutions from the student copy only.

    ``LaTeXBuilder.write`` assembles one doctree per ``latex_documents`` entry,
    in order, by calling :meth:`assemble_doctree` once for each: the entry
    being assembled is the next one of ``document_data``.
    """

    def init_document_data(self) -> None:
        # latex_documents keeps its one default entry (Jupyter Book sets its
        # title from _config.yml, and fails on a list); its two copies are made here.
        super().init_document_data()
        book = self.document_data[0]
        self.document_data = [(book[0], target, book[2] + suffix, *book[3:])
                              for target, (suffix, _) in BOOK_TARGETS.items()]
        self._targets = iter([entry[1] for entry in self.document_data])

    def assemble_doctree(self, indexfile, toctree_only, appendices):
        tree = super().assemble_doctree(indexfile, toctree_only, appendices)
        target = next(self._targets)
        if not BOOK_TARGETS.get(target, ("", True))[1]:
            from mlcore.homework.sphinx_student import RemoveSolutions

            RemoveSolutions(tree).apply()
        return tree


class DropWebOnlyPages(SphinxPostTransform):
    """Leave the web-only pages (the API reference) out; letter the appendix's chapters."""

    builders = ("latex",)
    default_priority = 5  # before references are resolved (10)

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(addnodes.start_of_file)):
            # (start_of_file's own parent link is sound: Sphinx made it a child.)
            if node.get("docname") in WEB_ONLY_PAGES:
                node.parent.remove(node)
            elif node.get("docname") == FIRST_APPENDIX:
                node.parent.insert(node.parent.index(node),
                                   nodes.raw("", "\\appendix\n", format="latex"))
        # The toctrees and sphinx-jupyterbook-latex's copies of them (its printed
        # table of contents) list the page too.
        for node in list(self.document.findall(nodes.Element)):
            if isinstance(node.get("entries"), list):
                node["entries"] = [e for e in node["entries"] if e[1] not in WEB_ONLY_PAGES]
            if isinstance(node.get("includefiles"), list):
                node["includefiles"] = [f for f in node["includefiles"] if f not in WEB_ONLY_PAGES]


def pdf_name(config) -> str:
    """The PDF the site links: the student site (no solutions) links the student edition."""
    student = "mlcore.homework.sphinx_student" in config.extensions
    return "book-student.pdf" if student else "book.pdf"


def _pdf_button(app, pagename, templatename, context, doctree) -> None:
    """A header button that downloads the whole book as a PDF (copied in by ``tasks.py pdf``)."""
    if "header_buttons" not in context:  # another theme
        return
    url, tooltip = context["pathto"](pdf_name(app.config), 1), "Download the whole book as a PDF"
    if (app.config.language or "en").startswith("zh"):
        # The Chinese site lives in zh_CN/ beside the English one; the PDF
        # (English: it is printed from the English source) sits at the root.
        url, tooltip = "../" + url, "下载全书PDF（英文版）"
    context["header_buttons"].append({
        "type": "link",
        "url": url,
        "tooltip": tooltip,
        "icon": "fas fa-book",
        "label": "download-book-pdf-button",
    })


def setup(app):
    """Sphinx extension entry point."""
    app.setup_extension("print_forms")  # _ext/ is on the path (local_extensions)
    app.add_builder(BookLaTeXBuilder, override=True)
    app.add_config_value("print_edition_secnum_depth", 1, "")
    app.connect("builder-inited", _keep_numbering, priority=900)  # after jupyterbook-latex's
    app.connect("config-inited", _configure, priority=800)  # after sphinx-jupyterbook-latex's
    app.add_post_transform(DropWebOnlyPages)
    # After sphinx-book-theme's own buttons (priority 501): beside its download menu.
    app.connect("html-page-context", _pdf_button, priority=502)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
