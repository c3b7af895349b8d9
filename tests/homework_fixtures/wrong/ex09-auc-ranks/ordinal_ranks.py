# wrong: argsort of argsort breaks ties by position instead of averaging them
y_true = np.asarray(y_true) == 1
ranks = np.argsort(np.argsort(y_score, kind="stable")) + 1
m_pos, m_neg = y_true.sum(), (~y_true).sum()
return float((ranks[y_true].sum() - m_pos * (m_pos + 1) / 2) / (m_pos * m_neg))
