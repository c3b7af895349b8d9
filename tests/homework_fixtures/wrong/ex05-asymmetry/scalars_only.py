# wrong: math.log works on scalars only, not on arrays of the same shape
import math

return 0.5 * (
    math.log(float(var2) / float(var1))
    + (float(var1) + (float(mu1) - float(mu2)) ** 2) / float(var2)
    - 1.0
)
