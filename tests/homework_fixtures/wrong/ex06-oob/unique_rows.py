# wrong: fits on np.unique(rows), dropping the bootstrap sample's repeats
m = len(y)
errors = []
for rows in indices:
    out = np.setdiff1d(np.arange(m), rows)
    if out.size == 0:
        continue
    kept = np.unique(rows)
    model = clone(estimator).fit(X[kept], y[kept])
    errors.append(np.mean(model.predict(X[out]) != y[out]))
return float(np.mean(errors))
