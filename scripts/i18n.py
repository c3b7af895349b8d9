"""The Chinese edition's message catalogs: extract the English text, update the .po files.

    python scripts/i18n.py extract   # English messages -> _build/gettext/**/*.pot
    python scripts/i18n.py update    # extract, then bring locales/zh_CN/LC_MESSAGES/**/*.po
                                     # up to date (new messages empty, changed ones fuzzy)
    python scripts/i18n.py build [--all]   # the Chinese site -> _build/html/zh_CN

Run it with the project's environment (``.venv/bin/python``, or
``.venv\\Scripts\\python`` on Windows). ``update`` is what carries a change of
the English text into the catalogs; locales/TRANSLATING.md says what the
translator does next, CONTRIBUTING.md the whole round trip.

Extraction is Sphinx's ``gettext`` builder run on the configuration Jupyter
Book generates from ``_config.yml`` (which sets ``gettext_compact: false``, one
catalog per page, and no uuids or source locations: see TRANSLATING.md). It
reads the notebooks without executing them (``nb_execution_mode: off``):
outputs are not messages, so the execution cache is neither needed nor touched.
It has its own doctrees, so the HTML build's incremental state is left alone.

``build`` is the Chinese site: the same Sphinx configuration with
``language = zh_CN``, its own doctrees (``_build/.doctrees-zh_CN``), into
``_build/html/zh_CN``, reading every notebook from the English build's
execution cache (``_build/.jupyter_cache``; nothing is executed again). Like the
English build it fails on any warning. ``scripts/tasks.py book`` runs it after
the English site (``--all`` when the English build rewrote every page).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POT_DIR = ROOT / "_build" / "gettext"
LOCALE_DIR = ROOT / "locales"
LANGUAGES = ["zh_CN"]
CHINESE_SITE = ROOT / "_build" / "html" / "zh_CN"
EXECUTION_CACHE = ROOT / "_build" / ".jupyter_cache"


def _book_overrides() -> dict:
    # What `jupyter-book build` passes for a book (jupyter_book.cli.main.build).
    return {"external_toc_path": (ROOT / "_toc.yml").as_posix(), "latex_individualpages": False}


def extract() -> Path:
    """Write one .pot per page into _build/gettext; fail on any Sphinx warning."""
    from jupyter_book.sphinx import build_sphinx

    os.environ.setdefault("MLCORE_QUIET", "1")
    overrides = {**_book_overrides(), "nb_execution_mode": "off"}
    status = build_sphinx(ROOT, POT_DIR, noconfig=True, path_config=str(ROOT / "_config.yml"),
                          confoverrides=overrides, doctreedir=ROOT / "_build" / ".doctrees-gettext",
                          builder="gettext", warningiserror=True, keep_going=True, quiet=True,
                          freshenv=True)
    if status:
        sys.exit("Extracting the messages failed (Sphinx's messages above).")
    return POT_DIR


def update() -> None:
    """Extract, then merge the templates into every language's .po files."""
    extract()
    for language in LANGUAGES:
        for template in sorted(POT_DIR.rglob("*.pot")):
            relative = template.relative_to(POT_DIR).with_suffix(".po")
            print(merge(template, LOCALE_DIR / language / "LC_MESSAGES" / relative, language))


def merge(template_path: Path, po_path: Path, language: str) -> str:
    """Bring one .po file up to date with its template; say what changed.

    What sphinx-intl's ``update`` does (babel's merge: a new message empty, a
    changed one fuzzy with its old translation, a removed one dropped), plus
    the old English of every fuzzy entry as ``#| msgid "…"``
    (``include_previous``), which sphinx-intl does not write: the translator
    compares it with the new msgid (locales/TRANSLATING.md). ``width=0``: one
    line per msgid/msgstr, so a changed sentence is a one-line diff and CJK
    text (no spaces to wrap at) is not cut mid-term. ``ignore_obsolete``: a
    message gone from the book leaves the catalog.
    """
    from babel.messages.pofile import read_po, write_po

    sys.path.insert(0, str(ROOT / "scripts"))
    from check_translations import previous_msgids

    with open(template_path, "rb") as handle:
        template = read_po(handle, charset="utf-8")
    shown = po_path.relative_to(ROOT) if po_path.is_relative_to(ROOT) else po_path
    if not po_path.exists():
        template.locale = language
        po_path.parent.mkdir(parents=True, exist_ok=True)
        with open(po_path, "wb") as handle:
            write_po(handle, template, width=0)
        return f"Create: {shown}"
    with open(po_path, "rb") as handle:
        catalog = read_po(handle, charset="utf-8")
    before = {message.id for message in catalog if message.id}
    earlier = previous_msgids(po_path)   # babel's reader drops the '#|' lines
    catalog.update(template)
    for message in catalog:
        if message.fuzzy and not message.previous_id and message.id in earlier:
            message.previous_id = [earlier[message.id]]
    after = {message.id for message in catalog if message.id}
    if before == after:
        return f"Not Changed: {shown}"
    with open(po_path, "wb") as handle:
        write_po(handle, catalog, width=0, ignore_obsolete=True, include_previous=True)
    return f"Update: {shown} +{len(after - before)}, -{len(before - after)}"


def build(full: bool = False) -> Path:
    """Write the Chinese site into _build/html/zh_CN; fail on any Sphinx warning."""
    from jupyter_book.sphinx import build_sphinx

    overrides = {**_book_overrides(), "language": "zh_CN",
                 # The English build's cache, whatever the output folder (myst-nb
                 # would otherwise look beside the output: _build/html/.jupyter_cache).
                 "nb_execution_cache_path": str(EXECUTION_CACHE)}
    status = build_sphinx(ROOT, CHINESE_SITE, noconfig=True, path_config=str(ROOT / "_config.yml"),
                          confoverrides=overrides, doctreedir=ROOT / "_build" / ".doctrees-zh_CN",
                          builder="html", warningiserror=True, keep_going=True, force_all=full,
                          quiet=True)
    if status:
        sys.exit("The Chinese site failed to build (Sphinx's messages above).")
    return CHINESE_SITE / "index.html"


def main() -> None:
    commands = {"extract": extract, "update": update, "build": build}
    args = sys.argv[1:]
    if not args or args[0] not in commands or args[1:] not in ([], ["--all"]) or (
            args[1:] and args[0] != "build"):
        print(__doc__)
        sys.exit(f"usage: python scripts/i18n.py {{{','.join(commands)}}}  (build [--all])")
    if args[0] == "build":
        print(f"Built the Chinese site: open {build(full=args[1:] == ['--all'])}")
    else:
        commands[args[0]]()


if __name__ == "__main__":
    main()
