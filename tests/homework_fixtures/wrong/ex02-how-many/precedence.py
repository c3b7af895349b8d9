# wrong: operator precedence, divides by 2 and then multiplies by gamma^2
return math.ceil(math.log(2 * k / delta) / 2 * gamma**2)
