//! Reading a URDF file into a [`Robot`]: its links and joints with every number checked, each
//! element remembering where it was written (for messages: `robot.urdf:12:5`).
//!
//! The XML is parsed by roxmltree, which keeps byte positions; URDF's own rules (which elements,
//! which attributes, which numbers) are applied here, so that a bad file is reported at the
//! element that is wrong, with what to write instead. Elements blockdyn does not simulate
//! (visuals, materials, transmissions, Gazebo extensions, …) are collected as [`Ignored`] for the
//! warnings; elements this reader does not know at all are ignored the same way, by name.

use crate::model::{Diagnostic, SourceFile};
use nalgebra::{Matrix3, Vector3};
use std::collections::HashMap;

pub use super::position::{error_at, At};

/// `<origin xyz="..." rpy="..."/>`: a pose, rpy fixed-axis X-Y-Z (R = Rz(y)·Ry(p)·Rx(r)).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Origin {
    /// m.
    pub xyz: [f64; 3],
    /// rad: roll, pitch, yaw.
    pub rpy: [f64; 3],
}

impl Origin {
    /// True when the pose is the identity (nothing to place).
    pub fn is_identity(&self) -> bool {
        self.xyz == [0.0; 3] && self.rpy == [0.0; 3]
    }
}

/// A link's `<inertial>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Inertial {
    pub origin: Origin,
    /// kg.
    pub mass: f64,
    /// About the centre of mass, in the inertial frame, kg·m².
    pub inertia: Matrix3<f64>,
    pub at: At,
}

/// A collision element's shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Geometry {
    /// Full edge lengths, m.
    Box {
        size: [f64; 3],
    },
    Sphere {
        radius: f64,
    },
    /// Axis along z.
    Cylinder {
        radius: f64,
        length: f64,
    },
    /// A mesh file, as written, with its scale.
    Mesh {
        filename: String,
        scale: [f64; 3],
    },
}

/// A link's `<collision>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Collision {
    pub origin: Origin,
    pub geometry: Geometry,
    /// Where the `<collision>` element is.
    pub at: At,
}

/// A `<link>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub name: String,
    pub inertial: Option<Inertial>,
    pub collisions: Vec<Collision>,
    pub at: At,
}

/// The joint types of URDF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointKind {
    Revolute,
    Continuous,
    Prismatic,
    Fixed,
    Floating,
    Planar,
}

impl JointKind {
    const NAMES: [(&'static str, JointKind); 6] = [
        ("revolute", JointKind::Revolute),
        ("continuous", JointKind::Continuous),
        ("prismatic", JointKind::Prismatic),
        ("fixed", JointKind::Fixed),
        ("floating", JointKind::Floating),
        ("planar", JointKind::Planar),
    ];

    /// The name URDF writes.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("", |(n, _)| n)
    }
}

/// `<limit lower upper .../>` of a revolute or prismatic joint (rad or m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    pub lower: f64,
    pub upper: f64,
}

/// A `<joint>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    pub name: String,
    pub kind: JointKind,
    pub origin: Origin,
    pub parent: String,
    pub parent_at: At,
    pub child: String,
    pub child_at: At,
    /// Unit, in the joint frame (default x, as URDF says).
    pub axis: Vector3<f64>,
    pub limit: Option<Limit>,
    /// `<dynamics damping>`, N·m·s/rad or N·s/m.
    pub damping: Option<f64>,
    /// `<dynamics friction>` when > 0: a Coulomb friction limit, N·m or N.
    pub friction: Option<f64>,
    /// `<limit effort>` when > 0: the largest actuation torque or force, N·m or N.
    pub effort: Option<f64>,
    pub at: At,
}

/// An element read but not simulated: its tag (`visual`, `transmission`, …) and place.
#[derive(Clone, Debug, PartialEq)]
pub struct Ignored {
    /// The element's tag, with its parent's when that says more (`joint/mimic`).
    pub element: String,
    /// Why it is not simulated.
    pub why: &'static str,
    pub at: At,
}

/// A URDF file, read and checked element by element (the tree is checked by
/// [`super::tree::KinematicTree`]).
#[derive(Clone, Debug)]
pub struct Robot {
    pub name: String,
    pub links: Vec<Link>,
    pub joints: Vec<Joint>,
    pub ignored: Vec<Ignored>,
    /// The file, for messages.
    pub source: SourceFile,
}

/// Reads the URDF text of `source`.
pub fn read_robot(source: SourceFile) -> Result<Robot, Diagnostic> {
    super::entities::check_expansion(&source)?;
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let text = source.text.clone();
    let doc = roxmltree::Document::parse_with_options(&text, options).map_err(|e| {
        let pos = e.pos();
        let mut message = e.to_string();
        // roxmltree ends its messages with " at LINE:COLUMN": the place goes in front instead.
        if let Some(k) = message.rfind(" at ") {
            message.truncate(k);
        }
        let mut d = Diagnostic::new(format!("invalid XML: {message}")).hint(
            "a URDF file is XML: check that every element is closed and every attribute quoted",
        );
        d.file = Some(source.path.as_str().into());
        d.line_column = Some((pos.row, pos.col));
        d
    })?;
    let root = doc.root_element();
    let r = Reader { source: &source };
    if root.tag_name().name() != "robot" {
        return Err(r
            .at(&root, format!("the root element is <{}>, not <robot>", root.tag_name().name()))
            .hint("a URDF file is one <robot name=\"...\"> element holding <link> and <joint> elements"));
    }
    let name = r.required_attr(&root, "name")?.to_string();
    let mut robot = Robot {
        name,
        links: Vec::new(),
        joints: Vec::new(),
        ignored: Vec::new(),
        source: source.clone(),
    };
    // Names already read, to their element's place (a map: a search per element is quadratic
    // in a 20,000-joint chain). Keyed SipHash: the names come from the file (see
    // `model::importer::refuse_duplicates`).
    let mut link_at: HashMap<String, At> = HashMap::new();
    let mut joint_at: HashMap<String, At> = HashMap::new();
    for node in root.children().filter(|n| n.is_element()) {
        match node.tag_name().name() {
            "link" => {
                let link = r.link(&node, &mut robot.ignored)?;
                if let Some(&first) = link_at.get(&link.name) {
                    let (line, _) = source.line_column(first);
                    return Err(r
                        .at(
                            &node,
                            format!(
                                "a second link named '{}' (the first is at line {line})",
                                link.name
                            ),
                        )
                        .hint("link names are unique in a URDF file: rename one"));
                }
                link_at.insert(link.name.clone(), link.at);
                robot.links.push(link);
            }
            "joint" => {
                let joint = r.joint(&node, &mut robot.ignored)?;
                if let Some(&first) = joint_at.get(&joint.name) {
                    let (line, _) = source.line_column(first);
                    return Err(r
                        .at(
                            &node,
                            format!(
                                "a second joint named '{}' (the first is at line {line})",
                                joint.name
                            ),
                        )
                        .hint("joint names are unique in a URDF file: rename one"));
                }
                joint_at.insert(joint.name.clone(), joint.at);
                robot.joints.push(joint);
            }
            "material" => robot.ignored.push(ignored(&node, "material", VISUAL)),
            "transmission" => robot.ignored.push(ignored(
                &node,
                "transmission",
                "actuators are the joints' torque inputs (actuation = \"input\")",
            )),
            "gazebo" => robot.ignored.push(ignored(
                &node,
                "gazebo",
                "Gazebo's simulator settings have no meaning here",
            )),
            other => robot.ignored.push(ignored(&node, other, UNKNOWN)),
        }
    }
    if robot.links.is_empty() {
        return Err(r
            .at(&root, format!("robot '{}' has no <link>", robot.name))
            .hint("add at least one <link name=\"...\"> with an <inertial>"));
    }
    Ok(robot)
}

const VISUAL: &str = "blockdyn draws the collision geometry and the inertia";
const UNKNOWN: &str = "not part of URDF as blockdyn reads it";

fn ignored(node: &roxmltree::Node, element: &str, why: &'static str) -> Ignored {
    Ignored {
        element: element.to_string(),
        why,
        at: node.range().start,
    }
}

mod joint_dynamics;
mod reader;

use reader::Reader;

impl Reader<'_> {
    fn origin(&self, node: &roxmltree::Node) -> Result<Origin, Diagnostic> {
        match self.only_child(node, "origin")? {
            None => Ok(Origin::default()),
            Some(o) => Ok(Origin {
                xyz: self.numbers(&o, "xyz", Some([0.0; 3]))?,
                rpy: self.numbers(&o, "rpy", Some([0.0; 3]))?,
            }),
        }
    }

    fn link(
        &self,
        node: &roxmltree::Node,
        ignored_out: &mut Vec<Ignored>,
    ) -> Result<Link, Diagnostic> {
        let name = self.required_attr(node, "name")?.to_string();
        let mut link = Link {
            name,
            inertial: None,
            collisions: Vec::new(),
            at: node.range().start,
        };
        for child in node.children().filter(|n| n.is_element()) {
            match child.tag_name().name() {
                "inertial" => {
                    if link.inertial.is_some() {
                        return Err(self
                            .at(
                                &child,
                                format!("a second <inertial> in link '{}'", link.name),
                            )
                            .hint("a link has at most one <inertial>"));
                    }
                    link.inertial = Some(self.inertial(&child)?);
                }
                "collision" => link.collisions.push(Collision {
                    origin: self.origin(&child)?,
                    geometry: self.geometry(&child)?,
                    at: child.range().start,
                }),
                "visual" => ignored_out.push(ignored(&child, "visual", VISUAL)),
                other => ignored_out.push(ignored(&child, &format!("link/{other}"), UNKNOWN)),
            }
        }
        Ok(link)
    }

    fn inertial(&self, node: &roxmltree::Node) -> Result<Inertial, Diagnostic> {
        let origin = self.origin(node)?;
        let mass_node = self.only_child(node, "mass")?.ok_or_else(|| {
            self.at(node, "<inertial> has no <mass>")
                .hint("write <mass value=\"1.0\"/> (kg)")
        })?;
        let mass = self.number(&mass_node, "value")?;
        if mass < 0.0 {
            return Err(self
                .attr_error(
                    &mass_node,
                    "value",
                    format!("the mass is negative ({mass} kg)"),
                )
                .hint("write the mass in kg, 0 or more"));
        }
        let i = match self.only_child(node, "inertia")? {
            Some(i) => i,
            None if mass == 0.0 => {
                return Ok(Inertial {
                    origin,
                    mass,
                    inertia: Matrix3::zeros(),
                    at: node.range().start,
                })
            }
            None => {
                return Err(self.at(node, "<inertial> has no <inertia>").hint(
                    "write <inertia ixx=\"..\" ixy=\"0\" ixz=\"0\" iyy=\"..\" iyz=\"0\" izz=\"..\"/> (kg·m², about the centre of mass)",
                ))
            }
        };
        let mut v = [0.0; 6];
        for (k, key) in ["ixx", "ixy", "ixz", "iyy", "iyz", "izz"]
            .iter()
            .enumerate()
        {
            v[k] = self.number(&i, key)?;
        }
        let [ixx, ixy, ixz, iyy, iyz, izz] = v;
        let inertia = Matrix3::new(ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz);
        let eig = inertia.symmetric_eigenvalues();
        let scale = eig.amax().max(f64::MIN_POSITIVE);
        let tol = 1e-9 * scale;
        let positive = eig.iter().all(|e| *e >= -tol);
        let triangle = eig[0] + eig[1] + tol >= eig[2]
            && eig[1] + eig[2] + tol >= eig[0]
            && eig[0] + eig[2] + tol >= eig[1];
        if !(positive && triangle) {
            return Err(self
                .at(&i, format!(
                    "<inertia> is not a physical inertia: principal moments {:.6e}, {:.6e}, {:.6e} kg·m² (each must be ≥ 0 and at most the sum of the other two)",
                    eig[0], eig[1], eig[2]
                ))
                .hint("check the values and signs: ixx, iyy, izz are moments about the centre of mass, ixy, ixz, iyz products of inertia, in the <inertial>'s frame"));
        }
        Ok(Inertial {
            origin,
            mass,
            inertia,
            at: node.range().start,
        })
    }

    fn geometry(&self, collision: &roxmltree::Node) -> Result<Geometry, Diagnostic> {
        let g = self.only_child(collision, "geometry")?.ok_or_else(|| {
            self.at(collision, "<collision> has no <geometry>")
                .hint("write <geometry><box size=\"0.1 0.1 0.1\"/></geometry> (or sphere, cylinder, mesh)")
        })?;
        let shapes: Vec<roxmltree::Node> = g.children().filter(|n| n.is_element()).collect();
        let shape = match shapes.as_slice() {
            [one] => one,
            [] => {
                return Err(self.at(&g, "<geometry> holds no shape").hint(
                    "write one of <box size=\"x y z\"/>, <sphere radius=\"r\"/>, <cylinder radius=\"r\" length=\"l\"/>, <mesh filename=\"...\"/>",
                ))
            }
            [_, second, ..] => {
                return Err(self
                    .at(second, "<geometry> holds more than one shape")
                    .hint("write one shape per <collision>; add another <collision> for the next"))
            }
        };
        match shape.tag_name().name() {
            "box" => {
                let size = self.numbers::<3>(shape, "size", None)?;
                if size.iter().any(|s| *s <= 0.0) {
                    return Err(self
                        .attr_error(
                            shape,
                            "size",
                            "<box size>: every edge length must be positive",
                        )
                        .hint("write the full edge lengths in m, e.g. size=\"0.2 0.1 0.05\""));
                }
                Ok(Geometry::Box { size })
            }
            "sphere" => Ok(Geometry::Sphere {
                radius: self.positive(shape, "radius", "m")?,
            }),
            "cylinder" => Ok(Geometry::Cylinder {
                radius: self.positive(shape, "radius", "m")?,
                length: self.positive(shape, "length", "m")?,
            }),
            "mesh" => Ok(Geometry::Mesh {
                filename: self.required_attr(shape, "filename")?.to_string(),
                scale: self.numbers(shape, "scale", Some([1.0; 3]))?,
            }),
            other => Err(self
                .at(shape, format!("<{other}> is not a URDF geometry"))
                .hint("write <box>, <sphere>, <cylinder> or <mesh>")),
        }
    }

    fn joint(
        &self,
        node: &roxmltree::Node,
        ignored_out: &mut Vec<Ignored>,
    ) -> Result<Joint, Diagnostic> {
        let name = self.required_attr(node, "name")?.to_string();
        let type_text = self.required_attr(node, "type")?;
        let kind = JointKind::NAMES
            .iter()
            .find(|(n, _)| *n == type_text)
            .map(|(_, k)| *k)
            .ok_or_else(|| {
                self.attr_error(node, "type", format!("joint '{name}' has an unknown type \"{type_text}\""))
                    .hint("write type=\"revolute\", \"continuous\", \"prismatic\", \"fixed\", \"floating\" or \"planar\"")
            })?;
        let link_of = |tag: &str| -> Result<(String, At), Diagnostic> {
            let n = self.only_child(node, tag)?.ok_or_else(|| {
                self.at(node, format!("joint '{name}' has no <{tag}>"))
                    .hint(format!("write <{tag} link=\"...\"/>"))
            })?;
            Ok((self.required_attr(&n, "link")?.to_string(), n.range().start))
        };
        let (parent, parent_at) = link_of("parent")?;
        let (child, child_at) = link_of("child")?;
        let axis = match self.only_child(node, "axis")? {
            None => Vector3::x(),
            Some(a) => {
                let v = Vector3::from(self.numbers::<3>(&a, "xyz", Some([1.0, 0.0, 0.0]))?);
                let n = v.norm();
                if n < 1e-9 {
                    return Err(self
                        .attr_error(&a, "xyz", format!("joint '{name}': the axis is zero"))
                        .hint("write a unit vector in the joint frame, e.g. xyz=\"0 0 1\""));
                }
                v / n
            }
        };
        let mut effort = None;
        let limit = match self.only_child(node, "limit")? {
            None if matches!(kind, JointKind::Revolute | JointKind::Prismatic) => {
                return Err(self
                    .at(node, format!("{} joint '{name}' has no <limit>", kind.name()))
                    .hint(if kind == JointKind::Revolute {
                        "write <limit lower=\"-1.57\" upper=\"1.57\" effort=\"10\" velocity=\"5\"/>, or type=\"continuous\" for a joint without limits"
                    } else {
                        "write <limit lower=\"-0.1\" upper=\"0.1\" effort=\"100\" velocity=\"1\"/>"
                    }))
            }
            None => None,
            Some(l) => {
                let lower = self.number_or(&l, "lower", 0.0)?;
                let upper = self.number_or(&l, "upper", 0.0)?;
                // effort saturates the actuation input (when the joints are actuated);
                // velocity is read (so that a malformed number is reported) and warned about.
                effort = self.limit_effort(&l, &name)?;
                if self.number_or(&l, "velocity", 0.0)? > 0.0 {
                    ignored_out.push(ignored(
                        &l,
                        "joint/limit velocity",
                        "joint velocity limits are not simulated",
                    ));
                }
                if lower > upper {
                    return Err(self
                        .at(&l, format!("joint '{name}': lower limit {lower} is above upper limit {upper}"))
                        .hint("swap them: lower ≤ upper (rad for revolute, m for prismatic)"));
                }
                matches!(kind, JointKind::Revolute | JointKind::Prismatic)
                    .then_some(Limit { lower, upper })
            }
        };
        let mut damping = None;
        let mut friction = None;
        if let Some(d) = self.only_child(node, "dynamics")? {
            let c = self.number_or(&d, "damping", 0.0)?;
            if c < 0.0 {
                return Err(self
                    .attr_error(
                        &d,
                        "damping",
                        format!("joint '{name}': negative damping {c}"),
                    )
                    .hint("write a damping of 0 or more (N·m·s/rad or N·s/m)"));
            }
            damping = (c > 0.0).then_some(c);
            friction = self.dynamics_friction(&d, &name)?;
        }
        for child in node.children().filter(|n| n.is_element()) {
            let tag = child.tag_name().name();
            let why = match tag {
                "origin" | "parent" | "child" | "axis" | "limit" | "dynamics" => continue,
                "mimic" => "the joint moves independently: couple joints in the diagram instead",
                "calibration" | "safety_controller" => "controller settings are not simulated",
                _ => UNKNOWN,
            };
            ignored_out.push(ignored(&child, &format!("joint/{tag}"), why));
        }
        Ok(Joint {
            name,
            kind,
            origin: self.origin(node)?,
            parent,
            parent_at,
            child,
            child_at,
            axis,
            limit,
            damping,
            friction,
            effort,
            at: node.range().start,
        })
    }
}
