"""Chapter 11: which shrinkage classifies best depends on where the classes differ.

The chapter's experiment (100 features with correlation 0.8^|i-j|, 40 training
and 2,000 test samples, 20 draws) separates the two classes by +-0.5 in the
first 10 features with *alternating* signs: the classes differ along
small-variance directions, which heavy shrinkage flattens, and the intensity
chosen by 5-fold cross-validation beats Ledoit-Wolf's. This script runs that
design beside a second one, a *same-sign* shift in the same 10 features scaled
to the same Bayes accuracy (the classes now differ along a large-variance
direction), with everything else equal, and prints for each design the mean
test accuracy of every fixed intensity of the grid, of Ledoit-Wolf, of the
CV-chosen intensity and of plain LDA (pseudo-inverse), and the paired
difference CV minus Ledoit-Wolf with its Monte Carlo standard error (paired:
both are scored on the same draws). A difference is called resolved beyond
two standard errors.

    python scripts/ch11_shrinkage_designs.py              # full size, as quoted
    python scripts/ch11_shrinkage_designs.py --draws 3 --test 200   # a quick look

Full size (the default, the chapter's sizes): 100 features, 20 draws of 40
training and 2,000 test samples per design, seed 2026; about 2,000 fits,
some 2 CPU-minutes in all.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import scipy.stats
from sklearn.model_selection import StratifiedKFold, cross_val_score

from mlcore.lda import FisherLDA, ShrinkageLDA

GRID = [0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 0.7, 1.0]   # the chapter's grid
N_FEATURES, N_SHIFTED, STEP = 100, 10, 0.5


def _covariance(n_features: int) -> np.ndarray:
    return 0.8 ** np.abs(np.subtract.outer(np.arange(n_features), np.arange(n_features)))


def designs(n_features: int = N_FEATURES) -> dict[str, np.ndarray]:
    """The chapter's alternating shift, and a same-sign shift of equal Bayes accuracy."""
    sigma = _covariance(n_features)
    alternating = np.r_[STEP * np.resize([1, -1], N_SHIFTED), np.zeros(n_features - N_SHIFTED)]
    same = np.r_[np.ones(N_SHIFTED), np.zeros(n_features - N_SHIFTED)]
    # Scale it to the same Mahalanobis distance, hence the same Bayes accuracy.
    same *= np.sqrt(_mahalanobis2(alternating, sigma) / _mahalanobis2(same, sigma))
    return {"alternating signs (the chapter's)": alternating,
            "same sign, same Bayes accuracy": same}


def _mahalanobis2(shift: np.ndarray, sigma: np.ndarray) -> float:
    return float(shift @ np.linalg.solve(sigma, shift))


def run(n_draws: int = 20, n_train: int = 40, n_test: int = 2000, seed: int = 2026,
        n_features: int = N_FEATURES) -> dict:
    """Each design's accuracies: ``{design: {"bayes": float, "accuracy": {name: array}}}``."""
    sigma = _covariance(n_features)
    factor = np.linalg.cholesky(sigma)
    results = {}
    for number, (design, shift) in enumerate(designs(n_features).items()):
        rng = np.random.default_rng([seed, number])

        def draw(m):
            y = np.repeat([0, 1], m // 2)
            return rng.standard_normal((m, n_features)) @ factor.T + np.outer(y, shift), y

        accuracy = {name: [] for name in [*map(str, GRID), "Ledoit-Wolf", "CV-chosen",
                                          "plain LDA"]}
        for r in range(n_draws):
            (X_tr, y_tr), (X_te, y_te) = draw(n_train), draw(n_test)
            for a in GRID:
                accuracy[str(a)].append(ShrinkageLDA(shrinkage=a).fit(X_tr, y_tr)
                                        .score(X_te, y_te))
            accuracy["Ledoit-Wolf"].append(ShrinkageLDA().fit(X_tr, y_tr).score(X_te, y_te))
            folds = StratifiedKFold(5, shuffle=True, random_state=r)
            cv = [cross_val_score(ShrinkageLDA(shrinkage=a), X_tr, y_tr, cv=folds).mean()
                  for a in GRID]
            chosen = GRID[int(np.argmax(cv))]
            accuracy["CV-chosen"].append(ShrinkageLDA(shrinkage=chosen).fit(X_tr, y_tr)
                                         .score(X_te, y_te))
            accuracy["plain LDA"].append(FisherLDA().fit(X_tr, y_tr).score(X_te, y_te))
        bayes = scipy.stats.norm.cdf(np.sqrt(_mahalanobis2(shift, sigma)) / 2)
        results[design] = {"bayes": float(bayes),
                           "accuracy": {k: np.array(v) for k, v in accuracy.items()}}
    return results


def summary(result: dict) -> dict:
    """Best fixed intensity, Ledoit-Wolf, CV-chosen, and CV minus Ledoit-Wolf (paired)."""
    acc = result["accuracy"]
    best = max(map(str, GRID), key=lambda a: acc[a].mean())
    diff = acc["CV-chosen"] - acc["Ledoit-Wolf"]
    se = diff.std(ddof=1) / np.sqrt(diff.size) if diff.size > 1 else float("nan")
    return {"bayes": result["bayes"], "best_alpha": float(best), "best": acc[best].mean(),
            "lw": acc["Ledoit-Wolf"].mean(), "cv": acc["CV-chosen"].mean(),
            "plain": acc["plain LDA"].mean(), "diff": diff.mean(), "diff_se": se}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=20, help="draws per design (20)")
    parser.add_argument("--train", type=int, default=40, help="training samples (40)")
    parser.add_argument("--test", type=int, default=2000, help="test samples (2000)")
    parser.add_argument("--features", type=int, default=N_FEATURES,
                        help=f"features, the first {N_SHIFTED} shifted ({N_FEATURES})")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    if (args.draws < 2 or args.train < 10 or args.train % 2 or args.test < 2
            or args.features < N_SHIFTED):
        parser.error(f"--draws must be >= 2, --train an even number >= 10, --test >= 2 and "
                     f"--features >= {N_SHIFTED}; got --draws {args.draws} --train "
                     f"{args.train} --test {args.test} --features {args.features}")
    print(f"{args.draws} draws per design, {args.train} training and {args.test} test "
          f"samples, {args.features} features, seed {args.seed}")
    out = {}
    results = run(args.draws, args.train, args.test, args.seed, args.features)
    for design, result in results.items():
        s = out[design] = summary(result)
        verdict = ("CV better" if s["diff"] > 2 * s["diff_se"] else "Ledoit-Wolf better"
                   if s["diff"] < -2 * s["diff_se"] else "not resolved")
        print(f"{design}: Bayes {s['bayes']:.3f}; best fixed alpha {s['best_alpha']:g}: "
              f"{s['best']:.3f}; Ledoit-Wolf {s['lw']:.3f}; CV-chosen {s['cv']:.3f}; "
              f"plain LDA {s['plain']:.3f}; CV minus Ledoit-Wolf {s['diff']:+.3f} "
              f"(paired MC s.e. {s['diff_se']:.3f}): {verdict}")
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
