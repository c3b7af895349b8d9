# wrong: the textbook formula; exp(-z) overflows for z <= -710 (RuntimeWarning)
return 1 / (1 + np.exp(-z))
