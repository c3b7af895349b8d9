"""The simulation study of the error estimates, and the interactive figures of chapter 6.

Holds :func:`gaussian_classes`, :func:`simulate_error_estimates` (whose
per-repetition worker stays at module level so joblib can pickle it), and
the ``InteractiveFigure`` subclasses :class:`NeverDrawnFigure` and
:class:`BootstrapIntervalFigure`. Part of :mod:`mlcore.bootstrap`.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from sklearn.model_selection import KFold, LeaveOneOut

from .._parallel import parallel_map
from .._validation import as_generator, check_array, check_int, check_random_state, check_real
from ..widgets import InteractiveFigure
from ._batch import fit_predict_many
from ._intervals import (_evaluate, _interval, _jackknife_indices, _prepare, _standard_errors,
                         _studentized, _t_ratios, bootstrap_distribution)
from ._resampling import (_zero_one, bootstrap_error_report, bootstrap_indices, draw_counts,
                          never_drawn_probability)


# --------------------------------------------------------------------------- simulation
def gaussian_classes(n_samples, rng, separation=1.0):
    """Two equal classes in the plane, N(0, I) and N((separation, 0), I), balanced and shuffled.

    The Bayes error is Phi(-separation / 2); with ``separation=0`` the labels
    carry no information and every classifier errs half the time.

    Examples
    --------
    >>> X, y = gaussian_classes(6, np.random.default_rng(0))
    >>> X.shape, int(y.sum())
    ((6, 2), 3)
    """
    n_samples = check_int(n_samples, "n_samples", low=1)
    if not isinstance(rng, (np.random.Generator, np.random.RandomState)):
        rng = as_generator(rng, "rng")  # a seed is accepted too
    separation = check_real(separation, "separation", low=-1e100, high=1e100,
                            why="it is the distance between the class means")
    y = rng.permutation(np.arange(n_samples) % 2)
    X = rng.normal(size=(n_samples, 2))
    X[:, 0] += separation * y
    return X, y


def _cv_error(estimator, X, y, cv):
    """Mean 0-1 error over the splits of ``cv``: ``1 - cross_val_score(...).mean()`` without its overhead.

    Every split's model predicts all of X at once (batched for 1-NN and LDA); each
    is scored on its own test samples.
    """
    splits = list(cv.split(X, y))
    on_all = fit_predict_many(estimator, X, y, [train for train, _ in splits], X)
    return float(np.mean([_zero_one(y[test], p[test]) for p, (_, test) in zip(on_all, splits)]))


def _one_repetition(estimator, sampler, m, n_resamples, n_test, n_splits, seed):
    rng = np.random.default_rng(seed)
    X, y = sampler(m, rng)
    X_test, y_test = sampler(n_test, rng)
    report = bootstrap_error_report(estimator, X, y, n_resamples=n_resamples, random_state=rng,
                                    standard_errors=False)
    kfold = KFold(n_splits, shuffle=True, random_state=int(rng.integers(2**31)))
    truth = fit_predict_many(estimator, X, y, [np.arange(m)], X_test)[0]
    return {"true error": _zero_one(y_test, truth),
            "resubstitution": report.resubstitution, "naive bootstrap": report.naive,
            "out-of-bag": report.out_of_bag, "Err(1)": report.leave_one_out,
            ".632": report.point632, ".632+": report.point632plus,
            f"{n_splits}-fold CV": _cv_error(estimator, X, y, kfold),
            "LOO": _cv_error(estimator, X, y, LeaveOneOut())}


def simulate_error_estimates(estimator, sampler, n_samples, *, n_repetitions=50, n_resamples=50,
                             n_test=5000, n_splits=10, random_state=None, n_jobs=None):
    """Draw many small training sets; estimate a classifier's error every way; record the truth.

    Each repetition draws m = ``n_samples`` training points and ``n_test``
    test points with ``sampler(n, rng) -> (X, y)``, fits the classifier on the
    training points, and records its test error ("true error") beside the
    resubstitution, naive bootstrap (Err_boot), out-of-bag, leave-one-out
    bootstrap (Err(1)), .632, .632+, K-fold CV (``KFold``) and
    leave-one-out (``LeaveOneOut``) estimates of it (0-1 loss). The CV errors
    are ``1 - cross_val_score(...).mean()``, computed without its per-split
    overhead; for 1-NN and binary LDA every fit of a repetition (bootstrap,
    CV, the full model) is batched in NumPy (:mod:`mlcore.bootstrap._batch`),
    label for label equal to scikit-learn's. Repetitions
    use independent child seeds, so ``n_jobs`` never changes the result.

    Returns
    -------
    dict of str to ndarray, each of shape (n_repetitions,)

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> out = simulate_error_estimates(KNeighborsClassifier(1), gaussian_classes, 20,
    ...                                n_repetitions=2, n_resamples=10, random_state=0)
    >>> list(out)[:3], out["LOO"].shape
    (['true error', 'resubstitution', 'naive bootstrap'], (2,))
    """
    m = check_int(n_samples, "n_samples", low=2 * check_int(n_splits, "n_splits", low=2))
    n_repetitions = check_int(n_repetitions, "n_repetitions", low=1)
    if not callable(sampler):
        raise TypeError(f"sampler must be a function sampler(n_samples, rng) -> (X, y), got "
                        f"sampler={sampler!r}.")
    random_state = check_random_state(random_state)
    if random_state is not None and not isinstance(random_state, int):
        random_state = int(as_generator(random_state).integers(2 ** 63))
    seeds = np.random.SeedSequence(random_state).spawn(n_repetitions)
    task = partial(_one_repetition, estimator, sampler, m, n_resamples,
                   check_int(n_test, "n_test", low=1), n_splits)
    rows = parallel_map(task, seeds, n_jobs=n_jobs, desc="repetitions")
    return {key: np.array([row[key] for row in rows]) for key in rows[0]}


def oob_gap_study(n_samples, *, n_datasets=200, n_resamples=20, separation=2.0, n_test=1000,
                  sampler=None, random_state=None):
    """Out-of-bag estimate against the true errors it could be tracking, over many data sets.

    For 1-nearest-neighbour on :func:`gaussian_classes`, each of
    ``n_datasets`` data sets of m = ``n_samples`` points gives three numbers:
    the true error of the model fitted on all m points, the mean true error of
    the ``n_resamples`` bootstrap models (each fitted on its ~0.632m distinct
    points), and their out-of-bag estimate (mean over resamples of the error on
    the samples a resample missed). True errors are measured on ``n_test``
    fresh points. The 1-NN predictions of all bootstrap models are computed at
    once from one distance matrix per data set, so the study takes a fraction
    of a second; they equal ``KNeighborsClassifier(1)``'s (a test checks).

    ``sampler(n, rng, separation) -> (X, y)`` replaces :func:`gaussian_classes`
    (which draws exactly balanced classes), e.g. to draw the labels
    independently.

    Returns
    -------
    dict of str to ndarray, each of shape (n_datasets,)
        "full model", "bootstrap models" and "out-of-bag".

    Examples
    --------
    >>> out = oob_gap_study(30, n_datasets=20, random_state=0)
    >>> sorted(out), out["out-of-bag"].shape
    (['bootstrap models', 'full model', 'out-of-bag'], (20,))
    """
    m = check_int(n_samples, "n_samples", low=2)
    n_datasets = check_int(n_datasets, "n_datasets", low=1)
    n_resamples = check_int(n_resamples, "n_resamples", low=1,
                            why="it is the number of bootstrap samples per data set")
    n_test = check_int(n_test, "n_test", low=1)
    separation = check_real(separation, "separation", low=-1e100, high=1e100)
    if sampler is None:
        sampler = gaussian_classes
    elif not callable(sampler):
        raise TypeError(f"sampler must be None or a function sampler(n, rng, separation) -> (X, y), "
                        f"got sampler={sampler!r}.")
    rng = as_generator(random_state)
    out = {"full model": [], "bootstrap models": [], "out-of-bag": []}
    for _ in range(n_datasets):
        X, y = sampler(m, rng, separation)
        X_test, y_test = sampler(n_test, rng, separation)
        points = np.vstack([X_test, X])                                # test points, then D
        distance = ((points[:, None, :] - X[None, :, :]) ** 2).sum(-1)  # (n_test + m, m)
        out["full model"].append(np.mean(y[distance[:n_test].argmin(1)] != y_test))
        counts = draw_counts(m, n_resamples, random_state=rng)
        while not (counts == 0).any(axis=1).all():                      # every resample needs a test set
            redraw = ~(counts == 0).any(axis=1)
            counts[redraw] = draw_counts(m, int(redraw.sum()), random_state=rng)
        masked = np.where(counts[:, None, :] > 0, distance[None], np.inf)  # (B, n_test + m, m)
        predicted = y[masked.argmin(2)]
        out["bootstrap models"].append(np.mean(predicted[:, :n_test] != y_test))
        wrong = predicted[:, n_test:] != y                               # (B, m), on D
        missed = counts == 0
        out["out-of-bag"].append(np.mean((wrong & missed).sum(1) / missed.sum(1)))
    return {key: np.array(values) for key, values in out.items()}


# --------------------------------------------------------------------------- figures
class NeverDrawnFigure(InteractiveFigure):
    """Slider m: the share of samples a bootstrap sample misses, against (1 - 1/m)^m and 1/e."""

    benchmark = ("n_samples", [1, 2, 3, 5, 10, 20, 50, 100])
    figsize = (8.4, 3.4)
    n_resamples = 400

    def controls(self):
        import ipywidgets as widgets

        return {"n_samples": widgets.IntSlider(value=10, min=1, max=100, description="m")}

    def setup(self, fig):
        from scipy.stats import binom

        self._binom = binom
        fig.set_layout_engine("none")   # fixed positions: a constrained layout costs a redraw
        left, right = fig.subplots(1, 2)
        left.set_position([0.08, 0.15, 0.39, 0.72])
        right.set_position([0.58, 0.15, 0.40, 0.72])
        ms = np.arange(1, 101)
        left.plot(ms, never_drawn_probability(ms), color="C0", label="$(1-1/m)^m$")
        left.axhline(np.exp(-1), color="gray", ls="--", label="$1/e$")
        (self.exact,) = left.plot([], [], "o", color="C0", ms=8)
        (self.measured,) = left.plot([], [], "x", color="C3", ms=10, mew=2,
                                     label=f"measured ({self.n_resamples} resamples)")
        left.set(xlabel="m (samples in the data set)", ylabel="P(a sample is never drawn)",
                 xlim=(0, 101), ylim=(-0.02, 0.5))
        left.legend(loc="lower right", fontsize=8)
        self.ks = np.arange(7)
        self.bars = right.bar(self.ks, np.zeros(7), color="C0", alpha=0.5, label="measured")
        (self.pmf,) = right.plot(self.ks, np.zeros(7), "o-", color="C3", label="Binomial$(m, 1/m)$")
        right.set(xlabel="copies of a sample in one bootstrap sample", ylabel="share of samples",
                  ylim=(0, 1.02), xticks=self.ks, xticklabels=["0", "1", "2", "3", "4", "5", "6+"])
        right.legend(fontsize=8)
        self.title = fig.suptitle("")

    def update(self, n_samples):
        m = int(n_samples)
        counts = draw_counts(m, self.n_resamples, random_state=0)
        exact, measured = float(never_drawn_probability(m)), float((counts == 0).mean())
        self.exact.set_data([m], [exact])
        self.measured.set_data([m], [measured])
        share = np.bincount(np.minimum(counts.ravel(), 6), minlength=7) / counts.size
        for bar, height in zip(self.bars, share):
            bar.set_height(height)
        pmf = self._binom.pmf(self.ks, m, 1.0 / m)
        pmf[6] = self._binom.sf(5, m, 1.0 / m)
        self.pmf.set_ydata(pmf)
        self.title.set_text(f"m = {m}: a sample is never drawn with probability {exact:.3f} "
                            f"(measured {measured:.3f}); the limit is 1/e = 0.368")

    def dynamic_artists(self):
        # update() moves only these; axes, ticks and legends stay as drawn.
        return [self.exact, self.measured, *self.bars, self.pmf, self.title]


class BootstrapIntervalFigure(InteractiveFigure):
    """Slider: number of resamples; histogram of the bootstrap replicates and three 95% intervals.

    Percentile, BCa and bootstrap-t (studentized, with the jackknife standard
    error of every resample). By default the statistic is the mean of a
    skewed (log-normal) sample of 25. ``data`` is any 1-D sample of at least
    2 finite values; where an interval is undefined on it (bootstrap-t when
    some resamples are all tied, BCa when every replicate lies on one side)
    the figure leaves that interval out and says why in its title.
    """

    benchmark = ("n_resamples", [25, 50, 100, 200, 400, 800, 1600, 3200])
    figsize = (7.0, 3.6)

    def __init__(self, data=None, statistic=np.mean, **kwargs):
        if data is None:
            data = np.random.default_rng(6).lognormal(sigma=1.0, size=25)
        self.data = check_array(data, "data", ndim=1, min_length=2,
                                why="the jackknife and the bootstrap need 2 values or more")
        if not callable(statistic):
            raise TypeError(f"statistic must be a callable (a 1-D sample -> a number), got "
                            f"statistic={statistic!r} of type {type(statistic).__name__}.")
        self.statistic = statistic
        super().__init__(**kwargs)

    def controls(self):
        import ipywidgets as widgets

        return {"n_resamples": widgets.SelectionSlider(options=self.benchmark[1], value=200,
                                                       description="resamples")}

    def setup(self, fig):
        fig.set_layout_engine("none")   # fixed positions: a constrained layout costs a redraw
        ax = self.ax = fig.add_subplot()
        ax.set_position([0.1, 0.14, 0.87, 0.76])
        m = len(self.data)
        self.theta_hat = float(self.statistic(self.data))
        wide = bootstrap_distribution(self.statistic, self.data, 4000, random_state=1)
        low, high = np.quantile(wide, [0.0005, 0.9995])
        if not high > low:      # constant data or statistic: one bin around the single value
            half = max(abs(self.theta_hat) * 1e-3, 1e-3)
            low, high = self.theta_hat - half, self.theta_hat + half
        self.edges = np.linspace(low, high, 41)
        self.histogram = ax.stairs(np.zeros(40), self.edges, fill=True, color="C0", alpha=0.5,
                                   label="bootstrap replicates")   # one artist, not 40 bars
        self.jackknife = np.array([self.statistic(row) for row in self.data[_jackknife_indices(m)]])
        _, self._vectorized = _prepare(self.statistic, self.data, None)
        self.se_hat = float(_standard_errors(None, self.statistic, self.data[None], self._vectorized)[0])
        ax.axvline(self.theta_hat, color="black", label="estimate on the data")
        self.lines = {name: [ax.axvline(0, color=c, ls=ls, label=f"95% {name}"), ax.axvline(0, color=c, ls=ls)]
                      for name, c, ls in [("percentile", "C3", "-"), ("BCa", "C2", "--"),
                                          ("bootstrap-t", "C4", ":")]}
        ax.set(xlabel="value of the statistic (mean of the sample)", ylabel="density")
        ax.legend(fontsize=8, loc="upper right")

    def update(self, n_resamples):
        samples = self.data[bootstrap_indices(len(self.data), int(n_resamples), random_state=0)]
        reps = _evaluate(self.statistic, samples, self._vectorized)   # = bootstrap_distribution(...)
        heights = np.histogram(reps, self.edges, density=True)[0]
        self.histogram.set_data(values=heights)
        self.ax.set_ylim(0, 1.15 * max(heights.max(), 1e-9))
        text = []
        for name, (low_line, high_line) in self.lines.items():
            try:
                if name == "bootstrap-t":
                    se_star = _standard_errors(None, self.statistic, samples, self._vectorized)
                    low, high = _studentized(_t_ratios(reps, self.theta_hat, se_star),
                                             self.theta_hat, self.se_hat, 0.95)
                else:
                    low, high = _interval(reps, self.theta_hat, self.jackknife, name, 0.95)
            except ValueError:   # undefined on these data (tied resamples, one-sided replicates)
                low_line.set_visible(False)
                high_line.set_visible(False)
                text.append(f"{name} undefined here")
                continue
            low_line.set_visible(True)
            high_line.set_visible(True)
            low_line.set_xdata([low, low])
            high_line.set_xdata([high, high])
            text.append(f"{name} [{low:.2f}, {high:.2f}]")
        self.ax.set_title(f"{int(n_resamples)} resamples: SE {np.std(reps, ddof=1):.3f}; "
                          + ", ".join(text), fontsize=9)
