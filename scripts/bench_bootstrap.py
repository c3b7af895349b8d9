"""Benchmark of mlcore.bootstrap: the vectorized computations against the naive loops.

    python scripts/bench_bootstrap.py              # all four comparisons
    python scripts/bench_bootstrap.py --n-jobs 2   # the parallel one with 2 workers

1. ``bootstrap_distribution`` of a statistic that takes ``axis`` (one call on a
   (B, m) array) against a Python loop over the B resamples;
2. ``draw_counts`` (one ``np.bincount``) against ``np.unique`` per resample;
3. ``interval_coverage`` (all data sets' replicates, quantiles, BCa levels and
   bootstrap-t ratios as arrays) against one ``bootstrap_interval`` call per
   data set and method (percentile, basic, BCa, normal, bootstrap-t);
4. ``simulate_error_estimates`` with ``n_jobs`` workers against ``n_jobs=1``.

Each pair computes the same numbers (checked); the script prints wall and CPU
times and the speed ratio. On a busy machine prefer the CPU times.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

os.environ.setdefault("MLCORE_QUIET", "1")

from scipy import stats  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402

from mlcore.bootstrap import (bootstrap_distribution, bootstrap_indices, bootstrap_interval,  # noqa: E402
                              draw_counts, gaussian_classes, interval_coverage,
                              simulate_error_estimates)


def timed(func):
    wall, cpu = time.perf_counter(), time.process_time()
    result = func()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def report(name, fast, naive):
    print(f"{name:<48} fast {fast[0]:7.3f} s (cpu {fast[1]:6.3f})   naive {naive[0]:7.3f} s "
          f"(cpu {naive[1]:6.3f})   ratio {naive[0] / fast[0]:6.1f}x")


def main(n_jobs: int) -> None:
    x = np.random.default_rng(0).lognormal(size=50)

    fast = timed(lambda: bootstrap_distribution(np.mean, x, 20_000, random_state=1))
    naive = timed(lambda: np.array([np.mean(x[row]) for row in bootstrap_indices(50, 20_000, 1)]))
    assert np.allclose(fast[2], naive[2])
    report("replicates of the mean, B = 20,000, m = 50", fast, naive)

    fast = timed(lambda: (draw_counts(100, 20_000, random_state=2) == 0).mean(axis=1))
    naive = timed(lambda: np.array([1 - np.unique(row).size / 100
                                    for row in bootstrap_indices(100, 20_000, 2)]))
    assert np.allclose(fast[2], naive[2])
    report("share never drawn, B = 20,000, m = 100", fast, naive)

    def exponential(rng, size):
        return rng.exponential(size=size)

    methods = ["percentile", "basic", "BCa", "normal", "studentized"]

    def loop():
        rng, hits = np.random.default_rng(3), dict.fromkeys(methods, 0)
        for _ in range(300):
            sample = exponential(rng, 20)
            for method in hits:
                low, high = bootstrap_interval(np.mean, sample, 1000, method=method,
                                               random_state=rng, standard_error=(
                                                   stats.sem if method == "studentized" else None))
                hits[method] += low <= 1.0 <= high
        return {method: count / 300 for method, count in hits.items()}

    fast = timed(lambda: interval_coverage(np.mean, exponential, 1.0, 20, n_datasets=300,
                                           n_resamples=1000, methods=methods,
                                           standard_error=stats.sem, random_state=3))
    naive = timed(loop)
    # different random draws, so the coverages agree only statistically
    assert all(abs(fast[2][k] - naive[2][k]) < 0.08 for k in fast[2]), (fast[2], naive[2])
    report("coverage of 5 intervals, 300 data sets x B = 1,000", fast, naive)

    args = dict(n_repetitions=40, n_resamples=30, n_test=2000, random_state=4)
    lda = LinearDiscriminantAnalysis()
    serial = timed(lambda: simulate_error_estimates(lda, gaussian_classes, 20, n_jobs=1, **args))
    parallel = timed(lambda: simulate_error_estimates(lda, gaussian_classes, 20, n_jobs=n_jobs, **args))
    assert all(np.array_equal(serial[2][k], parallel[2][k]) for k in serial[2])
    report(f"error-estimate simulation, n_jobs={n_jobs} vs 1", parallel, serial)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-jobs", type=int, default=-1)
    main(parser.parse_args().n_jobs)
