"""Measure how long each chapter notebook takes to run, for the instructor's guide.

    python scripts/time_chapters.py               # every chapter, one at a time
    python scripts/time_chapters.py --from-cache  # the times of the last site build
    python scripts/time_chapters.py --check       # is the committed record complete?

Each chapter runs alone, start to end, in a fresh kernel, the way the build
runs it (jupyter-cache's execution call, the build's environment and kernel
profile), so that one chapter's time is not inflated by another running
beside it. For each chapter it records the wall time and the CPU time of the
kernel (user + system, read from the kernel process before it exits), and
for the whole run the date, the machine's cores and its 1-minute load average
before and after: on a shared machine the wall time says little without the
load, the CPU time much more. The record is written to
``chapters/instructors/chapter_times.json``, which
``scripts/instructor_guide.py`` turns into the guide's table; the build does
not run this script (it would run every notebook a third time).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "chapters" / "instructors" / "chapter_times.json"


def chapters() -> list[Path]:
    return sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))


def _kernel_cpu(stop: threading.Event, found: dict) -> None:
    """Poll the kernel process's CPU time until the notebook ends.

    The kernel is a child of this process; its CPU time is read while it
    lives (its last reading before shutdown is within 0.2 s of the end).
    """
    import psutil

    me = psutil.Process()
    while not stop.wait(0.2):
        for child in me.children(recursive=True):
            try:
                times = child.cpu_times()
                found[child.pid] = times.user + times.system + times.children_user \
                    + times.children_system
            except psutil.Error:
                pass


def time_one(path: Path) -> dict:
    import nbformat
    from jupyter_cache.executors.utils import single_nb_execution

    notebook = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
    stop, found = threading.Event(), {}
    poller = threading.Thread(target=_kernel_cpu, args=(stop, found), daemon=True)
    poller.start()
    start = time.perf_counter()
    # A generous cell timeout: the build's 120 s guards against a hung cell,
    # but a measurement on a loaded machine must not fail for being slow.
    result = single_nb_execution(notebook, cwd=str(path.parent), allow_errors=False,
                                 timeout=1800, startup_timeout=600, meta_override=True)
    wall = time.perf_counter() - start
    stop.set()
    poller.join()
    if result.err is not None:
        sys.exit(f"{path.name} failed:\n{result.exc_string}")
    return {"chapter": path.stem, "wall_seconds": round(wall, 1),
            "kernel_cpu_seconds": round(sum(found.values()), 1)}


def from_cache() -> dict:
    """Each chapter's execution time as the build recorded it in its cache."""
    import nbformat
    from jupyter_cache import get_cache

    cache = get_cache(str(ROOT / "_build" / ".jupyter_cache"))
    rows, stored = [], []
    for path in chapters():
        notebook = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
        try:
            record = cache.match_cache_notebook(notebook)
        except KeyError:
            sys.exit(f"{path.name} is not in the build's cache (or its code changed since "
                     "the build): build the site first, or time it with this script")
        rows.append({"chapter": path.stem,
                     "wall_seconds": round(record.data["execution_seconds"], 1),
                     "kernel_cpu_seconds": None})
        stored.append(record.created)
    return {"measured": max(stored).strftime("%Y-%m-%d %H:%M UTC"),
            "source": "site build, two notebooks at a time", "cores": os.cpu_count(),
            "load_before": None, "load_after": None, "python": platform.python_version(),
            "chapters": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from-cache", action="store_true",
                        help="take the times the last site build recorded; run nothing")
    parser.add_argument("--check", action="store_true",
                        help="only check that the record names every chapter")
    args = parser.parse_args(argv)
    if args.check:
        record = json.loads(RECORD.read_text(encoding="utf-8"))
        missing = sorted({p.stem for p in chapters()} - {r["chapter"] for r in record["chapters"]})
        if missing:
            print(f"{RECORD.relative_to(ROOT)} has no time for {missing}: run "
                  "python scripts/time_chapters.py")
            return 1
        return 0
    if args.from_cache:
        RECORD.write_text(json.dumps(from_cache(), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {RECORD.relative_to(ROOT)}")
        return 0
    sys.path.insert(0, str(ROOT / "scripts"))
    import tasks

    # The build's environment: quiet mlcore, one BLAS thread, its kernel profile.
    env = tasks._env()
    os.environ.pop("MPLBACKEND", None)
    os.environ.update(env)
    load_before = os.getloadavg()[0]
    rows = []
    for path in chapters():
        rows.append(time_one(path))
        print(f"  {path.name}: {rows[-1]['wall_seconds']:.1f} s wall, "
              f"{rows[-1]['kernel_cpu_seconds']:.1f} s CPU", flush=True)
    record = {
        "measured": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cores": os.cpu_count(), "load_before": round(load_before, 1),
        "load_after": round(os.getloadavg()[0], 1),
        "source": "this script, one notebook at a time",
        "python": platform.python_version(), "chapters": rows,
    }
    RECORD.parent.mkdir(parents=True, exist_ok=True)
    RECORD.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {RECORD.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
