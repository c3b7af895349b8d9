# wrong: pools all out-of-bag predictions instead of averaging the rows' errors
m = len(y)
wrong = total = 0
for rows in indices:
    out = np.setdiff1d(np.arange(m), rows)
    if out.size == 0:
        continue
    model = clone(estimator).fit(X[rows], y[rows])
    wrong += np.sum(model.predict(X[out]) != y[out])
    total += out.size
return float(wrong / total)
