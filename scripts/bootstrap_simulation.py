"""Full-size version of chapter 6's simulations: error estimators, the out-of-bag gap, interval coverage.

    python scripts/bootstrap_simulation.py                 # the sizes below, all cores
    python scripts/bootstrap_simulation.py --repetitions 50 --n-jobs 2
    python scripts/bootstrap_simulation.py --scheduler local:2   # on Dask (or tcp://host:8786)
    python scripts/bootstrap_simulation.py --parts estimators --data gaussian --sizes 20

The last line is the part chapter 6 quotes (1-NN and LDA, Gaussian classes,
m = 20, 200 data sets each); every setting has its own seed, so a subset
prints the same numbers as the full run.

Sizes used by default (the chapter quotes this run; it itself runs 24 data sets
per learner with 25 bootstrap samples, at m = 20 only):

1. Error estimators. For 1-NN and LDA on two Gaussian classes (Bayes error
   31 %) and on data whose labels carry no information (true error 50 %), at
   m = 20 and m = 50: ``--repetitions`` (200) training sets per setting; each
   classifier's error estimated by resubstitution, the naive bootstrap
   Err_boot, out-of-bag, Err(1), .632, .632+ (200 bootstrap samples), 10-fold
   CV and leave-one-out; true error on 5,000 fresh points. Printed: bias with
   its Monte Carlo standard error, SD, RMSE with its standard error, and the
   RMSE ranking with, for each neighbour in the ranking, the paired difference
   of mean squared errors in standard errors (|z| > 2: resolved).
2. The out-of-bag gap (chapter 6, "Why it is pessimistic"): 1-NN, m = 30,
   separation 2, 5,000 data sets x 20 bootstrap samples, 1,000 test points:
   the mean true error of the full model and of the bootstrap models, the mean
   out-of-bag estimate, and their paired differences with standard errors;
   once with exactly balanced classes (``gaussian_classes``, as in the
   chapter) and once with independent fair-coin labels.
3. Coverage of nominal 95 % intervals (percentile, basic, BCa, normal,
   bootstrap-t) for the mean of Exp(1) samples, m = 10, 20, 50: 5,000 data
   sets x 2,000 bootstrap samples each, and the t interval; each coverage has
   Monte Carlo standard error sqrt(p (1 - p) / 5000) <= 0.004.
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

from _cluster import add_scheduler_option, jobs  # noqa: E402

from mlcore._parallel import dask_backend  # noqa: E402
from mlcore.bootstrap import (gaussian_classes, interval_coverage, oob_gap_study,  # noqa: E402
                              simulate_error_estimates)

METHODS = ("percentile", "basic", "BCa", "normal", "studentized")


def exponential(rng, size):
    return rng.exponential(size=size)


def summarize(out):
    """Bias, SD and RMSE of every estimator, with Monte Carlo standard errors."""
    n = len(out["true error"])
    rows, squared = [], {}
    for method in list(out)[1:]:
        deviation = out[method] - out["true error"]
        squared[method] = deviation**2
        mse = squared[method].mean()
        rows.append({"estimator": method, "bias": deviation.mean(),
                     "bias se": deviation.std(ddof=1) / np.sqrt(n), "SD": deviation.std(ddof=1),
                     "RMSE": np.sqrt(mse),
                     "RMSE se": squared[method].std(ddof=1) / np.sqrt(n) / (2 * np.sqrt(mse))})
    table = pd.DataFrame(rows).set_index("estimator")
    order = table["RMSE"].sort_values().index
    ranking = []
    for better, worse in zip(order[:-1], order[1:]):
        diff = squared[worse] - squared[better]
        ranking.append(f"{better} < {worse} (z = {diff.mean() / (diff.std(ddof=1) / np.sqrt(n)):.1f})")
    return table, ranking


DATA = {"gaussian": ("Gaussian classes", 1.0), "noinfo": ("no information", 0.0)}
LEARNERS = {"1-NN": KNeighborsClassifier(1), "LDA": LinearDiscriminantAnalysis()}


def estimators(repetitions, n_jobs, start, data=("gaussian", "noinfo"), sizes=(20, 50),
               learners=("1-NN", "LDA")):
    for data_name, separation in (DATA[key] for key in data):
        sampler = partial(gaussian_classes, separation=separation)
        for m in sizes:
            for name, learner in ((key, LEARNERS[key]) for key in learners):
                out = simulate_error_estimates(learner, sampler, m, n_repetitions=repetitions,
                                               n_resamples=200, n_test=5000, random_state=m,
                                               n_jobs=n_jobs)
                table, ranking = summarize(out)
                print(f"\n{data_name}, m = {m}, {name}: mean true error "
                      f"{out['true error'].mean():.3f} ({repetitions} data sets, "
                      f"{time.perf_counter() - start:.0f} s)")
                print(table.round(3).to_string())
                print("RMSE ranking, paired z of the MSE difference:", "; ".join(ranking), flush=True)


def independent_labels(n, rng, separation):
    """Like gaussian_classes, but each label a fair coin flip (class sizes vary)."""
    y = rng.integers(0, 2, size=n)
    X = rng.normal(size=(n, 2))
    X[:, 0] += separation * y
    return X, y


def oob_gap(n_datasets):
    for labels, sampler in [("balanced classes", None), ("independent labels", independent_labels)]:
        out = oob_gap_study(30, n_datasets=n_datasets, n_resamples=20, separation=2.0, n_test=1000,
                            sampler=sampler, random_state=30)
        report_gap(out, n_datasets, labels)


def report_gap(out, n_datasets, labels):
    print(f"\nOut-of-bag gap, 1-NN, m = 30, {labels}, {n_datasets} data sets x 20 bootstrap samples:")
    for key, value in out.items():
        print(f"  mean {key:17s} {value.mean():.4f} +- {value.std(ddof=1) / np.sqrt(n_datasets):.4f}")
    for a, b in [("bootstrap models", "full model"), ("out-of-bag", "bootstrap models"),
                 ("out-of-bag", "full model")]:
        diff = out[a] - out[b]
        print(f"  {a} - {b}: {diff.mean():+.4f} +- {diff.std(ddof=1) / np.sqrt(n_datasets):.4f} "
              f"(per-data-set SD {diff.std(ddof=1):.3f})")


def coverage():
    table = {}
    for m in (10, 20, 50):
        cover = interval_coverage(np.mean, exponential, 1.0, m, n_datasets=5000, n_resamples=2000,
                                  methods=METHODS, standard_error=stats.sem, random_state=m)
        samples = exponential(np.random.default_rng(100 + m), (5000, m))
        low, high = stats.t.interval(0.95, m - 1, loc=samples.mean(1), scale=stats.sem(samples, axis=1))
        cover["t interval"] = np.mean((low <= 1) & (1 <= high))
        table[m] = cover
    print("\nCoverage of nominal 95% intervals for the mean of Exp(1) samples "
          "(5,000 data sets x 2,000 resamples; MC s.e. <= 0.004):")
    print(pd.DataFrame(table).round(3).to_string())


def main(repetitions: int, n_jobs: int, gap_datasets: int, parts: str, data: str, sizes: str,
         learners: str) -> None:
    start = time.perf_counter()
    if "gap" in parts:
        oob_gap(gap_datasets)
    if "coverage" in parts:
        coverage()
    if "estimators" in parts:
        estimators(repetitions, n_jobs, start, data.split(","), [int(m) for m in sizes.split(",")],
                   learners.split(","))
    print(f"\nFinished in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=200)
    parser.add_argument("--gap-datasets", type=int, default=5000)
    parser.add_argument("--n-jobs", type=int, default=-1)
    parser.add_argument("--parts", default="gap,coverage,estimators",
                        help="comma-separated subset of gap, coverage, estimators")
    parser.add_argument("--data", default="gaussian,noinfo", help="gaussian and/or noinfo")
    parser.add_argument("--sizes", default="20,50", help="training-set sizes m")
    parser.add_argument("--learners", default="1-NN,LDA")
    add_scheduler_option(parser)
    args = parser.parse_args()
    with dask_backend(args.scheduler):
        main(args.repetitions, jobs(args.n_jobs, args.scheduler), args.gap_datasets,
             args.parts, args.data, args.sizes, args.learners)
