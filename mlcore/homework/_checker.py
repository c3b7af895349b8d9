"""Run one question's checks on a submission's saved namespace, in a fresh process.

This file runs as a script inside the sandbox, after the submission's own
kernel (``_worker.py``) has ended and every process it started has been
killed. It is plain Python: no IPython, so no input transformer, custom
exception handler or display hook of the submission exists here. It reads
its job (the saved namespace's path, the earlier questions' checks and this
question's checks) from stdin, restores the namespace, runs each check with ``exec`` and prints one
event per check::

    {"event": "check", "n": 0, "ok": false, "ename": "AssertionError", "evalue": "..."}
    {"event": "done"}

Only this question's and the earlier questions' checks are in this process. The grader accepts a
check's event only in this form, and shows a check's message only when the
check's own source contains it (see ``_grade.safe_failure``).
"""

import builtins
import json
import os
import pickle
import sys

try:                      # run as a script: its folder is sys.path[0]
    from _worker import apply_limits, events_channel, short
except ImportError:       # imported as mlcore.homework._checker (documentation, doctests)
    from ._worker import apply_limits, events_channel, short


def restore(path):
    """The saved namespace; names that fail to load are left out."""
    import cloudpickle
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    try:
        with open(path, "rb") as handle:
            data = pickle.load(handle)
    except Exception:
        return namespace, False
    if not isinstance(data, dict):
        return namespace, False
    if "together" in data:
        try:
            saved = cloudpickle.loads(data["together"])
            if isinstance(saved, dict):
                namespace.update({k: v for k, v in saved.items() if isinstance(k, str)})
                return namespace, True
        except Exception:
            return namespace, False
    for name, blob in (data.get("each") or {}).items():
        try:
            namespace[str(name)] = cloudpickle.loads(blob)
        except Exception:
            continue
    return namespace, True


def main():
    job = json.loads(sys.stdin.read())
    emit = events_channel()
    apply_limits(job.get("limits", {}))
    if not os.access(os.environ.get("TMPDIR", "/tmp"), os.W_OK):
        os.environ["TMPDIR"] = "/tmp"     # the run's folder is read-only here
    sys.modules.setdefault("rfc3987_syntax", None)
    import matplotlib
    matplotlib.use("Agg")
    namespace, restored = restore(job["state"])
    emit(event="restored", ok=restored)
    # The earlier questions' checks run first, unreported: a check may use what an
    # earlier one defined (data, fitted models), as when every check ran in one kernel.
    for source in job.get("setup", []):
        try:
            exec(compile(source, "<earlier check>", "exec"), namespace)
        except BaseException:   # noqa: B036 -- its verdict was reported by its own question
            pass
    for n, source in enumerate(job["tests"]):
        try:
            exec(compile(source, f"<check {n + 1}>", "exec"), namespace)
        except BaseException as error:   # noqa: B036 -- a check may raise anything
            emit(event="check", n=n, ok=False, ename=short(type(error).__name__),
                 evalue=short(error))
        else:
            emit(event="check", n=n, ok=True)
    emit(event="done")
    os._exit(0)       # skip atexit handlers and finalisers the namespace brought in


if __name__ == "__main__":
    main()
