# wrong: returns KL(S || F) only, not the symmetric sum of both directions
if len(test) <= X.shape[1]:
    raise ValueError("the test part has too few samples for its covariance")
mean_s, cov_s = X[train].mean(axis=0), np.cov(X[train], rowvar=False)
mean_f, cov_f = X[test].mean(axis=0), np.cov(X[test], rowvar=False)
diff = mean_s - mean_f
_, logdet_s = np.linalg.slogdet(cov_s)
_, logdet_f = np.linalg.slogdet(cov_f)
return 0.5 * (
    np.trace(np.linalg.solve(cov_f, cov_s))
    + diff @ np.linalg.solve(cov_f, diff)
    - X.shape[1]
    + logdet_f
    - logdet_s
)
