"""The node of a fitted decision tree, and the rules the growers and predictors
share (:mod:`._tree`, :mod:`._dense`, :mod:`._prune`): a leaf's class and
probabilities, and which feature a node splits on."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Node:
    """One node: its weighted class counts and, unless it is a leaf, its split."""

    counts: np.ndarray
    prediction: int                          # index into classes_
    depth: int
    feature: int | None = None
    threshold: float | None = None           # continuous split: left is <= threshold
    children: list = field(default_factory=list)
    child_shares: np.ndarray | None = None   # training weight share of each child (missing values)

    @property
    def is_leaf(self):
        return not self.children


def _leaf_proba(node, n_classes):
    """A leaf's class probabilities: its weighted counts, normalized (its class for an empty leaf)."""
    total = node.counts.sum()
    if total == 0:
        out = np.zeros(n_classes)
        out[node.prediction] = 1.0
        return out
    return node.counts / total


def _majority(counts, fallback):
    """Index of the largest count; the first on ties; ``fallback`` for an empty node."""
    return int(np.argmax(counts)) if counts.sum() > 0 else fallback


def _pick(criterion, gains, ratios):
    """Which candidate split a node takes, of the scores of its valid candidates.

    The first highest gain; for ``"gini"`` the first lowest of ``gains``,
    which are then Gini indices; for C4.5's ``"gain_ratio"``, among the
    candidates whose gain is at least the average, the first highest
    ``ratios``. ``_best_split`` (one node) and ``_choose`` (a level of nodes)
    both decide by it, so the two growers choose alike.
    """
    if criterion == "gain":
        return int(np.argmax(gains))
    if criterion == "gini":
        return int(np.argmin(gains))
    eligible = gains >= gains.mean() - 1e-12
    return int(np.flatnonzero(eligible)[np.argmax(ratios[eligible])])
