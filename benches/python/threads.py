"""Two Python threads simulating at once against the same two runs one after the other, and
against the sweep's own Rust threads (issue 15). A measurement, not a test: the ratio depends on
whether the shared machine gives the process a second core at that moment, so no test asserts
it (`crates/blockdyn-py/tests/test_threads.py` checks, whatever the load, that the two threads'
Rust runs overlap, i.e. that a run releases the GIL).

    python benches/python/threads.py [--passes N]

Prints, for each pass, the wall time of two runs one after the other, on two Python threads,
and as a 2-point sweep on one and on two Rust threads; then the best ratios (threads / serial).
Threads that took turns at a held GIL would give a Python ratio of 1 or more.
"""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path

import blockdyn

REPO = Path(__file__).resolve().parents[2]


def on_two_threads(m):
    """The wall time of two runs started together on two threads."""
    barrier = threading.Barrier(2)

    def work():
        barrier.wait()
        m.simulate()

    threads = [threading.Thread(target=work) for _ in range(2)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=12)
    args = parser.parse_args()
    # About 0.05–0.1 s of Rust per run: long next to thread start-up and GIL hand-overs.
    m = blockdyn.load(REPO / "models/ball_drop.toml", set={"model.stop_time": 100.0})
    m.simulate()  # warm up
    two_points = {"contact.normal.damping": [100.0, 100.0]}
    serial, concurrent, rust_serial, rust_threads = [], [], [], []
    for k in range(args.passes):
        started = time.perf_counter()
        m.simulate()
        m.simulate()
        serial.append(time.perf_counter() - started)
        concurrent.append(on_two_threads(m))
        for jobs, times in ((1, rust_serial), (2, rust_threads)):
            started = time.perf_counter()
            blockdyn.sweep(m, vary=two_points, jobs=jobs)
            times.append(time.perf_counter() - started)
        print(
            f"pass {k + 1}: serial {serial[-1]:.4f} s, two Python threads {concurrent[-1]:.4f} s, "
            f"Rust sweep 1 thread {rust_serial[-1]:.4f} s, 2 threads {rust_threads[-1]:.4f} s"
        )
    print(
        f"best ratios (threads / one after the other): Python {min(concurrent) / min(serial):.2f}, "
        f"Rust {min(rust_threads) / min(rust_serial):.2f}"
    )


if __name__ == "__main__":
    main()
