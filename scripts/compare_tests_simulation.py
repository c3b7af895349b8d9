"""Full-size calibration and power of chapter 10's tests for comparing two learners.

    python scripts/compare_tests_simulation.py                    # 40,000 repetitions per setting
    python scripts/compare_tests_simulation.py --repetitions 4000
    python scripts/compare_tests_simulation.py --scheduler local:2    # on Dask (or tcp://host:8786)

The chapter runs each setting with a few thousand repetitions and quotes
this script's output. Each repetition draws m = 60 points (x1, x2) ~ N(0, I)
with y = 1[x1 + w x2 + noise > 0], noise ~ N(0, 1), and compares the midpoint
classifier on x1 with the one on x2 (``MidpointClassifier(feature=0)`` and
``feature=1``, fitted with array arithmetic for all repetitions at once by
``mlcore.compare.simulate_test_pvalues``) by the twelve tests of
``mlcore.compare.CALIBRATED_TESTS`` at level 0.05. With w = 1 the two
learners are equally good by symmetry (type-I error); with w < 1 the first
is better (power). It also prints the sizes of the 5x2cv statistics under
their idealized model (ten iid normal differences), from 4,000,000 draws,
power curves over w, and the type-I errors when both learners are the
unstable 1-nearest-neighbour rule on their feature.
Every repetition draws its own data set and its own folds, random splits and
halvings. With 40,000 repetitions a rate of 0.05 has a Monte Carlo standard
error of 0.0011. It took 557 s of wall-clock time on the shared 2-core course
machine under a load average of about 28 (2026-11-27).
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("MLCORE_QUIET", "1")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from _cluster import add_scheduler_option, jobs  # noqa: E402

from mlcore._parallel import dask_backend, parallel_map  # noqa: E402
from mlcore.compare import five_by_two_null_sizes, rejection_table, simulate_test_pvalues  # noqa: E402


def _rates(setting: dict):
    """The rejection table of one setting of ``simulate_test_pvalues`` (its own seed)."""
    return rejection_table(simulate_test_pvalues(**setting))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=40_000)
    parser.add_argument("--n-jobs", type=int, default=1,
                        help="settings simulated at once (each in one process)")
    add_scheduler_option(parser)
    args = parser.parse_args()
    pd.set_option("display.width", 200)
    start = time.perf_counter()
    weights = [1.0, 0.8, 0.6, 0.5, 0.4, 0.3]
    n_curve = max(args.repetitions // 4, 100)
    n_nn = max(args.repetitions // 4, 100)
    # Every setting draws from its own seed, so running them apart (--n-jobs,
    # --scheduler) prints the numbers of a serial run.
    settings = ([dict(weight=w, n_repetitions=args.repetitions, random_state=seed)
                 for w, seed in [(1.0, 0), (0.5, 1)]]
                + [dict(weight=w, n_repetitions=n_curve, random_state=10 + i)
                   for i, w in enumerate(weights)]
                + [dict(weight=1.0, n_repetitions=n_nn, learner="1-nn", random_state=20)])
    print("5x2cv statistics, ten iid N(0, 1) differences, 4,000,000 draws (seed 0)")
    print(five_by_two_null_sizes(n_draws=4_000_000, random_state=0).round(5).to_string())
    with dask_backend(args.scheduler):
        tables = parallel_map(_rates, settings, n_jobs=jobs(args.n_jobs, args.scheduler))
    columns = {}
    for weight, table in zip([1.0, 0.5], tables[:2]):
        columns[f"rate w={weight}"] = table["rate"]
        columns[f"se w={weight}"] = table["se"]
    print(f"\nrejection rates at 0.05, {args.repetitions} repetitions, m = 60 "
          f"(w = 1: type-I error, seed 0; w = 0.5: power, seed 1)")
    print(pd.DataFrame(columns).round(4).to_string())
    curve = pd.DataFrame({w: table["rate"] for w, table in zip(weights, tables[2:8])})
    print(f"\npower curves (rejection rate against w), {n_curve} repetitions per w (seeds 10-15); "
          f"largest s.e. {np.sqrt(0.25 / n_curve):.4f}")
    print(curve.round(4).to_string())
    print(f"\ntype-I error with an unstable learner (1-NN on one feature each), {n_nn} repetitions (seed 20)")
    print(tables[8].round(4).to_string())
    print(f"\n({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
