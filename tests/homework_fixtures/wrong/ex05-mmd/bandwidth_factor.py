# wrong: exp(-|x - y|^2 / sigma^2), the kernel misses the factor 2
def kernel(A, B):
    squared = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)
    return np.exp(-squared / bandwidth**2)


A, B = X[train], X[test]
n, p = len(A), len(B)
kaa, kbb = kernel(A, A), kernel(B, B)
return (
    (kaa.sum() - np.trace(kaa)) / (n * (n - 1))
    + (kbb.sum() - np.trace(kbb)) / (p * (p - 1))
    - 2 * kernel(A, B).mean()
)
