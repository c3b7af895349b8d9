# wrong: ignores alpha and always uses the 0.05 quantile
q = stats.studentized_range.ppf(0.95, k, np.inf) / np.sqrt(2)
return float(q * np.sqrt(k * (k + 1) / (6 * n_datasets)))
