"""Parameter checks shared by every mlcore module.

Each check raises an error that names the parameter, the value received and
what is allowed, e.g.
``ValueError: delta must be in (0, 1), got delta=1.5; it is the probability that the bound fails.``
The optional ``why`` sentence tells a student what the parameter means.

One module per kind of check, all imported from here:
``_numbers`` (integers, reals, options, booleans, ``n_jobs``), ``_random``
(``random_state``), ``_arrays`` (arrays, labels, lengths), ``_sklearn``
(splitters, ``cv``, estimator objects), ``_errors`` (library errors reworded
to name the parameter) and ``_environment`` (``MLCORE_QUIET``).
"""

from ._arrays import check_array, check_int_array, check_labels, check_same_length, refuse_text
from ._environment import quiet
from ._errors import naming, user_errors
from ._public import raise_from_public, rebind_wrapped
from ._numbers import (check_bool, check_int, check_n_jobs, check_option, check_probability,
                       check_real, check_real_or_option)
from ._random import as_generator, as_random_state, check_random_state
from ._sklearn import check_cv, check_estimator_object, check_splitter, num_rows

__all__ = [
    "check_int",
    "check_real",
    "check_probability",
    "check_option",
    "check_real_or_option",
    "refuse_text",
    "check_bool",
    "check_n_jobs",
    "check_random_state",
    "as_generator",
    "as_random_state",
    "check_array",
    "check_int_array",
    "check_labels",
    "check_same_length",
    "check_splitter",
    "check_cv",
    "check_estimator_object",
    "num_rows",
    "user_errors",
    "naming",
    "quiet",
    "raise_from_public",
    "rebind_wrapped",
]
