"""The submission's side of the checks: hold its answers and answer calls with plain data.

Started by ``_checker.py`` inside the same sandbox as a process that never
holds a test: the first one forked from the checks' process before that has
read its job (so with its modules imported and nothing of the submission or
the checks), one started again (``python _server.py REPLY_FD``) as a fresh
process. It reads requests on a pipe (its stdin, when started as a script)
and writes replies on another (``REPLY_FD``; see ``_wire.py``); its stdin
and stdout are then ``/dev/null``. The submission's code runs here only: restoring its saved
answers (``cloudpickle``) and every call a check makes into them. Whatever
this process does, it can only send data back; the checks decide.

Requests (pickled tuples):

* ``("load", path, names)``: restore these names from a snapshot; reply
  with each as plain data or a handle;
* ``(op, handle, *args)`` with ``op`` one of ``call``, ``getattr``,
  ``getitem``, ``len``, ``iter``, ``array``, ``str``, ``repr``, ``bool``,
  ``float``, ``int``, ``index``, ``contains``.

Replies: ``{"value": tree, "warnings": [...]}`` or
``{"raise": [name, message], "warnings": [...]}``.
"""

import os
import pickle
import sys

if __name__ == "__main__":
    # Run as a script with -I, which puts neither its folder nor PYTHONPATH on sys.path:
    # name its own folder, and the one holding the mlcore package it belongs to.
    _HERE = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, _HERE)
    sys.path.append(os.path.dirname(os.path.dirname(os.path.dirname(_HERE))))

try:                      # run as a script: its folder is on sys.path (above)
    from _wire import encode_plain, json_reply, read_frame, write_frame
except ImportError:       # imported as mlcore.homework.sandbox._server (documentation)
    from ._wire import encode_plain, json_reply, read_frame, write_frame


def _restore(path, names):
    import cloudpickle
    try:
        with open(path, "rb") as handle:
            data = pickle.load(handle)
        blobs = data.get("each") or {}
    except Exception:      # noqa: BLE001 -- a missing or broken snapshot: no answers
        return {}
    found = {}
    for name in names:
        if name in blobs:
            try:
                found[name] = cloudpickle.loads(blobs[name])
            except Exception:   # noqa: BLE001 -- one broken object costs only its own name
                continue
    return found


def _iterate(value):
    items = []
    for item in value:
        items.append(item)
        if len(items) > 1_000_000:
            raise ValueError("more than a million items")
    return items


def main():
    serve(os.dup(0), int(sys.argv[1]))


def serve(request_fd, reply_fd):
    """Answer requests read on ``request_fd`` on ``reply_fd`` until EOF; then exit.

    Also the entry of the first process of a submission that ``_checker.py``
    forks from itself before it reads its job (``Server.start``).
    """
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    import warnings
    import numpy as np
    handles = {}
    ops = {"getattr": getattr, "len": len, "iter": _iterate, "array": np.asarray,
           "str": str, "repr": repr, "bool": bool, "float": float, "int": int,
           "index": lambda v: v.__index__(), "contains": lambda v, x: x in v,
           "getitem": lambda v, k: v[k], "call": lambda v, a, k: v(*a, **k)}

    class Unpickler(pickle.Unpickler):
        def persistent_load(self, pid):
            return handles[pid]

    while True:
        frame = read_frame(request_fd, limit=2**31)
        if frame is None:
            break
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                import io
                request = Unpickler(io.BytesIO(frame)).load()
                op, args = request[0], request[1:]
                if op == "load":
                    value = _restore(*args)
                else:
                    value = ops[op](*args)     # args[0]: the object its handle names
                reply = {"value": encode_plain(value, handles)}
            except BaseException as error:    # noqa: B036 -- the check sees it, by name
                try:
                    message = str(error)[:2000]
                except BaseException:          # noqa: B036 -- its __str__ raised
                    message = ""
                reply = {"raise": [str(type(error).__name__)[:80], message]}
        reply["warnings"] = [[w.category.__name__, str(w.message)[:2000]] for w in caught[:20]]
        try:
            payload = json_reply(reply)
        except (TypeError, ValueError):
            payload = json_reply({"raise": ["TypeError", "the reply could not be encoded"],
                                  "warnings": []})
        write_frame(reply_fd, payload)
    os._exit(0)


if __name__ == "__main__":
    main()
