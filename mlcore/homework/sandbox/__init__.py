"""The sandbox: run untrusted code in isolated, limited processes, and clean up.

The lowest layer of :mod:`mlcore.homework`; it imports nothing of the other
subpackages. ``_sandbox.py`` starts a script under bubblewrap (or, with
``--sandbox none``, in plain processes) with CPU-time, memory and file-size
limits; the scripts it starts live in this folder and run by file path with
``python -I``: ``_worker.py`` runs a submission's cells in a kernel,
``_checker.py`` runs a question's checks, ``_server.py`` holds the
submission's answers for them, ``_wire.py`` is the plain-data channel
between the two. ``_tempdirs.py`` removes every temporary folder a run makes,
``_reap.py`` kills the processes a run left behind.
"""

from ._reap import adopt_orphans
from ._sandbox import (Limits, bubblewrap_available, describe_isolation, isolation_for,
                       remove_matplotlib_cache, run_script)
from ._tempdirs import made_under, make_dir, remove_all, remove_dir
from ._worker import capped

__all__ = ["Limits", "bubblewrap_available", "describe_isolation", "isolation_for",
           "remove_matplotlib_cache", "run_script", "adopt_orphans", "made_under", "make_dir",
           "remove_all", "remove_dir", "capped"]
