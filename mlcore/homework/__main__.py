"""Command line of the homework tool: ``python -m mlcore.homework --help``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .editions import LANGUAGES

# nbformat imports jsonschema, whose optional IRI format check (rfc3987_syntax)
# compiles a grammar for seconds at import; this tool never validates IRIs.
sys.modules.setdefault("rfc3987_syntax", None)

EPILOG = """examples:
  python -m mlcore.homework assign 01 --out homework_out
  python -m mlcore.homework assign 03 --out homework_zh --language zh_CN   # Chinese edition
  python -m mlcore.homework grade homework_out/autograder/01_logistic_regression submissions/ --out grades.csv
  python -m mlcore.homework grade ... --out grades.csv --update --only alice.ipynb   (regrade one)
  python -m mlcore.homework merge homework_out/autograder/01_logistic_regression grades.csv manual.csv
  python -m mlcore.homework check 01_logistic_regression.ipynb      (a student, before handing in)
  python -m mlcore.homework quiz 01 03 --format moodle --out quizzes   (self-checks for an LMS)
"""


def _limits(args):
    from . import Limits
    return Limits(timeout=args.timeout, memory_mb=args.memory, sandbox=args.sandbox)


def _add_limits(parser, timeout):
    parser.add_argument("--timeout", type=float, default=timeout,
                        help=f"CPU seconds per notebook, and again for its checks "
                             f"(default {timeout:g}); a run whose CPU time stops growing "
                             "(less than 1 s in 30 s) is stopped as stalled")
    parser.add_argument("--memory", type=float, default=4096,
                        help="address-space limit per process in MiB (default 4096)")
    parser.add_argument("--sandbox", choices=["auto", "bwrap", "none"], default="auto",
                        help="bubblewrap isolation: 'auto' (default) uses it; where it does "
                             "not work, grade refuses to run (assign and check, which run "
                             "your own notebooks, run without it); 'none' runs plain "
                             "processes of your user")
    parser.add_argument("--jobs", type=int, default=None,
                        help="notebooks run at once (default: the CPU cores this process may "
                             "use; limits count CPU time, so load does not cost points)")


def cmd_assign(args) -> int:
    from . import assign, find_chapters
    items = assign(find_chapters(args.chapters), args.out, verify=not args.no_verify,
                   limits=_limits(args), jobs=args.jobs, progress=print,
                   language=args.language)
    if not items:
        print("None of these chapters has exercises: nothing written.", file=sys.stderr)
        return 1
    problems = [(item.chapter, p) for item in items for p in item.problems]
    for chapter, problem in problems:
        print(f"error: {chapter}: {problem}", file=sys.stderr)
    if args.bundle and not problems:
        from .editions import write_bundle
        line = write_bundle(items, args.bundle)
        print(f"wrote {args.bundle}: hand it out; students install with\n    {line}")
    return 1 if problems else 0


def cmd_grade(args) -> int:
    from . import add_extra_tests, grade_submissions, load_spec, write_feedback, write_grades
    from .grading import (add_same_as, check_output_paths, merge_manual_scores,
                          refused_submission)
    from .sandbox import describe_isolation, isolation_for
    spec = load_spec(args.autograder)
    if args.extra_tests:
        spec = add_extra_tests(spec, args.extra_tests)
    limits = _limits(args)
    if args.scheduler:
        from .._parallel import check_scheduler
        check_scheduler(args.scheduler)     # before the reference run, not after it
        if args.jobs is not None:
            raise ValueError("give --jobs (processes on this machine) or --scheduler (a "
                             "Dask cluster's workers), not both.")
    isolation = isolation_for(limits)      # refuses "auto" without a working bubblewrap
    print(f"Isolation: {describe_isolation(isolation)}", flush=True)
    folder = Path(args.submissions)
    out = Path(args.out)
    feedback = Path(args.feedback) if args.feedback else out.parent / f"{out.stem}_feedback"
    check_output_paths(out, feedback)
    out.parent.mkdir(parents=True, exist_ok=True)     # the journal is written from the start
    from .classroom import (backup, check_overwrite, digest, grading_key, hashes_path,
                            read_rows, rows_path, select_changed, write_rows,
                            write_updated)
    if args.only and not args.update:
        raise ValueError("--only names the files that --update regrades; add --update.")
    check_overwrite(out, spec, update=args.update, force=args.force)
    # Read every file before running any: a submission cannot remove or change the others.
    from .classroom import read_download
    download = read_download(folder)    # a folder, Moodle's student folders, or a zip
    files, refused, skipped = download.files, download.refused, download.skipped
    if args.gradebook and not ((args.roster or download.moodle) and args.gradebook_column):
        raise ValueError("--gradebook needs --roster (to know each file's student; "
                         "Moodle's student folders give it) and --gradebook-column (the "
                         "assignment's column).")
    for name, reason in skipped:
        print(f"skipped {name!r}: {reason}", file=sys.stderr)
    if not files and not refused:
        raise FileNotFoundError(f"SUBMISSIONS {str(folder)!r} holds no .ipynb files.")
    from .classroom import ClassOptions, executed_keeper
    klass = ClassOptions(args, folder, out, download)  # roster, deadline, late policy
    files = klass.select(files)
    if args.update:
        files = select_changed(files, out, args.only)
        if args.only:
            refused = [r for r in refused if r[0] in {Path(n).name for n in args.only}]
        print(f"--update: grading {len(files) + len(refused)} new, changed or named "
              "file(s); the other rows are kept", flush=True)
    from .classroom import append_journal, journal_path, read_journal
    key = grading_key(spec, limits)
    resumed, stale = ({}, 0) if args.update else read_journal(out, spec, files, key)
    if stale:
        print(f"the journal {journal_path(out).name} is stale for {stale} submission(s): the "
              "tests, the limits or the grader changed since it was written; they are graded "
              "again", flush=True)
    if resumed:
        print(f"resuming an interrupted run: {len(resumed)} submission(s) already graded "
              f"({journal_path(out).name})", flush=True)
    data_of = dict(files)
    files = [(name, data) for name, data in files if name not in resumed]
    hide = [folder, args.autograder, out, feedback, journal_path(out), rows_path(out)] + (
        [args.extra_tests] if args.extra_tests else [])
    if args.manual_scores:
        hide.append(args.manual_scores)
    kept = klass.private_executed(hide)          # --keep-executed: None without it
    start, done = time.perf_counter(), []
    count = len(files) + len(refused) + len(resumed)

    def progress(graded):
        if graded.file in data_of and graded.file not in resumed:
            append_journal(out, spec, graded, data_of[graded.file], key)
        done.append(graded)
        print(f"[{len(done)}/{count}] {graded.file}: {graded.status}, "
              f"{graded.total:g} points", flush=True)

    graded = [refused_submission(name, reason, spec) for name, reason in refused]
    graded += list(resumed.values())
    for item in graded:
        progress(item)
    from .sandbox import adopt_orphans
    hide = [Path(h).absolute() for h in hide]
    reference = _reference(args, spec, hide)
    with adopt_orphans():
        if args.scheduler:      # one task per submission on a Dask cluster
            from .grading import grade_on_cluster
            graded += grade_on_cluster(spec, files, limits, scheduler=args.scheduler,
                                       hide=hide, progress=progress, reference=reference,
                                       same_as=False, keep_executed=executed_keeper(kept))
        else:
            graded += grade_submissions(spec, files, limits, jobs=args.jobs, hide=hide,
                                        progress=progress, reference=reference,
                                        same_as=False, keep_executed=executed_keeper(kept))
    graded.sort(key=lambda g: g.file)
    klass.annotate(graded)
    # The whole class: this run's rows and, with --update, every row kept from before.
    everyone = read_rows(out, spec) if args.update else {}
    everyone.update({g.file: g for g in graded})
    add_same_as(spec, list(everyone.values()))
    # Outputs are written only now, when every run has ended, without following links;
    # grades.csv first, so that nothing after it can lose the grades.
    if args.update:
        write_updated(out, spec, graded, files,
                      flags={file: g.flags for file, g in everyone.items()})
    else:
        backup(out)
        write_grades(out, spec, graded)
        from .grading import _write_nofollow
        _write_nofollow(hashes_path(out), json.dumps(
            {name: digest(data) for name, data in files}, indent=1, sort_keys=True) + "\n")
    write_rows(out, [everyone[name] for name in sorted(everyone)])
    for file, why in write_feedback(feedback, spec, graded):
        print(f"warning: the feedback of {file!r} could not be written: {why}",
              file=sys.stderr)
    if args.manual_scores:
        _merge(out, args.manual_scores, spec, None, merge_manual_scores)
    missing = klass.finish(spec, feedback, kept)
    if args.gradebook:
        _gradebook(args, out, graded)
    from .classroom import write_summary
    summary = out.with_name(f"{out.stem}_summary.md")
    check_output_paths(summary, summary.with_suffix(".png"))
    for line in write_summary(summary, spec, [everyone[name] for name in sorted(everyone)],
                              isolation=describe_isolation(isolation)):
        print(line)
    from .classroom import note_missing
    for line in note_missing(summary, missing):
        print(line)
    journal_path(out).unlink(missing_ok=True)
    print(f"Graded {len(graded)} submissions in {time.perf_counter() - start:.0f} s: "
          f"wrote {out}, {summary.name} and {feedback}/"
          + (f"; skipped {len(skipped)} entries (listed above)" if skipped else ""))
    return 0


def _reference(args, spec, hide):
    """Run the teacher's notebook of the autograder folder: the checks' trusted namespace.

    Its snapshots are read into memory with their SHA-256 (:class:`Reference`)
    and the folder is removed before any submission runs, so no run can reach
    them, whatever the sandbox.
    """
    from .grading import Reference, chapter_cell_sources, make_reference
    folder = Path(args.autograder)
    folder = folder.parent if folder.suffix == ".json" else folder
    notebook = folder / f"{spec['chapter']}.ipynb"
    if not notebook.is_file():
        raise FileNotFoundError(f"{notebook} (the reference solution that assign wrote next to "
                                "autograder.json) is missing: the checks take the chapter's "
                                "names and data from a run of it.")
    if not spec.get("cell_sources"):    # an autograder.json written before they were recorded
        import nbformat
        spec["cell_sources"] = chapter_cell_sources(nbformat.read(notebook, as_version=4))
    from .sandbox import make_dir, remove_dir
    reference = make_dir("mlcore-reference-")
    print(f"Running the reference solution {notebook} ...", flush=True)
    try:
        graded = make_reference(spec, notebook.read_bytes(), _limits(args), reference,
                                hide=hide)
        snapshots = Reference.read(reference)
    finally:
        remove_dir(reference)
    coded = sum(q["points"] for q in spec["questions"] if not q["manual"])
    if graded.status != "ok" or abs(graded.total - coded) > 1e-9:
        raise RuntimeError(f"the reference solution {notebook} does not get full marks "
                           f"({graded.total:g} of {coded:g}, status {graded.status}): "
                           + "; ".join(graded.notes + [f for fs in graded.failures.values()
                                                       for f in fs])[:1000])
    return snapshots


def _gradebook(args, out, graded) -> None:
    """Fill the teacher's Canvas or Moodle export with the totals of grades.csv."""
    from .classroom import fill_from_grades
    for line in fill_from_grades(out, args.gradebook, args.gradebook_column):
        print(line, file=sys.stderr if line.startswith("warning:") else sys.stdout)


def _merge(grades, manual, spec, out, merge):
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        merge(grades, manual, spec, out=out)
    for warning in caught:
        print(f"warning: {warning.message}", file=sys.stderr)


def cmd_merge(args) -> int:
    from . import load_spec, merge_manual_scores
    spec = load_spec(args.autograder)
    if bool(args.gradebook) != bool(args.gradebook_column):
        raise ValueError("--gradebook and --gradebook-column go together.")
    _merge(args.grades, args.manual, spec, args.out, merge_manual_scores)
    print(f"Merged {args.manual} into {args.out or args.grades}")
    from .classroom import merge_followups
    merge_followups(args, spec)
    return 0


def cmd_check(args) -> int:
    import tempfile

    from . import build_spec, grade_one, read_notebook, write_feedback
    path = Path(args.notebook)
    nb, problem = read_notebook(path.read_bytes())
    if nb is None:
        raise ValueError(f"{path} cannot be checked: {problem}.")
    meta = nb.get("metadata", {}).get("homework") or {}
    chapter = meta.get("chapter") if isinstance(meta.get("chapter"), str) else path.stem
    spec = build_spec(nb, chapter)
    print(f"Running {path} (chapter {chapter}) with its public tests (the hidden ones run when "
          "your teacher grades) ...", flush=True)
    graded = grade_one(path.name, path.read_bytes(), spec, _limits(args))
    with tempfile.TemporaryDirectory() as folder:
        write_feedback(folder, spec, [graded])
        print(next(Path(folder).glob("*.md")).read_text(encoding="utf-8"))
    for q in spec["questions"]:
        if not q["manual"]:
            passed = len(q["tests"]) - len([f for f in graded.failures[q["name"]]
                                            if f.startswith("public check")])
            print(f"{q['name']}: public checks passed: {passed} of {len(q['tests'])}, worth "
                  f"{graded.scores[q['name']]:g} of {q['points']:g} points here; when your "
                  "teacher grades, tests you cannot see decide part of the points.")
    coded = sum(q["points"] for q in spec["questions"] if not q["manual"])
    return 0 if graded.status == "ok" and abs(graded.total - coded) < 1e-9 else 1


def cmd_quiz(args) -> int:
    from . import find_chapters
    from .editions import export_quizzes
    export_quizzes(find_chapters(args.chapters), args.format, args.out,
                   language=args.language, say=print)
    return 0


def _add_class_options(parser):
    parser.add_argument("--roster-file", metavar="CSV",
                        help="enrolment list (id,name; or the Canvas gradebook export "
                             "or Moodle grading worksheet): each student with no file "
                             "gets a 'missing' row with 0 points (needs --roster)")
    parser.add_argument("--late-policy", metavar="POLICY",
                        help="e.g. '10%%/day cap=50%% grace=15min': percent of the "
                             "score deducted per started day (or hour) late, in the "
                             "columns late_penalty_pct, late_penalty and final (needs "
                             "--deadline)")
    parser.add_argument("--extensions", metavar="CSV",
                        help="columns id,deadline: a student's own deadline (ISO 8601)")
    parser.add_argument("--submission-times", metavar="CSV",
                        help="the LMS's submission times: Moodle's grading worksheet, "
                             "or columns id,submitted (ISO 8601); default: file times")
    parser.add_argument("--keep-executed", metavar="DIR",
                        help="keep each notebook as it ran, with its outputs (at most "
                             "100 kB per cell), as DIR/<file>, for appeals")


def _add_merge_options(parser):
    parser.add_argument("--feedback", metavar="DIR",
                        help="the feedback folder grade wrote (default: next to "
                             "GRADES, <GRADES stem>_feedback): manual scores and "
                             "<question>_comment columns are written into each "
                             "student's file")
    parser.add_argument("--gradebook", metavar="FILE",
                        help="refill this Canvas or Moodle export with the merged "
                             "totals (as grade --gradebook)")
    parser.add_argument("--gradebook-column", metavar="COLUMN",
                        help="the gradebook's column of this assignment")


def parser() -> argparse.ArgumentParser:
    """Build the argument parser of ``python -m mlcore.homework``."""
    main = argparse.ArgumentParser(
        prog="python -m mlcore.homework", epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Student editions of the chapters, a sandboxed autograder and LMS quizzes.")
    sub = main.add_subparsers(dest="command", required=True)

    p = sub.add_parser("assign", help="write student editions and autograders, and verify them")
    p.add_argument("chapters", nargs="*", metavar="CHAPTER",
                   help="chapter number (01) or notebook path; none means every chapter")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--bundle", metavar="ZIP",
                   help="also write a zip to hand out: the mlcore wheel, the student notebooks "
                        "and their requirements.txt (no solution, no hidden test)")
    p.add_argument("--no-verify", action="store_true",
                   help="skip running the solution and the untouched student edition")
    p.add_argument("--language", choices=LANGUAGES, default="en",
                   help="language of the Markdown cells: zh_CN translates them from "
                        "locales/zh_CN (the Chinese edition); code and tests stay the same")
    _add_limits(p, 300)
    p.set_defaults(run=cmd_assign)

    p = sub.add_parser("grade", help="grade every .ipynb of a folder")
    p.add_argument("autograder", help="DIR/autograder/NN_name, written by assign")
    p.add_argument("submissions", help="folder of submitted .ipynb files, Moodle's "
                                       "download (its student folders) or a .zip of either "
                                       "(one folder alone inside is read as the folder)")
    p.add_argument("--out", required=True, help="the CSV to write, e.g. grades.csv")
    p.add_argument("--feedback", help="folder of per-student feedback (default: next to --out, "
                                      "named <out>_feedback)")
    p.add_argument("--extra-tests", help="folder of private tests: <question>.py or "
                                         "<question>/*.py, run as hidden tests")
    p.add_argument("--manual-scores", help="CSV of pen-and-paper scores to merge (see merge)")
    p.add_argument("--update", action="store_true",
                   help="grade only new or changed files (or those named with --only) and keep "
                        "every other row of --out and its manual scores")
    p.add_argument("--only", action="append", default=[], metavar="FILE",
                   help="with --update: regrade this submission (repeatable)")
    p.add_argument("--roster", metavar="PATTERN",
                   help="regular expression with a group (?P<student>...) or (?P<id>...) "
                        "matched against file names: adds a 'student' column and grades only "
                        "each student's latest file")
    p.add_argument("--deadline", metavar="WHEN",
                   help="ISO 8601 date and time: adds a 'late' column (see README: "
                        "LMS marker, --submission-times, or the file's time here)")
    p.add_argument("--gradebook", metavar="FILE",
                   help="a gradebook CSV exported from Canvas or Moodle: writes "
                        "<FILE stem>_filled.csv next to --out with the totals (needs --roster)")
    p.add_argument("--gradebook-column", metavar="COLUMN",
                   help="the gradebook's column of this assignment, e.g. 'Homework 1 (123)'")
    p.add_argument("--force", action="store_true",
                   help="overwrite an --out that holds merged manual scores (a .bak is kept)")
    p.add_argument("--scheduler", metavar="local:N|ADDRESS",
                   help="grade on a Dask cluster, one task per submission, instead of "
                        "--jobs processes here: local:N starts N worker processes on this "
                        "machine; tcp://host:8786 is a running scheduler (dask-jobqueue, "
                        "dask-kubernetes). Every worker needs the course's requirements "
                        "and bubblewrap; no shared file system")
    _add_class_options(p)
    _add_limits(p, 180)
    p.set_defaults(run=cmd_grade)

    p = sub.add_parser("merge", help="merge pen-and-paper scores into grades.csv")
    p.add_argument("autograder", help="DIR/autograder/NN_name (for the points)")
    p.add_argument("grades", help="grades.csv written by grade")
    p.add_argument("manual", help="CSV with a 'file' column and one column per manual question")
    p.add_argument("--out", help="write here instead of overwriting GRADES")
    _add_merge_options(p)
    p.set_defaults(run=cmd_merge)

    p = sub.add_parser("check", help="run your notebook with its public tests (students)")
    p.add_argument("notebook")
    _add_limits(p, 180)
    p.set_defaults(run=cmd_check)

    p = sub.add_parser(
        "quiz", help="export the chapters' self-checks as an LMS quiz (Moodle or Canvas)",
        description="Write the self-checks of the chapters as multiple-choice questions: "
                    "--format moodle gives OUT/self-checks.xml (Moodle XML: Question bank > "
                    "Import), one category per chapter; --format qti gives "
                    "OUT/self-checks-qti.zip (QTI 1.2: Canvas, Settings > Import course "
                    "content > QTI .zip file), one quiz per chapter. Each option keeps its "
                    "feedback; math is TeX between \\( \\) for the LMS's MathJax.")
    p.add_argument("chapters", nargs="*", metavar="CHAPTER",
                   help="chapter number (01) or notebook path; none means every chapter")
    p.add_argument("--format", required=True, choices=["moodle", "qti"],
                   help="moodle (Moodle XML) or qti (a QTI 1.2 zip that Canvas imports)")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--language", choices=LANGUAGES, default="en",
                   help="language of the questions: zh_CN takes them from locales/zh_CN "
                        "(the Chinese edition)")
    p.set_defaults(run=cmd_quiz)
    return main


def main(argv=None) -> int:
    """Run the command line; return the exit status."""
    from .sandbox import remove_matplotlib_cache
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except (ValueError, TypeError, OSError, RuntimeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        from .sandbox import remove_all
        remove_all()        # the folders of a command stopped by an error or Ctrl-C
        remove_matplotlib_cache()


if __name__ == "__main__":
    sys.exit(main())
