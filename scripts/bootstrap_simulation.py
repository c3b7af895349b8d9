"""Full-size version of chapter 6's comparison of error estimators and of interval coverage.

    python scripts/bootstrap_simulation.py                 # 200 data sets per setting, all cores
    python scripts/bootstrap_simulation.py --repetitions 50 --n-jobs 2

For 1-NN and LDA on two Gaussian classes (Bayes error 31 %) and on data
whose labels carry no information (true error 50 %), at m = 20 and m = 50,
it draws ``--repetitions`` training sets, estimates each classifier's error
by resubstitution, out-of-bag, .632, .632+ (200 bootstrap samples), 10-fold
CV and leave-one-out, measures the true error on 5,000 fresh points, and
prints bias, standard deviation and root-mean-square error of every
estimator. Then the coverage of 95 % bootstrap intervals for the mean of
exponential samples, m = 10, 20, 50, over 5,000 data sets. The chapter runs
20 data sets with 30 bootstrap samples, at m = 20 only.
"""

from __future__ import annotations

import argparse
import os
import time
from functools import partial

import numpy as np
import pandas as pd

os.environ.setdefault("MLCORE_QUIET", "1")

from scipy import stats  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402

from mlcore.bootstrap import gaussian_classes, interval_coverage, simulate_error_estimates  # noqa: E402


def exponential(rng, size):
    return rng.exponential(size=size)


def main(repetitions: int, n_jobs: int) -> None:
    start = time.perf_counter()
    rows = []
    for data_name, separation in [("Gaussian classes", 1.0), ("no information", 0.0)]:
        sampler = partial(gaussian_classes, separation=separation)
        for m in (20, 50):
            for name, learner in [("1-NN", KNeighborsClassifier(1)),
                                  ("LDA", LinearDiscriminantAnalysis())]:
                out = simulate_error_estimates(learner, sampler, m, n_repetitions=repetitions,
                                               n_resamples=200, n_test=5000, random_state=m,
                                               n_jobs=n_jobs)
                for method in list(out)[1:]:
                    deviation = out[method] - out["true error"]
                    rows.append({"data": data_name, "m": m, "learner": name, "estimator": method,
                                 "mean true error": out["true error"].mean(),
                                 "bias": deviation.mean(), "SD": deviation.std(ddof=1),
                                 "RMSE": np.sqrt(np.mean(deviation**2))})
                print(f"done: {data_name}, m = {m}, {name} ({time.perf_counter() - start:.0f} s)",
                      flush=True)
    table = pd.DataFrame(rows).set_index(["data", "m", "learner", "estimator"])
    with pd.option_context("display.max_rows", None, "display.max_columns", None, "display.width", 160):
        print(table.round(3))

    coverage = {}
    for m in (10, 20, 50):
        cover = interval_coverage(np.mean, exponential, 1.0, m, n_datasets=5000, n_resamples=2000,
                                  random_state=m)
        samples = exponential(np.random.default_rng(100 + m), (5000, m))
        low, high = stats.t.interval(0.95, m - 1, loc=samples.mean(1), scale=stats.sem(samples, axis=1))
        cover["t interval"] = np.mean((low <= 1) & (1 <= high))
        coverage[m] = cover
    print("\nCoverage of nominal 95% intervals for the mean of Exp(1) samples (5,000 data sets):")
    print(pd.DataFrame(coverage).round(3))
    print(f"\nFinished in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=200)
    parser.add_argument("--n-jobs", type=int, default=-1)
    args = parser.parse_args()
    main(args.repetitions, args.n_jobs)
