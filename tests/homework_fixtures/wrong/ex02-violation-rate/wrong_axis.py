# wrong: max over trials (axis 0), a rate over hypotheses instead of over trials
deviations = np.abs(np.asarray(train_errors) - np.asarray(true_errors)[None, :])
return float(np.mean(deviations.max(axis=0) > gamma))
