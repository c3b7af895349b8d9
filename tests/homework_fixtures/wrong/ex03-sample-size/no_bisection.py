# wrong: stops after the doubling, returns a power of two, not the smallest m
high = 1
while vc_bound_gap(d, high, delta) > gamma:
    high *= 2
return int(high)
