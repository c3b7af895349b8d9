"""Check Chinese catalogs: complete, current, and faithful to the English's fixed parts.

    python scripts/check_translations.py locales/zh_CN/LC_MESSAGES/chapters/01_logistic_regression.po
    python scripts/check_translations.py            # every catalog under locales/zh_CN

For each message it reports, as ``file:line: problem``:

- untranslated (empty ``msgstr``) or fuzzy (the English changed since it was
  translated: ``python scripts/i18n.py update`` marks it);
- still English: a message with English words whose translation has no
  Chinese character (unless a translator comment ``# verbatim: reason``
  above the entry says why it stays as it is, e.g. a bibliographic citation);
- math (``$…$``, ``$$…$$``), inline code, numbers, MyST roles (their name and
  target: ``{term}`交叉熵 <cross-entropy (交叉熵)>``` keeps ``cross-entropy
  (交叉熵)``) and link targets that the translation lost or added, compared as
  multisets;
- markup as MyST's own parser (with the book's extensions) reads it: as many
  emphases, math, code spans, roles and links as the English, no literal
  ``*`` or ``$`` left in the text (``**自助法，**`` beside Chinese is not
  bold), and one paragraph (Sphinx ignores a translation that is not);
- a variant that locales/term_variants.txt replaces by the book's one word for
  a term (蒙特卡洛 -> 蒙特卡罗); a rule marked ``pending:`` for a catalog is
  printed for that catalog but does not fail it (its owner has yet to apply it);
- a glossary term (chapters/glossary.md) whose English is in the message but
  whose Chinese is not in the translation, unless locales/glossary_exceptions.txt
  justifies it.

Exit status 0 when every checked file is clean, 1 otherwise. The test command
runs the same checks over every catalog (tests/test_i18n.py).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "locales" / "zh_CN" / "LC_MESSAGES"
GLOSSARY = ROOT / "chapters" / "glossary.md"
EXCEPTIONS = ROOT / "locales" / "glossary_exceptions.txt"

# MyST roles: {name}`content`, content may end with a target in <...>.
_ROLE = re.compile(r"\{(?P<name>[\w:.-]+)\}`(?P<content>[^`]*)`")
_ROLE_TARGET = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.S)
# Display math first, then inline math; \$ is an escaped dollar, not math.
_DISPLAY_MATH = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$", re.S)
_INLINE_MATH = re.compile(r"(?<!\\)\$(?!\$)(.+?)(?<!\\)\$")
# Code spans: a run of backticks, the code, the same run (CommonMark).
_CODE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
_LINK = re.compile(r"\]\((?P<target>[^()\s]+(?:\([^()]*\))?[^()\s]*)\)")
_FOOTNOTE = re.compile(r"\[\^[^\]]+\]")
_URL = re.compile(r"(?:https?://|www\.)[^\s<>)\]，。；]+")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_CJK = re.compile(r"[\u3400-\u9fff]")
_ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")


@dataclass(frozen=True)
class Parts:
    """The fixed parts of a message, and its prose with them taken out."""

    math: Counter
    code: Counter
    roles: Counter
    links: Counter
    numbers: Counter
    prose: str  # text outside math, code, roles' targets and links; role texts kept


def split_message(text: str) -> Parts:
    """Take a message apart into what must survive translation and the prose around it."""
    roles, role_texts = Counter(), []

    def take_role(match):
        content = match["content"]
        target = _ROLE_TARGET.match(content)
        key = target["target"].strip() if target else content.strip()
        roles[f"{{{match['name']}}}{key}"] += 1
        # A {term}/{ref}/{doc} text is prose; a citation key or label without
        # text is not.
        shown = target["text"] if target else (content if match["name"] == "term" else "")
        role_texts.append(shown)
        return f" \0{len(role_texts) - 1}\0 "

    rest = _ROLE.sub(take_role, text)
    math = Counter(m.strip() for m in _DISPLAY_MATH.findall(rest))
    rest = _DISPLAY_MATH.sub(" ", rest)
    math.update(m.strip() for m in _INLINE_MATH.findall(rest))
    rest = _INLINE_MATH.sub(" ", rest)
    code = Counter(m[1].strip() for m in _CODE.findall(rest))
    rest = _CODE.sub(" ", rest)
    links = Counter(m["target"] for m in _LINK.finditer(rest))
    rest = _LINK.sub("]", rest)
    links.update(_FOOTNOTE.findall(rest))
    rest = _FOOTNOTE.sub(" ", rest)
    links.update(_URL.findall(rest))
    rest = _URL.sub(" ", rest)
    numbers = Counter(_NUMBER.findall(re.sub(r"\0\d+\0", " ", rest)))
    prose = re.sub(r"\0(\d+)\0", lambda m: role_texts[int(m[1])], rest)
    return Parts(math, code, roles, links, numbers, prose)


def _difference(kind: str, source: Counter, translation: Counter) -> list[str]:
    problems = []
    missing, extra = source - translation, translation - source
    if missing:
        problems.append(f"{kind} missing: " + ", ".join(_show(k, n) for k, n in missing.items()))
    if extra:
        problems.append(f"{kind} not in the English: "
                        + ", ".join(_show(k, n) for k, n in extra.items()))
    return problems


def _show(item: str, count: int) -> str:
    return repr(item) + (f" ×{count}" if count > 1 else "")


# --- glossary ---------------------------------------------------------------

_GLOSSARY_ENTRY = re.compile(r"^(?P<english>\S.*?) \((?P<chinese>[^()]+)\)\s*$")


def glossary_terms(path: Path = GLOSSARY) -> list[tuple[str, str]]:
    """(English, Chinese) for each glossary term; "a, b (中)" gives both a and b."""
    terms, inside = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(":::{glossary}"):
            inside = True
        elif line.startswith(":::"):
            inside = False
        elif inside and (match := _GLOSSARY_ENTRY.match(line)):
            for english in match["english"].split(", "):
                terms.append((english.strip(), match["chinese"].strip()))
    # Longest first: "K-fold cross-validation" claims its words before
    # "cross-validation" does.
    return sorted(terms, key=lambda term: -len(term[0]))


@dataclass
class Exceptions:
    """locales/glossary_exceptions.txt: justified departures from the glossary rule."""

    aliases: dict  # English term -> other Chinese forms accepted
    not_terms: list  # English phrases in which a term's word is not the term

    @classmethod
    def read(cls, path: Path = EXCEPTIONS) -> Exceptions:
        aliases, not_terms = {}, []
        if not path.exists():
            return cls(aliases, not_terms)
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            rule, _, reason = line.partition(" | ")
            kind, _, body = rule.partition(":")
            if not reason.strip() or kind not in ("alias", "not-term"):
                sys.exit(f"{path}:{number}: write 'alias: TERM -> 中文 | reason' or "
                         f"'not-term: english phrase | reason' (a reason is required); got {raw!r}")
            if kind == "alias":
                english, _, chinese = body.partition("->")
                aliases.setdefault(english.strip().lower(), []).append(chinese.strip())
            else:
                not_terms.append(body.strip())
        return cls(aliases, not_terms)


def _term_pattern(english: str) -> re.Pattern:
    stem = re.escape(english)
    if english.endswith("y"):
        forms = re.escape(english[:-1]) + r"(?:y|ies)"
    else:
        forms = stem + r"(?:s|es|ed|ing|d)?"
    return re.compile(rf"(?<!\w){forms}(?!\w)", re.IGNORECASE)


# A space between a Latin word or number and a Chinese character: the glossary's
# terms have it ("sigmoid 函数", "PAC 可学习"), the prose of TRANSLATING.md's
# style does not ("sigmoid函数"); both spellings are the term.
_LATIN_SPACE_CJK = re.compile(r"(?<=[A-Za-z0-9.+\u2013-])\s+(?=[\u3400-\u9fff])")


def _tight(chinese: str) -> str:
    """The glossary's Chinese without spaces between Latin and Chinese."""
    return _LATIN_SPACE_CJK.sub("", chinese)


class GlossaryRule:
    def __init__(self, terms=None, exceptions=None):
        self.terms = [(english, chinese, _term_pattern(english))
                      for english, chinese in (terms if terms is not None else glossary_terms())]
        self.exceptions = exceptions if exceptions is not None else Exceptions.read()
        self.not_terms = [re.compile(rf"(?<!\w){re.escape(p)}(?!\w)", re.IGNORECASE)
                          for p in self.exceptions.not_terms]

    def problems(self, english_prose: str, chinese_prose: str) -> list[str]:
        text = english_prose
        for pattern in self.not_terms:
            text = pattern.sub(" ", text)
        problems = []
        for english, chinese, pattern in self.terms:
            if not pattern.search(text):
                continue
            text = pattern.sub(" ", text)  # a longer term has claimed these words
            accepted = [chinese, _tight(chinese),
                        *self.exceptions.aliases.get(english.lower(), [])]
            if not any(form in chinese_prose for form in accepted):
                problems.append(f"glossary: '{english}' is {chinese}, not found in the translation")
        return problems


# --- markup, as MyST parses it ------------------------------------------------

# Tokens whose number must not change: emphasis, and (cheap to count once the
# message is parsed) math, code, roles, links and footnote marks.
_COUNTED_TOKENS = {
    "em_open": "emphasis (*…*)", "strong_open": "strong (**…**)",
    "math_inline": "inline math", "math_inline_double": "math", "math_block": "display math",
    "amsmath": "amsmath block", "code_inline": "inline code", "myst_role": "role",
    "link_open": "link", "footnote_ref": "footnote mark",
}
# Characters that, left in the parsed text, show on the page as themselves.
_LITERAL_MARKS = "*$"
_md_parser = None


def _myst_parser():
    """MyST's own Markdown parser with the book's extensions (_config.yml), built once."""
    global _md_parser
    if _md_parser is None:
        import yaml
        from markdown_it.renderer import RendererHTML
        from myst_parser.config.main import MdParserConfig
        from myst_parser.parsers.mdit import create_md_parser

        config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
        extensions = config.get("parse", {}).get("myst_enable_extensions", [])
        _md_parser = create_md_parser(MdParserConfig(enable_extensions=set(extensions)),
                                      RendererHTML)
    return _md_parser


def _markup(text: str) -> tuple[Counter, Counter, list[str]]:
    """(counted tokens, literal '*'/'$' left in the text, block structure) of a message."""
    tokens, marks, blocks = Counter(), Counter(), []

    def walk(stream):
        for token in stream:
            if token.type in _COUNTED_TOKENS:
                tokens[token.type] += 1
            if token.type == "text":
                marks.update(c for c in token.content if c in _LITERAL_MARKS)
            if token.children:
                walk(token.children)

    stream = _myst_parser().parse(text)
    blocks = [t.type for t in stream if t.level == 0 and not t.type.endswith("_close")]
    walk(stream)
    return tokens, marks, blocks


def markup_problems(msgid: str, msgstr: str) -> list[str]:
    """What MyST would render differently: emphasis whose asterisks show, lost or
    extra math, code, roles or links, and a translation that is not one paragraph.

    CommonMark recognises ``**`` next to a Chinese character only when its
    other side is not punctuation (``这是**自助法，**的`` shows the asterisks):
    the regular expressions above cannot see that, the parser can.
    """
    source, source_marks, _ = _markup(msgid)
    target, target_marks, target_blocks = _markup(msgstr)
    problems = []
    for kind, name in _COUNTED_TOKENS.items():
        if source[kind] != target[kind]:
            problems.append(f"markup: {source[kind]} {name} in the English, "
                            f"{target[kind]} as MyST parses the translation")
    extra = target_marks - source_marks
    if extra["*"]:
        problems.append(f"markup: {extra['*']} literal '*' would show on the page (next to a "
                        "Chinese character, '*' or '**' with punctuation on its other side is "
                        "not emphasis: put the punctuation outside, **自助法**，)")
    if extra["$"]:
        problems.append(f"markup: {extra['$']} literal '$' would show on the page (unbalanced math)")
    # Sphinx's Locale transform parses the translation alone and uses it only if
    # it is one paragraph (a title: one heading); anything else leaves the
    # English on the page or drops what follows the first block.
    if target_blocks != ["paragraph_open"]:
        problems.append(f"markup: MyST parses the translation as {' + '.join(target_blocks)}, "
                        "not one paragraph (a line starting '1.', '1)', '-', '#' or '>' "
                        "starts a block): Sphinx would not use it")
    return problems


# --- one word per term ---------------------------------------------------------

VARIANTS = ROOT / "locales" / "term_variants.txt"
_variants_cache: dict = {}
_pending_cache: dict = {}


def term_variants(path: Path = VARIANTS) -> list[tuple[str, str, str]]:
    """(variant, the book's word, reason) for each line of locales/term_variants.txt."""
    if path not in _variants_cache:
        rules = []
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        for number, raw in enumerate(lines, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            rule, _, reason = line.partition(" | ")
            reason, _, pending_note = reason.partition(" | pending: ")
            variant, arrow, word = rule.partition(" -> ")
            if not (arrow and variant.strip() and word.strip() and reason.strip()):
                sys.exit(f"{path}:{number}: write '变体 -> 用词 | reason' (a reason is "
                         f"required); got {raw!r}")
            rules.append((variant.strip(), word.strip(), reason.strip()))
            _pending_cache.setdefault(path, {})[variant.strip()] = {
                stem.strip() for stem in pending_note.split(",") if stem.strip()}
        _variants_cache[path] = rules
    return _variants_cache[path]


def pending_catalogs(variant: str, path: Path = VARIANTS) -> set[str]:
    """Catalogs (file stems) whose owner has still to apply a new variant rule.

    A rule decided after a catalog was written may end with
    ``| pending: 09_performance_measures, 10_comparing_learners``: in those
    catalogs the variant is reported as pending, not as a failure, so a
    terminology decision can be recorded (and enforced everywhere else) before
    the catalogs' owners have revised them. Delete the note once they have.
    """
    term_variants(path)
    return _pending_cache.get(path, {}).get(variant, set())


def variant_problems(chinese_prose: str, variants=None) -> list[str]:
    """A word the catalogs once used for a term the book now writes one way."""
    return [f"term: write {word}, not {variant} ({reason})"
            for variant, word, reason in (term_variants() if variants is None else variants)
            if variant in chinese_prose]


# --- messages and files -----------------------------------------------------

def message_problems(msgid: str, msgstr: str, glossary: GlossaryRule | None = None, *,
                     verbatim: bool = False) -> list[str]:
    """Everything wrong with one translated message (empty list: nothing).

    ``verbatim``: the translator marked the entry ``# verbatim: reason`` (a
    citation, a name), so a translation without Chinese is intended.
    """
    source, target = split_message(msgid), split_message(msgstr)
    problems = []
    for kind in ("math", "code", "numbers", "roles", "links"):
        problems += _difference(kind, getattr(source, kind), getattr(target, kind))
    english_words = _ENGLISH_WORD.findall(source.prose)
    if len(english_words) >= 3 and not _CJK.search(msgstr) and not verbatim:
        problems.append("still English: the translation has no Chinese (if it must stay so, "
                        "say why in a '# verbatim: reason' comment above the entry)")
    if glossary is not None:
        problems += glossary.problems(source.prose, target.prose)
    problems += markup_problems(msgid, msgstr)
    problems += variant_problems(target.prose)
    if msgid.startswith(PROOF) and not msgstr.startswith(PROOF_WORD):
        problems.append(f"proof: start the translation with {PROOF_WORD} (the theme writes "
                        "'Proof.' before it; locales/TRANSLATING.md)")
    return problems


# A proof's first paragraph: one way to open it in every chapter (review zh3 #6).
PROOF, PROOF_WORD = "Proof. ", "证明："
# Catalogs whose owners have yet to apply the rule: reported as pending, not failing.
PROOF_PENDING: set = set()   # every catalog follows the rule now


def check_file(path: Path, glossary: GlossaryRule | None = None) -> tuple[int, list[str]]:
    """(number of messages, one report line per problem) for one .po file."""
    from babel.messages.pofile import read_po

    glossary = glossary or GlossaryRule()
    with open(path, "rb") as handle:
        catalog = read_po(handle, abort_invalid=True)
    try:
        shown = path.resolve().relative_to(ROOT)
    except ValueError:
        shown = path
    report, count = [], 0
    previous = previous_msgids(path)
    for message in catalog:
        if message.id in previous and not message.previous_id:
            message.previous_id = [previous[message.id]]
        if not message.id:
            continue  # the header
        count += 1
        where = f"{shown}:{message.lineno}"
        excerpt = message.id if len(message.id) <= 90 else message.id[:87] + "..."
        if message.fuzzy:
            report.append(f"{where}: fuzzy (the English changed; revise, then delete "
                          f"'#, fuzzy' and the '#|' lines)\n" + fuzzy_change(message))
        elif not message.string:
            report.append(f"{where}: untranslated: {excerpt}")
        else:
            verbatim = any(c.strip().startswith("verbatim:") and c.split(":", 1)[1].strip()
                           for c in message.user_comments)
            for problem in message_problems(message.id, message.string, glossary,
                                            verbatim=verbatim):
                if _is_pending(problem, path.stem):
                    pending.append(f"{where}: pending {problem}")
                else:
                    report.append(f"{where}: {problem}\n    msgid: {excerpt}")
    return count, report


pending: list[str] = []  # pending variants met by check_file (printed, not failing)


def _is_pending(problem: str, stem: str) -> bool:
    if problem.startswith("proof: ") and stem in PROOF_PENDING:
        return True
    return any(problem.startswith(f"term: write {word}, not {variant} (")
               and stem in pending_catalogs(variant)
               for variant, word, _ in term_variants())


def previous_msgids(path: Path) -> dict[str, str]:
    """``{msgid: old msgid}`` from the ``#| msgid`` lines of a .po file.

    babel writes them (``include_previous``; it wraps a long one like a
    comment, at spaces) but its reader drops them, so they are read here, for
    the report and for ``scripts/i18n.py update``.
    """
    import ast

    previous, pending_old, old_lines, current, field = {}, None, [], None, None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#|"):
            old_lines.append(line[2:].strip())
            continue
        if old_lines:
            text = " ".join(old_lines)
            old_lines = []
            if text.startswith("msgid "):
                # adjacent literals ("a" "b") concatenate, as PO continuation lines do
                pending_old = ast.literal_eval(text[len("msgid "):])
        if line.startswith("msgid "):
            current, field = ast.literal_eval(line[len("msgid "):]), "id"
        elif line.startswith('"') and field == "id":
            current += ast.literal_eval(line)
        else:
            if field == "id" and pending_old is not None:
                previous[current] = pending_old
                pending_old = None
            field = None
    return previous


def fuzzy_change(message) -> str:
    """The whole new English of a fuzzy entry, its old English and what changed.

    ``scripts/i18n.py update`` records the old English as ``#| msgid``; an
    entry without it (merged by another tool) shows the new English only.
    """
    new = message.id
    old = message.previous_id[0] if isinstance(message.previous_id, (list, tuple)) \
        and message.previous_id else message.previous_id or ""
    lines = [f"    new: {new}"]
    if old:
        lines.append(f"    old: {old}")
        lines.append(f"    changed: {word_diff(old, new)}")
    else:
        lines.append("    old: (not recorded: run scripts/i18n.py update, or git diff the page)")
    return "\n".join(lines)


def word_diff(old: str, new: str) -> str:
    """``[-removed-]{+added+}`` for the words that differ, with a word of context."""
    import difflib

    a, b = old.split(), new.split()
    parts = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        before = a[i1 - 1] + " " if i1 else ""
        after = " " + a[i2] if i2 < len(a) else ""
        removed = f"[-{' '.join(a[i1:i2])}-]" if i2 > i1 else ""
        added = f"{{+{' '.join(b[j1:j2])}+}}" if j2 > j1 else ""
        parts.append(f"{before}{removed}{added}{after}")
    return " … ".join(parts) or "(whitespace only)"


def catalog_files() -> list[Path]:
    return sorted(CATALOGS.rglob("*.po"))


def main(argv: list[str]) -> int:
    paths = [Path(arg) for arg in argv] or catalog_files()
    glossary = GlossaryRule()
    total = failing = 0
    for path in paths:
        count, report = check_file(path, glossary)
        total += count
        failing += len(report)
        for line in report:
            print(line)
    for line in pending:
        print(line)
    print(f"{len(paths)} file(s), {total} messages, {failing} problem(s)"
          + (f"; {len(pending)} pending term rule(s) for the catalogs' owners "
             "(locales/term_variants.txt)." if pending else "."))
    pending.clear()
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
