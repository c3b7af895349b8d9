# wrong: the Hessian lacks the weights p(1 - p): X^T X / m is not the curvature
for _ in range(n_iter):
    p = sigmoid(X1 @ theta)
    gradient = X1.T @ (p - y) / len(y)
    hessian = X1.T @ X1 / len(y)
    theta = theta - np.linalg.solve(hessian, gradient)
