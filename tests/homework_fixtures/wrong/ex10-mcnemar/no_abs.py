# wrong: (b - c - 1)^2 without the absolute value, wrong when b < c
chi2 = (b - c - 1) ** 2 / (b + c)
return float(chi2), float(stats.chi2.sf(chi2, 1))
