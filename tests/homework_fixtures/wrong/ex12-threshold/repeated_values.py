# wrong: midpoints of consecutive sorted values with repeats, not distinct values
x, y = np.asarray(x, float), np.asarray(y)
values = np.sort(x)


def ent(labels):
    _, counts = np.unique(labels, return_counts=True)
    p = counts / counts.sum()
    return -np.sum(p * np.log2(p))


best = (None, -np.inf)
for t in (values[:-1] + values[1:]) / 2:
    left = x <= t
    if left.all():
        continue
    gain = ent(y) - left.mean() * ent(y[left]) - (~left).mean() * ent(y[~left])
    if gain > best[1] + 1e-12:
        best = (float(t), float(gain))
return best
