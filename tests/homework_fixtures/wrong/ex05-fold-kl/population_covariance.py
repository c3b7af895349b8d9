# wrong: divisor n (population covariance) instead of the sample covariance's n - 1
if len(test) <= X.shape[1]:
    raise ValueError("the test part has too few samples for its covariance")
mean_s, cov_s = X[train].mean(axis=0), np.cov(X[train], rowvar=False, bias=True)
mean_f, cov_f = X[test].mean(axis=0), np.cov(X[test], rowvar=False, bias=True)
diff = mean_s - mean_f
traces = np.trace(np.linalg.solve(cov_f, cov_s))
traces += np.trace(np.linalg.solve(cov_s, cov_f))
quad = diff @ (np.linalg.solve(cov_s, diff) + np.linalg.solve(cov_f, diff))
return 0.5 * (traces + quad) - X.shape[1]
