"""Editions: what a chapter becomes for a class, and the check that it grades as it should.

Above :mod:`~mlcore.homework.grading` (``assign`` grades the solution and the
untouched student edition to check them) and the sandbox; it knows nothing of
the class. ``_assign.py`` writes the student edition and the autograder,
``_translate.py`` puts the book's catalogs back into a notebook (the Chinese
edition), ``_bundle.py`` packs what a class installs, ``_quiz.py`` exports the
self-checks as LMS quizzes.
"""

from ._assign import Assigned, assign, find_chapters
from ._bundle import write_bundle
from ._quiz import export_quizzes
from ._translate import LANGUAGES

__all__ = ["Assigned", "assign", "find_chapters", "write_bundle", "export_quizzes",
           "LANGUAGES"]
