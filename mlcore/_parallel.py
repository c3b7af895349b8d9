"""Running repetitions in parallel, with a progress bar in a live notebook.

Every loop over repetitions or candidates in mlcore goes through
:func:`parallel_map`, so ``n_jobs`` means the same everywhere and a user can
point joblib at a Dask or Ray cluster (``joblib.parallel_config``) without
changing code. The progress bar is off when ``MLCORE_QUIET=1`` (the site
build and the tests set it) so that logs and pages stay clean.
"""

from __future__ import annotations

from joblib import Parallel, delayed

from ._validation import check_n_jobs, quiet

__all__ = ["parallel_map", "progress"]


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
