# wrong: lets a test part of exactly n_features samples through (singular covariance)
if len(test) < X.shape[1]:
    raise ValueError(f"the test part has {len(test)} samples for {X.shape[1]} features")
mean_s, cov_s = X[train].mean(axis=0), np.cov(X[train], rowvar=False)
mean_f, cov_f = X[test].mean(axis=0), np.cov(X[test], rowvar=False)
diff = mean_s - mean_f
inv_s, inv_f = np.linalg.pinv(cov_s), np.linalg.pinv(cov_f)
traces = np.trace(inv_f @ cov_s) + np.trace(inv_s @ cov_f)
quad = diff @ (inv_s @ diff + inv_f @ diff)
return 0.5 * (traces + quad) - X.shape[1]
