# wrong: counts a deviation of exactly gamma (>= instead of >)
deviations = np.abs(np.asarray(train_errors) - np.asarray(true_errors)[None, :])
return float(np.mean(deviations.max(axis=1) >= gamma))
