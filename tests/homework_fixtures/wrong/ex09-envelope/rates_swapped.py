# wrong: weights the false positive rate by pc and the miss rate by 1 - pc
fpr, fnr, pc = np.asarray(fpr, float), 1 - np.asarray(tpr, float), np.asarray(pc, float)
return (pc[:, None] * fpr[None, :] + (1 - pc[:, None]) * fnr[None, :]).min(axis=1)
