# wrong: log base 2 (bits), the exercise asks for nats
joint = pd.crosstab(np.asarray(x), np.asarray(y)).to_numpy(dtype=float)
joint = joint / joint.sum()
outer = joint.sum(axis=1, keepdims=True) * joint.sum(axis=0, keepdims=True)
nonzero = joint > 0
return float(np.sum(joint[nonzero] * np.log2(joint[nonzero] / outer[nonzero])))
