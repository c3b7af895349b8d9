"""The homework grader against the third teacher audit's forgeries and wrong grades.

Findings 1, 2, 3, 6, 7, 8, 10, 11 and 13 of the audit of 2026-11-27 (issue
#38), each on the tiny fixture chapter ``tests/homework_fixtures/99_tiny_chapter.ipynb``:
a user-site hook in the checks' process, a poisoned reference snapshot without
bubblewrap, notebooks that lost their cell ids, a stale resume, hostile file
names, spreadsheet formulas in grades.csv, large outputs, and a partial
regrade's summary.
"""

import base64
import copy
import csv
import functools
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mlcore.homework import (Limits, Submission, add_extra_tests, assign, bubblewrap_available,
                             grade_one, load_spec, read_notebook, write_feedback,
                             write_grades)
from mlcore.homework.__main__ import main as cli

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "homework_fixtures" / "99_tiny_chapter.ipynb"
SANDBOX = "auto" if bubblewrap_available() else "none"
SCORES = ("ex99-sigmoid", "ex99-mse")


def _code(source, cell_id=None):
    cell = {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
            "source": source}
    if cell_id:
        cell["id"] = cell_id
    return cell


def _rows(path):
    from mlcore.homework.grading._report import _read_csv
    return {r["file"]: r for r in _read_csv(Path(path), "grades")[1]}


def _points(row):
    return tuple(float(row[n]) for n in SCORES)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """The tiny chapter assigned (no verification run): autograder folder, both editions."""
    out = tmp_path_factory.mktemp("tiny")
    item, = assign([FIXTURE], out, verify=False)
    solution = json.loads((item.autograder / f"{item.chapter}.ipynb").read_text())
    student = json.loads(item.student.read_text())
    return item, solution, student


def _with_cell(nb, source, after="imports"):
    nb = copy.deepcopy(nb)
    at = next(i for i, c in enumerate(nb["cells"]) if c.get("id") == after)
    nb["cells"].insert(at + 1, _code(source, "attack"))
    return nb


# ------------------------------------------- finding 1: the checks' process is isolated

USER_SITE_ATTACK = '''import os, sys
payload = """import builtins, sys
if sys.argv and sys.argv[0].endswith("_checker.py"):
    _exec = builtins.exec
    def _forged(code, *args, **kwargs):
        if getattr(code, "co_filename", "").startswith("<check"):
            return None
        return _exec(code, *args, **kwargs)
    builtins.exec = _forged
"""
folder = os.path.expanduser("~/.local/lib/python%d.%d/site-packages" % sys.version_info[:2])
os.makedirs(folder, exist_ok=True)
with open(os.path.join(folder, "usercustomize.py"), "w") as handle:
    handle.write(payload)
with open(os.path.join(folder, "zz_forge.pth"), "w") as handle:
    handle.write("import usercustomize\\n")
'''


def test_the_checks_run_isolated_in_their_own_empty_read_only_folder(tiny, tmp_path):
    item, solution, _ = tiny
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "ex99-sigmoid.py").write_text(
        "import os, site, sys\n"
        "assert sys.flags.isolated == 1 and sys.flags.no_user_site == 1\n"
        "assert site.ENABLE_USER_SITE is False\n"
        "home = os.environ['HOME']\n"
        "assert os.path.basename(home).startswith('mlcore-checks-'), home\n"
        "assert os.getcwd() == os.path.realpath(home) and os.listdir(home) == []\n"
        "assert not os.access(home, os.W_OK) or os.geteuid() == 0\n")
    spec = add_extra_tests(load_spec(item.autograder), extra)
    # The answers' process is forked from the checks' process before that reads its job
    # (issue #38 item 5): the answer checks that it holds nothing of the job (no file, no
    # verdicts' channel: its pipes are stderr and its two own; no questions' dicts).
    solution = copy.deepcopy(solution)
    cell = next(c for c in solution["cells"] if c.get("id") == "sol-sigmoid")
    cell["source"] = (FORK_CHECK + "".join(cell["source"])).replace(
        "def sigmoid(z):\n", "def sigmoid(z):\n    _forked_clean()\n", 1)
    graded = grade_one("solution.ipynb", json.dumps(solution).encode(), spec,
                       Limits(timeout=60, sandbox=SANDBOX))
    assert graded.scores["ex99-sigmoid"] == 2, graded.failures


FORK_CHECK = '''def _forked_clean():
    import gc, os, sys
    if not sys.argv[0].endswith(("_checker.py", "_server.py")):
        return                        # the notebook's own kernel
    assert os.read(0, 1) == b"", "stdin is not empty"
    links = [os.readlink(f"/proc/self/fd/{fd}") for fd in os.listdir("/proc/self/fd")
             if os.path.exists(f"/proc/self/fd/{fd}")]
    files = [link for link in links if link.startswith("/") and link != "/dev/null"
             and not link.startswith("/proc/")]
    assert not files and sum(link.startswith("pipe:") for link in links) == 3, links
    assert not any(type(o) is dict and "nonces" in o for o in gc.get_objects())


'''


def _user_site_python(tmp_path) -> Path:
    """A venv of the base Python with system site-packages, so user site-packages are on."""
    import site
    venv = tmp_path / "usersite-venv"
    base = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    subprocess.run([str(base), "-m", "venv", "--system-site-packages", "--without-pip",
                    str(venv)], check=True, capture_output=True, timeout=300)
    python = venv / "bin" / "python"
    packages = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"],
                              check=True, capture_output=True, text=True).stdout.strip()
    # the course's packages and mlcore, as a teacher's install into that Python would give
    (Path(packages) / "course.pth").write_text("\n".join(site.getsitepackages() + [str(ROOT)])
                                               + "\n")
    return python


def test_a_user_site_hook_written_by_the_notebook_does_not_forge_the_checks(tiny, tmp_path):
    item, _, student = tiny
    python = _user_site_python(tmp_path)
    probe = subprocess.run([str(python), "-c", "import site, mlcore.homework; "
                            "print(site.ENABLE_USER_SITE)"], capture_output=True, text=True,
                           env=dict(os.environ, HOME=str(tmp_path)), timeout=300)
    assert probe.stdout.strip() == "True", probe.stderr      # the audit's setting
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "f1_usercustomize.ipynb").write_text(
        json.dumps(_with_cell(student, USER_SITE_ATTACK)))
    out = tmp_path / "out" / "grades.csv"
    out.parent.mkdir()
    done = subprocess.run([str(python), "-m", "mlcore.homework", "grade", str(item.autograder),
                           str(folder), "--out", str(out), "--timeout", "60", "--jobs", "1",
                           "--sandbox", SANDBOX], capture_output=True, text=True,
                          timeout=1200, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _points(_rows(out)["f1_usercustomize.ipynb"]) == (0, 0)


# ------------------- finding 2: no silent loss of the sandbox, no reachable reference

POISON = '''import glob, os, pickle
code = """import builtins
_exec = builtins.exec
def _forged(code, *args, **kwargs):
    if getattr(code, "co_filename", "").startswith("<check"):
        return None
    return _exec(code, *args, **kwargs)
builtins.exec = _forged
"""
class Payload:
    def __reduce__(self):
        return (exec, (code, {}))
here = os.environ["HOME"]
for path in glob.glob(os.path.join(os.path.dirname(here), "mlcore-reference-*", "*.pkl")):
    with open(path, "rb") as handle:
        data = pickle.load(handle)
    data["each"]["zz_payload"] = pickle.dumps(Payload())
    with open(path, "wb") as handle:
        pickle.dump(data, handle)
'''


def test_a_poisoned_reference_without_bubblewrap_changes_no_later_grade(tiny, tmp_path):
    item, solution, student = tiny
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "a0_poison_reference.ipynb").write_text(json.dumps(_with_cell(student, POISON)))
    (folder / "b_untouched.ipynb").write_text(json.dumps(student))
    (folder / "c_solution.ipynb").write_text(json.dumps(solution))
    scratch = tmp_path / "tmp"       # the grader's TMPDIR: all the payload can glob
    scratch.mkdir()
    out = tmp_path / "out" / "grades.csv"
    out.parent.mkdir()
    done = subprocess.run([sys.executable, "-m", "mlcore.homework", "grade",
                           str(item.autograder), str(folder), "--out", str(out), "--timeout",
                           "60", "--jobs", "1", "--sandbox", "none"], capture_output=True,
                          text=True, timeout=1200, env=dict(os.environ, TMPDIR=str(scratch)))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = _rows(out)
    assert _points(rows["b_untouched.ipynb"]) == (0, 0)
    assert _points(rows["a0_poison_reference.ipynb"]) == (0, 0)
    assert _points(rows["c_solution.ipynb"]) == (2, 3)
    # the isolation is said at the start and recorded in the summary
    assert done.stdout.startswith("Isolation: none (--sandbox none)")
    assert "Isolation: none" in (out.parent / "grades_summary.md").read_text()
    assert not list(scratch.glob("mlcore-homework-mpl-*"))      # finding 13
    assert not list(scratch.glob("mlcore-reference-*"))


def test_the_font_cache_of_grading_through_the_api_is_removed_at_exit(tmp_path):
    """A program that grades through the Python API (no ``main`` to clean up) leaves no cache."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = subprocess.run([sys.executable, "-c", "from mlcore.homework.sandbox._sandbox import "
                           "_matplotlib_cache; print(_matplotlib_cache())"],
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, TMPDIR=str(scratch)))
    assert done.returncode == 0, done.stderr
    folder = Path(done.stdout.strip())
    assert folder.parent == scratch and folder.name.startswith("mlcore-homework-mpl-")
    assert not folder.exists() and not list(scratch.iterdir())


def test_a_dask_workers_folders_are_made_in_its_directory_and_only_in_its_thread(
        tmp_path, monkeypatch):
    """made_under (a Dask worker's task) puts this thread's run folders and a new font
    cache in the worker's directory; other threads keep the temporary folder; a font
    cache whose worker directory is gone is built again, not copied from nowhere."""
    import threading

    from mlcore.homework.sandbox import _sandbox
    from mlcore.homework.sandbox._tempdirs import made_under, make_dir, remove_dir
    scratch, worker = tmp_path / "tmp", tmp_path / "worker-1"
    scratch.mkdir()
    worker.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(scratch))
    monkeypatch.setattr(_sandbox, "_matplotlib_cache",
                        functools.lru_cache(maxsize=1)(_sandbox._matplotlib_cache.__wrapped__))
    other = []
    with made_under(worker):
        run = make_dir("mlcore-grade-")
        thread = threading.Thread(target=lambda: other.append(make_dir("mlcore-grade-")))
        thread.start()
        thread.join()
        env = _sandbox._environment(run, "token")
    assert run.parent == worker and other[0].parent == scratch
    cache = Path(_sandbox._matplotlib_cache())
    assert cache.parent == worker
    assert any(Path(env["MPLCONFIGDIR"]).glob("fontlist-*.json"))
    remove_dir(worker)                      # what Dask does to a dead worker's directory
    later = make_dir("mlcore-grade-")
    env = _sandbox._environment(later, "token")
    assert later.parent == scratch and Path(_sandbox._matplotlib_cache()).parent == scratch
    assert any(Path(env["MPLCONFIGDIR"]).glob("fontlist-*.json"))
    for folder in (other[0], later, Path(_sandbox._matplotlib_cache())):
        remove_dir(folder)


def test_sandbox_auto_refuses_to_grade_without_bubblewrap(tiny, tmp_path, monkeypatch, capsys):
    from mlcore.homework.sandbox import _sandbox
    item, _, _ = tiny
    monkeypatch.setattr(_sandbox, "bubblewrap_available", lambda: False)
    empty = tmp_path / "empty"
    empty.mkdir()
    args = ["grade", str(item.autograder), str(empty), "--out", str(tmp_path / "g.csv")]
    assert cli(args) == 2
    error = capsys.readouterr().err
    assert "apt-get install bubblewrap" in error and "--sandbox none" in error
    assert cli(args + ["--sandbox", "bwrap"]) == 2
    assert "apt-get install bubblewrap" in capsys.readouterr().err
    assert cli(args + ["--sandbox", "none"]) == 2          # gets past the isolation check
    assert "holds no .ipynb files" in capsys.readouterr().err
    # a student's check of their own notebook keeps the fallback
    assert _sandbox.isolation_for(Limits(), fallback=True) == "process"


def test_a_changed_reference_snapshot_stops_grading_and_is_never_loaded(tiny):
    from mlcore.homework.sandbox import _checker
    from mlcore.homework.grading._reference import Reference, ReferenceTampered
    item, solution, _ = tiny
    reference = Reference({0: b"teacher", 1: b"teacher"})
    reference.blobs[1] = b"poisoned"
    with pytest.raises(ReferenceTampered, match="question 1 changed"):
        grade_one("x.ipynb", json.dumps(solution).encode(), load_spec(item.autograder),
                  Limits(timeout=60, sandbox=SANDBOX), reference=reference)
    # the checks' process checks the SHA-256 itself before unpickling anything
    bad = {"data": base64.b64encode(b"\x80\x04K\x01.").decode(),
           "sha256": hashlib.sha256(b"other").hexdigest()}
    with pytest.raises(_checker.ReferenceChanged):
        _checker.restore_reference(bad)


# ------------------------------------------------- finding 3: notebooks without cell ids


def _strip_ids(nb, minor):
    nb = copy.deepcopy(nb)
    nb["nbformat_minor"] = minor
    nb["metadata"] = {}
    for cell in nb["cells"]:
        cell.pop("id", None)
        cell["metadata"] = {}
    return nb


def test_a_correct_notebook_without_cell_ids_keeps_its_marks_under_a_forbid_rule(tmp_path):
    # The chapter imports the forbidden expit above the exercise, and binds z, a name the
    # checks use: neither is the student's doing.
    chapter = json.loads(FIXTURE.read_text())
    imports = next(c for c in chapter["cells"] if c.get("id") == "imports")
    imports["source"] = ("import numpy as np\nfrom scipy.special import expit\n\n"
                         "SEED = 0\nrng = np.random.default_rng(SEED)\n"
                         "z = np.linspace(-1, 1, 3)")
    path = tmp_path / "97_tiny_forbid.ipynb"
    path.write_text(json.dumps(chapter))
    item, = assign([path], tmp_path / "hw", verify=False)
    solution = json.loads((item.autograder / f"{item.chapter}.ipynb").read_text())
    spec = load_spec(item.autograder)
    assert spec["questions"][0]["forbid"] == ["scipy.special.expit"]
    from mlcore.homework.grading._grade import grade_submissions, make_reference
    limits = Limits(timeout=60, sandbox=SANDBOX)
    reference = tmp_path / "reference"
    assert make_reference(spec, json.dumps(solution).encode(), limits, reference).total == 5
    cheat = copy.deepcopy(solution)     # the rule still holds for the student's own code
    sigmoid = next(c for c in cheat["cells"] if c.get("id") == "sol-sigmoid")
    sigmoid["source"] = "def sigmoid(z):\n    return expit(z)"
    submissions = [("heidi_metadata_lost.ipynb", json.dumps(_strip_ids(solution, 5)).encode()),
                   ("ivan_nbformat44.ipynb", json.dumps(_strip_ids(solution, 4)).encode()),
                   ("cheat_no_ids.ipynb", json.dumps(_strip_ids(cheat, 4)).encode())]
    graded = {g.file: g for g in grade_submissions(spec, submissions, limits, jobs=1,
                                                   reference=reference)}
    for name in ("heidi_metadata_lost.ipynb", "ivan_nbformat44.ipynb"):
        assert (graded[name].scores["ex99-sigmoid"], graded[name].scores["ex99-mse"]) == (2, 3), \
            graded[name].failures
        assert not [f for f in graded[name].flags if f.startswith(("suspicious", "no exercise"))], \
            graded[name].flags
    assert graded["cheat_no_ids.ipynb"].scores["ex99-sigmoid"] == 0
    assert any("forbids" in f for f in graded["cheat_no_ids.ipynb"].failures["ex99-sigmoid"])


def test_the_fallback_span_starts_at_the_exercise_not_at_the_first_cell(tiny):
    from mlcore.homework.grading._plan import plan_notebook, read_notebook as read
    item, solution, _ = tiny
    spec = dict(load_spec(item.autograder), cell_sources={})    # no chapter cell recognised
    nb, _ = read(json.dumps(_strip_ids(solution, 4)).encode())
    sources, where, points, spans, coded, notes = plan_notebook(nb, spec)
    first = min(spans[0])
    assert "def sigmoid" in sources[first] and "import numpy" not in sources[first]


# ------------------- finding 6 (resume), 7 (file names), 8 (CSV formulas), 11, 13


def test_a_journal_written_under_other_tests_is_stale(tiny, tmp_path):
    from mlcore.homework.classroom._update import (append_journal, grading_key,
                                                   read_journal)
    item, _, _ = tiny
    spec, limits = load_spec(item.autograder), Limits(timeout=60)
    out = tmp_path / "grades.csv"
    graded = Submission("a.ipynb", {"ex99-sigmoid": 2.0, "ex99-mse": 3.0,
                                    "ex99-gradient": None}, "ok")
    append_journal(out, spec, graded, b"data", grading_key(spec, limits))
    assert read_journal(out, spec, [("a.ipynb", b"data")], grading_key(spec, limits)) == (
        {"a.ipynb": graded}, 0)
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "ex99-sigmoid.py").write_text("assert sigmoid(1.0) > 0.7\n")
    for changed, other in [(add_extra_tests(spec, extra), limits),
                           (spec, Limits(timeout=61)), (spec, Limits(timeout=60, memory_mb=999))]:
        assert read_journal(out, spec, [("a.ipynb", b"data")],
                            grading_key(changed, other)) == ({}, 1)


def test_csv_cells_that_a_spreadsheet_would_evaluate_are_quoted_and_read_back():
    from mlcore.homework.grading._report import csv_cell, csv_value
    for text in ["=HYPERLINK(\"x\",\"y\").ipynb", "+1+2", "-2+3", "@SUM(A1)", "\tx", "\rx",
                 "'quoted"]:
        assert csv_cell(text).startswith("'") and csv_value(csv_cell(text)) == text
    for number in ["-1", "2.5", "0", "-0.25", "1e-3", "+4"]:
        assert csv_cell(number) == number
    assert csv_cell("alice.ipynb") == "alice.ipynb"


def test_hostile_file_names_are_refused_or_written_safely(tiny, tmp_path):
    from mlcore.homework.classroom._download import collect_submissions
    from mlcore.homework.grading._report import refused_submission
    item, _, _ = tiny
    spec = load_spec(item.autograder)
    folder = tmp_path / "names"
    folder.mkdir()
    data = b'{"cells": []}'
    undecodable = os.fsdecode(b"bad\xff\xfename.ipynb")
    long_name = "é" * 110 + ".ipynb"                     # 226 bytes
    formula = '=HYPERLINK("example.invalid","click").ipynb'
    stem_190 = "s" * 190 + ".ipynb"                       # valid, but too long a feedback name
    for name in (undecodable, long_name, formula, stem_190):
        (folder / name).write_bytes(data)
    files, refused, _ = collect_submissions(folder)
    reasons = dict(refused)
    assert reasons["bad\\xff\\xfename.ipynb"] == (
        "unreadable: file name: its name is not valid UTF-8 text; rename the file")
    assert "226 bytes long" in reasons[long_name]
    assert sorted(name for name, _ in files) == sorted([formula, stem_190])
    graded = [refused_submission(name, why, spec) for name, why in refused]
    graded += [Submission(name, {"ex99-sigmoid": 0.0, "ex99-mse": 0.0, "ex99-gradient": None},
                          "ok", flags=[f"same as {formula}: ex99-mse"]) for name, _ in files]
    write_grades(tmp_path / "grades.csv", spec, graded)
    assert write_feedback(tmp_path / "feedback", spec, graded) == []
    text = (tmp_path / "grades.csv").read_text(encoding="utf-8")
    assert "\"'=HYPERLINK(\"\"example.invalid\"\",\"\"click\"\").ipynb\"" in text
    assert "'same as =HYPERLINK" not in text and "same as =HYPERLINK" in text
    assert set(_rows(tmp_path / "grades.csv")) == {n for n, _ in refused} | {formula, stem_190}
    names = [p.name for p in (tmp_path / "feedback").iterdir()]
    assert len(names) == 4 and max(len(n.encode()) for n in names) <= 120 + 9 + 3
    # the feedback of one file that cannot be written is reported, the others are written
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (blocked / f"{Path(formula).stem}.md").mkdir()            # a folder where a file goes
    failed = write_feedback(blocked, spec, graded)
    assert [f for f, _ in failed] == [formula] and len(list(blocked.iterdir())) == 4


def test_outputs_do_not_count_towards_the_size_limit(tiny):
    from mlcore.homework.editions._edition import student_edition
    from mlcore.homework.grading._plan import MAX_BYTES, MAX_FILE_BYTES
    _, solution, _ = tiny
    big = copy.deepcopy(solution)
    cell = next(c for c in big["cells"] if c["cell_type"] == "code")
    cell["outputs"] = [{"output_type": "display_data", "metadata": {},
                        "data": {"image/png": "A" * (60 * 2**20)}}]
    data = json.dumps(big).encode()
    assert MAX_BYTES < len(data) < MAX_FILE_BYTES
    nb, why = read_notebook(data)
    assert why is None and all(not c.get("outputs") for c in nb["cells"])
    code = copy.deepcopy(solution)
    cell = next(c for c in code["cells"] if c["cell_type"] == "code")
    cell["source"] = "x = 1  # " + "A" * (51 * 2**20)
    assert "50 MiB even without its outputs" in read_notebook(json.dumps(code).encode())[1]
    note = student_edition(json.loads(FIXTURE.read_text()), "99_tiny_chapter")["cells"]
    text = next("".join(c["source"]) for c in note if "homework-note" in
                c["metadata"].get("tags", []))
    assert "clear all outputs" in text and f"{MAX_BYTES // 2**20} MiB" in text


def test_resume_update_and_summary_cover_the_whole_class(tiny, tmp_path, capsys):
    """Findings 6, 11 and 13: the counter, "same as" and the summary see every row."""
    from mlcore.homework.classroom._update import append_journal, grading_key
    item, solution, student = tiny
    spec = load_spec(item.autograder)
    folder = tmp_path / "submissions"
    folder.mkdir()
    data = json.dumps(solution).encode()
    for name in ("x_first.ipynb", "y_copy.ipynb"):
        (folder / name).write_bytes(data)
    (folder / "z_untouched.ipynb").write_text(json.dumps(student))
    (folder / "empty.ipynb").write_bytes(b"")
    out = tmp_path / "out" / "grades.csv"
    out.parent.mkdir()
    limits = Limits(timeout=60, sandbox=SANDBOX)
    first = grade_one("x_first.ipynb", data, spec, limits)
    append_journal(out, spec, first, data, grading_key(spec, limits))   # an interruption
    common = ["--out", str(out), "--timeout", "60", "--jobs", "1", "--sandbox", SANDBOX]
    assert cli(["grade", str(item.autograder), str(folder), *common]) == 0
    printed = capsys.readouterr().out
    assert "resuming an interrupted run: 1 submission(s)" in printed
    assert "[4/4]" in printed and "/3]" not in printed
    rows = _rows(out)
    # The resumed row and the row graded now carry the same flags. Two copies of the
    # published solution are not "same as" each other (finding 13), and the tiny
    # chapter's answers are too short for "same as" (tests/test_grading_rules.py
    # covers the flag itself).
    for name in ("x_first.ipynb", "y_copy.ipynb"):
        assert "published solution: ex99-sigmoid" in rows[name]["flags"]
        assert "same as" not in rows[name]["flags"]
    summary = out.parent / "grades_summary.md"
    whole = summary.read_text()
    assert "4 submissions" in whole and "Isolation: " in whole
    # regrade one student: the summary and the flags still cover the whole class
    (folder / "y_copy.ipynb").write_text(json.dumps(student))
    assert cli(["grade", str(item.autograder), str(folder), *common, "--update", "--only",
                "y_copy.ipynb"]) == 0
    rows, text = _rows(out), summary.read_text()
    assert _points(rows["y_copy.ipynb"]) == (0, 0) and _points(rows["x_first.ipynb"]) == (2, 3)
    assert "4 submissions" in text and "| ex99-sigmoid | 2 | 0.5 |" in text
    assert "same as" not in rows["x_first.ipynb"]["flags"]
    assert "same as z_untouched.ipynb" not in rows["y_copy.ipynb"]["flags"]    # stubs
    from mlcore.homework.sandbox._sandbox import _matplotlib_cache
    assert _matplotlib_cache.cache_info().currsize == 0     # its font cache was removed
