"""Full-size experiments quoted in chapter 7 (feature selection).

Run from the repository root:

    python scripts/ch07_experiments.py            # everything (about 2-4 CPU minutes)
    python scripts/ch07_experiments.py wrappers   # one part: wrappers, xor, sms, esl or duplicates
    python scripts/ch07_experiments.py --n-jobs 2              # two parts at a time
    python scripts/ch07_experiments.py --scheduler local:2     # the parts on Dask (or tcp://host:8786)

Sizes (the chapter uses smaller ones to stay under 30 s):

* wrappers: 400 data sets of the chapter's m = 100, n = 10 design (make_classification, 4
  informative, 2 redundant, flip_y 0.05, class_sep 0.8; 5,000 test points each); Gaussian naive
  Bayes; test accuracy of forward search's best subset on its full path, of the tol = 0 stop, and
  of all ten features (paired differences, MC s.e.), also for the first 60 data sets alone (the
  sample an earlier version quoted). The search is run with the one-fit-per-fold fast path
  (gaussian_nb_subset_accuracy per fold), checked equal to forward_search on the first 3.
* xor: 30 data sets of the chapter's XOR design (m = 200, bits 0 and 1, noisy copy of the label
  right 65 %, jitter 0.1), with 8 noise bits and with none; 5-NN; how often the full forward path
  reaches the CV score of the pair {0, 1}.
* sms: the SMS Spam Collection with the vectorizer and the MI filter inside the folds,
  multinomial naive Bayes on presence vectors: F1 of all words minus k = 3000 over 10 fold seeds;
  nested 5 x 5-fold CV over k in {10, 30, 100, 300, 1000, 3000, all}; F1 at k = 300 of the MI,
  mRMR and JMI filters (5 folds).
* esl: ESL 7.10.2's pure-noise design (m = 50 in two classes of 25, 5,000 standard Gaussian
  predictors, the 100 of largest correlation kept inside each training fold, 1-NN), 120 data sets:
  the right-way 5-fold CV error with unstratified (KFold) and stratified folds (true error 0.5).
* duplicates: the SMS collection, multinomial naive Bayes, vectorizer and MI filter inside the
  folds: F1 at k = 3000 and with all words on random stratified folds and on folds that keep
  exact duplicates together (StratifiedGroupKFold), for 3 fold seeds (SEED, SEED + 1, SEED + 2).
"""

from __future__ import annotations

import argparse

import numpy as np
from _cluster import add_scheduler_option, jobs, run_parts
from sklearn.datasets import make_classification
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.metrics import f1_score
from sklearn.model_selection import (KFold, StratifiedGroupKFold, StratifiedKFold,
                                     cross_val_score)
from sklearn.naive_bayes import GaussianNB, MultinomialNB
from sklearn.neighbors import KNeighborsClassifier

from mlcore._parallel import dask_backend
from mlcore.datasets import load_sms_spam
from mlcore.feature_selection import (correlation_scores, forward_search,
                                      gaussian_nb_subset_accuracy, jmi_select, mi_scores,
                                      mrmr_select)

SEED = 2026
KS = [10, 30, 100, 300, 1000, 3000, "all"]


def mean_se(values):
    values = np.asarray(values, float)
    return values.mean(), values.std(ddof=1) / np.sqrt(len(values))


def _fast_forward(X, y, folds, tol=None):
    """forward_search(GaussianNB(), X, y, cv=folds, tol=tol): (best_, selected_), one fit per fold.

    Each step scores every candidate subset from one Gaussian naive Bayes fit per fold
    (gaussian_nb_subset_accuracy equals cross_val_score on every subset), so a search costs
    5 fits per step instead of 5 per candidate; ties go to the smaller feature index, as in
    forward_search.
    """
    splits = list(folds.split(X, y))
    selected, path, previous = [], [], -np.inf
    while len(selected) < X.shape[1]:
        candidates = [f for f in range(X.shape[1]) if f not in selected]
        subsets = [tuple(selected + [f]) for f in candidates]
        scores = np.mean([gaussian_nb_subset_accuracy(X[tr], y[tr], X[te], y[te], subsets)
                          for tr, te in splits], axis=0)
        b = int(np.argmax(scores))
        if tol is not None and scores[b] - previous < tol:
            break
        selected, previous = selected + [candidates[b]], scores[b]
        path.append((list(selected), scores[b]))
    top = max(score for _, score in path)
    return min((sel for sel, score in path if score == top), key=len), selected


def wrappers(R=400, n_checked=3):
    full_minus_stop, full_minus_all = [], []
    for r in range(R):
        X, y = make_classification(n_samples=5100, n_features=10, n_informative=4, n_redundant=2,
                                   flip_y=0.05, class_sep=0.8, random_state=SEED + 1000 + r)
        folds = StratifiedKFold(5, shuffle=True, random_state=r)
        best, _ = _fast_forward(X[:100], y[:100], folds)
        stop, stop_selected = _fast_forward(X[:100], y[:100], folds, tol=0.0)
        if r < n_checked:   # the fast path is the library's search
            full = forward_search(GaussianNB(), X[:100], y[:100], cv=folds)
            tol0 = forward_search(GaussianNB(), X[:100], y[:100], cv=folds, tol=0.0)
            assert sorted(full.best_) == sorted(best) and tol0.selected_ == stop_selected
            assert sorted(tol0.best_) == sorted(stop)
        subsets = [tuple(best), tuple(stop), tuple(range(10))]
        test = gaussian_nb_subset_accuracy(X[:100], y[:100], X[100:], y[100:], subsets)
        full_minus_stop.append(test[0] - test[1])
        full_minus_all.append(test[0] - test[2])
    for label, n in (("the first 60", 60), (f"all {R}", R)):
        print(f"wrappers, {label} data sets: test accuracy of the full path's best minus the "
              "tol=0 stop %+.4f ± %.4f; minus all ten features %+.4f ± %.4f (MC s.e.)"
              % (*mean_se(full_minus_stop[:n]), *mean_se(full_minus_all[:n])))
    stop_gain = np.asarray(full_minus_stop)
    print(f"wrappers, all {R}: the full path's best is better than the tol=0 stop on "
          f"{(stop_gain > 0).sum()}, worse on {(stop_gain < 0).sum()}, equal on "
          f"{(stop_gain == 0).sum()}")


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


def esl(R=120):
    errors = {"KFold": [], "StratifiedKFold": []}
    for r in range(R):
        gen = np.random.default_rng(90_000 + r)
        X = gen.normal(size=(50, 5000))
        y = gen.permutation(np.r_[np.zeros(25), np.ones(25)])
        for name, folds in (("KFold", KFold(5, shuffle=True, random_state=r)),
                            ("StratifiedKFold", StratifiedKFold(5, shuffle=True, random_state=r))):
            fold_errors = []
            for train, test in folds.split(X, y):
                top = np.argsort(-correlation_scores(X[train], y[train]))[:100]
                knn = KNeighborsClassifier(1).fit(X[train][:, top], y[train])
                fold_errors.append(1 - knn.score(X[test][:, top], y[test]))
            errors[name].append(np.mean(fold_errors))
    for name, values in errors.items():
        mean, se = mean_se(values)
        print(f"esl, {R} data sets, right way with {name}: CV error {mean:.4f} ± {se:.4f} "
              f"(MC s.e.); {(mean - 0.5) / se:+.1f} s.e. from the true 0.5")


def duplicates(seeds=(SEED, SEED + 1, SEED + 2)):
    texts, y = load_sms_spam(return_X_y=True)
    texts = np.asarray(texts)
    _, group = np.unique(texts, return_inverse=True)
    drops = {3000: [], "all": []}
    for seed in seeds:
        random = StratifiedKFold(5, shuffle=True, random_state=seed).split(texts, y)
        grouped = StratifiedGroupKFold(5, shuffle=True, random_state=seed).split(texts, y, group)
        f_random = [_f1_per_k(texts, y, tr, te) for tr, te in random]
        f_grouped = [_f1_per_k(texts, y, tr, te) for tr, te in grouped]
        for k in drops:
            drops[k].append(np.mean([f[k] for f in f_random]) - np.mean([f[k] for f in f_grouped]))
    for k, values in drops.items():
        values = np.array(values)
        print(f"duplicates, k = {k}: F1 on random folds minus duplicate-grouped folds, per fold seed "
              + ", ".join(f"{v:+.4f}" for v in values) + f"; mean {values.mean():+.4f}")


if __name__ == "__main__":
    PARTS = {"wrappers": wrappers, "xor": xor, "sms": sms, "esl": esl,
             "duplicates": duplicates}
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", metavar="PART",
                        help=f"the parts to run: {', '.join(PARTS)} (all by default)")
    parser.add_argument("--n-jobs", type=int, default=1,
                        help="parts run at once (each part runs in one process)")
    add_scheduler_option(parser)
    args = parser.parse_args()
    unknown = [part for part in args.parts if part not in PARTS]
    if unknown:
        parser.error(f"unknown part(s) {', '.join(unknown)}; the parts are {', '.join(PARTS)}")
    with dask_backend(args.scheduler):
        run_parts([PARTS[part] for part in args.parts or PARTS],
                  jobs(args.n_jobs, args.scheduler))
