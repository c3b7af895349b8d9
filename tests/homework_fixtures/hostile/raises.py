# A student's error.
raise RuntimeError('a student error')
