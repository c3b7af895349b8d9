"""Benchmark of mlcore.evaluation: AUC and the ROC curve on a million scores.

    python scripts/bench_evaluation.py            # m = 1,000,000 scores, 10 % positives
    python scripts/bench_evaluation.py --m 200000

Times ``auc_rank`` (one sort, average ranks) and ``roc_curve`` (one sort,
cumulative counts) against scikit-learn's ``roc_auc_score`` and
``roc_curve(drop_intermediate=False)`` on the same scores (with ties: scores
rounded to 3 decimals), checks that the numbers agree, and prints the ratio
against the naive way: comparing every positive with every negative,
O(m+ m-), timed on a 20,000-score subsample and scaled by the number of pairs.
Also times DeLong's variance (three rankings, O(m log m)) and the partial
AUC against ``roc_auc_score(max_fpr=0.1)``.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

os.environ.setdefault("MLCORE_QUIET", "1")

from sklearn import metrics  # noqa: E402

from _benchmark import best_of  # noqa: E402
from mlcore.evaluation import auc_rank, delong_auc, partial_auc, roc_curve  # noqa: E402


def pairwise_auc(y, score):
    """P(s+ > s-) + P(s+ = s-)/2 by comparing every pair, in blocks to bound memory."""
    pos, neg = score[y == 1], score[y == 0]
    wins = 0.0
    for start in range(0, pos.size, 500):
        block = pos[start:start + 500, None]
        wins += np.sum(block > neg) + 0.5 * np.sum(block == neg)
    return wins / (pos.size * neg.size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--m", type=int, default=1_000_000, help="number of scores")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    y = (rng.random(args.m) < 0.1).astype(int)
    score = np.round(rng.normal(size=args.m) + y, 3)

    t_auc, auc = best_of(3, lambda: auc_rank(y, score))
    t_sk_auc, sk_auc = best_of(3, lambda: metrics.roc_auc_score(y, score))
    t_roc, ours = best_of(3, lambda: roc_curve(y, score))
    t_sk_roc, theirs = best_of(3, lambda: metrics.roc_curve(y, score, drop_intermediate=False))
    assert abs(auc - sk_auc) < 1e-12 and all(np.array_equal(a, b) for a, b in zip(ours, theirs))

    t_delong, delong = best_of(3, lambda: delong_auc(y, score))
    t_pauc, pauc = best_of(3, lambda: partial_auc(y, score, max_fpr=0.1))
    t_sk_pauc, sk_pauc = best_of(3, lambda: metrics.roc_auc_score(y, score, max_fpr=0.1))
    assert abs(delong.auc[0] - auc) < 1e-12 and abs(pauc - sk_pauc) < 1e-12

    sub = rng.choice(args.m, 20_000, replace=False)
    t_pairs, pair_auc = best_of(1, lambda: pairwise_auc(y[sub], score[sub]))
    assert abs(pair_auc - auc_rank(y[sub], score[sub])) < 1e-12
    scale = (y.sum() * (args.m - y.sum())) / (y[sub].sum() * (sub.size - y[sub].sum()))

    print(f"m = {args.m:,} scores, {y.mean():.1%} positive, {np.unique(score).size:,} distinct")
    print(f"auc_rank    {t_auc:7.3f} s   sklearn roc_auc_score {t_sk_auc:7.3f} s   "
          f"ratio {t_sk_auc / t_auc:5.2f}x   (AUC {auc:.6f}, equal)")
    print(f"roc_curve   {t_roc:7.3f} s   sklearn roc_curve     {t_sk_roc:7.3f} s   "
          f"ratio {t_sk_roc / t_roc:5.2f}x   (same arrays)")
    print(f"delong_auc  {t_delong:7.3f} s   (AUC {delong.auc[0]:.6f}, s.e. {delong.standard_error[0]:.6f})")
    print(f"partial_auc {t_pauc:7.3f} s   sklearn max_fpr=0.1   {t_sk_pauc:7.3f} s   "
          f"ratio {t_sk_pauc / t_pauc:5.2f}x   (equal)")
    print(f"naive pairwise AUC: {t_pairs:.3f} s on 20,000 scores, about {t_pairs * scale:,.0f} s "
          f"for all {args.m:,}: auc_rank is about {t_pairs * scale / t_auc:,.0f}x faster")


if __name__ == "__main__":
    main()
