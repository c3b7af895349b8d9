"""What the environment asks of mlcore (part of :mod:`mlcore._validation`)."""

from __future__ import annotations

import os


def quiet() -> bool:
    """True when progress bars should stay off (the site build and the tests set MLCORE_QUIET=1).

    Examples
    --------
    >>> isinstance(quiet(), bool)
    True
    """
    return os.environ.get("MLCORE_QUIET", "") not in ("", "0")
