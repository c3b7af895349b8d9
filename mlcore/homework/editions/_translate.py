"""Chapter notebooks in another language, from the book's gettext catalogs.

The website's Chinese edition is Sphinx's translation of the chapters: each
Markdown block (paragraph, heading, list item, table cell, self-check
question, option or feedback, exercise or theorem title) is a message of
``locales/<language>/LC_MESSAGES/chapters/<chapter>.po``. This module puts the
same translations back into the notebook's Markdown cells, so that a student
downloads (or is assigned) a Chinese notebook whose code cells, exercise
labels, tests and metadata are the English notebook's, byte for byte.

A message is the block's source text with its lines joined by spaces, so it
is found in a cell by its words, whatever line breaks and indentation the
cell has, ending at the end of a line (or before a self-check's ``~``
feedback or a table's ``|``). Two kinds of message are written differently
in the cell: a theorem title is ``(Title)`` in the catalog and ``Title``
after ``{prf:theorem}``; a self-check feedback has its verdict ("Yes: ...")
dropped and its first letter capitalized. :func:`translate_notebook`
returns the messages it could not place, so a caller can say which.
"""

from __future__ import annotations

import ast
import copy
import re
from pathlib import Path

__all__ = ["read_catalog", "catalog_path", "translate_notebook", "LANGUAGES"]

LANGUAGES = ("en", "zh_CN")
# The verdict a self-check feedback may open with (as _ext/selfcheck.py drops it).
_VERDICT = r"(?:(?:Yes|No|Right|Wrong):\s*)?"
# Where a block ends: end of line, a self-check's " ~ feedback", a table's " |".
_BLOCK_END = r"(?=[ \t]*(?:\n|$)|\s+~\s|[ \t]*\|)"


def catalog_path(notebook, language: str, root=None) -> Path:
    """The catalog of a chapter: ``ROOT/locales/LANGUAGE/LC_MESSAGES/chapters/NAME.po``.

    ``root`` defaults to the folder above the notebook's ``chapters/``.
    """
    notebook = Path(notebook)
    root = Path(root) if root is not None else notebook.resolve().parent.parent
    return root / "locales" / language / "LC_MESSAGES" / "chapters" / f"{notebook.stem}.po"


def _unquote(line: str) -> str:
    # A PO string is a C string in double quotes; Python's literal syntax reads
    # the escapes PO uses (\\ \" \n \t).
    return ast.literal_eval(line)


def read_catalog(path) -> dict:
    """``{msgid: msgstr}`` of a .po file: translated entries only, fuzzy ones left out.

    A fuzzy entry is an out-of-date translation (the English changed): Sphinx
    does not use it, and neither does this.
    """
    entries, current, field, fuzzy = {}, {}, None, False

    def flush():
        if current.get("msgid") and current.get("msgstr") and not fuzzy:
            entries[current["msgid"]] = current["msgstr"]

    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#,") and "fuzzy" in line:
            flush()
            current, field, fuzzy = {}, None, True
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgid", "msgstr", "msgctxt"):
            if keyword in ("msgid", "msgctxt") and "msgstr" in current:
                flush()
                current, fuzzy = {}, fuzzy if keyword == "msgid" and not current else False
            field = keyword
            current[field] = _unquote(rest)
        elif line.startswith('"') and field:
            current[field] += _unquote(line)
    flush()
    return entries


def _pattern(words: str) -> str:
    # Any run of spaces in the message is any whitespace in the cell: a line
    # break and the next line's indentation, or a block quote's "> ".
    return r"\s+(?:>[ \t]*)?".join(re.escape(word) for word in words.split())


def _strip_parentheses(text: str) -> str:
    text = text.strip()
    for left, right in (("(", ")"), ("（", "）")):
        if text.startswith(left) and text.endswith(right):
            return text[1:-1].strip()
    return text


# sphinx-proof writes "Proof. " before a proof's first line; the translation
# starts with its own word for it (证明：), which the notebook does not have.
_PROOF = "Proof. "
_PROOF_WORD = re.compile(r"^\s*(?:\*\*|\*)?(?:证明|Proof)(?:\*\*|\*)?\s*[.:：。．]?\s*(?:\*\*|\*)?\s*")


def _forms(msgid: str) -> list:
    """(pattern that finds the message in a cell, how its translation is written there).

    Each pattern's group ``keep`` is markup before the message that stays.
    """
    as_is = str
    forms = [(re.compile(r"(?P<keep>)(?<![^\s>#*:`}~|\-\]])" + _pattern(msgid) + _BLOCK_END),
              as_is)]
    if msgid.startswith("(") and msgid.endswith(")"):
        # A theorem's title: ":::{prf:theorem} Title" in the cell.
        forms.append((re.compile(r"(?P<keep>\{prf:[a-z]+\}[ \t]+)" + _pattern(msgid[1:-1])
                                 + _BLOCK_END), _strip_parentheses))
    if msgid.startswith(_PROOF) and len(msgid) > len(_PROOF):
        forms.append((re.compile(r"(?P<keep>\{prf:proof\}[^\n]*\n(?::[^\n]*\n)*)"
                                 + _pattern(msgid[len(_PROOF):]) + _BLOCK_END),
                      lambda text: _PROOF_WORD.sub("", text, count=1)))
    if msgid[:1].isupper():
        # A self-check feedback: "~ Yes: the ..." in the cell.
        first = f"[{re.escape(msgid[0])}{re.escape(msgid[0].lower())}]"
        rest = msgid[1:]
        body = first + (_pattern(rest) if rest[:1] not in (" ", "") else r"\s+" + _pattern(rest))
        forms.append((re.compile(r"(?P<keep>~ )" + _VERDICT + body + _BLOCK_END), as_is))
    return forms


def translate_notebook(notebook: dict, catalog: dict) -> tuple[dict, list]:
    """A copy of ``notebook`` whose Markdown cells carry the catalog's translations.

    Parameters
    ----------
    notebook : dict
        A notebook (nbformat 4 JSON).
    catalog : dict
        ``{English message: translation}`` (:func:`read_catalog`).

    Returns
    -------
    translated : dict
        The copy; code cells, outputs and metadata untouched.
    unplaced : list of str
        Messages of the catalog found in no Markdown cell.

    Examples
    --------
    >>> nb = {"cells": [{"cell_type": "markdown", "metadata": {},
    ...                  "source": "## Odds\\n\\nThe odds are\\n$p/(1-p)$."}]}
    >>> out, unplaced = translate_notebook(nb, {"Odds": "几率", "The odds are $p/(1-p)$.":
    ...                                         "几率是$p/(1-p)$。", "Gone.": "走了。"})
    >>> out["cells"][0]["source"]
    '## 几率\\n\\n几率是$p/(1-p)$。'
    >>> unplaced
    ['Gone.']
    """
    translated = copy.deepcopy(notebook)
    cells = [c for c in translated.get("cells", []) if c.get("cell_type") == "markdown"]
    sources = ["".join(c["source"]) if isinstance(c.get("source"), list) else c.get("source", "")
               for c in cells]
    unplaced = []
    # Longest first: a short message ("Learning objectives") must not be found
    # inside a longer one that is still English.
    for msgid in sorted(catalog, key=len, reverse=True):
        msgstr = catalog[msgid]
        placed = False
        for pattern, written in _forms(msgid):
            replacement = written(msgstr)
            for i, source in enumerate(sources):
                new, count = pattern.subn(lambda m: m["keep"] + replacement, source)
                if count:
                    sources[i], placed = new, True
            if placed:
                break
        if not placed:
            unplaced.append(msgid)
    for cell, source in zip(cells, sources):
        cell["source"] = source
    return translated, unplaced
