# wrong: no absolute value, so only training errors above the truth count
deviations = np.asarray(train_errors) - np.asarray(true_errors)[None, :]
return float(np.mean(deviations.max(axis=1) > gamma))
