"""The reproducers of the reliability fuzz report (issue 14) that no other test runs.

They were checked by ``scripts/check_fuzz_report.py``, run by hand against a
report kept outside the repository. Its cases were compared one by one with
the tests (the same call raising the same message, or the same value
checked): those already in ``test_fuzz_regressions.py``,
``test_fuzz2_reproducers.py``, ``test_properties.py`` or a module's own tests
were dropped, the rest moved here, so that each case lives once in
``tests/`` (a sweep over many bad values is kept whole when only some of its
values are tested elsewhere). The report's sections: A silent wrong or NaN
results, B exceptions outside the ValueError/TypeError contract, C valid
input rejected, D hangs, M messages that do not name the parameter, S
invalid input silently accepted. Each case passes as

* a value: it returns, with no RuntimeWarning, and its check of the result holds;
* an error: ``ValueError``/``TypeError`` whose message names one of the
  parameters responsible.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest


@dataclass
class Case:
    section: str
    label: str
    call: object            # a zero-argument callable
    params: tuple = ()      # names an error message may name (an error is acceptable)
    check: object = None    # a predicate on the returned value (a value is acceptable)


CASES: list[Case] = []


def case(section, label, call, params=(), check=None):
    CASES.append(Case(section, label, call, tuple([params] if isinstance(params, str)
                                                  else params), check))


def run(c: Case) -> tuple[str, str]:
    """("value" | "error" | "DEFECT", what happened)."""
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = c.call()
    except (ValueError, TypeError) as error:
        message = str(error)
        if not c.params:
            return "DEFECT", f"valid input rejected: {type(error).__name__}: {message[:160]}"
        if any(p in message for p in c.params):
            return "error", f"{type(error).__name__}: {message[:160]}"
        return "DEFECT", f"message names none of {c.params}: {type(error).__name__}: {message[:160]}"
    except Exception as error:  # noqa: BLE001 -- classifying every other exception is the point
        return "DEFECT", f"{type(error).__module__}.{type(error).__name__}: {str(error)[:160]}"
    runtime = [w for w in caught if issubclass(w.category, RuntimeWarning)]
    if runtime:
        return "DEFECT", f"RuntimeWarning: {runtime[0].message}"
    if c.check is None:
        return "DEFECT", f"invalid input accepted, returned {_short(value)}"
    try:
        ok = bool(c.check(value))
    except Exception as error:  # noqa: BLE001
        ok, value = False, f"check raised {error!r} on {_short(value)}"
    if not ok:
        return "DEFECT", f"wrong value {_short(value)}"
    return "value", _short(value)


def _short(value) -> str:
    text = repr(value).replace("\n", " ")
    return text if len(text) < 120 else text[:117] + "..."


def finite(value) -> bool:
    arrays = value if isinstance(value, (tuple, list)) else (value,)
    return all(np.isfinite(np.asarray(a, dtype=float)).all() for a in arrays)


# --------------------------------------------------------------------------- A
def section_a():
    from mlcore.bootstrap import BootstrapIntervalFigure
    from mlcore.linear import logistic_gradient, logistic_hessian
    from mlcore.model_selection import loo_mse_linear
    from mlcore.vc import witness_hypotheses

    def realizes(points, hclass):
        def check(witnesses):
            flat = np.asarray(points)
            for bits, h in witnesses.items():
                want = [(bits >> i) & 1 for i in range(len(flat))]
                got = h.predict(flat[:, 0] if hclass in ("threshold", "interval") else flat)
                if np.asarray(got).tolist() != want:
                    return False
            return True
        return check

    for hclass in ("disc", "halfspace", "rectangle"):
        big = 1e307 * np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
        case("A7", f"witness_hypotheses(points ~1e307, '{hclass}')",
             lambda big=big, hclass=hclass: witness_hypotheses(big, hypothesis_class=hclass),
             "points", realizes(big, hclass))

    big_X = np.array([[1e308, 1.0], [0.0, 1e308]])
    case("A8", "logistic_gradient(theta, X ~1e308, y)",
         lambda: logistic_gradient([0.0] * 3, big_X, [0, 1]), "X", finite)
    case("A8", "logistic_hessian(theta, X ~1e308, y)",
         lambda: logistic_hessian([0.0] * 3, big_X, [0, 1]), "X", finite)
    case("A8", "loo_mse_linear(X, [1e308, -1e308, 1e308, -1e308])",
         lambda: loo_mse_linear([[0.], [1.], [2.], [4.]], [1e308, -1e308, 1e308, -1e308]),
         "y", finite)
    data = np.array([1e308, 1.2e308, 0.9e308])
    case("A8", "BootstrapIntervalFigure(data ~1e308)",
         lambda: BootstrapIntervalFigure(data=data), "data", lambda f: True)


# --------------------------------------------------------------------------- B
def section_b():
    from sklearn.model_selection import KFold
    from sklearn.neighbors import KNeighborsClassifier

    from mlcore.bootstrap import (bootstrap_error, bootstrap_interval, gaussian_classes,
                                  interval_coverage)
    from mlcore.datasets import load_wholesale, read_data_file
    from mlcore.divergence import kfold_kl_curve
    from mlcore.model_selection import cv_split_errors, degree_curves, fold_assignment, legendre_design
    from mlcore.vc import (Disc, Interval, Rectangle, Threshold, margin_vc_bound,
                           realizable_labelings, witness_hypotheses)
    from mlcore import homework as hw

    case("B1", "margin_vc_bound(1e200, 1.0)", lambda: margin_vc_bound(1e200, 1.0),
         ("radius", "margin"), lambda v: v >= 1)
    case("B4", "gaussian_classes(0, rng)",
         lambda: gaussian_classes(0, np.random.default_rng(0)), "n_samples")
    case("B4", "gaussian_classes(6, rng, separation=nan)",
         lambda: gaussian_classes(6, np.random.default_rng(0), separation=np.nan), "separation")
    case("B5", "interval_coverage(sampler of the wrong shape)",
         lambda: interval_coverage(np.mean, lambda rng, size: rng.normal(size=(3, 3)), 0.0, 10,
                                   n_datasets=5, n_resamples=20), "sampler")
    X = legendre_design(np.linspace(-1, 1, 12), 1)
    y = X[:, 1] ** 2
    for label, cv in [("3", 3), ("None", None), ("'kfold'", "kfold"), ("KFold (a class)", KFold),
                      ("list of (train, test)", [(np.arange(6), np.arange(6, 12)),
                                                 (np.arange(6, 12), np.arange(6))])]:
        case("B6", f"cv_split_errors(X, y, cv={label})",
             lambda cv=cv: cv_split_errors(X, y, cv), "cv", lambda v: finite(v))
        case("B6", f"fold_assignment(cv={label}, 12)",
             lambda cv=cv: fold_assignment(cv, 12), "cv", lambda v: len(v) >= 1)
    Xb = np.random.default_rng(0).normal(size=(12, 2))
    yb = np.r_[np.zeros(6, int), np.ones(6, int)]
    for arr in (np.array(["x"]), np.array(["x", "y"])):
        n = len(arr)

        def a(option, arr=arr):
            return np.array([option] * len(arr))
        case("B9", f"read_data_file({n}-element array)",
             lambda a=a: read_data_file(a("watermelon2.csv")), "name")
        case("B9", f"bootstrap_error(method={n}-element array)",
             lambda a=a: bootstrap_error(KNeighborsClassifier(1), Xb, yb, a("oob"), n_resamples=5),
             "method")
        case("B9", f"load_wholesale({n}-element array)", lambda a=a: load_wholesale(a("channel")),
             "target")
        case("B9", f"bootstrap_interval(method={n}-element array)",
             lambda a=a: bootstrap_interval(np.mean, [1., 2., 3.], 20, method=a("percentile")),
             "method")
        case("B9", f"kfold_kl_curve(method={n}-element array)",
             lambda a=a: kfold_kl_curve(Xb, [2], method=a("prefix")), "method")
        case("B9", f"witness_hypotheses(hypothesis_class={n}-element array)",
             lambda a=a: witness_hypotheses([[0.], [1.]], hypothesis_class=a("threshold")),
             "hypothesis_class")
        case("B9", f"realizable_labelings(hypothesis_class={n}-element array)",
             lambda a=a: realizable_labelings([[0.], [1.]], hypothesis_class=a("threshold")),
             "hypothesis_class")
        case("B9", f"Limits(sandbox={n}-element array)",
             lambda a=a: hw.Limits(sandbox=a("auto")), "sandbox")
    x = np.linspace(-1, 1, 20)
    yy = np.sin(3 * x)
    case("B14", "cv_split_errors with 10 columns and 8 training rows",
         lambda: cv_split_errors(np.random.default_rng(0).normal(size=(12, 10)), np.arange(12.),
                                 KFold(3)), "X")
    case("B14", "degree_curves(2-D x, y, [1])",
         lambda: degree_curves(np.column_stack([x, x]), yy, [1]), "x")
    case("B14", "degree_curves(x, None, [1])", lambda: degree_curves(x, None, [1]), "y")
    case("B15", "Threshold(nan)", lambda: Threshold(np.nan), "t")
    case("B15", "Interval(0, inf)", lambda: Interval(0.0, np.inf), "high")
    case("B15", "Rectangle([0, 0], [nan, 1])", lambda: Rectangle([0, 0], [np.nan, 1]), "upper")
    case("B15", "Disc([0, 0], inf)", lambda: Disc([0, 0], np.inf), "radius")

    good_nb = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    for fn in ("parse_questions", "student_edition", "autograder_notebook", "build_spec"):
        f = getattr(hw, fn)
        args = (("01_x",) if fn != "parse_questions" else ())
        case("B16", f"{fn}({{}})", lambda f=f, args=args: f({}, *args), "nb")
        case("B16", f"{fn}({{'cells': 'abc'}})", lambda f=f, args=args: f({"cells": "abc"}, *args),
             "nb")
        case("B16", f"{fn}(a cell with metadata=None)",
             lambda f=f, args=args: f({**good_nb, "cells": [
                 {"cell_type": "code", "metadata": None, "source": "x", "outputs": [],
                  "execution_count": None}]}, *args), ("nb", "metadata"),
             lambda v: True)  # documented: a cell whose metadata is None has no tags

    import atexit
    import shutil
    import tempfile
    tmp = Path(tempfile.mkdtemp(prefix="fuzzcheck-"))
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    for label, content in [("a JSON list", b"[1, 2]"), ("malformed JSON", b"{"),
                           ("non-UTF-8", b"\xff\xfe{}")]:
        folder = tmp / label.replace(" ", "_")
        folder.mkdir()
        (folder / "autograder.json").write_bytes(content)
        case("B16", f"load_spec(folder with {label})", lambda f=folder: hw.load_spec(f),
             ("autograder.json", "path", "spec"))
    limits = hw.Limits()
    sub = hw.Submission("a.ipynb", {}, "ok")
    for fn, call in [
        ("add_extra_tests", lambda: hw.add_extra_tests({}, tmp)),
        ("grade_one", lambda: hw.grade_one("a.ipynb", b"{}", {}, limits)),
        ("grade_submissions", lambda: hw.grade_submissions({}, [], limits)),
        ("write_grades", lambda: hw.write_grades(tmp / "g.csv", {}, [sub])),
        ("write_feedback", lambda: hw.write_feedback(tmp / "fb", {}, [sub])),
        ("merge_manual_scores", lambda: hw.merge_manual_scores(tmp / "g.csv", tmp / "m.csv", {})),
    ]:
        case("B16", f"{fn}(spec={{}})", call, "spec")
    spec = _tiny_spec()
    case("B16", "write_feedback(status='weird')",
         lambda: hw.write_feedback(tmp / "fb2", spec, [hw.Submission("a.ipynb", {}, "weird")]),
         ("status", "graded"))
    notjson = tmp / "notjson.ipynb"
    notjson.write_text("not json")
    case("B16", "assign(['notjson.ipynb'], out, verify=False)",
         lambda: hw.assign([str(notjson)], tmp / "out", verify=False),
         ("notjson", "chapters"))


def _tiny_spec():
    from mlcore.homework import build_spec, read_notebook
    path = Path(__file__).resolve().parent / "homework_fixtures" / "99_tiny_chapter.ipynb"
    return build_spec(read_notebook(path.read_bytes())[0], "99_tiny_chapter")


# --------------------------------------------------------------------------- C, D
def section_cd():
    from mlcore import homework as hw
    from mlcore.model_selection import two_level_design

    spec = _tiny_spec()
    for jobs in (np.uint8(1),):   # np.int64(2): in test_homework
        case("C1", f"grade_submissions(..., jobs={jobs!r})",
             lambda jobs=jobs: hw.grade_submissions(spec, [], hw.Limits(), jobs=jobs), (),
             lambda v: v == [])
    case("D", "two_level_design(2000) is refused (it hung)", lambda: two_level_design(2000),
         "n_repeats")


# --------------------------------------------------------------------------- M
def section_m():
    """Messages that do not name the parameter: one call per example of the report."""
    import mlcore.bootstrap as bs
    import mlcore.bounds as bd
    import mlcore.divergence as dv
    import mlcore.linear as ln
    import mlcore.model_selection as ms
    import mlcore.vc as vc
    from mlcore import homework as hw
    from mlcore.bootstrap import BootstrapOutOfBag
    from mlcore.widgets import strip_cdn_links

    X2 = np.random.default_rng(0).normal(size=(12, 2))
    y2 = np.r_[np.zeros(6, int), np.ones(6, int)]
    x1 = np.linspace(-1, 1, 12)
    theta = [0.0, 0.0, 0.0]
    array_calls = {
        ("sigmoid", "z"): lambda v: ln.sigmoid(v),
        ("logit", "p"): lambda v: ln.logit(v),
        ("cross_entropy", "y_prob"): lambda v: ln.cross_entropy([0, 1], v),
        ("logistic_loss", "X"): lambda v: ln.logistic_loss(theta, v, y2),
        ("logistic_gradient", "X"): lambda v: ln.logistic_gradient(theta, v, y2),
        ("logistic_hessian", "theta"): lambda v: ln.logistic_hessian(v, X2, y2),
        ("gradient_descent_path", "X"): lambda v: ln.gradient_descent_path(v, y2, 0.1, 3),
        ("sample_logistic_data", "theta"): lambda v: ln.sample_logistic_data(v, 5),
        ("threshold_true_errors", "thresholds"): lambda v: bd.threshold_true_errors(v),
        ("threshold_training_errors", "X"): lambda v: bd.threshold_training_errors(v, [0, 1],
                                                                                   [0.3]),
        ("gaussian_kl", "mean_p"): lambda v: dv.gaussian_kl(v, np.eye(2), [0, 0], np.eye(2)),
        ("symmetric_gaussian_kl", "cov_q"): lambda v: dv.symmetric_gaussian_kl(
            [0, 0], np.eye(2), [0, 0], v),
        ("regularized_kl_criterion", "curve"): lambda v: dv.regularized_kl_criterion(v, [2, 3],
                                                                                     1.0),
        ("select_n_folds", "curve"): lambda v: dv.select_n_folds(v, [2, 3], 1.0),
        ("legendre_design", "x"): lambda v: ms.legendre_design(v, 2),
        ("sine_target", "x"): lambda v: ms.sine_target(v),
        ("cv_split_errors", "X"): lambda v: ms.cv_split_errors(v, x1, BootstrapOutOfBag(2)),
        ("loo_residuals_linear", "X"): lambda v: ms.loo_residuals_linear(v, x1),
        ("loo_mse_linear", "y"): lambda v: ms.loo_mse_linear(X2, v),
        ("bootstrap_distribution", "data"): lambda v: bs.bootstrap_distribution(np.mean, v, 10),
        ("bootstrap_se", "data"): lambda v: bs.bootstrap_se(np.mean, v, 10),
        ("bootstrap_interval", "data"): lambda v: bs.bootstrap_interval(np.mean, v, 10),
        ("Threshold.predict", "points"): lambda v: vc.Threshold(0.5).predict(v),
        ("Disc.predict", "points"): lambda v: vc.Disc([0, 0], 1.0).predict(v),
        ("LogisticRegressionGD.fit", "X"): lambda v: ln.LogisticRegressionGD().fit(v, y2),
    }
    for (fn, param), call in array_calls.items():
        for bad in ("a", {"a": 1}, [[1.0], [1.0, 2.0]], [1 + 2j, 1.0], None):
            case("M-array", f"{fn}({param}={bad!r})", lambda call=call, bad=bad: call(bad), param)
    for fn, param, call in [
        ("threshold_grid", "k", lambda v: bd.threshold_grid(v)),
        ("sample_threshold_data", "n_trials", lambda v: bd.sample_threshold_data(v, m=5)),
        ("simulate_uniform_convergence", "m",
         lambda v: bd.simulate_uniform_convergence(5, m=v, n_trials=3)),
    ]:
        for bad in ("3", 2.5, None, [3]):
            case("M-size", f"{fn}({param}={bad!r})", lambda call=call, bad=bad: call(bad), param)

    seeded = {
        "sample_logistic_data": lambda r: ln.sample_logistic_data([0., 1.], 5, random_state=r),
        "sample_threshold_data": lambda r: bd.sample_threshold_data(3, m=5, random_state=r),
        "simulate_uniform_convergence": lambda r: bd.simulate_uniform_convergence(
            5, m=5, n_trials=3, random_state=r),
        "sine_regression": lambda r: ms.sine_regression(5, random_state=r),
        "kfold_kl_curve": lambda r: dv.kfold_kl_curve(X2, [2], random_state=r),
        "cv_estimator_study": lambda r: ms.cv_estimator_study([20], 1, n_true=100,
                                                              random_state=r),
        "simulate_error_estimates": lambda r: bs.simulate_error_estimates(
            __import__("sklearn.neighbors").neighbors.KNeighborsClassifier(1),
            bs.gaussian_classes, 20, n_repetitions=1, n_resamples=2, n_test=20,
            random_state=r),
        "degree_curves": lambda r: ms.degree_curves(x1, x1 ** 2, [1], n_splits=3,
                                                    random_state=r),
        "make_splitter": lambda r: ms.make_splitter("K-fold", random_state=r),
        "BlockedMxTwoCV.split": lambda r: list(ms.BlockedMxTwoCV(random_state=r).split(X2)),
        "ViolationRateFigure": lambda r: bd.ViolationRateFigure(n_trials=5, random_state=r),
        "DegreeSelectionFigure": lambda r: ms.DegreeSelectionFigure(random_state=r),
        "bootstrap_se": lambda r: bs.bootstrap_se(np.mean, [1., 2., 3.], 10, random_state=r),
        "draw_counts": lambda r: bs.draw_counts(5, 3, random_state=r),
    }
    for fn, call in seeded.items():
        for bad in (1.5, -1, "42", [1.5], {}):
            case("M-seed", f"{fn}(random_state={bad!r})", lambda call=call, bad=bad: call(bad),
                 "random_state")
    jobs_calls = {
        "simulate_uniform_convergence": lambda j: bd.simulate_uniform_convergence(
            5, m=5, n_trials=3, n_jobs=j),
        "kfold_kl_curve": lambda j: dv.kfold_kl_curve(X2, [2], n_jobs=j),
        "cv_estimator_study": lambda j: ms.cv_estimator_study([20], 1, n_true=100, n_jobs=j),
        "bootstrap_error": lambda j: bs.bootstrap_error(
            __import__("sklearn.neighbors").neighbors.KNeighborsClassifier(1), X2, y2,
            n_resamples=3, n_jobs=j),
        "bootstrap_error_report": lambda j: bs.bootstrap_error_report(
            __import__("sklearn.neighbors").neighbors.KNeighborsClassifier(1), X2, y2,
            n_resamples=3, n_jobs=j),
        "witness_hypotheses": lambda j: vc.witness_hypotheses([[0.], [1.]],
                                                              hypothesis_class="threshold",
                                                              n_jobs=j),
        "realizable_labelings": lambda j: vc.realizable_labelings(
            [[0.], [1.]], hypothesis_class="threshold", n_jobs=j),
        "halfplane_noise_gaps": lambda j: vc.halfplane_noise_gaps(5, 2, n_jobs=j),
    }
    for fn, call in jobs_calls.items():
        for bad in ({}, "2", 1.5, 0, True):
            case("M-n_jobs", f"{fn}(n_jobs={bad!r})", lambda call=call, bad=bad: call(bad),
                 "n_jobs")
    for fn, param, call in [
        ("LogisticRegressionGD.fit", "X", lambda: ln.LogisticRegressionGD().fit(x1, y2)),
        ("LogisticRegressionGD.fit", "y", lambda: ln.LogisticRegressionGD().fit(X2, y2[:0])),
        ("LogisticRegressionGD.fit", "y", lambda: ln.LogisticRegressionGD().fit(X2, x1)),
        ("LogisticRegressionGD.predict", "X",
         lambda: ln.LogisticRegressionGD().fit(X2, y2).predict(X2[:, :1])),
        ("loo_residuals_linear", "X", lambda: ms.loo_residuals_linear(x1, x1)),
        ("loo_mse_linear", "y", lambda: ms.loo_mse_linear(X2, x1[:0])),
        ("cv_split_errors", "X", lambda: ms.cv_split_errors(x1, x1, BootstrapOutOfBag(2))),
        ("bootstrap_error_report", "X", lambda: bs.bootstrap_error_report(
            __import__("sklearn.neighbors").neighbors.KNeighborsClassifier(1), [b"a"] * 12, y2,
            n_resamples=3)),
        ("BlockedMxTwoCV.split", "X", lambda: list(ms.BlockedMxTwoCV().split(np.zeros((0, 2))))),
        ("fold_assignment", "y", lambda: ms.fold_assignment(ms.make_splitter("K-fold"), 12,
                                                            y=[0] * 3)),
        ("linear y=[None]*n", "y", lambda: ln.logistic_loss(theta, X2, [None] * 12)),
        ("cv_estimator_study(sizes=20)", "sizes", lambda: ms.cv_estimator_study(20, 1)),
        ("degree_curves(degrees=5)", "degrees", lambda: ms.degree_curves(x1, x1, 5)),
        ("cv_estimator_study(sizes=[])", "sizes", lambda: ms.cv_estimator_study([], 1)),
        ("regularized_kl_criterion(penalty=5)", "penalty",
         lambda: dv.regularized_kl_criterion([0.3, 0.2], [2, 3], 1.0, penalty=5)),
        ("assign(progress=5)", "progress", lambda: hw.assign([], "/tmp/x", progress=5)),
        ("BootstrapOutOfBag.split(1.0)", "X", lambda: list(BootstrapOutOfBag(2).split(1.0))),
        ("strip_cdn_links(b'...')", "html", lambda: strip_cdn_links(b"<html></html>")),
        ("erm_halfplane(points)", "X", lambda: vc.erm_halfplane([[0.0]], [0])),
        ("erm_halfplane(labels)", "y", lambda: vc.erm_halfplane([[0., 0.], [1., 1.]], [0, 2])),
        ("gradient_descent_path(theta0)", "theta0",
         lambda: ln.gradient_descent_path(X2, y2, 0.1, 3, theta0=[1.0])),
        ("vc_sample_size(gamma tiny)", ("gamma", "delta"),
         lambda: vc.vc_sample_size(3, gamma=1e-200, delta=0.05)),
        ("DegreeSelectionFigure(n_samples=5)", "n_samples",
         lambda: ms.DegreeSelectionFigure(n_samples=5)),
        ("degree_curves(degrees=[-1])", "degrees", lambda: ms.degree_curves(x1, x1, [-1])),
        ("is_realizable(wrong number of points)", "points",
         lambda: vc.is_realizable([[0.], [1.], [2.]], [0, 1], hypothesis_class="threshold")),
        ("HalfSpace(weights=[1.]).predict(pts)", "weights",
         lambda: vc.HalfSpace([1.0], 0.0).predict([[0., 0.]])),
        ("SampleSizeFigure(figsize=(-1, 3))", "figsize",
         lambda: bd.SampleSizeFigure(figsize=(-1, 3))),
        ("homework.find_chapters(None-ish)", "selectors", lambda: hw.find_chapters(5)),
        ("homework.read_notebook(None)", "data", lambda: hw.read_notebook(None)),
        ("homework.check_spec('x')", "spec", lambda: hw.check_spec("x")),
        ("homework.collect_submissions(None)", "folder", lambda: hw.collect_submissions(None)),
        ("homework.safe_failure(None, ...)", "source", lambda: hw.safe_failure(None, "E", "v")),
    ]:
        case("M-other", fn, call, param)


# --------------------------------------------------------------------------- S
def section_s():
    """Invalid input silently accepted."""
    import mlcore.bootstrap as bs
    import mlcore.bounds as bd
    import mlcore.datasets as ds
    import mlcore.divergence as dv
    import mlcore.linear as ln
    import mlcore.model_selection as ms
    import mlcore.vc as vc
    from mlcore import homework as hw

    X2 = np.random.default_rng(0).normal(size=(12, 2))
    y2 = np.r_[np.zeros(6, int), np.ones(6, int)]
    loo_X = [[0.], [1.], [2.], [4.]]
    rows = [
        ("sigmoid(None)", "z", lambda: ln.sigmoid(None)),
        ("sigmoid('1.5')", "z", lambda: ln.sigmoid("1.5")),
        ("logit('0.5')", "p", lambda: ln.logit("0.5")),
        ("sine_target(None)", "x", lambda: ms.sine_target(None)),
        ("legendre_design(None, 2)", "x", lambda: ms.legendre_design(None, 2)),
        ("numeric strings: logistic_loss X", "X",
         lambda: ln.logistic_loss([0., 0., 0.], X2.astype(str), y2)),
        ("numeric strings: LogisticRegressionGD.fit", "X",
         lambda: ln.LogisticRegressionGD().fit(X2.astype(str), y2)),
        ("numeric strings: kfold_kl_curve", "X", lambda: dv.kfold_kl_curve(X2.astype(str), [2])),
        ("complex: loo_mse_linear", "X", lambda: ms.loo_mse_linear(np.array(loo_X) + 1j,
                                                                    [1., 2., 3., 4.])),
        ("complex: shatters points", "points",
         lambda: vc.shatters(np.array([[0.], [1.]]) + 1j, hypothesis_class="threshold")),
        ("complex: gaussian_kl mean", "mean_p",
         lambda: dv.gaussian_kl([1j, 0], np.eye(2), [0, 0], np.eye(2))),
        ("loo_residuals_linear(y with NaN)", "y",
         lambda: ms.loo_residuals_linear(loo_X, [0.1, np.nan, 2.2, 3.9])),
        ("loo_mse_linear(y with NaN)", "y", lambda: ms.loo_mse_linear(loo_X, [0.1, np.nan, 2, 3])),
        ("cv_split_errors(y with NaN)", "y",
         lambda: ms.cv_split_errors(X2, np.r_[np.nan, np.ones(11)], bs.BootstrapOutOfBag(2))),
        ("degree_curves(y with NaN)", "y",
         lambda: ms.degree_curves(np.linspace(-1, 1, 20), np.r_[np.nan, np.ones(19)], [1])),
        ("threshold_training_errors(X with NaN)", "X",
         lambda: bd.threshold_training_errors([0.1, np.nan], [0, 1], [0.3])),
        ("threshold_training_errors(thresholds NaN)", "thresholds",
         lambda: bd.threshold_training_errors([0.1, 0.2], [0, 1], [np.nan])),
        ("threshold_training_errors(thresholds=1.3)", "thresholds",
         lambda: bd.threshold_training_errors([0.1, 0.2], [0, 1], [1.3])),
        ("bootstrap_distribution(data NaN)", "data",
         lambda: bs.bootstrap_distribution(np.mean, [1., np.nan], 5)),
        ("bootstrap_se(data NaN)", "data", lambda: bs.bootstrap_se(np.mean, [1., np.nan], 5)),
        ("bootstrap_interval(data NaN)", "data",
         lambda: bs.bootstrap_interval(np.mean, [1., np.nan, 2.], 5)),
        ("interval_coverage(truth=nan)", "truth",
         lambda: bs.interval_coverage(np.mean, lambda r, s: r.normal(size=s), np.nan, 10,
                                      n_datasets=3)),
        ("summarize_cv_study(NaN estimates)", ("results", "estimate"),
         lambda: ms.summarize_cv_study(_nan_study())),
        ("load_wholesale(return_X_y='False')", "return_X_y",
         lambda: ds.load_wholesale(return_X_y="False")),
        ("load_wine_quality(return_X_y='False')", "return_X_y",
         lambda: ds.load_wine_quality(return_X_y="False")),
        ("BlockedMxTwoCV(shuffle='no')", "shuffle", lambda: ms.BlockedMxTwoCV(shuffle="no")),
        ("BlockedMxTwoCV(stratify='no')", "stratify", lambda: ms.BlockedMxTwoCV(stratify="no")),
        ("kfold_kl_curve(stratify='yes')", "stratify",
         lambda: dv.kfold_kl_curve(X2, [2], stratify="yes")),
        ("kfold_kl_curve(return_repeats='yes')", "return_repeats",
         lambda: dv.kfold_kl_curve(X2, [2], return_repeats="yes")),
        ("bootstrap_distribution(vectorized='no')", "vectorized",
         lambda: bs.bootstrap_distribution(np.mean, [1., 2.], 5, vectorized="no")),
        ("witness_hypotheses(n_jobs='2')", "n_jobs",
         lambda: vc.witness_hypotheses([[0.], [1.]], hypothesis_class="threshold", n_jobs="2")),
        ("realizable_labelings(n_jobs=1.5)", "n_jobs",
         lambda: vc.realizable_labelings([[0.], [1.]], hypothesis_class="threshold",
                                         n_jobs=1.5)),
        ("select_n_folds(Ks=[-1, 0.5, 7])", "Ks",
         lambda: dv.select_n_folds([0.3, 0.2, 0.1], [-1, 0.5, 7], lam=1.0)),
    ]
    for bad in (True, "1.0", b"1", 1j):
        rows.append((f"regularized_kl_criterion(lam={bad!r})", "lam",
                     lambda bad=bad: dv.regularized_kl_criterion([0.3, 0.2], [2, 3], lam=bad)))
    from decimal import Decimal
    rows += [
        ("regularized_kl_criterion(lam=Decimal)", "lam",
         lambda: dv.regularized_kl_criterion([0.3, 0.2], [2, 3], lam=Decimal("-1"))),
        ("gaussian_classes(n_samples=0)", "n_samples",
         lambda: bs.gaussian_classes(0, np.random.default_rng(0))),
        ("gaussian_classes(separation=nan)", "separation",
         lambda: bs.gaussian_classes(6, np.random.default_rng(0), separation=np.nan)),
        ("preset_points('triangle', seed={})", "seed",
         lambda: vc.preset_points("triangle", seed={})),
        ("GradientDescentFigure(X='abc')", "X", lambda: ln.GradientDescentFigure(X="abc")),
        ("GradientDescentFigure(y=[0, 1])", "y", lambda: ln.GradientDescentFigure(y=[0, 1])),
        ("KLCriterionFigure(curves=..., n_repeats=0)", "n_repeats",
         lambda: dv.KLCriterionFigure(curves={"a": ([2, 3], [0.2, 0.1])}, n_repeats=0)),
    ]
    nb = json_nb()
    rows += [
        ("student_edition(chapter=None)", "chapter", lambda: hw.student_edition(nb, None)),
        ("student_edition(chapter=5)", "chapter", lambda: hw.student_edition(nb, 5)),
        ("tags given as a string", "tags", lambda: hw.parse_questions(
            {**nb, "cells": [{"cell_type": "code", "metadata": {"tags": "solution"},
                              "source": "x = 1", "outputs": [], "execution_count": None}]})),
        ("grade_one(data='{}')", "data",
         lambda: hw.grade_one("a.ipynb", "{}", _tiny_spec(), hw.Limits())),
    ]
    for bad in (0, False, {}):
        rows.append((f"grade_submissions(jobs={bad!r})", "jobs",
                     lambda bad=bad: hw.grade_submissions(_tiny_spec(), [], hw.Limits(),
                                                          jobs=bad)))
    rows += [
        ("merge_manual_scores(..., out=1)", "out",
         lambda: hw.merge_manual_scores("g.csv", "m.csv", _tiny_spec(), out=1)),
        ("merge_manual_scores(grades_csv=1)", "grades_csv",
         lambda: hw.merge_manual_scores(1, "m.csv", _tiny_spec())),
    ]
    for label, params, call in rows:
        case("S", label, call, params)


def json_nb():
    return {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _nan_study():
    from mlcore.model_selection import cv_estimator_study
    out = cv_estimator_study([20], 2, n_true=100, random_state=0)
    out = dict(out) if isinstance(out, dict) else out
    estimate = np.array(out["estimate"], dtype=float)
    estimate[0] = np.nan
    out["estimate"] = estimate
    return out


def _all_cases() -> list[Case]:
    CASES.clear()
    for build in (section_a, section_b, section_cd, section_m, section_s):
        build()
    return list(CASES)


@pytest.mark.parametrize("case", _all_cases(), ids=lambda c: f"{c.section} {c.label}")
def test_reproducer_returns_a_checked_value_or_an_error_naming_the_parameter(case):
    verdict, detail = run(case)
    assert verdict != "DEFECT", detail
