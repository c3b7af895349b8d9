# wrong: counts a refit per fold (K + 1 fits per candidate)
one_search = int(np.prod(n_values)) * (n_splits + 1)
return one_search if n_outer is None else n_outer * one_search
