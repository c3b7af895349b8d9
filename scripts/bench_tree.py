"""Benchmark of mlcore.tree: fitting a full tree on Wine Quality white against scikit-learn.

    python scripts/bench_tree.py

Fits ``mlcore.tree.DecisionTreeClassifier()`` (information gain, every
feature continuous) and ``sklearn.tree.DecisionTreeClassifier(criterion="entropy")``
to all 4,898 white wines (11 features, the quality score as the class) and
prints the best of 5 wall times of each and their ratio (target: within 10x),
and the ratio against the naive way, re-counting the classes on both sides
of every candidate threshold (timed on the root node only, where it already
takes seconds), and the cost-complexity pruning path of the same tree
(``cost_complexity_pruning_path``, pure Python weakest-link pruning) against
scikit-learn's.
"""

from __future__ import annotations

import os

os.environ.setdefault("MLCORE_QUIET", "1")

import numpy as np  # noqa: E402
from sklearn.tree import DecisionTreeClassifier as SkTree  # noqa: E402

from _benchmark import best_of  # noqa: E402
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
    t_ours, ours = best_of(5, lambda: DecisionTreeClassifier().fit(X, y))
    t_sklearn, theirs = best_of(5, lambda: SkTree(criterion="entropy", random_state=0).fit(X, y))
    print(f"full tree on {X.shape[0]:,} x {X.shape[1]}: mlcore {t_ours:.3f} s ({ours.n_leaves()} leaves), "
          f"scikit-learn {t_sklearn:.3f} s ({theirs.get_n_leaves()} leaves): ratio {t_ours / t_sklearn:.1f}x")
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
