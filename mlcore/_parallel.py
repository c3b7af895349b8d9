"""Running repetitions in parallel, with a progress bar in a live notebook.

Every loop over repetitions or candidates in mlcore goes through
:func:`parallel_map` (or joblib directly), so ``n_jobs`` means the same
everywhere, and :func:`dask_backend` sends all of them to a Dask cluster
without changing code: the full-size experiments in ``scripts/`` take
``--scheduler local:N`` or a scheduler's address. The progress bar is off when
``MLCORE_QUIET=1`` (the site build and the tests set it) so that logs and
pages stay clean.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

from joblib import Parallel, delayed

from ._validation import check_n_jobs, quiet

__all__ = ["parallel_map", "progress", "dask_backend", "dask_client", "local_cluster",
           "check_scheduler"]

# Dask's own address schemes (distributed.comm): tcp is the usual one.
_ADDRESS = re.compile(r"(tcp|tls|inproc|ucx|ws|wss)://\S+")
_LOCAL = re.compile(r"local:(\d+)")
# A local cluster's bookkeeping that costs CPU while its workers wait on a
# grade's sandbox or a repetition: Dask samples each busy worker's stack every
# 10 ms (the dashboard's profile), reads every process's CPU and memory twice
# a second, and ticks each event loop every 20 ms to notice it blocking. On
# this course's 2-core machine that was ~10 % of a core a worker, and made
# grading 200 submissions on ``local:2`` cost 1.14x the CPU of ``--jobs 2``.
# Nothing here changes a result; the dashboard is off for the same reason.
QUIET_CLUSTER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.tick.interval": "1s",
}


def progress(iterable, *, total: int | None = None, desc: str | None = None):
    """Wrap ``iterable`` in a tqdm bar unless progress bars are switched off.

    Examples
    --------
    >>> list(progress(range(3), desc="demo", total=3)) == [0, 1, 2]
    True
    """
    if quiet():
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, total=total, desc=desc, leave=False)


def parallel_map(func, items, *, n_jobs=None, desc: str | None = None) -> list:
    """Return ``[func(item) for item in items]``, computed with joblib.

    Parameters
    ----------
    func : callable
        A function of one argument; with ``n_jobs`` other than None or 1 it
        must be picklable (a module-level function or a ``functools.partial``).
    items : iterable
        The arguments.
    n_jobs : int or None
        joblib's ``n_jobs``: None or 1 runs in this process, -1 on every core.
    desc : str or None
        Label of the progress bar.

    Returns
    -------
    list
        The results, in the order of ``items``.

    Examples
    --------
    >>> parallel_map(abs, [-1, 2, -3])
    [1, 2, 3]
    """
    n_jobs = check_n_jobs(n_jobs)
    items = list(items)
    bar = progress(range(len(items)), total=len(items), desc=desc)
    if n_jobs in (None, 1):
        results = []
        for item, _ in zip(items, bar):
            results.append(func(item))
        return results
    runner = Parallel(n_jobs=n_jobs, return_as="generator")
    results = []
    for result, _ in zip(runner(delayed(func)(item) for item in items), bar):
        results.append(result)
    return results


@contextmanager
def dask_backend(scheduler: str | None):
    """Run joblib's parallel loops (every ``n_jobs`` of mlcore) on a Dask cluster.

    Inside the ``with`` block, a loop run with ``n_jobs`` other than None or 1
    sends its repetitions to the cluster's workers through joblib's Dask
    backend. The results do not change: every repetition of mlcore draws from
    a seed of its own, fixed before the loop, whoever runs it.

    Parameters
    ----------
    scheduler : str or None
        None: nothing changes (joblib's own processes on this machine).
        ``"local:N"``: a Dask ``LocalCluster`` of N single-threaded worker
        processes on this machine, closed when the block ends. Otherwise the
        address of a running Dask scheduler, e.g. ``"tcp://10.0.0.5:8786"``
        (``dask scheduler``, dask-jobqueue on SLURM or PBS, dask-kubernetes).

    Yields
    ------
    distributed.Client or None
        The client of the cluster; None without a scheduler.

    Raises
    ------
    ValueError
        If ``scheduler`` is neither ``"local:N"`` with N >= 1 nor an address.
    ImportError
        If Dask distributed is not installed.

    Examples
    --------
    >>> with dask_backend(None) as client:
    ...     parallel_map(abs, [-1, 2], n_jobs=2)
    [1, 2]
    """
    if scheduler is None:
        yield None
        return
    check_scheduler(scheduler)
    import joblib
    with dask_client(scheduler) as client, joblib.parallel_config(backend="dask"):
        yield client


def check_scheduler(scheduler) -> int | None:
    """Return N of ``"local:N"``, None for a scheduler's address; refuse anything else.

    Examples
    --------
    >>> check_scheduler("local:2"), check_scheduler("tcp://10.0.0.5:8786")
    (2, None)
    """
    local = _LOCAL.fullmatch(scheduler) if isinstance(scheduler, str) else None
    if not (local and int(local[1]) >= 1) and not (
            isinstance(scheduler, str) and _ADDRESS.fullmatch(scheduler)):
        raise ValueError(f"scheduler must be 'local:N' (N >= 1 worker processes on this "
                         f"machine) or a Dask scheduler's address such as "
                         f"'tcp://host:8786', got {scheduler!r}.")
    return int(local[1]) if local else None


@contextmanager
def dask_client(scheduler: str):
    """A Dask ``Client`` of ``scheduler`` (``"local:N"`` or an address), closed at the end.

    ``"local:N"`` starts a ``LocalCluster`` of N single-threaded worker
    processes on this machine, with Dask's profiler, dashboard and frequent
    resource sampling off (``QUIET_CLUSTER``: they cost CPU and change no
    result), and closes it when the block ends; an address
    (``"tcp://host:8786"``) connects to a running scheduler and leaves it
    running. :func:`dask_backend` and the homework grader's ``--scheduler``
    both come here, so the two read a scheduler the same way.

    Raises
    ------
    ValueError
        If ``scheduler`` is neither ``"local:N"`` with N >= 1 nor an address.
    ImportError
        If Dask distributed is not installed.
    """
    workers = check_scheduler(scheduler)
    try:
        from distributed import Client
    except ImportError as error:
        raise ImportError("running on a Dask scheduler needs Dask distributed: "
                          "pip install -r requirements.txt") from error
    if not workers:
        with Client(scheduler) as client:
            yield client
        return
    cluster = local_cluster(workers)
    try:
        with Client(cluster) as client:
            yield client
    finally:
        cluster.close()


def local_cluster(n_workers: int, *, processes: bool = True):
    """A Dask ``LocalCluster`` of ``n_workers`` single-threaded workers, quiet.

    Dask's sampling profiler, the Bokeh dashboard and the frequent resource
    polling stay off (``QUIET_CLUSTER``); its HTTP server takes a free port.
    ``processes=False`` runs the workers as threads of this process (tests).
    """
    import logging

    import dask
    from distributed import LocalCluster

    # The workers take the configuration in force while the cluster starts.
    with dask.config.set(QUIET_CLUSTER):
        return LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=processes,
                            dashboard_address=":0", scheduler_kwargs={"dashboard": False},
                            silence_logs=logging.ERROR)
