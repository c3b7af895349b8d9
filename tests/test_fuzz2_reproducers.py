"""Every reproducer of the second reliability fuzz report (reviews/reliability/FUZZ-2.md).

One parametrized case per reproducer, with the report's code copied in (the
test does not read the report). Each case is classified as

* ``value`` -- it returns, and an independent check of the value holds;
* ``error`` -- it raises a plain ``ValueError``/``TypeError`` (or an mlcore
  subclass) whose message names one of the parameters responsible;
* ``DEFECT`` -- anything else: a wrong value, a RuntimeWarning as the only
  signal, another exception type or a leaked third-party subclass, a message
  that does not name the parameter, invalid input accepted, or (hang groups
  only) more CPU time than a generous guard.

A case passes unless it is a DEFECT. ``expect`` says which outcomes are
acceptable: "value" when the input is valid (an error would reject valid
input), "error" when it is invalid, "either" when the report accepts both (a
value or a worded range refusal).
"""

from __future__ import annotations

import math
import re
import warnings
from fractions import Fraction
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest

from fuzz_cases import Case, classify, close, collector, finite

matplotlib.use("Agg")

CASES: list[Case] = []
case = collector(CASES)


def l_data():
    """The report's "data as in L-cases"."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=200) > 0).astype(int)
    return X, y


def parallel(u, v, tol=1e-9):
    u, v = np.ravel(np.asarray(u, float)), np.ravel(np.asarray(v, float))
    return abs(abs(u @ v) / (np.linalg.norm(u) * np.linalg.norm(v)) - 1) < tol


def true_fisher(X, y):
    X = np.asarray(X, float)
    m0, m1 = X[y == 0].mean(0), X[y == 1].mean(0)
    Sw = sum(((X[y == k] - X[y == k].mean(0)).T @ (X[y == k] - X[y == k].mean(0))) for k in (0, 1))
    return np.linalg.solve(Sw, m0 - m1)


# =========================================================================== A
def section_a():
    from sklearn.metrics import (average_precision_score, mutual_info_score, precision_recall_curve,
                                 roc_auc_score, roc_curve)
    from sklearn.model_selection import cross_val_score
    from sklearn.naive_bayes import GaussianNB
    from statsmodels.stats.contingency_tables import mcnemar

    import mlcore.compare as cp
    import mlcore.evaluation as ev
    import mlcore.feature_selection as fs
    import mlcore.multiclass as mc
    import mlcore.tree as tr
    from mlcore.lda import fisher_direction
    from mlcore.vc import min_halfplane_errors

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X.sum(1) + rng.normal(size=60) > 0).astype(int)
    Xs = X * [1, 1e-6, 1e3]
    want = cross_val_score(GaussianNB(), Xs[:, [1]], y, cv=5).mean()
    case("A1-exhaustive_search",
         lambda: fs.exhaustive_search(GaussianNB(), Xs, y, cv=5).set_index("features")
         .loc[[(1,)], "score"].item(), check=lambda s: abs(s - want) < 1e-12)
    XL, yL = l_data()
    XLs = XL * [1, 1e-6]
    nb = GaussianNB().fit(XLs[:, [1]], yL).score(XLs[:, [1]], yL)
    case("A1-gaussian_nb_subset_accuracy",
         lambda: fs.gaussian_nb_subset_accuracy(XLs, yL, XLs, yL, [(1,)]),
         check=lambda a: abs(float(np.ravel(a)[0]) - nb) < 1e-12)

    D = np.diag([1.0, 1e-6])
    case("A2-fisher_direction", lambda: fisher_direction(XL @ D, yL),
         check=lambda w: parallel(w, true_fisher(XL @ D, yL)))

    case("A3-min_halfplane_errors",
         lambda: int(min_halfplane_errors([[-2, -3], [1, 1], [1, -2], [-1, -4], [-4, -5], [1, 4],
                                           [1, 0]], [0, 1, 0, 0, 1, 0, 1])),
         check=lambda e: e == 2)

    def grid_sets():
        """min_halfplane_errors against the optimum over realizable_labelings (the report's
        oracle) on 60 small integer-grid sets: collinear and duplicate points throughout."""
        from mlcore.vc import realizable_labelings
        rng = np.random.default_rng(5)
        wrong = []
        for _ in range(60):
            n = int(rng.integers(3, 8))
            P = rng.integers(-2, 3, size=(n, 2)).astype(float)
            labels = rng.integers(0, 2, n)
            bits = np.flatnonzero(realizable_labelings(P, hypothesis_class="halfspace"))
            L = (bits[:, None] >> np.arange(n)) & 1
            if int(min_halfplane_errors(P, labels)) != int((L != labels).sum(1).min()):
                wrong.append((P.tolist(), labels.tolist()))
        return wrong
    case("A3-min_halfplane_errors_grid_sets", grid_sets, check=lambda wrong: wrong == [])

    def splits(x):
        def check(out):
            xs = np.unique(np.asarray(x, float))
            t = np.asarray(out[0], float)
            return len(t) == len(xs) - 1 and all(lo <= ti < hi for lo, ti, hi
                                                 in zip(xs[:-1], t, xs[1:]))
        return check
    x4 = [1 + 2**-52, 1 + 2**-51, 2.0]
    case("A4-threshold_gains", lambda: tr.threshold_gains(x4, [0, 1, 1]), check=splits(x4))
    x5 = [1e308, 1.5e308, -1e308, -1.5e308]
    case("A5-threshold_gains", lambda: tr.threshold_gains(x5, [1, 1, 0, 0]),
         check=lambda out: splits(x5)(out) and close(out[0], [-1.25e308, 0, 1.25e308]))
    case("A6-correlation_scores",
         lambda: fs.correlation_scores(np.c_[np.arange(5.0) * 1e-200, np.arange(5.0)],
                                       [1, 2, 3, 4, 5]), check=lambda s: close(s, [1, 1]))

    tiny = [5e-324] * 4
    for name, call, plain in [
        ("entropy", lambda w: tr.entropy([0, 1, 1, 1], sample_weight=w),
         lambda: tr.entropy([0, 1, 1, 1])),
        ("information_gain", lambda w: tr.information_gain([0, 0, 1, 1], [0, 1, 0, 1],
                                                            sample_weight=w),
         lambda: tr.information_gain([0, 0, 1, 1], [0, 1, 0, 1])),
        ("intrinsic_value", lambda w: tr.intrinsic_value([0, 0, 0, 1], sample_weight=w),
         lambda: tr.intrinsic_value([0, 0, 0, 1])),
        ("gain_ratio", lambda w: tr.gain_ratio([0, 0, 1, 1], [0, 1, 0, 1], sample_weight=w),
         lambda: tr.gain_ratio([0, 0, 1, 1], [0, 1, 0, 1])),
        ("threshold_gains", lambda w: tr.threshold_gains([0.1, 0.2, 0.3, 0.4], [0, 1, 0, 1],
                                                         sample_weight=w)[1],
         lambda: tr.threshold_gains([0.1, 0.2, 0.3, 0.4], [0, 1, 0, 1])[1]),
    ]:
        case(f"A7-{name}", lambda call=call: call(tiny),
             check=lambda v, plain=plain: close(v, plain(), rtol=1e-9, atol=1e-12))
    assert abs(tr.entropy([0, 1, 1, 1]) - 0.8112781244591328) < 1e-12

    big = np.array([2**53, 2**53 + 1])
    case("A8-auc_rank", lambda: ev.auc_rank([0, 1], big), check=lambda a: a == 1.0)
    y8 = np.array([0, 1, 1, 0, 1, 0, 0, 1, 1, 0])
    s8 = 2**53 + np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3], dtype=np.int64)
    small = (s8 - 2**53).astype(float)
    fpr, tpr, _ = roc_curve(y8, small, drop_intermediate=False)
    prec, rec, _ = precision_recall_curve(y8, small)
    case("A8-roc_curve", lambda: ev.roc_curve(y8, s8),
         check=lambda r: close(r[0], fpr) and close(r[1], tpr))
    case("A8-precision_recall_curve", lambda: ev.precision_recall_curve(y8, s8),
         check=lambda r: sorted(zip(np.ravel(r[1]), np.ravel(r[0])))
         == sorted(zip(rec, prec)) or (close(r[0], prec) and close(r[1], rec)))
    case("A8-average_precision", lambda: ev.average_precision(y8, s8),
         check=lambda a: abs(a - average_precision_score(y8, small)) < 1e-12)
    case("A8-average_ranks", lambda: cp.average_ranks(np.array([[2**53, 2**53 + 1], [1, 2]])),
         check=lambda r: close(r, [2.0, 1.0]))
    assert abs(roc_auc_score([0, 1], [0.0, 1.0]) - 1) < 1e-12

    for name in ("information_gain", "intrinsic_value", "gain_ratio", "gini_index"):
        fn = getattr(tr, name)
        args = (lambda x, fn=fn, name=name: fn(x) if name == "intrinsic_value"
                else fn(x, [0, 1, 1, 0]))
        case(f"A9-{name}", lambda args=args: args([np.float32("nan"), 1.0, 1.0, 2.0]),
             check=lambda v, args=args: close(v, args([np.nan, 1.0, 1.0, 2.0])))

    sm = mcnemar([[2, 1], [1, 0]], exact=False, correction=True)
    case("A10-mcnemar_test", lambda: cp.mcnemar_test([1, 1, 0, 0], [1, 0, 1, 1], [0, 1, 1, 1]),
         check=lambda r: (abs(r.statistic - sm.statistic) < 1e-12 and abs(r.pvalue - sm.pvalue)
                          < 1e-12) or (r.statistic == 0 and r.pvalue == 1
                                       and "clipped at 0" in cp.mcnemar_test.__doc__))
    case("A11-code_separation", lambda: mc.code_separation(np.array([[1, 0], [-1, 0]])),
         check=lambda s: close(s, (1.5, 1.0)))
    case("A11-code_separation_ovo", lambda: mc.code_separation(mc.coding_matrix(4, "ovo")),
         check=lambda s: s[0] == 3.5)
    x12, y12 = np.arange(40) % 3, (np.arange(40) // 7) % 2
    case("A12-mutual_information",
         lambda: fs.mutual_information(x12, y12, base=np.float16(2.0)),
         check=lambda v: abs(v - mutual_info_score(x12, y12) / math.log(2)) < 1e-12)
    rng3 = np.random.default_rng(3)
    X13 = rng3.normal(size=(200, 2)).astype(np.float16)
    y13 = (X13[:, 0] > 0.3).astype(int)
    X64 = X13.astype(np.float64)

    def midpoint_ok(model):
        thr = float(np.ravel(model.threshold_)[0]) if np.ndim(model.threshold_) else \
            float(model.threshold_)
        feature = getattr(model, "feature_", 0)
        want = (X64[y13 == 0, feature].mean() + X64[y13 == 1, feature].mean()) / 2
        return abs(thr - want) < 1e-12
    case("A13-MidpointClassifier", lambda: cp.MidpointClassifier().fit(X13, y13),
         check=midpoint_ok)


# =========================================================================== B
def section_b():
    from sklearn.linear_model import LinearRegression

    import mlcore.compare as cp
    import mlcore.divergence as dv
    import mlcore.tree as tr
    from mlcore.lda import fisher_criterion
    from mlcore.linear import gradient_descent_path

    huge = [1e308] * 4
    for name, call, want in [
        ("entropy", lambda w: tr.entropy([0, 1, 0, 1], sample_weight=w), lambda: 1.0),
        ("gini", lambda w: tr.gini([0, 1, 0, 1], sample_weight=w), lambda: 0.5),
        ("gain_ratio", lambda w: tr.gain_ratio(["a", "b", "c", "d"], [0, 0, 1, 1],
                                               sample_weight=w),
         lambda: tr.gain_ratio(["a", "b", "c", "d"], [0, 0, 1, 1])),
        ("threshold_gains", lambda w: tr.threshold_gains([0.1, 0.2, 0.3, 0.4], [0, 0, 1, 1],
                                                         sample_weight=w)[1],
         lambda: tr.threshold_gains([0.1, 0.2, 0.3, 0.4], [0, 0, 1, 1])[1]),
        ("information_gain", lambda w: tr.information_gain([0, 0, 1, 1], [0, 0, 1, 1],
                                                            sample_weight=w),
         lambda: tr.information_gain([0, 0, 1, 1], [0, 0, 1, 1])),
        ("intrinsic_value", lambda w: tr.intrinsic_value([0, 0, 1, 2], sample_weight=w),
         lambda: tr.intrinsic_value([0, 0, 1, 2])),
        ("gini_index", lambda w: tr.gini_index([0, 0, 1, 1], [0, 1, 1, 1], sample_weight=w),
         lambda: tr.gini_index([0, 0, 1, 1], [0, 1, 1, 1])),
    ]:
        case(f"B1-{name}", lambda call=call: call(huge),
             check=lambda v, want=want: close(v, want(), atol=1e-12))
    # related: all-zero weights, consistent between entropy and threshold_gains
    case("B1-zero_weights_entropy",
         lambda: tr.entropy([0, 1, 0, 1], sample_weight=[0.0] * 4), "sample_weight",
         check=lambda v: False)   # the same refusal as threshold_gains
    case("B1-zero_weights_threshold_gains",
         lambda: tr.threshold_gains([0.1, 0.2, 0.3, 0.4], [0, 0, 1, 1], sample_weight=[0.0] * 4),
         "sample_weight", check=lambda out: finite(out[1]))

    rng = np.random.default_rng(0)
    A = rng.normal(size=(20, 2))
    B = rng.normal(size=(15, 2)) + 1

    def mmd_brute(X, Y, h, unbiased):
        def k(P, Q):
            d2 = ((P[:, None, :] - Q[None, :, :]) ** 2).sum(-1)
            return np.exp(-d2 / (2 * h * h))
        Kxx, Kyy, Kxy = k(X, X), k(Y, Y), k(X, Y)
        m, n = len(X), len(Y)
        if unbiased:
            return ((Kxx.sum() - m) / (m * (m - 1)) + (Kyy.sum() - n) / (n * (n - 1))
                    - 2 * Kxy.mean())
        return Kxx.mean() + Kyy.mean() - 2 * Kxy.mean()
    ref = dv.gaussian_mmd2(A, B, 1.0)
    unbiased = abs(ref - mmd_brute(A, B, 1.0, True)) < 1e-12
    assert unbiased or abs(ref - mmd_brute(A, B, 1.0, False)) < 1e-12
    case("B2-gaussian_mmd2_joint_scale", lambda: dv.gaussian_mmd2(A * 1e-200, B * 1e-200, 1e-200),
         check=lambda v: abs(v - ref) < 1e-12)
    limit0 = 0.0 if unbiased else 1 / 20 + 1 / 15
    case("B2-gaussian_mmd2_tiny_bandwidth", lambda: dv.gaussian_mmd2(A, B, 5e-324),
         check=lambda v: abs(v - limit0) < 1e-12)

    from scipy.stats import studentized_range
    case("B3-nemenyi_critical_difference",
         lambda: cp.nemenyi_critical_difference(5, 10, alpha=1e-308), "alpha",
         check=lambda cd: np.isfinite(cd) and cd > cp.nemenyi_critical_difference(5, 10,
                                                                                   alpha=1e-10))
    assert studentized_range.isf(1e-10, 5, np.inf) > 0

    case("B4-fisher_criterion_constant_X",
         lambda: fisher_criterion([1.0, 0.5], np.ones((6, 2)), [0, 1, 0, 1, 0, 1]), "X")
    XL, yL = l_data()
    case("B4-fisher_criterion_huge_W", lambda: fisher_criterion([1e308, 1e308], XL, yL),
         check=lambda j: close(j, fisher_criterion([1.0, 1.0], XL, yL)))
    Xn = np.random.default_rng(0).normal(size=(20, 2))
    case("B5-uninverted_mean_term_curve",
         lambda: dv.uninverted_mean_term_curve(Xn * 1e150, [2, 5]), "X",
         check=lambda v: not np.isnan(np.asarray(v, float)).any())
    case("B6-gradient_descent_path",
         lambda: gradient_descent_path([[0.], [1.], [2.]], [0, 1, 1], 1e308, 20),
         "learning_rate", check=finite)
    Xsub = np.array([[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]]) * 1e-320
    ysub = np.array([1.0, 2.0, 2.5, 4.0, 5.5, 6.0])
    case("B7-bias_variance_decomposition",
         lambda: cp.bias_variance_decomposition(LinearRegression(), Xsub, ysub, Xsub, ysub,
                                                n_rounds=5, random_state=0),
         ("X", "X_train"), check=finite)


# =========================================================================== C
def section_c():
    from sklearn.linear_model import LogisticRegression

    import mlcore.compare as cp
    import mlcore.feature_selection as fs
    import mlcore.tree as tr
    from mlcore import homework as hw
    from mlcore.bayes import BayesianLinearRegression
    from mlcore.divergence import gaussian_mmd2
    from mlcore.lda import fisher_direction

    for label, X, y in [("near_equal", [[1 + 2**-52], [1 + 2**-51], [2.0]], [0, 1, 1]),
                        ("huge", [[1e308], [1.5e308], [-1e308]], [0, 1, 0])]:
        case(f"C1-DecisionTreeClassifier_{label}",
             lambda X=X, y=y: tr.DecisionTreeClassifier().fit(X, y).predict(X),
             check=lambda p, y=y: list(p) == y)
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(20, 2)), rng.normal(size=(15, 2)) + 1
    case("C2-gaussian_mmd2_huge_bandwidth", lambda: gaussian_mmd2(A, B, 1e200), "bandwidth",
         check=lambda v: abs(v) < 1e-12)

    t = tr.DecisionTreeClassifier(max_depth=2).fit([[0, 1], [1, 0], [2, 2], [3, 1]], [0, 0, 1, 1])
    for label, kwargs, param in [("feature_names_short", {"feature_names": ["a"]}, "feature_names"),
                                 ("feature_names_str", {"feature_names": "ab"}, "feature_names"),
                                 ("class_names_int", {"class_names": 5}, "class_names"),
                                 ("width_negative", {"width": -1}, "width"),
                                 ("width_nan", {"width": float("nan")}, "width"),
                                 ("width_complex", {"width": 1j}, "width")]:
        case(f"C3-plot_tree_{label}", lambda kwargs=kwargs: tr.plot_tree(t, **kwargs), param)
    # the report's calls; both keywords have since been removed (commit c982622), so the
    # TypeError names them. The cases after them are the same mistakes in today's API.
    case("C4-ForwardSearchFigure_literal", lambda: fs.ForwardSearchFigure(feature_names=["a"]),
         "feature_names")
    case("C4-FilterSizeFigure_literal",
         lambda: fs.FilterSizeFigure(ks=[], accuracy=[0.8, 0.9, 0.95], f1=[0.2, 0.6, 0.8],
                                     words=list("abcdefghij")).render(k=10), ("ks", "k", "words"))
    from sklearn.neighbors import KNeighborsClassifier
    Xi = np.random.default_rng(1).normal(size=(30, 3))
    yi = (Xi[:, 0] > 0).astype(int)
    search = fs.forward_search(KNeighborsClassifier(3), Xi, yi, cv=2)
    case("C4-ForwardSearchFigure_short_test_scores",
         lambda: fs.ForwardSearchFigure(search, test_scores=[0.5]).render(tol=0.0),
         "test_scores")
    case("C4-ForwardSearchFigure_small_n_features",
         lambda: fs.ForwardSearchFigure(search, n_features=1).render(tol=0.0), "n_features")
    rng4 = np.random.default_rng(0)
    case("C4-FilterSizeFigure_empty_ks",
         lambda: fs.FilterSizeFigure([], [0.8, 0.9, 0.95], [0.2, 0.6, 0.8], rng4.random(200) / 10,
                                     rng4.integers(1, 50, 200)).render(k=10), ("ks", "k"))
    case("C4-FilterSizeFigure_short_doc_freq",
         lambda: fs.FilterSizeFigure([1, 10, 100], [0.8, 0.9, 0.95], [0.2, 0.6, 0.8],
                                     rng4.random(200) / 10, rng4.integers(1, 50, 20)).render(k=10),
         ("scores", "doc_freq"))
    case("C5-no_free_lunch_table", lambda: cp.no_free_lunch_table(None), "learners")
    case("C6-polynomial_bias_variance",
         lambda: cp.polynomial_bias_variance(np.sin, [1, 3], x_range=(0, np.inf)), "x_range")
    case("C7-fisher_direction_no_columns",
         lambda: fisher_direction(np.empty((12, 0)), np.r_[np.zeros(6, int), np.ones(6, int)]),
         "X")
    spec = _tiny_spec()
    scores = {q["name"]: 0.0 for q in spec["questions"]}
    graded = [hw.Submission("a.ipynb", scores, "ok")]
    case("C8-write_grades_folder", lambda: hw.write_grades("", spec, graded), "path",
         allow=(IsADirectoryError,))
    Xb = np.random.default_rng(0).normal(size=(6, 2))
    case("C9-BayesianLinearRegression_string_y",
         lambda: BayesianLinearRegression().fit(Xb, np.array(list("abcabc"))), "y")
    X9, y9 = l_data()
    X9, y9 = X9[:40], y9[:40]
    lr = LogisticRegression()
    for bad in ("nonsense", 5):
        for name, call in [
            ("forward_search", lambda s: fs.forward_search(lr, X9, y9, cv=2, scoring=s)),
            ("backward_search", lambda s: fs.backward_search(lr, X9, y9, cv=2, scoring=s)),
            ("exhaustive_search", lambda s: fs.exhaustive_search(lr, X9, y9, cv=2, scoring=s)),
            ("paired_t_test_5x2cv", lambda s: cp.paired_t_test_5x2cv(lr, lr, X9, y9, scoring=s,
                                                                     random_state=0)),
            ("f_test_5x2cv", lambda s: cp.f_test_5x2cv(lr, lr, X9, y9, scoring=s,
                                                       random_state=0)),
        ]:
            case(f"C9-{name}_scoring_{bad}", lambda call=call, bad=bad: call(bad), "scoring")
    for name, call in [("paired_t_test_5x2cv", cp.paired_t_test_5x2cv),
                       ("f_test_5x2cv", cp.f_test_5x2cv)]:   # a callable of the wrong signature
        case(f"C9-{name}_scoring_bad_callable",
             lambda call=call: call(lr, lr, X9, y9, scoring=lambda est: 1.0, random_state=0),
             "scoring")


def _tiny_spec():
    from mlcore.homework import build_spec, read_notebook
    path = Path(__file__).resolve().parent / "homework_fixtures" / "99_tiny_chapter.ipynb"
    return build_spec(read_notebook(path.read_bytes())[0], "99_tiny_chapter")


# =========================================================================== D
def section_d():
    from scipy.stats import ttest_rel
    from sklearn.linear_model import LinearRegression
    from sklearn.metrics import mutual_info_score
    from sklearn.utils.estimator_checks import check_estimator

    import mlcore.compare as cp
    import mlcore.feature_selection as fs
    import mlcore.tree as tr
    from mlcore.bayes import LaplaceLogisticRegression, polynomial_moons
    from mlcore.bootstrap import BootstrapIntervalFigure, bootstrap_error
    from mlcore.divergence import uninverted_mean_term_curve
    from mlcore.imbalance import random_undersample, smote
    from mlcore.lda import fisher_direction

    x1, y1 = np.arange(40.0) % 30, np.arange(40) % 2
    case("D1-mutual_information", lambda: fs.mutual_information(x1, y1),
         check=lambda v: abs(v - mutual_info_score(x1, y1)) < 1e-12)
    for name in ("information_gain", "intrinsic_value", "gain_ratio", "gini_index"):
        fn = getattr(tr, name)
        args = (lambda x, fn=fn, name=name: fn(x) if name == "intrinsic_value"
                else fn(x, [0, 1, 1, 0]))
        case(f"D2-{name}", lambda args=args: args(pd.array([pd.NA, 1, 1, 2], dtype="Int64")),
             check=lambda v, args=args: close(v, args([np.nan, 1, 1, 2])))
    XL, yL = l_data()
    case("D3-fisher_direction_tiny_scale", lambda: fisher_direction(XL * 1e-160, yL), "X",
         check=lambda w: parallel(w, true_fisher(XL, yL)))
    a, b = np.array([1.0, 2.0, 3.0]), np.array([1.5, 2.1, 3.7])
    ref = ttest_rel(a, b)
    case("D3-paired_t_test_cv_tiny_scale", lambda: cp.paired_t_test_cv(a * 1e-300, b * 1e-300),
         ("scores_a", "scores_b"),
         check=lambda r: abs(abs(r.statistic) - abs(ref.statistic)) < 1e-9
         and abs(r.pvalue - ref.pvalue) < 1e-9)
    # the same degeneracy tests elsewhere in lda and compare (checked relative to the data's scale)
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from mlcore.lda import FisherLDA, fisher_criterion
    J = fisher_criterion([1.0, 1.0], XL, yL)
    # a value is required here: J is scale-free, so "undefined (0/0)" would be a false message
    for scale in (1e-160, 1e-170, 1e-300):
        case(f"D3-fisher_criterion_scale_{scale:g}",
             lambda scale=scale: fisher_criterion([1.0, 1.0], XL * scale, yL), "X",
             check=lambda j: abs(j - J) < 1e-12 * J, expect="value")
    sk = LinearDiscriminantAnalysis().fit(XL, yL).predict(XL)
    for scale, expect in ((1e-170, "value"), (1e-300, "value"), (1e-310, "either")):
        case(f"D3-FisherLDA_scale_{scale:g}",   # subnormal spreads: a worded refusal will do
             lambda scale=scale: FisherLDA().fit(XL * scale, yL).predict(XL * scale), "X",
             check=lambda p: (p == sk).all(), expect=expect)
    d52 = np.random.default_rng(1).normal(size=(5, 2))
    for name, call in [("paired_t_test_5x2cv", cp.paired_t_test_5x2cv),
                       ("f_test_5x2cv", cp.f_test_5x2cv)]:
        ref52 = call(differences=d52)
        case(f"D3-{name}_tiny_scale", lambda call=call: call(differences=d52 * 1e-300),
             "differences", check=lambda r, ref52=ref52: abs(r.statistic - ref52.statistic)
             < 1e-9 * abs(ref52.statistic))
    refc = cp.corrected_resampled_t_test(a, b, n_train=9, n_test=1)
    case("D3-corrected_resampled_t_test_tiny_scale",
         lambda: cp.corrected_resampled_t_test(a * 1e-300, b * 1e-300, n_train=9, n_test=1),
         ("scores_a", "scores_b"), check=lambda r: abs(r.statistic - refc.statistic) < 1e-9)
    case("D4-polynomial_moons_noise_minus_zero",
         lambda: polynomial_moons(20, degree=2, noise=-0.0), check=lambda v: finite(v[0]))
    case("D4-polynomial_bias_variance_noise_minus_zero",
         lambda: cp.polynomial_bias_variance(np.sin, [1], n_samples=10, noise=-0.0, n_datasets=5,
                                             n_test=10, random_state=0),
         check=lambda v: v is not None)
    case("D5-polynomial_moons_huge_noise", lambda: polynomial_moons(40, degree=3, noise=1e200),
         "noise")
    Xn = np.random.default_rng(0).normal(size=(20, 2))
    case("D6-uninverted_mean_term_curve_seed",
         lambda: uninverted_mean_term_curve(Xn, [2, 5], random_state=2**32 - 2), check=finite)
    model = LaplaceLogisticRegression().fit(XL, yL)
    case("D7-LaplaceLogisticRegression_predict_proba_huge_X",
         lambda: model.predict_proba(XL[:2] * 1e160), "X",
         check=lambda p: finite(p) and close(np.sum(p, axis=1), 1) and (p >= 0).all())

    def figure(**kw):
        fig = BootstrapIntervalFigure(**kw)
        fig.render() if hasattr(fig, "render") else None
        return fig
    case("D8-BootstrapIntervalFigure_constant", lambda: figure(data=np.ones(25)),
         check=lambda f: True)
    case("D8-BootstrapIntervalFigure_two_points", lambda: figure(data=np.array([1.0, 2.0])),
         check=lambda f: True)
    case("D8-BootstrapIntervalFigure_median_integers",
         lambda: figure(data=np.array([1, 2, 2, 3, 3, 3, 4, 5, 5, 6]), statistic=np.median),
         check=lambda f: True)
    rng = np.random.default_rng(0)
    X9 = rng.normal(size=(30, 2)) * 1e200
    y9 = np.r_[np.zeros(24, int), np.ones(6, int)]
    rows = {tuple(r) for r in X9}
    case("D9-random_undersample_huge_X", lambda: random_undersample(X9, y9, random_state=0),
         check=lambda out: all(tuple(r) in rows for r in np.asarray(out[0]))
         and np.bincount(out[1]).tolist() == [6, 6])
    case("D9-smote_huge_X", lambda: smote(X9, y9, random_state=0),
         check=lambda out: finite(out[0]) and np.bincount(out[1]).tolist() == [24, 24])
    case("D10-plot_cd_diagram_Fraction",
         lambda: cp.plot_cd_diagram([1.2, 2.5, 2.6, 3.7], list("ABCD"), Fraction(1, 4)),
         check=lambda v: True)
    x12, y12 = np.arange(40) % 3, (np.arange(40) // 7) % 2
    case("D10-mutual_information_Fraction",
         lambda: fs.mutual_information(x12, y12, base=Fraction(2)),
         check=lambda v: abs(v - fs.mutual_information(x12, y12, base=2.0)) < 1e-12)
    X11 = np.random.default_rng(0).integers(0, 2, size=(30, 3))
    y11 = X11[:, 0]
    case("D11-MIFilter_default_k", lambda: fs.MIFilter().fit(X11, y11).transform(X11),
         check=lambda Z: np.shape(Z) == (30, 3))

    def estimator_checks():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            failures = check_estimator(fs.MIFilter(), on_fail=None)
        return [f for f in failures if f["status"] == "failed"]
    case("D11-MIFilter_check_estimator", estimator_checks, check=lambda f: f == [])
    X12 = np.linspace(0, 1, 12)[:, None]
    case("D12-bias_variance_decomposition_huge_y",
         lambda: cp.bias_variance_decomposition(LinearRegression(), X12, np.full(12, 1e308)
                                                * np.sign(np.arange(12) - 5.5), X12,
                                                np.full(12, 1e308), n_rounds=5, random_state=0),
         ("y", "y_train", "y_test"), check=finite)
    Xb = np.random.default_rng(0).normal(size=(20, 2)) * 1e307
    yb = np.r_[np.zeros(10, int), np.ones(10, int)]
    from sklearn.tree import DecisionTreeClassifier as SkTree
    case("D12-bootstrap_error_sklearn_tree_huge_X",
         lambda: bootstrap_error(SkTree(), Xb, yb, n_resamples=5, random_state=0), "X",
         check=finite)
    case("D12-bootstrap_error_huge_X",
         lambda: bootstrap_error(tr.DecisionTreeClassifier(), Xb, yb, n_resamples=5,
                                 random_state=0), "X", check=finite)


# =========================================================================== E
def section_e():
    from mlcore.multiclass import coding_matrix
    from mlcore.vc import sauer_bound

    def distinct_columns_ok(code):
        code = np.asarray(code)
        return code.shape[0] == 4 and np.isin(code, [-1, 1]).all()
    case("E1-coding_matrix_dense_random_100",
         lambda: coding_matrix(4, "dense-random", code_size=100, random_state=0),
         "code_size", check=distinct_columns_ok, cpu_guard=True)
    case("E2-coding_matrix_ovo_100000", lambda: coding_matrix(100000, "ovo"), "n_classes",
         check=lambda c: np.shape(c)[0] == 100000, cpu_guard=True)
    case("E2-coding_matrix_exhaustive_100000", lambda: coding_matrix(100000, "exhaustive"),
         "n_classes", cpu_guard=True)
    case("E3-sauer_bound_1e4", lambda: sauer_bound(10**4, 10**9),
         check=lambda v: int(v) == 2**(10**4), cpu_guard=True)
    case("E3-sauer_bound_1e5", lambda: sauer_bound(10**5, 10**9),
         check=lambda v: int(v) == 2**(10**5), cpu_guard=True)


# =========================================================================== S
def section_s():
    """Invalid input accepted silently (contract gaps)."""
    from sklearn.linear_model import LogisticRegression

    import mlcore.compare as cp
    import mlcore.divergence as dv
    import mlcore.evaluation as ev
    import mlcore.feature_selection as fs
    import mlcore.tree as tr
    from mlcore import homework as hw
    from mlcore.bayes import probit_predictive
    from mlcore.lda import scatter_matrices
    from mlcore.multiclass import coding_matrix
    from mlcore.vc import min_halfplane_errors

    for bad in ("nonsense", "GAIN", ""):
        case(f"S-threshold_gains_criterion_{bad or 'empty'}",
             lambda bad=bad: tr.threshold_gains([0.1, 0.2, 0.3], [0, 1, 1], criterion=bad),
             "criterion")
    for label, args in [("mean_str", ("2.0", 1.0)), ("mean_bool", (True, 1.0)),
                        ("variance_str", (0.0, "2.0"))]:
        case(f"S-probit_predictive_{label}", lambda args=args: probit_predictive(*args),
             ("mean", "variance"))
    from decimal import Decimal
    case("S-probit_predictive_Decimal", lambda: probit_predictive(Decimal("2.0"), 1.0), "mean")
    case("S-two_feature_sampler_weight_str", lambda: cp.two_feature_sampler(weight="1.0"),
         "weight")
    case("S-friedman_test_iman_davenport_str",
         lambda: cp.friedman_test(np.array([[0.8, 0.7, 0.6], [0.9, 0.8, 0.5], [0.7, 0.6, 0.65],
                                            [0.85, 0.75, 0.7]]), iman_davenport="yes"),
         "iman_davenport")
    case("S-safe_failure_hidden_str", lambda: hw.safe_failure("x = 1", "E", "v", hidden="False"),
         "hidden")
    X, y = l_data()
    X, y = X[:40], y[:40]
    for label, tol in [("minus_inf", -np.inf), ("True", True), ("array", np.array([0.1]))]:
        for name in ("forward_search", "backward_search"):
            case(f"S-{name}_tol_{label}",
                 lambda name=name, tol=tol: getattr(fs, name)(LogisticRegression(), X, y, cv=2,
                                                              tol=tol), "tol")
    case("S-coding_matrix_ovr_code_size_0", lambda: coding_matrix(4, "ovr", code_size=0.0),
         "code_size")
    case("S-coding_matrix_ovo_code_size_dict", lambda: coding_matrix(4, "ovo", code_size={}),
         "code_size")
    case("S-min_halfplane_errors_nan",
         lambda: min_halfplane_errors([[0.0, np.nan], [1.0, 1.0], [2.0, 0.0]], [0, 1, 0]), "X")
    case("S-min_halfplane_errors_chunk_negative",
         lambda: min_halfplane_errors([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]], [0, 1, 0], chunk=-1),
         "chunk")
    for label, fpr, tpr in [("nan", [0.0, np.nan, 1.0], [0.0, 0.5, 1.0]),
                            ("inf", [0.0, 0.5, np.inf], [0.0, 0.5, 1.0]),
                            ("complex", [0.0, 0.5j, 1.0], [0.0, 0.5, 1.0])]:
        case(f"S-roc_convex_hull_{label}", lambda fpr=fpr, tpr=tpr: ev.roc_convex_hull(fpr, tpr),
             ("fpr", "tpr"))
    cscores = np.array([0.1, 0.4, 0.35, 0.8]) + 1j
    case("S-auc_rank_complex", lambda: ev.auc_rank([0, 0, 1, 1], cscores), "y_score")
    case("S-average_precision_complex", lambda: ev.average_precision([0, 0, 1, 1], cscores),
         "y_score")
    Xn = np.random.default_rng(0).normal(size=(20, 2))
    case("S-uninverted_mean_term_curve_complex",
         lambda: dv.uninverted_mean_term_curve(Xn + 1j, [2, 5]), "X")
    case("S-uninverted_mean_term_curve_strings",
         lambda: dv.uninverted_mean_term_curve(Xn.astype(str), [2, 5]), "X")
    case("S-gaussian_mmd2_complex", lambda: dv.gaussian_mmd2(Xn + 1j, Xn, 1.0), "X")
    case("S-gaussian_mmd2_strings", lambda: dv.gaussian_mmd2(Xn.astype(str), Xn, 1.0), "X")
    Xm = np.random.default_rng(0).integers(0, 2, size=(10, 3)).astype(float)
    ym = np.r_[np.zeros(5), np.ones(5)]
    Xnan = Xm.copy()
    Xnan[0, 0] = np.nan
    case("S-mi_scores_nan_X", lambda: fs.mi_scores(Xnan, ym), "X")
    case("S-mi_scores_nan_y", lambda: fs.mi_scores(Xm, np.r_[np.nan, ym[1:]]), "y")
    case("S-scatter_matrices_one_class", lambda: scatter_matrices(Xn, np.zeros(20, int)), "y")
    case("S-scatter_matrices_continuous_y", lambda: scatter_matrices(Xn, Xn[:, 0]), "y")
    case("S-mcnemar_test_None", lambda: cp.mcnemar_test([0, 1, 1, 0], None, [0, 1, 0, 0]),
         "y_pred_a")


# =========================================================================== M
def section_m():
    """Messages that do not name the parameter."""
    from sklearn.linear_model import LogisticRegression

    import mlcore.feature_selection as fs
    import mlcore.tree as tr
    from mlcore.bayes import MAPLogisticRegression, probit_predictive
    from mlcore.compare import MidpointClassifier
    from mlcore.lda import FisherLDA
    from mlcore.linear import GradientDescentFigure, softmax

    X, y = l_data()
    X, y = X[:40], y[:40]
    for name, cls in [("FisherLDA", FisherLDA), ("MAPLogisticRegression", MAPLogisticRegression),
                      ("MidpointClassifier", MidpointClassifier),
                      ("DecisionTreeClassifier", tr.DecisionTreeClassifier),
                      ("ObliqueTreeClassifier", tr.ObliqueTreeClassifier)]:
        case(f"M-{name}_1d_X", lambda cls=cls: cls().fit(X[:, 0], y), "X")
        case(f"M-{name}_continuous_y", lambda cls=cls: cls().fit(X, X[:, 0]), "y")
    fitted = MidpointClassifier().fit(X, y)
    case("M-MidpointClassifier_predict_wrong_width", lambda: fitted.predict(np.c_[X, X]), "X")
    tree = tr.DecisionTreeClassifier().fit(X, y)
    case("M-DecisionTreeClassifier_predict_1d", lambda: tree.predict(X[:, 0]), "X")
    case("M-DecisionTreeClassifier_X_val_1d",
         lambda: tr.DecisionTreeClassifier(pruning="post").fit(X, y, X[:5, 0], y[:5]), "X_val")
    case("M-threshold_gains_strings", lambda: tr.threshold_gains(["a", "b", "c"], [0, 1, 1]), "x")
    case("M-entropy_object_weights",
         lambda: tr.entropy([0, 1, 1], sample_weight=["a", "b", "c"]), "sample_weight")
    case("M-probit_predictive_strings", lambda: probit_predictive(["a", "b"], [1.0, 1.0]),
         "mean")
    case("M-softmax_strings", lambda: softmax([["a", "b"]]), "Z")
    case("M-forward_search_all_fits_fail",
         lambda: fs.forward_search(LogisticRegression(), X, np.zeros(40, int), cv=2), "y")
    case("M-GradientDescentFigure_X_only", lambda: GradientDescentFigure(X="abc"), "y")


for _build in (section_a, section_b, section_c, section_d, section_e, section_s, section_m):
    _build()


@pytest.mark.parametrize("c", CASES, ids=[c.id for c in CASES])
def test_reproducer(c):
    import matplotlib.pyplot as plt
    verdict, detail = classify(c)
    plt.close("all")
    assert verdict != "DEFECT", f"{c.id}: {detail}"


def test_ids_are_unique():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))


def main() -> int:
    """``python tests/test_fuzz2_reproducers.py [-v]``: the verdict table per group."""
    import sys
    counts: dict[str, dict[str, int]] = {}
    for c in CASES:
        verdict, detail = classify(c)
        group = c.id.split("-")[0]
        counts.setdefault(group, {"value": 0, "error": 0, "DEFECT": 0})[verdict] += 1
        if verdict == "DEFECT" or "-v" in sys.argv:
            print(f"{verdict:6s} {c.id}: {detail}"[:240])
    print(f"\n{'group':8s} {'value':>6s} {'error':>6s} {'DEFECT':>6s}")
    for group, n in counts.items():
        print(f"{group:8s} {n['value']:6d} {n['error']:6d} {n['DEFECT']:6d}")
    defects = sum(n["DEFECT"] for n in counts.values())
    print(f"{len(CASES)} reproducers, {defects} defective")
    return min(defects, 255)


if __name__ == "__main__":
    raise SystemExit(main())
