"""Homework from the chapters: student editions and a sandboxed autograder.

One chapter notebook is the only source of its exercises (format in
CONTRIBUTING.md, "Exercises and homework"). From it,

* :func:`assign` writes the student edition (solutions replaced by ``...``,
  no hidden tests, no heavy demos, no outputs) and the autograder (the
  solution and every test), and checks that the solution gets full marks
  while the untouched student edition gets none;
* :func:`grade_submissions` runs each submission's cells in its own sandbox
  (bubblewrap where it works) with CPU-time and resource limits, in
  parallel; each question's tests then run in a process where no code of
  the submission runs, on the names of a trusted run of the teacher's
  notebook (:func:`make_reference`), calling the submission's answers in
  another process that sends back plain data only. A question's points are shared equally (or by ``points:N`` tags) by
  its test cells.

The command line is ``python -m mlcore.homework {assign,grade,merge,check,quiz}``;
README.md, "For teachers", walks through it.

Examples
--------
>>> from mlcore.homework import stub_solution
>>> stub_solution("p = 1 / (1 + np.exp(-z))  # SOLUTION")
'p = ...'
"""

from .classroom import collect_submissions
from .editions import (Assigned, assign, autograder_notebook, find_chapters,
                       student_edition)
from .grading import (STATUSES, FormatError, Question, Submission, add_extra_tests,
                      build_spec, check_notebook, check_spec, default_jobs, grade_one,
                      grade_submissions, load_spec, make_reference, merge_manual_scores,
                      parse_questions, read_notebook, safe_failure, stub_solution,
                      write_feedback, write_grades)
from .sandbox import Limits, bubblewrap_available

__all__ = [
    "Assigned", "assign", "find_chapters",
    "FormatError", "Question", "autograder_notebook", "check_notebook", "parse_questions",
    "student_edition",
    "stub_solution",
    "STATUSES", "Submission", "add_extra_tests", "build_spec", "check_spec", "collect_submissions",
    "default_jobs", "grade_one", "grade_submissions", "load_spec", "make_reference",
    "merge_manual_scores",
    "read_notebook", "safe_failure", "write_feedback", "write_grades",
    "Limits", "bubblewrap_available",
]
