# wrong: S_w^-1 (mu_1 - mu_0), the direction reversed (mu_0 is np.unique(y)[0]'s mean)
first, second = np.unique(y)[:2]
mu0, mu1 = X[y == first].mean(axis=0), X[y == second].mean(axis=0)
Z = X - np.where((y == first)[:, None], mu0, mu1)
_, s, Vt = np.linalg.svd(Z, full_matrices=False)
w = Vt.T @ ((Vt @ (mu1 - mu0)) / s**2)
return w / np.linalg.norm(w)
