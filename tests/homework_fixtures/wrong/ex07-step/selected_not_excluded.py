# wrong: does not skip the features already selected
best = (None, -np.inf)
for feature in range(X.shape[1]):
    columns = list(selected) + [feature]
    score = cross_val_score(estimator, X[:, columns], y, cv=cv).mean()
    if score > best[1]:
        best = (feature, float(score))
return best
