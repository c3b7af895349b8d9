"""The class summary: ``grades_summary.md`` next to grades.csv, and a short table printed.

Per question: mean, median and how many students got full, partial and zero
credit; the count of each status; the most frequent failed checks (what to
teach again); the flags; and a histogram of the autograded totals
(``grades_summary.png``).
"""

from __future__ import annotations

import statistics
from collections import Counter
from pathlib import Path

__all__ = ["summary_lines", "write_summary"]


def _g(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def summary_lines(spec: dict, graded: list) -> list:
    """The per-question table and the status counts, as Markdown lines."""
    lines = ["| question | points | mean | median | full | partial | zero |",
             "|---|---|---|---|---|---|---|"]
    for q in spec["questions"]:
        if q["manual"]:
            continue
        values = [g.scores[q["name"]] for g in graded]
        full = sum(abs(v - q["points"]) < 1e-9 for v in values)
        zero = sum(v < 1e-9 for v in values)
        lines.append(f"| {q['name']} | {_g(q['points'])} | "
                     f"{_g(statistics.fmean(values)) if values else '-'} | "
                     f"{_g(statistics.median(values)) if values else '-'} | {full} | "
                     f"{len(values) - full - zero} | {zero} |")
    counts = Counter(g.status for g in graded)
    lines += ["", "Status: " + ", ".join(f"{n} {s}" for s, n in counts.most_common()) + "."]
    return lines


def write_summary(path, spec: dict, graded: list, isolation: str = "") -> list:
    """Write ``path`` (Markdown) and a histogram PNG beside it; return the short table.

    ``isolation`` names the sandbox the submissions ran in (recorded in the summary).
    """
    from ..grading import _write_nofollow
    path = Path(path)
    table = summary_lines(spec, graded)
    failing = Counter(f"{q}: {line.split(': ', 1)[-1]}" for g in graded
                      for q, lines in g.failures.items() for line in lines)
    # A similarity flag counts once per pair of files, whatever questions it names.
    flags = Counter(f.split(": ")[0] if f.startswith(("same as", "similar to", "published")) else f
                    for g in graded for f in g.flags)
    text = [f"# Class summary: chapter {spec['chapter']}, {len(graded)} submissions", "",
            *([f"Isolation: {isolation}.", ""] if isolation else []), *table, "", "## Most frequent failed checks", ""]
    text += [f"- {n} × {line}" for line, n in failing.most_common(10)] or ["- none"]
    text += ["", "## Flags (for review; they do not change grades)", ""]
    text += [f"- {n} × {flag}" for flag, n in flags.most_common(10)] or ["- none"]
    image = path.with_suffix(".png")
    if _histogram(image, spec, graded):
        text += ["", f"![autograded totals]({image.name})"]
    _write_nofollow(path, "\n".join(text) + "\n")
    return table


def _histogram(image: Path, spec: dict, graded: list) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    coded = sum(q["points"] for q in spec["questions"] if not q["manual"])
    totals = [sum(v for n, v in g.scores.items() if v is not None) for g in graded]
    figure, axes = plt.subplots(figsize=(5, 3))
    axes.hist(totals, bins=min(20, max(5, int(coded * 2) + 1)), range=(0, coded))
    axes.set_xlabel(f"autograded points (of {_g(coded)})")
    axes.set_ylabel("students")
    figure.tight_layout()
    import os
    import tempfile
    fd, temporary = tempfile.mkstemp(dir=image.parent, prefix=".summary.", suffix=".png")
    os.close(fd)
    try:
        figure.savefig(temporary, dpi=100)
        os.replace(temporary, image)      # replaces a planted link, never writes through it
    finally:
        plt.close(figure)
        if os.path.exists(temporary):
            os.unlink(temporary)
    return True
