"""The regularized KL criterion of chapter 5 (private; the public face is mlcore.divergence).

:func:`regularized_kl_criterion` adds the penalty lam * exp(-K) of the source
paper to a D_AKL curve and :func:`select_n_folds` returns its minimizer K*.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_array, check_int_array, check_real

__all__ = ["regularized_kl_criterion", "select_n_folds"]


def regularized_kl_criterion(curve, Ks, lam, penalty=None):
    """D_ReKL(K) = D_AKL(K) + lam * f(K), with f(K) = exp(-K) unless ``penalty`` is given.

    Parameters
    ----------
    curve : array-like of shape (len(Ks),)
        D_AKL values, e.g. from :func:`kfold_kl_curve`.
    Ks : array-like of int
    lam : float or array-like of float
        Weight(s) of the penalty, >= 0. An array gives one row per value.
    penalty : callable or None
        f, applied to the array of Ks; must decrease in K for the criterion
        to make sense.

    Returns
    -------
    ndarray of shape (len(Ks),), or (len(lam), len(Ks))

    Examples
    --------
    >>> regularized_kl_criterion([1.0, 2.0], [2, 3], lam=np.exp(2)).round(3)
    array([2.   , 2.368])
    """
    curve = check_array(curve, "curve", allow_nan=True)
    Ks = check_int_array(Ks, "Ks", low=1, why="each K is a number of folds")
    Ks = np.asarray(Ks)
    if curve.ndim != 1 or curve.shape != Ks.shape:
        raise ValueError(f"curve and Ks must be 1-D of the same length, got shapes "
                         f"{curve.shape} and {Ks.shape}.")
    if not np.all(np.isfinite(curve)):
        raise ValueError("curve contains NaN or infinity; every D_AKL value must be finite.")
    if isinstance(lam, (bool, np.bool_, str, bytes)) or (
            np.ndim(lam) and np.asarray(lam).dtype.kind not in "iuf"):
        raise TypeError(f"lam must be a real number or an array of them, got lam={lam!r}.")
    for value in np.atleast_1d(np.asarray(lam, dtype=object)).ravel().tolist():
        check_real(value, "lam", low=0.0, why="it is the weight of the penalty on few folds")
    lams = np.asarray(lam, dtype=float)
    if penalty is not None and not callable(penalty):
        raise TypeError(f"penalty must be None or a function of the Ks, got penalty={penalty!r}.")
    f = np.exp(-Ks.astype(float)) if penalty is None else np.asarray(penalty(Ks), dtype=float)
    if f.shape != Ks.shape or not np.all(np.isfinite(f)):
        raise ValueError("penalty(Ks) must return one finite value per K.")
    return curve + lams[..., None] * f


def select_n_folds(curve, Ks, lam, penalty=None):
    """K* = argmin over Ks of :func:`regularized_kl_criterion` (the smallest K on ties).

    Returns an int, or an array of ints for an array of ``lam``.

    Examples
    --------
    >>> Ks = np.arange(2, 21)
    >>> curve = 0.05 * Ks                        # D_AKL growing linearly in K
    >>> select_n_folds(curve, Ks, lam=0.0), select_n_folds(curve, Ks, lam=1e3)
    (2, 10)
    """
    criterion = regularized_kl_criterion(curve, Ks, lam, penalty)
    best = np.asarray(Ks)[np.argmin(criterion, axis=-1)]
    return int(best) if best.ndim == 0 else best
