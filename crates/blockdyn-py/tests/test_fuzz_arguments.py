"""Generative fuzzing of the Python API's arguments (issue 28, part 6): values for ``set=``,
``Builder.add`` parameters, ``sweep`` plans and ``simulate`` options, drawn with a fixed seed
from a pool of hostile values — non-finite and huge numbers, wrong types, self-referential and
65-deep lists and dicts, numpy arrays of every shape and dtype, iterators, plans of 10⁹ points.

Every call must return, or raise ``blockdyn.Error`` (a model or simulation error), ``ValueError``,
``TypeError`` or ``OverflowError``: anything else (a Rust panic, a ``RecursionError``, a crash)
fails. The cases run in a child interpreter, so that a crash fails the test instead of killing
pytest; the child's working directory is a temporary one, and it writes nothing. About 3 s.

Time cap: the child announces each case (``CASE k: name args``) before running it, and arms
``faulthandler.dump_traceback_later(CASE_CAP, exit=True)``, which ends the child from a watchdog
thread (also inside Rust code) when the case runs past ``CASE_CAP``; the whole child is killed past
``TOTAL_CAP``. Either fails the test naming the case, its seed and its arguments, instead of hanging
CI. These are hang guards, not performance limits: a case takes about 10 ms."""

import re
import subprocess
import sys
import textwrap

from conftest import MODELS

# Cases per run, and the fixed seed: CI runs the same cases every time.
CASES = 300
SEED = 28
# A case past this many seconds ends the child; the child is killed past the total (hang guards).
CASE_CAP = 60
TOTAL_CAP = 600

CHILD = """
import faulthandler, itertools, math, random, sys
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
        return "load", f"set={{{key!r}: {v!r}}}", lambda: blockdyn.load(MODEL, set={key: v})
    if kind == 1:
        key = rng.choice(["gain", "value", "initial", "x"])
        params = {key: value(key)}
        # Drawn here (the same order as when the call drew it), so that skipping a case keeps
        # the draws of the next ones.
        kind = rng.choice(["Gain", "Constant", "Integrator", "Nope"])
        def add():
            b = blockdyn.Builder("fuzz", 0.01)
            b.add("g", kind, **params)
            b.build()
        return "add", f"{kind} params={params!r}", add
    if kind == 2:
        keys = rng.sample(PATHS[:6], rng.randrange(1, 4))
        if rng.random() < 0.2:
            vary = {k: range(1000) for k in keys + ["contact.normal.damping"]}
        else:
            vary = {k: [value(k) for _ in range(rng.randrange(0, 3))] for k in keys}
        errors = rng.choice(["raise", "keep"])
        return "sweep", f"vary={vary!r}, errors={errors!r}", lambda: blockdyn.sweep(model, vary, jobs=1, errors=errors)
    if kind == 3:
        v = value()
        return "set", f"set={v!r}", lambda: blockdyn.load(MODEL, set=v)
    key = rng.choice(["stop_time", "max_steps", "rel_tol"])
    options = {key: value(key)}
    return "simulate", f"{options!r}", lambda: model.simulate(**options)

counts = {}
for k in range(CASES):
    if ONLY is not None and k != ONLY:
        case(k)  # drawn all the same, so that case ONLY gets its own values
        continue
    name, args, call = case(k)
    if HANG:
        # The cap's own test: a case that never ends in time.
        import time
        call = lambda: time.sleep(3600)
    print(f"CASE {k}: {name} {args}"[:500], flush=True)
    faulthandler.dump_traceback_later(CASE_CAP, exit=True)
    try:
        call()
        outcome = "returned"
    except ACCEPTED as e:
        outcome = type(e).__name__
    except BaseException as e:
        print(f"UNEXPECTED case {k} ({name}): {type(e).__name__}: {e}", flush=True)
        sys.exit(1)
    finally:
        faulthandler.cancel_dump_traceback_later()
    counts[outcome] = counts.get(outcome, 0) + 1
print("outcomes:", sorted(counts.items()), flush=True)
"""


def run_child(tmp_path, cases=CASES, only=None, case_cap=CASE_CAP, total_cap=TOTAL_CAP, hang=False):
    """Runs the child over the first `cases` cases (only case `only` when given; each case a
    sleep of an hour when `hang`); returns (exit status, stdout, stderr), or fails the test
    naming the last case announced when the child passes `total_cap`."""
    code = (
        f"SEED = {SEED}\nCASES = {cases}\nONLY = {only!r}\nCASE_CAP = {case_cap}\nHANG = {hang}\n"
        f"MODEL = {str(MODELS / 'ball_drop.toml')!r}\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code + textwrap.dedent(CHILD)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=total_cap,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        raise AssertionError(
            f"the fuzz passed its total cap of {total_cap} s (seed {SEED}) during "
            f"{last_case(out)}"
        ) from None
    return done.returncode, done.stdout, done.stderr


def last_case(stdout):
    """The last `CASE k: ...` line the child printed (the case running when it ended)."""
    lines = [l for l in stdout.splitlines() if l.startswith("CASE ")]
    return lines[-1] if lines else "no case (the child did not start one)"


def test_hostile_python_arguments_return_or_raise_a_documented_error(tmp_path):
    status, stdout, stderr = run_child(tmp_path)
    assert status == 0, (
        f"exit status {status} (negative: a signal, a crash; 1 with a traceback of every thread: "
        f"a case past {CASE_CAP} s) in {last_case(stdout)} (seed {SEED}: run_child(tmp_path, "
        f"only=K) runs case K alone)\nstdout: {stdout[-3000:]}\nstderr: {stderr[-3000:]}"
    )
    assert "PanicException" not in stderr
    assert "outcomes:" in stdout
    # Both returns and refusals are common, or the fuzz would test one side only.
    outcomes = dict(eval(stdout.split("outcomes:")[1]))
    assert outcomes.get("returned", 0) >= CASES // 20, outcomes
    assert sum(outcomes.values()) - outcomes.get("returned", 0) >= CASES // 5, outcomes
    assert list(tmp_path.iterdir()) == []


def test_a_fuzz_case_past_its_cap_ends_the_child_and_is_named(tmp_path):
    # A case that sleeps for an hour under a cap of 1 s: the watchdog ends the child (exit status
    # 1, the tracebacks on stderr) and the case it ran is the last one announced. No clock limit
    # is asserted of the code under test.
    status, stdout, stderr = run_child(tmp_path, cases=1, case_cap=1, hang=True)
    assert status == 1, (status, stdout, stderr)
    assert last_case(stdout).startswith("CASE 0: "), stdout
    assert "Timeout (0:00:01)!" in stderr, stderr
    assert "outcomes:" not in stdout


def test_a_fuzz_case_replays_alone_with_its_values(tmp_path):
    # Case K alone is drawn with the same values as in the whole run (the draws of the cases
    # before it are made and skipped).
    _, whole, _ = run_child(tmp_path, cases=40)
    status, alone, stderr = run_child(tmp_path, cases=40, only=37)
    assert status == 0, stderr
    # Object addresses (`<object object at 0x...>`) differ between processes.
    def cases(out):
        return [re.sub(r" at 0x[0-9a-f]+", "", l) for l in out.splitlines() if l.startswith("CASE ")]

    case_37 = [l for l in cases(whole) if l.startswith("CASE 37: ")]
    assert case_37 and cases(alone) == case_37
