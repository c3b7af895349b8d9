# wrong: int() rounds down, so m can be one short of the bound
return int(math.log(2 * k / delta) / (2 * gamma**2))
