# wrong: candidates are the sorted values themselves, not the midpoints
x, y = np.asarray(x, float), np.asarray(y)


def ent(labels):
    _, counts = np.unique(labels, return_counts=True)
    p = counts / counts.sum()
    return -np.sum(p * np.log2(p))


best = (None, -np.inf)
for t in np.unique(x)[:-1]:
    left = x <= t
    gain = ent(y) - left.mean() * ent(y[left]) - (~left).mean() * ent(y[~left])
    if gain > best[1] + 1e-12:
        best = (float(t), float(gain))
return best
