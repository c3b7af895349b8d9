"""Full-size run of chapter 4's simulation: how biased and how variable is each CV scheme?

    python scripts/cv_estimator_study.py                      # 2,000 training sets per size
    python scripts/cv_estimator_study.py --repeats 200 --sizes 30 60 120
    python scripts/cv_estimator_study.py --sections nested    # only section 4
    python scripts/cv_estimator_study.py --scheduler local:2  # on Dask (or tcp://host:8786)

The chapter runs the same experiments at sizes that execute in seconds:
``mlcore.model_selection.cv_estimator_study`` at 200 training sets at m = 30, 60,
120; ``mx2_variance_study`` at 40 training sets x 20 draws; the nested-CV
experiment at 150 training sets; ``degree_selection_study`` at 100 training sets
at m = 40 and 160. This script runs the full size
(by default 2,000 training sets at m = 30, 60, 120, 240, 480; and 400 training
sets x 40 draws of blocked and random r x 2 CV at m = 60, r = 3 and 5; 1,000
training sets of the nested-CV experiment at m = 30; 1,000 training sets at m = 40,
160 and 640 of the degree-selection experiment), prints
the bias / standard deviation / RMSE table with Monte Carlo standard errors, the
median bias and the interquartile range (the two-fold schemes are heavy-tailed at
m = 30), and benchmarks the way the module computes it (all splits of a scheme fitted at
once by a batched QR, repetitions in parallel with joblib) against the naive
way (``cross_val_score`` with ``LinearRegression``, one fit per split, one
repetition after another) on the same training sets, checking that both give
the same estimates.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import KFold, LeaveOneOut, cross_val_score

from _cluster import add_scheduler_option, jobs  # noqa: E402

from mlcore._parallel import dask_backend  # noqa: E402
from mlcore.model_selection import (SELECTION_SCHEMES, STUDY_SCHEMES, cv_estimator_study,
                                    degree_curves, degree_selection_study,
                                    legendre_design,
                                    make_splitter, mx2_variance_study, sine_regression,
                                    summarize_cv_study)

DEGREE, NOISE = 3, 0.5


def naive_study(sizes, n_repeats, random_state):
    """The same estimates as cv_estimator_study, one cross_val_score call per scheme."""
    seeds = np.random.SeedSequence(random_state).spawn(len(sizes) * n_repeats + 1)
    estimates = []
    for i, m in enumerate(sizes):
        for seed in seeds[i * n_repeats:(i + 1) * n_repeats]:
            rng = np.random.default_rng(seed)
            x, y = sine_regression(m, noise=NOISE, random_state=rng)
            X = legendre_design(x, DEGREE)
            for _, scheme, n_splits, n_repeats_ in STUDY_SCHEMES:
                cv = LeaveOneOut() if scheme == "LOO" else make_splitter(
                    scheme, n_splits=n_splits, n_repeats=n_repeats_,
                    random_state=int(rng.integers(2 ** 31)))
                scores = cross_val_score(LinearRegression(fit_intercept=False), X, y, cv=cv,
                                         scoring="neg_mean_squared_error")
                estimates.append(-scores.mean())
    return np.array(estimates)


def select_degree(x, y, seed, candidates):
    """Chapter 4's procedure: 10-fold CV over the degrees, refit the best on (x, y)."""
    _, cv = degree_curves(x, y, candidates, n_splits=10, random_state=seed)
    best = int(candidates[np.argmin(cv)])
    return best, cv.min(), np.linalg.lstsq(legendre_design(x, best), y, rcond=None)[0]


def nested_study(n_sets, seed, m=30, noise=0.3, candidates=np.arange(9)):
    """Reported CV minimum, 5-fold nested CV and true error of the returned model, per set."""
    rng = np.random.default_rng(seed)
    x_eval, y_eval = sine_regression(20_000, noise=noise, random_state=rng)
    rows = []
    for _ in range(n_sets):
        x, y = sine_regression(m, noise=noise, random_state=rng)
        best, reported, coef = select_degree(x, y, seed, candidates)
        truth = np.mean((y_eval - legendre_design(x_eval, best) @ coef) ** 2)
        outer = []
        for train, test in KFold(5, shuffle=True, random_state=seed).split(x):
            b, _, c = select_degree(x[train], y[train], seed, candidates)
            outer.append(np.mean((y[test] - legendre_design(x[test], b) @ c) ** 2))
        rows.append((reported, np.mean(outer), truth))
    return np.array(rows).T


def timed(func, *args, **kwargs):
    start = time.perf_counter()
    result = func(*args, **kwargs)
    return result, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 60, 120, 240, 480])
    parser.add_argument("--repeats", type=int, default=2000, help="training sets per size")
    parser.add_argument("--n-jobs", type=int, default=-1, help="joblib workers (-1: all cores)")
    parser.add_argument("--bench-repeats", type=int, default=10,
                        help="training sets per size in the naive-vs-batched benchmark")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--mx2-datasets", type=int, default=400,
                        help="training sets (m = 60) in the blocked-vs-random r x 2 comparison")
    parser.add_argument("--nested-sets", type=int, default=1000,
                        help="training sets (m = 30) in the nested-CV experiment")
    parser.add_argument("--mx2-draws", type=int, default=40,
                        help="fresh shuffles of each splitter per training set")
    parser.add_argument("--selection-sets", type=int, default=1000,
                        help="training sets per size (m = 40, 160, 640) in the selection study")
    parser.add_argument("--sections", nargs="+",
                        default=["bench", "study", "mx2", "nested", "selection"],
                        choices=["bench", "study", "mx2", "nested", "selection"],
                        help="what to run")
    add_scheduler_option(parser)
    args = parser.parse_args()
    args.n_jobs = jobs(args.n_jobs, args.scheduler)
    os.environ.setdefault("MLCORE_QUIET", "1")
    with dask_backend(args.scheduler):
        run_sections(args)


def run_sections(args):
    if "bench" in args.sections:
        benchmark(args)
    if "study" in args.sections:
        study(args)
    if "mx2" in args.sections:
        mx2(args)
    if "nested" in args.sections:
        nested(args)
    if "selection" in args.sections:
        selection(args)


def benchmark(args):
    """Section 1: the naive loop on a few training sets (checked equal to the batched
    estimates), the batched way in one process and in parallel on ten times as many
    (after warming up joblib's worker pool), per training set."""
    naive, t_naive = timed(naive_study, args.sizes, args.bench_repeats, args.seed)
    check = cv_estimator_study(args.sizes, args.bench_repeats, random_state=args.seed, n_jobs=1)
    assert np.allclose(check["estimate"], naive, rtol=1e-8), "batched estimates differ"
    bench = dict(sizes=args.sizes, n_repeats=10 * args.bench_repeats, random_state=args.seed)
    serial, t_serial = timed(cv_estimator_study, **bench, n_jobs=1)
    cv_estimator_study(args.sizes, 2, random_state=0, n_jobs=args.n_jobs)  # start the workers
    parallel, t_parallel = timed(cv_estimator_study, **bench, n_jobs=args.n_jobs)
    assert np.array_equal(serial["estimate"], parallel["estimate"]), "n_jobs changed the result"
    few, many = len(args.sizes) * args.bench_repeats, len(args.sizes) * bench["n_repeats"]
    per = [t_naive / few, t_serial / many, t_parallel / many]
    print(f"benchmark: ms per training set, {len(STUDY_SCHEMES)} schemes each "
          "(batched estimates equal cross_val_score's to 1e-8):")
    print(f"  naive loop, cross_val_score      {1e3 * per[0]:8.1f} ms   ({few} training sets)")
    print(f"  batched QR, n_jobs=1             {1e3 * per[1]:8.1f} ms   "
          f"({per[0] / per[1]:5.1f}x faster; {many} training sets)")
    print(f"  batched QR, n_jobs={args.n_jobs:<3}          {1e3 * per[2]:8.1f} ms   "
          f"({per[0] / per[2]:5.1f}x faster than naive, {per[1] / per[2]:4.2f}x from joblib "
          f"on {os.cpu_count()} cores)")


def study(args):
    """Section 2: the full-size study."""
    results, t_full = timed(cv_estimator_study, sizes=args.sizes, n_repeats=args.repeats,
                            n_jobs=args.n_jobs, random_state=args.seed)
    print(f"\nfull study: {len(args.sizes)} sizes x {args.repeats} training sets in {t_full:.1f} s "
          f"")
    summary = summarize_cv_study(results)
    print("\nbias = mean(estimate - true error) +- MC s.e.; std +- delta-method s.e.; "
          "median bias and IQR are robust to the heavy tails")
    print(f"\n{'m':>5} {'scheme':<12} {'mean est':>9} {'mean true':>9} {'bias':>8} {'+-se':>7} "
          f"{'median b':>8} {'std':>7} {'+-se':>7} {'iqr':>7} {'rmse':>7} {'corr':>6}")
    for row in range(len(summary["scheme"])):
        m, scheme = summary["n_samples"][row], summary["scheme"][row]
        pick = (results["n_samples"] == m) & (results["scheme"] == scheme)
        corr = np.corrcoef(results["estimate"][pick], results["true_error"][pick])[0, 1]
        print(f"{m:>5} {scheme:<12} {summary['mean_estimate'][row]:9.4f} "
              f"{summary['mean_true_error'][row]:9.4f} {summary['bias'][row]:8.4f} "
              f"{summary['bias_se'][row]:7.4f} {summary['median_bias'][row]:8.4f} "
              f"{summary['std'][row]:7.4f} {summary['std_se'][row]:7.4f} "
              f"{summary['iqr'][row]:7.4f} {summary['rmse'][row]:7.4f} {corr:6.3f}")



def mx2(args):
    """Section 3: blocked against random r x 2 CV at equal r, on the same training sets."""
    print(f"\nblocked vs random r x 2 CV, m = 60, {args.mx2_datasets} training sets x "
          f"{args.mx2_draws} draws of each splitter:")
    for r in (3, 5):
        out = mx2_variance_study(60, args.mx2_datasets, args.mx2_draws, n_repeats=r,
                                 random_state=args.seed)
        log_ratio = np.log(out["blocked_var"] / out["random_var"])
        diff = out["blocked_mean"] - out["random_mean"]
        se = log_ratio.std(ddof=1) / np.sqrt(args.mx2_datasets)
        print(f"  r = {r}: median split-induced variance random "
              f"{np.median(out['random_var']):.2e}, "
              f"blocked {np.median(out['blocked_var']):.2e}; mean log(blocked/random) "
              f"{log_ratio.mean():+.3f} +- {se:.3f} (ratio {np.exp(log_ratio.mean()):.3f}); "
              f"mean estimate blocked - random {diff.mean():+.5f} +- "
              f"{diff.std(ddof=1) / np.sqrt(args.mx2_datasets):.5f}")



def nested(args):
    """Section 4: is the reported CV minimum optimistic, the nested estimate honest?"""
    reported, nested, truth = nested_study(args.nested_sets, args.seed)
    print(f"\nnested CV, m = 30, degrees 0-8, {args.nested_sets} training sets: true error of "
          f"the returned model median {np.median(truth):.3f}, mean {truth.mean():.3f}, "
          f"largest {truth.max():.2f}")
    for name, est in [("reported CV minimum", reported), ("5-fold nested CV", nested)]:
        diff = est - truth
        below = np.mean(diff < 0)
        print(f"  {name:>19} - true: mean {diff.mean():+.4f} +- "
              f"{diff.std(ddof=1) / np.sqrt(len(diff)):.4f}, median {np.median(diff):+.4f}, "
              f"below the truth in {below:.3f} +- {np.sqrt(below * (1 - below) / len(diff)):.3f}")



def selection(args):
    """Section 5: choosing the true degree (3 of 0-8) by each scheme, and the regret."""
    out = degree_selection_study(sizes=(40, 160, 640), n_datasets=args.selection_sets,
                                 random_state=args.seed)
    print(f"\nchoosing the degree (true 3, candidates 0-8), {args.selection_sets} training "
          "sets per size: P(true degree), P(larger degree), mean regret, each +- s.e.")
    for m in (40, 160, 640):
        for name in SELECTION_SCHEMES:
            pick = (out["n_samples"] == m) & (out["scheme"] == name)
            right, over = np.mean(out["chosen"][pick] == 3), np.mean(out["chosen"][pick] > 3)
            regret = out["regret"][pick]
            n = pick.sum()
            se = np.sqrt(right * (1 - right) / n)
            print(f"  m = {m:3} {name:<9} P(3) {right:.3f} +- {se:.3f}"
                  f"  P(>3) {over:.3f}  regret {regret.mean():.5f} +- "
                  f"{regret.std(ddof=1) / np.sqrt(n):.5f}")


if __name__ == "__main__":
    main()
