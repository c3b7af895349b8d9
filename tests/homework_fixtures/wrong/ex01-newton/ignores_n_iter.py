# wrong: always takes 10 steps, whatever n_iter is
for _ in range(10):
    p = sigmoid(X1 @ theta)
    gradient = X1.T @ (p - y) / len(y)
    hessian = (X1.T * (p * (1 - p))) @ X1 / len(y)
    theta = theta - np.linalg.solve(hessian, gradient)
