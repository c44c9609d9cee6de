//! The second half of elaboration: joints and consumers (contact, sensors, force elements) are
//! bound to the compiled mechanism, and their typed hidden ports become signal lines to and from
//! the mechanism block.

use std::collections::HashMap;

use super::lines::locate;
use super::network::FrameWiring;
use crate::block::{Binding, HiddenPort, MechanismLowering, PhysicalRole, PortBinding, PortKind};
use crate::diagram::instance::Instance;
use crate::diagram::SignalLine;
use crate::geometry::Shape;
use crate::model::{Diagnostic, SourceFile, Span};
use crate::multibody::Mechanism;
use nalgebra::Vector3;

/// Where each physical port of block `b` ended up: its frame's body and placement, and for a
/// geometry port the connected shape. A consumer's required geometry port left unconnected is
/// an error.
fn bind_ports(
    source: &SourceFile,
    instances: &[Instance],
    wiring: &FrameWiring,
    m: &Mechanism,
    b: usize,
) -> Result<Vec<PortBinding>, Diagnostic> {
    let inst = &instances[b];
    let ports = inst.block.physical_ports();
    // Sized to the ports: every joint keeps its bindings, and a grown vector would hold twice.
    let mut out = Vec::with_capacity(ports.len());
    for p in ports {
        let binding = match p.kind {
            PortKind::Frame => {
                let Some(frame) = wiring.frame(instances, b, &p.name) else {
                    continue;
                };
                let (body, placement) = m.frame_placement(frame);
                PortBinding {
                    port: p.name.clone(),
                    body,
                    placement,
                    frame,
                    geometry: None,
                    body_inertia: m.body_inertia(body),
                }
            }
            PortKind::Geometry => {
                let Some(&provider) = wiring.geometry_of.get(&(b, p.name.clone())) else {
                    if matches!(inst.block.role(), Some(PhysicalRole::Consumer)) && !p.optional {
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
                let Some(frame) = wiring.frame(instances, provider, "R") else {
                    continue;
                };
                let (body, placement) = m.frame_placement(frame);
                let shape: Shape = match instances[provider].block.role() {
                    Some(PhysicalRole::Solid { shape, .. } | PhysicalRole::Geometry { shape }) => {
                        shape.clone()
                    }
                    _ => continue,
                };
                let label = format!("{}.G", instances[provider].name);
                PortBinding {
                    port: p.name.clone(),
                    body,
                    placement,
                    frame,
                    geometry: Some(Box::new((shape, label))),
                    body_inertia: m.body_inertia(body),
                }
            }
            PortKind::Signal => continue,
        };
        out.push(binding);
    }
    Ok(out)
}

/// The binding of every joint (with its joint id and state sizes) and every consumer block.
pub(super) fn bindings(
    source: &SourceFile,
    instances: &[Instance],
    wiring: &FrameWiring,
    m: &Mechanism,
    gravity: Vector3<f64>,
) -> Result<Vec<(usize, Binding)>, Diagnostic> {
    let mut binds = Vec::new();
    for &(b, id) in &wiring.joints {
        let (nq, nv) = m.joint_state_sizes(id);
        binds.push((
            b,
            Binding {
                ports: bind_ports(source, instances, wiring, m, b)?,
                joint: Some((id, nq, nv)),
                gravity,
                joined_bodies: Vec::new(),
                weld_on_rigid_cycle: m.weld_on_rigid_cycle(id),
            },
        ));
    }
    for (b, inst) in instances.iter().enumerate() {
        if matches!(inst.block.role(), Some(PhysicalRole::Consumer)) {
            let joined_bodies = if inst.block.geometry_members().is_some() {
                joined_bodies(m)
            } else {
                Vec::new()
            };
            binds.push((
                b,
                Binding {
                    ports: bind_ports(source, instances, wiring, m, b)?,
                    joint: None,
                    gravity,
                    joined_bodies,
                    weld_on_rigid_cycle: false,
                },
            ));
        }
    }
    Ok(binds)
}

/// The pairs of bodies (lower index first) that a joint other than a six-degree-of-freedom one
/// joins directly: each tree joint's body and its parent, and each loop closure's two bodies.
fn joined_bodies(m: &Mechanism) -> Vec<(usize, usize)> {
    use crate::multibody::JointKind;
    let ordered = |a: usize, b: usize| (a.min(b), a.max(b));
    let mut pairs: Vec<(usize, usize)> = (0..m.num_joints())
        .filter(|&j| m.joint_kind(j) != JointKind::SixDof)
        .filter_map(|j| {
            let body = m.joint_body(j)?;
            Some(ordered(body, m.parent(body)?))
        })
        .chain(
            m.cut_joints()
                .iter()
                .map(|c| ordered(c.base.0, c.follower.0)),
        )
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// The mechanism block being assembled and where it will sit among the instances.
pub(super) struct MechanismWiring<'a> {
    pub(super) block: &'a mut dyn MechanismLowering,
    pub(super) index: usize,
    pub(super) mechanism: &'a Mechanism,
}

/// Gives block `b` its binding and turns its hidden ports into signal lines: inputs read a
/// port's body kinematics, a joint's state or a rigid constraint's outputs; outputs send a
/// wrench on a port's body or a joint's actuation. Wired by what they carry, not by name.
pub(super) fn wire_block(
    source: &SourceFile,
    instances: &mut [Instance],
    mech: &mut MechanismWiring,
    b: usize,
    binding: Binding,
    lines: &mut Vec<SignalLine>,
    line_spans: &mut Vec<Span>,
) -> Result<(), Diagnostic> {
    let bound = (instances[b].block.physical_mut()).map_or(Ok(()), |p| p.bind(&binding));
    bound.map_err(|e| locate(source, instances, b, e.to_string()).caused_by(e))?;
    let hidden: Vec<(usize, HiddenPort)> = {
        let blk = &instances[b].block;
        let ins = blk.inputs().iter().enumerate();
        let outs = blk.outputs().iter().enumerate();
        ins.chain(outs)
            .filter_map(|(k, p)| p.hidden.clone().map(|h| (k, h)))
            .collect()
    };
    let internal = |message: &str| locate(source, instances, b, format!("internal: {message}"));
    let closes_loop = binding
        .joint
        .is_some_and(|(j, _, _)| mech.mechanism.cut_of(j).is_some());
    // The block's rigid constraints, asked for once, handed out in its inputs' order.
    let mut constraints = None;
    let mut next_constraint = 0;
    // A block with many physical ports (a contact group's members) looks each hidden port's up
    // by name: a map keeps that linear in the ports; a handful are searched.
    let by_name: Option<HashMap<&str, &PortBinding>> = (binding.ports.len() > 8).then(|| {
        let mut map = HashMap::with_capacity(binding.ports.len());
        for p in &binding.ports {
            map.entry(p.port.as_str()).or_insert(p); // the first, as `Binding::port` gives
        }
        map
    });
    let port_named = |name: &str| match &by_name {
        Some(map) => map.get(name).copied(),
        None => binding.port(name),
    };
    for (port, what) in hidden {
        let body_of = |physical_port: &str| {
            port_named(physical_port)
                .map(|p| p.body)
                .ok_or_else(|| internal(&format!("physical port '{physical_port}' was not bound")))
        };
        let joint = || {
            binding
                .joint
                .map(|(j, _, _)| j)
                .ok_or_else(|| internal("a joint port on a block that is not a joint"))
        };
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
        let from_mechanism = |from_port: usize| SignalLine {
            from: mech.index,
            from_port,
            index: None,
            to: b,
            to_port: port,
        };
        let to_mechanism = |to_port: usize| SignalLine {
            from: b,
            from_port: port,
            index: None,
            to: mech.index,
            to_port,
        };
        let line = match what {
            HiddenPort::JointState => from_mechanism(mech.block.joint_output(joint()?)),
            HiddenPort::BodyKinematics { port: physical } => {
                from_mechanism(mech.block.body_output(body_of(&physical)?))
            }
            HiddenPort::JointActuation => to_mechanism(mech.block.add_actuation_input(joint()?)),
            HiddenPort::JointMotion => to_mechanism(mech.block.add_motion_input(joint()?)),
            HiddenPort::JointDrive { frame } => {
                from_mechanism(mech.block.add_drive_output(joint()?, frame))
            }
            HiddenPort::BodyWrench { port: physical } => {
                let frame = port_named(&physical).map(|p| p.frame);
                to_mechanism(mech.block.add_wrench_input(body_of(&physical)?, frame))
            }
            HiddenPort::RigidConstraint => {
                let declared = constraints.get_or_insert_with(|| {
                    (instances[b].block.physical()).map_or_else(Vec::new, |p| p.rigid_constraints())
                });
                let mut pair = declared.get(next_constraint).cloned().ok_or_else(|| {
                    internal("a rigid-constraint port on a block without a constraint")
                })?;
                next_constraint += 1;
                let name = &instances[b].name;
                pair.label = if pair.label.is_empty() {
                    name.clone()
                } else {
                    format!("{name} ({})", pair.label)
                };
                from_mechanism(mech.block.add_rigid_constraint(pair))
            }
            HiddenPort::Mechanism => continue,
        };
        lines.push(line);
        line_spans.push(instances[b].span.clone());
    }
    instances[b].binding = Some(Box::new(binding));
    Ok(())
}
