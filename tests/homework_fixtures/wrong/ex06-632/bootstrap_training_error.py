# wrong: the training error of the bootstrap models instead of the fit on all data
m = len(y)
wrong, times, train_errors = np.zeros(m), np.zeros(m), []
for rows in indices:
    model = clone(estimator).fit(X[rows], y[rows])
    train_errors.append(np.mean(model.predict(X[rows]) != y[rows]))
    out = np.setdiff1d(np.arange(m), rows)
    if out.size:
        wrong[out] += model.predict(X[out]) != y[out]
        times[out] += 1
seen = times > 0
err1 = np.mean(wrong[seen] / times[seen])
return float(0.368 * np.mean(train_errors) + 0.632 * err1)
