//! The first half of elaboration: the frame network of the physical blocks (every frame port a
//! frame, every `--` connection between frames an identity, every role a solid, joint or rigid
//! transform), the geometry connections, and the mechanism compiled from them.

use super::lines::{locate, no_world_frame, PhysicalLine};
use crate::block::{PhysicalRole, PortKind};
use crate::diagram::instance::Instance;
use crate::model::{Diagnostic, SourceFile};
use crate::multibody::errors::{ErrorSubject, MechanismError};
use crate::multibody::STANDARD_GRAVITY;
use crate::multibody::{FrameId, FrameNetworkBuilder, JointSpec, Mechanism};
use nalgebra::Vector3;
use std::collections::HashMap;

/// The frame network being built, and where each block's ports ended up in it.
pub(super) struct FrameWiring {
    net: FrameNetworkBuilder,
    /// Each block's first frame: the frames of a block's frame ports are made in the order of
    /// its `physical_ports()` list, so its k-th frame port (counting frame ports only) is frame
    /// `first_frame[b] + k`; [`NO_FRAMES`] for a block without frame ports. One number per block
    /// instead of a list of (port name, frame) per block: at 20,000 joints the lists and a map
    /// from each frame's label to its block (read only to locate an error, now by a search)
    /// held about 15 MB and 300,000 allocations at the build's peak.
    first_frame: Vec<FrameId>,
    /// (consumer block, geometry port) → the Solid or geometry block connected to it.
    pub(super) geometry_of: HashMap<(usize, String), usize>,
    /// The joint blocks with their joint ids, in model order.
    pub(super) joints: Vec<(usize, usize)>,
    /// The gravity of the model's MechanismConfiguration (standard gravity without one), m/s².
    pub(super) gravity: Vector3<f64>,
}

/// [`FrameWiring::first_frame`] of a block without frame ports.
const NO_FRAMES: FrameId = FrameId::MAX;

/// Block `inst`'s frame ports, in the order their frames are made.
fn frame_ports(inst: &Instance) -> impl Iterator<Item = &crate::block::PortDecl> {
    let physical = inst.block.physical().is_some();
    let ports = if physical {
        inst.block.physical_ports()
    } else {
        &[]
    };
    ports.iter().filter(|p| p.kind == PortKind::Frame)
}

impl FrameWiring {
    /// Every frame port of every physical block becomes a frame of the network, labelled
    /// "block.port".
    pub(super) fn new(instances: &[Instance]) -> FrameWiring {
        let mut net = FrameNetworkBuilder::new();
        let mut first_frame = Vec::with_capacity(instances.len());
        let mut label = String::new();
        for inst in instances {
            let mut first = NO_FRAMES;
            for p in frame_ports(inst) {
                label.clear();
                label.push_str(&inst.name);
                label.push('.');
                label.push_str(&p.name);
                let id = net.add_frame(&label);
                first = first.min(id);
            }
            first_frame.push(first);
        }
        FrameWiring {
            net,
            first_frame,
            geometry_of: HashMap::new(),
            joints: Vec::new(),
            gravity: Vector3::from(STANDARD_GRAVITY),
        }
    }

    /// The frame of block `b`'s frame port `port`, if it has one. `instances` are those the
    /// wiring was made from ([`FrameWiring::new`]; blocks added since have no frames), their
    /// physical port lists unchanged since.
    pub(super) fn frame(&self, instances: &[Instance], b: usize, port: &str) -> Option<FrameId> {
        let first = *self.first_frame.get(b)?;
        if first == NO_FRAMES {
            return None;
        }
        frame_ports(&instances[b])
            .position(|p| p.name == port)
            .map(|k| first + k)
    }

    /// The block whose frame port's frame is labelled `label` ("block.port"); a search, for
    /// locating an error.
    fn block_of_frame(instances: &[Instance], label: &str) -> Option<usize> {
        instances.iter().position(|inst| {
            label
                .strip_prefix(inst.name.as_str())
                .and_then(|rest| rest.strip_prefix('.'))
                .is_some_and(|port| frame_ports(inst).any(|p| p.name == port))
        })
    }

    /// The `--` connections: frames are joined, and each geometry port gets its provider.
    pub(super) fn connect(
        &mut self,
        source: &SourceFile,
        instances: &[Instance],
        physical: &[PhysicalLine],
    ) -> Result<(), Diagnostic> {
        for line in physical {
            let (a, b) = (line.a.block(), line.b.block());
            let (a_port, b_port) = (&line.a.decl(instances).name, &line.b.decl(instances).name);
            let at = |m: String| Diagnostic::at(source, &line.span, m);
            let written = || (line.a.written(instances), line.b.written(instances));
            match (
                self.frame(instances, a, a_port),
                self.frame(instances, b, b_port),
            ) {
                (Some(fa), Some(fb)) => {
                    self.net.connect(fa, fb);
                    continue;
                }
                (None, None) => {}
                _ => {
                    let (a, b) = written();
                    return Err(at(format!("cannot connect {a} to {b}"))
                        .hint("frame ports connect to frame ports"));
                }
            }
            // Geometry: one provider (a Solid's or geometry block's G) and one consumer port.
            let provides = |x: usize| {
                matches!(
                    instances[x].block.role(),
                    Some(PhysicalRole::Solid { .. } | PhysicalRole::Geometry { .. })
                )
            };
            let consumes =
                |x: usize| matches!(instances[x].block.role(), Some(PhysicalRole::Consumer));
            let (consumer, port, provider) = match (
                provides(a),
                provides(b),
                consumes(a),
                consumes(b),
            ) {
                (true, _, _, true) => (b, b_port, a),
                (_, true, true, _) => (a, a_port, b),
                (true, true, _, _) => {
                    let (a, b) = written();
                    return Err(at(format!("{a} and {b} are both geometries: a geometry connects to a contact block"))
                            .hint("connect each geometry to a SpatialContactForce's B or F port (or a GroundContact's F port)"));
                }
                _ => {
                    let (a, b) = written();
                    return Err(at(format!("cannot connect {a} to {b}")).hint(
                        "geometry ports connect a Solid or geometry block's G to a contact block",
                    ));
                }
            };
            if self
                .geometry_of
                .insert((consumer, port.clone()), provider)
                .is_some()
            {
                return Err(at(format!("geometry port {}.{} is connected twice", instances[consumer].name, port))
                    .hint("a contact port takes one geometry; use a PointCloud or a second contact block for more"));
            }
        }
        Ok(())
    }

    /// Each physical block's role enters the network: the World, gravity, rigid transforms,
    /// solids and joints.
    pub(super) fn add_roles(
        &mut self,
        source: &SourceFile,
        instances: &[Instance],
    ) -> Result<(), Diagnostic> {
        let mut configuration: Option<usize> = None;
        for (b, inst) in instances.iter().enumerate() {
            let Some(role) = inst.block.role() else {
                continue;
            };
            let f = |p: &str| {
                self.frame(instances, b, p).ok_or_else(|| {
                    let message = format!("internal: block has no frame port {p}");
                    locate(source, instances, b, message)
                })
            };
            match role {
                PhysicalRole::World => {
                    let w = f("W")?;
                    self.net.set_world(w)
                }
                PhysicalRole::Configuration { gravity } => {
                    if let Some(other) = configuration {
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
                    configuration = Some(b);
                    self.gravity = *gravity;
                }
                PhysicalRole::RigidTransform { follower_in_base } => {
                    let (base, follower) = (f("B")?, f("F")?);
                    self.net
                        .add_rigid_transform(base, follower, *follower_in_base)
                }
                PhysicalRole::Solid { inertia, .. } => {
                    let r = f("R")?;
                    self.net.add_solid(
                        r,
                        inertia.mass,
                        inertia.com,
                        inertia.inertia_about_com,
                        &inst.name,
                    )
                }
                PhysicalRole::Geometry { .. } | PhysicalRole::Consumer => {}
                PhysicalRole::Joint { spec } => {
                    let (base, follower) = (f("B")?, f("F")?);
                    let id = self
                        .net
                        .add_joint(base, follower, JointSpec::clone(spec), &inst.name);
                    self.joints.push((b, id));
                }
            }
        }
        Ok(())
    }

    /// Compiles the network into the mechanism (its kinematic tree, cut joints and closures),
    /// locating an error at the block it is about: joints and solids are labelled by their
    /// block's name, frames as "block.port".
    pub(super) fn build(
        &mut self,
        source: &SourceFile,
        instances: &[Instance],
    ) -> Result<Mechanism, Diagnostic> {
        let net = std::mem::take(&mut self.net);
        net.build(self.gravity).map_err(|e| {
            let block = match e.subject() {
                Some(ErrorSubject::Joint(name) | ErrorSubject::Solid(name)) => {
                    instances.iter().position(|i| i.name == name)
                }
                Some(ErrorSubject::Frame(label)) => Self::block_of_frame(instances, label),
                None => None,
            };
            match block {
                Some(b) => locate(source, instances, b, e.to_string()),
                None if e == MechanismError::NoWorldFrame => no_world_frame(source, instances),
                None => Diagnostic::at(source, &crate::model::Span::NONE, e.to_string()),
            }
        })
    }
}
