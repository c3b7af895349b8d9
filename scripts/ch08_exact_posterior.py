"""Chapter 8, full size: the exact posterior of Bayesian logistic regression as the referee
of the Laplace approximation.

Run from the repository root:  python scripts/ch08_exact_posterior.py [A|B|C|D]   (part A about
10 min of one core, part B about 5, C and D about 1 each; all: no argument)

Part A (cells "Is the Laplace predictive better?"): on the chapter's 80 training points
(27 polynomial features) and 5,000 test points, the test log loss of the MAP plug-in, the
Laplace predictive and the exact posterior predictive (importance sampling with a
multivariate-t proposal, ``mlcore.bayes.importance_posterior``, 80,000 draws), for
tau in {0.3, 1, 1.778, 3.162}, with paired standard errors and the effective sample size.

Part B (the section "Choosing tau"): the exact log evidence of data set 0 of the 20
replications (make_moons(80, noise=0.3, random_state=1000)) at tau = 1.392 (CV's choice),
6.463 and 300 (the evidence's), by annealed importance sampling (Neal 2001) from a widened
Laplace Gaussian, 400 chains x 1,500 temperatures, two seeds, against the Laplace value.
AIS estimates Z without bias, so log Z is biased low: an AIS value above the Laplace one
means the exact evidence is at least that high.

Part C (the cell "The exact posterior as referee"): the chapter's own importance-sampling call
(tau = 1, 10,000 draws, the first 1,000 test points) with 8 seeds (0-7): the ESS, the log
evidence and its printed s.e., and the two test-loss differences, to show which of the cell's
numbers depend on its seed.

Part D (the section "The evidence against leave-one-out"): the chapter's regression design
(20 points in two clusters, sin(1.5x) + N(0, 0.2^2), features (x/3)^k, k = 1..5) over 300
training sets (seeds 5000 + r): lambda = alpha/beta chosen by the exact evidence (beta profiled
on a grid) and by leave-one-out (PRESS), the ratio of the two, and the paired difference of
their MSE on 2,000 fresh points (one fixed fresh set).
"""
import warnings
import sys

import numpy as np
from scipy.special import logsumexp
from sklearn.datasets import make_moons
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures, StandardScaler

from mlcore.bayes import (BayesianLinearRegression, LaplaceLogisticRegression,
                          MAPLogisticRegression, importance_posterior, log_loss_from_logit,
                          polynomial_moons)

SEED = 2026


def part_a(n_draws=80_000):
    X, y, features = polynomial_moons(80, degree=6, noise=0.3, random_state=SEED)
    Z = features.transform(X)
    X_test, y_test = make_moons(n_samples=5000, noise=0.3, random_state=SEED + 1)
    Z_test = features.transform(X_test)
    se = lambda d: d.std(ddof=1) / np.sqrt(d.size)
    for tau in [0.3, 1.0, 1.778, 3.162]:
        loss = {"plug-in": MAPLogisticRegression(tau=tau).fit(Z, y).decision_function(Z_test),
                "Laplace": LaplaceLogisticRegression(tau=tau).fit(Z, y).decision_function(Z_test)}
        exact = importance_posterior(Z, y, tau, n_draws=n_draws, random_state=SEED)
        loss["exact"] = exact.decision_function(Z_test)
        loss = {k: log_loss_from_logit(y_test, v) for k, v in loss.items()}
        d_map, d_lap = loss["plug-in"] - loss["exact"], loss["Laplace"] - loss["exact"]
        print(f"A tau={tau:<6g} ESS {exact.ess:7.0f}/{n_draws} | test log loss plug-in "
              f"{loss['plug-in'].mean():.4f}, Laplace {loss['Laplace'].mean():.4f}, exact "
              f"{loss['exact'].mean():.4f} | plug-in - exact {d_map.mean():+.4f} ± {se(d_map):.4f}; "
              f"Laplace - exact {d_lap.mean():+.4f} ± {se(d_lap):.4f}", flush=True)


def ais(Z, y, tau, rng, n_chains=400, n_temps=1500, n_mh=3, widen=2.0):
    lap = LaplaceLogisticRegression(tau=tau, max_iter=500).fit(Z, y)
    Z1 = np.column_stack([np.ones(len(Z)), Z])
    mu, d = lap.theta_, lap.theta_.size
    L = np.linalg.cholesky(lap.posterior_cov_ * widen**2)
    log_det = 2 * np.sum(np.log(np.diag(L)))

    def log_q0(th):
        u = np.linalg.solve(L, (th - mu).T)
        return -0.5 * np.sum(u**2, axis=0) - 0.5 * log_det - 0.5 * d * np.log(2 * np.pi)

    def log_f(th):   # log p(S | theta) + log p(w), the intercept's flat prior with density 1
        z = th @ Z1.T
        w = th[:, 1:]
        return (np.sum(y * z - np.logaddexp(0, z), axis=1)
                - 0.5 * w.shape[1] * np.log(2 * np.pi * tau**2) - np.sum(w**2, axis=1) / (2 * tau**2))

    th = mu + rng.standard_normal((n_chains, d)) @ L.T
    temps = np.r_[0, np.geomspace(1e-4, 1, n_temps)]
    log_w = np.zeros(n_chains)
    lq, lf = log_q0(th), log_f(th)
    step = L * 2.38 / np.sqrt(d) * 0.5
    for k in range(1, temps.size):
        log_w += (temps[k] - temps[k - 1]) * (lf - lq)
        if k % 50 == 0:   # adapt the random-walk proposal to the current population
            step = np.linalg.cholesky(np.cov(th.T) + 1e-10 * np.eye(d)) * 2.38 / np.sqrt(d)
        for _ in range(n_mh):
            cand = th + rng.standard_normal((n_chains, d)) @ step.T
            lq_c, lf_c = log_q0(cand), log_f(cand)
            accept = (np.log(rng.uniform(size=n_chains))
                      < (1 - temps[k]) * (lq_c - lq) + temps[k] * (lf_c - lf))
            th[accept], lq[accept], lf[accept] = cand[accept], lq_c[accept], lf_c[accept]
            step = step * (1.1 if accept.mean() > 0.3 else 0.9)
    log_z = logsumexp(log_w) - np.log(n_chains)
    w = np.exp(log_w - log_w.max())
    boots = [logsumexp(log_w[rng.integers(0, n_chains, n_chains)]) - np.log(n_chains)
             for _ in range(200)]
    return lap.log_marginal_likelihood(), log_z, np.std(boots), w.sum() ** 2 / np.sum(w**2)


def part_b():
    X0, y0 = make_moons(n_samples=80, noise=0.3, random_state=1000)
    Z0 = make_pipeline(PolynomialFeatures(6, include_bias=False), StandardScaler()).fit_transform(X0)
    for seed in [3, 11]:
        rng = np.random.default_rng(seed)
        for tau in [1.392, 6.463, 300.0]:
            laplace, log_z, se, ess = ais(Z0, y0, tau, rng)
            print(f"B seed {seed} tau={tau:<7g} Laplace log evidence {laplace:8.3f} | AIS {log_z:8.3f} "
                  f"± {se:.3f} (chain ESS {ess:.0f}/400)", flush=True)


def part_c(seeds=range(8)):
    X, y, features = polynomial_moons(80, degree=6, noise=0.3, random_state=SEED)
    Z = features.transform(X)
    X_test, y_test = make_moons(n_samples=5000, noise=0.3, random_state=SEED + 1)
    Z_test = features.transform(X_test)[:1000]
    y_test = y_test[:1000]
    plug = log_loss_from_logit(y_test, MAPLogisticRegression(tau=1.0).fit(Z, y).decision_function(Z_test))
    lap = log_loss_from_logit(y_test, LaplaceLogisticRegression(tau=1.0).fit(Z, y).decision_function(Z_test))
    rows = []
    for seed in seeds:
        exact = importance_posterior(Z, y, 1.0, n_draws=10_000, random_state=seed)
        ex = log_loss_from_logit(y_test, exact.decision_function(Z_test))
        rows.append([exact.ess, exact.log_evidence, exact.log_evidence_se,
                     (lap - ex).mean(), (plug - ex).mean()])
        print(f"C seed {seed}: ESS {exact.ess:5.0f}/10000 | log evidence {exact.log_evidence:.3f} ± "
              f"{exact.log_evidence_se:.3f} | Laplace - exact {(lap - ex).mean():+.4f}; "
              f"plug-in - exact {(plug - ex).mean():+.4f}", flush=True)
    rows = np.array(rows)
    print(f"C over {len(rows)} seeds: ESS from {rows[:, 0].min():.0f} to {rows[:, 0].max():.0f}; log evidence "
          f"from {rows[:, 1].min():.2f} to {rows[:, 1].max():.2f} (sd {rows[:, 1].std(ddof=1):.3f}); "
          f"Laplace - exact from {rows[:, 3].min():+.4f} to {rows[:, 3].max():+.4f}; plug-in - exact "
          f"from {rows[:, 4].min():+.4f} to {rows[:, 4].max():+.4f}")


def part_d(R=300):
    poly = lambda x: (x[:, None] / 3.0) ** np.arange(1, 6)
    lam_grid, beta_grid = np.geomspace(1e-7, 1e1, 49), np.geomspace(1, 1000, 400)
    fresh = np.random.default_rng(SEED + 2)
    x_f = np.r_[fresh.uniform(-2.5, -0.8, 1000), fresh.uniform(0.8, 2.5, 1000)]
    t_f = np.sin(1.5 * x_f) + fresh.normal(scale=0.2, size=2000)
    diffs, ratios = [], []
    for r in range(R):
        g = np.random.default_rng(5000 + r)
        x = np.r_[g.uniform(-2.5, -0.8, 10), g.uniform(0.8, 2.5, 10)]
        t = np.sin(1.5 * x) + g.normal(scale=0.2, size=20)
        with warnings.catch_warnings():   # a few training sets push alpha to a bound
            warnings.simplefilter("ignore")
            blr = BayesianLinearRegression(fit_evidence=True).fit(poly(x), t)
        profile = blr.log_marginal_likelihood(lam_grid[:, None] * beta_grid, beta_grid).max(axis=1)
        loo = np.array([blr.loo_squared_error(lam, 1.0) for lam in lam_grid])
        lam_ev, lam_loo = lam_grid[profile.argmax()], lam_grid[loo.argmin()]
        mse = lambda lam: np.mean(
            (t_f - BayesianLinearRegression(lam, 1.0).fit(poly(x), t).predict(poly(x_f))) ** 2)
        diffs.append(mse(lam_ev) - mse(lam_loo))
        ratios.append(lam_ev / lam_loo)
    d, ratio = np.array(diffs), np.array(ratios)
    within = np.mean((ratio >= 0.5) & (ratio <= 2))
    print(f"D {R} training sets: fresh-point MSE, evidence's lambda minus LOO's: {d.mean():+.4f} ± "
          f"{d.std(ddof=1) / np.sqrt(R):.4f} (MC s.e.), median {np.median(d):+.4f}; evidence better in "
          f"{np.mean(d < 0):.2f}, LOO in {np.mean(d > 0):.2f}, tied {np.mean(d == 0):.2f}; lambda ratio "
          f"within a factor of 2 in {within:.2f} ± {np.sqrt(within * (1 - within) / R):.2f}; median "
          f"ratio evidence/LOO {np.median(ratio):.2f}")


if __name__ == "__main__":
    parts = sys.argv[1:] or ["A", "B", "C", "D"]
    for part in parts:
        {"A": part_a, "B": part_b, "C": part_c, "D": part_d}[part]()
