# wrong: looks for a 0 between two 1s in list order, not in value order
x = np.asarray(x, dtype=float)
for labels in labelings(len(x)):
    where = np.flatnonzero(labels == 1)
    if where.size and np.any(labels[where.min():where.max() + 1] == 0):
        return False
return True
