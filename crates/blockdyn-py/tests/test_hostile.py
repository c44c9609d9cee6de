"""Hostile and careless inputs (issue 28, part 4): none crashes the interpreter.

The cases that crashed it before run in a child interpreter, so that a crash (a segfault, an
abort) fails the test instead of killing pytest; the child writes nothing (its working
directory is a temporary one).
"""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import blockdyn
from conftest import MODELS

# A child's whole life, s: generous, so that only a hang (never a slow machine) fails a test.
CHILD_TIMEOUT = 300


def run_child(code: str, tmp_path) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter in `tmp_path` (stdout and stderr captured)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT,
        stdin=subprocess.DEVNULL,
    )


def assert_child_printed(done: subprocess.CompletedProcess, expected: str) -> None:
    assert done.returncode == 0, (
        f"the child exited with {done.returncode} (a negative status is a signal: a crash)\n"
        f"stdout: {done.stdout}\nstderr: {done.stderr}"
    )
    assert expected in done.stdout, f"stdout: {done.stdout}\nstderr: {done.stderr}"


def test_self_containing_list_in_set_raises_value_error(tmp_path):
    done = run_child(
        f"""
        import blockdyn
        a = [1.0]
        a.append(a)
        try:
            blockdyn.load({str(MODELS / "ball_drop.toml")!r}, set={{"free.position": a}})
        except ValueError as e:
            print("ValueError:", e)
        """,
        tmp_path,
    )
    assert_child_printed(done, "ValueError: set: 'free.position': the value contains itself")


def test_self_containing_dict_in_builder_add_raises_value_error(tmp_path):
    done = run_child(
        """
        import blockdyn
        d = {}
        d["again"] = [d]
        b = blockdyn.Builder("hostile", 1.0)
        try:
            b.add("g", "Gain", gain=d)
        except ValueError as e:
            print("ValueError:", e)
        """,
        tmp_path,
    )
    assert_child_printed(done, "ValueError: parameter 'gain': the value contains itself")


def test_nesting_10000_deep_in_set_raises_value_error(tmp_path):
    done = run_child(
        f"""
        import blockdyn
        deep = inner = []
        for _ in range(10000):
            inner.append([])
            inner = inner[0]
        try:
            blockdyn.load({str(MODELS / "ball_drop.toml")!r}, set={{"free.position": deep}})
        except ValueError as e:
            print("ValueError:", e)
        """,
        tmp_path,
    )
    assert_child_printed(done, "ValueError: set: 'free.position': the value nests lists")
    assert f"more than {blockdyn._MAX_VALUE_DEPTH} levels deep (the limit)" in done.stdout


def test_nesting_10000_deep_in_builder_add_raises_value_error(tmp_path):
    done = run_child(
        """
        import blockdyn
        deep = inner = {}
        for _ in range(10000):
            inner["k"] = {}
            inner = inner["k"]
        b = blockdyn.Builder("hostile", 1.0)
        try:
            b.add("g", blockdyn.BlockSpec.of_type("Gain"), gain=(deep,))
        except ValueError as e:
            print("ValueError:", e)
        """,
        tmp_path,
    )
    assert_child_printed(done, "ValueError: parameter 'gain': the value nests lists")


def test_nesting_at_the_limit_is_still_a_value():
    # 64 levels are converted (the model then refuses the value as a position, with its own
    # message): the limit is on depth, not on ordinary values.
    deep = 0.0
    for _ in range(blockdyn._MAX_VALUE_DEPTH):
        deep = [deep]
    with pytest.raises(blockdyn.ModelError):
        blockdyn.load(MODELS / "ball_drop.toml", set={"free.position": deep})
    with pytest.raises(ValueError, match="more than 64 levels deep"):
        blockdyn.load(MODELS / "ball_drop.toml", set={"free.position": [deep]})


@pytest.mark.parametrize("kind", ["range", "list", "iterator"])
def test_sweep_over_1e9_points_raises_value_error(tmp_path, kind):
    # In a child: an abort (the old "memory allocation failed") must fail the test, not pytest.
    values = {
        "range": "range(1000)",
        "list": "list(range(1000))",
        "iterator": "iter(range(1000))",
    }[kind]
    done = run_child(
        f"""
        import time
        import blockdyn
        m = blockdyn.load({str(MODELS / "ball_drop.toml")!r})
        vary = {{
            "contact.normal.stiffness": {values},
            "contact.normal.damping": {values},
            "ball.mass": {values},
        }}
        started = time.monotonic()
        try:
            blockdyn.sweep(m, vary)
        except ValueError as e:
            print("ValueError:", e)
        print("seconds:", time.monotonic() - started)
        """,
        tmp_path,
    )
    assert_child_printed(
        done,
        "ValueError: vary: the sweep has 1000000000 points (1000 × 1000 × 1000), more than "
        f"the limit of {blockdyn._MAX_SWEEP_POINTS} points",
    )
    # Refused before anything is built or allocated per point: a fraction of a second (only a
    # bound that catches a sweep that started, not a timing measurement).
    seconds = float(done.stdout.split("seconds:")[1])
    assert seconds < 30


def interrupt_child(code: str, tmp_path):
    """Starts `code` in a child interpreter, waits for its "ready" line, sends SIGINT a second
    later, and returns (exit status, stdout, stderr)."""
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert child.stdout.readline() == "ready\n"
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=CHILD_TIMEOUT)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode, stdout, stderr


@pytest.mark.skipif(os.name != "posix", reason="SIGINT is sent with os.kill (POSIX)")
def test_keyboard_interrupt_during_first_simulate_keeps_the_partial_result(tmp_path):
    # The first simulate of the process (numpy's C API first used when it ends), interrupted
    # after it started: KeyboardInterrupt, with the rows recorded until then as `partial`.
    status, stdout, stderr = interrupt_child(
        f"""
        import blockdyn
        m = blockdyn.load({str(MODELS / "pendulum.toml")!r})
        print("ready", flush=True)
        try:
            r = m.simulate(stop_time=1e5)
            print("finished", len(r), flush=True)
        except KeyboardInterrupt as e:
            print("KeyboardInterrupt rows:", len(e.partial), flush=True)
            print("last time:", e.partial.time[-1], flush=True)
        """,
        tmp_path,
    )
    assert status == 0, f"exit status {status}\nstderr: {stderr}"
    assert "PanicException" not in stderr
    assert "KeyboardInterrupt rows:" in stdout, f"stdout: {stdout}\nstderr: {stderr}"
    rows = int(stdout.split("KeyboardInterrupt rows:")[1].split()[0])
    assert rows > 0
    assert 0 < float(stdout.split("last time:")[1]) < 1e5


@pytest.mark.skipif(os.name != "posix", reason="SIGINT is sent with os.kill (POSIX)")
def test_keyboard_interrupt_during_sweep_stops_it(tmp_path):
    status, stdout, stderr = interrupt_child(
        f"""
        import signal
        import blockdyn
        m = blockdyn.load({str(MODELS / "pendulum.toml")!r})
        print("ready", flush=True)
        try:
            blockdyn.sweep(m, {{"model.stop_time": [1e5, 1e5, 1e5]}}, jobs=2)
            print("finished", flush=True)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
        # After the run, a Ctrl-C is Python's own again.
        try:
            signal.raise_signal(signal.SIGINT)
            print("no second KeyboardInterrupt", flush=True)
        except KeyboardInterrupt:
            print("second KeyboardInterrupt", flush=True)
        """,
        tmp_path,
    )
    assert status == 0, f"exit status {status}\nstderr: {stderr}"
    assert "KeyboardInterrupt\n" in stdout, f"stdout: {stdout}\nstderr: {stderr}"
    assert "second KeyboardInterrupt" in stdout


@pytest.mark.skipif(os.name != "posix", reason="SIGINT is sent with os.kill (POSIX)")
def test_interrupted_sweep_keeps_the_points_that_finished(tmp_path):
    # On one thread, points 0 and 1 (0.01 s each) finish at once; point 2 (1e5 s) is running
    # when Ctrl-C comes: the exception's `partial` holds points 0 and 1, with their values.
    status, stdout, stderr = interrupt_child(
        f"""
        import blockdyn
        m = blockdyn.load({str(MODELS / "pendulum.toml")!r})
        print("ready", flush=True)
        try:
            blockdyn.sweep(m, {{"model.stop_time": [0.01, 0.02, 1e5]}}, jobs=1)
            print("finished", flush=True)
        except KeyboardInterrupt as e:
            print("points:", e.partial.points, flush=True)
            print("ends:", [float(r.time[-1]) for r in e.partial], flush=True)
        """,
        tmp_path,
    )
    assert status == 0, f"exit status {status}\nstderr: {stderr}"
    assert "PanicException" not in stderr
    assert "points: [{'model.stop_time': 0.01}, {'model.stop_time': 0.02}]" in stdout, (
        f"stdout: {stdout}\nstderr: {stderr}"
    )
    # Each finished run ends at its own stop time (the last row is at t = stop_time exactly).
    assert "ends: [0.01, 0.02]" in stdout, stdout
