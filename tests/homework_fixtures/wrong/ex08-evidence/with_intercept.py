# wrong: adds an intercept column, the model has none
X = np.column_stack([np.ones(len(X)), X])
m, n = X.shape
precision = alpha * np.eye(n) + beta * X.T @ X
mean = beta * np.linalg.solve(precision, X.T @ y)
_, log_det = np.linalg.slogdet(precision)
residual = y - X @ mean
return float(
    0.5 * (n * np.log(alpha) + m * np.log(beta) - beta * residual @ residual
           - alpha * mean @ mean - log_det - m * np.log(2 * np.pi))
)
