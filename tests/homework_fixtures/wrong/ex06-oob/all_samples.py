# wrong: measures each model's error on all samples, training samples included
errors = []
for rows in indices:
    model = clone(estimator).fit(X[rows], y[rows])
    errors.append(np.mean(model.predict(X) != y))
return float(np.mean(errors))
