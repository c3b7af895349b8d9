# wrong: the marginals are counts while the joint is a probability
counts = pd.crosstab(np.asarray(x), np.asarray(y)).to_numpy(dtype=float)
joint = counts / counts.sum()
outer = counts.sum(axis=1, keepdims=True) * counts.sum(axis=0, keepdims=True)
outer = outer / counts.sum()
nonzero = joint > 0
return float(np.sum(joint[nonzero] * np.log(joint[nonzero] / outer[nonzero])))
