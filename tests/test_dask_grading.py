"""Grading a class on Dask distributed gives the rows of a local run, and loses none (#42).

One ``LocalCluster`` of two single-threaded worker processes serves every
test here (started once: each start costs seconds). The class is the tiny
fixture chapter's solution and untouched edition, an unreadable file, and
the hostile submissions that matter for a distributed run (those that kill
every process they see, leave a daemon, burn CPU, exhaust memory, end the
kernel, forge result lines; the whole hostile suite runs locally in
tests/test_homework.py, and both runs share the sandbox): ``grade --jobs 2`` and
``grade --scheduler tcp://...`` of the same folder must write the same
grades.csv (the ``cpu_seconds`` and ``peak_mb`` columns aside) and
byte-identical feedback, even when a worker is killed in the middle of a
task. Waits are on states (a task that is executing on a worker), never on
the clock.
"""

from __future__ import annotations

import contextlib
import copy
import csv
import io
import json
import logging
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from mlcore.homework import assign, load_spec
from mlcore.homework.__main__ import main as cli
from mlcore.homework.sandbox import Limits, bubblewrap_available

distributed = pytest.importorskip("distributed")
from mlcore._parallel import local_cluster  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "homework_fixtures" / "99_tiny_chapter.ipynb"
HOSTILE = ROOT / "tests" / "homework_fixtures" / "hostile"
TIMEOUT = 4          # CPU seconds: the tiny solution's two runs need about 1.5 and 1
# name: (edition the attack is added to, where), as in test_homework.ATTACKS
ATTACKS = {"kill_all": ("solution", "end"), "daemon": ("solution", "end"),
           "cpu_loop": ("solution", "end"), "memory": ("solution", "after"),
           "exit_kernel": ("solution", "after"), "forge_events": ("untouched", "start")}
MACHINE_COLUMNS = ("cpu_seconds", "peak_mb")      # measured, so they differ between runs


@pytest.fixture(scope="module")
def cluster():
    if not bubblewrap_available():
        # kill_all, run without the sandbox, would kill every process of the user
        pytest.skip("bubblewrap cannot create namespaces here; these tests need it")
    cluster = local_cluster(2)          # as grade --scheduler local:2 starts its own
    client = distributed.Client(cluster)
    yield cluster, client
    client.close()
    cluster.close()


def _cell(source, cell_id):
    return {"cell_type": "code", "id": cell_id, "metadata": {}, "execution_count": None,
            "outputs": [], "source": source}


@pytest.fixture(scope="module")
def klass(tmp_path_factory, cluster):
    """The class's folder and its local run (``--jobs 2``)."""
    root = tmp_path_factory.mktemp("dask-class")
    item, = assign([FIXTURE], root / "homework", verify=False)
    solution = json.loads((item.autograder / f"{item.chapter}.ipynb").read_text())
    student = json.loads(item.student.read_text())
    folder = root / "submissions"
    folder.mkdir()
    first = next(i for i, c in enumerate(solution["cells"])
                 if "solution" in c["metadata"].get("tags", []))
    anchor = solution["cells"][first]["id"]
    fill = {"@ROOT@": str(root), "@SUBMISSIONS@": str(folder), "@OUT@": str(root / "out"),
            "@TOKEN@": "dask-class"}
    for name, (base, where) in ATTACKS.items():
        nb = copy.deepcopy(solution if base == "solution" else student)
        source = (HOSTILE / f"{name}.py").read_text()
        for key, value in fill.items():
            source = source.replace(key, value)
        index = next(i for i, c in enumerate(nb["cells"]) if c["id"] == anchor)
        imports = next(i for i, c in enumerate(nb["cells"]) if c["id"] == "imports")
        at = {"start": imports + 1, "after": index + 1, "end": len(nb["cells"])}[where]
        nb["cells"].insert(at, _cell(source, f"attack-{name}"))
        (folder / f"{name}.ipynb").write_text(json.dumps(nb))
    (folder / "a_solution.ipynb").write_text(json.dumps(solution))
    (folder / "untouched.ipynb").write_text(json.dumps(student))
    (folder / "not_json.ipynb").write_text('{"cells": [oops')
    local = _grade(item.autograder, folder, root / "local", "--jobs", "2")
    return dict(autograder=item.autograder, folder=folder, root=root, local=local)


def _grade(autograder, folder, out, *options):
    """Run ``grade`` here; return its rows (no machine columns), feedback and summary."""
    out.mkdir()
    args = ["grade", str(autograder), str(folder), "--out", str(out / "grades.csv"),
            "--timeout", str(TIMEOUT), "--memory", "3072", *options]
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        assert cli(args) == 0, printed.getvalue()[-2000:]
    with open(out / "grades.csv", newline="") as handle:
        rows = [{k: v for k, v in row.items() if k not in MACHINE_COLUMNS}
                for row in csv.DictReader(handle)]
    feedback = {p.name: p.read_bytes() for p in (out / "grades_feedback").iterdir()}
    return dict(rows=rows, feedback=feedback, printed=printed.getvalue())


def _executing(client, word):
    """{worker address: pid} of the workers now running a task whose key holds ``word``."""
    # A function of ours, not client.run(os.getpid): the worker inspects the
    # signature of what it runs, and inspect parses a builtin's text signature
    # with ast, which can make the task's own parse in the worker's other thread
    # fail (CPython 3.11's shared AST recursion counter, python/cpython#106905).
    def running(dask_worker):
        return os.getpid(), [str(ts.key) for ts in dask_worker.state.executing]
    busy = client.run(running)
    return {address: pid for address, (pid, keys) in busy.items()
            if any(word in key for key in keys)}


def _kill_when_running(client, word, done, ready=lambda address: True):
    """Kill (SIGKILL) the worker process that runs ``word``'s task, once it runs it
    (and ``ready(address)`` of that worker holds)."""
    while not done.is_set():
        found = {address: pid for address, pid in _executing(client, word).items()
                 if ready(address)}
        if found:
            for pid in found.values():
                os.kill(pid, signal.SIGKILL)
            return list(found)
        time.sleep(0.2)        # a poll interval, not a limit: the wait is on the state
    return []


def test_a_class_graded_on_dask_with_a_worker_killed_mid_task_equals_the_local_run(
        cluster, klass, monkeypatch):
    import mlcore.homework.sandbox
    _, client = cluster
    # This process hosts the cluster's nannies, so the worker a nanny starts again after
    # the kill is a child of ours: grade's adopt_orphans would take it for a submission's
    # orphan and kill it when grading ends. A teacher's grade (local:N closes its cluster
    # inside it; an address is another process) has no such child.
    monkeypatch.setattr(mlcore.homework.sandbox, "adopt_orphans", contextlib.nullcontext)
    address = client.scheduler.address
    homes = client.run(lambda dask_worker: dask_worker.local_directory)

    def running(worker):
        # the submission's run folder is made in the worker's own directory
        return any(Path(homes[worker]).glob("mlcore-grade-*"))
    done, out = threading.Event(), []
    thread = _in_thread(lambda: _grade(klass["autograder"], klass["folder"],
                                       klass["root"] / "dask", "--scheduler", address),
                        done, out)
    killed = _kill_when_running(client, "cpu_loop.ipynb", done, ready=running)
    thread.join()
    (dask,), local = out, klass["local"]
    assert isinstance(dask, dict), dask
    assert len(killed) == 1                 # the task was running when its worker died
    files = [row["file"] for row in dask["rows"]]
    assert sorted(files) == files and len(set(files)) == len(files) == 9   # each once
    assert dask["rows"] == local["rows"]
    assert dask["feedback"] == local["feedback"]
    statuses = {row["file"]: row["status"] for row in dask["rows"]}
    assert statuses["cpu_loop.ipynb"] == "timeout" and statuses["a_solution.ipynb"] == "ok"
    assert statuses["not_json.ipynb"] == "unreadable"
    client.wait_for_workers(2)
    # The killed worker could not remove its run's folders (the submission's code and
    # outputs, the font cache); they were in its directory, which Dask removes as a
    # dead worker's when a worker starts in the same workspace: the restarted one did,
    # unless another process held the workspace's lock then, so start one more here.
    dead = Path(homes[killed[0]])
    distributed.diskutils.WorkSpace(str(dead.parent)).new_work_dir(prefix="probe-").release()
    assert not dead.exists(), sorted(p.name for p in dead.iterdir())


def _in_thread(function, done, out):
    def run():
        try:
            out.append(function())
        except BaseException as error:      # the test's thread reports it
            out.append(error)
        finally:
            done.set()
    # a daemon: should grading hang, pytest-timeout fails the test and this
    # thread does not keep the worker's process from ending
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_task_whose_worker_always_dies_ends_as_an_error_row_with_the_reason(
        cluster, klass):
    from mlcore.homework.grading import grade_on_cluster
    local_cluster, client = cluster
    scheduler = local_cluster.scheduler
    spec = load_spec(klass["autograder"])
    data = (klass["folder"] / "cpu_loop.ipynb").read_bytes()
    allowed, scheduler.allowed_failures = scheduler.allowed_failures, 0
    done, out = threading.Event(), []
    try:
        thread = _in_thread(lambda: grade_on_cluster(
            spec, [("cpu_loop.ipynb", data)], Limits(timeout=TIMEOUT, memory_mb=3072),
            scheduler=client.scheduler.address), done, out)
        killed = _kill_when_running(client, "cpu_loop.ipynb", done)
        thread.join()
    finally:
        scheduler.allowed_failures = allowed
    assert len(killed) == 1
    (row,), = out
    assert row.status == "error" and row.total == 0
    assert "worker process died while it graded this submission (tries: 1;" in row.notes[0]
    client.wait_for_workers(2)


def test_a_lost_scheduler_stops_grading_with_the_rows_kept_and_grade_resumes(klass, tmp_path):
    """The scheduler's machine goes away after one row: grade says so, and resumes."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    for name in ("a_solution.ipynb", "untouched.ipynb"):
        (folder / name).write_bytes((klass["folder"] / name).read_bytes())
    out = tmp_path / "out" / "grades.csv"
    out.parent.mkdir()
    journal = out.with_name(out.name + ".progress.jsonl")
    common = ["grade", str(klass["autograder"]), str(folder), "--out", str(out),
              "--timeout", str(TIMEOUT), "--memory", "3072"]
    # A scheduler of its own, in this process (no extra Python starts): the module's
    # cluster serves the other tests. One single-threaded worker grades the two files
    # one after the other; the scheduler goes away once the first row is journalled,
    # while the second (a run of seconds) is being graded.
    lost = local_cluster(1, processes=False)
    done, out_box, errors = threading.Event(), [], io.StringIO()

    def first_run():
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(errors):
            return cli(common + ["--scheduler", lost.scheduler_address])
    try:
        thread = _in_thread(first_run, done, out_box)
        while not (journal.exists() and journal.read_text().count("\n") >= 1):
            assert not done.is_set(), f"grade ended first: {out_box} {errors.getvalue()}"
            time.sleep(0.1)     # a poll interval: the wait is on the journal, not the clock
    finally:
        lost.close()
    thread.join()
    assert out_box == [2], errors.getvalue()
    message = errors.getvalue()
    assert "connection to the Dask scheduler" in message and "was lost" in message
    assert "after 1 of 2 submission(s) were graded" in message
    assert "run the same grade command again" in message
    kept = journal.read_text()
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        assert cli(common + ["--jobs", "1"]) == 0
    assert "resuming an interrupted run: 1 submission(s)" in printed.getvalue()
    assert not journal.exists()
    with open(out, newline="") as handle:
        rows = {row["file"]: (row["total"], row["status"]) for row in csv.DictReader(handle)}
    assert rows == {"a_solution.ipynb": ("5", "ok"), "untouched.ipynb": ("0", "error")}
    assert json.loads(kept.splitlines()[0])["file"] in rows


def test_a_worker_without_bubblewrap_refuses_with_its_address(cluster):
    from mlcore.homework.grading import WorkerRefused, grade_on_cluster
    _, client = cluster
    # it refuses before it reads anything: no autograder or notebook is needed
    spec = {"format": 1, "chapter": "99_tiny_chapter", "questions": []}

    def set_path(value):
        from mlcore.homework.sandbox import bubblewrap_available
        old, os.environ["PATH"] = os.environ["PATH"], value
        bubblewrap_available.cache_clear()      # the worker's answer is cached
        return old
    paths = client.run(set_path, "/nowhere")      # no bwrap on any worker's PATH
    try:
        with pytest.raises(WorkerRefused, match=r"Dask worker tcp://\S+ \(host .*\) refuses "
                                                r"to grade: sandbox='auto' needs bubblewrap"):
            grade_on_cluster(spec, [("a.ipynb", b"{}")], Limits(timeout=TIMEOUT),
                             scheduler=client.scheduler.address)
    finally:
        for address, path in paths.items():
            client.run(set_path, path, workers=[address])


def test_scheduler_and_jobs_are_checked_before_anything_runs(tmp_path, capsys):
    (tmp_path / "autograder.json").write_text(json.dumps(
        {"format": 1, "chapter": "99_tiny_chapter", "questions": []}))
    args = ["grade", str(tmp_path), str(tmp_path), "--out", str(tmp_path / "grades.csv")]
    assert cli(args + ["--scheduler", "local:0"]) == 2
    assert "scheduler must be 'local:N'" in capsys.readouterr().err
    assert cli(args + ["--scheduler", "local:2", "--jobs", "2"]) == 2
    assert "not both" in capsys.readouterr().err
    assert not (tmp_path / "grades.csv").exists()
