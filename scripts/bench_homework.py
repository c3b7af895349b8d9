"""Grade a class of 40 for chapter 1 the way a teacher would, and print the time and the grades.

The class is built from the chapter (``assign``), like the teacher audit's:
full solutions (also in a new cell below the stub, with a helper cell, with a
5 MB output), untouched and partial notebooks, wrong answers, cells that
raise, an infinite loop, 100 MiB of print, a stall (``time.sleep``), a
forbidden call, a rebound ``np``, unreadable files. Every submission has an
expected grade; the script prints each mismatch and exits with status 1 if
there is one. The issue's goal is a class of 40 in at most 5 minutes on a
2-core machine, and the median CPU time per graded submission (the CSV's
``cpu_seconds``: its notebook's and its checks' process trees; the goal is at
most 13 CPU-s), which load changes little, unlike the wall time::

    .venv/bin/python scripts/bench_homework.py              # 40 submissions, --jobs 2
    .venv/bin/python scripts/bench_homework.py --size 8     # a quick look

With ``--scheduler local:2`` (or a scheduler's address) the same class is
graded twice, with ``--jobs`` and on the Dask cluster (#42): the script
prints submissions per CPU-second of each run and the overhead ratio, the
cluster run's CPU time over the local run's (goal: at most 1.10), and checks
that the two grades.csv agree but for the ``cpu_seconds`` and ``peak_mb``
columns. Sizes above 40 repeat the full solutions and untouched notebooks::

    .venv/bin/python scripts/bench_homework.py --size 200 --scheduler local:2
"""

import argparse
import copy
import csv
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _code(source, cell_id):
    return {"cell_type": "code", "id": cell_id, "metadata": {}, "execution_count": None,
            "outputs": [], "source": source}


def build_class(out: Path, size: int = 40) -> dict:
    """Write the class into ``out / 'class'``; return {file: expected total or None}."""
    subprocess.run([sys.executable, "-m", "mlcore.homework", "assign", "01", "--out",
                    str(out / "hw"), "--no-verify"], check=True, cwd=ROOT,
                   capture_output=True)
    auto = out / "hw" / "autograder" / "01_logistic_regression"
    solution = json.loads((auto / "01_logistic_regression.ipynb").read_text())
    student = json.loads((out / "hw" / "student" / "01_logistic_regression.ipynb").read_text())
    ids = {c["id"]: i for i, c in enumerate(solution["cells"])}
    sig = next(c for c in solution["cells"] if "def stable_sigmoid" in "".join(c["source"]))
    newton = next(c for c in solution["cells"] if "def newton_logistic" in "".join(c["source"]))
    folder = out / "class"
    folder.mkdir(parents=True)
    expected = {}

    def put(name, nb, total):
        (folder / f"{name}.ipynb").write_text(json.dumps(nb))
        expected[f"{name}.ipynb"] = total

    def edit(base, changes=(), after=()):
        nb = copy.deepcopy(base)
        for cell in nb["cells"]:
            for old_id, source in changes:
                if cell["id"] == old_id:
                    cell["source"] = source
        for k, (anchor, source) in enumerate(after):
            at = next(i for i, c in enumerate(nb["cells"]) if c["id"] == anchor) + 1
            nb["cells"].insert(at, _code(source, f"added-{k}"))
        return nb

    sig_src, newton_src = "".join(sig["source"]), "".join(newton["source"])
    for k in range(max(18, size - 22)):      # a larger class: more of the common cases
        put(f"solution_{k:02d}", solution, 6)
    for k in range(6):
        put(f"untouched_{k:02d}", student, 0)
    put("new_cell_below", edit(student, after=[(sig["id"], sig_src), (newton["id"], newton_src)]), 6)
    put("sigmoid_only", edit(student, [(sig["id"], sig_src)]), 2)
    put("textbook_sigmoid", edit(solution, [(sig["id"], "def stable_sigmoid(z):\n"
                                              "    return 1 / (1 + np.exp(-np.asarray(z, float)))")]), 5)
    put("no_return", edit(solution, [(newton["id"], newton_src.replace("    return theta", ""))]), 2)
    put("forbidden_expit", edit(solution, [(sig["id"], "def stable_sigmoid(z):\n"
                                             "    return expit(z)")]), 4)
    put("raises", edit(solution, after=[(sig["id"], "raise ValueError('oops')")]), 6)
    put("syntax_error", edit(solution, [(newton["id"], "def newton_logistic(X, y\n")]), 2)
    put("infinite_loop", edit(solution, [(newton["id"], newton_src.replace(
        "    return theta", "    while True:\n        pass"))]), 2)
    put("prints_100mb", edit(solution, after=[(sig["id"], "for _ in range(100):\n"
                                                          "    print('x' * 2**20)")]), 6)
    put("stalls", edit(solution, after=[(newton["id"], "import time\ntime.sleep(10**6)")]), 2)
    put("rebinds_np", edit(student, [(sig["id"], "import types, numpy\n"
                                      "np = types.SimpleNamespace(**{k: getattr(numpy, k) for k in "
                                      "dir(numpy) if not k.startswith('__')})\n"
                                      "np.allclose = lambda *a, **k: True\n"
                                      "def stable_sigmoid(z):\n    return numpy.zeros(numpy.shape(z))")]), 0)
    put("helper_cell", edit(solution, after=[(ids and sig["id"], "HALF = 0.5")]), 6)
    big = copy.deepcopy(solution)
    big["cells"][ids[sig["id"]]]["outputs"] = [{"output_type": "stream", "name": "stdout",
                                                "text": "y" * 5_000_000}]
    put("big_output", big, 6)
    (folder / "broken.ipynb").write_text('{"cells": [oops')
    expected["broken.ipynb"] = 0
    (folder / "empty.ipynb").write_bytes(b"")
    expected["empty.ipynb"] = 0
    put("other_chapter_meta", dict(student, metadata={"homework": {"chapter": "06_bootstrap"}}), 0)
    return expected


MACHINE_COLUMNS = ("cpu_seconds", "peak_mb")


def grade(out: Path, name: str, options: list) -> dict:
    """Grade the class into ``out / name``; return its rows, wall and CPU seconds."""
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "mlcore.homework", "grade",
                           str(out / "hw" / "autograder" / "01_logistic_regression"),
                           str(out / "class"), "--out", str(out / name / "grades.csv"),
                           *options], cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # the grader, its sandboxes and (on local:N) the Dask workers, all reaped by now
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    print(done.stdout[-1500:], done.stderr[-1500:], sep="\n")
    rows = {}
    if (out / name / "grades.csv").exists():
        with open(out / name / "grades.csv", newline="") as handle:
            rows = {r["file"]: r for r in csv.DictReader(handle)}
    return dict(rows=rows, seconds=seconds, cpu=cpu, returncode=done.returncode)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=40, help="submissions to grade (default 40)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scheduler", metavar="local:N|ADDRESS",
                        help="also grade on this Dask cluster and print the overhead ratio")
    parser.add_argument("--timeout", type=float, default=60,
                        help="CPU seconds per notebook (the loop is stopped at this)")
    args = parser.parse_args(argv)
    out = Path(tempfile.mkdtemp(prefix="bench-homework-"))
    try:
        expected = build_class(out, args.size)
        keep = sorted(expected, key=lambda n: (not n.startswith(("solution_00", "untouched_00")),
                                               n.startswith(("solution_", "untouched_")), n))
        for name in keep[args.size:]:
            (out / "class" / name).unlink()
            del expected[name]
        limits = ["--timeout", str(args.timeout)]
        runs = {f"--jobs {args.jobs}": grade(out, "local", ["--jobs", str(args.jobs), *limits])}
        if args.scheduler:
            runs[f"--scheduler {args.scheduler}"] = grade(
                out, "dask", ["--scheduler", args.scheduler, *limits])
        failed = False
        for how, run in runs.items():
            rows = run["rows"]
            wrong = [(f, rows.get(f, {}).get("total"), want)
                     for f, want in sorted(expected.items())
                     if f not in rows or abs(float(rows[f]["total"]) - want) > 1e-9]
            print(f"{len(rows)} submissions graded in {run['seconds']:.0f} s with {how} "
                  f"(goal for 40: 300 s); {len(wrong)} unexpected grade(s)")
            # Unreadable files run nothing (0 s): the median is over the submissions that ran.
            ran = [float(r["cpu_seconds"]) for r in rows.values()
                   if not r["status"].startswith("unreadable")]
            if ran:
                print(f"median CPU per graded submission: {statistics.median(ran):.1f} s over "
                      f"{len(ran)} (goal <= 13 s); the whole command used {run['cpu']:.0f} "
                      f"CPU-s, {len(rows) / run['cpu']:.3f} submissions per CPU-second (the "
                      "teacher's reference run and the grader itself included)")
            for file, got, want in wrong:
                print(f"  {file}: got {got}, expected {want} "
                      f"({rows.get(file, {}).get('status')})")
            failed = failed or bool(wrong) or run["returncode"] != 0
        if args.scheduler:
            local, dask = runs.values()
            same = [{f: {k: v for k, v in r.items() if k not in MACHINE_COLUMNS}
                     for f, r in run["rows"].items()} for run in (local, dask)]
            print(f"overhead ratio (CPU-s on the cluster / CPU-s with --jobs {args.jobs}): "
                  f"{dask['cpu'] / local['cpu']:.3f} (goal <= 1.10), {len(expected)} "
                  f"submissions; grades.csv {'identical' if same[0] == same[1] else 'DIFFERENT'}"
                  " but for the cpu_seconds and peak_mb columns")
            for file in sorted(set(same[0]) | set(same[1])):
                a, b = same[0].get(file, {}), same[1].get(file, {})
                differ = {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b))
                          if a.get(k) != b.get(k)}
                if differ:
                    print(f"  {file}: " + "; ".join(f"{k}: {x!r} (--jobs) / {y!r} (cluster)"
                                                    for k, (x, y) in differ.items()))
            failed = failed or same[0] != same[1]
        return 1 if failed else 0
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
