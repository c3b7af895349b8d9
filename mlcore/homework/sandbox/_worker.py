"""Run a submission's own cells in a fresh kernel and save its namespace for the checks.

This file runs as a script, inside the sandbox that
:mod:`mlcore.homework.sandbox._sandbox` prepares. Its job holds the submission's cells only: no test, public or
hidden, is ever in this process, in the kernel or on the disk they can see.
Right before each question's first test cell it saves, one ``cloudpickle``
blob per name, the names that question's solution binds (for a trusted run
of the teacher's notebook: every name) to a file of the job. The checks then
run in other processes (``_checker.py``, ``_server.py``), where nothing the
submission installed in IPython (input transformers, custom exception
handlers, display hooks) exists. Events are printed on stdout, one per line,
each starting with ``MARK``::

    {"event": "limits", "applied": [...]}
    {"event": "cell", "n": 7, "ok": false, "ename": "NameError", "evalue": "..."}
    {"event": "snapshot", "n": 3, "ok": true}
    {"event": "dead", "n": 9, "reason": "..."}
    {"event": "done"}

The submission can forge these lines; they only describe its own cells.

Job keys: ``cells`` (list of code strings), ``snapshots`` (list of
``[cell index, snapshot number, path, names or None]``; after cell -1 means
before the first), ``workdir``,
``limits`` (``{"memory_mb", "cpu_seconds", "file_mb"}``), and optionally
``keep``: a path where the executed notebook (the code cells with their
outputs, each cell's capped at ``KEEP_BYTES``) is written at the end, for
``grade --keep-executed``.
"""

import json
import os
import sys

MARK = "@@mlcore-homework@@ "
MAX_TEXT = 600
KEEP_BYTES = 100_000

SNAPSHOT = '''def _mlcore_snapshot(path, wanted):
    import pickle, cloudpickle
    shell = get_ipython()
    skip = set(shell.user_ns_hidden)
    each = {}
    for name, value in list(shell.user_ns.items()):
        if name.startswith("_") or name in skip or (wanted is not None and name not in wanted):
            continue
        try:
            each[name] = cloudpickle.dumps(value)
        except BaseException:
            continue
    with open(path, "wb") as handle:
        pickle.dump({"each": each}, handle)
_mlcore_snapshot(PATH, NAMES)
del _mlcore_snapshot
'''


def apply_limits(limits):
    """Set hard and soft rlimits (the code cannot raise them back); POSIX only."""
    try:
        import resource
    except ImportError:          # Windows: only the wall-clock timeout applies
        return []
    applied = []
    table = [("memory_mb", "RLIMIT_AS", 1024 * 1024), ("cpu_seconds", "RLIMIT_CPU", 1),
             ("file_mb", "RLIMIT_FSIZE", 1024 * 1024)]
    for key, name, scale in table:
        value = limits.get(key)
        if value and hasattr(resource, name):
            amount = int(value * scale)
            resource.setrlimit(getattr(resource, name), (amount, amount))
            applied.append(name)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return applied


def short(text):
    text = str(text)
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + " [...]"


def events_channel():
    """Keep a private copy of stdout for the events; point fds 0 and 1 at /dev/null.

    The process is also made non-dumpable, so that its children (the kernel,
    the code it runs) cannot open its ``/proc/<pid>/fd`` or read its memory.
    """
    try:
        import ctypes
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)          # PR_SET_DUMPABLE = 0
    except (OSError, AttributeError):
        pass
    events = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(null, fd)

    def emit(**event):
        events.write(MARK + json.dumps(event) + "\n")
        events.flush()
    emit.fd = events.fileno()
    return emit


def capped(outputs, limit=KEEP_BYTES):
    """The outputs that fit in ``limit`` bytes of JSON; a longer text is cut, and a note
    says what was left out."""
    kept, used = [], 0
    for output in outputs:
        size = len(json.dumps(output))
        if used + size <= limit:
            kept.append(output)
            used += size
            continue
        if output.get("output_type") == "stream" and used < limit:
            text = "".join(output.get("text", ""))
            kept.append(dict(output, text=text[:limit - used]))
        note = f"\n[mlcore: outputs cut at {limit // 1000} kB per cell]\n"
        kept.append({"output_type": "stream", "name": "stderr", "text": note})
        break
    return kept


def write_executed(nb, plan, path):
    """Write the submission's cells as run (no snapshot cell) to ``path``."""
    cells = [cell for cell, (kind, _) in zip(nb.cells, plan) if kind == "cell"]
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5},
                  handle)


def main():
    job = json.loads(sys.stdin.read())
    emit = events_channel()
    emit(event="limits", applied=apply_limits(job.get("limits", {})))

    # nbformat imports jsonschema, whose optional IRI check (rfc3987_syntax)
    # compiles a grammar for seconds at import; grading never validates IRIs.
    sys.modules.setdefault("rfc3987_syntax", None)
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    after = {}
    for cell, number, path, names in job.get("snapshots", []):
        after.setdefault(cell, []).append((number, path, names))
    plan = [("snapshot", item) for item in after.get(-1, [])]
    for n in range(len(job["cells"])):
        plan += [("cell", n)] + [("snapshot", item) for item in after.get(n, [])]
    nb = nbformat.v4.new_notebook()
    for i, (kind, n) in enumerate(plan):
        source = (job["cells"][n] if kind == "cell" else
                  SNAPSHOT.replace("PATH", repr(n[1])).replace("NAMES", repr(n[2])))
        nb.cells.append(nbformat.v4.new_code_cell(source, id=f"c{i}"))
    # No wall-clock limit per cell: the grader stops a run that stalls (its CPU time
    # stops growing) or uses up its CPU time; a run that computes is never cut.
    try:
        client = NotebookClient(nb, timeout=None, allow_errors=True,
                                kernel_name="python3", record_timing=False,
                                store_widget_state=False, skip_cells_with_tag="",
                                shutdown_kernel="immediate",
                                resources={"metadata": {"path": job["workdir"]}})
        with client.setup_kernel():
            for i, (kind, n) in enumerate(plan):
                cell = nb.cells[i]
                try:
                    client.execute_cell(cell, i)
                except CellTimeoutError:
                    emit(event="dead", n=None, reason="the cell ran longer than the time limit")
                    break
                except DeadKernelError:
                    emit(event="dead", n=None, reason="the kernel died (exited, crashed or "
                                                   "was killed by a resource limit)")
                    break
                error = next((o for o in cell.outputs if o.get("output_type") == "error"), None)
                # a cell printing 100 MB keeps none of it (KEEP_BYTES: --keep-executed)
                cell.outputs = capped(cell.outputs) if job.get("keep") else []
                if kind == "snapshot":
                    emit(event="snapshot", n=n[0], ok=error is None and os.path.exists(n[1]))
                elif error is None:
                    emit(event="cell", n=n, ok=True)
                else:
                    emit(event="cell", n=n, ok=False, ename=short(error.get("ename", "")),
                         evalue=short(error.get("evalue", "")))
    except Exception as error:   # the kernel failed to start, died, or died at shutdown
        emit(event="dead", n=None, reason=short(f"{type(error).__name__}: {error}"))
    if job.get("keep"):
        try:
            write_executed(nb, plan, job["keep"])
        except Exception:        # a full disk, a file limit: the grade does not need it
            pass
    emit(event="done")


if __name__ == "__main__":
    main()
