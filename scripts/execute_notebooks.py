"""Execute the chapter notebooks in parallel into the build's execution cache.

Jupyter Book (myst-nb, ``execute_notebooks: cache``) executes the notebooks
whose code is not in ``_build/.jupyter_cache`` one after the other while
Sphinx reads them. This script runs first and fills that cache the way
myst-nb would (same reader, same execution call, same cache record), with
one notebook per worker, so that Sphinx then finds every notebook cached.
A notebook whose code has not changed since the last build is not run
again; after editing one chapter, only that chapter runs. When anything in
``mlcore/`` changed, every notebook runs again (its outputs depend on it).

    python scripts/execute_notebooks.py                 # every chapter, 2 workers
    python scripts/execute_notebooks.py --jobs 4 chapters/03_vc_dimension.ipynb

It prints each notebook's execution time and exits 1 (naming the cell's
error) if a notebook fails; the build then reports the same failure.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "_build" / ".jupyter_cache"  # execute.cache in _config.yml: every build reads it
TIMEOUT = 120  # seconds per cell, as execute.timeout in _config.yml


def _mlcore_hash() -> str:
    import hashlib

    digest = hashlib.sha256()
    for path in sorted((ROOT / "mlcore").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _read(path: Path):
    import nbformat

    return nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)


def _is_cached(cache, path: Path) -> bool:
    try:
        cache.match_cache_notebook(_read(path))
    except KeyError:
        return False
    return True


def _execute(path_text: str) -> tuple[str, float, str | None]:
    """Run one notebook as myst-nb's cache mode does and store it in the cache."""
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn
    from jupyter_cache.cache.db import NbProjectRecord
    from jupyter_cache.executors.utils import single_nb_execution

    path = Path(path_text)
    cache = get_cache(str(CACHE))
    notebook = _read(path)
    record = cache.add_nb_to_project(str(path))
    NbProjectRecord.remove_tracebacks([record.pk], cache.db)
    result = single_nb_execution(notebook, cwd=str(path.parent), allow_errors=False,
                                 timeout=TIMEOUT, meta_override=True)
    if result.err is not None:
        NbProjectRecord.set_traceback(record.uri, result.exc_string, cache.db)
        return path_text, result.time, result.exc_string or repr(result.err)
    cache.cache_notebook_bundle(CacheBundleIn(notebook, record.uri,
                                              data={"execution_seconds": result.time}),
                                check_validity=False, overwrite=True)
    return path_text, result.time, None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="notebooks to execute (default: chapters/[0-9]*.ipynb)")
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("BOOK_JOBS", "2")),
                        help="notebooks executed at once (default: 2, or $BOOK_JOBS)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    from jupyter_cache import get_cache

    notebooks = [p.resolve() for p in args.notebooks] or sorted(
        (ROOT / "chapters").glob("[0-9]*.ipynb"))
    cache = get_cache(str(CACHE))
    # The cache is keyed on the notebooks' code only: outputs computed with an
    # older mlcore would be reused. When mlcore's source changes, start afresh.
    library, stamp = _mlcore_hash(), CACHE / "mlcore.sha256"
    if stamp.exists() and stamp.read_text() != library:
        print("mlcore changed since the last execution: every notebook runs again", flush=True)
        cache.clear_cache()
    CACHE.mkdir(parents=True, exist_ok=True)
    stamp.write_text(library)
    todo = [p for p in notebooks if not _is_cached(cache, p)]
    print(f"Notebooks: {len(notebooks) - len(todo)} cached, {len(todo)} to execute "
          f"({args.jobs} at a time)", flush=True)
    if not todo:
        return 0
    start, failures = time.perf_counter(), []
    with ProcessPoolExecutor(max_workers=min(args.jobs, len(todo))) as pool:
        futures = [pool.submit(_execute, str(p)) for p in todo]
        for future in as_completed(futures):
            path, seconds, error = future.result()
            name = Path(path).relative_to(ROOT)
            print(f"  {name}: {'FAILED after' if error else 'executed in'} {seconds:.1f} s",
                  flush=True)
            if error:
                failures.append((name, error))
    print(f"Executed {len(todo)} notebook(s) in {time.perf_counter() - start:.0f} s", flush=True)
    for name, error in failures:
        print(f"\n{name} failed:\n{error}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
