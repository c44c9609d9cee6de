"""Errors are Python exceptions with the CLI's text and the message's parts as attributes."""

import re

import numpy as np
import pytest

import blockdyn
from conftest import MODELS, read_csv, run_cli


def bad_model(tmp_path):
    """ball_drop.toml with `mass` misspelled: (its path, the 1-based line of the mistake)."""
    lines = (MODELS / "ball_drop.toml").read_text().splitlines(keepends=True)
    k = next(i for i, line in enumerate(lines) if line.startswith("mass = "))
    lines[k] = lines[k].replace("mass = ", "mas = ")
    path = tmp_path / "bad.toml"
    path.write_text("".join(lines))
    return path, k + 1


def test_model_error_fields_and_cli_text(blockdyn_bin, tmp_path):
    path, line = bad_model(tmp_path)
    with pytest.raises(blockdyn.ModelError) as caught:
        blockdyn.load(path)
    e = caught.value
    assert isinstance(e, blockdyn.Error)
    assert e.file == str(path)
    assert (e.line, e.column) == (line, 1)
    assert e.block == "ball"
    assert e.hint == "did you mean 'mass'?"
    assert "unknown parameter 'mas'" in e.message
    done = run_cli(blockdyn_bin, "run", path, "--quiet", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == f"error: {e}\n"


def test_model_error_from_text_names_the_label():
    text = (MODELS / "ball_drop.toml").read_text().replace('type = "Solid"', 'type = "Solidd"')
    with pytest.raises(blockdyn.ModelError) as caught:
        blockdyn.loads(text, name="mine.toml")
    e = caught.value
    assert e.file == "mine.toml" and e.block == "ball" and e.line is not None
    assert e.hint is not None and "Solid" in e.hint
    assert str(e).startswith(f"mine.toml:{e.line}:{e.column}: block 'ball': ")


def test_override_error_is_the_cli_text(blockdyn_bin, tmp_path):
    with pytest.raises(blockdyn.ModelError) as caught:
        blockdyn.load(MODELS / "ball_drop.toml", set={"contact.normal.stifness": 1e6})
    e = caught.value
    assert e.block == "contact" and e.line is None and e.column is None
    assert e.hint == "did you mean 'normal.stiffness'?"
    model = MODELS / "ball_drop.toml"
    done = run_cli(
        blockdyn_bin, "run", model, "--set", "contact.normal.stifness=1000000.0", "--quiet", cwd=tmp_path
    )
    assert done.stderr == f"error: {e}\n"


def test_a_blocks_error_has_its_kind():
    """A problem a block reported carries its kind (the Rust BlockError variant); others None."""
    text = """connect = ["c.out -> sat.in", "sat.out -> s.in1"]
[model]
stop_time = 1.0
[blocks.c]
type = "Constant"
value = [1.0, 2.0]
[blocks.sat]
type = "Saturation"
upper = [1.0, 2.0, 3.0]
[blocks.s]
type = "Scope"
"""
    with pytest.raises(blockdyn.ModelError) as caught:
        blockdyn.loads(text, name="bad.toml")
    e = caught.value
    assert e.kind == "ParamLength" and e.block == "sat" and (e.line, e.column) == (7, 9)
    with pytest.raises(blockdyn.ModelError) as caught:
        blockdyn.load(MODELS / "ball_drop.toml", set={"contact.normal.stifness": 1e6})
    assert caught.value.kind is None


def test_an_unreadable_file_is_a_model_error():
    with pytest.raises(blockdyn.ModelError, match="cannot read model") as caught:
        blockdyn.load(MODELS / "no_such_model.toml")
    assert caught.value.line is None and caught.value.hint is not None


def test_simulation_error_has_the_cli_text_and_the_partial_rows(blockdyn_bin, tmp_path):
    m = blockdyn.load(MODELS / "bouncing_ball.toml")
    with pytest.raises(blockdyn.SimulationError) as caught:
        m.simulate(stop_time=30.0)
    e = caught.value
    assert isinstance(e, blockdyn.Error)
    assert str(e).startswith("chattering at t = ")
    assert e.block == "velocity" and 5.0 < e.time < 30.0
    done = run_cli(
        blockdyn_bin,
        "run",
        MODELS / "bouncing_ball.toml",
        "--stop-time",
        "30",
        "--csv",
        tmp_path / "x.csv",
        "--quiet",
        cwd=tmp_path,
    )
    assert done.returncode == 1
    # The CLI adds a note about the partial CSV it wrote.
    assert done.stderr.startswith(f"error: {e}\n  note: a partial run: ")
    # The rows recorded until the failure are the exception's partial result, as in the CSV.
    header, table = read_csv(tmp_path / "x.csv")
    assert header == ["time"] + e.partial.columns
    np.testing.assert_allclose(e.partial.time, table[:, 0], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(e.partial.values, table[:, 1:], rtol=1e-12, atol=1e-12)
    assert e.partial.stats is None
    assert len(e.partial.events) > 10


def test_a_stalled_run(blockdyn_bin, tmp_path):
    m = blockdyn.load(MODELS / "ball_drop.toml", set={"solver.max_steps": 20})
    with pytest.raises(blockdyn.SimulationError, match=r"the run stalled at t = .*max_steps = 20") as caught:
        m.simulate()
    assert caught.value.block is None and caught.value.time > 0
    done = run_cli(
        blockdyn_bin, "run", MODELS / "ball_drop.toml", "--set", "solver.max_steps=20", "--quiet", cwd=tmp_path
    )
    assert done.stderr.startswith(f"error: {caught.value}\n")


def test_bad_run_options_are_simulation_errors():
    m = blockdyn.load(MODELS / "ball_drop.toml")
    with pytest.raises(blockdyn.SimulationError, match=re.escape("initial_state has 2 values; the model has 13 states")):
        m.simulate(initial_state=[1.0, 2.0])
    with pytest.raises(blockdyn.SimulationError, match="start_time must be 0 or later"):
        m.simulate(start_time=-1.0)
