# wrong: ignores the values of pc and uses len(pc) evenly spaced costs instead
fpr, fnr = np.asarray(fpr, float), 1 - np.asarray(tpr, float)
grid = np.linspace(0, 1, len(pc))
return (grid[:, None] * fnr[None, :] + (1 - grid[:, None]) * fpr[None, :]).min(axis=1)
