"""Runs release the GIL: two Python threads simulate at the same time."""

import threading
import time

import pytest

import blockdyn
from conftest import MODELS


def model():
    # About 0.1 s of Rust per run: long next to thread start-up and GIL hand-overs. dopri5 is
    # named: its steps stay held by the resting contact's stability, where the default auto
    # switches to large implicit steps and the run takes only a few milliseconds.
    return blockdyn.load(
        MODELS / "ball_drop.toml",
        set={"model.stop_time": 300.0, "solver.method": "dopri5"},
    )


def on_two_threads(m):
    """Two runs started together on two threads: their results, and the wall time."""
    barrier = threading.Barrier(2)
    out = [None, None]

    def work(i):
        barrier.wait()
        out[i] = m.simulate()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out, time.perf_counter() - started


def test_runs_on_two_threads_overlap():
    """Each result carries when its Rust run started and ended. Were the GIL held during a run,
    the second thread's run could not start before the first returned: the intervals would be
    disjoint, whatever the load of the machine (even on one core the released runs interleave).
    """
    m = model()
    overlaps = []
    for _ in range(5):
        (a, b), _ = on_two_threads(m)
        (a0, a1), (b0, b1) = a._run_interval, b._run_interval
        overlap = min(a1, b1) - max(a0, b0)
        overlaps.append(overlap / min(a1 - a0, b1 - b0))
        if overlaps[-1] > 0.5:
            return
    pytest.fail(f"the runs of two threads did not overlap (overlap / shorter run: {overlaps})")
