# wrong: a loop over z.ravel() returns a flat array, not the input's shape
return np.array(
    [1 / (1 + np.exp(-v)) if v >= 0 else np.exp(v) / (1 + np.exp(v)) for v in z.ravel()]
)
