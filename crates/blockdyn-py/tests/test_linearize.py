"""blockdyn.linearize: numpy arrays of the closed forms (the Rust tests, tests/linearize.rs, check
the same physics more widely; these check what Python gets)."""

import math
import pathlib

import numpy as np
import pytest

import blockdyn

MODELS = pathlib.Path(__file__).resolve().parents[3] / "models"
G = 9.81


def test_the_cart_pole_about_the_upright_gives_the_textbook_matrices_as_numpy_arrays():
    # M = 1 kg cart, m = 0.1 kg point mass at l = 0.5 m; the controller off, the pole upright.
    model = blockdyn.load(
        MODELS / "cart_pole.toml",
        set={"hinge.q0": 0.0, "controller.gain": [[0.0, 0.0, 0.0, 0.0]]},
    )
    lin = blockdyn.linearize(model, ["rail.t"], ["rail.q", "hinge.q"])
    assert lin["states"] == ["rail.q[0]", "hinge.q[0]", "rail.v[0]", "hinge.v[0]"]
    assert lin["inputs"] == ["rail.t"] and lin["outputs"] == ["rail.q", "hinge.q"]
    for name, shape in [("A", (4, 4)), ("B", (4, 1)), ("C", (2, 4)), ("D", (2, 1))]:
        assert isinstance(lin[name], np.ndarray) and lin[name].dtype == np.float64
        assert lin[name].shape == shape
    big_m, m, l = 1.0, 0.1, 0.5
    a = np.zeros((4, 4))
    a[0, 2] = a[1, 3] = 1.0
    a[2, 1] = m * G / big_m
    a[3, 1] = (big_m + m) * G / (big_m * l)
    b = np.array([[0.0], [0.0], [1.0 / big_m], [1.0 / (big_m * l)]])
    # Central differences: errors near 1e-10 for entries of order 10 (docs/linearize.md).
    np.testing.assert_allclose(lin["A"], a, rtol=0, atol=1e-8)
    np.testing.assert_allclose(lin["B"], b, rtol=0, atol=1e-8)
    np.testing.assert_allclose(lin["C"], np.eye(2, 4), rtol=0, atol=1e-8)
    np.testing.assert_array_equal(lin["x"], np.zeros(4))
    assert lin["t"] == 0.0 and lin["warnings"] == []


def test_a_state_space_block_returns_its_own_matrices_exactly():
    model = blockdyn.loads(
        """
connect = ["zero.out -> ss.in"]
[model]
stop_time = 1.0
[blocks.zero]
type = "Constant"
value = [0.0, 0.0]
[blocks.ss]
type = "StateSpace"
A = [[-0.3, 1.7], [-2.9, -0.45]]
B = [[0.6, 0.1], [-1.1, 0.25]]
C = [[0.35, -2.2]]
D = [[0.7, -0.05]]
"""
    )
    lin = blockdyn.linearize(model, inputs=["ss.in"], outputs=["ss.out"])
    assert lin["inputs"] == ["ss.in[0]", "ss.in[1]"]
    np.testing.assert_array_equal(lin["A"], [[-0.3, 1.7], [-2.9, -0.45]])
    np.testing.assert_array_equal(lin["B"], [[0.6, 0.1], [-1.1, 0.25]])
    np.testing.assert_array_equal(lin["C"], [[0.35, -2.2]])
    np.testing.assert_array_equal(lin["D"], [[0.7, -0.05]])


def test_unknown_names_and_times_raise_model_errors():
    model = blockdyn.load(MODELS / "cart_pole.toml")
    with pytest.raises(blockdyn.ModelError) as e:
        blockdyn.linearize(model, ["rail.tt"], [])
    assert "did you mean 'rail.t'?" in str(e.value)
    assert e.value.block == "rail" and e.value.line is not None
    with pytest.raises(blockdyn.ModelError, match="stop time"):
        blockdyn.linearize(model, [], [], at=model.stop_time + 1.0)


def test_the_operating_point_at_t_is_where_the_run_is():
    model = blockdyn.load(MODELS / "cart_pole.toml")
    run = model.simulate(stop_time=0.5)
    lin = blockdyn.linearize(model, [], ["hinge.q"], at=0.5)
    # The same run, unfused: equal up to round-off far below the solver's tolerance 1e-8.
    np.testing.assert_allclose(lin["x"], run.final_state, rtol=0, atol=1e-8)
    assert lin["y"][0] == pytest.approx(lin["x"][1], abs=1e-15)
    assert math.isfinite(lin["error_estimate"])


def test_trim_holds_a_pendulum_at_an_angle():
    # The torque that holds the pendulum at θ0 balances gravity: u = m·g·l·sin θ0 (to 1e-8;
    # tests/trim.rs has the same model in Rust).
    m, l, theta = 1.3, 0.7, 0.4
    text = f"""
connect = ["world.W -- hinge.B", "hinge.F -- rod.B", "rod.F -- bob.R", "zero.out -> hinge.t"]
[model]
stop_time = 1.0
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, -9.81, 0.0]
[blocks.hinge]
type = "RevoluteJoint"
actuation = "input"
q0 = {theta}
[blocks.rod]
type = "RigidTransform"
translation = [0.0, -{l}, 0.0]
[blocks.bob]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.01 }}
mass = {m}
inertia = [0.0, 0.0, 0.0]
[blocks.zero]
type = "Constant"
value = 0.0
"""
    model = blockdyn.loads(text, name="pendulum.toml")
    t = blockdyn.trim(model, free_inputs=["hinge.t"], fixed_states=["hinge.q[0]"])
    assert t["states"] == ["hinge.q[0]", "hinge.v[0]"]
    assert abs(t["u"][0] - m * 9.81 * l * math.sin(theta)) < 1e-8
    with pytest.raises(blockdyn.ModelError, match="did not converge"):
        blockdyn.trim(model, inputs=["hinge.t"], fixed_states=["hinge.q[0]"])
