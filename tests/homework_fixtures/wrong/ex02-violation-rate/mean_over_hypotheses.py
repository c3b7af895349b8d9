# wrong: averages the deviations over hypotheses instead of taking the largest
deviations = np.abs(np.asarray(train_errors) - np.asarray(true_errors)[None, :])
return float(np.mean(deviations.mean(axis=1) > gamma))
