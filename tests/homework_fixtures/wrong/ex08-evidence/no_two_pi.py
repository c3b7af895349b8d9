# wrong: forgets the -m/2 log(2 pi) normalizing term
m, n = X.shape
precision = alpha * np.eye(n) + beta * X.T @ X
mean = beta * np.linalg.solve(precision, X.T @ y)
_, log_det = np.linalg.slogdet(precision)
residual = y - X @ mean
return float(
    0.5 * (n * np.log(alpha) + m * np.log(beta) - beta * residual @ residual
           - alpha * mean @ mean - log_det)
)
