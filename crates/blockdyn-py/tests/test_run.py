"""Loading and running models: the numpy results against the CLI's CSV, results without
copies, events, options."""

import numpy as np
import pytest

import blockdyn
from conftest import MODELS, read_csv, run_cli

# Models with mechanisms, contact, signal blocks, resets and a stiff solver.
CASES = [
    ("ball_drop.toml", {"contact.normal.stiffness": 1e6}, 2.0),
    ("ball_drop.toml", {}, None),
    ("bouncing_ball.toml", {}, None),
    ("mass_spring_damper.toml", {}, None),
    ("pendulum.toml", {"solver.rel_tol": 1e-8}, 3.0),
    ("four_bar.toml", {}, 1.0),
    # Subsystems (a leg file used four times; a variable of one instance set) and arrays.
    ("quadruped_legs.toml", {"fl.kp": 120.0}, 0.3),
    ("dominoes.toml", {}, 0.2),
]


@pytest.mark.parametrize("model, overrides, stop_time", CASES)
def test_columns_equal_the_cli_csv(blockdyn_bin, tmp_path, model, overrides, stop_time):
    m = blockdyn.load(MODELS / model, set=overrides)
    r = m.simulate(stop_time=stop_time)

    args = ["run", MODELS / model, "--csv", tmp_path / "x.csv", "--quiet"]
    for path, value in overrides.items():
        args += ["--set", f"{path}={value!r}"]
    if stop_time is not None:
        args += ["--stop-time", stop_time]
    done = run_cli(blockdyn_bin, *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    header, table = read_csv(tmp_path / "x.csv")

    assert header == ["time"] + r.columns
    assert r.columns == m.columns
    assert table.shape == (len(r), len(r.columns) + 1)
    np.testing.assert_allclose(r.time, table[:, 0], rtol=1e-12, atol=1e-12)
    for j, name in enumerate(r.columns):
        np.testing.assert_allclose(r[name], table[:, j + 1], rtol=1e-12, atol=1e-12, err_msg=name)
    np.testing.assert_allclose(r.values, table[:, 1:], rtol=1e-12, atol=1e-12)


def test_arrays_are_the_recording_not_copies():
    r = blockdyn.load(MODELS / "ball_drop.toml").simulate()
    z = r["free.p[2]"]
    assert r.time.dtype == np.float64 and r.time.ndim == 1
    assert r.values.shape == (len(r.time), len(r.columns))
    assert r.values.flags.c_contiguous
    # A column is a strided view into the one 2-D array, not a copy.
    assert np.shares_memory(z, r.values)
    assert z.strides == (8 * len(r.columns),)
    assert r["time"] is not None and np.shares_memory(r["time"], r.time)
    # The same memory every time it is asked for.
    assert r.values.__array_interface__["data"] == r.values.__array_interface__["data"]
    assert "free.p[2]" in r and "nope" not in r
    with pytest.raises(KeyError, match=r"did you mean 'free.p\[2\]'"):
        r["free.p[9]"]


def test_stats_units_final_state_and_repr():
    m = blockdyn.load(MODELS / "ball_drop.toml")
    r = m.simulate()
    assert r.stats.steps > 0 and r.stats.final_time == pytest.approx(m.stop_time)
    assert r.stats.zero_crossings > 0
    assert r.stats.as_dict()["steps"] == r.stats.steps
    assert r.units["free.p[2]"] == "m"
    assert r.final_state.shape == (m.num_states,)
    assert "rows" in repr(r) and "ball_drop" in repr(m)
    assert m.path.endswith("ball_drop.toml") and m.name == "ball_drop"


def test_events_are_the_bouncing_balls_impacts():
    """The bouncing ball (h0 = 10 m, g = 9.81, e = 0.8): impact k at t0 + Σ 2·e^j·v0/g."""
    r = blockdyn.load(MODELS / "bouncing_ball.toml").simulate()
    g, h0, e = 9.81, 10.0, 0.8
    t0 = (2 * h0 / g) ** 0.5
    v0 = g * t0
    expected = [t0]
    while True:
        nxt = expected[-1] + 2 * e ** len(expected) * v0 / g
        if nxt > 5.0 or len(expected) >= 20:
            break
        expected.append(nxt)
    assert [ev.block for ev in r.events] == ["velocity"] * len(expected)
    np.testing.assert_allclose([ev.time for ev in r.events], expected, atol=1e-6)
    time, block = r.events[0]
    assert (time, block) == (r.events[0].time, "velocity")
    assert r.events_dropped == 0
    assert r.stats.zero_crossings == len(r.events)


def test_events_of_the_ball_drop_name_the_contact():
    r = blockdyn.load(MODELS / "ball_drop.toml").simulate()
    assert r.events and all(ev.block == "contact" for ev in r.events)
    times = [ev.time for ev in r.events]
    assert times == sorted(times)
    # First touch: the centre at 0.1 m after falling 0.9 m.
    assert times[0] == pytest.approx((2 * 0.9 / 9.81) ** 0.5, abs=1e-6)


def test_start_time_and_initial_state_continue_a_run():
    m = blockdyn.load(MODELS / "mass_spring_damper.toml")
    first = m.simulate(stop_time=1.0)
    rest = m.simulate(start_time=1.0, initial_state=first.final_state, stop_time=2.0)
    assert rest.time[0] == 1.0 and rest.time[-1] == 2.0
    np.testing.assert_allclose(rest.values[0], first.values[-1], rtol=1e-9, atol=1e-12)
    # A list works as well as an array.
    again = m.simulate(start_time=1.0, initial_state=list(first.final_state), stop_time=2.0)
    np.testing.assert_array_equal(again.values, rest.values)


def test_set_as_strings_and_variants():
    m = blockdyn.load(MODELS / "ball_drop.toml", set=["contact.normal.stiffness=2e5"])
    assert m.overrides == ["contact.normal.stiffness=2e5"]
    same = blockdyn.load(MODELS / "ball_drop.toml", set={"contact.normal.stiffness": 2e5})
    np.testing.assert_array_equal(m.simulate().values, same.simulate().values)
    v = blockdyn.load(MODELS / "ball_drop.toml").variant({"contact.normal.stiffness": 2e5})
    np.testing.assert_array_equal(v.simulate().values, same.simulate().values)
    # Python values of every kind: a list, a string, a bool.
    w = m.variant({"free.position": [0, 0, 2], "solver.method": "trbdf2", "contact.zero_crossings": True})
    r = w.simulate(stop_time=0.1)
    assert r["free.p[2]"][0] == 2.0
    # The string and the bool took effect: trbdf2 forms Jacobians (dopri5 never does), and the
    # overrides were written as TOML's string and boolean.
    assert r.stats.jacobian_evaluations > 0
    assert any(o.startswith("solver.method=") and '"trbdf2"' in o for o in w.overrides)
    assert "contact.zero_crossings=true" in w.overrides


def test_auto_reports_its_switches():
    # ball_drop's contact turns stiff when it comes to rest: auto switches to its implicit method.
    r = blockdyn.load(MODELS / "ball_drop.toml", set={"solver.method": "auto"}).simulate()
    s = r.stats
    assert s.method_switches >= 1
    assert s.explicit_steps + s.implicit_steps == s.steps and s.implicit_steps > 0
    assert s.as_dict()["method_switches"] == s.method_switches


def test_loads_from_text():
    text = (MODELS / "ball_drop.toml").read_text()
    m = blockdyn.loads(text, name="ball.toml")
    assert m.path is None and m.source == text
    np.testing.assert_array_equal(
        m.simulate().values, blockdyn.load(MODELS / "ball_drop.toml").simulate().values
    )


def test_to_pandas():
    pd = pytest.importorskip("pandas", reason="pandas is not installed: to_pandas is not tested")
    r = blockdyn.load(MODELS / "ball_drop.toml").simulate(stop_time=1.0)
    df = r.to_pandas()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == ["time"] + r.columns
    np.testing.assert_array_equal(df["free.p[2]"].to_numpy(), r["free.p[2]"])
    np.testing.assert_array_equal(df["time"].to_numpy(), r.time)
