# wrong: believes intervals shatter only single points (off by one in the VC dim)
return len(x) <= 1
