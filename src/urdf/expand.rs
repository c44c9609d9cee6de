//! A URDF robot as model blocks: what a `type = "Urdf"` block stands for.
//!
//! Names are the Urdf block's name, a slash, and the URDF element's name (`robot/base_link`,
//! `robot/hip_joint`); the blocks that only place frames carry a suffix (`robot/hip_joint/origin`).
//! Every value is written as a model file would write it, so the expansion is a model document
//! (and `blockdyn import` prints it as TOML). See docs/urdf.md for the mapping.

use super::mesh;
use super::read::{Collision, Geometry, Joint, JointKind, Link, Origin, Robot};
use super::tree::KinematicTree;
use super::values::{equivalent_box, End, Values};
use crate::blocks::multibody::joint_friction::JointFrictionMethod;
use crate::blocks::multibody::kinds::{LimitKind, SolidShape};
use crate::model::connection::Connection;
use crate::model::value::{Entry, Table, Value, ValueKind};
use crate::model::{Diagnostic, Span};
use nalgebra::{UnitQuaternion, Vector3};
use std::borrow::Cow;
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
    /// Physical connections, `a.F -- b.B`, located where the Urdf block's `file` is written.
    pub connections: Vec<Connection>,
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

/// A URDF name as part of a block name: letters, digits, '_' and single '-' are kept, anything
/// else becomes '_' (so that `robot/<name>.port` reads back as one block and one port).
pub fn clean_name(name: &str) -> String {
    cleaned(name).into_owned()
}

/// [`clean_name`], borrowing `name` when it is kept as it is (the usual case: no copy a link or
/// joint).
fn cleaned(name: &str) -> Cow<'_, str> {
    let kept = !name.is_empty()
        && !name.contains("--")
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-');
    if kept {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let keep = c.is_ascii_alphanumeric() || c == '_' || (c == '-' && !out.ends_with('-'));
        out.push(if keep { c } else { '_' });
    }
    if out.is_empty() {
        out.push('_');
    }
    Cow::Owned(out)
}

/// `{a}/{b}`, in a string of its exact size.
fn slashed(a: &str, b: &str) -> String {
    let mut s = String::with_capacity(a.len() + 1 + b.len());
    s.push_str(a);
    s.push('/');
    s.push_str(b);
    s
}

/// Expands `robot` (checked as `tree`) with `options`; `span` is where generated values are
/// said to be written (the Urdf block's `file`), `urdf_dir` the folder meshes are found from.
///
/// The blocks come root attachment first, then the root link's, then each joint (parent before
/// child) followed by its child link's; the connections in the same order.
pub fn expand(
    robot: &Robot,
    tree: &KinematicTree,
    options: &Options,
    span: &Span,
    urdf_dir: &Path,
) -> Result<Expansion, Diagnostic> {
    let mut x = Expanding {
        robot,
        prefix: &options.name,
        val: Values { span: span.clone() },
        out: Expansion {
            blocks: Vec::new(),
            connections: Vec::new(),
            warnings: Vec::new(),
            joints: HashMap::new(),
            fixed_joints: Vec::new(),
            robot_name: robot.name.clone(),
            files: Vec::new(),
            skipped: Vec::new(),
        },
        joined: Vec::new(),
        taken: HashMap::new(),
        renamed: Vec::new(),
    };
    let mut link_names = Vec::with_capacity(robot.links.len());
    for link in &robot.links {
        link_names.push(x.block_name("link", &link.name, link.at)?);
    }
    // Each link's frame block, by link: a joint's parent is placed before it.
    let mut frames = vec![usize::MAX; robot.links.len()];
    x.root_attachment(options);
    frames[tree.root] = x.link(tree.root, &mut link_names, urdf_dir);
    for &j in &tree.joint_order {
        let (parent, child) = tree.ends[j];
        x.joint(j, frames[parent], options.actuation)?;
        frames[child] = x.link(child, &mut link_names, urdf_dir);
    }
    // Parts' names (`robot/link/collision`) cannot meet a link's or joint's (`robot/name`, no
    // second '/': URDF names are cleaned of them), and links and joints were checked above.
    x.ignored_warnings();
    x.make_connections();
    let mut out = x.out;
    out.warnings.append(&mut x.renamed);
    Ok(out)
}

/// One robot being expanded: what is made so far, and the block names links and joints took.
struct Expanding<'a> {
    robot: &'a Robot,
    /// The Urdf block's name: the prefix of every name.
    prefix: &'a str,
    val: Values,
    out: Expansion,
    /// The physical connections, by block index in `out.blocks`: made into [`Connection`]s
    /// (with copies of the blocks' names) once every block is made, so that the names the
    /// connections keep through the build lie together, not between the blocks' values the
    /// build frees (which left ~3 MB more resident at a 20,000-joint chain's peak).
    joined: Vec<(End, End)>,
    /// The link and joint names taken, cleaned (without the common prefix): what took each
    /// (`"link"` or `"joint"`), its URDF name and its place. Keyed SipHash: the names come from the
    /// file (see `model::importer::refuse_duplicates`).
    taken: HashMap<Cow<'a, str>, (&'static str, &'a str, usize)>,
    /// The notes on names that were changed to be block names (warnings, after the others).
    renamed: Vec<String>,
}

impl<'a> Expanding<'a> {
    /// `message` located at byte `at` of the URDF file (`robot.urdf:12:5: …`).
    fn located(&self, at: usize, message: String) -> String {
        let src = &self.robot.source;
        let (line, column) = src.line_column(at);
        format!("{}:{line}:{column}: {message}", src.path)
    }

    /// The block name of the link or joint (`what`) `urdf_name` written at `at`: two elements
    /// whose cleaned names meet are refused; a name changed by the cleaning is noted.
    fn block_name(
        &mut self,
        what: &'static str,
        urdf_name: &'a str,
        at: usize,
    ) -> Result<String, Diagnostic> {
        let cleaned = cleaned(urdf_name);
        let name = slashed(self.prefix, &cleaned);
        if let Cow::Owned(_) = cleaned {
            let note = format!("{what} '{urdf_name}' is block '{name}' (block names are letters, digits, '_' and '-')");
            let note = self.located(at, note);
            self.renamed.push(note);
        }
        let src = &self.robot.source;
        if let Some(&(other_what, other_name, other_at)) = self.taken.get(&cleaned) {
            let (line, _) = src.line_column(other_at);
            return Err(super::position::error_at(
                src,
                at,
                format!("{what} '{urdf_name}' and {other_what} '{other_name}' (line {line}) would both be block '{name}'"),
            )
            .hint("blockdyn names links and joints alike, with characters other than letters, digits, '_' and '-' as '_': rename one"));
        }
        self.taken.insert(cleaned, (what, urdf_name, at));
        Ok(name)
    }

    /// Adds `block`; its index in `out.blocks`.
    fn push(&mut self, block: ExpandedBlock) -> usize {
        self.out.blocks.push(block);
        self.out.blocks.len() - 1
    }

    /// The root attachment, named as the Urdf block (so the model's "world.W -- robot.B"
    /// holds), joined to the root link, whose frame block comes next.
    fn root_attachment(&mut self, options: &Options) {
        let val = &self.val;
        let block = match options.base {
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
                    name: self.prefix.to_string(),
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
                    name: self.prefix.to_string(),
                    type_name: "SixDofJoint",
                    at: None,
                    params,
                }
            }
        };
        let root = self.push(block);
        self.joined.push(((root, "F"), (root + 1, "B")));
    }

    /// The blocks of link `l` (named `link_names[l]`, taken): its frame block, its inertial and
    /// its collisions, the last skipped with a warning when its mesh cannot be read. Returns
    /// the index of its frame block.
    fn link(&mut self, l: usize, link_names: &mut [String], urdf_dir: &Path) -> usize {
        let robot = self.robot;
        let link = &robot.links[l];
        let frame = self.push(ExpandedBlock {
            name: std::mem::take(&mut link_names[l]),
            type_name: "RigidTransform",
            at: Some(link.at),
            params: Vec::new(),
        });
        if let Some(inertial) = link.inertial.as_ref().filter(|i| i.mass > 0.0) {
            let at = self.place(frame, "inertial", inertial.at, &inertial.origin);
            let val = &self.val;
            let m = inertial.mass;
            let i = &inertial.inertia;
            // The Solid's geometry is drawn, not used for its mass (given with its inertia):
            // the link's equivalent box, the uniform box of the same mass and inertia, as
            // Gazebo draws inertias (a box-shaped link is drawn as itself).
            let geometry = equivalent_box(m, i, val);
            let block = ExpandedBlock {
                name: slashed(&self.out.blocks[frame].name, "inertial"),
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
            };
            let solid = self.push(block);
            self.joined.push((at, (solid, "R")));
        }
        let several = link.collisions.len() > 1;
        for (k, collision) in link.collisions.iter().enumerate() {
            let part = if several {
                format!("collision_{k}")
            } else {
                "collision".to_string()
            };
            let Some(geometry) = self.collision_geometry(link, collision, frame, &part, urdf_dir)
            else {
                continue;
            };
            let at = self.place(frame, &part, collision.at, &collision.origin);
            let block = ExpandedBlock {
                name: slashed(&self.out.blocks[frame].name, &part),
                type_name: "CollisionGeometry",
                at: Some(collision.at),
                params: vec![("geometry".into(), geometry)],
            };
            let geometry = self.push(block);
            self.joined.push((at, (geometry, "R")));
        }
        frame
    }

    /// Places `origin` on the link frame block `frame` (a RigidTransform `FRAME/PART_origin`
    /// unless it is the identity): the frame port the part attaches to.
    fn place(&mut self, frame: usize, part: &str, part_at: usize, origin: &Origin) -> End {
        if origin.is_identity() {
            return (frame, "F");
        }
        let block = ExpandedBlock {
            name: format!("{}/{part}_origin", self.out.blocks[frame].name),
            type_name: "RigidTransform",
            at: Some(part_at),
            params: self.val.origin_params(origin),
        };
        let placed = self.push(block);
        self.joined.push(((frame, "F"), (placed, "B")));
        (placed, "F")
    }

    /// The geometry of `collision` (part `part` of `link`, frame block `frame`); `None`, with
    /// a warning and the part noted as skipped, when its mesh cannot be read.
    fn collision_geometry(
        &mut self,
        link: &Link,
        collision: &Collision,
        frame: usize,
        part: &str,
        urdf_dir: &Path,
    ) -> Option<Value> {
        let val = &self.val;
        Some(match &collision.geometry {
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
                self.out
                    .files
                    .extend(mesh::resolve(filename, urdf_dir).ok());
                match mesh::hull_of(filename, *scale, urdf_dir) {
                    Ok(points) => val.table(vec![
                        ("shape", val.text(SolidShape::ConvexHull.name())),
                        ("points", val.rows(&points)),
                    ]),
                    Err(why) => {
                        let why = format!("link '{}': <collision> <mesh filename=\"{filename}\"> skipped (no contact geometry): {why}", link.name);
                        let warning = self.located(collision.at, why.clone());
                        self.out.warnings.push(warning);
                        let src = &self.robot.source;
                        let (line, column) = src.line_column(collision.at);
                        self.out.skipped.push(SkippedPart {
                            block: format!("{}/{part}", self.out.blocks[frame].name),
                            at: format!("{}:{line}:{column}", src.path),
                            why,
                        });
                        return None;
                    }
                }
            }
        })
    }

    /// Joint `j` and the blocks that place it, from its parent link's frame block `parent` to
    /// its child link's (the next block made, after these): a RigidTransform for a fixed joint;
    /// else an origin transform (unless the identity), a turn of z onto the URDF axis and back
    /// around the joint block.
    fn joint(&mut self, j: usize, parent: usize, actuation: bool) -> Result<(), Diagnostic> {
        let robot = self.robot;
        let joint = &robot.joints[j];
        let name = self.block_name("joint", &joint.name, joint.at)?;
        let at = Some(joint.at);
        let transform = |name: String, params| ExpandedBlock {
            name,
            type_name: "RigidTransform",
            at,
            params,
        };
        if joint.kind == JointKind::Fixed {
            let fixed = self.push(transform(name, self.val.origin_params(&joint.origin)));
            self.joined.push(((parent, "F"), (fixed, "B")));
            self.joined.push(((fixed, "F"), (fixed + 1, "B")));
            self.out.fixed_joints.push(joint.name.clone());
            return Ok(());
        }
        let mut upstream = (parent, "F");
        if !joint.origin.is_identity() {
            let params = self.val.origin_params(&joint.origin);
            let origin = self.push(transform(slashed(&name, "origin"), params));
            self.joined.push((upstream, (origin, "B")));
            upstream = (origin, "F");
        }
        // blockdyn's joints move along or about B's z axis: turn z onto the URDF axis
        // before the joint and back after it, so that the child turns about the axis.
        let align = match joint.kind {
            JointKind::Floating => None,
            _ => z_to(&joint.axis),
        };
        if let Some((axis, angle)) = align {
            let params = vec![("rotation".into(), self.val.axis_angle(axis, angle))];
            let into = self.push(transform(slashed(&name, "axis"), params));
            self.joined.push((upstream, (into, "B")));
            upstream = (into, "F");
        }
        let back_name = align.map(|_| slashed(&name, "axis_back"));
        self.out
            .joints
            .insert(joint.name.clone(), self.out.blocks.len());
        let block = ExpandedBlock {
            name,
            type_name: joint_type(joint.kind),
            at,
            params: joint_params(joint, actuation, &self.val),
        };
        let moving = self.push(block);
        self.joined.push((upstream, (moving, "B")));
        let mut downstream = (moving, "F");
        if let (Some((axis, angle)), Some(back_name)) = (align, back_name) {
            let params = vec![("rotation".into(), self.val.axis_angle(axis, -angle))];
            let back = self.push(transform(back_name, params));
            self.joined.push((downstream, (back, "B")));
            downstream = (back, "F");
        }
        let child = self.out.blocks.len();
        self.joined.push((downstream, (child, "B")));
        Ok(())
    }

    /// The connections of `joined` made, in order, each end naming its block.
    fn make_connections(&mut self) {
        let blocks = &self.out.blocks;
        let end = |(block, port): End| (blocks[block].name.clone(), port);
        let val = &self.val;
        self.out.connections = (self.joined.iter())
            .map(|&(from, to)| val.joined(end(from), end(to)))
            .collect();
    }

    /// What was read but is not simulated: one warning per kind of element.
    fn ignored_warnings(&mut self) {
        let mut kinds: Vec<(&str, &'static str, usize, usize)> = Vec::new();
        for i in &self.robot.ignored {
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
            let warning = self.located(at, format!("{what}: {why}"));
            self.out.warnings.push(warning);
        }
    }
}

/// The block type of a movable joint.
fn joint_type(kind: JointKind) -> &'static str {
    match kind {
        JointKind::Revolute | JointKind::Continuous => "RevoluteJoint",
        JointKind::Prismatic => "PrismaticJoint",
        JointKind::Floating => "SixDofJoint",
        JointKind::Planar => "PlanarJoint",
        JointKind::Fixed => unreachable!("a fixed joint is a RigidTransform"),
    }
}

/// A movable joint block's parameters: its limits, damping, friction and (with `actuation`, on
/// a one-degree-of-freedom joint) its torque or force input and effort limit.
fn joint_params(joint: &Joint, actuation: bool, val: &Values) -> Vec<(String, Value)> {
    let mut params = Vec::new();
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
    if actuation && one_dof {
        params.push(("actuation".into(), val.text("input")));
        if let Some(e) = joint.effort {
            params.push(("effort_limit".into(), val.num(e)));
        }
    }
    params
}
