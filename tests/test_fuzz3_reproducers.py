"""Every reproducer of the third reliability fuzz report (reviews/reliability/FUZZ-3.md).

One parametrized case per reproducer, with the report's code copied in (the
test does not read the report), classified by ``tests/fuzz_cases.py``: a
correct ``value`` checked independently (an exact rational, a reference
library, an invariance), or a plain ``ValueError``/``TypeError`` naming the
parameter; anything else is a DEFECT and fails. The 17 real root causes
(R01, R02, R04, R05, R07, R08, R11-R15, R17, R19, R20, R22-R24), the three
remnants of FUZZ-2 (B7 at 1e-308 = R19, N03 at 5e-324 = R20, E1 at
``code_size=1000`` = R17) and the arguable ones settled in code (R03's
docstring is checked in ``tests/test_evaluation.py``; R16 and the two
``Fraction`` inputs here).
"""

from __future__ import annotations

from fractions import Fraction

import matplotlib
import numpy as np
import pandas as pd
import pytest

from fuzz_cases import Case, classify, close, collector, finite

matplotlib.use("Agg")

CASES: list[Case] = []
case = collector(CASES)


def _r11_data():
    rng = np.random.default_rng(47)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=60) > 0).astype(int)
    return X, y


def _exact_undersampling(p, beta):
    p, beta = Fraction(p), Fraction(beta)
    return float(beta * p / (beta * p + 1 - p))


def silent_wrong_results():
    from sklearn.covariance import ledoit_wolf as sk_ledoit_wolf
    from sklearn.metrics import f1_score

    from mlcore.bayes import log_loss_from_logit
    from mlcore.compare import five_by_two_null_sizes
    from mlcore.imbalance import best_f1_threshold, undersampling_correction
    from mlcore.lda import ShrinkageLDA, ledoit_wolf

    X, y = _r11_data()
    for ratio in (1e4, 1e-4, 1e6):
        D = np.array([1 / ratio, 1.0, ratio])
        case(f"R11-ShrinkageLDA_units_{ratio:g}",
             lambda D=D: int(np.sum(ShrinkageLDA().fit(X, y).predict(X)
                                    != ShrinkageLDA().fit(X * D, y).predict(X * D))),
             check=lambda v: v == 0)
    case("R11-ShrinkageLDA_scores_scale_free",
         lambda: (ShrinkageLDA().fit(X, y).decision_function(X),
                  ShrinkageLDA().fit(X * [1e-4, 1, 1e4], y).decision_function(X * [1e-4, 1, 1e4])),
         check=lambda v: close(v[0], v[1], rtol=1e-6, atol=1e-9))

    for beta in (1e-8, 1e-12, 1e-15, 1e-16, 1e-17, 5e-324, 1.0):
        case(f"R02-undersampling_correction_p1_beta{beta:g}",
             lambda beta=beta: undersampling_correction([1.0], beta), check=lambda v: v[0] == 1.0)
        case(f"R02-undersampling_correction_range_beta{beta:g}",
             lambda beta=beta: undersampling_correction([0.0, 0.3, 0.999999, 1 - 1e-16], beta),
             check=lambda v, beta=beta: np.all((v >= 0) & (v <= 1)) and close(
                 v, [_exact_undersampling(p, beta) for p in [0.0, 0.3, 0.999999, 1 - 1e-16]],
                 rtol=1e-12, atol=1e-320))   # subnormal results: a few units of 5e-324

    Z = np.random.default_rng(3).normal(size=(30, 4))
    reference_alpha = ledoit_wolf(Z)[1]
    for scale in (1e-100, 1e-200, 1e-300, 1e70):
        case(f"R12-ledoit_wolf_scale_{scale:g}", lambda scale=scale: ledoit_wolf(Z * scale),
             check=lambda v, scale=scale: abs(v[1] - reference_alpha) < 1e-9
             and close(v[0] / scale**2 if scale > 1 else v[0], ledoit_wolf(Z)[0] * scale**2
                       if scale <= 1 else ledoit_wolf(Z)[0], rtol=1e-9, atol=0.0))
    case("R12-ledoit_wolf_equals_sklearn", lambda: ledoit_wolf(Z),
         check=lambda v: close(v[0], sk_ledoit_wolf(Z)[0], rtol=1e-10)
         and abs(v[1] - sk_ledoit_wolf(Z)[1]) < 1e-12)
    case("R23-ledoit_wolf_two_rows_in_0_1",
         lambda: ledoit_wolf(np.random.default_rng(5).normal(size=(2, 6))),
         check=lambda v: 0.0 <= v[1] <= 1.0)

    z = np.array([40.0, -40.0, 30.0, 37.0, 800.0, -800.0, 0.0])
    labels = np.array([1, 0, 1, 1, 1, 0, 1])
    case("R01-log_loss_from_logit_confident",
         lambda: log_loss_from_logit(labels, z),
         check=lambda v: close(v, np.logaddexp(0, np.where(labels == 1, -z, z)), rtol=1e-12)
         and v[0] == v[1] > 0)

    labels22 = np.array([0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0])
    offsets = np.array([10, 1, 4, 9, 0, 7, 5, 2, 6, 3, 8, 11])
    scores22 = 2**53 + offsets

    def brute_f1(y_true, score):
        return max(f1_score(y_true, (score >= t).astype(int)) for t in np.unique(score))

    case("R22-best_f1_threshold_int64_beyond_2_53",
         lambda: best_f1_threshold(labels22, scores22),
         check=lambda v: abs(v[1] - brute_f1(labels22, offsets)) < 1e-12
         and abs(v[1] - 12 / 17) < 1e-12
         and f1_score(labels22, (scores22 >= v[0]).astype(int)) == v[1])

    for alpha in (1e-308, 1e-20, 5e-324):
        case(f"R24-five_by_two_null_sizes_alpha{alpha:g}",
             lambda alpha=alpha: five_by_two_null_sizes(n_draws=1000, alpha=alpha, random_state=0),
             "alpha", check=lambda t: bool(np.all((t["size"] >= 0) & (t["size"] <= 1e-6))
                                           and np.all(t["exact"].dropna() <= 1)))
    case("R24-five_by_two_null_sizes_alpha1e-15",
         lambda: five_by_two_null_sizes(n_draws=1000, alpha=1e-15, random_state=0),
         check=lambda t: bool(np.all(t["size"] == 0) and np.all(t["exact"].dropna() < 1e-14)))


def nan_and_exceptions():
    from sklearn.linear_model import LinearRegression

    from mlcore.bayes import importance_posterior
    from mlcore.compare import bias_variance_decomposition, nemenyi_critical_difference
    from mlcore.imbalance import remedy_study, smote
    from mlcore.lda import fisher_direction, fisher_direction_exact

    rng = np.random.default_rng(13)
    signs = rng.choice([-1.0, 1.0], size=(20, 3))
    X_big = signs * rng.uniform(0.5, 1.0, size=(20, 3)) * 1e308
    y_big = np.repeat([0, 1], 10)
    X_big[y_big == 1, 0] = np.abs(X_big[y_big == 1, 0])          # the classes' means differ
    X_big[y_big == 0, 0] = -np.abs(X_big[y_big == 0, 0])
    case("R13-fisher_direction_at_1e308", lambda: fisher_direction(X_big, y_big),
         check=lambda w: finite(w) and abs(abs(w @ fisher_direction(X_big / 4, y_big)) - 1) < 1e-9
         and abs(abs(w @ fisher_direction_exact(X_big / 4, y_big)) - 1) < 1e-9)

    X_sub = np.random.default_rng(1).uniform(0.5, 1.0, size=(12, 2)) * 1e-320
    y_sub = np.array([0] * 8 + [1] * 4)
    case("R14-smote_subnormal_X", lambda: smote(X_sub, y_sub, k_neighbors=2, random_state=0),
         check=lambda v: finite(v) and np.all(np.abs(np.asarray(v[0])) <= 1.0000001e-320)
         and len(v[0]) == 16)

    Xi = np.random.default_rng(0).normal(size=(60, 2))
    yi = (Xi[:, 0] + np.random.default_rng(1).normal(size=60) > 0).astype(int)
    for name, kwargs in [("df1e-200", {"df": 1e-200}), ("df0.02", {"df": 0.02}),
                         ("scale1e-200", {"scale": 1e-200}),
                         ("scale1e200", {"scale": 1e200})]:
        case(f"R08-importance_posterior_{name}",
             lambda kwargs=kwargs: importance_posterior(Xi, yi, 2.0, n_draws=200, random_state=0,
                                                        **kwargs),
             list(kwargs), check=lambda r: finite([r.ess, r.log_evidence]))
    for name, kwargs in [("df1e300", {"df": 1e300}), ("df_inf", {"df": np.inf}),
                         ("df_Fraction", {"df": Fraction(1, 4)}), ("df0.1", {"df": 0.1}),
                         ("scale1e-3", {"scale": 1e-3}), ("scale1e3", {"scale": 1e3})]:
        case(f"R08-importance_posterior_{name}",
             lambda kwargs=kwargs: importance_posterior(Xi, yi, 2.0, n_draws=200, random_state=0,
                                                        **kwargs),
             check=lambda r: finite([r.ess, r.log_evidence]) and 1 <= r.ess <= 200 + 1e-9)

    case("R07-remedy_study_no_remedy", lambda: remedy_study(Xi, yi, []), "remedies")

    X_tiny = np.random.default_rng(2).normal(size=(30, 2)) * 1e-308
    y_tiny = X_tiny[:, 0] * 1e308 + 0.1 * np.random.default_rng(3).normal(size=30)
    case("R19-bias_variance_decomposition_X_1e-308",
         lambda: bias_variance_decomposition(LinearRegression(), X_tiny[:20], y_tiny[:20],
                                             X_tiny[20:], y_tiny[20:], n_rounds=5,
                                             random_state=0),
         ("X_train", "X_test"), check=lambda v: finite(v))

    for alpha in (5e-324, 1e-300, 1e-11):
        case(f"R20-nemenyi_critical_difference_alpha{alpha:g}",
             lambda alpha=alpha: nemenyi_critical_difference(5, 10, alpha=alpha),
             check=lambda v: np.isfinite(v) and v > nemenyi_critical_difference(5, 10, alpha=1e-10))
    case("R20-nemenyi_monotone_in_alpha",
         lambda: [nemenyi_critical_difference(5, 10, alpha=a) for a in (1e-300, 1e-320, 5e-324)],
         check=lambda v: v[0] < v[1] < v[2] < 40)


def contract_gaps():
    import time

    from mlcore.compare import rejection_table
    from mlcore.multiclass import code_separation, coding_matrix
    from mlcore.tree import oblique_split_text

    coef = np.array([0.42, -0.91, 0.3])
    case("R04-oblique_split_text_names_short", lambda: oblique_split_text(coef, -0.13, ["a", "b"]),
         "feature_names")
    case("R04-oblique_split_text_names_a_str", lambda: oblique_split_text(coef, -0.13, "abc"),
         "feature_names")
    case("R05-oblique_split_text_decimals_negative",
         lambda: oblique_split_text(coef[:2], -0.13, ["a", "b"], decimals=-1), "decimals")
    case("R05-oblique_split_text_decimals_huge",
         lambda: oblique_split_text(coef[:2], -0.13, ["a", "b"], decimals=-2**31), "decimals")
    case("R05-oblique_split_text_valid",
         lambda: oblique_split_text(coef, -0.13, ("a", "b", "c"), decimals=1),
         check=lambda v: v == "0.4·a − 0.9·b + 0.3·c ≤ 0.1")
    case("Fraction-oblique_split_text_intercept",
         lambda: oblique_split_text(coef[:2], Fraction(1, 4), ["a", "b"]),
         check=lambda v: v.endswith("≤ −0.25"))

    case("R15-rejection_table_None", lambda: rejection_table(None), "pvalues")
    case("R15-rejection_table_NaN", lambda: rejection_table(pd.DataFrame({"t": [0.01, np.nan]})),
         "pvalues")
    case("R15-rejection_table_above_1",
         lambda: rejection_table(pd.DataFrame({"t": [0.01, 1.5]})), "pvalues")
    case("R15-rejection_table_empty", lambda: rejection_table(pd.DataFrame()), "pvalues")
    case("R15-rejection_table_valid",
         lambda: rejection_table(pd.DataFrame({"t": [0.01, 0.2, 0.5, 0.04], "u": [1, 0, 1, 1]})),
         check=lambda t: t["rate"].tolist() == [0.5, 0.25])

    def big_code():
        start = time.process_time()
        code = coding_matrix(4, "dense-random", code_size=1000, random_state=0)
        return code, time.process_time() - start

    # The same code as drawing column by column (the seed's stream is kept); 7 distinct
    # splits exist for 4 classes, so 4000 columns repeat them.
    case("R17-coding_matrix_code_size_1000", big_code, cpu_guard=True,
         check=lambda v: v[0].shape == (4, 4000) and set(np.unique(v[0])) == {-1, 1}
         and code_separation(v[0])[0] > 0)


def arguable_settled():
    from sklearn.calibration import calibration_curve
    from sklearn.metrics import brier_score_loss

    from mlcore.evaluation import brier_score, reliability_table

    for labels in ([1, 1, 1], [0, 0, 0]):
        case(f"R16-brier_score_one_class_{labels[0]}",
             lambda labels=labels: brier_score(labels, [0.9, 0.8, 0.7]),
             check=lambda v, labels=labels: abs(v - brier_score_loss(labels, [0.9, 0.8, 0.7],
                                                                     pos_label=1)) < 1e-15)
        case(f"R16-reliability_table_one_class_{labels[0]}",
             lambda labels=labels: reliability_table(labels, [0.9, 0.8, 0.7], n_bins=5),
             check=lambda t, labels=labels: close(
                 t.observed, calibration_curve(labels, [0.9, 0.8, 0.7], n_bins=5,
                                               pos_label=1)[0]))
    case("R16-brier_score_one_string_class", lambda: brier_score(["a", "a"], [0.2, 0.3]),
         "pos_label")
    case("R16-brier_score_one_string_class_named",
         lambda: brier_score(["a", "a"], [0.2, 0.3], pos_label="a"),
         check=lambda v: abs(v - (0.8**2 + 0.7**2) / 2) < 1e-15)


for _build in (silent_wrong_results, nan_and_exceptions, contract_gaps, arguable_settled):
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
