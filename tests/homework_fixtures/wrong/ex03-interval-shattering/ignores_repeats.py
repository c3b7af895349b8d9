# wrong: only counts points; a repeated point cannot be labelled both ways
return len(x) <= 2
