//! The first half of elaboration: the frame network of the physical blocks (every frame port a
//! frame, every `--` connection between frames an identity, every role a solid, joint or rigid
//! transform), the geometry connections, and the mechanism compiled from them.

use super::{locate, no_world_frame, PhysicalLine, STANDARD_GRAVITY};
use crate::block::{PhysicalRole, PortKind};
use crate::diagram::build::Instance;
use crate::model::{Diagnostic, SourceFile};
use crate::multibody::errors::{ErrorSubject, MechanismError};
use crate::multibody::{FrameId, FrameNetworkBuilder, Mechanism};
use nalgebra::Vector3;
use std::collections::HashMap;

/// The frame network being built, and where each block's ports ended up in it.
pub(super) struct FrameWiring {
    net: FrameNetworkBuilder,
    /// Each block's frame ports and their frames (empty for a block without physical ports):
    /// a block has at most a few, so a search of its own list, which neither allocates nor
    /// hashes, replaces a map keyed by (block, port name) that allocated the name per lookup.
    frame_of: Vec<Vec<(String, FrameId)>>,
    /// Frame label ("block.port") → the block it belongs to (for locating mechanism errors).
    block_of_frame: HashMap<String, usize>,
    /// (consumer block, geometry port) → the Solid or geometry block connected to it.
    pub(super) geometry_of: HashMap<(usize, String), usize>,
    /// The joint blocks with their joint ids, in model order.
    pub(super) joints: Vec<(usize, usize)>,
    /// The gravity of the model's MechanismConfiguration (standard gravity without one), m/s².
    pub(super) gravity: Vector3<f64>,
}

impl FrameWiring {
    /// Every frame port of every physical block becomes a frame of the network.
    pub(super) fn new(instances: &[Instance]) -> FrameWiring {
        let mut net = FrameNetworkBuilder::new();
        let mut frame_of = vec![Vec::new(); instances.len()];
        let mut block_of_frame = HashMap::new();
        for (b, inst) in instances.iter().enumerate() {
            if inst.block.physical().is_none() {
                continue;
            }
            let is_frame = |p: &&crate::block::PortDecl| p.kind == PortKind::Frame;
            let ports = inst.block.physical_ports();
            let mut own = Vec::with_capacity(ports.iter().filter(is_frame).count());
            for p in ports.iter().filter(is_frame) {
                let label = format!("{}.{}", inst.name, p.name);
                let id = net.add_frame(&label);
                own.push((p.name.clone(), id));
                block_of_frame.insert(label, b);
            }
            frame_of[b] = own;
        }
        FrameWiring {
            net,
            frame_of,
            block_of_frame,
            geometry_of: HashMap::new(),
            joints: Vec::new(),
            gravity: Vector3::from(STANDARD_GRAVITY),
        }
    }

    /// The frame of block `b`'s frame port `port`, if it has one.
    pub(super) fn frame(&self, b: usize, port: &str) -> Option<FrameId> {
        let frames = self.frame_of.get(b)?;
        frames
            .iter()
            .find(|(name, _)| name == port)
            .map(|&(_, id)| id)
    }

    /// The `--` connections: frames are joined, and each geometry port gets its provider.
    pub(super) fn connect(
        &mut self,
        source: &SourceFile,
        instances: &[Instance],
        physical: &[PhysicalLine],
    ) -> Result<(), Diagnostic> {
        // By name, in a map: a linear search per line is quadratic in a 20,000-joint chain.
        let by_name: HashMap<&str, usize> = instances
            .iter()
            .enumerate()
            .map(|(k, i)| (i.name.as_str(), k))
            .collect();
        let index_of = |name: &str| by_name.get(name).copied();
        for line in physical {
            let (Some(a), Some(b)) = (index_of(&line.a.block), index_of(&line.b.block)) else {
                continue;
            };
            let at = |m: String| Diagnostic::at(source, &line.span, m);
            match (self.frame(a, &line.a.port), self.frame(b, &line.b.port)) {
                (Some(fa), Some(fb)) => {
                    self.net.connect(fa, fb);
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
                    instances[x].block.role(),
                    Some(PhysicalRole::Solid { .. } | PhysicalRole::Geometry { .. })
                )
            };
            let consumes =
                |x: usize| matches!(instances[x].block.role(), Some(PhysicalRole::Consumer));
            let (consumer, port, provider) =
                match (provides(a), provides(b), consumes(a), consumes(b)) {
                    (true, _, _, true) => (b, &line.b.port, a),
                    (_, true, true, _) => (a, &line.a.port, b),
                    (true, true, _, _) => {
                        return Err(at(format!("{} and {} are both geometries: a geometry connects to a contact block", line.a, line.b))
                            .hint("connect each geometry to a SpatialContactForce's B or F port (or a GroundContact's F port)"))
                    }
                    _ => return Err(at(format!("cannot connect {} to {}", line.a, line.b)).hint("geometry ports connect a Solid or geometry block's G to a contact block")),
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
                self.frame(b, p).ok_or_else(|| {
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
                    let id = self.net.add_joint(base, follower, spec.clone(), &inst.name);
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
                Some(ErrorSubject::Frame(label)) => self.block_of_frame.get(label).copied(),
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
