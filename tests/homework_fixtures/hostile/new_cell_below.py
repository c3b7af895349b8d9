# Not an attack: the answer written in a new cell below the untouched stub (finding 1), as a
# Jupyter user does. The tests run after it, so it counts.
def sigmoid(z):
    z = np.asarray(z, dtype=float)
    return 1.0 / (1.0 + np.exp(-z))
