"""Build a few pages of the book on their own, to check a chapter while writing it.

    python scripts/preview.py chapters/03_vc_dimension.ipynb [more pages ...]

Copies the book's configuration, the named pages, the glossary and the
bibliography into ``_build/preview/<first page>/`` with a table of contents of
just those pages, and builds it with warnings as errors, exactly as the full
build would (same ``_config.yml``, same extensions, same execution). Far
quicker than the whole book; the full build (``python scripts/tasks.py book``)
remains the judge, since only it resolves links to other chapters.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALWAYS = ["chapters/glossary.md", "chapters/bibliography.md", "chapters/references.bib"]
TOP_LEVEL = ["_config.yml", "_ext", "_vendor", "_static", "_templates"]


def main(pages: list[str]) -> int:
    if not pages:
        print(__doc__)
        return 2
    pages = [Path(p).resolve().relative_to(ROOT).as_posix() for p in pages]
    out = ROOT / "_build" / "preview" / Path(pages[0]).stem
    if out.exists():
        shutil.rmtree(out / "chapters", ignore_errors=True)
    (out / "chapters").mkdir(parents=True, exist_ok=True)
    for name in TOP_LEVEL:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, out / name, dirs_exist_ok=True)
        elif source.exists():
            shutil.copy2(source, out / name)
    for page in pages + ALWAYS:
        shutil.copy2(ROOT / page, out / page)
    stems = [str(Path(p).with_suffix("")) for p in pages]
    chapters = "\n".join(f"      - file: {s}" for s in stems[1:] + ["chapters/glossary",
                                                                  "chapters/bibliography"])
    (out / "_toc.yml").write_text(
        f"format: jb-book\nroot: {stems[0]}\nparts:\n  - caption: Preview\n    numbered: true\n"
        f"    chapters:\n{chapters}\n", encoding="utf-8")
    command = [sys.executable, "-c", "from jupyter_book.cli.main import main; main()", "build", str(out), "--path-output", str(out),
               "-W", "--keep-going", "--all"]
    print("+", " ".join(command), flush=True)
    code = subprocess.run(command).returncode
    print(f"Preview: {out / '_build' / 'html' / 'index.html'}")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
