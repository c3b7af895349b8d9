"""Run one submission's cells in a fresh kernel and report each cell's outcome.

This file runs as a script, inside the sandbox that :mod:`mlcore.homework._sandbox`
prepares (its own process, temporary folder, resource limits and, where
available, bubblewrap). It reads the whole job as JSON from stdin *before*
starting the kernel, so the student's code never sees the hidden tests on
disk, then prints one line per event on stdout, each starting with
``MARK``::

    {"event": "limits", "applied": [...]}
    {"event": "kernel", "pid": 1234}
    {"event": "cell", "n": 0, "ok": true}
    {"event": "cell", "n": 7, "ok": false, "ename": "AssertionError", "evalue": "..."}
    {"event": "dead", "n": 9, "reason": "..."}
    {"event": "done"}

Job keys: ``cells`` (list of code strings), ``cell_timeout`` (seconds),
``workdir``, ``limits`` (``{"memory_mb", "cpu_seconds", "file_mb"}``).
"""

import json
import math
import os
import sys

MARK = "@@mlcore-homework@@ "
MAX_TEXT = 600


def _apply_limits(limits):
    """Set hard and soft rlimits (the student cannot raise them back); POSIX only."""
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


def _short(text):
    text = str(text)
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + " [...]"


def main():
    job = json.loads(sys.stdin.read())
    # Keep a private copy of stdout for the events, then point fds 0 and 1 at
    # /dev/null so that nothing the kernel or its children print is mistaken
    # for an event, and nothing can read the job again. Stderr stays: the
    # grader shows its last line when a run ends early.
    events = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(null, fd)

    def emit(**event):
        events.write(MARK + json.dumps(event) + "\n")
        events.flush()

    emit(event="limits", applied=_apply_limits(job.get("limits", {})))

    # nbformat imports jsonschema, whose optional IRI check (rfc3987_syntax)
    # compiles a grammar for seconds at import; grading never validates IRIs.
    sys.modules.setdefault("rfc3987_syntax", None)
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    nb = nbformat.v4.new_notebook()
    for n, source in enumerate(job["cells"]):
        nb.cells.append(nbformat.v4.new_code_cell(source, id=f"c{n}"))
    timeout = int(math.ceil(job["cell_timeout"]))   # nbclient wants whole seconds
    try:
        client = NotebookClient(nb, timeout=timeout, allow_errors=True,
                                kernel_name="python3", record_timing=False,
                                store_widget_state=False, skip_cells_with_tag="",
                                shutdown_kernel="immediate",
                                resources={"metadata": {"path": job["workdir"]}})
        with client.setup_kernel():
            process = getattr(client.km.provisioner, "process", None)
            emit(event="kernel", pid=getattr(process, "pid", None))
            for n, cell in enumerate(nb.cells):
                try:
                    client.execute_cell(cell, n)
                except CellTimeoutError:
                    emit(event="dead", n=n, reason="the cell ran longer than the time limit")
                    break
                except DeadKernelError:
                    emit(event="dead", n=n, reason="the kernel died (exited, crashed or was "
                                                   "killed by a resource limit)")
                    break
                error = next((o for o in cell.outputs if o.get("output_type") == "error"), None)
                if error is None:
                    emit(event="cell", n=n, ok=True)
                else:
                    emit(event="cell", n=n, ok=False, ename=_short(error.get("ename", "")),
                         evalue=_short(error.get("evalue", "")))
    except Exception as error:   # the kernel failed to start, or died at shutdown
        emit(event="dead", n=None, reason=_short(f"{type(error).__name__}: {error}"))
    emit(event="done")


if __name__ == "__main__":
    main()
