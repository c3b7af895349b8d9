# wrong: takes the largest cost over the ROC points, not the least
fpr, fnr, pc = np.asarray(fpr, float), 1 - np.asarray(tpr, float), np.asarray(pc, float)
return (pc[:, None] * fnr[None, :] + (1 - pc[:, None]) * fpr[None, :]).max(axis=1)
