"""Full-size experiments quoted in chapter 7 (feature selection).

Run from the repository root:

    python scripts/ch07_experiments.py            # everything (about 2-4 CPU minutes)
    python scripts/ch07_experiments.py wrappers   # one part: wrappers, xor or sms

Sizes (the chapter uses smaller ones to stay under 30 s):

* wrappers: 60 data sets of the chapter's m = 100, n = 10 design (make_classification, 4
  informative, 2 redundant, flip_y 0.05, class_sep 0.8; 5,000 test points each); Gaussian naive
  Bayes; test accuracy of forward search's best subset on its full path, of the tol = 0 stop, and
  of all ten features (paired differences, MC s.e.).
* xor: 30 data sets of the chapter's XOR design (m = 200, bits 0 and 1, noisy copy of the label
  right 65 %, jitter 0.1), with 8 noise bits and with none; 5-NN; how often the full forward path
  reaches the CV score of the pair {0, 1}.
* sms: the SMS Spam Collection with the vectorizer and the MI filter inside the folds,
  multinomial naive Bayes on presence vectors: F1 of all words minus k = 3000 over 10 fold seeds;
  nested 5 x 5-fold CV over k in {10, 30, 100, 300, 1000, 3000, all}; F1 at k = 300 of the MI,
  mRMR and JMI filters (5 folds).
"""

from __future__ import annotations

import sys

import numpy as np
from sklearn.datasets import make_classification
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB, MultinomialNB
from sklearn.neighbors import KNeighborsClassifier

from mlcore.datasets import load_sms_spam
from mlcore.feature_selection import (forward_search, gaussian_nb_subset_accuracy, jmi_select,
                                      mi_scores, mrmr_select)

SEED = 2026
KS = [10, 30, 100, 300, 1000, 3000, "all"]


def mean_se(values):
    values = np.asarray(values, float)
    return values.mean(), values.std(ddof=1) / np.sqrt(len(values))


def wrappers(R=60):
    full_minus_stop, full_minus_all = [], []
    for r in range(R):
        X, y = make_classification(n_samples=5100, n_features=10, n_informative=4, n_redundant=2,
                                   flip_y=0.05, class_sep=0.8, random_state=SEED + 1000 + r)
        folds = StratifiedKFold(5, shuffle=True, random_state=r)
        full = forward_search(GaussianNB(), X[:100], y[:100], cv=folds)
        stop = forward_search(GaussianNB(), X[:100], y[:100], cv=folds, tol=0.0)
        subsets = [tuple(full.best_), tuple(stop.best_), tuple(range(10))]
        test = gaussian_nb_subset_accuracy(X[:100], y[:100], X[100:], y[100:], subsets)
        full_minus_stop.append(test[0] - test[1])
        full_minus_all.append(test[0] - test[2])
    print(f"wrappers, {R} data sets: test accuracy of the full path's best minus the tol=0 stop "
          "%+.4f ± %.4f; minus all ten features %+.4f ± %.4f (MC s.e.)"
          % (*mean_se(full_minus_stop), *mean_se(full_minus_all)))


def xor_problem(seed, m=200, n_noise=8):
    gen = np.random.default_rng(seed)
    bits = gen.integers(0, 2, (m, 2))
    label = bits[:, 0] ^ bits[:, 1]
    copy = np.where(gen.random(m) < 0.35, 1 - label, label)
    B = np.column_stack([bits, copy, gen.integers(0, 2, (m, n_noise))])
    return B + gen.normal(scale=0.1, size=B.shape), label


def xor(R=30):
    for n_noise in (8, 0):
        reached, best = 0, []
        for r in range(R):
            X, y = xor_problem(SEED + 1 + r, n_noise=n_noise)
            knn = KNeighborsClassifier(5)
            pair = cross_val_score(knn, X[:, [0, 1]], y, cv=5).mean()
            top = forward_search(knn, X, y, cv=5).path["score"].max()
            reached += top >= pair - 1e-12
            best.append(top)
        print(f"xor, {n_noise} noise columns: the full forward path reaches the pair's CV score in "
              f"{reached} of {R} data sets; mean best CV on the path {np.mean(best):.3f}")


def _fold_matrices(texts, y, train, test):
    vectorizer = CountVectorizer(binary=True).fit(texts[train])
    return vectorizer.transform(texts[train]), vectorizer.transform(texts[test])


def _f1_per_k(texts, y, train, test):
    X_tr, X_te = _fold_matrices(texts, y, train, test)
    order = np.argsort(-mi_scores(X_tr, y[train]), kind="stable")
    out = {}
    for k in KS:
        keep = order if k == "all" else order[:k]
        predicted = MultinomialNB().fit(X_tr[:, keep], y[train]).predict(X_te[:, keep])
        out[k] = f1_score(y[test], predicted)
    return out


def sms():
    texts, y = load_sms_spam(return_X_y=True)
    texts = np.asarray(texts)
    leads = []
    for seed in range(10):
        folds = StratifiedKFold(5, shuffle=True, random_state=SEED + seed)
        per_fold = [_f1_per_k(texts, y, tr, te) for tr, te in folds.split(texts, y)]
        leads.append(np.mean([f["all"] - f[3000] for f in per_fold]))
    leads = np.array(leads)
    print(f"sms, 10 fold seeds: F1 of all words minus k = 3000: mean {leads.mean():+.4f}, "
          f"from {leads.min():+.4f} to {leads.max():+.4f}; all words lead in {(leads > 0).sum()} of 10")
    outer = StratifiedKFold(5, shuffle=True, random_state=SEED)
    nested, chosen = [], []
    for train, test in outer.split(texts, y):
        inner = StratifiedKFold(5, shuffle=True, random_state=SEED + 1)
        inner_scores = [_f1_per_k(texts[train], y[train], tr, te)
                        for tr, te in inner.split(texts[train], y[train])]
        best = max(KS, key=lambda k: np.mean([s[k] for s in inner_scores]))
        chosen.append(best)
        nested.append(_f1_per_k(texts, y, train, test)[best])
    print(f"sms, nested 5 x 5-fold CV over k: F1 %.4f ± %.4f; k chosen per outer fold: {chosen}"
          % mean_se(nested))
    scores = {"MI": [], "mRMR": [], "JMI": []}
    for train, test in StratifiedKFold(5, shuffle=True, random_state=SEED).split(texts, y):
        X_tr, X_te = _fold_matrices(texts, y, train, test)
        order = np.argsort(-mi_scores(X_tr, y[train]), kind="stable")
        pool = order[:2000]
        kept = {"MI": order[:300], "mRMR": pool[mrmr_select(X_tr[:, pool], y[train], 300)],
                "JMI": pool[jmi_select(X_tr[:, pool], y[train], 300)]}
        for name, keep in kept.items():
            predicted = MultinomialNB().fit(X_tr[:, keep], y[train]).predict(X_te[:, keep])
            scores[name].append(f1_score(y[test], predicted))
    print("sms, F1 at k = 300 (candidates: the 2,000 words of highest MI): "
          + "; ".join("%s %.4f ± %.4f" % (name, *mean_se(v)) for name, v in scores.items()))


if __name__ == "__main__":
    parts = sys.argv[1:] or ["wrappers", "xor", "sms"]
    for part in parts:
        {"wrappers": wrappers, "xor": xor, "sms": sms}[part]()
