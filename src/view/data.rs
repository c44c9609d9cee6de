//! The viewer's data, as the JSON the page reads: the scene (each item's mesh in its frame R),
//! the frames (each item's World pose and the contact arrows), the recorded signals grouped into
//! the plot's panels, and the located events.
//!
//! Layout (every length in m, time in s, force in N, every vector in the World frame):
//!
//! ```text
//! { "title": str, "t0": s, "t1": s, "up": [x,y,z],
//!   "camera": { "eye": [..], "target": [..], "up": [..], "fov_deg": 35 },
//!   "arrow_scale": m/N, "colors": { "background", "edge", "arrow", "marker": "#rrggbb",
//!                                   "inks": ["#rrggbb", ...] },
//!   "items": [ { "label", "color", "closed": bool, "v": [x,y,z,...], "tri": [i,j,k,...],
//!                "mark_tri": [i,j,k,...], "edges": [i,j,...], "inked": [i,j,ink,...],
//!                "markers": [x,y,z,...] } ],
//!   "frames": [ { "t": s, "pose": [x,y,z, qx,qy,qz,qw, ...one 7-tuple per item],
//!                 "arrows": [px,py,pz, fx,fy,fz, ...] } ],
//!   "panels": [ { "title", "series": [ { "name", "legend", "unit": str|null,
//!                                        "lines": [[t,v, t,v, ...], ...] } ] } ],
//!   "events": [ { "t": s, "block": str } ], "events_dropped": n }
//! ```
//!
//! `mark_tri` are the spin marks' faces (drawn in the edge colour), `inked` the glyphs' lines
//! (a frame's axes, a joint's axis, a massless link), each with its colour's index in
//! `colors.inks` (in the order of [`crate::render::mesh::Ink::ALL`]).
//!
//! A pose maps points of the item's frame R to the World: p_W = x + q ⊗ p_R, with q the unit
//! quaternion (x, y, z, w). A non-finite pose value is written `null` and the page hides that
//! item in that frame. Arrows are drawn from the point p along f · `arrow_scale`.
//!
//! **Signals** are the plot's rows ([`crate::output::PlotRows`], already reduced while the run
//! streamed) reduced again, column by column, with the plot's M4 scheme
//! ([`crate::plot::decimate`]): at most four points per bucket of [`buckets_for`] equal time
//! buckets, which keeps each bucket's first, last, least and greatest value. A non-finite value
//! breaks the column's polyline (a gap), as in the PNG plot; it is never written.

use super::json::JsonWriter;
use crate::output::Recording;
use crate::plot::decimate::{polylines, Reduction};
use crate::plot::render::{plan_panels, PanelPlan};
use crate::render::camera::FIELD_OF_VIEW_Y;
use crate::render::mesh::{Ink, Mesh};
use crate::render::palette::{ink_rgb, material_rgb, VIEW_RGB};
use crate::render::{Animation, Camera};
use crate::sim::LocatedEvent;

/// Most signal points (t, value pairs) in one page, over every column: about 20 bytes each, so
/// that signals take at most about 2.4 MB of the page's budget.
pub const SIGNAL_POINTS: usize = 120_000;
/// Most time buckets per column (4 points each): over one per pixel column of a wide plot.
pub const MAX_SIGNAL_BUCKETS: usize = 1000;
/// Fewest time buckets per column, whatever the number of columns.
pub const MIN_SIGNAL_BUCKETS: usize = 50;

/// The time buckets of each column for `columns` recorded columns:
/// `SIGNAL_POINTS / (4 · columns)`, clamped to [`MIN_SIGNAL_BUCKETS`]..=[`MAX_SIGNAL_BUCKETS`].
pub fn buckets_for(columns: usize) -> usize {
    (SIGNAL_POINTS / (4 * columns.max(1))).clamp(MIN_SIGNAL_BUCKETS, MAX_SIGNAL_BUCKETS)
}

/// What one viewer page shows.
pub struct ViewData<'a> {
    /// The page's title (the model's name).
    pub title: &'a str,
    /// The frames and the scene.
    pub animation: &'a Animation,
    /// The camera the page starts from (the GIF's automatic camera when `None`).
    pub camera: Option<Camera>,
    /// The recorded signals (the plot's rows).
    pub recording: &'a Recording,
    /// The located zero crossings, in order.
    pub events: &'a [LocatedEvent],
    /// Located crossings not in `events` (beyond the run's log).
    pub events_dropped: usize,
}

/// The scene as the page draws it: meshes (planes sized to the motion), the camera and the
/// arrow scale, taken from the GIF renderer so that the page starts from the GIF's view.
pub struct SceneSetup {
    /// Each item's mesh in its frame R.
    pub meshes: Vec<Mesh>,
    /// The starting camera.
    pub camera: Camera,
    /// Arrow length per newton, m/N.
    pub arrow_scale: f64,
}

/// Writes `data` as JSON (see the module documentation), with the scene `scene`.
pub fn write_json(data: &ViewData<'_>, scene: &SceneSetup) -> String {
    let mut w = JsonWriter::new();
    w.begin_object();
    w.key_string("title", data.title);
    let anim = data.animation;
    let t0 = anim.frames.first().map_or(0.0, |f| f.t);
    let t1 = anim.frames.last().map_or(0.0, |f| f.t);
    let last_row = data.recording.times.last().copied().unwrap_or(t1);
    w.key_number("t0", t0);
    w.key_number("t1", t1.max(last_row));
    w.key("up");
    w.numbers(anim.up_world.iter().copied());
    write_camera(&mut w, &scene.camera);
    w.key_number("arrow_scale", scene.arrow_scale);
    w.key("colors");
    w.begin_object();
    for (name, rgb) in ["background", "edge", "arrow", "marker"]
        .iter()
        .zip(VIEW_RGB)
    {
        w.key_string(name, &hex(rgb));
    }
    w.key("inks");
    w.begin_array();
    for ink in Ink::ALL {
        w.string(&hex(ink_rgb(ink)));
    }
    w.end_array();
    w.end_object();
    write_items(&mut w, anim, &scene.meshes);
    write_frames(&mut w, anim);
    write_panels(&mut w, data.recording);
    w.key("events");
    w.begin_array();
    for e in data.events {
        w.begin_object();
        w.key_number("t", e.time);
        w.key_string("block", &e.block);
        w.end_object();
    }
    w.end_array();
    w.key("events_dropped");
    w.integer(data.events_dropped as u64);
    w.end_object();
    w.finish()
}

fn hex(rgb: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2])
}

fn write_camera(w: &mut JsonWriter, c: &Camera) {
    w.key("camera");
    w.begin_object();
    w.key("eye");
    w.numbers(c.eye.iter().copied());
    w.key("target");
    w.numbers(c.target.iter().copied());
    w.key("up");
    w.numbers(c.up.iter().copied());
    w.key_number("fov_deg", FIELD_OF_VIEW_Y.to_degrees());
    w.end_object();
}

fn write_items(w: &mut JsonWriter, anim: &Animation, meshes: &[Mesh]) {
    w.key("items");
    w.begin_array();
    for (item, mesh) in anim.items.iter().zip(meshes) {
        w.begin_object();
        w.key_string("label", &item.label);
        w.key_string("color", &hex(material_rgb(item.material)));
        w.key("closed");
        w.boolean(mesh.closed);
        w.key("v");
        w.numbers(mesh.vertices.iter().flat_map(|p| p.coords.iter().copied()));
        w.key("tri");
        w.begin_array();
        for &i in mesh.triangles.iter().flatten() {
            w.integer(i.into());
        }
        w.end_array();
        w.key("mark_tri");
        w.begin_array();
        for &i in mesh.mark_triangles.iter().flatten() {
            w.integer(i.into());
        }
        w.end_array();
        w.key("edges");
        w.begin_array();
        for &i in mesh.edges.iter().flatten() {
            w.integer(i.into());
        }
        w.end_array();
        w.key("inked");
        w.begin_array();
        for ([i, j], ink) in &mesh.inked {
            let slot = Ink::ALL.iter().position(|k| k == ink).unwrap_or(0);
            for v in [*i, *j, slot as u32] {
                w.integer(v.into());
            }
        }
        w.end_array();
        w.key("markers");
        w.numbers(mesh.markers.iter().flat_map(|p| p.coords.iter().copied()));
        w.end_object();
    }
    w.end_array();
}

fn write_frames(w: &mut JsonWriter, anim: &Animation) {
    w.key("frames");
    w.begin_array();
    for f in &anim.frames {
        w.begin_object();
        w.key_number("t", f.t);
        w.key("pose");
        w.begin_array();
        for pose in &f.r_world {
            let q = pose.rotation.coords; // (x, y, z, w)
            for v in pose.translation.vector.iter().chain(q.iter()) {
                w.number(*v);
            }
        }
        w.end_array();
        w.key("arrows");
        w.begin_array();
        for a in &f.arrows {
            for v in a.p_world_tail.coords.iter().chain(a.f_world.iter()) {
                w.number(*v);
            }
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
}

/// The recording's panels as the PNG plot groups them ([`plan_panels`]): one per Scope, in model
/// order, then one "logged" panel for the columns of `[output] log` that no Scope shows, each
/// split by unit ("angle [rad]"). Empty panels are left out. Each series has its column's name
/// (the CSV header), unit and legend ([`crate::output::Column::legend`]).
fn write_panels(w: &mut JsonWriter, rec: &Recording) {
    let t_start = rec.times.first().copied().unwrap_or(0.0);
    let t_end = rec.times.last().copied().unwrap_or(0.0);
    let reduction = if t_end > t_start {
        Reduction::PerPixelColumn {
            t_start,
            t_end,
            buckets: buckets_for(rec.columns.len()),
        }
    } else {
        Reduction::None
    };
    // The recorder names only panels that exist, so planning cannot fail on its recordings.
    let plans = plan_panels(rec).unwrap_or_default();
    w.key("panels");
    w.begin_array();
    for PanelPlan { title, columns } in plans {
        if columns.is_empty() {
            continue;
        }
        w.begin_object();
        w.key_string("title", &title);
        w.key("series");
        w.begin_array();
        for j in columns {
            let column = &rec.columns[j];
            w.begin_object();
            w.key_string("name", &column.name);
            w.key_string("legend", &column.legend());
            w.key("unit");
            match &column.unit {
                Some(u) => w.string(u),
                None => w.number(f64::NAN),
            }
            w.key("lines");
            w.begin_array();
            for line in polylines(&rec.times, rec.column_values(j), reduction) {
                w.numbers(line.iter().flat_map(|&(t, v)| [t, v]));
            }
            w.end_array();
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Shape, Sphere};
    use crate::output::Column;
    use crate::render::{FrameSnapshot, Material, SceneItem};
    use nalgebra::{Isometry3, Point3, Vector3};
    use serde_json::Value;

    /// A ball at (0, 0, z) per frame time, and a recording of one column.
    fn fixture(zs: &[(f64, f64)], rows: &[(f64, f64)]) -> (Animation, Recording) {
        let animation = Animation {
            items: vec![SceneItem {
                label: "ball".into(),
                shape: Shape::Sphere(Sphere::new(0.1).unwrap()).into(),
                material: Material::Body(0),
            }],
            frames: zs
                .iter()
                .map(|&(t, z)| FrameSnapshot {
                    t,
                    r_world: vec![Isometry3::translation(0.0, 0.0, z)],
                    arrows: vec![],
                })
                .collect(),
            up_world: Vector3::z(),
            frame_interval: 0.5,
        };
        let mut recording = Recording::new(
            vec!["scope".into()],
            vec![Column {
                name: "ball.z".into(),
                unit: Some("m".into()),
                panel: Some(0),
            }],
        );
        for &(t, v) in rows {
            recording.push_row(t, &[v]);
        }
        (animation, recording)
    }

    fn json(animation: &Animation, recording: &Recording) -> Value {
        let data = ViewData {
            title: "t",
            animation,
            camera: None,
            recording,
            events: &[],
            events_dropped: 0,
        };
        let scene = SceneSetup {
            meshes: vec![crate::render::mesh::tessellate(
                animation.items[0].shape.geometry().unwrap(),
                None,
            )],
            camera: Camera {
                eye: Point3::new(0.0, -3.0, 1.0),
                target: Point3::origin(),
                up: Vector3::z(),
            },
            arrow_scale: 0.0,
        };
        serde_json::from_str(&write_json(&data, &scene)).expect("valid JSON")
    }

    /// A NaN in a signal splits its polyline (a gap) and is never written; a NaN pose is written
    /// as null. The JSON stays valid either way.
    #[test]
    fn non_finite_values_become_gaps_and_nulls() {
        let (animation, recording) = fixture(
            &[(0.0, 1.0), (0.5, f64::NAN)],
            &[(0.0, 1.0), (0.25, f64::NAN), (0.5, 2.0), (1.0, 3.0)],
        );
        let v = json(&animation, &recording);
        let pose = v["frames"][1]["pose"].as_array().unwrap();
        assert!(pose[2].is_null() && pose[0] == 0.0);
        let lines = v["panels"][0]["series"][0]["lines"].as_array().unwrap();
        let lines: Vec<Vec<f64>> = lines
            .iter()
            .map(|l| {
                l.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect()
            })
            .collect();
        assert_eq!(lines, vec![vec![0.0, 1.0], vec![0.5, 2.0, 1.0, 3.0]]);
        assert_eq!(v["panels"][0]["series"][0]["unit"], "m");
        assert_eq!(v["panels"][0]["title"], "scope [m]");
        assert_eq!(
            v["panels"][0]["series"][0]["legend"],
            "ball: z (position, m)"
        );
        assert_eq!(v["t1"], 1.0, "the last row's time when past the last frame");
    }

    /// The bucket count keeps the page's signal points within SIGNAL_POINTS (4 per bucket per
    /// column) from 30 columns on, and 1000 buckets (4000 points) per column below.
    #[test]
    fn buckets_bound_the_signal_points() {
        assert_eq!(buckets_for(1), MAX_SIGNAL_BUCKETS);
        assert_eq!(buckets_for(30), 1000);
        assert_eq!(buckets_for(300), 100);
        assert!(4 * 300 * buckets_for(300) <= SIGNAL_POINTS);
        assert_eq!(buckets_for(100_000), MIN_SIGNAL_BUCKETS);
    }
}
