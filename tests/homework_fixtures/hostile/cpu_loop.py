# Burn CPU until the time limit.
while True:
    pass
