"""The class around the grades: roster order, lateness, late policy, missing students,
merge into the feedback and the LMS export (audit teacher-3, findings 9 and 12).

Almost everything runs in-process on grades.csv and feedback files written
from Submission objects of the fixture chapter; one test grades two copies of
the fixture chapter end to end through the command line.
"""

import csv
import io
import json
import os
import shutil
import types
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from mlcore.homework import Submission, build_spec, write_feedback, write_grades
from mlcore.homework.__main__ import main as cli
from mlcore.homework.classroom._class import (ClassOptions, note_missing,
                                              refresh_penalties)
from mlcore.homework.classroom._gradebook import fill_from_grades
from mlcore.homework.classroom._late import (lateness, parse_policy, read_extensions,
                                             read_submission_times)
from mlcore.homework.classroom._roster import (check_roster, latest_per_student,
                                               read_enrolment)

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "homework_fixtures" / "99_tiny_chapter.ipynb"
GRADEBOOKS = ROOT / "tests" / "homework_fixtures" / "gradebooks"
CANVAS = r"(?P<student>[^_]+)_(?P<late>LATE_)?(?P<id>\d+)_(?P<order>\d+)_.*"
UTC = timezone.utc
DEADLINE = datetime(2024, 1, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def spec():
    nb = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return build_spec(nb, "99_tiny_chapter")


def _touch(folder, name, when):
    path = Path(folder) / name
    path.write_bytes(b"{}")
    stamp = when.timestamp()
    os.utime(path, (stamp, stamp))
    return name, b"{}"


def _args(**given):
    keys = ("roster", "deadline", "late_policy", "extensions", "submission_times",
            "roster_file", "update", "manual_scores")
    return types.SimpleNamespace(**{k: given.get(k) for k in keys})


def _sub(file, sigmoid, mse, student=""):
    return Submission(file, {"ex99-sigmoid": sigmoid, "ex99-mse": mse,
                             "ex99-gradient": None}, "ok", student=student)


def _rows(path):
    return {r["file"]: r for r in csv.DictReader(Path(path).open(encoding="utf-8"))}


# ------------------------------------------------------------- finding 9: the roster


def test_canvas_submission_number_not_the_copy_time_picks_the_file(tmp_path):
    # the audit's Lee Kim: the first attempt (9002) was copied again after the late
    # full resubmission (9077), so it has the newer modification time
    later = DEADLINE + timedelta(days=9)
    files = [_touch(tmp_path, "leekim_12346_9002_hw1.ipynb", later),
             _touch(tmp_path, "leekim_LATE_12346_9077_hw1.ipynb", DEADLINE),
             _touch(tmp_path, "garcia-lopezmaria_12347_9003_hw1.ipynb", DEADLINE),
             _touch(tmp_path, "o'brienpat_12348_9004_hw1.ipynb", DEADLINE)]
    kept, owners, skipped, notes = latest_per_student(tmp_path, files,
                                                      check_roster(CANVAS))
    assert [name for name, _ in kept] == ["garcia-lopezmaria_12347_9003_hw1.ipynb",
                                          "leekim_LATE_12346_9077_hw1.ipynb",
                                          "o'brienpat_12348_9004_hw1.ipynb"]
    assert skipped == [("leekim_12346_9002_hw1.ipynb", "superseded by "
                        "leekim_LATE_12346_9077_hw1.ipynb (same student, larger "
                        "submission number)")]
    assert notes == [] and owners["garcia-lopezmaria_12347_9003_hw1.ipynb"] == "12347"
    # numbers compare as numbers (10 > 9), not as text
    files = [_touch(tmp_path, "a_1_9_x.ipynb", DEADLINE),
             _touch(tmp_path, "a_1_10_x.ipynb", DEADLINE - timedelta(1))]
    assert latest_per_student(tmp_path, files, check_roster(CANVAS))[0][0][0] == \
        "a_1_10_x.ipynb"
    # without an order group, the modification time decides, as before
    legacy = check_roster(r"(?P<student>[^_]+)_(?:LATE_)?(?P<id>\d+)_.*")
    files = [_touch(tmp_path, "b_2_1_x.ipynb", DEADLINE),
             _touch(tmp_path, "b_2_2_x.ipynb", DEADLINE - timedelta(1))]
    assert latest_per_student(tmp_path, files, legacy)[0] == [("b_2_1_x.ipynb", b"{}")]


def test_canvas_late_marker_decides_late_whatever_the_disk_time(tmp_path, spec):
    files = [_touch(tmp_path, "leekim_LATE_12346_9077_hw1.ipynb",
                    DEADLINE - timedelta(days=3)),
             _touch(tmp_path, "smithjane_12345_9001_hw1.ipynb",
                    DEADLINE + timedelta(days=3))]
    klass = ClassOptions(_args(roster=CANVAS, deadline="2024-01-01T00:00+00:00"),
                         tmp_path, tmp_path / "grades.csv")
    graded = [_sub(name, 2, 3) for name, _ in klass.select(files)]
    klass.annotate(graded)
    assert [(g.student, g.late) for g in graded] == [("12346", "yes"), ("12345", "no")]
    # a pattern without the group: LATE in the name, or modified after the deadline
    klass = ClassOptions(_args(roster=r"(?P<student>[^_]+)_(?:LATE_)?(?P<id>\d+)_.*",
                               deadline="2024-01-01T00:00+00:00"), tmp_path,
                         tmp_path / "grades.csv")
    graded = [_sub(name, 2, 3) for name, _ in klass.select(files)]
    klass.annotate(graded)
    assert [g.late for g in graded] == ["yes", "yes"]


MOODLE_SHEET = ("\ufeffIdentifier,Full name,Email address,Status,Grade,Maximum Grade,"
                "Grade can be changed,Last modified (submission),Last modified (grade),"
                "Feedback comments\n"
                "Participant 501,Ada Okafor,ada@example.org,Submitted for grading,,6,"
                "Yes,\"Sunday, 31 December 2023, 11:30 PM\",-,\n"
                "Participant 502,Bo Chen,bo@example.org,Submitted for grading - 2 days "
                "late,,6,Yes,\"Tuesday, 2 January 2024, 09:15\",-,\n"
                "Participant 503,Cy Diaz,cy@example.org,No submission,,6,Yes,-,-,\n")


def test_moodle_worksheet_gives_times_students_and_a_gradebook(tmp_path, spec):
    sheet = tmp_path / "worksheet.csv"
    sheet.write_text(MOODLE_SHEET, encoding="utf-8")
    assert read_submission_times(sheet, UTC) == {
        "501": datetime(2023, 12, 31, 23, 30, tzinfo=UTC),
        "502": datetime(2024, 1, 2, 9, 15, tzinfo=UTC)}
    assert read_enrolment(sheet) == {"501": "Ada Okafor", "502": "Bo Chen",
                                     "503": "Cy Diaz"}
    # the worksheet's time wins over the file's (copied, so late on this disk)
    pattern = r"(?P<student>[^_]+)_(?P<id>\d+)_assignsubmission_file_.*"
    files = [_touch(tmp_path, f"{n}_{i}_assignsubmission_file_hw.ipynb",
                    DEADLINE + timedelta(days=30))
             for n, i in (("Ada Okafor", 501), ("Bo Chen", 502))]
    klass = ClassOptions(_args(roster=pattern, deadline="2024-01-01T00:00+00:00",
                               submission_times=str(sheet), roster_file=str(sheet),
                               late_policy="10%/day"),
                         tmp_path, tmp_path / "grades.csv")
    graded = [_sub(name, 2, 3) for name, _ in klass.select(files)]
    klass.annotate(graded)
    assert [g.late for g in graded] == ["no", "yes"]
    # Bo is 33 h late: 2 started days
    assert [klass.late[g.file][1] for g in graded] == [0.0, 20.0]
    write_grades(tmp_path / "grades.csv", spec, graded)
    write_feedback(tmp_path / "fb", spec, graded)
    assert klass.finish(spec, tmp_path / "fb") == [("503", "Cy Diaz")]
    out = tmp_path / "filled.csv"
    fill_from_grades(tmp_path / "grades.csv", sheet, "Grade", out)
    filled = {r["Identifier"]: r["Grade"] for r in csv.DictReader(out.open(
        encoding="utf-8-sig"))}
    assert filled == {"Participant 501": "5", "Participant 502": "4",
                      "Participant 503": "0"}
    bad = tmp_path / "bad.csv"
    bad.write_text(MOODLE_SHEET.replace("Tuesday, 2 January 2024, 09:15", "2 janvier"),
                   encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 3: 'Last modified \(submission\)' is "
                                         "'2 janvier'"):
        read_submission_times(bad, UTC)


# Moodle's "Download all submissions" as it comes: a folder per student and plugin
MOODLE_ZIP = {"Ada Okafor_501_assignsubmission_file_/hw1.ipynb": b"{}",
              "Ada Okafor_501_assignsubmission_onlinetext_/onlinetext.html": b"<p>hi",
              "Bo Chen_502_assignsubmission_file_/old/hw1.ipynb": b"{}",
              "Bo Chen_502_assignsubmission_file_/hw1_final.ipynb": b"{}",
              "Bo Chen_502_assignsubmission_file_/notes.pdf": b"%PDF"}


def _moodle_zip(path, when):
    import zipfile
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in MOODLE_ZIP.items():
            # Bo's old/ copy is a day older inside the zip
            stamp = when - timedelta(days=1) if "/old/" in name else when
            archive.writestr(zipfile.ZipInfo(name, stamp.timetuple()[:6]), data)
    return path


def test_a_zip_or_folder_of_one_folder_is_read_as_that_folder(tmp_path):
    """``zip -r hw1.zip hw1`` (Finder's "Compress" adds __MACOSX) holds the class in hw1/:
    its notebooks were all skipped as "inside a folder that is not a Moodle student's"."""
    import zipfile

    from mlcore.homework.classroom._download import read_download
    entries = {"hw1/": b"", "hw1/ada.ipynb": b"{}", "hw1/bo.ipynb": b"{}",
               "hw1/drafts/bo.ipynb": b"{}", "__MACOSX/hw1/._ada.ipynb": b"fork"}
    with zipfile.ZipFile(tmp_path / "hw1.zip", "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    found = read_download(tmp_path / "hw1.zip")
    assert [name for name, _ in found.files] == ["ada.ipynb", "bo.ipynb"]
    assert sorted(found.skipped) == [
        ("__MACOSX/hw1/._ada.ipynb", "inside a folder that is not a Moodle student's folder"),
        ("drafts/bo.ipynb", "inside a folder that is not a Moodle student's folder")]
    # unzipped, the folder that holds it is read the same way
    unzipped = tmp_path / "unzipped"
    for name, data in entries.items():
        if not name.startswith("__MACOSX") and not name.endswith("/"):
            (unzipped / name).parent.mkdir(parents=True, exist_ok=True)
            (unzipped / name).write_bytes(data)
    found = read_download(unzipped)
    assert [name for name, _ in found.files] == ["ada.ipynb", "bo.ipynb"]
    assert found.skipped == [("drafts", "a folder")]
    # Not unwrapped: a link to a folder, a Moodle student's folder (a class of one), or a
    # folder beside anything else
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "hw1").symlink_to(unzipped / "hw1")
    assert read_download(linked).skipped == [("hw1", "not a .ipynb file")]
    moodle = tmp_path / "moodle"
    (moodle / "Ada Okafor_501_assignsubmission_file_").mkdir(parents=True)
    (moodle / "Ada Okafor_501_assignsubmission_file_" / "hw1.ipynb").write_bytes(b"{}")
    found = read_download(moodle)
    assert [n for n, _ in found.files] == ["Ada Okafor_501_assignsubmission_file_hw1.ipynb"]
    (unzipped / "notes.txt").write_text("x")
    assert read_download(unzipped).files == []


def test_moodle_student_folders_and_zip_with_the_worksheets_times(tmp_path, spec):
    from mlcore.homework.classroom._download import read_download
    when = datetime(2024, 2, 1, 12, 0)        # a month late on this disk
    archive = _moodle_zip(tmp_path / "moodle.zip", when)
    folder = tmp_path / "unzipped"
    for name, data in MOODLE_ZIP.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
        os.utime(folder / name, (when.timestamp(),) * 2)
    rows = ["Ada Okafor_501_assignsubmission_file_hw1.ipynb",
            "Bo Chen_502_assignsubmission_file_hw1_final.ipynb",
            "Bo Chen_502_assignsubmission_file_old_hw1.ipynb"]
    for source in (folder, archive):
        found = read_download(source)
        assert [name for name, _ in found.files] == rows and found.moodle
        assert found.refused == []
        assert sorted(found.skipped) == [
            ("Ada Okafor_501_assignsubmission_onlinetext_/onlinetext.html",
             "Moodle's onlinetext submission, not a file"),
            ("Bo Chen_502_assignsubmission_file_/notes.pdf", "not a .ipynb file")]
    assert found.mtimes[rows[2]] == (when - timedelta(days=1)).timestamp()
    sheet = tmp_path / "worksheet.csv"
    sheet.write_text(MOODLE_SHEET, encoding="utf-8")
    # no --roster: the folders give the students, matched to the worksheet's
    # "Participant 501", whose times (not the disk's or the zip's) decide lateness
    klass = ClassOptions(_args(deadline="2024-01-01T00:00+00:00", late_policy="10%/day",
                               submission_times=str(sheet), roster_file=str(sheet)),
                         tmp_path, tmp_path / "grades.csv", found)
    kept = klass.select(found.files)
    assert [name for name, _ in kept] == rows[:2]     # Bo's newer copy in the zip
    graded = [_sub(name, 2, 3) for name, _ in kept]
    klass.annotate(graded)
    assert [(g.student, g.late) for g in graded] == [("501", "no"), ("502", "yes")]
    assert [klass.late[g.file][1:] for g in graded] == [(0.0, "the LMS's time"),
                                                        (20.0, "the LMS's time")]
    write_grades(tmp_path / "grades.csv", spec, graded)
    write_feedback(tmp_path / "fb", spec, graded)
    assert klass.finish(spec, tmp_path / "fb") == [("503", "Cy Diaz")]
    # a student's file outside their folder, or a second folder's link, is no row
    (folder / "Ada Okafor_501_assignsubmission_file_" / "x.ipynb").symlink_to(
        folder / rows[0].replace("file_", "file_/"))
    assert read_download(folder).refused == [
        ("Ada Okafor_501_assignsubmission_file_x.ipynb", "unreadable: symlink")]


def test_lms_export_and_rewritten_grades_quote_would_be_formulas(tmp_path, spec):
    from mlcore.homework.grading._report import csv_value
    # names are the students' own text in the LMS; "-" is its empty grade
    export = tmp_path / "canvas.csv"
    export.write_text(
        "Student,ID,SIS User ID,SIS Login ID,Section,Homework 1 (5501),Quiz\r\n"
        "    Points Possible,,,,,5.00,(read only)\r\n"
        '"=HYPERLINK(""http://evil"",""x"")",101,S1,a,A,,-\r\n'
        "-2+3,102,S2,b,A,,@SUM(A1)\r\n"
        "'t Hooft,103,S3,c,A,,'=x\r\n", encoding="utf-8")
    pattern = r"(?P<student>[^_]+)_(?P<id>\d+)\.ipynb"
    files = [_touch(tmp_path, "=cmd_101.ipynb", DEADLINE + timedelta(hours=1)),
             _touch(tmp_path, "+x_102.ipynb", DEADLINE)]
    klass = ClassOptions(_args(roster=pattern, deadline="2024-01-01T00:00+00:00",
                               late_policy="10%/day"), tmp_path, tmp_path / "grades.csv")
    graded = [_sub(name, 2, 3) for name, _ in klass.select(files)]
    klass.annotate(graded)
    write_grades(tmp_path / "grades.csv", spec, graded)
    write_feedback(tmp_path / "fb", spec, graded)
    klass.finish(spec, tmp_path / "fb")       # rewrites grades.csv with the penalties
    raw = list(csv.reader((tmp_path / "grades.csv").open(encoding="utf-8")))
    assert sorted(r[0] for r in raw[1:]) == ["'+x_102.ipynb", "'=cmd_101.ipynb"]
    out = tmp_path / "filled.csv"
    fill_from_grades(tmp_path / "grades.csv", export, "Homework 1 (5501)", out)
    text = out.read_bytes().decode("utf-8")
    raw = list(csv.reader(io.StringIO(text, newline="")))
    assert text.count("\r\n") == 5
    assert [r[0] for r in raw[2:]] == ["'=HYPERLINK(\"http://evil\",\"x\")", "'-2+3",
                                       "'t Hooft"]
    assert [(r[5], r[6]) for r in raw[2:]] == [("4.5", "-"), ("5", "'@SUM(A1)"), ("", "'=x")]
    # the LMS reads its cells as they are: a cell that starts with ' was copied as it
    # was (it was doubled, a changed name on import); read back, the others are the
    # LMS's own again, the new grades included
    given = list(csv.reader(io.StringIO(export.read_text(encoding="utf-8"), newline="")))
    assert raw[4] == given[4]
    back = [[csv_value(cell) for cell in row] for row in raw[:4]]
    for row in given[2:4]:
        row[5] = {"101": "4.5", "102": "5"}[row[1]]
    assert back == given[:4]


def test_gradebook_ids_go_back_as_the_lms_wrote_them(tmp_path):
    """The LMS matches the import's rows by their ids: an id that looks like a formula
    (a login '-ann', '@bo') is copied verbatim, while a name like it is still quoted."""
    from mlcore.homework.classroom._gradebook import fill_gradebook
    export = tmp_path / "moodle.csv"
    export.write_text("First name,Last name,ID number,Username,Email address,Homework 1\n"
                      "-ann,Ng,,-ann,ann@uni.edu,-\n"
                      "Bo,=Li,@7,bo,+bo@uni.edu,-\n", encoding="utf-8")
    out = tmp_path / "filled.csv"
    assert fill_gradebook(export, "Homework 1", {"-ann": 4, "+bo@uni.edu": 3}, out) == (
        2, [], [])
    raw = list(csv.reader(out.open(encoding="utf-8", newline="")))
    assert raw[1] == ["'-ann", "Ng", "", "-ann", "ann@uni.edu", "4"]
    assert raw[2] == ["Bo", "'=Li", "@7", "bo", "+bo@uni.edu", "3"]


@pytest.mark.parametrize("stop", ["reference", "class"])
def test_a_stopped_run_leaves_no_temporary_folder(tmp_path, monkeypatch, stop):
    import tempfile

    import mlcore.homework.__main__ as command
    from mlcore.homework import assign
    from mlcore.homework.grading import _grade
    from mlcore.homework.sandbox._sandbox import Limits
    from mlcore.homework.sandbox._tempdirs import make_dir, remove_dir
    item = assign([FIXTURE], tmp_path / "hw", verify=False, limits=Limits(timeout=60))[0]
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("a_1.ipynb", "b_2.ipynb"):
        shutil.copy(item.student, folder / name)
    private = tmp_path / "tmp"
    private.mkdir()
    monkeypatch.setenv("TMPDIR", str(private))
    monkeypatch.setattr(tempfile, "tempdir", None)       # read TMPDIR again
    error = KeyboardInterrupt if stop == "reference" else KeyError
    if stop == "class":                  # the reference ran; a student's run breaks
        monkeypatch.setattr(command, "_reference", lambda *a: None)
    made = []

    def broken(*args, **kwargs):
        made.append(sorted(p.name[:len("mlcore-state-")] for p in private.iterdir()))
        raise error("stopped")
    monkeypatch.setattr(_grade, "run_script", broken)
    with pytest.raises(error):
        cli(["grade", str(item.autograder), str(folder), "--out",
             str(tmp_path / "grades.csv"), "--sandbox", "none", "--jobs", "1",
             "--keep-executed", str(tmp_path / "executed")])
    assert made[0] == sorted(["mlcore-execut", "mlcore-grade-", "mlcore-state-"] + (
        ["mlcore-refere"] if stop == "reference" else []))
    assert list(private.iterdir()) == []
    # a folder a notebook made read-only inside is removed too
    run = make_dir("mlcore-grade-")
    (run / "locked" / "deep").mkdir(parents=True)
    (run / "locked" / "deep" / "x").write_text("x", encoding="utf-8")
    os.chmod(run / "locked", 0o500)
    remove_dir(run)
    assert list(private.iterdir()) == []


# ------------------------------------------------------------- the late policy


def test_late_policy_counts_started_periods_with_grace_and_cap():
    policy = parse_policy("10%/day, cap=25%, grace=15min")
    assert (policy.rate, policy.period, policy.cap, policy.grace) == (
        10, 86400, 25, 900)
    hour = 3600
    assert [policy.percent(s) for s in (-5, 0, 900, 901, 24 * hour, 24 * hour + 1,
                                        49 * hour)] == [0, 0, 0, 10, 10, 20, 25]
    assert parse_policy("2%/hour").percent(2.5 * hour) == 6
    for text, message in [("10%", "must start with a rate"),
                          ("10%/week", "must start with a rate"),
                          ("10%/day cap=half", "'cap=half' is not understood"),
                          ("10%/day grace=5 parsecs", "is not understood"),
                          ("10%/day grace=5x", "'5x' is not a duration"),
                          ("150%/day", "rate must be in")]:
        with pytest.raises(ValueError, match=message):
            parse_policy(text)
    # the LMS said late, but the time here is before the deadline: one period, named
    assert lateness(DEADLINE, DEADLINE, True, policy) == (
        True, 10, "marked late by the LMS, but its time here is not after the "
                  "deadline: charged one period")
    assert lateness(DEADLINE + timedelta(days=3), DEADLINE, False, policy) == (
        False, 0, None)


def test_extensions_move_one_students_deadline(tmp_path, capsys):
    extensions = tmp_path / "ext.csv"
    extensions.write_text("id,deadline\n12345,2024-01-04T00:00\n", encoding="utf-8")
    assert read_extensions(extensions, UTC) == {
        "12345": datetime(2024, 1, 4, tzinfo=UTC)}
    files = [_touch(tmp_path, "smithjane_LATE_12345_1_x.ipynb",
                    DEADLINE + timedelta(2)),
             _touch(tmp_path, "leekim_LATE_12346_2_x.ipynb", DEADLINE + timedelta(2))]
    klass = ClassOptions(_args(roster=CANVAS, deadline="2024-01-01T00:00+00:00",
                               extensions=str(extensions), late_policy="10%/day"),
                         tmp_path, tmp_path / "grades.csv")
    graded = [_sub(name, 2, 3) for name, _ in klass.select(files)]
    klass.annotate(graded)
    assert [(g.student, g.late, klass.late[g.file][1]) for g in graded] == [
        ("12346", "yes", 20.0), ("12345", "no", 0.0)]
    assert "--extensions names students" not in capsys.readouterr().err
    extensions.write_text("id,deadline\n12354,2024-01-04T00:00\n", encoding="utf-8")
    klass = ClassOptions(_args(roster=CANVAS, deadline="2024-01-01T00:00+00:00",
                               extensions=str(extensions)),
                         tmp_path, tmp_path / "g.csv")
    klass.select(files)
    assert "--extensions names students with no file: 12354" in capsys.readouterr().err
    extensions.write_text("id,deadline\n1,2024-01-04\n1,2024-01-05\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 3: student '1' is listed twice"):
        read_extensions(extensions, UTC)


def test_class_options_are_checked_before_grading(tmp_path):
    for given, message in [(dict(late_policy="10%/day"), "need.* --deadline"),
                           (dict(deadline="2024-01-01", roster_file="x.csv"),
                            "--roster-file need.* --roster"),
                           (dict(deadline="tomorrow"), "--deadline 'tomorrow' is not")]:
        with pytest.raises(ValueError, match=message):
            ClassOptions(_args(**given), tmp_path, tmp_path / "grades.csv")
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\n1,Ann\n1,Ann again\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 3: student id '1' is listed twice"):
        read_enrolment(roster)
    roster.write_text("who,what\n", encoding="utf-8")
    with pytest.raises(ValueError, match="expected 'id'"):
        read_enrolment(roster)


# ------------------------------------------------- missing students and penalties


def test_missing_students_get_zero_rows_in_csv_summary_and_gradebook(tmp_path, spec):
    canvas = GRADEBOOKS / "canvas_export.csv"
    assert read_enrolment(canvas) == {"101": "Smith, Alice", "102": "Jones, Bob",
                                      "103": "Lee, Carol"}
    times = tmp_path / "times.csv"
    times.write_text("id,submitted\n101,2023-12-31T12:00+00:00\n"
                     "102,2024-01-02T01:00+00:00\n", encoding="utf-8")
    files = [_touch(tmp_path, "smithalice_101_1_hw.ipynb", DEADLINE),
             _touch(tmp_path, "jonesbob_LATE_102_2_hw.ipynb", DEADLINE)]
    grades = tmp_path / "grades.csv"
    klass = ClassOptions(_args(roster=CANVAS, deadline="2024-01-01T00:00+00:00",
                               roster_file=str(canvas), submission_times=str(times),
                               late_policy="10%/day cap=50%"), tmp_path, grades)
    graded = [_sub(name, 2, 3) for name, _ in klass.select(files)]
    klass.annotate(graded)
    write_grades(grades, spec, graded)
    write_feedback(tmp_path / "fb", spec, graded)
    missing = klass.finish(spec, tmp_path / "fb")
    assert missing == [("103", "Lee, Carol")]
    header = next(csv.reader(grades.open(encoding="utf-8")))
    assert header[header.index("late"):header.index("late") + 4] == [
        "late", "late_penalty_pct", "late_penalty", "final"]
    rows = _rows(grades)
    assert [(r["student"], r["total"], r["status"], r["late_penalty_pct"],
             r["late_penalty"], r["final"]) for r in rows.values()] == [
        ("102", "5", "ok", "20", "1", "4"), ("101", "5", "ok", "0", "0", "5"),
        ("103", "0", "missing", "0", "0", "0")]
    assert "(missing) 103 Lee, Carol" in rows
    assert "Late penalty: 20% of your score (1 points); final score 4 / 6" in (
        tmp_path / "fb" / "jonesbob_LATE_102_2_hw.md").read_text(encoding="utf-8")
    assert "Late penalty" not in (tmp_path / "fb" / "smithalice_101_1_hw.md").read_text(
        encoding="utf-8")
    summary = tmp_path / "grades_summary.md"
    summary.write_text("# Class summary\n\n| table |\n\nStatus: 2 ok.\n\n## More\n",
                       encoding="utf-8")
    note_missing(summary, missing)
    assert ("Status: 2 ok.\n\nMissing: 1 enrolled student(s) handed in nothing "
            "(status missing, 0 points; not in the table above): Lee, Carol (103)."
            "\n\n## More") in summary.read_text(encoding="utf-8")
    lines = fill_from_grades(grades, canvas, "Homework 1 (5501)",
                             tmp_path / "filled.csv")
    filled = list(csv.reader((tmp_path / "filled.csv").open(encoding="utf-8")))
    assert [r[5] for r in filled[2:]] == ["5", "4", "0"]     # alice, bob (late), carol
    assert lines == [f"Filled 3 rows of {tmp_path / 'filled.csv'} (Homework 1 (5501), "
                     "from grades.csv's 'final'); 1 enrolled student(s) with no "
                     "submission get 0"]
    # Carol hands in later: her missing row goes, even without --roster-file
    klass = ClassOptions(_args(), tmp_path, grades)
    with grades.open("a", encoding="utf-8") as handle:
        handle.write("leecarol_103_3_hw.ipynb,103,1,1,,2,ok,no,0,0,2,,1.0,10\n")
    klass.finish(spec, tmp_path / "fb")
    assert [r["student"] for r in _rows(grades).values()] == ["102", "103", "101"]


# ------------------------------------------------------ finding 12: merge


def test_merge_writes_scores_and_comments_into_feedback_and_refills_the_export(tmp_path,
                                                                               spec):
    auto = tmp_path / "autograder"
    auto.mkdir()
    (auto / "autograder.json").write_text(json.dumps(spec), encoding="utf-8")
    grades, feedback = tmp_path / "grades.csv", tmp_path / "grades_feedback"
    graded = [_sub("smithalice_101_1_hw.ipynb", 2, 3, "101"),
              _sub("jonesbob_102_2_hw.ipynb", 0, 1.5, "102")]
    write_grades(grades, spec, graded)
    write_feedback(feedback, spec, graded)
    before = (feedback / "jonesbob_102_2_hw.md").read_text(encoding="utf-8")
    assert "- ex99-gradient: graded by your teacher (out of 1)" in before
    manual = tmp_path / "manual.csv"
    manual.write_text("file,ex99-gradient,ex99-gradient_comment\n"
                      "smithalice_101_1_hw.ipynb,1,\"Clear.\nAnd short.\"\n"
                      "jonesbob_102_2_hw.ipynb,0.5,The sign of the gradient is "
                      "wrong.\n",
                      encoding="utf-8")
    export = GRADEBOOKS / "canvas_export.csv"
    assert cli(["merge", str(auto), str(grades), str(manual), "--gradebook",
                str(export), "--gradebook-column", "Homework 1 (5501)"]) == 0
    bob = (feedback / "jonesbob_102_2_hw.md").read_text(encoding="utf-8")
    assert "- ex99-gradient: 0.5 / 1 (graded by your teacher)\n  - your teacher's " \
           "comment: The sign of the gradient is wrong.\n" in bob
    assert "Autograded score: 1.5 / 5\nTotal with your teacher's scores: 2 / 6\n" in bob
    assert "graded by your teacher (out of" not in bob
    alice = (feedback / "smithalice_101_1_hw.md").read_text(encoding="utf-8")
    assert "comment: Clear.\n    And short.\n" in alice
    filled = list(csv.reader((tmp_path / "canvas_export_filled.csv").open(
        encoding="utf-8")))
    assert [r[5] for r in filled[2:]] == ["6", "2", ""]
    # a corrected score replaces what the first merge wrote; nothing is repeated
    manual.write_text("file,ex99-gradient\njonesbob_102_2_hw.ipynb,1\n",
                      encoding="utf-8")
    assert cli(["merge", str(auto), str(grades), str(manual)]) == 0
    bob = (feedback / "jonesbob_102_2_hw.md").read_text(encoding="utf-8")
    assert bob.count("ex99-gradient") == 1 and "comment" not in bob
    assert "- ex99-gradient: 1 / 1 (graded by your teacher)" in bob
    assert bob.count("Total with your teacher's scores: 2.5 / 6") == 1
    # a comment for a question that is not a pen-and-paper one is refused
    manual.write_text("file,ex99-mse_comment\njonesbob_102_2_hw.ipynb,no\n",
                      encoding="utf-8")
    assert cli(["merge", str(auto), str(grades), str(manual)]) == 2


def test_merge_recomputes_the_late_penalty_from_the_new_total(tmp_path, spec):
    grades = tmp_path / "grades.csv"
    grades.write_text("file,student,ex99-sigmoid,ex99-mse,ex99-gradient,total,status,"
                      "late,"
                      "late_penalty_pct,late_penalty,final,flags,cpu_seconds,peak_mb\n"
                      "a.ipynb,1,2,3,1,6,ok,yes,20,1,4,,1.0,10\n", encoding="utf-8")
    assert refresh_penalties(grades)
    row = _rows(grades)["a.ipynb"]
    assert (row["late_penalty"], row["final"]) == ("1.2", "4.8")


# ------------------------------------------------------------- end to end


def test_grade_with_the_class_options_end_to_end(tmp_path, capsys):
    from mlcore.homework import assign
    from mlcore.homework.sandbox._sandbox import Limits
    item = assign([FIXTURE], tmp_path / "hw", verify=False,
                  limits=Limits(timeout=60))[0]
    folder = tmp_path / "canvas"
    folder.mkdir()
    solution = item.autograder / f"{item.chapter}.ipynb"
    nb = json.loads(solution.read_text(encoding="utf-8"))
    nb["cells"].append({"cell_type": "code", "id": "big", "metadata": {}, "outputs": [],
                        "execution_count": None,
                        "source": "print('x' * 300_000)\nprint(sigmoid(0.0))"})
    (folder / "smithalice_LATE_101_7_hw.ipynb").write_text(json.dumps(nb),
                                                           encoding="utf-8")
    shutil.copy(item.student, folder / "smithalice_101_3_hw.ipynb")
    grades = tmp_path / "grades.csv"
    export = GRADEBOOKS / "canvas_export.csv"
    (tmp_path / "ext.csv").write_text("id,deadline\n", encoding="utf-8")
    (tmp_path / "times.csv").write_text("id,submitted\n101,2024-01-02T12:00+00:00\n",
                                        encoding="utf-8")
    assert cli(["grade", str(item.autograder), str(folder), "--out", str(grades),
                "--timeout", "60", "--roster", CANVAS, "--roster-file", str(export),
                "--deadline", "2024-01-01T00:00+00:00", "--late-policy", "10%/day",
                "--submission-times", str(tmp_path / "times.csv"),
                "--extensions", str(tmp_path / "ext.csv"),
                "--gradebook", str(export), "--gradebook-column", "Homework 1 (5501)",
                "--keep-executed", str(tmp_path / "executed")]) == 0
    out, err = capsys.readouterr()
    assert "superseded by smithalice_LATE_101_7_hw.ipynb (same student, larger " \
           "submission number)" in err
    assert "Missing: 2 enrolled student(s) handed in nothing" in out
    rows = _rows(grades)
    alice = rows["smithalice_LATE_101_7_hw.ipynb"]
    assert (alice["total"], alice["late"], alice["late_penalty_pct"],
            alice["final"]) == ("5", "yes", "20", "4")
    assert [r["status"] for r in rows.values()] == ["ok", "missing", "missing"]
    filled = list(csv.reader((tmp_path / "canvas_export_filled.csv").open(
        encoding="utf-8")))
    assert [r[5] for r in filled[2:]] == ["4", "0", "0"]
    kept = tmp_path / "executed" / "smithalice_LATE_101_7_hw.ipynb"
    kept = json.loads(kept.read_text(encoding="utf-8"))
    big = kept["cells"][-1]                   # the appended cell, capped
    text = "".join("".join(o.get("text", "")) for o in big["outputs"])
    assert "300_000" in "".join(big["source"]) and text.startswith("x" * 1000)
    assert "0.5\n" not in text and "[mlcore: outputs cut at 100 kB per cell]" in text
    assert len(json.dumps(big["outputs"])) < 101_000
    small = "".join("".join(o.get("text", "")) for c in kept["cells"][:-1]
                    for o in c["outputs"])
    assert "[0.531 0.467 0.655 0.526 0.369]" in small       # use-sigmoid's print, whole
    assert all(c["metadata"]["homework"]["cell"] >= 1 for c in kept["cells"])
