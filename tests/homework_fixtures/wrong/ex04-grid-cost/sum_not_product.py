# wrong: adds the numbers of values; a grid tries every combination (product)
one_search = int(sum(n_values)) * n_splits + 1
return one_search if n_outer is None else n_outer * one_search
