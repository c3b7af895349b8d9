# wrong: steps uphill, theta + H^-1 g instead of theta - H^-1 g
for _ in range(n_iter):
    p = sigmoid(X1 @ theta)
    gradient = X1.T @ (p - y) / len(y)
    hessian = (X1.T * (p * (1 - p))) @ X1 / len(y)
    theta = theta + np.linalg.solve(hessian, gradient)
