"""The estimator of :mod:`mlcore.linear`: :class:`LogisticRegressionGD`, logistic
regression fitted by full-batch gradient descent with the scikit-learn API.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from .._validation import check_int, check_real, check_real_or_option, naming, refuse_text
from ._functions import _descend, _design, _smoothness, sigmoid
from ._functions import sample_logistic_data  # noqa: F401  (used by the doctest)


# -- the estimator -------------------------------------------------------------
def _n_rows(a):
    """Number of samples of an array, list or DataFrame; None when it cannot tell cheaply."""
    shape = getattr(a, "shape", None)
    if shape is not None:
        return shape[0] if len(shape) else None
    return len(a) if hasattr(a, "__len__") else None


def _named(name, call):
    """``call()``, with scikit-learn's validation errors reworded to name ``name`` first."""
    with naming(name):
        return call()


def _reject_text(X, name="X"):
    """Numeric strings are data entry mistakes here, not numbers: refuse them."""
    kind = getattr(X, "dtype", None)
    kind = kind.kind if isinstance(kind, np.dtype) else (
        np.asarray(X).dtype.kind if isinstance(X, (list, tuple)) else None)
    if kind in ("U", "S"):
        raise TypeError(f"{name} must hold real numbers, got an array of strings; convert "
                        f"{name} to numbers first.")


def _validate_binary(estimator, X, y):
    """Validate (X, y) for a two-class model; set ``classes_`` and return (X, y as 0/1 floats)."""
    refuse_text(X, "X", "a 2-D numeric array of shape (n_samples, n_features)")
    n_X, n_y = _n_rows(X), _n_rows(y)
    if n_X is not None and n_y is not None and n_X != n_y:
        raise ValueError(f"X and y must have the same number of samples, got {n_X} rows "
                         f"in X and {n_y} labels in y.")
    plain = (type(X) is np.ndarray and X.dtype == np.float64 and X.ndim == 2
             and X.shape[0] > 0 and X.shape[1] > 0 and type(y) is np.ndarray
             and y.ndim == 1 and y.dtype.kind in "iu" and len(y) == len(X)
             and not hasattr(estimator, "feature_names_in_") and np.isfinite(X).all())
    if plain:
        # Inputs validate_data passes unchanged (a finite float64 matrix, integer labels):
        # skip its checks, which cost more than a small model's Newton fit (chapter 8
        # fits thousands). It would set only n_features_in_.
        estimator.n_features_in_ = X.shape[1]
    else:
        _reject_text(X)
        _named("X", lambda: check_array(X, dtype=np.float64, input_name="X"))
        X, y = _named("y", lambda: validate_data(estimator, X, y, dtype=np.float64))
    if np.abs(X).max(initial=0.0) > 1e150:
        raise ValueError(f"X must lie within [-1e150, 1e150] (the log-odds would overflow), "
                         f"got largest |x| {np.abs(X).max():g}; standardize X.")
    if not plain:   # integer labels are always classification targets
        _named("y", lambda: check_classification_targets(y))
    estimator.classes_ = np.unique(y)
    if estimator.classes_.size < 2:
        raise ValueError(f"y has only one class (label {estimator.classes_[0].tolist()!r}); the model "
                         "needs samples of both classes.")
    # type_of_target of integer labels: binary for two values, multiclass for more.
    y_type = ("binary" if estimator.classes_.size == 2 else "multiclass") if plain \
        else type_of_target(y, input_name="y")
    if y_type != "binary":
        raise ValueError(f"Only binary classification is supported. The type of the target "
                         f"is {y_type} with {estimator.classes_.size} classes; y must hold exactly "
                         "two labels (for more, see sklearn's LogisticRegression).")
    return X, (y == estimator.classes_[1]).astype(float)


class LogisticRegressionGD(ClassifierMixin, BaseEstimator):
    """Binary logistic regression fitted by full-batch gradient descent.

    Minimizes the mean cross-entropy :math:`J(\\theta)` with no penalty, the
    same problem as ``sklearn.linear_model.LogisticRegression(C=np.inf)``.

    Parameters
    ----------
    learning_rate : float or "auto", default="auto"
        Step size :math:`\\eta > 0`. ``"auto"`` takes :math:`\\eta = 1/L` with
        :math:`L = \\lambda_{\\max}(\\tilde X^\\top\\tilde X)/(4m)`, a bound on the
        curvature of :math:`J`; with it every step lowers the loss.
    max_iter : int, default=1000
        Maximum number of gradient steps, >= 1.
    tol : float, default=1e-7
        Stop once the gradient's Euclidean norm is at most ``tol`` (>= 0); the
        parameters are then within about ``tol / mu`` of the optimum, ``mu``
        the smallest eigenvalue of the Hessian there.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[1]`` is the positive class.
    coef_ : ndarray of shape (1, n_features)
    intercept_ : ndarray of shape (1,)
    n_iter_ : int
        Gradient steps taken.
    loss_curve_ : ndarray of shape ``(n_iter_ + 1,)``
        :math:`J` at the start and after every step.
    learning_rate_ : float
        The step size used (resolves ``"auto"``).
    n_features_in_ : int

    Examples
    --------
    >>> X, y = sample_logistic_data([-0.5, 2.0, -1.0], n_samples=300, random_state=0)
    >>> model = LogisticRegressionGD().fit(X, y)
    >>> model.coef_.round(2), model.intercept_.round(2)
    (array([[ 2.36, -1.15]]), array([-0.72]))
    >>> model.predict_proba(X[:2]).round(3)
    array([[0.568, 0.432],
           [0.339, 0.661]])
    >>> model.n_iter_ < 1000  # converged: the gradient norm fell below tol
    True
    >>> LogisticRegressionGD(learning_rate=-1).fit(X, y)
    Traceback (most recent call last):
    ...
    ValueError: learning_rate must be 'auto' or a real number > 0, got learning_rate=-1.0; it is the step size of gradient descent.
    """

    def __init__(self, learning_rate="auto", max_iter=1000, tol=1e-7):
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _check_params(self):
        check_real_or_option(self.learning_rate, "learning_rate", ["auto"], low=0, low_open=True,
                             why="it is the step size of gradient descent")
        check_int(self.max_iter, "max_iter", low=1, why="it is the largest number of gradient steps")
        check_real(self.tol, "tol", low=0, why="fitting stops once the gradient norm is at most tol")

    def fit(self, X, y):
        """Fit the model to ``X`` (m by n) and the two-label target ``y``; returns ``self``."""
        self._check_params()
        X, y01 = _validate_binary(self, X, y)
        X1 = _design(X)
        step = (1.0 / _smoothness(X1) if isinstance(self.learning_rate, str)
                else float(self.learning_rate))
        theta, _, losses, converged, grad_norm = _descend(
            X1, y01, np.zeros(X1.shape[1]), step, int(self.max_iter), float(self.tol), False)
        if not converged:
            warnings.warn(
                f"LogisticRegressionGD did not converge in max_iter={self.max_iter} steps: the "
                f"gradient norm is {grad_norm:.2e} > tol={self.tol:g}. Increase max_iter, change "
                f"learning_rate (used {step:.3g}) or standardize the features; on linearly "
                "separable data the unpenalized optimum lies at infinity.",
                ConvergenceWarning, stacklevel=2)
        self.intercept_ = theta[:1].copy()
        self.coef_ = theta[None, 1:].copy()
        self.n_iter_ = len(losses) - 1
        self.loss_curve_ = losses
        self.learning_rate_ = step
        return self

    def decision_function(self, X):
        """Log-odds :math:`\\theta^\\top\\tilde x` of the positive class ``classes_[1]``, shape (m,)."""
        check_is_fitted(self)
        _reject_text(X)
        X = _named("X", lambda: validate_data(self, X, reset=False, dtype=np.float64))
        return X @ self.coef_[0] + self.intercept_[0]

    def predict_proba(self, X):
        """Probabilities of ``classes_[0]`` and ``classes_[1]``, shape (m, 2)."""
        p = sigmoid(self.decision_function(X))
        return np.column_stack([1 - p, p])

    def predict(self, X):
        """The more probable label: ``classes_[1]`` where the log-odds are positive."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]
