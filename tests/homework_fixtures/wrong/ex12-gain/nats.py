# wrong: natural logarithm (nats), the exercise asks for bits
table = pd.crosstab(np.asarray(x), np.asarray(y)).to_numpy().astype(float)


def ent(counts):
    p = counts[counts > 0] / counts.sum()
    return -np.sum(p * np.log(p))


sizes = table.sum(axis=1)
children = np.array([ent(row) for row in table])
return float(ent(table.sum(axis=0)) - np.sum(sizes / sizes.sum() * children))
