"""Editions: what a chapter becomes for a class, checked to grade as it should.

Above :mod:`~mlcore.homework.grading` (``assign`` grades the solution and the
untouched student edition to check them) and the sandbox; it knows nothing of
the class. ``_edition.py`` derives the student edition and the autograder's
notebook from a chapter, ``_assign.py`` writes and checks them,
``_translate.py`` puts the book's catalogs back into a notebook (the Chinese
edition), ``_bundle.py`` packs what a class installs, ``_quiz.py`` exports the
self-checks as LMS quizzes.
"""

from ._assign import Assigned, assign, find_chapters
from ._bundle import write_bundle
from ._edition import autograder_notebook, student_edition
from ._quiz import export_quizzes
from ._translate import LANGUAGES

__all__ = ["Assigned", "assign", "find_chapters", "write_bundle", "student_edition",
           "autograder_notebook", "export_quizzes", "LANGUAGES"]
