# wrong: forms S_w = Z^T Z and solves with it, the route the exercise rules out
first, second = np.unique(y)[:2]
mu0, mu1 = X[y == first].mean(axis=0), X[y == second].mean(axis=0)
Z = X - np.where((y == first)[:, None], mu0, mu1)
w = np.linalg.solve(Z.T @ Z, mu0 - mu1)
return w / np.linalg.norm(w)
