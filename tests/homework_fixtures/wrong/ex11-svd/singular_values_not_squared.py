# wrong: V Sigma^-1 V^T (singular values not squared) is not S_w^-1
first, second = np.unique(y)[:2]
mu0, mu1 = X[y == first].mean(axis=0), X[y == second].mean(axis=0)
Z = X - np.where((y == first)[:, None], mu0, mu1)
_, s, Vt = np.linalg.svd(Z, full_matrices=False)
w = Vt.T @ ((Vt @ (mu0 - mu1)) / s)
return w / np.linalg.norm(w)
