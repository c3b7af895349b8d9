# wrong: the weights swapped, 0.632 on the resubstitution error
m = len(y)
wrong, times = np.zeros(m), np.zeros(m)
for rows in indices:
    out = np.setdiff1d(np.arange(m), rows)
    if out.size:
        predicted = clone(estimator).fit(X[rows], y[rows]).predict(X[out])
        wrong[out] += predicted != y[out]
        times[out] += 1
seen = times > 0
err1 = np.mean(wrong[seen] / times[seen])
resubstitution = np.mean(clone(estimator).fit(X, y).predict(X) != y)
return float(0.632 * resubstitution + 0.368 * err1)
