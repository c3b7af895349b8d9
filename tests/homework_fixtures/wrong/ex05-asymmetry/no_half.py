# wrong: forgets the factor 1/2
return np.log(var2 / var1) + (var1 + (mu1 - mu2) ** 2) / var2 - 1.0
