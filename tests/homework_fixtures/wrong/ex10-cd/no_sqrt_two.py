# wrong: forgets to divide the studentized range quantile by sqrt(2)
q = stats.studentized_range.ppf(1 - alpha, k, np.inf)
return float(q * np.sqrt(k * (k + 1) / (6 * n_datasets)))
