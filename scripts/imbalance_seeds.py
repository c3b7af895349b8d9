"""Chapter 11, full size: the imbalance remedies on white wine (quality >= 8) over
20 seeds (each seed redraws the 5 folds, the undersamples, EasyEnsemble's subsets
and SMOTE's points), which the chapter's bootstrap over one run's out-of-fold
predictions cannot see: it holds the trained models fixed.

    python scripts/imbalance_seeds.py            # minutes of CPU (165 s in one run)

Prints, per remedy, the mean and the spread (sd) over seeds of each measure, and
the paired differences over seeds that the chapter quotes, with their s.e.
(sd / sqrt(20)).
"""
import numpy as np
import pandas as pd

from mlcore.datasets import load_wine_quality
from mlcore.imbalance import remedy_study

SEEDS = range(20)


def main():
    X, quality = load_wine_quality("white", return_X_y=True)
    y = (quality >= 8).astype(int)
    tables = {seed: remedy_study(X, y, random_state=seed)[0] for seed in SEEDS}
    stacked = pd.concat(tables, names=["seed"])
    summary = stacked.groupby("remedy", sort=False).agg(["mean", "std"]).round(4)
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(f"means and sd over {len(tables)} seeds (each a 5-fold CV)\n", summary)
    for measure, a, b in [("F1", "EasyEnsemble", "undersampling"), ("F1", "rescaling", "undersampling"),
                          ("F1", "F1 threshold", "rescaling"), ("F1", "SMOTE", "rescaling"),
                          ("AP", "EasyEnsemble", "undersampling"), ("AP", "SMOTE", "undersampling"),
                          ("AP", "rescaling", "SMOTE"), ("AP", "rescaling", "EasyEnsemble"),
                          ("balanced accuracy", "rescaling", "undersampling"),
                          ("balanced accuracy", "rescaling", "EasyEnsemble"),
                          ("balanced accuracy", "rescaling", "SMOTE"),
                          ("log loss", "undersampling, corrected", "none")]:
        d = np.array([t.loc[a, measure] - t.loc[b, measure] for t in tables.values()])
        print(f"{measure}: {a} - {b}: mean {d.mean():+.4f}, sd {d.std(ddof=1):.4f}, "
              f"s.e. {d.std(ddof=1) / np.sqrt(len(d)):.4f}, positive in {np.sum(d > 0)} of {len(d)} seeds")


if __name__ == "__main__":
    main()
