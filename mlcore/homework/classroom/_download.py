"""An LMS's download of the submissions, read as it comes: a folder or its zip.

Moodle's "Download all submissions" (with "Download submissions in folders",
its default since Moodle 3.1) is a zip with one folder per student and
submission plugin::

    Ada Okafor_501_assignsubmission_file_/hw1.ipynb
    Ada Okafor_501_assignsubmission_onlinetext_/onlinetext.html

where 501 is the participant number of the grading worksheet's
``Identifier`` ("Participant 501"). Every ``.ipynb`` in a student's
``assignsubmission_file_`` folder (or its subfolders) becomes the row
``Ada Okafor_501_assignsubmission_file_hw1.ipynb``: the name the same
download gives with the folders unticked, so that one roster pattern,
:data:`MOODLE_ROSTER`, covers both layouts; it is the default ``--roster``
when the download has Moodle's folders. The other plugins' folders (online
text, comments) are listed as skipped.

SUBMISSIONS may be the zip itself (Moodle's, or Canvas's
``submissions.zip``): it is read in memory and never extracted, so no
entry name can write outside a folder, and each entry's time in the zip
stands for its modification time (what ``unzip`` would restore).

Examples
--------
>>> moodle_name("Ada Okafor_501_assignsubmission_file_/hw1.ipynb")
'Ada Okafor_501_assignsubmission_file_hw1.ipynb'
>>> moodle_name("Ada Okafor_501_assignsubmission_onlinetext_/onlinetext.html")
>>> moodle_name("notes/hw1.ipynb")
"""

from __future__ import annotations

import os
import re
import stat
import zipfile
import zlib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

__all__ = ["Download", "read_download", "collect_submissions", "moodle_name", "MOODLE_ROSTER"]

# Moodle writes "<full name>_<participant number>_assignsubmission_<plugin>_";
# it turns "_" in a name into a space, so the name holds none.
MOODLE_FOLDER = re.compile(r"(?P<student>[^_/]+)_(?P<id>\d+)_assignsubmission_"
                           r"(?P<plugin>[a-z]+)_")
MOODLE_ROSTER = r"(?P<student>[^_]+)_(?P<id>\d+)_assignsubmission_file_.*"


@dataclass
class Download:
    """What :func:`read_download` found.

    ``files``, ``refused`` and ``skipped`` are as in ``collect_submissions``;
    ``mtimes`` gives each file's modification time (POSIX seconds) and
    ``moodle`` says whether any came from a Moodle student folder.
    """

    files: list = field(default_factory=list)
    refused: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    mtimes: dict = field(default_factory=dict)
    moodle: bool = False


def moodle_name(path: str):
    """The row name of a file in a Moodle student folder (``/``-separated), or None.

    None when ``path`` is not in an ``assignsubmission_file_`` folder.
    """
    top, _, rest = path.partition("/")
    match = MOODLE_FOLDER.fullmatch(top)
    if match is None or match.group("plugin") != "file" or not rest:
        return None
    return top + rest.replace("/", "_")


def _nested(found: Download, path: str, kind: str, read, mtime) -> None:
    """One entry below the top level: a Moodle student's file, or skipped."""
    from ..grading import SYMLINK, name_problem, shown_name
    top = path.partition("/")[0]
    match = MOODLE_FOLDER.fullmatch(top)
    if match is None and any(name == top for name, _ in found.skipped):
        return                  # the folder itself is listed already
    if match is None:
        found.skipped.append((shown_name(path), "inside a folder that is not a Moodle "
                                                "student's folder"))
        return
    if match.group("plugin") != "file":
        found.skipped.append((shown_name(path), f"Moodle's {match.group('plugin')} "
                                                "submission, not a file"))
        return
    if kind == "dir":
        return
    name = moodle_name(path)
    if not name.endswith(".ipynb"):
        found.skipped.append((shown_name(path), "not a .ipynb file"))
        return
    found.moodle = True
    problem = name_problem(name)
    if problem is not None:
        found.refused.append((shown_name(name), f"unreadable: file name: {problem}"))
    elif any(name == n for n, _ in found.files + found.refused):
        found.skipped.append((shown_name(path), f"a second file named {name!r}"))
    elif kind == "symlink":
        found.refused.append((name, SYMLINK))
    else:
        _take(found, name, read, mtime)


def _take(found: Download, name: str, read, mtime) -> None:
    """A notebook entry's bytes into ``found.files``, or its refusal saying why."""
    data, why = read()
    if data is None:
        found.refused.append((name, f"unreadable: {why}"))
    else:
        found.files.append((name, data))
        found.mtimes[name] = mtime


def _top(found: Download, name: str, kind: str, read, mtime) -> None:
    """One top-level entry, as a flat folder of notebooks has always been read."""
    from ..grading import SYMLINK, name_problem, shown_name
    if name.endswith(".ipynb"):
        problem = name_problem(name)
        if problem is not None:
            found.refused.append((shown_name(name), f"unreadable: file name: {problem}"))
        elif kind == "symlink":
            found.refused.append((name, SYMLINK))
        elif kind == "dir":
            found.skipped.append((name, "a folder, not a notebook file"))
        else:
            _take(found, name, read, mtime)
    elif name.lower().endswith(".ipynb"):
        found.skipped.append((shown_name(name), "the extension is not lower-case "
                                                ".ipynb; rename it to grade it"))
    elif kind == "dir" and MOODLE_FOLDER.fullmatch(name):
        return                  # its entries are read one by one
    elif kind == "dir":
        found.skipped.append((shown_name(name), "a folder"))
    else:
        found.skipped.append((shown_name(name), "not a .ipynb file"))


def _kind(entry) -> str:
    if entry.is_symlink():
        return "symlink"
    return "dir" if entry.is_dir(follow_symlinks=False) else "file"


def _folder_entries(folder: Path):
    """``(path, kind, read, mtime)`` of a folder, into Moodle's student folders only."""
    from ..grading import _read_nofollow
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        kind, path = _kind(entry), Path(entry.path)
        yield (entry.name, kind, lambda p=path: _read_nofollow(p),
               entry.stat(follow_symlinks=False).st_mtime)
        if kind == "dir" and MOODLE_FOLDER.fullmatch(entry.name):
            # os.walk does not follow links; a linked file is refused as one
            for root, dirs, names in os.walk(path):
                dirs.sort()
                for name in sorted(dirs + names):
                    full = Path(root) / name
                    info = os.lstat(full)
                    kind = ("symlink" if stat.S_ISLNK(info.st_mode) else
                            "dir" if stat.S_ISDIR(info.st_mode) else "file")
                    yield (full.relative_to(folder).as_posix(), kind,
                           lambda p=full: _read_nofollow(p), info.st_mtime)


def _zip_read(archive: zipfile.ZipFile, info: zipfile.ZipInfo):
    from ..grading import MAX_FILE_BYTES
    if info.flag_bits & 0x1:
        return None, "it is encrypted in the zip"
    try:
        with archive.open(info) as stream:
            # one byte over the limit is enough for read_notebook to refuse it
            return stream.read(MAX_FILE_BYTES + 1), None
    except (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError,
            OSError, EOFError) as error:
        return None, f"the zip entry cannot be read ({error})"


def _zip_entries(path: Path):
    """``(path, kind, read, mtime)`` of each entry of a zip, read in memory."""
    from ..grading import _read_nofollow
    data, why = _read_nofollow(path)
    if data is None:
        raise FileNotFoundError(f"SUBMISSIONS {str(path)!r}: {why}.")
    import io
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError) as error:
        raise ValueError(f"SUBMISSIONS {str(path)!r} is not a zip archive that can be "
                         f"read ({error}); unzip it and give the folder.") from None
    seen = set()
    for info in sorted(archive.infolist(), key=lambda i: i.filename):
        name = info.filename.rstrip("/")
        mode = info.external_attr >> 16
        kind = ("dir" if info.is_dir() else
                "symlink" if stat.S_ISLNK(mode) else "file")
        if not name or name in seen:
            continue
        seen.add(name)
        # the zip's times are local, as unzip restores them
        try:
            mtime = datetime(*info.date_time).timestamp()
        except (ValueError, OverflowError):
            mtime = 0.0
        yield name, kind, lambda i=info: _zip_read(archive, i), mtime


# Finder's "Compress" adds resource forks in a folder of this name beside the files.
MACOS_FORKS = "__MACOSX"


def _wrapper(tops: dict, ignore=()) -> str | None:
    """The one folder that holds everything else (``zip -r hw1.zip hw1``), or None.

    ``tops`` maps each top-level entry's name to whether it is a folder. The
    only entry (those in ``ignore`` aside) must be a folder, and not a Moodle
    student's (that is a class of one).
    """
    names = [name for name in tops if name not in ignore]
    if len(names) == 1 and tops[names[0]] and not MOODLE_FOLDER.fullmatch(names[0]):
        return names[0]
    return None


def _unwrapped_zip(entries: list) -> list:
    """A zip's entries, those of its one wrapping folder as top-level ones.

    macOS's ``__MACOSX`` beside it stays, and is listed as skipped.
    """
    tops = {}
    for path, kind, *_ in entries:
        top = path.partition("/")[0]
        tops[top] = tops.get(top, False) or "/" in path or kind == "dir"
    top = _wrapper(tops, ignore=(MACOS_FORKS,))
    if top is None:
        return entries
    return [(path.removeprefix(top + "/"), *rest) for path, *rest in entries if path != top]


def _unwrapped_folder(folder: Path) -> Path:
    """A folder, or the one folder (not a link) that is all it holds."""
    with os.scandir(folder) as scan:
        tops = {entry.name: _kind(entry) == "dir" for entry in scan}
    top = _wrapper(tops)
    return folder / top if top is not None else folder


def read_download(source) -> Download:
    """Read every submission of a folder or a zip; account for every other entry.

    Parameters
    ----------
    source : path-like
        A folder of notebooks, Moodle's download (a student folder per
        participant) or either as a ``.zip``. A folder or zip that holds
        only one folder (not a Moodle student's; in a zip, macOS's
        ``__MACOSX`` beside it aside) is read as that folder: a teacher's
        ``zip -r hw1.zip hw1`` of a folder of notebooks.

    Returns
    -------
    Download

    Examples
    --------
    >>> import io, zipfile, tempfile, pathlib
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = pathlib.Path(folder.name) / "hw1.zip"
    >>> with zipfile.ZipFile(path, "w") as archive:
    ...     archive.writestr("hw1/ada.ipynb", "{}")
    ...     archive.writestr("hw1/notes/old.ipynb", "{}")
    >>> found = read_download(path)
    >>> [name for name, _ in found.files], found.skipped
    (['ada.ipynb'], [('notes/old.ipynb', "inside a folder that is not a Moodle student's folder")])
    >>> folder.cleanup()
    """
    from ..grading import _path
    source = _path(source, "folder")
    if source.suffix.lower() == ".zip" and not source.is_symlink() and source.is_file():
        entries = _unwrapped_zip(list(_zip_entries(source)))
    elif source.is_symlink() or not source.is_dir():
        raise FileNotFoundError(f"SUBMISSIONS {str(source)!r} is not a folder or a .zip "
                                "file (a symlink to one is refused).")
    else:
        entries = _folder_entries(_unwrapped_folder(source))
    found = Download()
    for path, kind, read, mtime in entries:
        (_nested if "/" in path else _top)(found, path, kind, read, mtime)
    found.files.sort()
    return found


def collect_submissions(folder):
    """Read every ``*.ipynb`` of a folder or zip; account for every other entry.

    Moodle's student folders are read too (see above).

    Returns
    -------
    files : list of (str, bytes)
        The notebooks to grade, read before any run starts.
    refused : list of Submission-ready (str, str)
        ``(name, reason)`` of ``.ipynb`` entries given a row with status
        ``unreadable: symlink`` or ``unreadable``.
    skipped : list of (str, str)
        ``(name, reason)`` of entries that get no row.
    """
    found = read_download(folder)
    return found.files, found.refused, found.skipped
