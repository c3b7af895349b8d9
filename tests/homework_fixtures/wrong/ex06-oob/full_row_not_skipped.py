# wrong: does not skip a row holding every sample (its empty error is NaN)
m = len(y)
errors = []
for rows in indices:
    out = np.setdiff1d(np.arange(m), rows)
    model = clone(estimator).fit(X[rows], y[rows])
    errors.append(np.mean(model.predict(X[out]) != y[out]) if out.size else np.nan)
return float(np.mean(errors))
