"""Plain data across the process boundary between the checks and the submission's code.

The checks (``_checker.py``) never unpickle anything the submission made.
They call the submission's functions in another process (``_server.py``)
and get back only *plain data*, decoded here by code that builds nothing but
``None``, ``bool``, ``int``, ``float``, ``complex``, ``str``, ``bytes``,
``Ellipsis``, numpy scalars and arrays of numeric, boolean or string dtype
(rebuilt from their bytes), and lists, tuples and dicts of these. Anything
else stays in the submission's process and is represented in the checks by
a :class:`Remote` handle, which forwards attribute access, calls, indexing,
``len``, iteration and conversion to an array or a number, each answered
again as plain data. A handle compares equal only to itself: the
submission never decides the outcome of a comparison.

Framing: an 8-byte big-endian length, then the payload. Requests (checks
to submission) are pickles (the submission's process may run anything
anyway); replies are JSON.

Examples
--------
>>> import numpy as np
>>> decode(json.loads(json.dumps(encode_plain({"a": np.arange(3), "b": (1.5, None)}, {}))))
{'a': array([0, 1, 2]), 'b': (1.5, None)}
"""

import base64
import builtins
import json
import struct

MAX_REPLY = 256 * 2**20
_KINDS = "biufcUS"


class StudentError(Exception):
    """An exception of the submission's own type, raised again in the checks by name."""


class StudentCrashed(Exception):
    """The submission's process ended (exited, crashed or was killed) during a call."""


def write_frame(fd, payload: bytes):
    import os
    data = struct.pack(">Q", len(payload)) + payload
    while data:
        written = os.write(fd, data)
        data = data[written:]


def read_frame(fd, limit=MAX_REPLY):
    """The next payload, or None at end of file; ValueError above ``limit`` bytes."""
    import os
    head = _read_exact(fd, 8)
    if head is None:
        return None
    size = struct.unpack(">Q", head)[0]
    if size > limit:
        raise ValueError(f"a reply of {size} bytes is larger than {limit}")
    body = _read_exact(fd, size)
    if body is None:
        return None
    return body


def _read_exact(fd, size):
    import os
    chunks, got = [], 0
    while got < size:
        chunk = os.read(fd, min(size - got, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def encode_plain(value, handles, depth=0):
    """In the submission's process: a JSON-able tree of plain data, handles for the rest."""
    import numpy as np
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        return {"int": str(value)}
    if kind is float:
        return {"float": value.hex()}
    if kind is complex:
        return {"complex": [value.real.hex(), value.imag.hex()]}
    if kind is bytes:
        return {"bytes": _b64(value)}
    if value is Ellipsis:
        return {"ellipsis": True}
    if depth < 20 and kind in (list, tuple):
        return {kind.__name__: [encode_plain(v, handles, depth + 1) for v in value]}
    if depth < 20 and kind is dict and all(type(k) in (str, int) for k in value):
        return {"dict": [[encode_plain(k, handles), encode_plain(v, handles, depth + 1)]
                         for k, v in value.items()]}
    if kind is np.ndarray and value.dtype.kind in _KINDS and value.dtype.fields is None:
        array = np.ascontiguousarray(value)
        return {"ndarray": [array.dtype.str, list(array.shape), _b64(array.tobytes())]}
    if isinstance(value, np.generic) and type(value) is np.dtype(kind).type \
            and value.dtype.kind in _KINDS:
        return {"scalar": [value.dtype.str, _b64(value.tobytes())]}
    handles[id(value)] = value
    return {"handle": id(value), "type": str(kind.__name__)[:80]}


def decode(tree, remote=None):
    """In the checks' process: rebuild plain data from a tree; handles become ``remote(id)``."""
    import numpy as np
    if tree is None or type(tree) in (bool, str):
        return tree
    if type(tree) is not dict or len(tree) not in (1, 2):
        raise ValueError("malformed reply")
    (key, value), = [(k, v) for k, v in tree.items() if k != "type"]
    if key == "int" and type(value) is str and len(value) < 10_000:
        return int(value)
    if key == "float" and type(value) is str:
        return float.fromhex(value)
    if key == "complex" and type(value) is list and len(value) == 2:
        return complex(float.fromhex(value[0]), float.fromhex(value[1]))
    if key == "bytes" and type(value) is str:
        return base64.b64decode(value)
    if key == "ellipsis":
        return Ellipsis
    if key in ("list", "tuple") and type(value) is list:
        items = [decode(v, remote) for v in value]
        return items if key == "list" else tuple(items)
    if key == "dict" and type(value) is list:
        out = {}
        for pair in value:
            k = decode(pair[0], remote)
            if type(k) not in (str, int):
                raise ValueError("malformed reply")
            out[k] = decode(pair[1], remote)
        return out
    if key in ("ndarray", "scalar"):
        dtype = np.dtype(str(value[0]))
        if dtype.kind not in _KINDS or dtype.fields is not None:
            raise ValueError("malformed reply")
        data = base64.b64decode(value[-1])
        if key == "scalar":
            return np.frombuffer(data, dtype=dtype, count=1)[0]
        shape = tuple(int(s) for s in value[1])
        return np.frombuffer(data, dtype=dtype).reshape(shape).copy()
    if key == "handle" and type(value) is int and remote is not None:
        return remote(value)
    raise ValueError("malformed reply")


ERRORS = {name: value for name, value in vars(builtins).items()
          if isinstance(value, type) and issubclass(value, Exception)}


def raise_again(ename, message):
    """Raise, in the checks, an exception named like the submission's (builtin types only)."""
    ename, message = str(ename)[:80], str(message)[:2000]
    if ename == "LinAlgError":
        import numpy as np
        raise np.linalg.LinAlgError(message)
    kind = ERRORS.get(ename)
    if kind is not None:
        try:
            error = kind(message)
        except Exception:       # noqa: BLE001 -- a builtin type with another signature
            error = StudentError(f"{ename}: {message}")
        raise error
    raise StudentError(f"{ename}: {message}")


def warn_again(entries):
    """Issue, in the checks, the warnings the submission's call issued (builtin categories)."""
    import warnings
    for entry in entries if isinstance(entries, list) else []:
        if not (isinstance(entry, list) and len(entry) == 2):
            continue
        category = getattr(builtins, str(entry[0]), None)
        if not (isinstance(category, type) and issubclass(category, Warning)):
            category = UserWarning
        warnings.warn(str(entry[1])[:2000], category, stacklevel=3)


def json_reply(obj) -> bytes:
    return json.dumps(obj).encode("utf-8")
