"""The ``--scheduler`` option of the full-size experiments in this folder.

    python scripts/bounds_experiment.py --scheduler local:2            # a LocalCluster
    python scripts/bounds_experiment.py --scheduler tcp://head:8786    # a running scheduler

With it, every parallel loop of the script runs on Dask distributed through
joblib's Dask backend (``mlcore._parallel.dask_backend``), on every worker of
the cluster; the printed numbers are those of a local run, because each
repetition draws from its own seed.
"""

from __future__ import annotations

import argparse

HELP = ("run the repetitions on Dask distributed: 'local:N' starts a LocalCluster of N "
        "worker processes here; an address such as tcp://host:8786 uses a running "
        "scheduler (dask-jobqueue, dask-kubernetes, `dask scheduler`). The numbers are "
        "those of a local run.")


def add_scheduler_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--scheduler local:N|ADDRESS`` to ``parser``."""
    parser.add_argument("--scheduler", metavar="local:N|ADDRESS", default=None, help=HELP)


def jobs(n_jobs: int, scheduler: str | None) -> int:
    """``n_jobs`` for the script's loops: every worker (-1) on a scheduler."""
    return -1 if scheduler else n_jobs


def _printed(part) -> str:
    """What ``part()`` prints, as text (a part run on a worker prints there)."""
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        part()
    return buffer.getvalue()


def run_parts(parts, n_jobs) -> None:
    """Run independent parts of an experiment (functions of no argument that print),
    in parallel with ``n_jobs`` (on the scheduler of ``dask_backend``), and print
    what each printed, in the order given, as a serial run does."""
    from mlcore._parallel import parallel_map

    for text in parallel_map(_printed, list(parts), n_jobs=n_jobs):
        print(text, end="", flush=True)


# A worker of a remote cluster has mlcore but not this folder: the functions
# above travel by value, as the scripts' own functions (in __main__) do.
import sys  # noqa: E402

import cloudpickle  # noqa: E402

cloudpickle.register_pickle_by_value(sys.modules[__name__])
