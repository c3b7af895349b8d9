# wrong: returns the last m that is still too small (off by one in the bisection)
high = 1
while vc_bound_gap(d, high, delta) > gamma:
    high *= 2
low = high // 2
while high - low > 1:
    middle = (low + high) // 2
    if vc_bound_gap(d, middle, delta) > gamma:
        low = middle
    else:
        high = middle
return int(max(low, 1))
