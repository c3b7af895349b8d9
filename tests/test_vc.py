"""mlcore.vc: exact shattering, checked by witnesses, linear programs and scikit-learn."""

import math

import numpy as np
import pytest
from scipy.special import comb
from sklearn.svm import SVC

from mlcore.vc import (PRESETS, ShatteringExplorer, erm_halfplane, is_realizable, labelings,
                       margin_vc_bound, preset_points, realizable_labelings, regular_simplex,
                       sauer_bound, shatters, vc_bound_gap, vc_sample_size, witness_hypotheses,
                       rademacher_vc_gap, rademacher_vc_sample_size)

RNG_SEED = 20260311


def _candidate_sets(n_points, dim, n_random, rng):
    """Random sets plus structured ones (grid points, collinear, duplicates, cocircular)."""
    sets = [rng.normal(size=(n_points, dim)) for _ in range(n_random)]
    sets += [rng.integers(0, 3, size=(n_points, dim)).astype(float) for _ in range(n_random // 2)]
    sets.append(np.outer(np.arange(n_points), np.ones(dim)))  # collinear
    sets.append(np.zeros((n_points, dim)))  # all equal
    if dim == 2:
        angles = 2 * np.pi * np.arange(n_points) / n_points
        sets.append(np.column_stack([np.cos(angles), np.sin(angles)]))  # cocircular, convex
        sets.append(np.vstack([np.column_stack([np.cos(angles[:-1]), np.sin(angles[:-1])]) * 2,
                               [[0.01, 0.02]]]))  # a point inside the others' hull
    return sets


# -- the VC dimension of every class, both ways ------------------------------------
SHATTERED = {
    "threshold": np.array([[0.0]]),
    "interval": np.array([[0.0], [1.0]]),
    "rectangle": np.array([[-1.0, 0.0], [1.0, 0.0], [0.0, -1.0], [0.0, 1.0]]),
    "disc": np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]),
    "halfspace": np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]),
}
DIM = {"threshold": 1, "interval": 1, "rectangle": 2, "disc": 2, "halfspace": 2}


@pytest.mark.parametrize("cls", list(SHATTERED))
def test_a_set_of_size_d_is_shattered(cls):
    assert shatters(SHATTERED[cls], hypothesis_class=cls)


@pytest.mark.parametrize("cls", list(SHATTERED))
def test_no_set_of_size_d_plus_one_is_shattered(cls):
    rng = np.random.default_rng(RNG_SEED)
    d = len(SHATTERED[cls])
    for points in _candidate_sets(d + 1, DIM[cls], 300, rng):
        assert not shatters(points, hypothesis_class=cls), (cls, points.tolist())


@pytest.mark.parametrize("n", [1, 3])
def test_halfspaces_in_n_dimensions_have_vc_n_plus_one(n):
    simplex = np.vstack([np.zeros(n), np.eye(n)])
    assert shatters(simplex, hypothesis_class="halfspace")
    rng = np.random.default_rng(RNG_SEED)
    for points in _candidate_sets(n + 2, n, 8, rng):
        assert not shatters(points, hypothesis_class="halfspace"), points.tolist()


def test_a_collinear_triple_is_not_shattered_by_half_planes_or_discs():
    line = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]
    # half-planes miss (1, 0, 1) and (0, 1, 0); a small disc catches the middle point alone
    for cls, missed in (("halfspace", [0b010, 0b101]), ("disc", [0b101])):
        realizable = realizable_labelings(line, hypothesis_class=cls)
        assert np.flatnonzero(~realizable).tolist() == missed, cls


# -- witnesses really produce their labelings -----------------------------------------
@pytest.mark.parametrize("cls", list(SHATTERED))
def test_every_witness_produces_its_labeling(cls):
    rng = np.random.default_rng(RNG_SEED)
    for n in range(1, 7):
        for points in _candidate_sets(n, DIM[cls], 5, rng):
            found = witness_hypotheses(points, hypothesis_class=cls)
            assert found, "at least the all-zero labeling is realizable"
            for bits, h in found.items():
                expected = (bits >> np.arange(n)) & 1
                np.testing.assert_array_equal(h.predict(points), expected)


@pytest.mark.parametrize("cls", list(SHATTERED))
def test_is_realizable_agrees_with_the_enumeration(cls):
    rng = np.random.default_rng(RNG_SEED + 1)
    points = rng.normal(size=(5, DIM[cls]))
    table = realizable_labelings(points, hypothesis_class=cls)
    for bits, labels in enumerate(labelings(5)):
        ok, h = is_realizable(points, labels, hypothesis_class=cls)
        assert ok == table[bits]
        assert (h is None) if not ok else np.array_equal(h.predict(points), labels)


# -- the fast enumerations against the linear programs and scikit-learn ---------------
@pytest.mark.parametrize("cls", ["halfspace", "disc"])
def test_combinatorial_enumeration_matches_linear_programming(cls):
    rng = np.random.default_rng(RNG_SEED + 2)
    for n in (2, 4, 6):
        for points in _candidate_sets(n, 2, 4, rng):
            fast = realizable_labelings(points, hypothesis_class=cls)
            slow = realizable_labelings(points, hypothesis_class=cls, method="lp")
            np.testing.assert_array_equal(fast, slow, err_msg=str(points.tolist()))


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_half_plane_realizability_matches_a_hard_margin_svm():
    # realizable: a (nearly) hard-margin linear SVM separates the labeling exactly;
    # not realizable: no linear classifier can, so the SVM (bounded effort) makes a mistake
    rng = np.random.default_rng(RNG_SEED + 3)
    for _ in range(3):
        points = rng.normal(size=(6, 2))
        realizable = realizable_labelings(points, hypothesis_class="halfspace")
        for bits, labels in enumerate(labelings(6)):
            if labels.min() == labels.max():
                continue  # one class: SVC cannot fit it, and every class realizes it
            svm = SVC(kernel="linear", C=1e10 if realizable[bits] else 1.0, max_iter=1_000_000)
            assert (svm.fit(points, labels).score(points, labels) == 1.0) == realizable[bits], labels


def test_cover_counting_theorem_for_half_planes_in_general_position():
    # Cover (1965): n points in general position in the plane have n^2 - n + 2 dichotomies.
    rng = np.random.default_rng(RNG_SEED + 4)
    for n in range(1, 11):
        count = realizable_labelings(rng.normal(size=(n, 2)), hypothesis_class="halfspace").sum()
        assert count == n * n - n + 2


def test_all_labelings_of_ten_points_by_half_planes_without_a_linear_program(monkeypatch):
    """The sweep decides all 2^10 labelings with no LP (the speed is scripts/bench_vc.py's)."""
    from mlcore.vc import _hypotheses
    solved = []                                  # a count of work, not a time
    monkeypatch.setattr(_hypotheses, "linprog", lambda *a, **k: solved.append(a) or 1 / 0)
    points = np.random.default_rng(RNG_SEED).normal(size=(10, 2))
    assert realizable_labelings(points, hypothesis_class="halfspace").sum() == 10 * 10 - 10 + 2
    assert solved == []


# -- growth function and Sauer-Shelah -------------------------------------------------
def test_sauer_bound_matches_scipy_comb():
    for m in range(0, 30):
        for d in range(0, 8):
            expected = sum(comb(m, i, exact=True) for i in range(d + 1))
            assert sauer_bound(m, d) == expected
            if m <= d:
                assert sauer_bound(m, d) == 2 ** m


@pytest.mark.parametrize("cls", list(SHATTERED))
def test_growth_never_exceeds_the_sauer_bound(cls):
    rng = np.random.default_rng(RNG_SEED + 5)
    d = len(SHATTERED[cls])
    for n in range(1, 8):
        count = realizable_labelings(rng.normal(size=(n, DIM[cls])), hypothesis_class=cls).sum()
        assert count <= sauer_bound(n, d)
        if cls in ("threshold", "interval"):
            assert count == sauer_bound(n, d)  # these classes meet the bound on distinct points


# -- bounds ----------------------------------------------------------------------------
def test_vc_bound_gap_is_the_devroye_gyorfi_lugosi_formula():
    for d, m, delta in [(1, 10, 0.1), (3, 1000, 0.05), (10, 50_000, 0.01)]:
        growth = sum(comb(m, i, exact=True) for i in range(d + 1))
        expected = math.sqrt(32 * math.log(8 * growth / delta) / m)
        assert vc_bound_gap(d, m, delta) == pytest.approx(expected, rel=1e-10)
    m = np.array([10, 100, 1000, 10_000])
    gaps = vc_bound_gap(3, m, 0.05)
    assert np.all(np.diff(gaps) < 0)
    np.testing.assert_allclose(gaps, [vc_bound_gap(3, int(k), 0.05) for k in m])


@pytest.mark.parametrize("d, gamma", [(1, 0.2), (3, 0.1), (10, 0.05)])
def test_vc_sample_size_is_the_smallest_sufficient_m(d, gamma):
    m = vc_sample_size(d, gamma=gamma, delta=0.05)
    assert vc_bound_gap(d, m, 0.05) <= gamma < vc_bound_gap(d, m - 1, 0.05)


def test_regular_simplex_is_regular_and_centred():
    S = regular_simplex(5, radius=2.0)
    assert S.shape == (5, 4)
    np.testing.assert_allclose(np.linalg.norm(S, axis=1), 2.0)
    np.testing.assert_allclose(S.mean(axis=0), 0.0, atol=1e-12)
    distances = np.linalg.norm(S[:, None] - S[None], axis=2)[np.triu_indices(5, 1)]
    np.testing.assert_allclose(distances, distances[0])


def simplex_worst_margin(k):
    """Smallest max-margin over the labelings of the unit regular simplex (closed form).

    Splitting k vertices into p and q = k - p, the closest points of the two faces are their
    centroids, at distance k / sqrt(p q (k - 1)); the margin is half of it, worst at p = k // 2.
    """
    p, q = k // 2, k - k // 2
    return k / (2 * math.sqrt(p * q * (k - 1)))


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_margin_bound_holds_and_is_attained_on_the_regular_simplex(k):
    # every labeling of the simplex is separable with margin >= the worst one (SVM check),
    # so k points are shattered at that margin: the bound must allow k points
    S = regular_simplex(k)
    margins = []
    for labels in labelings(k)[1:-1]:
        svm = SVC(kernel="linear", C=1e6, tol=1e-10).fit(S, labels)
        margins.append(1 / np.linalg.norm(svm.coef_))
    worst = min(margins)
    assert worst == pytest.approx(simplex_worst_margin(k), rel=1e-4)
    assert margin_vc_bound(1.0, worst) >= k
    if k % 2 == 0:  # R^2 / gamma^2 = k - 1 exactly: the bound is attained
        assert margin_vc_bound(1.0, 1 / math.sqrt(k - 1)) == k
    if k >= 3:  # the lecture notes' R^2/(4 gamma^2) form, with R the radius, would forbid it
        assert math.ceil(1 / (4 * worst ** 2)) + 1 < k


@pytest.mark.parametrize("k", [3, 4, 5, 7, 8])
def test_margin_proof_inequality_on_random_points(k):
    # The chapter's proof: the mean over the balanced splits (p = k // 2 points against the
    # rest) of |mean_A - mean_B|^2 equals k s^2 / (p q), s^2 the sample variance of the
    # points, and is at most k^2 R^2 / (p q (k - 1)); every split's hard margin is at most
    # half that distance, so the worst margin is at most R * simplex_worst_margin(k).
    from itertools import combinations
    rng = np.random.default_rng(k)
    X = rng.normal(size=(k, k + 1))
    R = np.linalg.norm(X, axis=1).max()
    p, q = k // 2, k - k // 2
    splits = [list(A) for A in combinations(range(k), p)]
    dist2 = [np.sum((X[A].mean(axis=0) - np.delete(X, A, axis=0).mean(axis=0)) ** 2) for A in splits]
    s2 = np.sum((X - X.mean(axis=0)) ** 2) / (k - 1)
    assert np.mean(dist2) == pytest.approx(k * s2 / (p * q), rel=1e-10)
    assert np.mean(dist2) <= k ** 2 * R ** 2 / (p * q * (k - 1))
    worst = min(1 / np.linalg.norm(SVC(kernel="linear", C=1e6, tol=1e-10).fit(
        X, np.isin(np.arange(k), A).astype(int)).coef_) for A in splits)
    assert worst <= R * simplex_worst_margin(k) + 1e-9
    assert margin_vc_bound(R, worst) >= k


@pytest.mark.parametrize("k", range(2, 40))
def test_margin_bound_is_tight_on_every_simplex_and_the_floor_form_fails_for_odd_k(k):
    gamma = simplex_worst_margin(k)
    assert margin_vc_bound(1.0, gamma) == k
    assert math.floor(1 / gamma ** 2 + 1e-9) + 1 == (k if k % 2 == 0 else k - 1)  # 1e-9: rounding


def test_margin_bound_is_capped_by_the_dimension():
    assert margin_vc_bound(10.0, 0.1) == 10_001
    assert margin_vc_bound(10.0, 0.1, n_features=3) == 4


# -- errors a student can act on -------------------------------------------------------
@pytest.mark.parametrize("kwargs, message", [
    (dict(points=[[0, 0]], labels=[1], hypothesis_class="circle"), "hypothesis_class must be one of"),
    (dict(points=[[0, 0, 0]], labels=[1], hypothesis_class="disc"), "hypothesis_class='disc'"),
    (dict(points=[[0, 0]], labels=[1], hypothesis_class="interval"), "hypothesis_class='interval'"),
    (dict(points=[[0, np.nan]], labels=[1], hypothesis_class="halfspace"), "points must be finite"),
    (dict(points=[[[0]]], labels=[1], hypothesis_class="halfspace"), "points must be a 2-D array"),
    (dict(points=[[0, 0]], labels=[1, 0], hypothesis_class="halfspace"), "labels must have shape"),
    (dict(points=[[0, 0]], labels=[2], hypothesis_class="halfspace"), "labels must be 0 or 1"),
    (dict(points=[["a", 0]], labels=[1], hypothesis_class="halfspace"), "points must be an array"),
])
def test_bad_input_names_the_parameter(kwargs, message):
    with pytest.raises((TypeError, ValueError), match=message):
        is_realizable(**kwargs)


def test_bad_enumeration_requests_name_the_parameter():
    with pytest.raises(ValueError, match="len\\(points\\) must be an integer <= 20"):
        realizable_labelings(np.zeros((21, 2)), hypothesis_class="halfspace")
    with pytest.raises(ValueError, match="method='lp' applies to"):
        realizable_labelings([[0, 0]], hypothesis_class="rectangle", method="lp")
    with pytest.raises(ValueError, match="method must be one of"):
        realizable_labelings([[0, 0]], hypothesis_class="disc", method="fast")
    with pytest.raises(ValueError, match="delta must be in \\(0, 1\\)"):
        vc_bound_gap(3, 100, 1.5)
    with pytest.raises(ValueError, match="m must be an integer >= 1"):
        vc_bound_gap(3, 0, 0.05)
    with pytest.raises(ValueError, match="margin must be > 0"):
        margin_vc_bound(1.0, 0.0)
    with pytest.raises(ValueError, match="preset must be one of"):
        preset_points("star")


# -- the explorer shows what the functions compute ----------------------------------
@pytest.mark.parametrize("cls", list(SHATTERED))
def test_explorer_title_reports_the_enumeration(cls):
    figure = ShatteringExplorer()
    for preset in PRESETS:
        figure.update(**{**figure.defaults(), "hypothesis_class": cls, "preset": preset})
        points = preset_points(preset)
        points = points[:, :1] if DIM[cls] == 1 else points
        count = int(realizable_labelings(points, hypothesis_class=cls).sum())
        assert f": {count}/{2 ** len(points)} realizable" in figure.title.get_text()


# -- exact 0-1 ERM over half-planes -------------------------------------------------------
def test_erm_halfplane_beats_every_half_plane_on_a_fine_grid_and_the_convex_surrogates():
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import LinearSVC

    rng = np.random.default_rng(RNG_SEED + 6)
    X = rng.normal(size=(40, 2))
    y = ((X[:, 0] + 0.5 * X[:, 1] + 0.8 * rng.normal(size=40)) > 0).astype(int)
    errors = int((erm_halfplane(X, y).predict(X) != y).sum())
    angles = np.linspace(0, 2 * np.pi, 3600, endpoint=False)
    projections = X @ np.column_stack([np.cos(angles), np.sin(angles)]).T  # (n, 3600)
    ranked = y[np.argsort(-projections, axis=0)]  # labels by decreasing projection
    # labelling the top k of a direction 1: mistakes = zeros among them + ones below them
    zeros_on_top = np.vstack([np.zeros(len(angles)), np.cumsum(1 - ranked, axis=0)])
    ones_below = y.sum() - np.vstack([np.zeros(len(angles)), np.cumsum(ranked, axis=0)])
    assert errors <= (zeros_on_top + ones_below).min()
    for model in (LogisticRegression(C=np.inf), LinearSVC(C=10.0)):
        assert errors <= int((model.fit(X, y).predict(X) != y).sum())
    assert errors == 0 or not is_realizable(X, y, hypothesis_class="halfspace")[0]


def test_erm_halfplane_is_zero_exactly_on_realizable_labelings():
    points = np.random.default_rng(RNG_SEED + 7).normal(size=(6, 2))
    realizable = realizable_labelings(points, hypothesis_class="halfspace")
    for bits, labels in enumerate(labelings(6)):
        mistakes = int((erm_halfplane(points, labels).predict(points) != labels).sum())
        assert (mistakes == 0) == realizable[bits]


@pytest.mark.parametrize("d, expected", [(3, 7451), (10, 21063), (20, 39581)])
def test_rademacher_vc_sample_size_matches_a_brute_force_scan(d, expected):
    # The review's numbers (Mohri et al. 2nd ed., Cor. 3.19, delta / 2 per side), and a scan of
    # every m with the formula written out independently.
    ms = np.arange(d, 200_000)
    gap = np.sqrt(2 * d * np.log(np.e * ms / d) / ms) + np.sqrt(np.log(2 / 0.05) / (2 * ms))
    brute = int(ms[np.argmax(gap <= 0.1)])
    assert rademacher_vc_sample_size(d, gamma=0.1, delta=0.05) == brute == expected


def test_rademacher_vc_gap_rejects_m_below_d():
    with pytest.raises(ValueError, match=r"m must be an integer >= 5, got m=3; .* needs m >= d"):
        rademacher_vc_gap(5, 3, 0.05)


@pytest.mark.parametrize("m", [5, 9, 14])
def test_min_halfplane_errors_matches_the_exact_erm_sweep(m):
    from mlcore.vc import min_halfplane_errors
    rng = np.random.default_rng(RNG_SEED + m)
    for _ in range(10):
        X, y = rng.normal(size=(m, 2)), rng.integers(0, 2, size=m)
        assert min_halfplane_errors(X, y) == (erm_halfplane(X, y).predict(X) != y).sum()


def test_min_halfplane_errors_matches_brute_force_over_realizable_labelings():
    from mlcore.vc import min_halfplane_errors
    rng = np.random.default_rng(RNG_SEED)
    X = rng.normal(size=(8, 2))
    realizable = realizable_labelings(X, hypothesis_class="halfspace", method="lp")
    codes = np.flatnonzero(realizable)
    table = (codes[:, None] >> np.arange(8)) & 1              # bit i = point i's label
    for _ in range(10):
        y = rng.integers(0, 2, size=8)
        assert min_halfplane_errors(X, y) == (table != y).sum(axis=1).min()


def test_halfplane_noise_gaps_are_seeded_and_parallel_safe():
    from mlcore.vc import halfplane_noise_gaps
    serial = halfplane_noise_gaps(30, 6, seed=4)
    assert np.array_equal(serial, halfplane_noise_gaps(30, 6, seed=4, n_jobs=2))
    assert ((serial > 0) & (serial <= 0.5)).all()
