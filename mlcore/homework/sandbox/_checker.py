"""Run each question's checks in a process where no code of the submission runs.

This file runs as a script inside the sandbox, after the submission's own
kernel (``_worker.py``) has ended. It is plain Python and not dumpable. For
each question it builds the checks' namespace from two sources:

* the *reference*: the namespace that the teacher's notebook (the chapter
  with its solutions) had right before that question's tests, saved by a
  trusted run of it and restored here, so ``np``, ``expit``, the data and
  the chapter's helpers are the real ones whatever the submission rebound;
* the submission's *answers*: only the names the question's solution cells
  bind (``stable_sigmoid``, ``mse``), restored in a separate process
  (``_server.py``) and represented here by plain data (numbers, strings,
  arrays rebuilt from bytes) or by :class:`Remote` handles whose every use
  is a call into that process answered with plain data (``_wire.py``).

So the submission's code never runs here, no object of it is unpickled
here, and every comparison a check makes is between plain values. If the
submission's process dies during a call, that check fails and the next
check starts a new one. Verdicts go to the grader on a channel only this
process holds, each with the nonce the grader gave that check::

    {"event": "start", "q": 0, "n": 1, "nonce": "..."}
    {"event": "check", "q": 0, "n": 1, "ok": false, "ename": "AssertionError", "evalue": "...",
     "nonce": "...", "crashed": false}
    {"event": "question", "q": 0, "finished": true}
    {"event": "done"}
"""

import builtins
import importlib
import io
import json
import os
import pickle
import signal
import subprocess
import sys

if __name__ == "__main__":
    # Run as a script with -I, which puts neither its folder nor PYTHONPATH on sys.path:
    # name its own folder, and the one holding the mlcore package it belongs to.
    _HERE = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, _HERE)
    sys.path.append(os.path.dirname(os.path.dirname(os.path.dirname(_HERE))))

try:                      # run as a script: its folder is on sys.path (above)
    from _wire import (StudentCrashed, StudentError, decode, raise_again, read_frame,
                       warn_again, write_frame)
    from _worker import apply_limits, events_channel, short
    from _server import serve
except ImportError:       # imported as mlcore.homework.sandbox._checker (the docs)
    from ._wire import (StudentCrashed, StudentError, decode, raise_again, read_frame,
                        warn_again, write_frame)
    from ._worker import apply_limits, events_channel, short
    from ._server import serve

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_server.py")


class ReferenceChanged(Exception):
    """The reference's bytes do not have the SHA-256 the grader sent with them."""


def restore_reference(reference):
    """The teacher's saved namespace, sent by the grader on stdin with its SHA-256.

    The SHA-256 is checked before anything is unpickled: a snapshot that
    changed raises :class:`ReferenceChanged` and is never loaded.
    """
    import base64
    import hashlib

    import cloudpickle
    namespace = {}
    if not isinstance(reference, dict):
        return namespace   # no reference: the checks see only the answers
    blob = base64.b64decode(reference["data"])
    if hashlib.sha256(blob).hexdigest() != reference["sha256"]:
        raise ReferenceChanged()
    try:
        data = pickle.loads(blob)
    except Exception:      # noqa: BLE001 -- no reference: the checks see only the answers
        return namespace
    for name, value in (data.get("each") or {}).items():
        try:
            namespace[str(name)] = cloudpickle.loads(value)
        except Exception:  # noqa: BLE001
            continue
    return namespace


class Remote:
    """A handle on an object in the submission's process; every use asks it for plain data."""

    __slots__ = ("_server", "_id", "_generation", "_type")

    def __init__(self, server, ident, generation, kind=""):
        object.__setattr__(self, "_server", server)
        object.__setattr__(self, "_id", ident)
        object.__setattr__(self, "_generation", generation)
        object.__setattr__(self, "_type", kind)

    def _ask(self, op, *args, want=None):
        value = self._server.ask(op, self, *args)
        if want is not None and type(value) not in want:
            raise TypeError(f"{op}() of the submission's {self._type} object gave "
                            f"{type(value).__name__}, not plain data")
        return value

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self._ask("getattr", name)

    def __setattr__(self, name, value):
        raise AttributeError("the checks cannot change the submission's objects")

    def __call__(self, *args, **kwargs):
        return self._ask("call", args, kwargs)

    def __getitem__(self, key):
        return self._ask("getitem", key)

    def __len__(self):
        return self._ask("len", want=(int,))

    def __iter__(self):
        return iter(self._ask("iter", want=(list,)))

    def __contains__(self, item):
        return self._ask("contains", item, want=(bool,))

    def __bool__(self):
        return self._ask("bool", want=(bool,))

    def __float__(self):
        return self._ask("float", want=(float,))

    def __int__(self):
        return self._ask("int", want=(int,))

    def __index__(self):
        return self._ask("index", want=(int,))

    def __array__(self, dtype=None, copy=None):
        import numpy as np
        value = self._ask("array", want=(np.ndarray,))
        return value if dtype is None else value.astype(dtype)

    def __repr__(self):
        try:
            return self._ask("repr", want=(str,))[:2000]
        except Exception:  # noqa: BLE001
            return f"<the submission's {self._type} object>"

    __str__ = __repr__

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def __hash__(self):
        return id(self)


def _open_fds() -> list:
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return [int(name) for name in os.listdir(folder)]
        except (OSError, ValueError):
            continue
    return list(range(3, 1024))


def _become_server(request_fd, reply_fd):
    """In the child forked by ``Server.start(fork=True)``: keep stdio and the two
    pipes, close every other descriptor (the unread job, the verdicts' channel), serve."""
    try:
        for fd in _open_fds():
            if fd not in (0, 1, 2, request_fd, reply_fd):
                try:
                    os.close(fd)
                except OSError:
                    pass
        serve(request_fd, reply_fd)
    finally:
        os._exit(0)


class _Forked:
    """A forked child, stopped as ``Server.stop`` stops a ``Popen``."""

    def __init__(self, pid):
        self.pid = pid

    def kill(self):
        os.kill(self.pid, signal.SIGKILL)

    def wait(self, timeout=None):
        os.waitpid(self.pid, 0)


class Server:
    """The submission's process (``_server.py``), started again after it dies."""

    def __init__(self):
        self.process, self.generation, self.crashed = None, 0, False

    def start(self, fork=False):
        """Start the process; ``fork``: as a copy of this one, which must not yet hold
        anything of the job (``main`` forks before it reads it). A restart execs a
        fresh interpreter: by then this process holds the checks and their nonces."""
        request_read, request_write = os.pipe()
        reply_read, reply_write = os.pipe()
        if fork:
            pid = os.fork()
            if pid == 0:
                _become_server(request_read, reply_write)
            self.process = _Forked(pid)
        else:
            self.process = subprocess.Popen(
                [sys.executable, "-I", SERVER, str(reply_write)], stdin=request_read,
                stdout=subprocess.DEVNULL, pass_fds=(reply_write,), close_fds=True)
        os.close(request_read)
        os.close(reply_write)
        self.write, self.read = request_write, reply_read
        self.generation += 1

    def stop(self):
        if self.process is None:
            return
        for fd in (self.write, self.read):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            self.process.kill()
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.process = None

    def _persistent_id(self, obj):
        if isinstance(obj, Remote):
            if object.__getattribute__(obj, "_generation") != self.generation:
                raise StudentCrashed("this object belonged to a process of your code that "
                                     "has ended")
            return object.__getattribute__(obj, "_id")
        return None

    def ask(self, op, *args):
        """Send one request; return its plain reply, or raise what the submission raised."""
        import cloudpickle
        if self.process is None:
            raise StudentCrashed("your code's process has ended")
        buffer = io.BytesIO()
        pickler = cloudpickle.CloudPickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.persistent_id = self._persistent_id
        pickler.dump((op, *args))
        try:
            write_frame(self.write, buffer.getvalue())
            frame = read_frame(self.read)
        except OSError:
            frame = None
        if frame is None:
            self.stop()
            self.crashed = True
            raise StudentCrashed("your code ended its process (it exited, crashed or hit a "
                                 "resource limit) during this check")
        try:
            reply = json.loads(frame.decode("utf-8"))
            raised = reply.get("raise")
            generation = self.generation
            value = None if raised else decode(
                reply["value"], lambda ident: Remote(self, ident, generation))
        except Exception as error:  # noqa: BLE001 -- a malformed reply: the check fails
            raise StudentError(f"ValueError: malformed reply ({type(error).__name__})") \
                from None
        warn_again(reply.get("warnings"))
        if raised:
            raise_again(*(list(raised) + ["", ""])[:2])
        return value


def load_answers(server, question):
    """Start the submission's process if needed; its answers as plain data or handles."""
    if server.process is None:
        server.start()
    try:
        answers = server.ask("load", question["state"], question["answers"])
    except Exception:      # noqa: BLE001 -- no answers: the checks fail with NameError
        return {}
    return answers if isinstance(answers, dict) else {}


def run_check(source, n, namespace):
    """Run check number ``n`` (its code ``source``) in ``namespace``; return its verdict.

    The verdict is ``{"ok": True}`` or ``{"ok": False, "ename": ..., "evalue": ...}``,
    the error's name being the submission's own for an error raised in its process.
    ``tests/test_wrong_solutions.py`` runs wrong answers' checks through it in process.

    Examples
    --------
    >>> run_check("assert x == 2, 'x must be 2'", 0, {"x": 3})
    {'ok': False, 'ename': 'AssertionError', 'evalue': 'x must be 2'}
    """
    try:
        exec(compile(source, f"<check {n + 1}>", "exec"), namespace)
    except BaseException as error:   # noqa: B036 -- a check may raise anything
        ename = type(error).__name__
        if isinstance(error, StudentError):
            ename = str(error).split(":", 1)[0]
        return {"ok": False, "ename": short(ename), "evalue": short(error)}
    return {"ok": True}


def main():
    # The command line holds what this process may know before its job: the limits and
    # the modules the teacher's reference imports (``Reference.modules``). With those
    # imported, the submission's first process is forked from here before the job is
    # read, so it starts with them (a fresh interpreter imported them again, ~4 CPU-s
    # for chapter 1) and with nothing of the checks: no test, nonce or reference.
    setup = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    job_fd = os.dup(0)
    emit = events_channel()
    apply_limits(setup.get("limits", {}))
    if not os.access(os.environ.get("TMPDIR", "/tmp"), os.W_OK):
        os.environ["TMPDIR"] = "/tmp"     # the run's folder is read-only here
    sys.modules.setdefault("rfc3987_syntax", None)
    import cloudpickle  # noqa: F401
    import numpy  # noqa: F401
    for name in setup.get("preload", []):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 -- the reference's restore reports what is missing
            continue
    server = Server()
    server.start(fork=bool(setup) and hasattr(os, "fork"))
    with os.fdopen(job_fd, "rb") as handle:
        job = json.loads(handle.read())
    if not setup:
        apply_limits(job.get("limits", {}))
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    for question in job["questions"]:
        number, answers = question["number"], None
        try:
            namespace.update(restore_reference(question["reference"]))
        except ReferenceChanged:
            emit(event="reference", q=number, ok=False)
            os._exit(3)
        for name in question["answers"]:
            namespace.pop(name, None)
        for n, (source, nonce) in enumerate(zip(question["tests"], question["nonces"])):
            if answers is None or server.process is None:
                for name in question["answers"]:
                    namespace.pop(name, None)
                answers = load_answers(server, question)
                namespace.update({k: v for k, v in answers.items()
                                  if k in question["answers"]})
            server.crashed = False
            emit(event="start", q=number, n=n, nonce=nonce)
            verdict = run_check(source, n, namespace)
            emit(event="check", q=number, n=n, nonce=nonce, crashed=server.crashed,
                 **verdict)
        emit(event="question", q=number, finished=True)
    server.stop()
    emit(event="done")
    os._exit(0)


if __name__ == "__main__":
    main()
