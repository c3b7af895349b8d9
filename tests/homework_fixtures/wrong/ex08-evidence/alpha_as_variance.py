# wrong: treats alpha as the prior variance (alpha I^-1 swapped for alpha I)
m, n = X.shape
precision = np.eye(n) / alpha + beta * X.T @ X
mean = beta * np.linalg.solve(precision, X.T @ y)
_, log_det = np.linalg.slogdet(precision)
residual = y - X @ mean
return float(
    0.5 * (-n * np.log(alpha) + m * np.log(beta) - beta * residual @ residual
           - mean @ mean / alpha - log_det - m * np.log(2 * np.pi))
)
