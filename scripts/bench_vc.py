"""Benchmark of mlcore.vc: deciding all 2^n labelings of n points exactly.

    python scripts/bench_vc.py              # n = 10, 5 random point sets
    python scripts/bench_vc.py --n 8 --sets 3 --n-jobs 2

For half-planes and discs it times the combinatorial enumerations (angular
sweep; circles through three points, tilted) against one linear program per
labeling (SciPy's HiGHS), checks that both give the same answer, and reports
the explorer's redraw time (wall clock, and CPU time, which a busy machine
inflates less). The target: all 2^10 labelings of 10 points by
half-planes in under one second.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("MLCORE_QUIET", "1")

import numpy as np  # noqa: E402

from mlcore.vc import PRESETS, ShatteringExplorer, realizable_labelings  # noqa: E402
from _benchmark import best_of  # noqa: E402  (scripts/ is on sys.path when run)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10, help="points per set (<= 20)")
    parser.add_argument("--sets", type=int, default=5, help="random point sets")
    parser.add_argument("--n-jobs", type=int, default=None, help="joblib jobs for the LPs")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    print(f"{2 ** args.n} labelings of n = {args.n} random points in the plane, "
          f"{args.sets} sets (best of 3 for the fast methods)")
    print(f"{'class':>10} {'set':>4} {'fast (s)':>10} {'LP (s)':>9} {'speed-up':>9} "
          f"{'realizable':>11} {'agree':>6}")
    worst_halfplane = 0.0
    for cls in ("halfspace", "disc"):
        for index in range(args.sets):
            points = rng.normal(size=(args.n, 2))
            fast_time, fast = best_of(3, lambda: realizable_labelings(points, hypothesis_class=cls))
            lp_time, slow = best_of(1, lambda: realizable_labelings(
                points, hypothesis_class=cls, method="lp", n_jobs=args.n_jobs))
            agree = bool(np.array_equal(fast, slow))
            if cls == "halfspace":
                worst_halfplane = max(worst_halfplane, fast_time)
            print(f"{cls:>10} {index:>4} {fast_time:>10.4f} {lp_time:>9.2f} "
                  f"{lp_time / fast_time:>8.0f}x {int(fast.sum()):>11} {str(agree):>6}")
            if not agree:
                print("  disagreement: the enumeration and the LP differ", file=sys.stderr)
                return 1
    print(f"\nslowest half-plane enumeration: {worst_halfplane:.4f} s "
          f"({'within' if worst_halfplane < 1 else 'ABOVE'} the 1 s target)")
    figure = ShatteringExplorer()
    for cls in ("halfspace", "disc", "rectangle", "interval", "threshold"):
        figure._controls["hypothesis_class"].value = cls
        figure.time_updates("preset", PRESETS[:2])  # warm-up
        cpu = time.process_time()
        timings = figure.time_updates("preset", list(PRESETS) * 3)
        cpu = 1000 * (time.process_time() - cpu) / timings.size
        print(f"explorer, {cls:>9}: update + redraw p50 {np.percentile(timings, 50):5.1f} ms, "
              f"p95 {np.percentile(timings, 95):5.1f} ms (wall), mean {cpu:5.1f} ms CPU, "
              f"over {timings.size} redraws")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
