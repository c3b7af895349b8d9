# An object that pickles in the kernel but raises when unpickled (finding 15): it must cost
# nothing but its own name.
class Broken:
    def __reduce__(self):
        return (int, ("not a number",))


broken = Broken()
sigmoid.broken = broken
