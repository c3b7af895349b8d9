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
