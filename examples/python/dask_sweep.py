"""A 1,000-point sweep of models/ball_drop.toml on dask.distributed.

The contact's stiffness (40 values, 2e4 .. 2e6 N/m) times its damping (25 values, 5 .. 2000
N·s/m). The points are cut into batches; each Dask task loads the model from its text (sent with
the task: the workers need no shared file system), runs its batch with blockdyn and returns a
few summary numbers per point -- not the recordings -- so little travels back.

The same code runs on a LocalCluster of worker processes on this machine (the default) and on a
real cluster (``--scheduler tcp://HOST:8786``, workers started there with ``dask worker`` and the
blockdyn package installed). Dask schedules; blockdyn builds no scheduler of its own.

    python examples/python/dask_sweep.py                      # 1,000 points, 2 local workers
    python examples/python/dask_sweep.py --workers 4 --points 200
    python examples/python/dask_sweep.py --scheduler tcp://head:8786
    python examples/python/dask_sweep.py --compare --passes 5  # throughput: 2 workers vs 1
    python examples/python/dask_sweep.py --points 40 --check   # every point == a serial run

Needs ``pip install "dask[distributed]"`` besides blockdyn.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import math
import statistics
import sys
import time
from pathlib import Path

import blockdyn

MODEL = Path(__file__).resolve().parents[2] / "models" / "ball_drop.toml"


def grid(n_points: int) -> list[tuple[int, float, float]]:
    """The first ``n_points`` of stiffness × damping (damping fastest): (index, k, c)."""
    n_damping = min(25, n_points)
    n_stiffness = math.ceil(n_points / n_damping)
    stiffness = [2e4 * 100 ** (i / max(1, n_stiffness - 1)) for i in range(n_stiffness)]
    damping = [5 * 400 ** (j / max(1, n_damping - 1)) for j in range(n_damping)]
    points = [(k, c) for k in stiffness for c in damping][:n_points]
    return [(i, k, c) for i, (k, c) in enumerate(points)]


def run_point(model: blockdyn.Model, k: float, c: float) -> dict:
    """One point's summary: the solver's counts, the first rebound's apex, the rest height."""
    try:
        r = model.variant({"contact.normal.stiffness": k, "contact.normal.damping": c}).simulate()
    except blockdyn.SimulationError as e:
        return {"status": "failed", "message": str(e).splitlines()[0]}
    z = r["free.p[2]"]
    contacts = [e.time for e in r.events]
    # The apex between the first and the second contact event (the end of the first contact).
    after = (r.time > contacts[1]) if len(contacts) > 1 else (r.time > r.time[-1])
    return {
        "status": "ok",
        "steps": r.stats.steps,
        "events": len(contacts),
        "first_contact": contacts[0] if contacts else None,
        "apex": float(z[after].max()) if after.any() else None,
        "final_z": float(z[-1]),
    }


def run_batch(model_text: str, batch: list[tuple[int, float, float]]) -> list[tuple[int, dict]]:
    """A Dask task: load the model once, run each point of the batch."""
    model = blockdyn.loads(model_text, name="ball_drop.toml")
    return [(i, run_point(model, k, c)) for i, k, c in batch]


def sweep_on(client, model_text: str, points, batch_size: int) -> list[dict]:
    """Runs every point on the client's cluster; the summaries in point order."""
    batches = [points[i : i + batch_size] for i in range(0, len(points), batch_size)]
    # Send the model's text to the workers once rather than pickled into every task (hash=False:
    # a new key each sweep, so that the last sweep's release cannot take it away).
    [text] = client.scatter([model_text], broadcast=True, hash=False)
    futures = client.map(run_batch, [text] * len(batches), batches, pure=False)
    summaries: list[dict | None] = [None] * len(points)
    for done in client.gather(futures):
        for i, summary in done:
            summaries[i] = summary
    return summaries  # type: ignore[return-value]


@contextlib.contextmanager
def local_client(workers: int):
    """A client of a LocalCluster of `workers` processes; leaving the `with` closes both."""
    from dask.distributed import Client, LocalCluster

    # One thread per worker process: a point is one Rust run, and the processes are the parallelism.
    with LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as cluster, Client(cluster) as client:
        yield client


def timed_passes(client, model_text: str, points, batch_size: int, passes: int) -> list[float]:
    """Points per second of each pass (after a warm-up batch that imports blockdyn everywhere)."""
    sweep_on(client, model_text, points[: 2 * len(client.scheduler_info()["workers"])], 1)
    rates = []
    for _ in range(passes):
        started = time.perf_counter()
        sweep_on(client, model_text, points, batch_size)
        rates.append(len(points) / (time.perf_counter() - started))
    return rates


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=1000, help="points of the sweep (default 1000)")
    parser.add_argument("--workers", type=int, default=2, help="local worker processes (default 2)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="a running cluster's scheduler, e.g. tcp://head:8786")
    parser.add_argument("--batch", type=int, default=20, help="points per task (default 20)")
    parser.add_argument("--passes", type=int, default=1, help="time this many passes, report each and the median")
    parser.add_argument("--compare", action="store_true", help="throughput on 1 local worker, then on --workers")
    parser.add_argument("--check", action="store_true", help="check every point against a serial run here")
    args = parser.parse_args(argv)

    model_text = MODEL.read_text()
    points = grid(args.points)

    if args.compare:
        medians = {}
        for workers in (1, args.workers):
            with local_client(workers) as client:
                rates = timed_passes(client, model_text, points, args.batch, args.passes)
            medians[workers] = statistics.median(rates)
            print(f"{workers} worker(s): " + ", ".join(f"{r:.0f}" for r in rates) + f" points/s; median {medians[workers]:.0f}")
        ratio = medians[args.workers] / medians[1]
        print(f"throughput of {args.workers} workers: {ratio:.2f}x one worker ({len(points)} points, median of {args.passes} passes)")
        return 0

    if args.scheduler:
        from dask.distributed import Client

        client = Client(args.scheduler)
    else:
        client = local_client(args.workers)
    with client as client:
        started = time.perf_counter()
        summaries = sweep_on(client, model_text, points, args.batch)
        elapsed = time.perf_counter() - started
        workers = len(client.scheduler_info()["workers"])
    failed = sum(s["status"] != "ok" for s in summaries)
    print(f"{len(points)} points on {workers} workers in {elapsed:.2f} s ({len(points) / elapsed:.0f} points/s); {failed} failed")
    ok = [(p, s) for p, s in zip(points, summaries) if s["status"] == "ok"]
    if ok:
        (_, k, c), best = max(ok, key=lambda ps: ps[1]["apex"] or 0.0)
        print(f"highest first rebound: {best['apex']:.4f} m at stiffness {k:.3g} N/m, damping {c:.3g} N·s/m")

    if args.check:
        model = blockdyn.loads(model_text, name="ball_drop.toml")
        for (i, k, c), summary in zip(points, summaries):
            here = run_point(model, k, c)
            if here != summary:
                print(f"point {i} differs: on the cluster {summary}, here {here}", file=sys.stderr)
                return 1
        print(f"check: all {len(points)} points equal serial runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
