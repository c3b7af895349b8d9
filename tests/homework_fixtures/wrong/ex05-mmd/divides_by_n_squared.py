# wrong: drops the i = j terms but still divides by n^2 instead of n(n - 1)
def kernel(A, B):
    squared = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)
    return np.exp(-squared / (2 * bandwidth**2))


A, B = X[train], X[test]
n, p = len(A), len(B)
kaa, kbb = kernel(A, A), kernel(B, B)
return (
    (kaa.sum() - np.trace(kaa)) / n**2
    + (kbb.sum() - np.trace(kbb)) / p**2
    - 2 * kernel(A, B).mean()
)
