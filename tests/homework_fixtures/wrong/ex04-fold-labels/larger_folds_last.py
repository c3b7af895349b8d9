# wrong: gives the extra samples to the last folds, KFold gives them to the first
sizes = np.full(n_splits, n_samples // n_splits)
sizes[n_splits - n_samples % n_splits:] += 1
return np.repeat(np.arange(n_splits), sizes)
