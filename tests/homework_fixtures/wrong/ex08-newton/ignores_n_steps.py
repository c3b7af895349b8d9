# wrong: iterates to convergence and ignores n_steps
w = np.zeros(X.shape[1])
for _ in range(100):
    p = 1 / (1 + np.exp(-(X @ w)))
    gradient = X.T @ (p - y) + w / tau**2
    hessian = (X.T * (p * (1 - p))) @ X + np.eye(X.shape[1]) / tau**2
    step = np.linalg.solve(hessian, gradient)
    w = w - step
    if np.abs(step).max() < 1e-12:
        break
return w
