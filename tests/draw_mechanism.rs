//! The whole mechanism in an animation (issue 33, part 2): each link (RigidTransform) drawn as a line
//! between its frames, spin marks that turn with their body, joint glyphs at their joints, the frames
//! `[output] draw_frames` asks for, and fixed scenery inside the default framing. Each check is
//! against a closed form of the motion.

use blockdyn::render::camera::View;
use blockdyn::render::{
    Animation, FrameSnapshot, Glyph, ItemShape, JointGlyph, Material, RenderOptions, Renderer,
    SceneItem,
};
use blockdyn::sim::{simulate, RunOptions};
use nalgebra::{Isometry3, Point3, Vector3};
mod cli_common;
use cli_common::{blockdyn_in, temp_dir, text};

/// Frames per second of the runs (0.04 s apart).
const FPS: f64 = 25.0;

/// The run's animation at `FPS`.
fn animate(model: &str) -> Animation {
    let d = blockdyn::load_model_str("model.toml", model, &[]).expect("model builds");
    let options = RunOptions {
        animation_rate: Some(FPS),
        ..RunOptions::default()
    };
    simulate(&d, options)
        .expect("run succeeds")
        .animation
        .expect("frames taken")
}

fn item(animation: &Animation, label: &str) -> usize {
    animation
        .items
        .iter()
        .position(|i| i.label == label)
        .unwrap_or_else(|| panic!("no item '{label}'"))
}

/// A leg of two links spinning about the World z axis without gravity: a massless thigh (a hip
/// revolute joint and a RigidTransform 0.6 m along −y to the knee) and a shank (a knee revolute,
/// 0.25 m to a 1 kg ball of radius 0.05 m). With the knee straight and the hip turning at
/// ω = 2 rad/s, the centrifugal pull on the ball runs through the knee's axis, so the leg turns
/// rigidly: hip angle ω·t, knee angle 0.
const SPINNING_LEG: &str = r#"
connect = [
  "world.W -- hip.B",
  "hip.F -- thigh.B",
  "thigh.F -- knee.B",
  "knee.F -- shin.B",
  "shin.F -- foot.R",
]
[model]
name = "spinning_leg"
stop_time = 0.4
[solver]
rel_tol = 1e-9
abs_tol = 1e-12
[output]
draw_frames = ["thigh.F", "nothing.F"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, 0.0]
[blocks.hip]
type = "RevoluteJoint"
w0 = 2.0
[blocks.thigh]
type = "RigidTransform"
translation = [0.0, -0.6, 0.0]
[blocks.knee]
type = "RevoluteJoint"
[blocks.shin]
type = "RigidTransform"
translation = [0.0, -0.25, 0.0]
[blocks.foot]
type = "Solid"
geometry = { shape = "sphere", radius = 0.05 }
mass = 1.0
"#;

/// Hip angle ω·t of the spinning leg's closed form.
const LEG_OMEGA: f64 = 2.0;

/// R_z(θ)·(0, −l, 0): a point l m down the leg at hip angle θ.
fn down_leg(theta: f64, l: f64) -> Point3<f64> {
    Point3::new(l * theta.sin(), -l * theta.cos(), 0.0)
}

/// Each RigidTransform is drawn as a line between its frames: the massless thigh from the hip
/// (the World origin) to the knee at R_z(ω·t)·(0, −0.6, 0), and the shank, whose body carries
/// the foot's Solid, from the knee to the foot at R_z(ω·t)·(0, −0.85, 0), at every frame.
/// Tolerance 1e-6 m: the solver's rel_tol 1e-9 over 0.4 s of a rigid rotation keeps the angle
/// within ~1e-8 rad; 1e-6 m leaves room for the dense output's interpolation.
#[test]
fn each_link_is_a_line_between_its_frames() {
    let anim = animate(SPINNING_LEG);
    let segments_of = |label: &str| {
        let k = item(&anim, label);
        let ItemShape::Glyph(Glyph::Link(segments)) = &anim.items[k].shape else {
            panic!("{label} is a link: {:?}", anim.items[k].shape);
        };
        assert_eq!(segments.len(), 1, "{label}: one RigidTransform on the body");
        (k, segments[0])
    };
    let (thigh, [thigh_a, thigh_b]) = segments_of("hip.F (links)");
    let (shank, [shank_a, shank_b]) = segments_of("knee.F (links)");
    assert_eq!(anim.frames.len(), 11);
    for f in &anim.frames {
        let theta = LEG_OMEGA * f.t;
        let (pose, shank_pose) = (f.r_world[thigh], f.r_world[shank]);
        let (a, b) = (pose * thigh_a, pose * thigh_b);
        assert!(a.coords.norm() < 1e-12, "t = {}: {a}", f.t);
        assert!((b - down_leg(theta, 0.6)).norm() < 1e-6, "t = {}: {b}", f.t);
        let (a, b) = (shank_pose * shank_a, shank_pose * shank_b);
        assert!((a - down_leg(theta, 0.6)).norm() < 1e-6, "t = {}: {a}", f.t);
        assert!(
            (b - down_leg(theta, 0.85)).norm() < 1e-6,
            "t = {}: {b}",
            f.t
        );
    }
}

/// Joint glyphs sit at their joints with their axes along the joint's: the knee's glyph origin is
/// the knee, R_z(ω·t)·(0, −0.6, 0), and its axis (the glyph frame's z) is World z. The
/// draw_frames list names thigh.F (drawn, at the knee too) and nothing.F (no frame: not drawn).
#[test]
fn joint_glyphs_and_asked_frames_sit_at_their_frames() {
    let anim = animate(SPINNING_LEG);
    let knee = item(&anim, "knee");
    assert_eq!(
        anim.items[knee].shape,
        ItemShape::Glyph(Glyph::Joint(JointGlyph::Revolute))
    );
    let frame = item(&anim, "thigh.F");
    assert_eq!(anim.items[frame].shape, ItemShape::Glyph(Glyph::Frame));
    assert!(!anim.items.iter().any(|i| i.label == "nothing.F"));
    for f in &anim.frames {
        let at = down_leg(LEG_OMEGA * f.t, 0.6);
        for i in [knee, frame] {
            let pose = f.r_world[i];
            assert!((pose * Point3::origin() - at).norm() < 1e-6, "t = {}", f.t);
            assert!((pose.rotation * Vector3::z() - Vector3::z()).norm() < 1e-9);
        }
    }
}

/// A free ball (r = 0.1 m) spinning at ω = 3 rad/s about World z without gravity: its spin
/// stripe's centroid turns about z by ω·dt = 0.12 rad between frames 0.04 s apart. Tolerance
/// 1e-6 rad: a torque-free sphere spins uniformly; the rest is the solver's rel_tol 1e-9.
#[test]
fn a_spinning_sphere_s_mark_moves_by_omega_dt_per_frame() {
    let model = r#"
connect = ["world.W -- free.B", "free.F -- ball.R"]
[model]
name = "spinning_ball"
stop_time = 0.2
[solver]
rel_tol = 1e-9
abs_tol = 1e-12
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, 0.0]
[blocks.free]
type = "SixDofJoint"
position = [0.0, 0.0, 1.0]
angular_velocity = [0.0, 0.0, 3.0]
[blocks.ball]
type = "Solid"
geometry = { shape = "sphere", radius = 0.1 }
mass = 1.0
"#;
    let anim = animate(model);
    let ball = item(&anim, "ball");
    let renderer = Renderer::new(&anim, &RenderOptions::default()).unwrap();
    let mesh = &renderer.meshes()[ball];
    assert!(
        !mesh.mark_triangles.is_empty(),
        "a sphere has a spin stripe"
    );
    let marked: Vec<Point3<f64>> = mesh
        .mark_triangles
        .iter()
        .flatten()
        .map(|&k| mesh.vertices[k as usize])
        .collect();
    let centroid = marked.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / marked.len() as f64;
    assert!(
        centroid.xy().norm() > 0.01,
        "the stripe is off the spin axis"
    );
    let angle = |f: &FrameSnapshot| {
        let p = f.r_world[ball] * Point3::from(centroid) - Point3::new(0.0, 0.0, 1.0);
        p.y.atan2(p.x)
    };
    let dt = 1.0 / FPS;
    for pair in anim.frames.windows(2) {
        let turn = (angle(&pair[1]) - angle(&pair[0])).rem_euclid(std::f64::consts::TAU);
        assert!((turn - 3.0 * dt).abs() < 1e-6, "turned {turn} rad");
    }
}

/// A 0.2 m box sliding off a fixed 1 m × 1 m × 0.1 m table (top at z = 0.8 m, centre x = 0) to
/// x = 0.9 m: the automatic camera's image holds all eight table corners (before, it framed the
/// moving box only and cut the table off).
#[test]
fn the_default_framing_holds_the_fixed_table() {
    let table = blockdyn::geometry::Shape::brick([1.0, 1.0, 0.1]).unwrap();
    let cube = blockdyn::geometry::Shape::brick([0.2, 0.2, 0.2]).unwrap();
    let table_pose = Isometry3::translation(0.0, 0.0, 0.75);
    let frames = (0..10)
        .map(|k| FrameSnapshot {
            t: 0.1 * k as f64,
            r_world: vec![table_pose, Isometry3::translation(0.1 * k as f64, 0.3, 0.9)],
            arrows: vec![],
        })
        .collect();
    let anim = Animation {
        items: vec![
            SceneItem {
                label: "table".into(),
                shape: table.into(),
                material: Material::Ground,
            },
            SceneItem {
                label: "box".into(),
                shape: cube.into(),
                material: Material::Body(0),
            },
        ],
        frames,
        up_world: Vector3::z(),
        frame_interval: 0.1,
    };
    let options = RenderOptions::default();
    let renderer = Renderer::new(&anim, &options).unwrap();
    let view = View::new(renderer.camera(), options.width, options.height).unwrap();
    for k in 0..8 {
        let s = |bit: usize| if k & (1 << bit) != 0 { 1.0 } else { -1.0 };
        let corner = table_pose * Point3::new(0.5 * s(0), 0.5 * s(1), 0.05 * s(2));
        let [x, y, _] = view.project(&view.to_camera(&corner));
        assert!(
            (0.0..options.width as f64).contains(&x) && (0.0..options.height as f64).contains(&y),
            "corner {corner} at pixel ({x}, {y})"
        );
    }
}

/// `blockdyn run --animate` on the spinning leg warns about `nothing.F` (no block `nothing`: the
/// hint names a frame that exists) and still writes the GIF; `draw_frames = 3` is an error at its
/// key.
#[test]
fn draw_frames_names_are_checked_and_bad_values_refused() {
    let dir = temp_dir("draw_frames");
    let model = dir.join("leg.toml");
    std::fs::write(&model, SPINNING_LEG).unwrap();
    let gif = dir.join("leg.gif");
    let args = [
        "run",
        model.to_str().unwrap(),
        "--animate",
        gif.to_str().unwrap(),
        "-q",
    ];
    let out = blockdyn_in(&dir, &args, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("draw_frames names 'nothing.F', which is no frame")
            && stderr.contains("e.g. 'world.W'"),
        "{stderr}"
    );
    assert!(!stderr.contains("'thigh.F'"), "thigh.F exists: {stderr}");
    assert!(gif.exists());
    let bad = SPINNING_LEG.replace(r#"["thigh.F", "nothing.F"]"#, "3");
    std::fs::write(&model, bad).unwrap();
    let out = blockdyn_in(&dir, &args, &[]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("'draw_frames' must be true, false or a list of frame names"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `draw_frames = true` draws every frame once: the leg's ten frame ports (world.W, hip.B/F,
/// thigh.B/F, knee.B/F, shin.B/F, foot.R) are joined in pairs by its connections into five
/// frames (the World origin, the hip, the knee on the thigh, the knee on the shank, the foot).
#[test]
fn draw_frames_true_draws_each_joined_frame_once() {
    let model = SPINNING_LEG.replace(
        r#"draw_frames = ["thigh.F", "nothing.F"]"#,
        "draw_frames = true",
    );
    let anim = animate(&model);
    let frames: Vec<&str> = (anim.items.iter())
        .filter(|i| i.shape == ItemShape::Glyph(Glyph::Frame))
        .map(|i| i.label.as_str())
        .collect();
    assert_eq!(frames.len(), 5, "{frames:?}");
}
