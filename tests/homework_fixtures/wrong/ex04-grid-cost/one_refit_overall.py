# wrong: nested CV counted with a single refit, but each outer fold refits once
fits = int(np.prod(n_values)) * n_splits * (n_outer or 1)
return fits + 1
