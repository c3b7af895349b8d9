# wrong: base-10 logarithm instead of the natural one
return math.ceil(math.log10(2 * k / delta) / (2 * gamma**2))
