"""Benchmark of every interactive figure: the p95 time of one slider move, and explore().

    python scripts/bench_widgets.py                     # every figure
    python scripts/bench_widgets.py --only Degree --repeats 5
    python scripts/bench_widgets.py --no-explore

Every ``InteractiveFigure`` subclass of ``mlcore`` declares ``benchmark =
(parameter, values)``; for each, after a warm-up pass, the script times
``update`` plus the redraw (wall clock, as a reader feels it, and CPU time,
which a busy machine inflates less) over ``--repeats`` passes of those values
and prints the p95 against the 100 ms target, then times ``explore()`` (the
website's version) over the same values. It fails (exit code 1) only with
``--strict`` when a p95 exceeds five times the target. The tests
(tests/test_widgets_speed.py) count the work instead (full draws, artists,
frames), which does not depend on the load.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("MLCORE_QUIET", "1")
os.environ.setdefault("MPLBACKEND", "Agg")

import numpy as np  # noqa: E402

TARGET_MS = 100.0


def figures():
    import importlib
    import pkgutil

    import mlcore
    from mlcore.widgets import InteractiveFigure

    for info in pkgutil.iter_modules(mlcore.__path__):
        if info.name != "homework":
            importlib.import_module(f"mlcore.{info.name}")
    found, stack = [], list(InteractiveFigure.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("mlcore.") and getattr(cls, "benchmark", None):
            found.append(cls)
    return sorted(found, key=lambda c: c.__qualname__)


def slider_times(figure, name, values, repeats):
    """(wall ms, CPU ms) per slider move, over ``repeats`` passes after one warm-up pass."""
    figure.time_updates(name, values)
    wall, cpu = [], []
    for _ in range(repeats):
        for value in values:
            start_wall, start_cpu = time.perf_counter(), time.process_time()
            figure._draw(**{name: value})
            wall.append(1000.0 * (time.perf_counter() - start_wall))
            cpu.append(1000.0 * (time.process_time() - start_cpu))
    return np.asarray(wall), np.asarray(cpu)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="passes over the values (3)")
    parser.add_argument("--only", default="", help="only figures whose name contains this")
    parser.add_argument("--no-explore", action="store_true", help="skip the explore() timing")
    parser.add_argument("--strict", action="store_true",
                        help=f"exit 1 when a p95 exceeds 5 x {TARGET_MS:.0f} ms")
    args = parser.parse_args(argv)
    print(f"{'figure':<28} {'moves':>5} {'p95 wall ms':>11} {'p95 CPU ms':>10} "
          f"{'median ms':>9} {'explore s':>9}   (target p95 < {TARGET_MS:.0f} ms)")
    slow = []
    for cls in figures():
        if args.only not in cls.__qualname__:
            continue
        name, values = cls.benchmark
        figure = cls()
        wall, cpu = slider_times(figure, name, values, args.repeats)
        p95 = float(np.percentile(wall, 95))
        explore = ""
        if not args.no_explore:
            start = time.perf_counter()
            figure.explore(**{n: [v] for n, v in figure.defaults().items() if n != name},
                           **{name: values})
            explore = f"{time.perf_counter() - start:.2f}"
        flag = "  over target" if p95 > TARGET_MS else ""
        print(f"{cls.__qualname__:<28} {wall.size:>5} {p95:>11.1f} "
              f"{float(np.percentile(cpu, 95)):>10.1f} {float(np.median(wall)):>9.1f} "
              f"{explore:>9}{flag}")
        if p95 > 5 * TARGET_MS:
            slow.append(cls.__qualname__)
    if slow:
        print(f"p95 above 5 x {TARGET_MS:.0f} ms: {', '.join(slow)}")
    return 1 if (args.strict and slow) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
