# The audit's second forgery (finding 3): rebind the *name* np to a namespace whose
# comparisons always succeed, then answer with zeros. The checks must use the real numpy.
import types

import numpy

np = types.SimpleNamespace(**{k: getattr(numpy, k) for k in dir(numpy) if not k.startswith("__")})
np.allclose = np.isclose = np.array_equal = lambda *args, **kwargs: True
expit = lambda z: numpy.zeros(numpy.shape(z))


def sigmoid(z):
    return numpy.zeros(numpy.shape(z))
