"""Generative fuzzing of the Python API's arguments (issue 28, part 6): values for ``set=``,
``Builder.add`` parameters, ``sweep`` plans and ``simulate`` options, drawn with a fixed seed
from a pool of hostile values — non-finite and huge numbers, wrong types, self-referential and
65-deep lists and dicts, numpy arrays of every shape and dtype, iterators, plans of 10⁹ points.

Every call must return, or raise ``blockdyn.Error`` (a model or simulation error), ``ValueError``,
``TypeError`` or ``OverflowError``: anything else (a Rust panic, a ``RecursionError``, a crash)
fails. The cases run in a child interpreter, so that a crash fails the test instead of killing
pytest; the child's working directory is a temporary one, and it writes nothing. About 3 s."""

import subprocess
import sys
import textwrap

from conftest import MODELS

# Cases per run, and the fixed seed: CI runs the same cases every time.
CASES = 300
SEED = 28

CHILD = """
import itertools, math, random, sys
import numpy as np
import blockdyn

rng = random.Random(SEED)
ACCEPTED = (blockdyn.Error, ValueError, TypeError, OverflowError)
model = blockdyn.load(MODEL, set={"model.stop_time": 0.01})

def deep(n):
    v = [1.0]
    for _ in range(n):
        v = [v]
    return v

def self_list():
    a = [1.0, 2.0]
    a.append(a)
    return a

def self_dict():
    d = {"method": "linear_spring_damper"}
    d["again"] = d
    return d

SCALARS = [0, -0.0, 1.0, -1.0, 1e308, -1e308, 5e-324, math.nan, math.inf, -math.inf, 2**70,
           -2**63, True, None, "", "x", "1e5", b"bytes", 1j, object()]
MAKERS = [
    lambda: rng.choice(SCALARS),
    lambda: [rng.choice(SCALARS) for _ in range(rng.randrange(4))],
    lambda: [0.0, 0.0, rng.choice(SCALARS)],
    lambda: deep(rng.choice([2, 63, 64, 65, 200])),
    self_list,
    self_dict,
    lambda: {"method": "linear_spring_damper", "stiffness": rng.choice(SCALARS), "damping": 1.0},
    lambda: {rng.choice(SCALARS) if rng.random() < 0.3 else "k": 1.0},
    lambda: np.zeros(rng.choice([0, 1, 3, (3, 3), (2, 0), (1, 1, 3)])),
    lambda: np.array(["a", "b"]),
    lambda: np.array([1.0, math.nan]),
    lambda: np.array(object()),
    lambda: iter([1.0, 2.0, 3.0]),
    lambda: (x for x in range(3)),
    lambda: range(rng.choice([0, 3, 10**12])),
]
PATHS = ["free.position", "contact.normal.stiffness", "contact.normal", "ball.mass",
         "model.stop_time", "solver.rel_tol", "nosuch.x", "", "free", "contact.normal.stiffness.x"]

# Values each path takes, so that a good share of the calls run (the fuzz tests both sides).
SANE = {"free.position": [0.0, 0.0, 0.5], "contact.normal.stiffness": 2e5, "ball.mass": 2.0,
        "model.stop_time": 0.02, "solver.rel_tol": 1e-5, "gain": 2.0, "value": 1.0,
        "initial": 0.5, "stop_time": 0.005, "max_steps": 1000, "rel_tol": 1e-4,
        "contact.normal": {"method": "linear_spring_damper", "stiffness": 1e5, "damping": 10.0}}

def value(path=None):
    if path in SANE and rng.random() < 0.5:
        return SANE[path]
    return rng.choice(MAKERS)()

def case(k):
    kind = rng.randrange(5)
    if kind == 0:
        key = rng.choice(PATHS) if rng.random() < 0.9 else rng.choice(SCALARS)
        v = value(key)
        return "load", lambda: blockdyn.load(MODEL, set={key: v})
    if kind == 1:
        key = rng.choice(["gain", "value", "initial", "x"])
        params = {key: value(key)}
        def add():
            b = blockdyn.Builder("fuzz", 0.01)
            b.add("g", rng.choice(["Gain", "Constant", "Integrator", "Nope"]), **params)
            b.build()
        return "add", add
    if kind == 2:
        keys = rng.sample(PATHS[:6], rng.randrange(1, 4))
        if rng.random() < 0.2:
            vary = {k: range(1000) for k in keys + ["contact.normal.damping"]}
        else:
            vary = {k: [value(k) for _ in range(rng.randrange(0, 3))] for k in keys}
        return "sweep", lambda: blockdyn.sweep(model, vary, jobs=1, errors=rng.choice(["raise", "keep"]))
    if kind == 3:
        return "set", lambda: blockdyn.load(MODEL, set=value())
    key = rng.choice(["stop_time", "max_steps", "rel_tol"])
    options = {key: value(key)}
    return "simulate", lambda: model.simulate(**options)

counts = {}
for k in range(CASES):
    name, call = case(k)
    try:
        call()
        outcome = "returned"
    except ACCEPTED as e:
        outcome = type(e).__name__
    except BaseException as e:
        print(f"UNEXPECTED case {k} ({name}): {type(e).__name__}: {e}", flush=True)
        sys.exit(1)
    counts[outcome] = counts.get(outcome, 0) + 1
print("outcomes:", sorted(counts.items()), flush=True)
"""


def test_hostile_python_arguments_return_or_raise_a_documented_error(tmp_path):
    code = f"SEED = {SEED}\nCASES = {CASES}\nMODEL = {str(MODELS / 'ball_drop.toml')!r}\n"
    done = subprocess.run(
        [sys.executable, "-c", code + textwrap.dedent(CHILD)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, (
        f"exit status {done.returncode} (negative: a signal, a crash)\n"
        f"stdout: {done.stdout}\nstderr: {done.stderr[-3000:]}"
    )
    assert "PanicException" not in done.stderr
    assert "outcomes:" in done.stdout
    # Both returns and refusals are common, or the fuzz would test one side only.
    outcomes = dict(eval(done.stdout.split("outcomes:")[1]))
    assert outcomes.get("returned", 0) >= CASES // 20, outcomes
    assert sum(outcomes.values()) - outcomes.get("returned", 0) >= CASES // 5, outcomes
    assert list(tmp_path.iterdir()) == []
