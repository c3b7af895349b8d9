# wrong: a 0 at the same place as a 1 is not "between" with strict inequalities
x = np.asarray(x, dtype=float)
for labels in labelings(len(x)):
    ones = x[labels == 1]
    if ones.size and np.any((labels == 0) & (x > ones.min()) & (x < ones.max())):
        return False
return True
