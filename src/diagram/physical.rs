//! Elaboration of the physical network: frame ports, joints, solids and geometries become one
//! mechanism block; joint and consumer blocks are bound to it through hidden signal lines.
//!
//! Runs after blocks are instantiated and connections resolved, before shapes and layout. A model
//! without physical blocks is left untouched.

use super::build::Instance;
use super::SignalLine;
use crate::block::{Binding, HiddenPort, PhysicalRole, PortBinding, PortKind};
use crate::blocks::multibody::MechanismBlock;
use crate::geometry::Shape;
use crate::model::{Diagnostic, PortRef, SourceFile, Span};
use crate::multibody::errors::{ErrorSubject, MechanismError};
use crate::multibody::{BodyIndex, Mechanism};
use crate::multibody::{FrameId, FrameNetworkBuilder};
use nalgebra::{Isometry3, Vector3};
use std::collections::HashMap;
use std::sync::Arc;

pub use crate::multibody::STANDARD_GRAVITY;

/// A geometry fixed to a body of the mechanism: what an animation draws.
#[derive(Clone, Debug)]
pub struct PlacedGeometry {
    /// The Solid or geometry block that provides it.
    pub block: String,
    /// The shape, in its own frame R.
    pub shape: Shape,
    /// True for a Solid (a body with mass), false for a massless geometry block.
    pub solid: bool,
    /// The body it is fixed to (0 = World).
    pub body: BodyIndex,
    /// Pose of the geometry's frame R in the body's frame.
    pub r_in_body: Isometry3<f64>,
}

/// The compiled mechanism and every geometry on it, for whoever needs poses outside the block
/// graph (the animation).
#[derive(Clone, Debug)]
pub struct PhysicalScene {
    pub mechanism: Arc<Mechanism>,
    /// Index of the mechanism block in [`super::Diagram::blocks`] (its states are x = [q; v]).
    pub mechanism_block: usize,
    /// Every Solid and geometry block, in model order.
    pub geometries: Vec<PlacedGeometry>,
}

/// One physical (`--`) connection as written.
pub struct PhysicalLine {
    pub a: PortRef,
    pub b: PortRef,
    pub span: Span,
}

/// Compiles the physical blocks into a mechanism block appended to `instances`, and adds the hidden
/// signal lines that bind joints and consumers to it. Returns the scene (`None` for a model
/// without physical blocks).
pub fn elaborate(
    source: &SourceFile,
    instances: &mut Vec<Instance>,
    physical: &[PhysicalLine],
    lines: &mut Vec<SignalLine>,
    line_spans: &mut Vec<Span>,
) -> Result<Option<PhysicalScene>, Diagnostic> {
    let has_role = instances.iter().any(|i| i.block.physical().is_some());
    if !has_role {
        return Ok(None);
    }
    let index_of = |name: &str| instances.iter().position(|i| i.name == name);

    // Frames: every frame port of every physical block.
    let mut net = FrameNetworkBuilder::new();
    let mut frame_of: HashMap<(usize, String), FrameId> = HashMap::new();
    // Frame label → the block it belongs to (for locating mechanism errors).
    let mut block_of_frame: HashMap<String, usize> = HashMap::new();
    for (b, inst) in instances.iter().enumerate() {
        if inst.block.physical().is_none() {
            continue;
        }
        for p in inst
            .block
            .physical_ports()
            .iter()
            .filter(|p| p.kind == PortKind::Frame)
        {
            let label = format!("{}.{}", inst.name, p.name);
            let id = net.add_frame(&label);
            frame_of.insert((b, p.name.clone()), id);
            block_of_frame.insert(label, b);
        }
    }
    let frame = |b: usize, port: &str| frame_of.get(&(b, port.to_string())).copied();

    // Connections.
    let mut geometry_of: HashMap<(usize, String), usize> = HashMap::new();
    for line in physical {
        let (Some(a), Some(b)) = (index_of(&line.a.block), index_of(&line.b.block)) else {
            continue;
        };
        let at = |m: String| Diagnostic::at(source, &line.span, m);
        match (frame(a, &line.a.port), frame(b, &line.b.port)) {
            (Some(fa), Some(fb)) => {
                net.connect(fa, fb);
                continue;
            }
            (None, None) => {}
            _ => {
                return Err(at(format!("cannot connect {} to {}", line.a, line.b))
                    .hint("frame ports connect to frame ports"))
            }
        }
        // Geometry: one provider (a Solid's or geometry block's G) and one consumer port.
        let provides = |x: usize| {
            matches!(
                instances[x].block.physical(),
                Some(PhysicalRole::Solid { .. } | PhysicalRole::Geometry { .. })
            )
        };
        let consumes =
            |x: usize| matches!(instances[x].block.physical(), Some(PhysicalRole::Consumer));
        let (consumer, port, provider) = match (provides(a), provides(b), consumes(a), consumes(b)) {
            (true, _, _, true) => (b, &line.b.port, a),
            (_, true, true, _) => (a, &line.a.port, b),
            (true, true, _, _) => {
                return Err(at(format!("{} and {} are both geometries: a geometry connects to a contact block", line.a, line.b))
                    .hint("connect each geometry to a SpatialContactForce's B or F port (or a GroundContact's F port)"))
            }
            _ => return Err(at(format!("cannot connect {} to {}", line.a, line.b)).hint("geometry ports connect a Solid or geometry block's G to a contact block")),
        };
        if geometry_of
            .insert((consumer, port.clone()), provider)
            .is_some()
        {
            return Err(at(format!("geometry port {}.{} is connected twice", instances[consumer].name, port))
                .hint("a contact port takes one geometry; use a PointCloud or a second contact block for more"));
        }
    }

    // Roles.
    let mut gravity: Option<(usize, Vector3<f64>)> = None;
    let mut joints: Vec<(usize, usize)> = Vec::new(); // (instance, joint id)
    for (b, inst) in instances.iter().enumerate() {
        let Some(role) = inst.block.physical() else {
            continue;
        };
        let f = |p: &str| {
            frame(b, p).ok_or_else(|| {
                locate(
                    source,
                    instances,
                    b,
                    format!("internal: block has no frame port {p}"),
                )
            })
        };
        match role {
            PhysicalRole::World => net.set_world(f("W")?),
            PhysicalRole::Configuration { gravity: g } => {
                if let Some((other, _)) = gravity {
                    return Err(locate(
                        source,
                        instances,
                        b,
                        format!(
                            "a second MechanismConfiguration (the first is '{}')",
                            instances[other].name
                        ),
                    )
                    .hint("a model has one MechanismConfiguration; remove one"));
                }
                gravity = Some((b, *g));
            }
            PhysicalRole::RigidTransform { follower_in_base } => {
                net.add_rigid_transform(f("B")?, f("F")?, *follower_in_base)
            }
            PhysicalRole::Solid { inertia, .. } => net.add_solid(
                f("R")?,
                inertia.mass,
                inertia.com,
                inertia.inertia_about_com,
                &inst.name,
            ),
            PhysicalRole::Geometry { .. } | PhysicalRole::Consumer => {}
            PhysicalRole::Joint { spec } => {
                let id = net.add_joint(f("B")?, f("F")?, spec.clone(), &inst.name);
                joints.push((b, id));
            }
        }
    }
    let g = gravity.map_or(Vector3::from(STANDARD_GRAVITY), |(_, g)| g);
    let mechanism = net.build(g).map_err(|e| {
        // Locate the error at the block it is about (joints and solids are labelled by their
        // block's name, frames as "block.port").
        let block = match e.subject() {
            Some(ErrorSubject::Joint(name) | ErrorSubject::Solid(name)) => {
                instances.iter().position(|i| i.name == name)
            }
            Some(ErrorSubject::Frame(label)) => block_of_frame.get(label).copied(),
            None => None,
        };
        match block {
            Some(b) => locate(source, instances, b, e.to_string()),
            None if e == MechanismError::NoWorldFrame => no_world_frame(source, instances),
            None => Diagnostic::at(source, &None, e.to_string()),
        }
    })?;

    let mech_index = instances.len();
    let mut mech = MechanismBlock::new(mechanism);
    let bindings_source = mech.mechanism().clone();
    let m = &bindings_source;

    // Bind joints and consumers.
    let bind_ports = |b: usize| -> Result<Vec<PortBinding>, Diagnostic> {
        let inst = &instances[b];
        let mut out = Vec::new();
        for p in inst.block.physical_ports() {
            let binding = match p.kind {
                PortKind::Frame => {
                    let (body, placement) = m.frame_placement(frame_of[&(b, p.name.clone())]);
                    PortBinding {
                        port: p.name.clone(),
                        body,
                        placement,
                        geometry: None,
                    }
                }
                PortKind::Geometry => {
                    let Some(&provider) = geometry_of.get(&(b, p.name.clone())) else {
                        if matches!(inst.block.physical(), Some(PhysicalRole::Consumer))
                            && !p.optional
                        {
                            return Err(locate(
                                source,
                                instances,
                                b,
                                format!("geometry port {}.{} is not connected", inst.name, p.name),
                            )
                            .hint(format!(
                                "add \"solid.G -- {}.{}\" to connect = [...]",
                                inst.name, p.name
                            )));
                        }
                        continue;
                    };
                    let (body, placement) =
                        m.frame_placement(frame_of[&(provider, "R".to_string())]);
                    let shape: Shape = match instances[provider].block.physical() {
                        Some(
                            PhysicalRole::Solid { shape, .. } | PhysicalRole::Geometry { shape },
                        ) => shape.clone(),
                        _ => continue,
                    };
                    let label = format!("{}.G", instances[provider].name);
                    PortBinding {
                        port: p.name.clone(),
                        body,
                        placement,
                        geometry: Some((shape, label)),
                    }
                }
                PortKind::Signal => continue,
            };
            out.push(binding);
        }
        Ok(out)
    };
    let mut binds: Vec<(usize, Binding)> = Vec::new();
    for &(b, id) in &joints {
        let (nq, nv) = m.joint_state_sizes(id);
        binds.push((
            b,
            Binding {
                ports: bind_ports(b)?,
                joint: Some((id, nq, nv)),
                gravity: g,
            },
        ));
    }
    for (b, inst) in instances.iter().enumerate() {
        if matches!(inst.block.physical(), Some(PhysicalRole::Consumer)) {
            binds.push((
                b,
                Binding {
                    ports: bind_ports(b)?,
                    joint: None,
                    gravity: g,
                },
            ));
        }
    }
    for (b, binding) in binds {
        let bound = instances[b].block.bind(&binding);
        bound.map_err(|msg| locate(source, instances, b, msg))?;
        instances[b].binding = Some(binding.clone());
        // Hidden ports: inputs read a port's body kinematics or a joint's state; outputs send a
        // wrench on a port's body or a joint's actuation. Wired by what they carry, not by name.
        let hidden: Vec<(usize, HiddenPort)> = {
            let blk = &instances[b].block;
            let ins = blk.inputs().iter().enumerate();
            let outs = blk.outputs().iter().enumerate();
            ins.chain(outs)
                .filter_map(|(k, p)| p.hidden.clone().map(|h| (k, h)))
                .collect()
        };
        for (port, what) in hidden {
            let body_of = |physical_port: &str| {
                binding.port(physical_port).map(|p| p.body).ok_or_else(|| {
                    locate(
                        source,
                        instances,
                        b,
                        format!("internal: physical port '{physical_port}' was not bound"),
                    )
                })
            };
            let joint = || {
                binding.joint.map(|(j, _, _)| j).ok_or_else(|| {
                    locate(
                        source,
                        instances,
                        b,
                        "internal: a joint port on a block that is not a joint".to_string(),
                    )
                })
            };
            let closes_loop = binding.joint.is_some_and(|(j, _, _)| m.cut_of(j).is_some());
            if closes_loop
                && matches!(
                    what,
                    HiddenPort::JointActuation | HiddenPort::RigidConstraint
                )
            {
                return Err(locate(
                    source,
                    instances,
                    b,
                    format!(
                        "joint '{}' closes a kinematic loop, so it cannot have limits or actuation (a loop closure has no coordinates to act on)",
                        instances[b].name
                    ),
                )
                .hint("put the limits or the actuation on another joint of the loop, or connect this joint earlier so that another one closes the loop"));
            }
            let line = match what {
                HiddenPort::JointState => SignalLine {
                    from: mech_index,
                    from_port: mech.joint_output(joint()?),
                    index: None,
                    to: b,
                    to_port: port,
                },
                HiddenPort::BodyKinematics { port: physical } => SignalLine {
                    from: mech_index,
                    from_port: mech.body_output(body_of(&physical)?),
                    index: None,
                    to: b,
                    to_port: port,
                },
                HiddenPort::JointActuation => SignalLine {
                    from: b,
                    from_port: port,
                    index: None,
                    to: mech_index,
                    to_port: mech.add_actuation_input(joint()?),
                },
                HiddenPort::BodyWrench { port: physical } => SignalLine {
                    from: b,
                    from_port: port,
                    index: None,
                    to: mech_index,
                    to_port: mech.add_wrench_input(body_of(&physical)?),
                },
                HiddenPort::RigidConstraint => {
                    let mut pair = instances[b].block.rigid_constraint().ok_or_else(|| {
                        locate(
                            source,
                            instances,
                            b,
                            "internal: a rigid-constraint port on a block without a constraint"
                                .to_string(),
                        )
                    })?;
                    pair.label = instances[b].name.clone();
                    SignalLine {
                        from: mech_index,
                        from_port: mech.add_rigid_constraint(pair),
                        index: None,
                        to: b,
                        to_port: port,
                    }
                }
                HiddenPort::Mechanism => continue,
            };
            lines.push(line);
            line_spans.push(instances[b].span.clone());
        }
    }
    let geometries = instances
        .iter()
        .enumerate()
        .filter_map(|(b, inst)| {
            let (shape, solid) = match inst.block.physical()? {
                PhysicalRole::Solid { shape, .. } => (shape, true),
                PhysicalRole::Geometry { shape } => (shape, false),
                _ => return None,
            };
            let (body, r_in_body) = m.frame_placement(frame(b, "R")?);
            Some(PlacedGeometry {
                block: inst.name.clone(),
                shape: shape.clone(),
                solid,
                body,
                r_in_body,
            })
        })
        .collect();
    let scene = PhysicalScene {
        mechanism: bindings_source.clone(),
        mechanism_block: mech_index,
        geometries,
    };
    let mut name = "mechanism".to_string();
    while instances.iter().any(|i| i.name == name) {
        name.push('_');
    }
    instances.push(Instance {
        name,
        type_name: "Mechanism",
        block: Box::new(mech),
        span: None,
        origin: None,
        binding: None,
    });
    Ok(Some(scene))
}

/// A diagnostic at block `b`.
/// "The mechanism has no World frame", located at the first block of the frame network (in the
/// file's order), with the two lines to add.
fn no_world_frame(source: &SourceFile, instances: &[Instance]) -> Diagnostic {
    let first = instances.iter().enumerate().find_map(|(b, inst)| {
        let port = match inst.block.physical()? {
            PhysicalRole::Joint { .. } | PhysicalRole::RigidTransform { .. } => "B",
            PhysicalRole::Solid { .. } | PhysicalRole::Geometry { .. } => "R",
            _ => return None,
        };
        Some((b, port))
    });
    let message = "the mechanism has no World frame: nothing roots its frames in space";
    match first {
        Some((b, port)) => locate(source, instances, b, message.into()).hint(format!(
            "add [blocks.world] with type = \"WorldFrame\", and \"world.W -- {}.{port}\" to connect = [...]",
            instances[b].name
        )),
        None => Diagnostic::at(source, &None, message).hint(
            "add [blocks.world] with type = \"WorldFrame\" and connect its W port to the frame network",
        ),
    }
}

fn locate(source: &SourceFile, instances: &[Instance], b: usize, message: String) -> Diagnostic {
    Diagnostic::at(source, &instances[b].span, message).block(&instances[b].name)
}

/// The total mass of the Solids (kg) and the gravity's magnitude (m/s²; standard gravity without
/// a MechanismConfiguration) of a diagram's blocks: the load that `check`'s contact advice and
/// the rk4 stability warning assume a contact carries.
pub fn mass_and_gravity<'a>(
    blocks: impl Iterator<Item = &'a dyn crate::block::Block>,
) -> (f64, f64) {
    use crate::block::PhysicalRole;
    let mut mass = 0.0;
    let mut gravity = STANDARD_GRAVITY[2].abs();
    for b in blocks {
        match b.physical() {
            Some(PhysicalRole::Solid { inertia, .. }) => mass += inertia.mass,
            Some(PhysicalRole::Configuration { gravity: g }) => gravity = g.norm(),
            _ => {}
        }
    }
    (mass, gravity)
}
