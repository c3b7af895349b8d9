# wrong: keeps the i = j terms (the biased estimate)
def kernel(A, B):
    squared = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)
    return np.exp(-squared / (2 * bandwidth**2))


A, B = X[train], X[test]
return kernel(A, A).mean() + kernel(B, B).mean() - 2 * kernel(A, B).mean()
