"""Full-size type-I error and power of chapter 10's tests for comparing two learners.

    python scripts/compare_tests_simulation.py                    # 2,000 repetitions each
    python scripts/compare_tests_simulation.py --repetitions 500 --n-jobs 2

The chapter runs the equal-learners setting with 200 repetitions and quotes
this script, which uses 2,000 repetitions of each setting, so that a rejection
rate of 0.05 has a Monte Carlo standard error of about 0.005. Each
repetition draws m = 60 points (x1, x2) ~ N(0, I) with
y = 1[x1 + b x2 + noise > 0], noise ~ N(0, 1), and compares
``MidpointClassifier(feature=0)`` with ``MidpointClassifier(feature=1)`` by
the six tests of ``mlcore.compare.TESTS`` at level 0.05. With b = 1 the two
learners are equally good by symmetry (type-I error); with b = 0.5 the
first is better (power).
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("MLCORE_QUIET", "1")

from mlcore.compare import MidpointClassifier, rejection_rates, two_feature_sampler  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=2000)
    parser.add_argument("--n-jobs", type=int, default=1)
    args = parser.parse_args()
    for label, weight, seed in [("type-I error (equal learners, b = 1)", 1.0, 0),
                                ("power (first learner better, b = 0.5)", 0.5, 1)]:
        start = time.perf_counter()
        table = rejection_rates(two_feature_sampler(weight), MidpointClassifier(feature=0),
                                MidpointClassifier(feature=1), n_samples=60,
                                n_repetitions=args.repetitions, n_jobs=args.n_jobs,
                                random_state=seed)
        print(f"\n{label}, {args.repetitions} repetitions, m = 60 "
              f"({time.perf_counter() - start:.0f} s)")
        print(table.round(4).to_string())


if __name__ == "__main__":
    main()
