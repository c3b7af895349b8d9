# wrong: no continuity correction, (b - c)^2 / (b + c)
chi2 = (b - c) ** 2 / (b + c)
return float(chi2), float(stats.chi2.sf(chi2, 1))
