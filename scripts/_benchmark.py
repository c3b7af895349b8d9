"""Timing helper shared by the benchmark scripts in this folder."""

import time


def best_of(repeats, func):
    """Smallest wall time of ``repeats`` calls of ``func()``, in seconds, and the last result.

    The minimum, not the mean, because other work on the machine only ever
    adds time.
    """
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return min(times), result


def best_cpu(repeats, func):
    """Smallest CPU time (this process) of ``repeats`` calls of ``func()``, and the last result.

    CPU time, unlike wall time, hardly moves when other work shares the
    machine, so a ratio of two is a fair comparison on a busy machine.
    """
    times, result = [], None
    for _ in range(repeats):
        start = time.process_time()
        result = func()
        times.append(time.process_time() - start)
    return min(times), result
