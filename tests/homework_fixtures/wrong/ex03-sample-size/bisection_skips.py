# wrong: bisection that moves high to middle - 1 and can step past the answer
high = 1
while vc_bound_gap(d, high, delta) > gamma:
    high *= 2
low = high // 2
while low < high:
    middle = (low + high) // 2
    if vc_bound_gap(d, middle, delta) > gamma:
        low = middle + 1
    else:
        high = middle - 1
return int(max(low, 1))
