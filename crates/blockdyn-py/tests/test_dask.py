"""examples/python/dask_sweep.py on a LocalCluster of 2 worker processes."""

import os
import subprocess
import sys

import pytest

from conftest import REPO


def test_the_dask_example_on_two_local_workers(tmp_path):
    pytest.importorskip(
        "dask.distributed",
        reason="dask[distributed] is not installed: the Dask example is not tested (pip install 'dask[distributed]')",
    )
    done = subprocess.run(
        [sys.executable, str(REPO / "examples" / "python" / "dask_sweep.py"),
         "--points", "40", "--workers", "2", "--batch", "5", "--check"],
        cwd=tmp_path,  # Dask's scratch space (dask-scratch-space) goes here, not into the repository
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "DASK_TEMPORARY_DIRECTORY": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "40 points on 2 workers" in done.stdout, done.stdout
    assert "0 failed" in done.stdout
    assert "check: all 40 points equal serial runs" in done.stdout
