"""The full-size experiments on Dask distributed print the numbers of a local run (#42).

``dask_backend("local:2")`` starts a ``LocalCluster`` of two worker processes
(and closes it); a script reaches that cluster by its address
(``--scheduler tcp://...``), the way a teacher's scripts reach a campus
cluster. The script run there and the same script run in one process must
print the same lines, timings aside. The scripts run in this process
(``runpy``), so that no second Python pays the imports.
"""

from __future__ import annotations

import contextlib
import io
import re
import runpy
import sys
from pathlib import Path

import pytest

from mlcore._parallel import QUIET_CLUSTER, dask_backend, parallel_map

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
SCRIPT = "cv_estimator_study.py"
TINY = ["--sections", "study", "--repeats", "4", "--sizes", "30"]   # equality, not numbers
_TIMING = re.compile(r"\d+(\.\d+)? s\b")


def _printed(monkeypatch, *options: str) -> list[str]:
    monkeypatch.syspath_prepend(str(SCRIPTS))       # the scripts import _cluster
    monkeypatch.setenv("MLCORE_QUIET", "1")
    monkeypatch.setattr(sys, "argv", [SCRIPT, *TINY, *options])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(SCRIPTS / SCRIPT), run_name="__main__")
    return [_TIMING.sub("<time>", line) for line in out.getvalue().splitlines()]


def test_an_experiment_on_a_dask_cluster_prints_the_numbers_of_a_local_run(monkeypatch):
    pytest.importorskip("distributed")
    from mlcore.bounds import simulate_uniform_convergence

    local = _printed(monkeypatch, "--n-jobs", "1")
    assert len(local) > 10
    run = dict(m=50, gamma=0.1, n_trials=60, random_state=3)
    alone = simulate_uniform_convergence(10, n_jobs=1, **run)
    with dask_backend("local:2") as client:
        assert len(client.scheduler_info()["workers"]) == 2
        # The workers run without Dask's sampling profiler and its frequent
        # resource polling (QUIET_CLUSTER): CPU that no result needs (#42's ratio).
        import dask

        settings = client.run(lambda: {key: dask.config.get(key) for key in QUIET_CLUSTER})
        assert list(settings.values()) == [QUIET_CLUSTER] * 2
        address = client.scheduler.address
        assert address.startswith("tcp://")
        assert _printed(monkeypatch, "--scheduler", address) == local
        on_dask = simulate_uniform_convergence(10, n_jobs=-1, **run)
        assert parallel_map(abs, [-2, 3, -4], n_jobs=2) == [2, 3, 4]
    assert client.status == "closed"
    assert (on_dask.violation_rate(), on_dask.deviation_quantile(0.05)) == (
        alone.violation_rate(), alone.deviation_quantile(0.05))
    with dask_backend(None) as nothing:
        assert nothing is None


@pytest.mark.parametrize("scheduler", ["local:0", "local:-1", "local", "8786", "tcp://", 2])
def test_a_scheduler_that_is_neither_local_n_nor_an_address_is_refused(scheduler):
    with pytest.raises(ValueError, match=r"scheduler must be 'local:N'.*got"):
        with dask_backend(scheduler):
            pass
