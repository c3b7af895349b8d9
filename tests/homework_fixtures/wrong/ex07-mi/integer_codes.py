# wrong: uses the values as row and column numbers, so only small integers work
x, y = np.asarray(x), np.asarray(y)
joint = np.zeros((x.max() + 1, y.max() + 1))
np.add.at(joint, (x, y), 1)
joint = joint / joint.sum()
outer = joint.sum(axis=1, keepdims=True) * joint.sum(axis=0, keepdims=True)
nonzero = joint > 0
return float(np.sum(joint[nonzero] * np.log(joint[nonzero] / outer[nonzero])))
