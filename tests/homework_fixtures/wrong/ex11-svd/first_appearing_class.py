# wrong: mu_0 is the class of y[0], not np.unique(y)[0]
first = y[0]
second = next(label for label in y if label != first)
mu0, mu1 = X[y == first].mean(axis=0), X[y == second].mean(axis=0)
Z = X - np.where((y == first)[:, None], mu0, mu1)
_, s, Vt = np.linalg.svd(Z, full_matrices=False)
w = Vt.T @ ((Vt @ (mu0 - mu1)) / s**2)
return w / np.linalg.norm(w)
