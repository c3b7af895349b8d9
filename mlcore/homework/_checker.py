"""Run each question's checks on a submission's saved namespace, in a fresh process.

This file runs as a script inside the sandbox, after the submission's own
kernel (``_worker.py``) has ended and every process it started has been
killed. It is plain Python: no IPython, so no input transformer, custom
exception handler or display hook of the submission exists here. It reads
its job from stdin, imports numpy once, then forks a child that, for each
question in turn, lays that question's saved namespace over what the earlier
checks defined and runs the question's checks with ``exec``. If the child
dies, another one takes over at the next question (running the earlier
checks first, unreported). The child reports on a pipe of its own; this
process, which never runs the submission's code and is not dumpable, passes
on only well-formed verdicts::

    {"event": "check", "q": 0, "n": 1, "ok": false, "ename": "AssertionError", "evalue": "..."}
    {"event": "question", "q": 0, "finished": true}
    {"event": "done"}

The grader shows a check's message only when the check's own source
contains it (see ``_grade.safe_failure``).
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
        return namespace
    if not isinstance(data, dict):
        return namespace
    if "together" in data:
        try:
            saved = cloudpickle.loads(data["together"])
            if isinstance(saved, dict):
                namespace.update({k: v for k, v in saved.items() if isinstance(k, str)})
        except Exception:
            pass
        return namespace
    for name, blob in (data.get("each") or {}).items():
        try:
            namespace[str(name)] = cloudpickle.loads(blob)
        except Exception:
            continue
    return namespace


def _silently(source, namespace, name):
    try:
        exec(compile(source, name, "exec"), namespace)
    except BaseException:   # noqa: B036 -- its verdict was reported by its own question
        pass


def run_questions(questions, start, report, crashed=()):
    """In the child: each question's checks on its saved namespace, from ``start`` on.

    The checks share one namespace, as they did in one kernel: a question's
    saved namespace is laid over what the earlier checks defined. After a
    crash the next child starts at the next question and first runs the
    earlier checks silently (except those of the questions whose checks
    crashed), to rebuild what they defined.
    """
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    for index, question in enumerate(questions[start:], start):
        saved = restore(question["state"])
        if index == start:
            namespace.update(saved)
            for earlier in questions[:start]:
                if earlier["number"] not in crashed:
                    for source in earlier["tests"]:
                        _silently(source, namespace, "<earlier check>")
        namespace.update(saved)
        for n, source in enumerate(question["tests"]):
            try:
                exec(compile(source, f"<check {n + 1}>", "exec"), namespace)
            except BaseException as error:   # noqa: B036 -- a check may raise anything
                report(q=question["number"], n=n, ok=False, ename=short(type(error).__name__),
                       evalue=short(error))
            else:
                report(q=question["number"], n=n, ok=True)
        report(q=question["number"], finished=True)


def _child(questions, start, events_fd, crashed):
    """Fork a child running the checks from question ``start``; return its pid and pipe."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                          # the child: the submission's code runs here
        os.close(read_end)
        os.close(events_fd)               # it cannot write to the grader's channel
        channel = os.fdopen(write_end, "w", buffering=1, encoding="utf-8")

        def report(**event):
            channel.write(json.dumps(event) + "\n")
            channel.flush()
        try:
            run_questions(questions, start, report, crashed)
        finally:
            os._exit(0)   # skip atexit handlers and finalisers the namespace brought in
    os.close(write_end)
    return pid, read_end


def main():
    job = json.loads(sys.stdin.read())
    emit = events_channel()
    apply_limits(job.get("limits", {}))
    if not os.access(os.environ.get("TMPDIR", "/tmp"), os.W_OK):
        os.environ["TMPDIR"] = "/tmp"     # the run's folder is read-only here
    sys.modules.setdefault("rfc3987_syntax", None)
    import cloudpickle  # noqa: F401 -- imported once, before the fork
    import numpy  # noqa: F401
    questions, start, crashed = job["questions"], 0, set()
    counts = {q["number"]: len(q["tests"]) for q in questions}
    while start < len(questions):
        allowed = {q["number"] for q in questions[start:]}
        pid, read_end = _child(questions, start, emit.fd, crashed)
        seen, finished = set(), set()
        with os.fdopen(read_end, "r", encoding="utf-8", errors="replace") as lines:
            for line in lines:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                q = event.get("q") if isinstance(event, dict) else None
                if not (isinstance(q, int) and q in allowed):
                    continue
                n = event.get("n")
                if (isinstance(n, int) and not isinstance(n, bool) and 0 <= n < counts[q]
                        and (q, n) not in seen and isinstance(event.get("ok"), bool)):
                    seen.add((q, n))
                    emit(event="check", q=q, n=n, ok=event["ok"],
                         ename=short(event.get("ename", "")), evalue=short(event.get("evalue", "")))
                elif event.get("finished") is True and q not in finished:
                    finished.add(q)
                    emit(event="question", q=q, finished=True)
        os.waitpid(pid, 0)
        stopped = next((i for i in range(start, len(questions))
                        if questions[i]["number"] not in finished), None)
        if stopped is None:
            break
        emit(event="question", q=questions[stopped]["number"], finished=False)
        crashed.add(questions[stopped]["number"])
        start = stopped + 1
    emit(event="done")
    os._exit(0)


if __name__ == "__main__":
    main()
