"""Printed forms of what only works on a screen (LaTeX builder only).

- An explorable figure (``InteractiveFigure.explore``) prints its default
  frame (the output's ``image/png``) with a caption: what it shows, the
  controls that move it (the output's ``text/plain``) and where they move it,
  the web page and the notebook.
- An SVG output (chapter 12's tree drawings) prints as a vector PDF figure.
- A self-check prints its question and lettered options; the keyed answer and
  every option's feedback go to "Answers to the self-checks" at the end of the
  chapter, so a reader can try before looking.

All three run on the doctree the LaTeX builder assembles for the whole book, after
the HTML build read the pages: nothing here changes what Sphinx caches.
"""

from __future__ import annotations

import string

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

__all__ = ["PrintExplorables", "PrintSelfChecks", "PrintVectorDrawings", "setup"]


def _walk(node, docname, wanted):
    """Yield ``(parent, child, docname)`` for every ``child`` that ``wanted`` accepts.

    ``docname`` is the page that holds the child in the assembled book. The
    walk goes down from the root because the assembled tree's ``parent``
    links are not to be trusted: Sphinx's ``inline_all_toctrees`` moves each
    page's children under a ``start_of_file`` node without updating them.
    """
    for child in list(node.children):
        if isinstance(child, addnodes.start_of_file):
            yield from _walk(child, child["docname"], wanted)
        elif wanted(child):
            yield node, child, docname
        elif isinstance(child, nodes.Element):
            yield from _walk(child, docname, wanted)


class PrintExplorables(SphinxPostTransform):
    """An explorable's output becomes its default frame and a caption."""

    builders = ("latex",)
    default_priority = 3  # before myst-nb's SelectMimeType (4) picks one representation

    def run(self, **kwargs) -> None:
        def is_bundle(node):
            return isinstance(node, nodes.container) and node.get("nb_element") == "mime_bundle"

        for parent, bundle, docname in list(_walk(self.document, self.env.docname, is_bundle)):
            parts = {child.get("mime_type"): child for child in bundle.children}
            page = parts.get("text/html")
            if page is None or "mlcore-explore" not in page.astext() or "image/png" not in parts:
                continue
            summary = parts["text/plain"].astext().strip() if "text/plain" in parts else ""
            where = (f"The controls move it on the course website (page {docname}.html) "
                     f"and in the notebook {docname}.ipynb.")
            caption = nodes.paragraph("", "", nodes.emphasis("", "Interactive figure. "),
                                      nodes.Text(f"{summary} {where}"),
                                      classes=["explorable-caption"])
            still = nodes.container("", *parts["image/png"].children, classes=["explorable-still"])
            index = parent.index(bundle)
            parent[index:index + 1] = [still, caption]


class PrintVectorDrawings(SphinxPostTransform):
    """An SVG-only output (a tree drawing) prints as a PDF figure.

    LaTeX cannot include SVG, and myst-nb would fall back to the output's
    text. ``rsvg-convert`` (Debian's librsvg2-bin, installed with TeX Live by
    ``tasks.py pdf``) turns it into a PDF next to the book: still vector, its
    text (Chinese feature names included) drawn with the system's fonts.
    """

    builders = ("latex",)
    default_priority = 3  # before myst-nb's SelectMimeType (4)

    def run(self, **kwargs) -> None:
        import hashlib
        import shutil
        import subprocess
        from pathlib import Path

        def svg_only(node):
            if not (isinstance(node, nodes.container) and node.get("nb_element") == "mime_bundle"):
                return False
            kinds = {child.get("mime_type") for child in node.children}
            return "image/svg+xml" in kinds and not kinds & {"image/png", "application/pdf"}

        found = list(_walk(self.document, self.env.docname, svg_only))
        converter = shutil.which("rsvg-convert")
        if found and converter is None:
            raise RuntimeError("the PDF needs rsvg-convert for the SVG outputs: "
                               "apt-get install librsvg2-bin (python scripts/tasks.py pdf does)")
        for parent, bundle, _ in found:
            svg = next(c for c in bundle.children if c.get("mime_type") == "image/svg+xml")
            image = next(svg.findall(nodes.image))
            source = Path(self.app.srcdir) / image["uri"].lstrip("/")
            name = "svg-" + hashlib.sha256(source.read_bytes()).hexdigest()[:16] + ".pdf"
            target = Path(self.app.outdir) / name
            if not target.exists():
                subprocess.run([converter, "--format=pdf", f"--output={target}", str(source)],
                               check=True)
            # Not in Sphinx's image list: the writer leaves the name as it is,
            # and LaTeX finds the file beside book.tex.
            drawing = nodes.image(uri=name, candidates={"*": name}, alt=image.get("alt", ""))
            parent.replace(bundle, nodes.container("", drawing, classes=["vector-drawing"]))


def _classes(node) -> set:
    return set(node.get("classes", [])) if isinstance(node, nodes.Element) else set()


class PrintSelfChecks(SphinxPostTransform):
    """A self-check prints question and options; keys and feedback at the chapter's end."""

    builders = ("latex",)
    default_priority = 20  # after references (10): the options' math and links are resolved

    def run(self, **kwargs) -> None:
        answers: dict[str, list] = {}
        counters: dict[str, int] = {}
        def is_self_check(node):
            return isinstance(node, nodes.container) and "self-check" in _classes(node)

        for parent, box, docname in list(_walk(self.document, self.env.docname, is_self_check)):
            counters[docname] = counters.get(docname, 0) + 1
            number = self._number(docname, counters[docname])
            question = next(c for c in box.children if "self-check-question" in _classes(c))
            options = [c for c in box.children if "self-check-option" in _classes(c)]
            printed = nodes.container(classes=["self-check-printed"])
            printed += nodes.paragraph("", "", nodes.strong("", f"Self-check {number}. "),
                                       *question.deepcopy().children)
            choices = nodes.enumerated_list(enumtype="loweralpha", prefix="(", suffix=")")
            key = nodes.paragraph("", "", nodes.strong("", f"Self-check {number}: "))
            feedback = nodes.enumerated_list(enumtype="loweralpha", prefix="(", suffix=")")
            correct = []
            for letter, option in zip(string.ascii_lowercase, options):
                text = next(c for c in option.children if "self-check-text" in _classes(c))
                said = next(c for c in option.children if "self-check-feedback" in _classes(c))
                choices += nodes.list_item("", nodes.paragraph("", "", *text.deepcopy().children))
                feedback += nodes.list_item("", nodes.paragraph("", "", *said.deepcopy().children))
                if "self-check-correct" in _classes(option):
                    correct.append(f"({letter})")
            printed += choices
            key += nodes.Text(("answer " if len(correct) == 1 else "answers ") + ", ".join(correct) + ".")
            answers.setdefault(docname, []).extend([key, feedback])
            parent.replace(box, printed)
        # The root page (the preface) is the document itself; sphinx-jupyterbook-latex
        # moves the other pages out of its section afterwards (priority 700).
        pages = [(self.env.docname, self.document),
                 *((s["docname"], s) for s in self.document.findall(addnodes.start_of_file))]
        for docname, page in pages:
            items = answers.get(docname)
            chapter = next((c for c in page.children if isinstance(c, nodes.section)), None)
            if items and chapter is not None:
                chapter += nodes.rubric("", "Answers to the self-checks")
                chapter.extend(items)

    def _number(self, docname: str, count: int) -> str:
        chapter = self.env.toc_secnumbers.get(docname, {}).get("")
        return ".".join(str(n) for n in (*chapter, count)) if chapter else str(count)


def setup(app):
    """Sphinx extension entry point."""
    app.add_post_transform(PrintExplorables)
    app.add_post_transform(PrintVectorDrawings)
    app.add_post_transform(PrintSelfChecks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
