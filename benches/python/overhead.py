"""The Python overhead of one `Model.simulate` call beyond the Rust run (issue 15: <= 20 us).

Each call's Python-side time (time.perf_counter around `m.simulate()`) is paired with the same
call's Rust run (`SimulationResult._run_interval`: Instant::now() around
`blockdyn::simulate_keeping_rows`, inside the call); the difference is what the binding adds:
argument parsing, releasing and taking back the GIL, handing the recording to numpy (no copy),
the result objects. Pairing the two times of one call takes the run's own noise out.

    python benches/python/overhead.py [--calls N] [--model models/ball_drop.toml]

Reported for the whole ball drop (3 s of simulated time), for a run of 1 ms (a few steps), and
for the 1 ms run right after a whole run done in Rust alone: no recorded value is copied, so the
binding's work does not grow with the run, but after a long run the Python side starts with cold
caches (and, on a loaded machine, the thread was likely preempted during the run), which the
third case shows apart from the run's length.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import blockdyn

REPO = Path(__file__).resolve().parents[2]


def overheads(
    m: blockdyn.Model, calls: int, stop_time: float | None, before: float | None = None
) -> tuple[list[float], list[float], list[float]]:
    """(Python-side overhead, Rust run time, conversion time) of each call, s. With `before`,
    each call follows a Rust-only run to that stop time (its caches as a long run leaves them)."""
    extra, runs, conversions = [], [], []
    for _ in range(calls):
        if before is not None:
            m._bench_rust(1, before)
        started = time.perf_counter()
        r = m.simulate(stop_time=stop_time)
        elapsed = time.perf_counter() - started
        t0, t1 = r._run_interval
        extra.append(elapsed - (t1 - t0))
        runs.append(t1 - t0)
        conversions.append(r._conversion_time)
        del r
    return extra, runs, conversions


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls per case (default 2000)")
    parser.add_argument("--model", type=Path, default=REPO / "models" / "ball_drop.toml")
    args = parser.parse_args(argv)
    m = blockdyn.load(args.model)
    print(f"{m.name}: {args.calls} calls per case, Python {sys.version.split()[0]}, blockdyn {blockdyn.__version__}")
    whole = None
    cases = (
        ("whole run", None, None),
        ("1 ms run", 1e-3, None),
        ("1 ms run after a whole run in Rust", 1e-3, m.stop_time),
    )
    for label, stop_time, before in cases:
        overheads(m, 50, stop_time, before)  # warm up
        extra, runs, conversions = overheads(m, args.calls, stop_time, before)
        median = statistics.median(extra)
        if whole is None:
            whole = median
        print(
            f"  {label}: Rust run median {statistics.median(runs) * 1e6:.1f} us; "
            f"Python overhead median {median * 1e6:.2f} us (of which making the result "
            f"{statistics.median(conversions) * 1e6:.2f} us), min {min(extra) * 1e6:.2f} us, "
            f"90th percentile {sorted(extra)[int(0.9 * len(extra))] * 1e6:.2f} us"
        )
    verdict = "met" if whole <= 20e-6 else "NOT met"
    print(f"overhead per simulate call on the whole {m.name}: {whole * 1e6:.2f} us (median; budget 20 us: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
