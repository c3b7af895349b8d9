# wrong: a plain mean of the branches' entropies, not weighted by their sizes
table = pd.crosstab(np.asarray(x), np.asarray(y)).to_numpy().astype(float)


def ent(counts):
    p = counts[counts > 0] / counts.sum()
    return -np.sum(p * np.log2(p))


return float(ent(table.sum(axis=0)) - np.mean([ent(row) for row in table]))
