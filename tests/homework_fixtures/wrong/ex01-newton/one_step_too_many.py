# wrong: off by one, takes n_iter + 1 Newton steps
for _ in range(n_iter + 1):
    p = sigmoid(X1 @ theta)
    gradient = X1.T @ (p - y) / len(y)
    hessian = (X1.T * (p * (1 - p))) @ X1 / len(y)
    theta = theta - np.linalg.solve(hessian, gradient)
