"""Full-size run of chapter 3's VC simulation: the true worst-case gap over all half-planes.

Sizes: m in (25, 50, 100, 200, 400) training points, 2,000 samples each (pure-noise
labels, so eps(h) = 1/2 exactly for every half-plane), seed 20261122, joblib n_jobs=2
(``--n-jobs``; ``--scheduler`` runs it on Dask).
Prints, per m, the mean of sup_h |eps(h) - eps_hat(h)| with its Monte Carlo s.e., its
95% quantile, and the two bounds at delta = 0.05 (Rademacher form, Mohri et al. Cor. 3.19;
DGL Thm 12.6 with Sauer). About 20 CPU-minutes.

    python scripts/vc_gap_simulation.py [--n-trials 2000] [--scheduler local:2]
"""

import argparse

import numpy as np
from _cluster import add_scheduler_option, jobs

from mlcore._parallel import dask_backend
from mlcore.vc import halfplane_noise_gaps, rademacher_vc_gap, vc_bound_gap


def main(n_trials: int, n_jobs: int) -> None:
    print("   m   mean gap ± MC s.e.   95% quantile   Rademacher bound   DGL bound")
    for m in (25, 50, 100, 200, 400):
        gaps = halfplane_noise_gaps(m, n_trials, seed=20261122 + m, n_jobs=n_jobs)
        print(f"{m:>4} {gaps.mean():>9.4f} ± {gaps.std(ddof=1) / np.sqrt(n_trials):.4f} "
              f"{np.quantile(gaps, 0.95):>14.4f} {rademacher_vc_gap(3, m, 0.05):>18.4f} "
              f"{vc_bound_gap(3, m, 0.05):>11.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-trials", type=int, default=2000)
    parser.add_argument("--n-jobs", type=int, default=2)
    add_scheduler_option(parser)
    args = parser.parse_args()
    with dask_backend(args.scheduler):
        main(args.n_trials, jobs(args.n_jobs, args.scheduler))
