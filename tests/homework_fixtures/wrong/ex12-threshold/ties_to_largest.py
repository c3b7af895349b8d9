# wrong: >= keeps the largest of tied thresholds, the smallest must win
x, y = np.asarray(x, float), np.asarray(y)
values = np.unique(x)


def ent(labels):
    _, counts = np.unique(labels, return_counts=True)
    p = counts / counts.sum()
    return -np.sum(p * np.log2(p))


best = (None, -np.inf)
for t in (values[:-1] + values[1:]) / 2:
    left = x <= t
    gain = ent(y) - left.mean() * ent(y[left]) - (~left).mean() * ent(y[~left])
    if gain >= best[1] - 1e-12:
        best = (float(t), float(gain))
return best
