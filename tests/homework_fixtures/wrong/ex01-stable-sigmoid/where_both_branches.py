# wrong: np.where evaluates both branches, so exp(-z) still overflows for z << 0
return np.where(z < 0, np.exp(z) / (1 + np.exp(z)), 1 / (1 + np.exp(-z)))
