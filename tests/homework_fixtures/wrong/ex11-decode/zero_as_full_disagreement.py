# wrong: a 0 in the code counts as a whole disagreement instead of a half
outputs, code = np.asarray(outputs), np.asarray(code)
distances = (outputs[:, None, :] != code[None, :, :]).sum(axis=2)
return np.argmin(distances, axis=1)
