# wrong: the two branches swapped, which gives sigma(-z)
e = np.exp(-np.abs(z))
return np.where(z >= 0, e / (1 + e), 1 / (1 + e))
