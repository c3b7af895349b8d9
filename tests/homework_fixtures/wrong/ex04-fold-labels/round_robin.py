# wrong: deals samples round-robin, not in consecutive runs
return np.arange(n_samples) % n_splits
