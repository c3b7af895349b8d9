# wrong: never raises ValueError for a test part with too few samples
mean_s, cov_s = X[train].mean(axis=0), np.cov(X[train], rowvar=False)
mean_f, cov_f = X[test].mean(axis=0), np.cov(X[test], rowvar=False)
diff = mean_s - mean_f
traces = np.trace(np.linalg.lstsq(cov_f, cov_s, rcond=None)[0]) + np.trace(
    np.linalg.lstsq(cov_s, cov_f, rcond=None)[0]
)
quad = diff @ (
    np.linalg.lstsq(cov_s, diff, rcond=None)[0]
    + np.linalg.lstsq(cov_f, diff, rcond=None)[0]
)
return 0.5 * (traces + quad) - X.shape[1]
