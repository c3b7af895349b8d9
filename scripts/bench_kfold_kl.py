"""Benchmark of mlcore.divergence.kfold_kl_curve: prefix sums against the naive loop.

    python scripts/bench_kfold_kl.py            # the ratio on Wine Quality white
    python scripts/bench_kfold_kl.py --full     # also the whole curves, 100 repetitions

The naive loop is the straightforward computation: scikit-learn's ``KFold``
and ``np.cov`` for the training and the test part of every fold, then the
closed-form KL. Both run on the same shuffles (the same ``random_state``),
so they must agree to rounding; the script checks 1e-9 relative and prints
the speed ratio (the target is at least 20).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

os.environ.setdefault("MLCORE_QUIET", "1")

from mlcore.datasets import load_wine_quality  # noqa: E402
from mlcore.divergence import kfold_kl_curve, max_n_folds, paper_datasets  # noqa: E402
from _benchmark import best_of  # noqa: E402  (scripts/ is on sys.path when run)


def ratio():
    X, y = load_wine_quality("white", return_X_y=True)
    Ks = np.arange(2, 41)
    args = dict(n_repeats=10, random_state=0)
    fast_time, fast = best_of(3, lambda: kfold_kl_curve(X, Ks, **args))
    naive_time, naive = best_of(1, lambda: kfold_kl_curve(X, Ks, method="naive", **args))
    error = float(np.max(np.abs(fast - naive) / np.abs(naive)))
    print(f"Wine Quality white, K = 2..40, 10 repetitions ({int(Ks.sum()) * 10} folds)")
    print(f"  naive (KFold + np.cov per fold): {naive_time:8.3f} s")
    print(f"  prefix sums, batched Cholesky:   {fast_time:8.3f} s")
    print(f"  ratio {naive_time / fast_time:.1f}x, max relative difference {error:.1e}")
    assert error < 1e-9, "the fast curve disagrees with the naive loop"
    return naive_time / fast_time


def full_curves(n_jobs):
    # Largest K with no singular fold over the 100 shuffles of random_state=0: Wholesale and
    # Wine reach max_n_folds; the wine-quality files hold repeated rows, so near max_n_folds a
    # 12-sample fold sometimes has two equal rows (a singular covariance) and the range stops
    # a little earlier.
    below_limit = {"Red": 10, "White": 40}
    total = 0.0
    for name, (X, y) in paper_datasets().items():
        if "7 classes" in name or "6 classes" in name or "3 classes" in name:
            continue
        top = max_n_folds(*X.shape) - below_limit.get(name.split(",")[0], 0)
        Ks = np.arange(2, top + 1)
        seconds, curve = best_of(1, lambda: kfold_kl_curve(X, Ks, y, n_repeats=100, stratify=True,
                                                           random_state=0, n_jobs=n_jobs))
        total += seconds
        print(f"  {name:18s} K = 2..{top:3d}: {seconds:6.2f} s "
              f"(D_AKL from {curve[0]:.3f} to {curve[-1]:.3f})")
    print(f"  total {total:.1f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="also time the whole curves")
    parser.add_argument("--n-jobs", type=int, default=2)
    options = parser.parse_args()
    ratio()
    if options.full:
        print("Whole curves up to the largest computable K, 100 stratified repetitions:")
        full_curves(options.n_jobs)
