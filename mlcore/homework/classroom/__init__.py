"""The class around the grades: who handed in what and when, and the way back.

The top layer with :mod:`~mlcore.homework.editions`, above grading and the
sandbox. ``_download.py`` reads an LMS's download, ``_roster.py`` finds the
student behind each file, ``_late.py`` applies deadlines, extensions and the
late policy, ``_class.py`` adds missing students and feedback from manual
scores, ``_update.py`` regrades part of a class and resumes a run,
``_summary.py`` writes the class summary and ``_gradebook.py`` refills the
LMS's gradebook export.
"""

from ._class import ClassOptions, executed_keeper, merge_followups, note_missing
from ._download import collect_submissions, read_download
from ._gradebook import fill_from_grades
from ._summary import write_summary
from ._update import (append_journal, backup, check_overwrite, digest, grading_key,
                      hashes_path, journal_path, read_journal, read_rows, rows_path,
                      select_changed, write_rows, write_updated)

__all__ = ["ClassOptions", "executed_keeper", "merge_followups", "note_missing",
           "collect_submissions", "read_download", "fill_from_grades", "write_summary",
           "append_journal", "backup", "check_overwrite", "digest", "grading_key",
           "hashes_path", "journal_path", "read_journal", "read_rows", "rows_path",
           "select_changed", "write_rows", "write_updated"]
