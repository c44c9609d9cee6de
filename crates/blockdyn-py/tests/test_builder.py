"""blockdyn.Builder: models built in code."""

import numpy as np
import pytest

import blockdyn
from blockdyn import BlockSpec
from conftest import MODELS


def ball_drop() -> blockdyn.Builder:
    """models/ball_drop.toml rebuilt in code, as examples/build_in_rust.rs does in Rust."""
    b = blockdyn.Builder("ball_drop", stop_time=3.0)
    b.solver(rel_tol=1e-6, abs_tol=1e-9)
    b.output(log=["contact.penetration", "contact.separation", "free.v"])
    world = b.add("world", BlockSpec.world_frame())
    b.add("gravity", BlockSpec.mechanism_configuration([0.0, 0.0, -9.81]))
    floor = b.add("floor", BlockSpec.infinite_plane())
    ball = b.add("ball", "Solid", geometry={"shape": "sphere", "radius": 0.1}, mass=1.0)
    free = b.add("free", BlockSpec.six_dof_joint([0.0, 0.0, 1.0]))
    contact = b.add("contact", BlockSpec.linear_contact(1e5, 100.0).param("zero_crossings", True))
    scope = b.add("scope", BlockSpec.scope(1))
    forces = b.add("forces", BlockSpec.of_type("Scope", inputs=1))
    (
        b.attach(world.port("W"), floor.port("R"))
        .attach(world["W"], free["B"])
        .attach(free.port("F"), ball.port("R"))
        .attach("floor.G", "contact.B")
        .attach(ball.port("G"), contact.port("F"))
        .connect(free.port("p[2]"), scope.port("in1"))
        .connect(contact.port("normal_force"), forces.port("in1"))
    )
    return b


def test_a_built_model_runs_as_the_file_does():
    built = ball_drop().build()
    r = built.simulate()
    f = blockdyn.load(MODELS / "ball_drop.toml").simulate()
    assert r.columns == f.columns
    np.testing.assert_array_equal(r.time, f.time)
    np.testing.assert_array_equal(r.values, f.values)
    assert [(e.time, e.block) for e in r.events] == [(e.time, e.block) for e in f.events]
    assert built.name == "ball_drop" and built.path is None


def test_to_toml_reads_back():
    b = ball_drop()
    text = b.to_toml()
    assert '[blocks.ball]\ntype = "Solid"' in text
    again = blockdyn.loads(text).simulate()
    np.testing.assert_array_equal(again.values, b.build().simulate().values)


def test_signal_blocks_and_columns_of_handles():
    b = blockdyn.Builder("decay", 1.0)
    x = b.add("x", BlockSpec.integrator(1.0))
    k = b.add("k", BlockSpec.gain(-2.0))
    scope = b.add("scope", BlockSpec.scope(1))
    b.connect(x.port("out"), k.port("in")).connect(k.port("out"), x.port("in"))
    b.connect("x.out", scope["in1"])
    r = b.build().simulate()
    xs = x.column(r, "out")
    np.testing.assert_allclose(xs, np.exp(-2.0 * r.time), rtol=1e-4, atol=1e-6)
    assert np.shares_memory(xs, r.values)


def test_a_built_models_mistake_is_a_model_error():
    b = blockdyn.Builder("bad", 1.0)
    k = b.add("k", BlockSpec.gain(2.0).param("gian", 3.0))
    c = b.add("c", BlockSpec.constant(1.0))
    b.connect(c.port("out"), k.port("in"))
    with pytest.raises(blockdyn.ModelError) as caught:
        b.build()
    e = caught.value
    assert e.block == "k" and "unknown parameter 'gian'" in str(e)
    assert e.file == "bad (built in code)"
    # A model built in code has no lines to point to.
    assert e.line is None and e.column is None
    assert str(e).startswith("bad (built in code): block 'k': ")


def test_ports_of_blocks_not_added_are_refused():
    b = blockdyn.Builder("m", 1.0)
    k = b.add("k", BlockSpec.gain(2.0))
    with pytest.raises(ValueError, match="no block 'nope' was added"):
        b.connect("nope.out", k.port("in"))
    with pytest.raises(TypeError):
        b.add("z", 3.0)
