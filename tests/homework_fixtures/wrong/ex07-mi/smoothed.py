# wrong: adds one to every count (Laplace smoothing) to avoid log 0
joint = pd.crosstab(np.asarray(x), np.asarray(y)).to_numpy(dtype=float) + 1
joint = joint / joint.sum()
outer = joint.sum(axis=1, keepdims=True) * joint.sum(axis=0, keepdims=True)
return float(np.sum(joint * np.log(joint / outer)))
