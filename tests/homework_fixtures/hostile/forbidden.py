# A correct answer that calls what the exercise forbids (``forbid`` in the fixture's metadata).
from scipy.special import expit


def sigmoid(z):
    return expit(np.asarray(z, dtype=float))
