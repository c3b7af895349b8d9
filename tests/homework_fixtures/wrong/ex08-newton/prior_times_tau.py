# wrong: the prior's gradient w * tau^2 instead of w / tau^2
w = np.zeros(X.shape[1])
for _ in range(n_steps):
    p = 1 / (1 + np.exp(-(X @ w)))
    gradient = X.T @ (p - y) + w * tau**2
    hessian = (X.T * (p * (1 - p))) @ X + np.eye(X.shape[1]) * tau**2
    w = w - np.linalg.solve(hessian, gradient)
return w
