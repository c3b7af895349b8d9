# wrong: tied scores all get the largest rank (method="max"), not the average
y_true = np.asarray(y_true) == 1
ranks = rankdata(y_score, method="max")
m_pos, m_neg = y_true.sum(), (~y_true).sum()
return float((ranks[y_true].sum() - m_pos * (m_pos + 1) / 2) / (m_pos * m_neg))
