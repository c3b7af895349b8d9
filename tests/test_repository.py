"""The repository's own rules: clean notebooks, a complete table of contents, exact pins."""

import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def test_notebooks_are_committed_clean_and_in_sync():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "sync_notebooks.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def _toc_files(node):
    if isinstance(node, dict):
        if "file" in node:
            yield node["file"]
        for value in node.values():
            yield from _toc_files(value)
    elif isinstance(node, list):
        for item in node:
            yield from _toc_files(item)


def test_every_chapter_is_in_the_toc_and_exists():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    listed = {toc["root"], *_toc_files(toc)}
    for entry in listed:
        assert any((ROOT / f"{entry}{ext}").exists() for ext in (".md", ".ipynb")), (
            f"_toc.yml lists {entry}, which does not exist")
    chapters = {f"chapters/{p.stem}" for p in (ROOT / "chapters").glob("*")
                if p.suffix in (".md", ".ipynb")}
    assert chapters <= listed, f"pages missing from _toc.yml: {sorted(chapters - listed)}"


def test_requirements_are_exact_pins():
    lines = [line.strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    loose = [line for line in lines if line and not line.startswith("#")
             and not re.fullmatch(r"[A-Za-z0-9_.\-\[\],]+==[A-Za-z0-9_.+\-]+", line)]
    assert not loose, f"requirements.txt must pin exact versions; loose lines: {loose}"


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = "python scripts/tasks.py test"
    assert command in readme, "README.md must give the test command"
    assert command.replace("python ", "") in ci, ".ci/run must call the README's test command"


def test_lab_works_on_copies_and_keeps_a_students_edits(tmp_path, monkeypatch):
    """`tasks.py lab` opens copies in my-notebooks/, never the tracked chapters (UX review D13)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import tasks
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    monkeypatch.setattr(tasks, "LAB", tmp_path / "my-notebooks")
    chapters = sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))
    copied = tasks.lab_copies()
    assert [p.name for p in copied] == [p.name for p in chapters]
    edited = copied[0]
    edited.write_text("a student's saved work", encoding="utf-8")
    assert tasks.lab_copies() == []                      # nothing copied again
    assert edited.read_text(encoding="utf-8") == "a student's saved work"
    assert chapters[0].read_bytes() != edited.read_bytes()


def test_lab_copies_show_no_myst_markup_and_no_self_check_key(tmp_path, monkeypatch):
    """JupyterLab renders the copies: no raw directive or role, no ticked key (UX review D3)."""
    import json

    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import tasks
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    monkeypatch.setattr(tasks, "LAB", tmp_path / "my-notebooks")
    copies = tasks.lab_copies()
    raw = re.compile(r"^[`:]{3,}\{|\{[\w:-]+\}`|^\s*[-*] \[[xX ]\]|^\([\w-]+\)=\s*$", re.M)
    problems, answers = [], 0
    for copy in copies:
        original = json.loads((ROOT / "chapters" / copy.name).read_text(encoding="utf-8"))
        content = json.loads(copy.read_text(encoding="utf-8"))
        assert [c["cell_type"] for c in content["cells"]] == [c["cell_type"] for c in original["cells"]]
        for cell, before in zip(content["cells"], original["cells"]):
            if cell["cell_type"] == "code":
                assert cell["source"] == before["source"]     # code is never rewritten
                continue
            text = "".join(cell["source"])
            problems += [f"{copy.name}: {m.group(0)!r}" for m in raw.finditer(text)]
            assert text.count("<details>") == text.count("</details>")
            answers += text.count("<summary>Answer</summary>")
    assert not problems, problems[:10]
    assert answers >= 100          # every self-check keeps its key, folded


def test_chinese_lab_copies_have_no_english_tool_words(tmp_path, monkeypatch):
    """`tasks.py lab --language zh_CN`: Chinese Markdown, the tool's words in Chinese and
    references numbered as on the site (zh review, findings 13 and 14); one chapter."""
    import json

    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import tasks
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    chapter = "02_finite_hypothesis_classes"
    root = tmp_path / "repo"
    (root / "chapters").mkdir(parents=True)
    for name in (f"{chapter}.ipynb", "references.bib"):
        (root / "chapters" / name).write_bytes((ROOT / "chapters" / name).read_bytes())
    catalog = Path("locales/zh_CN/LC_MESSAGES/chapters") / f"{chapter}.po"
    (root / catalog).parent.mkdir(parents=True)
    (root / catalog).write_bytes((ROOT / catalog).read_bytes())
    (root / "mlcore").symlink_to(ROOT / "mlcore")
    monkeypatch.setattr(tasks, "ROOT", root)
    monkeypatch.setattr(tasks, "LAB", root / "my-notebooks")
    [copy] = tasks.lab_copies("zh_CN")
    assert copy.parent.name == "my-notebooks-zh_CN" and not (root / "my-notebooks").exists()
    text = "\n".join("".join(c["source"]) for c in json.loads(copy.read_text("utf-8"))["cells"]
                     if c["cell_type"] == "markdown")
    english = ["Check yourself.", "<summary>Answer</summary>", "Correct.", "Not quite.",
               "**Theorem", "**Lemma", "**Proof.", "**Exercise `", "Solution to",
               "End of the solution"]
    assert [w for w in english if w in text] == []
    assert "[引理 2.2](#lem-hoeffding)" in text and "**自我检验：**" in text
    assert "假设类" in text                                # the chapter's own text is Chinese
