# wrong: a sample that every row contains counts as error 0 instead of being left out
m = len(y)
wrong, times = np.zeros(m), np.zeros(m)
for rows in indices:
    out = np.setdiff1d(np.arange(m), rows)
    if out.size:
        predicted = clone(estimator).fit(X[rows], y[rows]).predict(X[out])
        wrong[out] += predicted != y[out]
        times[out] += 1
err1 = np.mean(wrong / np.maximum(times, 1))
resubstitution = np.mean(clone(estimator).fit(X, y).predict(X) != y)
return float(0.368 * resubstitution + 0.632 * err1)
