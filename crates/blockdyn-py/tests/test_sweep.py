"""blockdyn.sweep: threaded sweeps equal serial runs, bit for bit; errors before and after runs."""

import numpy as np
import pytest

import blockdyn
from conftest import MODELS

VARY = {"contact.normal.stiffness": [5e4, 1e5, 2e5], "contact.normal.damping": [10, 100, 1000]}


def assert_same_run(a, b):
    assert a.columns == b.columns
    np.testing.assert_array_equal(a.time, b.time)
    np.testing.assert_array_equal(a.values, b.values)
    np.testing.assert_array_equal(a.final_state, b.final_state)
    assert [(e.time, e.block) for e in a.events] == [(e.time, e.block) for e in b.events]
    assert a.stats.steps == b.stats.steps


def test_a_threaded_sweep_equals_serial_runs():
    m = blockdyn.load(MODELS / "ball_drop.toml", set={"solver.rel_tol": 1e-7})
    s = blockdyn.sweep(m, vary=VARY, jobs=4)
    assert len(s) == 9 and len(s.points) == 9
    # The last key varies fastest.
    assert s.points[1] == {"contact.normal.stiffness": 5e4, "contact.normal.damping": 100}
    assert s.points[3] == {"contact.normal.stiffness": 1e5, "contact.normal.damping": 10}
    for point, r in zip(s.points, s):
        # The model's own overrides stay; the point's come after them.
        assert_same_run(r, m.variant(point).simulate())
    for a, b in zip(s, blockdyn.sweep(m, vary=VARY, jobs=1)):
        assert_same_run(a, b)


def test_the_issues_example_and_fixed_overrides():
    m = blockdyn.load(MODELS / "ball_drop.toml")
    s = blockdyn.sweep(m, vary={"contact.normal.damping": [10, 100, 1000]}, set={"model.stop_time": 1.0}, jobs=4)
    assert [p["contact.normal.damping"] for p in s.points] == [10, 100, 1000]
    for point, r in zip(s.points, s.results):
        assert r.time[-1] == 1.0
        assert_same_run(r, m.variant({"model.stop_time": 1.0, **point}).simulate())
    rows = s.summary()
    assert rows[0]["status"] == "ok" and rows[0]["free.p[2]"] == s[0]["free.p[2]"][-1]


def test_a_bad_point_is_reported_before_any_run():
    m = blockdyn.load(MODELS / "ball_drop.toml")
    with pytest.raises(blockdyn.ModelError) as caught:
        blockdyn.sweep(m, vary={"contact.normal.stifness": [1e5, 2e5]})
    e = caught.value
    assert e.block == "contact" and e.hint == "did you mean 'normal.stiffness'?"
    assert "--vary 'contact.normal.stifness=100000.0'" in str(e)
    assert "note: in sweep point 0" in str(e)
    with pytest.raises(TypeError):
        blockdyn.sweep(m, vary={"contact.normal.damping": 10})
    with pytest.raises(ValueError):
        blockdyn.sweep(m, vary={"contact.normal.damping": [10]}, jobs=0)


def test_failed_points_raise_or_are_kept():
    m = blockdyn.load(MODELS / "ball_drop.toml")
    vary = {"solver.max_steps": [20, 100000]}
    with pytest.raises(blockdyn.SimulationError, match="note: in sweep point 0") as caught:
        blockdyn.sweep(m, vary=vary, jobs=2)
    assert caught.value.point == 0
    s = blockdyn.sweep(m, vary=vary, jobs=2, errors="keep")
    assert isinstance(s[0], blockdyn.SimulationError) and s[0].point == 0
    assert len(s[0].partial) > 0
    assert isinstance(s[1], blockdyn.SimulationResult)
    assert [row["status"] for row in s.summary()] == ["failed", "ok"]
    assert "1 failed" in repr(s)


def test_sweep_to_pandas():
    pytest.importorskip("pandas", reason="pandas is not installed: SweepResult.to_pandas is not tested")
    m = blockdyn.load(MODELS / "ball_drop.toml")
    df = blockdyn.sweep(m, vary={"contact.normal.damping": [10, 100]}, jobs=2).to_pandas()
    assert list(df["contact.normal.damping"]) == [10, 100]
    assert list(df["status"]) == ["ok", "ok"]
