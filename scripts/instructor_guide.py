"""Write the generated parts of the instructor's guide (chapters/instructors/).

    python scripts/instructor_guide.py           # rewrite the generated blocks and the figure
    python scripts/instructor_guide.py --check   # exit 1 if any of them is out of date

The guide's tables are not typed by hand. Each page holds blocks between
``<!-- BEGIN generated: NAME -->`` and ``<!-- END generated: NAME -->``
lines, which this script fills from the sources they describe:

* the exercises, their points and whether they are autograded or manual,
  from the chapter notebooks' exercise cells, read by the homework tool's own
  parser (``mlcore.homework.grading._format.parse_questions``, the one ``assign`` and
  ``grade`` use);
* each chapter's learning objectives, copied from the chapter's opening cell;
* each notebook's run time, from ``chapters/instructors/chapter_times.json``
  (written by ``scripts/time_chapters.py``, a real run of every chapter);
* the term plan and the chapters' prerequisites from ``WEEKS`` and
  ``PREREQUISITES`` below; every prerequisite is backed by a sentence of the
  later chapter that leans on the earlier one (``--check`` fails when the
  sentence is no longer in the chapter).

It also draws the dependency figure, ``chapters/instructors/dependencies.svg``
(and its PDF twin for the printed book), with matplotlib, and its Chinese
twin ``dependencies.zh_CN.svg`` (and ``.pdf``), which Sphinx's
``figure_language_filename`` (``{root}.{language}{ext}``) gives the Chinese
edition in place of the English drawing.
``tests/test_instructor_guide.py`` runs ``--check``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "chapters" / "instructors"
TIMES = GUIDE / "chapter_times.json"
FIGURE = GUIDE / "dependencies"  # .svg for the website, .pdf for the PDF
# The figure in each edition: the Chinese one by Sphinx's figure_language_filename.
FIGURES = {"en": FIGURE, "zh_CN": GUIDE / "dependencies.zh_CN"}
# The face the Chinese figure's text needs (the zh PDF's LaTeX uses it too).
CJK_FAMILY = "Noto Sans CJK SC"

# Working time is not measured with students: this is the guide's stated rule
# of thumb, minutes per point of an exercise, low and high.
MINUTES_PER_POINT = (10, 20)

# chapter: [(earlier chapter, a sentence of the chapter that leans on it)].
PREREQUISITES = {
    3: [(1, "the logistic loss of chapter 1"), (2, "The finite-class bound of chapter 2")],
    4: [(2, "training and generalization error from the chapter on finite hypothesis "
            "classes")],
    5: [(4, "Every time we run $K$-fold cross-validation we pick $K$")],
    6: [(4, "compares them with 10-fold and leave-one-out cross-validation")],
    7: [(3, "chapter 3 showed that half-spaces"), (4, "nested cross-validation (chapter 4)"),
        (5, "The KL divergence of chapter 5")],
    8: [(1, "chapter 1's Hessian"), (4, "Chapters 4–6 fought overfitting from the outside")],
    9: [(1, "This is the threshold rule of chapter 1"),
        (6, "The bootstrap of chapter 6 measures that")],
    10: [(4, "Learner A beat learner B by two points in 10-fold cross-validation"),
         (9, "Chapter 9 measured one learner on one test set")],
    11: [(4, "chapter 4 warns that fold-based standard errors"),
         (9, "the measure chapter 9 used for a rare class")],
    12: [(6, "chapter 6's bootstrap again"),
         (7, "the mutual information between the attribute and the class (chapter 7)")],
}

# A 14-week term: one chapter a week, a review week after Part III's first
# half and one at the end (drop both for a 12-week term).
WEEKS = [1, 2, 3, 4, 5, 6, None, 7, 8, 9, 10, 11, 12, None]

# The figure's box labels (the full titles do not fit a box).
SHORT = {1: "Logistic regression", 2: "Finite classes", 3: "VC dimension",
         4: "Cross-validation", 5: "How many folds?", 6: "The bootstrap",
         7: "Feature selection", 8: "Bayesian view", 9: "Performance measures",
         10: "Comparing learners", 11: "LDA and imbalance", 12: "Decision trees"}

# The chapters' short names in the Chinese figure: the catalogs' chapter titles, cut
# to what a box holds.
SHORT_ZH = {1: "逻辑回归", 2: "有限假设类", 3: "VC维", 4: "交叉验证", 5: "折数取多少？",
            6: "自助法", 7: "特征选择", 8: "贝叶斯视角", 9: "性能度量", 10: "比较学习器",
            11: "LDA与类别不平衡", 12: "决策树"}

PARTS = {1: "I", 2: "II", 3: "II", 4: "III", 5: "III", 6: "III", 7: "III", 8: "III",
         9: "IV", 10: "IV", 11: "V", 12: "V"}


def _markdown(cell) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


def read_chapters() -> list[dict]:
    """Every chapter: number, stem, title, objectives and exercises, from its notebook."""
    sys.path.insert(0, str(ROOT))
    from mlcore.homework.grading._format import parse_questions

    found = []
    for path in sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        text = "\n".join(_markdown(c) for c in nb["cells"] if c["cell_type"] == "markdown")
        title = re.search(r"^# (.+)$", text, re.M).group(1).strip()
        questions = [{"name": q.name, "points": q.points, "manual": q.manual}
                     for q in parse_questions(nb)]
        found.append({"number": int(path.stem[:2]), "stem": path.stem, "title": title,
                      "objectives": _objectives(text, path.name), "text": text,
                      "questions": questions})
    return found


def _objectives(text: str, name: str) -> str:
    """The chapter's own list of learning objectives, as it is written there."""
    admonition = re.search(r":::\{admonition\} Learning objectives\n:class: tip\n\n"
                           r"After this chapter you can\n\n(.*?)\n:::", text, re.S)
    if admonition:
        return admonition.group(1).strip()
    plain = re.search(r"\*\*After this chapter you can\*\*\n\n((?:[-\d].*\n(?:  .*\n)*)+)",
                      text)
    if plain:
        return plain.group(1).strip()
    raise SystemExit(f"{name}: no learning objectives found (an admonition 'Learning "
                     "objectives' or a paragraph '**After this chapter you can**')")


def _points(value: float) -> str:
    return f"{value:g}"


def _hours(points: float) -> str:
    low, high = (points * m / 60 for m in MINUTES_PER_POINT)
    return f"{low:.1f}–{high:.1f}"


def _doc(chapter: dict) -> str:
    return f"{{doc}}`../{chapter['stem']}`"


def _slides(chapter: dict) -> str:
    # The decks land in _build/html/slides/ (and zh_CN/slides/); this page is
    # _build/html/chapters/instructors/index.html, two folders down.
    return f'<a href="../../slides/{chapter["stem"]}.html">{chapter["number"]:02d}</a>'


def block_plan(chapters: list[dict]) -> str:
    by_number = {c["number"]: c for c in chapters}
    rows = ["| Week | Chapter | Read before | Slides | Homework |", "|---|---|---|---|---|"]
    for week, number in enumerate(WEEKS, start=1):
        if number is None:
            rows.append(f"| {week} | Review | | | |")
            continue
        chapter = by_number[number]
        before = ", ".join(_doc(by_number[p]) for p, _ in PREREQUISITES.get(number, []))
        rows.append(f"| {week} | {_doc(chapter)} | {before or '{doc}`../00_preface`'} | "
                    f"{_slides(chapter)} | `assign {number:02d}` |")
    return "\n".join(rows)


def block_prerequisites(chapters: list[dict]) -> str:
    by_number = {c["number"]: c for c in chapters}
    lines = []
    for chapter in chapters:
        needs = PREREQUISITES.get(chapter["number"], [])
        lines.append(f"- {_doc(chapter)}: " + (", ".join(
            _doc(by_number[p]) for p, _ in needs) or "—"))
    return "\n".join(lines)


def block_figure(chapters: list[dict]) -> str:
    arrows = "; ".join(f"{p} to {n}" for n, needs in sorted(PREREQUISITES.items())
                       for p, _ in needs)
    return ("```{figure} dependencies.*\n"
            f":alt: The {len(chapters)} chapters in five columns, one per part of the book, with an "
            f"arrow from each chapter to each later chapter that builds on it: {arrows}.\n"
            ":name: fig-chapter-dependencies\n:width: 100%\n\n"
            "Which chapter builds on which: an arrow from one chapter to a later one means "
            "the later builds on it. The chapters are in columns by part.\n```")


def block_objectives(chapters: list[dict]) -> str:
    parts = []
    for chapter in chapters:
        parts.append(f"### {_doc(chapter)}\n\n{chapter['objectives']}")
    return "\n\n".join(parts)


def _has_cpu(times: dict) -> bool:
    return all(r.get("kernel_cpu_seconds") for r in times["chapters"])


def block_chapter_times(chapters: list[dict], times: dict) -> str:
    measured = {r["chapter"]: r for r in times["chapters"]}
    cpu = _has_cpu(times)
    rows = ["| Chapter | Run (s) | " + ("Run (s, CPU) | " if cpu else "")
            + "Exercises | Autograded | Manual | Points | Working time (h) |",
            "|---|--:|" + ("--:|" if cpu else "") + "--:|--:|--:|--:|--:|"]
    for chapter in chapters:
        run = measured[chapter["stem"]]
        qs = chapter["questions"]
        points = sum(q["points"] for q in qs)
        rows.append(f"| {_doc(chapter)} | {run['wall_seconds']:.1f} | "
                    + (f"{run['kernel_cpu_seconds']:.1f} | " if cpu else "")
                    + f"{len(qs)} | {sum(not q['manual'] for q in qs)} | "
                    f"{sum(q['manual'] for q in qs)} | {_points(points)} | {_hours(points)} |")
    return "\n".join(rows)


def block_estimate(chapters: list[dict]) -> str:
    low, high = MINUTES_PER_POINT
    return ("\"Working time\" is an estimate, not a measurement: we have not timed "
            f"students. It assumes {low} to {high} minutes of work per point of an "
            "exercise, for a student who has read the chapter; a student who has not "
            "will need more. It does not include reading the chapter.")


def block_exercises(chapters: list[dict]) -> str:
    rows = ["| Chapter | Exercise | Points | Graded |", "|---|---|--:|---|"]
    for chapter in chapters:
        for q in chapter["questions"]:
            rows.append(f"| {chapter['number']:02d} | `{q['name']}` | {_points(q['points'])} | "
                        f"{'manual' if q['manual'] else 'autograded'} |")
    return "\n".join(rows)


def block_totals(chapters: list[dict], times: dict) -> str:
    questions = [q for c in chapters for q in c["questions"]]
    auto = [q for q in questions if not q["manual"]]
    manual = [q for q in questions if q["manual"]]
    runs = times["chapters"]
    text = (f"The {len(chapters)} chapters have {len(questions)} exercises: {len(auto)} "
            f"autograded ({_points(sum(q['points'] for q in auto))} points) and "
            f"{len(manual)} manual ({_points(sum(q['points'] for q in manual))} points). ")
    wall = sum(r["wall_seconds"] for r in runs)
    if _has_cpu(times):
        return text + (
            f"The notebooks were timed on {times['measured'][:10]} on a machine with "
            f"{times['cores']} cores shared with other work (1-minute load average "
            f"{times['load_before']:g} before the run, {times['load_after']:g} after), one "
            f"chapter at a time: {sum(r['kernel_cpu_seconds'] for r in runs):.0f} s of kernel "
            f"CPU time and {wall:.0f} s of wall time for all of them.")
    return text + (
        f"\"Run (s)\" is the time the site's build took to execute each notebook, on "
        f"{times['measured'][:10]}, on a machine with {times['cores']} cores shared with other "
        f"work, two notebooks at a time: {wall:.0f} s for all of them. A loaded machine makes "
        "every notebook slower, so read these times as what the chapters cost compared "
        "with each other more than as what a student's computer needs.")


def cjk_font() -> str | None:
    """The family name under which matplotlib draws Chinese, or None without such a font.

    matplotlib's own font list often lacks the system's CJK collections
    (``.ttc``), so the file fontconfig gives for ``CJK_FAMILY`` is added to it.
    """
    from matplotlib import font_manager

    try:
        found = subprocess.run(["fc-match", "-f", "%{file}", CJK_FAMILY],
                               capture_output=True, text=True, check=False).stdout
    except FileNotFoundError:     # no fontconfig
        return None
    if "CJK" not in Path(found).name:   # fc-match falls back to any font
        return None
    font_manager.fontManager.addfont(found)
    bold = subprocess.run(["fc-match", "-f", "%{file}", f"{CJK_FAMILY}:bold"],
                          capture_output=True, text=True, check=False).stdout
    if "CJK" in Path(bold).name:        # the part headings are bold
        font_manager.fontManager.addfont(bold)
    return font_manager.FontProperties(fname=found).get_name()


def draw_dependencies(chapters: list[dict], stem: Path, language: str = "en") -> list[Path]:
    """Draw the chapters' dependencies: one column per part, an arrow per prerequisite.

    One matplotlib drawing saved twice: SVG for the website, PDF for the
    printed book (LaTeX cannot include SVG); ``dependencies.*`` in the page
    lets each builder take its own. Text stays text in the SVG, and no date
    or random id is written, so an unchanged drawing gives the same file.
    With ``language="zh_CN"`` the labels are Chinese (``SHORT_ZH``), drawn
    with DejaVu Sans for Latin letters and the CJK font (``cjk_font``) for the
    rest; without a CJK font this raises, naming the font to install.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    families, short, part_label = ["DejaVu Sans"], SHORT, "Part {}"
    if language == "zh_CN":
        cjk = cjk_font()
        if cjk is None:
            raise RuntimeError(f"the Chinese dependency figure needs the font {CJK_FAMILY} "
                               "(Debian: apt-get install fonts-noto-cjk)")
        families, short, part_label = ["DejaVu Sans", cjk], SHORT_ZH, "第{}部分"

    columns = ["I", "II", "III", "IV", "V"]
    place = {}
    for column, part in enumerate(columns):
        members = [c for c in chapters if PARTS[c["number"]] == part]
        for row, chapter in enumerate(members):
            place[chapter["number"]] = (column * 2.75, -row * 0.8)
    box_w, box_h = 2.15, 0.42
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "instructor-guide",
                         "font.size": 9, "font.family": families}):
        fig, ax = plt.subplots(figsize=(11.5, 4.6))
        ax.set_xlim(-0.15, 13.2)
        ax.set_ylim(-3.75, 0.75)
        ax.axis("off")
        for column, part in enumerate(columns):
            ax.text(column * 2.75 + box_w / 2, 0.5, part_label.format(part), ha="center",
                    fontweight="bold", color="#222222")
        for n, needs in PREREQUISITES.items():
            for p, _ in needs:
                (x0, y0), (x1, y1) = place[p], place[n]
                if x0 != x1:        # to a later part: right edge to left edge, over
                    start, end = (x0 + box_w, y0), (x1, y1)   # the boxes between
                    rad = -0.25 if y0 == y1 and x1 - x0 > 3 else 0.0
                elif abs(y1 - y0) < 1:  # the next box down: straight down
                    start, end, rad = (x0 + box_w / 2, y0 - box_h / 2), \
                        (x1 + box_w / 2, y1 + box_h / 2), 0.0
                else:               # further down the same part: an arc on the right
                    start, end, rad = (x0 + box_w, y0), (x1 + box_w, y1), -0.35
                arrow = FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=10,
                                        color="#555555", lw=1.1, shrinkA=0, shrinkB=1,
                                        connectionstyle=f"arc3,rad={rad}")
                ax.add_patch(arrow)
        for chapter in chapters:
            x, y = place[chapter["number"]]
            ax.add_patch(FancyBboxPatch((x, y - box_h / 2), box_w, box_h,
                                        boxstyle="round,pad=0,rounding_size=0.06",
                                        facecolor="#eef3fb", edgecolor="#2a5599", zorder=3))
            ax.text(x + 0.07, y, f"{chapter['number']}. {short[chapter['number']]}",
                    va="center", color="#111111", zorder=4)
        written = [stem.with_name(stem.name + ".svg"), stem.with_name(stem.name + ".pdf")]
        fig.savefig(written[0], metadata={"Date": None}, bbox_inches="tight")
        if language == "zh_CN":   # a reader's browser may have the face under its SC name
            svg = written[0].read_text(encoding="utf-8")
            written[0].write_text(svg.replace(f"'{families[1]}'", f"'{CJK_FAMILY}', "
                                              f"'{families[1]}', sans-serif"), encoding="utf-8")
        fig.savefig(written[1], metadata={"CreationDate": None, "ModDate": None},
                    bbox_inches="tight")
        plt.close(fig)
    return written


BLOCKS = {
    "index.md": {"plan": block_plan, "prerequisites": block_prerequisites,
                 "figure": block_figure,
                 "objectives": block_objectives},
    "chapters.md": {"totals": block_totals, "estimate": block_estimate,
                    "chapter-times": block_chapter_times,
                    "exercises": block_exercises},
}


def _render(page: str, text: str, chapters: list[dict], times: dict) -> str:
    for name, make in BLOCKS[page].items():
        pattern = re.compile(rf"(<!-- BEGIN generated: {name} -->\n)(?:.*?\n)?"
                             rf"(<!-- END generated: {name} -->)", re.S)
        if not pattern.search(text):
            raise SystemExit(f"chapters/instructors/{page} has no generated block {name!r}")
        args = (chapters, times) if make in (block_chapter_times, block_totals) else (chapters,)
        body = make(*args)
        text = pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text)
    return text


def check_quotes(chapters: list[dict]) -> list[str]:
    """Prerequisites whose supporting sentence is no longer in the later chapter."""
    texts = {c["number"]: re.sub(r"\s+", " ", c["text"]) for c in chapters}
    return [f"chapter {n}: {quote!r} (for chapter {p})"
            for n, needs in PREREQUISITES.items() for p, quote in needs
            if p >= n or quote not in texts[n]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="report what is out of date and exit 1; write nothing")
    args = parser.parse_args(argv)
    chapters = read_chapters()
    times = json.loads(TIMES.read_text(encoding="utf-8"))
    problems = [f"prerequisite not backed by its chapter: {q}" for q in check_quotes(chapters)]
    measured = {r["chapter"] for r in times["chapters"]}
    problems += [f"{TIMES.name} has no time for {c['stem']}: run scripts/time_chapters.py"
                 for c in chapters if c["stem"] not in measured]
    if len(WEEKS) not in range(12, 15) or sorted(w for w in WEEKS if w) != \
            [c["number"] for c in chapters]:
        problems.append("WEEKS must give every chapter once in 12-14 weeks")
    if problems:
        print("\n".join(problems))
        return 1
    outputs = {GUIDE / page: _render(page, (GUIDE / page).read_text(encoding="utf-8"),
                                     chapters, times) for page in BLOCKS}
    # Each drawing is compared as SVG (text, stable); its PDF twin is written
    # with it.
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        for language, figure in FIGURES.items():
            if language != "en" and cjk_font() is None:
                print(f"{figure.name}.* not checked: no {CJK_FAMILY} font to draw it with")
                continue
            drawn = draw_dependencies(chapters, Path(folder) / figure.name, language)
            outputs.update({figure.with_name(p.name): p.read_bytes() for p in drawn})
    stale = [p for p, new in outputs.items() if not p.exists() or (
        p.read_text(encoding="utf-8") != new if isinstance(new, str)
        else p.suffix == ".svg" and p.read_bytes() != new)]
    for figure in FIGURES.values():
        svg, pdf = (figure.with_name(figure.name + suffix) for suffix in (".svg", ".pdf"))
        if svg in stale and pdf not in stale:
            stale.append(pdf)
    if args.check:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: run "
                  "python scripts/instructor_guide.py")
        return 1 if stale else 0
    for path in stale:
        new = outputs[path]
        if isinstance(new, str):
            path.write_text(new, encoding="utf-8")
        else:
            path.write_bytes(new)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
