"""Adopt and kill the processes a run detached from its session (``grade``, no sandbox)."""

from __future__ import annotations

import os
import signal
import sys

from ._sandbox import _process_table, _tree

__all__ = ["adopt_orphans"]


class adopt_orphans:
    """Make this process adopt the orphans of its runs, and kill them all at the end.

    Without bubblewrap a submission can start a process in a new session
    with an empty environment, which neither the run's process tree, its
    session nor its token finds. As a child subreaper (Linux), the grader
    becomes that process's parent; when grading ends, every child the
    grader still has is killed and reaped. Use only where the grader starts
    no other long-lived children (the ``grade`` command).
    """

    def __enter__(self):
        self.enabled = False
        if sys.platform.startswith("linux"):
            me = os.getpid()
            self.before = {pid for pid, (ppid, _) in _process_table().items() if ppid == me}
            try:
                import ctypes
                libc = ctypes.CDLL(None, use_errno=True)
                self.enabled = libc.prctl(36, 1, 0, 0, 0) == 0   # PR_SET_CHILD_SUBREAPER
                self._libc = libc
            except (OSError, AttributeError):
                pass
        return self

    def __exit__(self, *exc):
        if not self.enabled:
            return False
        me = os.getpid()
        for _ in range(3):
            table = _process_table()
            orphans = [pid for pid, (ppid, _) in table.items()
                       if ppid == me and pid not in self.before]
            for pid in orphans:
                for victim in _tree(pid, table):
                    try:
                        os.kill(victim, signal.SIGKILL)
                    except OSError:
                        pass
            for pid in orphans:
                try:
                    os.waitpid(pid, 0)
                except OSError:
                    pass
            if not orphans:
                break
        self._libc.prctl(36, 0, 0, 0, 0)
        return False
