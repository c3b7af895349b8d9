# wrong: log(k / delta) instead of log(2k / delta): drops the two-sided factor 2
return math.ceil(math.log(k / delta) / (2 * gamma**2))
