"""Modelling mistakes that used to pass silently or get an unlocated message (issue 28, part 5),
through Python: each warning is a located ``ModelWarning`` (``file:line:column: block 'name':``),
each refusal a ``ModelError`` with its file, line and hint, and no file in the model's
directory changes."""

import warnings

import pytest

import blockdyn
from conftest import MODELS


def snapshot(directory):
    """Every file under `directory` with its bytes."""
    return {p: p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def edited(name, old, new, tmp_path):
    """models/NAME.toml with `old` replaced by `new`, written to tmp_path/model.toml: (path,
    text)."""
    text = (MODELS / f"{name}.toml").read_text()
    assert old in text, "the example changed: update this test"
    text = text.replace(old, new)
    path = tmp_path / "model.toml"
    path.write_text(text)
    return path, text


def line_of(text, needle):
    """The 1-based line where `needle` starts."""
    return text[: text.index(needle)].count("\n") + 1


def load_warnings(path):
    """Loads `path`, the directory unchanged; returns the ModelWarnings' texts."""
    before = snapshot(path.parent)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = blockdyn.load(path)
    assert snapshot(path.parent) == before
    texts = [str(w.message) for w in caught if issubclass(w.category, blockdyn.ModelWarning)]
    assert texts == list(model.warnings)
    return texts


def load_error(path):
    """Loads `path`, which must be refused, the directory unchanged; returns the ModelError."""
    before = snapshot(path.parent)
    with pytest.raises(blockdyn.ModelError) as caught:
        blockdyn.load(path)
    assert snapshot(path.parent) == before
    return caught.value


def test_revolute_q0_in_degrees_warns_at_its_line(tmp_path):
    path, text = edited("pendulum", "q0 = 1.5707963267948966 ", "q0 = 90.0 ", tmp_path)
    line = line_of(text, "q0 = 90.0")
    expected = f"{path}:{line}:6: block 'hinge': q0 = 90 rad is more than a full turn"
    assert any(w.startswith(expected) for w in load_warnings(path))


def test_gravity_along_every_hinge_warns_at_its_line(tmp_path):
    path, text = edited(
        "pendulum", "gravity = [0.0, -9.81, 0.0]", "gravity = [0.0, 0.0, -9.81]", tmp_path
    )
    line = line_of(text, "gravity = [0.0, 0.0, -9.81]")
    expected = f"{path}:{line}:11: block 'gravity': gravity [0, 0, -9.81] m/s² has no component"
    found = [w for w in load_warnings(path) if w.startswith(expected)]
    assert found and "nothing will move" in found[0]


def test_planar_mechanism_on_a_3d_ground_contact_warns(tmp_path):
    path, text = edited("planar_hopper", "\ndimension = 2\n", "\n", tmp_path)
    line = line_of(text, "[blocks.ground]")
    expected = (
        f"{path}:{line}:9: block 'ground': this GroundContact's ground is the World x-y plane "
        "with z up (dimension = 3, the default), but gravity [0, -9.81, 0] m/s² has no z component"
    )
    found = [w for w in load_warnings(path) if w.startswith(expected)]
    assert found and "write dimension = 2" in found[0]


def test_body_started_inside_the_floor_warns_with_the_depths(tmp_path):
    # Sphere radius 0.1 m centred at z = 0.02 m: 0.08 m deep; static depth m·g/k = 9.81/1e5 m.
    path, text = edited(
        "ball_drop", "position = [0.0, 0.0, 1.0]", "position = [0.0, 0.0, 0.02]", tmp_path
    )
    line = line_of(text, "[blocks.contact]")
    expected = (
        f"{path}:{line}:9: block 'contact': floor.G and ball.G start 8.000e-2 m into each "
        "other, 815× this contact's static depth 9.810e-5 m"
    )
    assert any(w.startswith(expected) for w in load_warnings(path))


ARM_URDF = """<?xml version="1.0"?>
<robot name="arm">
  <link name="base"/>
  <joint name="shoulder" type="continuous">
    <parent link="base"/>
    <child link="fore"/>
    <axis xyz="0 1 0"/>
  </joint>
  <link name="fore">
    <inertial>
      <mass value="1.0"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
    </inertial>
    <collision>
      <geometry><box size="0.1 0.1 0.1"/></geometry>
    </collision>
    <collision>
      <geometry><mesh filename="meshes/fore.stl"/></geometry>
    </collision>
  </link>
</robot>
"""

ARM_MODEL = """connect = [
  "world.W -- arm.B",
  "world.W -- floor.R",
  "floor.G -- touch.B",
  "arm/fore/collision_1.G -- touch.F",
]

[model]
stop_time = 0.1

[blocks.world]
type = "WorldFrame"

[blocks.arm]
type = "Urdf"
file = "arm.urdf"

[blocks.floor]
type = "InfinitePlane"

[blocks.touch]
type = "SpatialContactForce"
normal = { method = "linear_spring_damper", stiffness = 1e5, damping = 100.0 }
friction = { method = "none" }
"""


def test_missing_urdf_mesh_says_the_file_is_missing_with_its_path_and_line(tmp_path):
    (tmp_path / "arm.urdf").write_text(ARM_URDF)
    path = tmp_path / "model.toml"
    path.write_text(ARM_MODEL)
    e = load_error(path)
    assert (e.file, e.line, e.column) == (str(path), 5, 3)
    assert e.message.startswith(
        f"there is no block 'arm/fore/collision_1': the Urdf block did not make it, because at "
        f"{tmp_path / 'arm.urdf'}:17:5: link 'fore': <collision> <mesh "
        f"filename=\"meshes/fore.stl\"> skipped (no contact geometry): the mesh file is missing "
        f"(looked at {tmp_path / 'meshes' / 'fore.stl'})"
    ), e.message
    assert e.hint.startswith("put the mesh file where the URDF says")
    assert "did you mean" not in str(e)


def test_table_header_nested_90_deep_is_located(tmp_path):
    path = tmp_path / "model.toml"
    path.write_text("[model]\nstop_time = 1.0\n\n[" + ".".join(["a"] * 90) + "]\nx = 1\n")
    e = load_error(path)
    assert (e.line, e.column) == (4, 2)
    assert "this key has 90 dotted parts" in e.message
    assert e.hint.startswith("a block is [blocks.NAME]")


def test_empty_plot_path_is_located(tmp_path):
    path = tmp_path / "model.toml"
    path.write_text(
        '[model]\nstop_time = 1.0\n\n[output]\nplot = ""\n\n[blocks.c]\ntype = "Constant"\n'
        "value = 1.0\n"
    )
    e = load_error(path)
    assert (e.line, e.column) == (5, 8)
    assert e.message == "'plot' is empty"
    assert e.hint.startswith('write plot = "run.png"')


def test_initial_nan_says_it_is_not_finite(tmp_path):
    path = tmp_path / "model.toml"
    path.write_text('[model]\nstop_time = 1.0\n\n[blocks.i]\ntype = "Integrator"\ninitial = nan\n')
    e = load_error(path)
    assert (e.line, e.column, e.block) == (6, 11, "i")
    assert e.message == "'initial' is NaN, a number that is not finite: it must be finite"
    assert e.hint.startswith("write a finite number, e.g. initial = [1.0]")
