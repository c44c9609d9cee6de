//! A URDF robot as model blocks: what a `type = "Urdf"` block stands for.
//!
//! Names are the Urdf block's name, a slash, and the URDF element's name (`robot/base_link`,
//! `robot/hip_joint`); the blocks that only place frames carry a suffix (`robot/hip_joint/origin`).
//! Every value is written as a model file would write it, so the expansion is a model document
//! (and `blockdyn import` prints it as TOML). See docs/urdf.md for the mapping.

use super::mesh;
use super::read::{Geometry, JointKind, Origin, Robot};
use super::tree::KinematicTree;
use crate::blocks::multibody::joint_friction::JointFrictionMethod;
use crate::blocks::multibody::kinds::{LimitKind, SolidShape};
use crate::model::value::{Entry, Table, Value, ValueKind};
use crate::model::{Diagnostic, Span};
use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use std::collections::HashMap;
use std::path::Path;

/// How the root link is attached to the Urdf block's frame `B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// Welded at `position`, `orientation` (a RigidTransform).
    Fixed,
    /// Free (a SixDofJoint starting at `position`, `orientation`, `velocity`, `angular_velocity`).
    Floating,
}

/// The Urdf block's parameters, other than its file and per-joint settings.
#[derive(Clone, Debug)]
pub struct Options {
    /// The Urdf block's name: the prefix of every name.
    pub name: String,
    pub base: Base,
    /// m, in B.
    pub position: [f64; 3],
    /// Quaternion [w, x, y, z] of the root link in B.
    pub orientation: [f64; 4],
    /// m/s, in B (floating base only).
    pub velocity: [f64; 3],
    /// rad/s, in the root link (floating base only).
    pub angular_velocity: [f64; 3],
    /// Revolute, continuous and prismatic joints get the torque/force input `t`.
    pub actuation: bool,
}

/// One block of the expansion, as a model file writes it.
#[derive(Clone, Debug)]
pub struct ExpandedBlock {
    pub name: String,
    pub type_name: &'static str,
    pub params: Vec<(String, Value)>,
    /// The byte offset in the URDF file of the element it stands for (`<link>`, `<inertial>`,
    /// `<collision>`, `<joint>`); `None` for the root attachment, made from the Urdf block's
    /// own parameters.
    pub at: Option<usize>,
}

impl ExpandedBlock {
    /// The block's table as the document holds it: `type`, then its parameters, moved (not
    /// copied: a 20,000-joint chain's parameters are ~40 values a joint), in a vector of
    /// exactly their number.
    pub fn into_table(self, span: &Span) -> Table {
        let mut entries = Vec::with_capacity(1 + self.params.len());
        entries.push(Entry {
            key: "type".into(),
            key_span: span.clone(),
            value: Value {
                kind: ValueKind::String(self.type_name.into()),
                span: span.clone(),
            },
        });
        entries.extend(self.params.into_iter().map(|(key, value)| Entry {
            key,
            key_span: span.clone(),
            value,
        }));
        Table { entries }
    }

    /// Sets parameter `key` (replacing the one written by the expansion).
    pub fn set(&mut self, key: &str, value: Value) {
        match self.params.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.params.push((key.to_string(), value)),
        }
    }
}

/// What a Urdf block stands for.
#[derive(Clone, Debug)]
pub struct Expansion {
    /// Parent before child, the root attachment (named as the Urdf block) first.
    pub blocks: Vec<ExpandedBlock>,
    /// Physical connections, `a.F -- b.B`.
    pub connections: Vec<String>,
    /// Located warnings (`robot.urdf:12:5: ...`): what was not simulated, and why.
    pub warnings: Vec<String>,
    /// For each movable URDF joint (revolute, continuous, prismatic, floating, planar): the index
    /// of its joint block in `blocks`.
    pub joints: HashMap<String, usize>,
    /// The URDF joints that are fixed (for the message when a model sets one's parameters).
    pub fixed_joints: Vec<String>,
    /// The `<robot name>`.
    pub robot_name: String,
    /// The mesh files read (resolved paths): inputs that no output may replace.
    pub files: Vec<std::path::PathBuf>,
    /// The collision blocks not made because their mesh could not be read (a missing file, not
    /// STL, …): a connection of the model to one is told why, not "did you mean".
    pub skipped: Vec<SkippedPart>,
}

/// A `<collision>` whose block (`robot/link/collision_1`) was not made.
pub use crate::model::importer::SkippedPart;

/// Builds values with one span (where the Urdf block's `file` is written).
struct Values {
    span: Span,
}

impl Values {
    fn v(&self, kind: ValueKind) -> Value {
        Value {
            kind,
            span: self.span.clone(),
        }
    }
    fn num(&self, x: f64) -> Value {
        self.v(ValueKind::Float(x))
    }
    fn text(&self, s: &str) -> Value {
        self.v(ValueKind::String(s.into()))
    }
    fn vec(&self, xs: &[f64]) -> Value {
        self.v(ValueKind::Array(xs.iter().map(|x| self.num(*x)).collect()))
    }
    fn rows(&self, rows: &[[f64; 3]]) -> Value {
        self.v(ValueKind::Array(rows.iter().map(|r| self.vec(r)).collect()))
    }
    fn table(&self, entries: Vec<(&str, Value)>) -> Value {
        self.v(ValueKind::Table(Table {
            entries: entries
                .into_iter()
                .map(|(k, value)| Entry {
                    key: k.into(),
                    key_span: self.span.clone(),
                    value,
                })
                .collect(),
        }))
    }
    /// A RigidTransform's parameters for `origin` (nothing for the identity).
    fn origin_params(&self, origin: &Origin) -> Vec<(String, Value)> {
        let mut p = Vec::new();
        if origin.xyz != [0.0; 3] {
            p.push(("translation".into(), self.vec(&origin.xyz)));
        }
        if origin.rpy != [0.0; 3] {
            // URDF's fixed-axis roll-pitch-yaw, R = Rz(y)·Ry(p)·Rx(r), is the intrinsic z-y-x
            // sequence with the angles in the order yaw, pitch, roll.
            let [r, pitch, y] = origin.rpy;
            p.push((
                "rotation".into(),
                self.table(vec![
                    ("sequence", self.text("zyx")),
                    ("angles", self.vec(&[y, pitch, r])),
                ]),
            ));
        }
        p
    }
    fn axis_angle(&self, axis: Vector3<f64>, angle: f64) -> Value {
        self.table(vec![
            ("axis", self.vec(axis.as_slice())),
            ("angle", self.num(angle)),
        ])
    }
}

/// The rotation taking z to the unit vector `a` (the shortest one), as (axis, angle); `None`
/// when `a` is z.
pub fn z_to(a: &Vector3<f64>) -> Option<(Vector3<f64>, f64)> {
    let z = Vector3::z();
    if (a - z).norm() < 1e-12 {
        return None;
    }
    if (a + z).norm() < 1e-12 {
        return Some((Vector3::x(), std::f64::consts::PI));
    }
    let axis = z.cross(a).normalize();
    Some((axis, a.z.clamp(-1.0, 1.0).acos()))
}

/// The uniform box with mass `m` and inertia `i` about its centre: its edges along the
/// principal axes, full lengths s_k = √(6·(I_a + I_b − I_k)/m) (a brick when `i` is diagonal, else
/// the convex hull of its corners). Edges are at least 1 mm and 2 % of the longest, so that a
/// point mass or a thin rod is still drawn.
fn equivalent_box(m: f64, i: &Matrix3<f64>, val: &Values) -> Value {
    let diagonal = i[(0, 1)] == 0.0 && i[(0, 2)] == 0.0 && i[(1, 2)] == 0.0;
    let (moments, axes) = if diagonal {
        (
            Vector3::new(i[(0, 0)], i[(1, 1)], i[(2, 2)]),
            Matrix3::identity(),
        )
    } else {
        let e = i.symmetric_eigen();
        (e.eigenvalues, e.eigenvectors)
    };
    let trace = moments.sum();
    let mut size = [0.0; 3];
    for (k, s) in size.iter_mut().enumerate() {
        *s = (6.0 * (trace - 2.0 * moments[k]) / m).max(0.0).sqrt();
    }
    let longest = size.iter().copied().fold(0.0, f64::max);
    for s in &mut size {
        *s = s.max(0.02 * longest).max(1e-3);
    }
    if diagonal {
        return val.table(vec![
            ("shape", val.text(SolidShape::Brick.name())),
            ("size", val.vec(&size)),
        ]);
    }
    let mut corners = Vec::with_capacity(8);
    for signs in 0..8 {
        let local = Vector3::from_fn(|k, _| {
            let sign = if signs & (1 << k) == 0 { -0.5 } else { 0.5 };
            sign * size[k]
        });
        let c = axes * local;
        corners.push([c.x, c.y, c.z]);
    }
    val.table(vec![
        ("shape", val.text(SolidShape::ConvexHull.name())),
        ("points", val.rows(&corners)),
    ])
}

/// A URDF name as part of a block name: letters, digits, '_' and single '-' are kept, anything
/// else becomes '_' (so that `robot/<name>.port` reads back as one block and one port).
pub fn clean_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let keep = c.is_ascii_alphanumeric() || c == '_' || (c == '-' && !out.ends_with('-'));
        out.push(if keep { c } else { '_' });
    }
    if out.is_empty() {
        out.push('_');
    }
    out
}

/// Expands `robot` (checked as `tree`) with `options`; `span` is where generated values are
/// said to be written (the Urdf block's `file`), `urdf_dir` the folder meshes are found from.
pub fn expand(
    robot: &Robot,
    tree: &KinematicTree,
    options: &Options,
    span: &Span,
    urdf_dir: &Path,
) -> Result<Expansion, Diagnostic> {
    let val = Values { span: span.clone() };
    let src = &robot.source;
    let prefix = &options.name;
    let mut out = Expansion {
        blocks: Vec::new(),
        connections: Vec::new(),
        warnings: Vec::new(),
        joints: HashMap::new(),
        fixed_joints: Vec::new(),
        robot_name: robot.name.clone(),
        files: Vec::new(),
        skipped: Vec::new(),
    };
    let located = |at: usize, message: String| {
        let (line, column) = src.line_column(at);
        format!("{}:{line}:{column}: {message}", src.path)
    };
    // Block names, each from one element: two elements whose cleaned names meet are refused.
    let mut taken: HashMap<String, (String, usize)> = HashMap::new();
    let mut name_of = |what: &str, urdf_name: &str, at: usize| -> Result<String, Diagnostic> {
        let cleaned = clean_name(urdf_name);
        let name = format!("{prefix}/{cleaned}");
        if let Some((other, other_at)) = taken.get(&name) {
            let (line, _) = src.line_column(*other_at);
            return Err(super::position::error_at(
                src,
                at,
                format!("{what} '{urdf_name}' and {other} (line {line}) would both be block '{name}'"),
            )
            .hint("blockdyn names links and joints alike, with characters other than letters, digits, '_' and '-' as '_': rename one"));
        }
        taken.insert(name.clone(), (format!("{what} '{urdf_name}'"), at));
        Ok(name)
    };
    let mut renamed: Vec<String> = Vec::new();
    let mut note_rename = |what: &str, urdf_name: &str, at: usize| {
        let cleaned = clean_name(urdf_name);
        if cleaned != urdf_name {
            renamed.push(located(
                at,
                format!("{what} '{urdf_name}' is block '{prefix}/{cleaned}' (block names are letters, digits, '_' and '-')"),
            ));
        }
    };

    // Root attachment: named as the Urdf block, so the model's "world.W -- robot.B" holds.
    let mut link_names = vec![String::new(); robot.links.len()];
    for (k, link) in robot.links.iter().enumerate() {
        note_rename("link", &link.name, link.at);
        link_names[k] = name_of("link", &link.name, link.at)?;
    }
    let root_block = match options.base {
        Base::Fixed => {
            let mut params = Vec::new();
            if options.position != [0.0; 3] {
                params.push(("translation".to_string(), val.vec(&options.position)));
            }
            let [w, x, y, z] = options.orientation;
            let q = UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(w, x, y, z));
            if let Some((axis, angle)) = q.axis_angle() {
                params.push((
                    "rotation".to_string(),
                    val.axis_angle(axis.into_inner(), angle),
                ));
            }
            ExpandedBlock {
                name: prefix.clone(),
                type_name: "RigidTransform",
                at: None,
                params,
            }
        }
        Base::Floating => {
            let mut params = vec![("position".to_string(), val.vec(&options.position))];
            if options.orientation != [1.0, 0.0, 0.0, 0.0] {
                params.push(("orientation".into(), val.vec(&options.orientation)));
            }
            if options.velocity != [0.0; 3] {
                params.push(("velocity".into(), val.vec(&options.velocity)));
            }
            if options.angular_velocity != [0.0; 3] {
                params.push((
                    "angular_velocity".into(),
                    val.vec(&options.angular_velocity),
                ));
            }
            ExpandedBlock {
                name: prefix.clone(),
                type_name: "SixDofJoint",
                at: None,
                params,
            }
        }
    };
    out.blocks.push(root_block);
    out.connections
        .push(format!("{prefix}.F -- {}.B", link_names[tree.root]));

    // Links in tree order: each link's frame block, its inertial and its collisions.
    let mut link_order = vec![tree.root];
    link_order.extend(tree.joint_order.iter().map(|&j| tree.ends[j].1));
    let mut link_blocks: Vec<Vec<ExpandedBlock>> = vec![Vec::new(); robot.links.len()];
    let mut link_connections: Vec<Vec<String>> = vec![Vec::new(); robot.links.len()];
    for &l in &link_order {
        let link = &robot.links[l];
        let frame = &link_names[l];
        let blocks = &mut link_blocks[l];
        let conns = &mut link_connections[l];
        blocks.push(ExpandedBlock {
            name: frame.clone(),
            type_name: "RigidTransform",
            at: Some(link.at),
            params: Vec::new(),
        });
        // Places `origin` on the link frame: the frame the part attaches to.
        let place = |part: &str,
                     part_at: usize,
                     origin: &Origin,
                     blocks: &mut Vec<ExpandedBlock>,
                     conns: &mut Vec<String>| {
            if origin.is_identity() {
                return format!("{frame}.F");
            }
            let name = format!("{frame}/{part}_origin");
            blocks.push(ExpandedBlock {
                name: name.clone(),
                type_name: "RigidTransform",
                at: Some(part_at),
                params: val.origin_params(origin),
            });
            conns.push(format!("{frame}.F -- {name}.B"));
            format!("{name}.F")
        };
        if let Some(inertial) = link.inertial.as_ref().filter(|i| i.mass > 0.0) {
            let at = place("inertial", inertial.at, &inertial.origin, blocks, conns);
            let m = inertial.mass;
            let i = &inertial.inertia;
            // The Solid's geometry is drawn, not used for its mass (given with its inertia):
            // the link's equivalent box, the uniform box of the same mass and inertia, as
            // Gazebo draws inertias (a box-shaped link is drawn as itself).
            let geometry = equivalent_box(m, i, &val);
            let name = format!("{frame}/inertial");
            blocks.push(ExpandedBlock {
                name: name.clone(),
                type_name: "Solid",
                at: Some(inertial.at),
                params: vec![
                    ("geometry".into(), geometry),
                    ("mass".into(), val.num(m)),
                    ("center_of_mass".into(), val.vec(&[0.0; 3])),
                    (
                        "inertia".into(),
                        val.rows(&[
                            [i[(0, 0)], i[(0, 1)], i[(0, 2)]],
                            [i[(1, 0)], i[(1, 1)], i[(1, 2)]],
                            [i[(2, 0)], i[(2, 1)], i[(2, 2)]],
                        ]),
                    ),
                ],
            });
            conns.push(format!("{at} -- {name}.R"));
        }
        let several = link.collisions.len() > 1;
        for (k, collision) in link.collisions.iter().enumerate() {
            let part = if several {
                format!("collision_{k}")
            } else {
                "collision".to_string()
            };
            let geometry = match &collision.geometry {
                Geometry::Box { size } => val.table(vec![
                    ("shape", val.text(SolidShape::Brick.name())),
                    ("size", val.vec(size)),
                ]),
                Geometry::Sphere { radius } => val.table(vec![
                    ("shape", val.text(SolidShape::Sphere.name())),
                    ("radius", val.num(*radius)),
                ]),
                Geometry::Cylinder { radius, length } => val.table(vec![
                    ("shape", val.text(SolidShape::Cylinder.name())),
                    ("radius", val.num(*radius)),
                    ("length", val.num(*length)),
                ]),
                Geometry::Mesh { filename, scale } => {
                    out.files.extend(mesh::resolve(filename, urdf_dir).ok());
                    match mesh::hull_of(filename, *scale, urdf_dir) {
                        Ok(points) => val.table(vec![
                            ("shape", val.text(SolidShape::ConvexHull.name())),
                            ("points", val.rows(&points)),
                        ]),
                        Err(why) => {
                            let why = format!("link '{}': <collision> <mesh filename=\"{filename}\"> skipped (no contact geometry): {why}", link.name);
                            out.warnings.push(located(collision.at, why.clone()));
                            let (line, column) = src.line_column(collision.at);
                            out.skipped.push(SkippedPart {
                                block: format!("{frame}/{part}"),
                                at: format!("{}:{line}:{column}", src.path),
                                why,
                            });
                            continue;
                        }
                    }
                }
            };
            let at = place(&part, collision.at, &collision.origin, blocks, conns);
            let name = format!("{frame}/{part}");
            blocks.push(ExpandedBlock {
                name: name.clone(),
                type_name: "CollisionGeometry",
                at: Some(collision.at),
                params: vec![("geometry".into(), geometry)],
            });
            conns.push(format!("{at} -- {name}.R"));
        }
    }

    // Joints, parent before child, each followed by its child link's blocks.
    out.blocks.append(&mut link_blocks[tree.root]);
    out.connections.append(&mut link_connections[tree.root]);
    for &j in &tree.joint_order {
        let joint = &robot.joints[j];
        let (p, c) = tree.ends[j];
        note_rename("joint", &joint.name, joint.at);
        let name = name_of("joint", &joint.name, joint.at)?;
        let parent = format!("{}.F", link_names[p]);
        let child = format!("{}.B", link_names[c]);
        if joint.kind == JointKind::Fixed {
            out.blocks.push(ExpandedBlock {
                name: name.clone(),
                type_name: "RigidTransform",
                at: Some(joint.at),
                params: val.origin_params(&joint.origin),
            });
            out.connections.push(format!("{parent} -- {name}.B"));
            out.connections.push(format!("{name}.F -- {child}"));
            out.fixed_joints.push(joint.name.clone());
        } else {
            let mut upstream = parent;
            if !joint.origin.is_identity() {
                let origin = format!("{name}/origin");
                out.blocks.push(ExpandedBlock {
                    name: origin.clone(),
                    type_name: "RigidTransform",
                    at: Some(joint.at),
                    params: val.origin_params(&joint.origin),
                });
                out.connections.push(format!("{upstream} -- {origin}.B"));
                upstream = format!("{origin}.F");
            }
            // blockdyn's joints move along or about B's z axis: turn z onto the URDF axis
            // before the joint and back after it, so that the child turns about the axis.
            let align = match joint.kind {
                JointKind::Floating => None,
                _ => z_to(&joint.axis),
            };
            if let Some((axis, angle)) = align {
                let into = format!("{name}/axis");
                out.blocks.push(ExpandedBlock {
                    name: into.clone(),
                    type_name: "RigidTransform",
                    at: Some(joint.at),
                    params: vec![("rotation".into(), val.axis_angle(axis, angle))],
                });
                out.connections.push(format!("{upstream} -- {into}.B"));
                upstream = format!("{into}.F");
            }
            let (type_name, mut params) = match joint.kind {
                JointKind::Revolute | JointKind::Continuous => ("RevoluteJoint", Vec::new()),
                JointKind::Prismatic => ("PrismaticJoint", Vec::new()),
                JointKind::Floating => ("SixDofJoint", Vec::new()),
                JointKind::Planar => ("PlanarJoint", Vec::new()),
                JointKind::Fixed => unreachable!("handled above"),
            };
            if let Some(limit) = joint.limit {
                params.push((
                    "limits".to_string(),
                    val.table(vec![
                        ("lower", val.num(limit.lower)),
                        ("upper", val.num(limit.upper)),
                        ("method", val.text(LimitKind::Rigid.name())),
                    ]),
                ));
            }
            if let Some(d) = joint.damping {
                params.push(("damping".into(), val.num(d)));
            }
            if let Some(f) = joint.friction {
                params.push((
                    "friction".into(),
                    val.table(vec![
                        ("method", val.text(JointFrictionMethod::Coulomb.name())),
                        ("limit", val.num(f)),
                    ]),
                ));
            }
            let one_dof = matches!(
                joint.kind,
                JointKind::Revolute | JointKind::Continuous | JointKind::Prismatic
            );
            if options.actuation && one_dof {
                params.push(("actuation".into(), val.text("input")));
                if let Some(e) = joint.effort {
                    params.push(("effort_limit".into(), val.num(e)));
                }
            }
            out.joints.insert(joint.name.clone(), out.blocks.len());
            out.blocks.push(ExpandedBlock {
                name: name.clone(),
                type_name,
                at: Some(joint.at),
                params,
            });
            out.connections.push(format!("{upstream} -- {name}.B"));
            let mut downstream = format!("{name}.F");
            if let Some((axis, angle)) = align {
                let back = format!("{name}/axis_back");
                out.blocks.push(ExpandedBlock {
                    name: back.clone(),
                    type_name: "RigidTransform",
                    at: Some(joint.at),
                    params: vec![("rotation".into(), val.axis_angle(axis, -angle))],
                });
                out.connections.push(format!("{downstream} -- {back}.B"));
                downstream = format!("{back}.F");
            }
            out.connections.push(format!("{downstream} -- {child}"));
        }
        out.blocks.append(&mut link_blocks[c]);
        out.connections.append(&mut link_connections[c]);
    }

    // Parts' names (`robot/link/collision`) cannot meet a link's or joint's (`robot/name`, no
    // second '/': URDF names are cleaned of them), and links and joints were checked above.
    // What was read but is not simulated: one warning per kind of element.
    let mut kinds: Vec<(&str, &'static str, usize, usize)> = Vec::new();
    for i in &robot.ignored {
        match kinds.iter_mut().find(|(e, ..)| *e == i.element) {
            Some(k) => k.3 += 1,
            None => kinds.push((&i.element, i.why, i.at, 1)),
        }
    }
    for (element, why, at, count) in kinds {
        let what = match count {
            1 => format!("<{element}> ignored"),
            n => format!("{n} <{element}> elements ignored (the first here)"),
        };
        out.warnings.push(located(at, format!("{what}: {why}")));
    }
    out.warnings.extend(renamed);
    Ok(out)
}
