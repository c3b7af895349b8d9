# wrong: averages the out-of-bag errors per bootstrap sample, not per sample
m = len(y)
errors = []
for rows in indices:
    out = np.setdiff1d(np.arange(m), rows)
    if out.size:
        model = clone(estimator).fit(X[rows], y[rows])
        errors.append(np.mean(model.predict(X[out]) != y[out]))
resubstitution = np.mean(clone(estimator).fit(X, y).predict(X) != y)
return float(0.368 * resubstitution + 0.632 * np.mean(errors))
