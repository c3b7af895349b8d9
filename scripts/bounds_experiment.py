"""Chapter 2's Monte Carlo experiment at full size (the chapter runs 2,000 training sets).

    python scripts/bounds_experiment.py [--n-trials 20000] [--n-jobs -1] [--scheduler local:2]

For k = 10, 100, 1000 threshold classifiers and several training-set sizes m,
it simulates ``n_trials`` training sets, then prints

* the observed P(max_h |eps(h) - eps_hat(h)| > gamma), with its Monte Carlo
  standard error, beside the union bound 2k exp(-2 gamma^2 m) and the
  one-classifier bound 2 exp(-2 gamma^2 m);
* the two slacks, measured with exact binomial tails P(A_h): Hoeffding's own,
  2k exp(-2 gamma^2 m) / sum_h P(A_h) (exact), and the union's,
  sum_h P(A_h) / observed (with its standard error);
* at the bound's own sample size for delta, the observed failure rate (must be
  <= delta);
* the gap the bound guarantees with probability 0.95 beside the observed 95th
  percentile of the maximal deviation, and their ratio.

and, in the realizable case (no label noise, 16,384 nested thresholds with the
true cut among them), the mean true error of ERM times m, which stays near 1.

It exits with status 1 if any observation contradicts the theorem (the
union bound, the union of exact tails by more than 4 standard errors, the
gap, delta, or the realizable bound log(k/delta)/m).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from _cluster import add_scheduler_option, jobs

from mlcore._parallel import dask_backend
from mlcore.bounds import (
    binomial_deviation_tail,
    finite_class_failure_bound,
    finite_class_gap,
    finite_class_sample_size,
    hoeffding_tail,
    simulate_uniform_convergence,
)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-trials", type=int, default=20_000)
    parser.add_argument("--n-jobs", type=int, default=-1)
    parser.add_argument("--gamma", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    add_scheduler_option(parser)
    args = parser.parse_args(argv)
    args.n_jobs = jobs(args.n_jobs, args.scheduler)
    with dask_backend(args.scheduler):
        return experiment(args)


def experiment(args) -> int:
    gamma, failures, start = args.gamma, 0, time.perf_counter()
    run = dict(n_trials=args.n_trials, random_state=args.seed, n_jobs=args.n_jobs)

    for k in (10, 100, 1000):
        print(f"\nk = {k}, gamma = {gamma}, {args.n_trials:,} training sets per row")
        print(f"{'m':>6} {'observed':>10} {'s.e.':>8} {'union bound':>12} {'one h':>10} "
              f"{'Hoeffding slack':>16} {'union slack':>16} "
              f"{'gap 95% bound':>14} {'gap 95% seen':>13} {'ratio':>6}")
        for m in (50, 100, 200, 300, 400, 800, 1600):
            result = simulate_uniform_convergence(k, m=m, gamma=gamma, **run)
            rate, bound = result.violation_rate(), result.bound()
            se = (max(rate, 1 / args.n_trials) * (1 - rate) / args.n_trials) ** 0.5
            exact_union = float(np.sum(binomial_deviation_tail(m, result.true_errors, gamma=gamma)))
            hoeffding_slack = finite_class_failure_bound(k, m=m, gamma=gamma) / exact_union
            union_slack = (f"{exact_union / rate:>7.2f} +- {exact_union / rate**2 * se:<5.2f}"
                           if rate > 0 else f"{'(no failure)':>16}")
            guaranteed = finite_class_gap(k, m=m, delta=0.05)
            seen = result.deviation_quantile(0.05)
            failures += (rate > min(1.0, bound)) + (seen > guaranteed) + (rate > exact_union + 4 * se)
            print(f"{m:>6} {rate:>10.5f} {se:>8.5f} {bound:>12.4g} {hoeffding_tail(m, gamma=gamma):>10.4g} "
                  f"{hoeffding_slack:>16.2f} {union_slack} "
                  f"{guaranteed:>14.4f} {seen:>13.4f} {guaranteed / seen:>6.2f}")
        for delta in (0.5, 0.1, 0.01):
            m = finite_class_sample_size(k, gamma=gamma, delta=delta)
            rate = simulate_uniform_convergence(k, m=m, gamma=gamma, **run).violation_rate()
            failures += rate > delta
            print(f"  delta = {delta:<5} m = {m:>5}: observed failure rate {rate:.5f}")

    k, delta = 2**14, 0.05
    print(f"\nrealizable: no noise, k = {k} nested thresholds, true cut 0.375 among them")
    for m in (25, 50, 100, 200, 400, 800, 1600):
        result = simulate_uniform_convergence(k, m=m, noise=0.0, boundary=0.375, grid="left",
                                              n_trials=args.n_trials // 4, random_state=args.seed,
                                              n_jobs=args.n_jobs)
        mean = result.erm_error.mean()
        se = result.erm_error.std(ddof=1) / result.n_trials**0.5
        bound = np.log(k / delta) / m
        above = float(np.mean(result.erm_error > bound))
        failures += above > delta
        print(f"  m = {m:>4}: mean eps(ERM) = {mean:.5f} +- {se:.5f}, m * mean = {m * mean:.3f}, "
              f"bound log(k/delta)/m = {bound:.4f} exceeded on {above:.4f}")

    print(f"\n{failures} contradiction(s) of the theorem; {time.perf_counter() - start:.0f} s")
    return int(failures > 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
