# wrong: scores each candidate alone, without the selected features
best = (None, -np.inf)
for feature in range(X.shape[1]):
    if feature in selected:
        continue
    score = cross_val_score(estimator, X[:, [feature]], y, cv=cv).mean()
    if score > best[1]:
        best = (feature, float(score))
return best
