# wrong: computes KL(N2 || N1), the other direction
return 0.5 * (np.log(var1 / var2) + (var2 + (mu1 - mu2) ** 2) / var1 - 1.0)
