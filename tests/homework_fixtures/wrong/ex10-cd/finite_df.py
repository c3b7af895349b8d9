# wrong: N - 1 degrees of freedom for the studentized range, Nemenyi uses infinity
q = stats.studentized_range.ppf(1 - alpha, k, n_datasets - 1) / np.sqrt(2)
return float(q * np.sqrt(k * (k + 1) / (6 * n_datasets)))
