"""Runs release the GIL: two Python threads simulate at the same time."""

import os
import threading
import time

import pytest

import blockdyn
from conftest import MODELS


def model():
    # About 0.1 s of Rust per run: long next to thread start-up and GIL hand-overs.
    return blockdyn.load(MODELS / "ball_drop.toml", set={"model.stop_time": 100.0})


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


def test_two_threads_are_faster_than_one_after_the_other():
    """Best of several passes (the VM is shared and noisy): two runs on two Python threads take
    less than 0.8 × the time of the same two runs one after the other.

    A shared host may give this process no second core for a while (its other guests busy);
    then nothing can run two threads faster. Each pass also times the same two runs on the
    sweep's own Rust threads (no Python involved): when those were never faster either (best
    ratio ≥ 0.8), the machine had no second core to give, and the test skips saying so (the
    overlap test above still shows the GIL released). When they were, but Python's threads did
    not reach 0.8 in twelve passes, Python's best ratio must still be within 0.25 of Rust's (and
    below 0.95): threads taking turns at a held GIL would be at 1 or more.
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if cores < 2:
        pytest.skip(f"this machine has {cores} core: two threads cannot run faster than one")
    m = model()
    m.simulate()  # warm up
    two_points = {"contact.normal.damping": [100.0, 100.0]}
    serial, concurrent, rust_serial, rust_threads = [], [], [], []
    for _ in range(12):
        started = time.perf_counter()
        m.simulate()
        m.simulate()
        serial.append(time.perf_counter() - started)
        concurrent.append(on_two_threads(m)[1])
        if len(serial) >= 3 and min(concurrent) < 0.8 * min(serial):
            return
        for jobs, times in ((1, rust_serial), (2, rust_threads)):
            started = time.perf_counter()
            blockdyn.sweep(m, vary=two_points, jobs=jobs)
            times.append(time.perf_counter() - started)
    python_ratio = min(concurrent) / min(serial)
    rust_ratio = min(rust_threads) / min(rust_serial)
    message = (
        f"two Python threads took {min(concurrent):.4f} s at best, one after the other "
        f"{min(serial):.4f} s (ratio {python_ratio:.2f}); the sweep's Rust threads: ratio {rust_ratio:.2f}"
    )
    if rust_ratio >= 0.8:
        pytest.skip(f"the machine gave this process no second core during the test: {message}")
    # Rust's threads ran in parallel: Python's must have done about as well (threads that took
    # turns at a held GIL would show a ratio of 1 or more).
    assert python_ratio < min(0.95, rust_ratio + 0.25), (
        f"Python threads did not run in parallel as Rust's did: {message}"
    )
