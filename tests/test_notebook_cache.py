"""The notebook cells' tests read the build's run (tests/notebook_cache.py), and fail as nbval did."""

import nbformat

from notebook_cache import cached_run, cell_failure


def _notebook(*sources):
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])


def test_a_cell_passes_only_when_its_cached_run_shows_no_error(tmp_path):
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    notebook = _notebook("x = 1", "assert x == 2, 'x is not 2'", "y = 3")
    path = tmp_path / "01_demo.ipynb"
    nbformat.write(notebook, str(path))
    cache_folder = tmp_path / "cache"
    source, merged, why = cached_run(path, cache_folder)
    assert merged is None and "no execution cache" in why
    assert "tasks.py book" in cell_failure(source.cells[0], None, why)
    executed = _notebook("x = 1", "assert x == 2, 'x is not 2'", "y = 3")
    executed.cells[1].outputs = [nbformat.v4.new_output(
        "error", ename="AssertionError", evalue="x is not 2", traceback=["Traceback", "..."])]
    cache = get_cache(str(cache_folder))
    cache.cache_notebook_bundle(CacheBundleIn(executed, str(path)), check_validity=False)
    source, merged, why = cached_run(path, cache_folder)
    assert why is None
    verdicts = [cell_failure(s, c) for s, c in zip(source.cells, merged.cells)]
    assert verdicts[0] is None and verdicts[2] is None
    assert verdicts[1].startswith("AssertionError: x is not 2")
    # The notebook's code changed since the build: every cell fails, none is skipped.
    nbformat.write(_notebook("x = 1", "assert x == 1", "y = 3"), str(path))
    source, merged, why = cached_run(path, cache_folder)
    assert merged is None and "changed since the last build" in why
    assert "tasks.py book" in cell_failure(source.cells[0], merged, why)
