"""Grade a class on a Dask cluster: one task per submission, its row comes back as data.

``grade --scheduler local:N`` (a ``LocalCluster`` here) or ``--scheduler
tcp://host:8786`` (a running scheduler: ``dask scheduler``, dask-jobqueue on
SLURM or PBS, dask-kubernetes). Each task carries everything a worker needs,
so no file system is shared: the autograder's specification, the
submission's bytes, the limits and the teacher's reference snapshots (put
into the cluster once, on every worker). On the worker it runs
:func:`grade_one`, the function a local run calls, in the same sandbox with
the same limits and the same two processes, and returns the
:class:`Submission` (and, with ``--keep-executed``, the executed notebook's
bytes). The teacher's machine receives the rows as they finish and passes
each to ``progress``, the path a local run's rows take (the resume journal),
so grades.csv and the feedback are those of a local run.

A worker that dies while it grades (killed, out of memory, its machine gone)
has its task run again elsewhere by the scheduler (the folders of its run,
made in the worker's own directory, go when Dask clears a dead worker's
directory); a task that every worker it lands on dies from ends after the
scheduler's ``allowed-failures`` (Dask's ``KilledWorker``) as that
submission's ``error`` row, with the reason. A worker that cannot isolate
submissions under ``--sandbox`` refuses, as
:func:`~mlcore.homework.sandbox.isolation_for` refuses on this machine, and
the grading stops with its address. A scheduler that goes away (its machine
restarted, its job ended) stops the grading with :class:`SchedulerLost`; the
rows already passed to ``progress`` stay, so ``grade`` run again resumes
from its journal and grades only the rest.
"""

from __future__ import annotations

import secrets
import socket
from pathlib import Path

from ..._parallel import check_scheduler, dask_client
from ..sandbox import Limits, isolation_for, made_under, make_dir, remove_dir
from ._grade import Submission, add_same_as, check_batch, grade_one, grader_error
from ._reference import Reference, ReferenceTampered
from ._report import _read_nofollow

__all__ = ["grade_on_cluster", "WorkerRefused", "SchedulerLost"]


class WorkerRefused(RuntimeError):
    """A Dask worker cannot isolate submissions as ``--sandbox`` asks (no bubblewrap)."""


class SchedulerLost(RuntimeError):
    """The connection to the Dask scheduler was lost before every submission was graded."""


def _grade_task(name: str, data: bytes, spec: dict, limits: Limits, hide, reference,
                keep: bool):
    """Grade one submission on a Dask worker, as ``grade_submissions`` does on this machine.

    Returns ``(Submission, executed)``: ``executed`` is None, or (with
    ``keep``) the executed notebook's bytes (None if the run left none) and
    its cells, for the teacher's machine to keep.
    """
    from distributed import get_worker
    try:
        isolation_for(limits)        # the worker's own bubblewrap, by the grader's rules
    except RuntimeError as error:
        raise WorkerRefused(
            f"the Dask worker {get_worker().address} (host {socket.gethostname()}) refuses "
            f"to grade: {error} Install bubblewrap on every worker (the course's "
            "requirements and bubblewrap: see 'Grading a large class' in the instructor's "
            "guide).") from None
    executed = {}

    def keeper(path, _name, cells):
        # The run's folder is removed when grade_one returns: read it now, as
        # the local keeper does (no link followed, at most MAX_FILE_BYTES).
        executed.update(data=_read_nofollow(Path(path))[0], cells=list(cells))

    try:
        # The run's folders (the submission's code and outputs) go in the worker's
        # own directory: a worker killed mid-run cannot remove them, but Dask
        # removes a dead worker's directory when the next worker starts beside it.
        with made_under(get_worker().local_directory):
            graded = grade_one(name, data, spec, limits, hide, reference=reference,
                               keep_executed=keeper if keep else None)
    except ReferenceTampered:
        raise
    except (OSError, RuntimeError, ValueError) as error:
        graded = grader_error(name, spec, error)
    return graded, (executed or None) if keep else None


def _lost(name: str, spec: dict, error) -> Submission:
    """The row of a submission whose task every worker it ran on died from."""
    scores = {q["name"]: (None if q["manual"] else 0.0) for q in spec["questions"]}
    tries = getattr(error, "allowed_failures", None)
    tried = f"tries: {tries + 1}; " if isinstance(tries, int) else ""
    return Submission(name, scores, "error", [
        "The grader's worker process died while it graded this submission "
        f"({tried}killed, out of memory, or its machine went away), so it was not graded; "
        "grade it again (grade --update --only with its file name)."])


def _keep(keep_executed, name: str, executed) -> None:
    """Give the teacher's keeper the executed notebook a worker sent, from a file of ours."""
    if not executed:
        return
    folder = make_dir("mlcore-executed-")
    try:
        path = folder / "executed.ipynb"
        if executed["data"] is not None:
            path.write_bytes(executed["data"])
        keep_executed(path, name, executed["cells"])
    finally:
        remove_dir(folder)


def grade_on_cluster(spec: dict, submissions: list, limits: Limits, *, scheduler: str,
                     hide=(), progress=None, reference=None, same_as: bool = True,
                     keep_executed=None) -> list:
    """Grade ``(name, bytes)`` pairs on a Dask cluster, one task per submission.

    The same grades and feedback as :func:`grade_submissions` (the CPU-time
    and memory columns aside): each task runs :func:`grade_one` on a worker.

    Parameters
    ----------
    spec : dict
        From :func:`load_spec` or :func:`build_spec`.
    submissions : list of (str, bytes)
    limits : Limits
        Each worker applies them, and refuses where its bubblewrap does not
        work and ``limits.sandbox`` is ``"auto"`` or ``"bwrap"``.
    scheduler : str
        ``"local:N"`` (a ``LocalCluster`` of N single-threaded worker
        processes here, closed at the end) or a running scheduler's address,
        e.g. ``"tcp://10.0.0.5:8786"``.
    hide : list of path-like
        Paths to hide from the submissions' code (on workers that have them).
    progress : callable, optional
        Called here with each finished :class:`Submission`, as it arrives.
    reference : Reference or path-like, optional
        The teacher's namespaces (see :func:`grade_submissions`); sent to
        every worker once.
    same_as : bool
        Add the "same as" flags among these submissions.
    keep_executed : callable, optional
        Keeps each executed notebook (see :func:`grade_one`), called here.

    Returns
    -------
    list of Submission
        In the order given.

    Raises
    ------
    WorkerRefused
        A worker cannot isolate the submissions (a RuntimeError); the tasks
        not yet finished are cancelled, the rows passed to ``progress`` stay.
    SchedulerLost
        The scheduler went away (a RuntimeError): the rows passed to
        ``progress`` stay, and the message says how many there are.
    ReferenceTampered
        A reference snapshot changed on a worker: grading stops.
    ValueError
        If ``scheduler`` is neither ``"local:N"`` nor an address.

    Examples
    --------
    Nothing to grade starts no cluster:

    >>> spec = {"format": 1, "chapter": "01_logistic_regression", "questions": []}
    >>> grade_on_cluster(spec, [], Limits(), scheduler="local:2")
    []
    """
    items = check_batch(spec, submissions, limits, progress, reference)
    check_scheduler(scheduler)
    if not items:
        return []
    if reference is not None and not isinstance(reference, Reference):
        reference = Reference.read(reference)
    from distributed import KilledWorker, as_completed
    from distributed.client import FutureCancelledError
    hide = [Path(h) for h in hide]
    run = secrets.token_hex(4)              # keys of this run, unique on a shared scheduler
    graded = {}
    with dask_client(scheduler) as client:
        # the snapshots travel once, to every worker, not once per task
        shared = (client.scatter(reference, broadcast=True, hash=False)
                  if reference is not None else None)
        futures = [client.submit(_grade_task, name, bytes(data), spec, limits, hide, shared,
                                 keep_executed is not None, pure=False,
                                 key=f"grade {name} {run}-{index}")
                   for index, (name, data) in enumerate(items)]
        where = {future.key: index for index, future in enumerate(futures)}
        try:
            for future in as_completed(futures):
                index = where[future.key]
                name = items[index][0]
                try:
                    row, executed = future.result()
                except KilledWorker as error:
                    row, executed = _lost(name, spec, error), None
                except FutureCancelledError as error:
                    # Nothing here cancels a task before this loop ends: the client
                    # cancels them all when it loses the scheduler.
                    raise SchedulerLost(
                        f"the connection to the Dask scheduler {scheduler} was lost "
                        f"({error.reason}) after {len(graded)} of {len(items)} "
                        "submission(s) were graded. Those rows are kept: run the same "
                        "grade command again (with a running scheduler, or --scheduler "
                        "local:N) and it grades only the rest.") from None
                if keep_executed is not None:
                    _keep(keep_executed, name, executed)
                graded[index] = row
                if progress:
                    progress(row)
        except BaseException:
            client.cancel(futures)
            raise
    rows = [graded[i] for i in range(len(items))]
    if same_as:
        add_same_as(spec, rows)
    return rows
