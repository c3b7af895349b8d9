"""The chapters' Markdown as plain Markdown that any notebook front end renders.

The website reads the chapters' MyST: directives (``self-check``, ``prf:theorem``,
``exercise``, ``solution-start`` ...) and roles (``{cite}``, ``{term}``,
``{prf:ref}``). JupyterLab, Colab and VS Code render CommonMark with a little
HTML, and show MyST as raw text; worse, a self-check's key ``- [x]`` renders as
a ticked box, giving the quiz away. :func:`plain_markdown` rewrites one
Markdown cell into what they render: a self-check becomes its question, its
options and a closed ``<details>`` holding the key; theorems and exercises
become quoted paragraphs with a bold heading (an exercise keeps its ``:label:``
in an HTML comment, for the homework tool); citations read "(Efron 1983)";
labels become HTML anchors that cross-references link to.

It is used for the notebooks students open (``scripts/tasks.py lab`` and the
student editions of ``python -m mlcore.homework assign``), never for the
website, whose source stays MyST. (``jupyterlab-myst`` was the other
route: its release 2.7.0 declares itself incompatible with JupyterLab 4.6,
and it renders neither ``self-check`` nor the gated solutions.)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

__all__ = ["plain_markdown", "read_bibliography", "proof_numbers", "book_labels", "TEXT",
           "LANGUAGES",
           "check_language", "SelfCheck", "SelfCheckOption", "parse_self_check",
           "self_checks"]

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}[ \t]*(?P<arg>.*?)\s*$")
_OPTION = re.compile(r"^\s*:(?P<key>[\w-]+):\s*(?P<value>.*?)\s*$")
_SELF_CHECK_OPTION = re.compile(
    r"^\s*[-*]\s+\[(?P<mark>[ xX])\]\s+(?P<text>.+?)(?:\s+~\s+(?P<feedback>.+))?\s*$")
_LEADING_VERDICT = re.compile(r"^(?:Yes|No|Right|Wrong):\s*")
_TARGET = re.compile(r"^\((?P<label>[\w:.-]+)\)=\s*$", re.M)
_ROLE = re.compile(r"\{(?P<role>[\w:-]+)\}`(?P<text>[^`]*)`")
_EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.S)
# A target line followed by a heading: what a {ref} to the label shows is the heading.
_HEADING_TARGET = re.compile(r"^\((?P<label>[\w:.-]+)\)=[ \t]*\n#{1,6}[ \t]+(?P<title>.+?)[ \t#]*$",
                             re.M)
_EQUATION_LABEL = re.compile(r"(\$\$)\s*\((?P<label>[\w:.-]+)\)\s*$", re.M)

_KINDS = {"prf:theorem": "Theorem", "prf:lemma": "Lemma", "prf:corollary": "Corollary",
          "prf:proposition": "Proposition", "prf:definition": "Definition",
          "prf:example": "Example", "prf:remark": "Remark", "prf:algorithm": "Algorithm",
          "prf:conjecture": "Conjecture", "prf:axiom": "Axiom", "prf:observation": "Observation",
          "prf:property": "Property", "prf:criterion": "Criterion", "prf:assumption": "Assumption"}

# Every word this module (and the homework tool's student edition) writes into a
# notebook, per language: a Chinese notebook must not mix the tool's English into
# the catalog's Chinese. The zh_CN words are the Chinese site's own: sphinx-proof's
# 定理/引理/..., sphinx-exercise's 练习/解答, _ext/selfcheck.py's 正确。/不对。, and
# locales/TRANSLATING.md's 自我检验 for "Check yourself".
TEXT = {
    "en": {
        "kinds": _KINDS,
        "check": "**Check yourself.** {question}", "answer": "Answer",
        "key": "**{key}.**", "correct": "Correct.", "wrong": "Not quite.",
        "heading": "{kind} ({title}).", "heading_untitled": "{kind}.",
        "proof": "Proof.",
        "exercise": "Exercise{label}: {title}", "exercise_untitled": "Exercise{label}.",
        "exercise_ref": "Exercise `{label}`", "chapter_ref": "Chapter {number}",
        "stop": ".",
        "solution": "Solution", "solution_to": "Solution to `{label}`",
        "solution_start": "**Solution to `{label}`** (the cells below, to the end of "
                          "the solution).",
        "solution_end": "*End of the solution.*", "more": "More",
        "your_answer": "**Your answer to {name}** (or hand it in on paper):",
        "note": ("**Student edition of chapter {chapter}.** Write your code where you "
                 "see `...` in the exercises' code cells, then run the test cell below each "
                 "exercise: an `AssertionError` tells you what is still wrong. When grading, "
                 "your teacher also runs hidden tests, so make your code correct, not just "
                 "the visible checks. You can check the whole notebook at once with "
                 "`python -m mlcore.homework check {chapter}.ipynb`. Before handing it in, "
                 "clear all outputs (Edit > Clear Outputs of All Cells) and save: outputs "
                 "are not graded, and a notebook larger than {limit} MiB without its outputs "
                 "({file_limit} MiB as a file) cannot be graded."),
        "autograded": "Autograded: {questions}.",
        "manual": "Graded by your teacher: {questions}.",
        "points": "{name} ({points:g} pt)", "list_sep": ", ",
    },
    "zh_CN": {
        "kinds": {"prf:theorem": "定理", "prf:lemma": "引理", "prf:corollary": "推论",
                  "prf:proposition": "命题", "prf:definition": "定义",
                  "prf:example": "例子", "prf:remark": "注记", "prf:algorithm": "算法",
                  "prf:conjecture": "猜想", "prf:axiom": "公理", "prf:observation": "观察",
                  "prf:property": "性质", "prf:criterion": "准则", "prf:assumption": "假设"},
        "check": "**自我检验：**{question}", "answer": "答案",
        "key": "**{key}**", "correct": "正确。", "wrong": "不对。",
        "heading": "{kind}（{title}）", "heading_untitled": "{kind}",
        "proof": "证明",
        "exercise": "练习{label}：{title}", "exercise_untitled": "练习{label}",
        "exercise_ref": "练习`{label}`", "chapter_ref": "第{number}章",
        "stop": "。",
        "solution": "解答", "solution_to": "`{label}`的解答",
        "solution_start": "**`{label}`的解答**（即下面的单元格，直到解答结束）。",
        "solution_end": "*解答结束。*", "more": "更多",
        "your_answer": "**你对{name}的解答**（也可以写在纸上提交）：",
        "note": ("**{chapter}一章的学生版。**请在练习的代码单元格中出现`...`的"
                 "地方写你的代码，然后运行每道练习下面的测试单元格：`AssertionError`"
                 "会告诉你哪里还不对。评分时老师还会运行隐藏测试，所以要让代码真正"
                 "正确，而不只是通过看得见的检查。你可以用"
                 "`python -m mlcore.homework check {chapter}.ipynb`一次检查整个笔记本。"
                 "提交之前，请清除所有输出（Edit > Clear Outputs of All Cells）并保存："
                 "输出不计分，而去掉输出后仍大于{limit} MiB（作为文件大于"
                 "{file_limit} MiB）的笔记本无法评分。"),
        "autograded": "自动评分：{questions}。", "manual": "由老师评分：{questions}。",
        "points": "{name}（{points:g}分）", "list_sep": "、",
    },
}
LANGUAGES = tuple(TEXT)


def check_language(language) -> str:
    """Return ``language`` if :data:`TEXT` has its words, else raise naming it."""
    if not isinstance(language, str) or language not in TEXT:
        raise ValueError(f"language must be one of {', '.join(map(repr, LANGUAGES))}, "
                         f"got language={language!r}.")
    return language


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


# BibTeX accents in author names: {\"o}, {\'a}, {\v{s}}, {\'\i} (a dotless i).
_ACCENT = re.compile(r"\{?\\([\"'`^~=.uvHck])\s*\{?(\\i|[A-Za-z])\}?\}?")
_COMBINING = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303",
              "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
              "c": "\u0327", "k": "\u0328"}


def _unaccent(name: str) -> str:
    """``H{\\"o}ffgen`` -> ``Höffgen``: a student notebook is not typeset by LaTeX."""
    import unicodedata

    def letter(match):
        base = "i" if match.group(2) == "\\i" else match.group(2)
        return unicodedata.normalize("NFC", base + _COMBINING[match.group(1)])
    return _ACCENT.sub(letter, name)


def read_bibliography(path) -> dict[str, str]:
    """Map each BibTeX key of a file to a short author-year name.

    Parameters
    ----------
    path : str or path-like
        A ``.bib`` file.

    Returns
    -------
    dict
        ``{key: "Efron and Tibshirani 1997"}``; "et al." after the first of
        three or more authors; a missing field leaves the key itself.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = tempfile.TemporaryDirectory()
    >>> bib = pathlib.Path(folder.name) / "r.bib"
    >>> _ = bib.write_text("@book{hastie2009,\\n author = {Hastie, Trevor and Tibshirani, "
    ...                    "Robert and Friedman, Jerome},\\n year = {2009}}\\n")
    >>> read_bibliography(bib)
    {'hastie2009': 'Hastie et al. 2009'}
    >>> _ = bib.write_text('@article{h1995,\\n author = {H{\\\\"o}ffgen, K. and '
    ...                    "Dem{\\\\v{s}}ar, J. and Santos Costa, V{\\\\'\\\\i}tor},\\n"
    ...                    " year = {1995}}\\n")
    >>> read_bibliography(bib)
    {'h1995': 'Höffgen et al. 1995'}
    >>> folder.cleanup()
    >>> _unaccent("Dem{\\\\v{s}}ar and V{\\\\'\\\\i}tor")
    'Demšar and Vítor'
    """
    text = Path(path).read_text(encoding="utf-8")
    names = {}
    for entry in re.split(r"(?m)^@", text)[1:]:
        key = re.match(r"\s*\w+\s*\{\s*([^,\s]+)\s*,", entry)
        if not key:
            continue
        author = re.search(r"(?i)\bauthor\s*=\s*[{\"](.*?)[}\"]\s*,?\s*$", entry, re.M | re.S)
        year = re.search(r"(?i)\byear\s*=\s*[{\"]?(\d{4})", entry)
        if not (author and year):
            names[key.group(1)] = key.group(1)
            continue
        authors = _unaccent(author.group(1)).replace("\n", " ")
        people = [p.strip() for p in re.split(r"\s+and\s+", authors) if p.strip()]
        last = [(p.split(",")[0] if "," in p else p.split()[-1]).strip("{} ") for p in people]
        who = (last[0] if len(last) == 1 else f"{last[0]} and {last[1]}" if len(last) == 2
               else f"{last[0]} et al.")
        names[key.group(1)] = f"{who} {year.group(1)}"
    return names


def _roles(text: str, bibliography: dict[str, str], words: dict, numbers: dict) -> str:
    def role(match):
        name, body = match.group("role"), match.group("text")
        explicit = _EXPLICIT.match(body)
        shown, target = (explicit.group("text"), explicit.group("target")) if explicit else (body, body)
        if name in ("cite", "cite:p", "cite:ps"):
            return "(" + "; ".join(bibliography.get(k.strip(), k.strip()) for k in body.split(",")) + ")"
        if name in ("cite:t", "cite:ts"):
            cited = []
            for key in body.split(","):
                found = bibliography.get(key.strip(), key.strip())
                who, _, year = found.rpartition(" ")
                cited.append(f"{who} ({year})" if who and year.isdigit() else found)
            return "; ".join(cited)
        if name in ("prf:ref", "ref") and not explicit and target in numbers:
            # What the website prints for it: "Theorem 2.1" / "定理 2.1", a section's
            # title; in place of the site's "Exercise 1.1" the name the notebook shows.
            kind, number = numbers[target]
            shown = (number if kind == "section"
                     else words["exercise_ref"].format(label=target) if kind == "exercise"
                     else words["chapter_ref"].format(number=number) if kind == "chapter"
                     else (words["kinds"][kind] + " " + number).strip())
            return f"[{shown}](#{target})"
        if name in ("prf:ref", "ref", "numref", "eq"):
            return f"[{shown}](#{target})"
        if name == "math":
            return f"${body}$"
        return shown      # term, doc, abbr, glue and the like: their text
    return _ROLE.sub(role, text)


# NamedTuples, not dataclasses: scripts/tasks.py loads this file by path,
# unregistered in sys.modules, where a dataclass cannot resolve its annotations.
class SelfCheckOption(NamedTuple):
    """One option of a self-check: its text, whether it is keyed, its feedback.

    ``feedback`` is written as the reader sees it: without a leading verdict
    ("Yes: ", "No: "; the website and the LMS say right or wrong themselves)
    and with its first letter capitalized.
    """

    text: str
    correct: bool
    feedback: str


class SelfCheck(NamedTuple):
    """A ``self-check`` directive: the question and its options, in order."""

    question: str
    options: tuple


def parse_self_check(question: str, lines) -> SelfCheck:
    """Read a ``self-check`` directive's question and option lines.

    The one reader of the format (CONTRIBUTING.md, "Self-check questions"):
    the website's directive (``_ext/selfcheck.py``), the notebooks students
    open (:func:`plain_markdown`) and the LMS quizzes
    (``python -m mlcore.homework quiz``) all go through it.

    Parameters
    ----------
    question : str
        The directive's argument.
    lines : list of str
        Its content lines; blank ones are skipped.

    Returns
    -------
    SelfCheck

    Raises
    ------
    ValueError
        On a line that is not ``- [x] text ~ feedback`` or ``- [ ] text ~
        feedback``, fewer than two options, or no option marked ``[x]``.

    Examples
    --------
    >>> check = parse_self_check("Odds of p = 0.8?", ["- [x] 4. ~ Yes: 0.8/0.2.",
    ...                                               "- [ ] 0.8. ~ No: the probability."])
    >>> [(o.text, o.correct, o.feedback) for o in check.options]
    [('4.', True, '0.8/0.2.'), ('0.8.', False, 'The probability.')]
    >>> parse_self_check("Q?", ["- [ ] a ~ No.", "- [ ] b ~ No."])
    Traceback (most recent call last):
    ...
    ValueError: self-check 'Q?': no option is marked correct with '- [x]'.
    """
    lines = [line for line in lines if line.strip()]
    matches = [_SELF_CHECK_OPTION.match(line) for line in lines]
    bad = [line for line, match in zip(lines, matches) if match is None]
    if bad or len(matches) < 2:
        reason = (f"cannot read the option line {bad[0]!r}" if bad
                  else "it needs at least two options")
        raise ValueError(f"self-check {question!r}: {reason}; write each option as "
                         "'- [x] text ~ feedback' (correct) or '- [ ] text ~ feedback'.")
    if not any(m["mark"] in "xX" for m in matches):
        raise ValueError(f"self-check {question!r}: no option is marked correct with '- [x]'.")
    options = []
    for m in matches:
        feedback = _LEADING_VERDICT.sub("", (m["feedback"] or "").strip())
        options.append(SelfCheckOption(m["text"], m["mark"] in "xX",
                                       feedback[:1].upper() + feedback[1:]))
    return SelfCheck(question.strip(), tuple(options))


def _self_check(question: str, body: list[str], words: dict) -> list[str]:
    options = parse_self_check(question, body).options
    lines = [words["check"].format(question=question), ""]
    lines += [f"- ({_LETTERS[i]}) {o.text}" for i, o in enumerate(options)]
    key = ", ".join(f"({_LETTERS[i]})" for i, o in enumerate(options) if o.correct)
    lines += ["", f"<details><summary>{words['answer']}</summary>", "",
              words["key"].format(key=key), ""]
    for i, o in enumerate(options):
        verdict = words["correct"] if o.correct else words["wrong"]
        # Chinese sets no space after its full stop: "正确。对，……".
        space = "" if verdict.endswith("。") else " "
        lines.append(f"- ({_LETTERS[i]}) {verdict}{space}{o.feedback}".rstrip())
    return lines + ["", "</details>"]


def _one_line_math(body: list[str]) -> list[str]:
    """Each multi-line display formula (``$$ ... $$``, ``\\begin{env} ... \\end{env}``) on one line.

    JupyterLab (like Colab and VS Code) lifts display math out of the Markdown
    before parsing it, so inside a quote the "> " of the formula's inner lines
    would reach TeX and show as stray ">" signs; TeX reads the joined line the same.
    """
    out, formula, closing = [], [], None
    for line in body:
        if closing is None:
            stripped = line.strip()
            opening = re.match(r"\$\$|\\begin\{([\w*]+)\}", stripped)
            if opening and not (stripped.count("$$") % 2 == 0 if opening[0] == "$$"
                                else f"\\end{{{opening[1]}}}" in stripped):
                formula, closing = [stripped], "$$" if opening[0] == "$$" else f"\\end{{{opening[1]}}}"
            else:
                out.append(line)
            continue
        formula.append(line.strip())
        if closing in line:
            out.append(" ".join(formula))
            closing = None
    return out + formula if closing else out


def _quoted(heading: str, body: list[str]) -> list[str]:
    lines = [f"**{heading}**", ""] + _one_line_math(body)
    return [("> " + line).rstrip() for line in lines]


def _heading(title: str, words: dict) -> str:
    """``title`` closed by the language's full stop, unless it ends in punctuation."""
    return title if title.endswith((".", "?", "!", "。", "？", "！", "）")) else title + words["stop"]


def _directive(name: str, arg: str, options: dict[str, str], body: list[str],
               words: dict, numbers: dict) -> list[str]:
    anchor = [f'<a id="{options["label"]}"></a>', ""] if "label" in options else []
    if name == "self-check":
        return _self_check(arg, body, words)
    if name in _KINDS:
        # The number the website gives it ("Theorem 2.1"), so a reference can be found.
        kind = words["kinds"][name]
        number = numbers.get(options.get("label"), (None, ""))[1]
        kind = f"{kind} {number}" if number else kind
        heading = (words["heading"].format(kind=kind, title=arg) if arg
                   else words["heading_untitled"].format(kind=kind))
        return anchor + _quoted(heading, body)
    if name == "prf:proof":
        return _quoted(words["proof"], body + ["", "∎"])
    if name == "exercise":
        label = f" `{options['label']}`" if "label" in options else ""
        # The label names the question for `python -m mlcore.homework check`, which reads
        # it as a ':label:' line, as in the chapter; an HTML comment keeps it unseen.
        name_line = ["<!--", f":label: {options['label']}", "-->"] if "label" in options else []
        heading = (_heading(words["exercise"].format(label=label, title=arg), words) if arg
                   else words["exercise_untitled"].format(label=label))
        return anchor + name_line + _quoted(heading, body)
    if name == "solution":
        summary = words["solution_to"].format(label=arg) if arg else words["solution"]
        return [f"<details><summary>{summary}</summary>", ""] + body + ["", "</details>"]
    if name == "solution-start":
        return [words["solution_start"].format(label=arg)]
    if name == "solution-end":
        return [words["solution_end"]]
    if name == "dropdown":
        return (["<details><summary>" + (arg or words["more"]) + "</summary>", ""] + body
                + ["", "</details>"])
    title = arg or name.split(":")[-1].capitalize()
    return anchor + _quoted(_heading(title, words), body)


def _directive_at(lines: list[str], i: int):
    """The directive opening at ``lines[i]``: (name, argument, options, body, end) or None.

    ``end`` is the index of its closing fence; the body's own directives are
    left in it.
    """
    opening = _OPEN.match(lines[i])
    if not opening:
        return None
    fence = opening["fence"]
    end = i + 1
    while end < len(lines) and not re.fullmatch(
            rf"\s*{re.escape(fence[0])}{{{len(fence)},}}\s*", lines[end]):
        end += 1
    body = lines[i + 1:end]
    options = {}
    while body and _OPTION.match(body[0]):
        option = _OPTION.match(body.pop(0))
        options[option["key"]] = option["value"]
    return opening["name"], opening["arg"], options, body, end


def _blocks(lines: list[str], words: dict, numbers: dict) -> list[str]:
    out, i = [], 0
    while i < len(lines):
        found = _directive_at(lines, i)
        if not found:
            out.append(lines[i])
            i += 1
            continue
        name, arg, options, body, end = found
        out += _directive(name, arg, options, _blocks(body, words, numbers), words, numbers)
        i = end + 1
    return out


def self_checks(source: str) -> list:
    """Every ``self-check`` of one Markdown cell, in order, nested ones included.

    Parameters
    ----------
    source : str
        The cell's MyST source.

    Returns
    -------
    list of SelfCheck
        As :func:`parse_self_check` reads them (roles and math left as written).

    Examples
    --------
    >>> [c.question for c in self_checks("Text.\\n\\n:::{self-check} Why?\\n"
    ...                                  "- [x] A. ~ Yes.\\n- [ ] B. ~ No.\\n:::\\n")]
    ['Why?']
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be a str, got {type(source).__name__}.")
    found, lines, i = [], source.split("\n"), 0
    while i < len(lines):
        directive = _directive_at(lines, i)
        if not directive:
            i += 1
            continue
        name, arg, _, body, end = directive
        found += ([parse_self_check(arg, body)] if name == "self-check"
                  else self_checks("\n".join(body)))
        i = end + 1
    return found


def proof_numbers(notebook, chapter) -> dict[str, tuple[str, str]]:
    """Number a chapter's ``prf:`` directives as the website does, and name its other targets.

    sphinx-proof counts each kind separately within a chapter and prefixes the
    chapter's number: the second lemma of chapter 2 is "Lemma 2.2" (the book's
    table of contents numbers the chapters ``NN_name`` as NN). Proofs are not
    numbered, nor is a directive with ``:nonumber:``. The chapter's other
    targets of a ``{ref}`` are here too: a ``(label)=`` line above a heading
    as ``("section", heading)``, an exercise's ``:label:`` as
    ``("exercise", "")``.

    Parameters
    ----------
    notebook : dict
        The chapter notebook (nbformat 4 JSON).
    chapter : str
        Its file stem, ``"02_finite_hypothesis_classes"``; without leading
        digits the numbers have no chapter prefix.

    Returns
    -------
    dict
        ``{label: (kind, number)}``, e.g. ``{"lem-hoeffding": ("prf:lemma", "2.2")}``;
        number ``""`` for an unnumbered directive.

    Examples
    --------
    >>> cells = [{"cell_type": "markdown", "source": ":::{prf:lemma} A\\n:label: lem-a\\n:::\\n"
    ...           ":::{prf:theorem} B\\n:label: thm-b\\n:::\\n:::{prf:lemma} C\\n:label: lem-c\\n:::"}]
    >>> proof_numbers({"cells": cells}, "02_bounds")
    {'lem-a': ('prf:lemma', '2.1'), 'thm-b': ('prf:theorem', '2.1'), 'lem-c': ('prf:lemma', '2.2')}
    >>> proof_numbers({"cells": [{"cell_type": "markdown",
    ...                           "source": "(sec-a)=\\n## The threshold\\n"}]}, "01_x")
    {'sec-a': ('section', 'The threshold')}
    """
    if not isinstance(chapter, str):
        raise TypeError(f"chapter must be the chapter's file stem (a str), got "
                        f"{type(chapter).__name__}.")
    digits = re.match(r"\d+", chapter)
    prefix = f"{int(digits.group(0))}." if digits else ""
    counts: dict[str, int] = {}
    numbers = {}
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else source
        for target in _HEADING_TARGET.finditer(text):
            numbers[target["label"]] = ("section", target["title"])
        lines = text.split("\n")
        for i, line in enumerate(lines):
            opening = _OPEN.match(line)
            if opening and opening["name"] == "exercise":
                label = next((found["value"] for option in lines[i + 1:]
                              if (found := _OPTION.match(option)) and found["key"] == "label"),
                             None)
                if label:
                    numbers[label] = ("exercise", "")
            if not opening or opening["name"] not in _KINDS:
                continue
            options = {}
            for option in lines[i + 1:]:
                found = _OPTION.match(option)
                if not found:
                    break
                options[found["key"]] = found["value"]
            number = ""
            if "nonumber" not in options:
                counts[opening["name"]] = counts.get(opening["name"], 0) + 1
                number = f"{prefix}{counts[opening['name']]}"
            if "label" in options:
                numbers[options["label"]] = (opening["name"], number)
    return numbers


def book_labels(folder) -> dict[str, tuple[str, str]]:
    """Every chapter's labels as a reference from another chapter shows them.

    For the chapter notebooks ``NN_name.ipynb`` in ``folder``: a theorem's
    number as :func:`proof_numbers` gives it ("Theorem 2.1" wherever it is
    cited), an exercise by its name, and a chapter's title or section, whose
    text a student's copy of another chapter does not have in its language,
    as ``("chapter", "3")``: "Chapter 3" / "第3章". Merge a chapter's own
    :func:`proof_numbers` over it, so that its sections keep their titles.

    Examples
    --------
    >>> labels = book_labels("chapters")      # doctest: +SKIP
    >>> labels["ch-vc-dimension"], labels["thm-finite-uniform"]  # doctest: +SKIP
    (('chapter', '3'), ('prf:theorem', '2.1'))
    """
    import json

    labels = {}
    for path in sorted(Path(folder).glob("[0-9][0-9]_*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for label, (kind, number) in proof_numbers(notebook, path.stem).items():
            labels[label] = ("chapter", str(int(path.name[:2]))) if kind == "section" \
                else (kind, number)
    return labels


def plain_markdown(source: str, bibliography: dict[str, str] | None = None, *,
                   language: str = "en", numbers: dict | None = None) -> str:
    """Rewrite one MyST Markdown cell as CommonMark with a little HTML.

    Parameters
    ----------
    source : str
        The cell's source.
    bibliography : dict, optional
        BibTeX key -> short name (:func:`read_bibliography`); without it a
        citation shows its key.
    language : {"en", "zh_CN"}
        The language of the words this function adds ("Check yourself.",
        "Theorem", "Answer", ...: :data:`TEXT`); the cell's own text is left
        as it is (translate it first, see ``mlcore.homework.editions._translate``).
    numbers : dict, optional
        The chapter's :func:`proof_numbers`: a theorem's heading then shows its
        number and a ``{prf:ref}`` reads "Theorem 2.1" as on the website;
        without it a reference shows its label.

    Returns
    -------
    str
        The cell with every directive and role rewritten (see the module's
        docstring); text, math and code are unchanged.

    Raises
    ------
    ValueError
        On a self-check whose option lines cannot be read, or an unknown language.

    Examples
    --------
    >>> print(plain_markdown(":::{self-check} Which maps log-odds to a probability?\\n"
    ...                      "- [ ] The logit. ~ No: it goes the other way.\\n"
    ...                      "- [x] The sigmoid. ~ Yes: it inverts the logit.\\n:::"))
    **Check yourself.** Which maps log-odds to a probability?
    <BLANKLINE>
    - (a) The logit.
    - (b) The sigmoid.
    <BLANKLINE>
    <details><summary>Answer</summary>
    <BLANKLINE>
    **(b).**
    <BLANKLINE>
    - (a) Not quite. It goes the other way.
    - (b) Correct. It inverts the logit.
    <BLANKLINE>
    </details>
    >>> plain_markdown("As {cite}`efron1983` shows, see {prf:ref}`thm-a`.", {"efron1983": "Efron 1983"})
    'As (Efron 1983) shows, see [thm-a](#thm-a).'
    >>> numbers = {"thm-a": ("prf:theorem", "2.1")}
    >>> plain_markdown("见{prf:ref}`thm-a`。", language="zh_CN", numbers=numbers)
    '见[定理 2.1](#thm-a)。'
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be a str, got {type(source).__name__}.")
    words = TEXT[check_language(language)]
    bibliography = bibliography or {}
    numbers = numbers or {}
    text = _TARGET.sub(lambda m: f'<a id="{m["label"]}"></a>', source)
    text = _EQUATION_LABEL.sub(r"\1", text)
    text = "\n".join(_blocks(text.split("\n"), words, numbers))
    return _roles(text, bibliography, words, numbers)
