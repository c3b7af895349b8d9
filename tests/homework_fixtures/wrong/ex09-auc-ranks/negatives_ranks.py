# wrong: sums the negatives' ranks, which gives 1 - AUC
y_true = np.asarray(y_true) == 1
ranks = rankdata(y_score)
m_pos, m_neg = y_true.sum(), (~y_true).sum()
return float((ranks[~y_true].sum() - m_neg * (m_neg + 1) / 2) / (m_pos * m_neg))
