# wrong: i * K // n spreads the larger folds out instead of putting them first
return np.arange(n_samples) * n_splits // n_samples
