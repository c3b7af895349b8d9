# wrong: starts from the entropy of the attribute x instead of the labels y
table = pd.crosstab(np.asarray(x), np.asarray(y)).to_numpy().astype(float)


def ent(counts):
    p = counts[counts > 0] / counts.sum()
    return -np.sum(p * np.log2(p))


sizes = table.sum(axis=1)
children = np.array([ent(row) for row in table])
return float(ent(sizes) - np.sum(sizes / sizes.sum() * children))
