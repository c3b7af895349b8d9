# wrong: the p-value from the CDF, P(chi2 <= x), instead of the upper tail
chi2 = (abs(b - c) - 1) ** 2 / (b + c)
return float(chi2), float(stats.chi2.cdf(chi2, 1))
