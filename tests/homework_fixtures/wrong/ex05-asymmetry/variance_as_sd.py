# wrong: treats var1, var2 as standard deviations and squares them
return 0.5 * (np.log(var2**2 / var1**2) + (var1**2 + (mu1 - mu2) ** 2) / var2**2 - 1.0)
