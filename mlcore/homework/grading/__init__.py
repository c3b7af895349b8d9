"""Grading: read a chapter's exercises, run a submission, score, flag and report it.

Above :mod:`~mlcore.homework.sandbox`, whose processes it uses; it knows
nothing of editions or of the class. ``_format.py`` reads the exercise markup
of a chapter (tags, questions, solutions) and ``_spec.py`` the autograder's
specification built from it; ``_plan.py`` finds each question's answers in a
submission, ``_rules.py`` applies ``forbid``, ``_grade.py`` runs and scores
(against the teacher's reference namespaces, ``_reference.py``), ``_flags.py``
adds the review flags, ``_text.py`` makes untrusted text safe for feedback and
``_report.py`` reads the submissions folder and writes grades.csv and feedback;
``_dask.py`` sends a class's submissions to a Dask cluster, one task each.
"""

# the editions derive the student's and the autograder's notebooks from the same reading
from ._format import (META_KEY, FormatError, Question, _source, _where,  # noqa: F401
                      check_chapter, check_notebook, parse_questions, stub_solution,
                      tags_of)
from ._grade import (MAX_FILE_BYTES, SPEC_NAME, STATUSES, Submission, add_extra_tests,
                     add_same_as, build_spec, check_jobs, check_spec, default_jobs,
                     grade_one, grade_submissions, load_spec, make_reference,
                     read_notebook, safe_failure)
from ._dask import SchedulerLost, WorkerRefused, grade_on_cluster
from ._plan import MAX_BYTES
from ._reference import Reference
# the classroom's files go through the same safe readers and writers as grades.csv
from ._report import (SYMLINK, _number, _path, _read_csv, _read_nofollow,  # noqa: F401
                      _write_nofollow, check_output_paths, csv_lines, csv_text,
                      merge_manual_scores, name_problem, refused_submission, shown_name,
                      write_feedback, write_grades)
from ._spec import chapter_cell_sources
from ._text import md_text

__all__ = ["META_KEY", "FormatError", "Question", "check_chapter", "check_notebook",
           "parse_questions", "stub_solution", "tags_of", "MAX_BYTES", "MAX_FILE_BYTES",
           "SPEC_NAME", "STATUSES", "Submission", "add_extra_tests", "add_same_as",
           "build_spec", "check_jobs", "check_spec", "default_jobs", "grade_one",
           "grade_submissions", "load_spec", "make_reference", "read_notebook",
           "safe_failure", "Reference", "SYMLINK", "check_output_paths", "csv_lines",
           "csv_text", "merge_manual_scores", "name_problem", "refused_submission",
           "shown_name", "write_feedback", "write_grades", "chapter_cell_sources",
           "md_text", "grade_on_cluster", "WorkerRefused",
           "SchedulerLost"]
