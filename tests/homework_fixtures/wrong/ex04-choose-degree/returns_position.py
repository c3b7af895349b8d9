# wrong: returns the position of the best degree in `degrees`, not the degree
folds = list(KFold(n_splits, shuffle=True, random_state=random_state).split(x))
scores = []
for d in degrees:
    F = legendre_design(x, d)
    errors = []
    for tr, te in folds:
        coef = np.linalg.lstsq(F[tr], y[tr], rcond=None)[0]
        errors.append(np.mean((y[te] - F[te] @ coef) ** 2))
    scores.append(np.mean(errors))
return int(np.argmin(scores))
