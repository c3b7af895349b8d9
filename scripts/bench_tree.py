"""Benchmark of mlcore.tree: fitting a full tree on Wine Quality white against scikit-learn.

    python scripts/bench_tree.py

Fits ``mlcore.tree.DecisionTreeClassifier()`` (information gain, every
feature continuous) and ``sklearn.tree.DecisionTreeClassifier(criterion="entropy")``
to all 4,898 white wines (11 features, the quality score as the class) and
prints their CPU-time ratios for ``fit`` and ``predict`` (best of 5 each;
CPU time, which other work on the machine changes little), as
``fit: R× scikit-learn`` (goal: within 5x) and ``predict: R× scikit-learn``
(goal: within 10x), and the best wall times,
and the ratio against the naive way, re-counting the classes on both sides
of every candidate threshold (timed on the root node only, where it already
takes seconds), and the cost-complexity pruning path of the same tree
(``cost_complexity_pruning_path``: growing the tree, then weakest-link
pruning with one NumPy expression per pruning step) against scikit-learn's.
"""

from __future__ import annotations

import os

os.environ.setdefault("MLCORE_QUIET", "1")

import numpy as np  # noqa: E402
from sklearn.tree import DecisionTreeClassifier as SkTree  # noqa: E402

from _benchmark import best_cpu, best_of  # noqa: E402
from mlcore.datasets import load_wine_quality  # noqa: E402
from mlcore.tree import DecisionTreeClassifier, entropy, threshold_gains  # noqa: E402


def naive_root_split(X, y):
    """Best (feature, threshold) at the root by recounting both sides of every threshold."""
    best = (-np.inf, None, None)
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for t in (values[:-1] + values[1:]) / 2:
            left = X[:, j] <= t
            gain = entropy(y) - left.mean() * entropy(y[left]) - (~left).mean() * entropy(y[~left])
            if gain > best[0]:
                best = (gain, j, t)
    return best


def main() -> None:
    X, y = load_wine_quality("white", return_X_y=True)
    c_ours, ours = best_cpu(5, lambda: DecisionTreeClassifier().fit(X, y))
    c_sklearn, theirs = best_cpu(5, lambda: SkTree(criterion="entropy", random_state=0).fit(X, y))
    p_ours, _ = best_cpu(5, lambda: [ours.predict(X) for _ in range(10)])
    p_sklearn, _ = best_cpu(5, lambda: [theirs.predict(X) for _ in range(10)])
    print(f"fit: {c_ours / c_sklearn:.1f}× scikit-learn")
    print(f"predict: {p_ours / p_sklearn:.1f}× scikit-learn")
    t_ours, _ = best_of(5, lambda: DecisionTreeClassifier().fit(X, y))
    t_sklearn, _ = best_of(5, lambda: SkTree(criterion="entropy", random_state=0).fit(X, y))
    print(f"full tree on {X.shape[0]:,} x {X.shape[1]}: mlcore {t_ours:.3f} s ({ours.n_leaves()} leaves), "
          f"scikit-learn {t_sklearn:.3f} s ({theirs.get_n_leaves()} leaves), wall; CPU "
          f"{c_ours:.3f} s and {c_sklearn:.3f} s; predict of the 4,898 rows ×10: CPU {p_ours:.4f} s "
          f"and {p_sklearn:.4f} s")
    t_vector, _ = best_of(3, lambda: [threshold_gains(X[:, j], y) for j in range(X.shape[1])])
    t_naive, naive = best_of(1, lambda: naive_root_split(X, y))
    gains = [threshold_gains(X[:, j], y)[1].max() for j in range(X.shape[1])]
    assert np.isclose(max(gains), naive[0])
    print(f"root split: cumulative counts {t_vector:.4f} s, recounting per threshold {t_naive:.2f} s: "
          f"{t_naive / t_vector:,.0f}x faster")
    t_path, path = best_of(1, lambda: DecisionTreeClassifier().cost_complexity_pruning_path(X, y))
    t_sk_path, sk_path = best_of(3, lambda: SkTree(criterion="entropy", random_state=0).cost_complexity_pruning_path(X, y))
    print(f"cost-complexity path: mlcore {t_path:.2f} s ({len(path.ccp_alphas)} alphas), scikit-learn "
          f"{t_sk_path:.3f} s ({len(sk_path.ccp_alphas)} alphas; the trees differ at exact ties)")


if __name__ == "__main__":
    main()
