//! Elaboration of the physical network: frame ports, joints, solids and geometries become one
//! mechanism block; joint and consumer blocks are bound to it through hidden signal lines.
//!
//! Runs after blocks are instantiated and connections resolved, before shapes and layout. A model
//! without physical blocks is left untouched.

mod binding;
mod frames;
mod lines;
mod network;

use super::instance::Instance;
use super::SignalLine;
use crate::block::{LowerFn, PhysicalRole};
use crate::geometry::Shape;
use crate::model::{Diagnostic, SourceFile, Span};
use crate::multibody::{BodyIndex, FrameId, Mechanism};
use binding::MechanismWiring;
pub use frames::NamedFrames;
pub use lines::{PhysicalEnd, PhysicalLine};
use nalgebra::Isometry3;
use network::FrameWiring;
use std::sync::Arc;

pub use crate::multibody::STANDARD_GRAVITY;

/// A geometry fixed to a body of the mechanism: what an animation draws.
#[derive(Clone, Debug, PartialEq)]
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
    /// The mechanism the build compiled.
    pub mechanism: Arc<Mechanism>,
    /// The hook that lowered it to a block (the registry's
    /// [`crate::library::Registry::mechanism_lowering`]), for elaborating it again.
    pub lowering: LowerFn,
    /// Index of the mechanism block in [`super::Diagram::blocks`] (its states are x = [q; v]).
    pub mechanism_block: usize,
    /// Every Solid and geometry block, in model order.
    pub geometries: Vec<PlacedGeometry>,
    /// Every frame port's frame, named "block.port", in model order (what an animation's
    /// `draw_frames` names).
    pub frames: NamedFrames,
    /// Each RigidTransform's two frames (B, F), in model order: the links an animation draws as
    /// lines.
    pub links: Vec<(FrameId, FrameId)>,
    /// Every connected geometry port of a consumer block, with the geometry on it, ordered by
    /// block and port: resolved when the diagram is built, so that a run finds a block's geometry
    /// without reading names.
    pub connected: Vec<ConnectedGeometry>,
}

/// A consumer block's geometry port and the geometry connected to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectedGeometry {
    /// The consumer block: its index in [`super::Diagram::blocks`].
    pub block: usize,
    /// The block's geometry port (as the block declares it, e.g. `F`).
    pub port: String,
    /// The geometry connected to it: its index in [`PhysicalScene::geometries`].
    pub geometry: usize,
}

/// Compiles the physical blocks into a mechanism block appended to `instances` (made by `lower`,
/// the registry's lowering hook), and adds the hidden signal lines that bind joints and consumers
/// to it. Returns the scene (`None` for a model without physical blocks).
///
/// The `--` lines are taken by value and freed once the frame network has them: at 20,000 URDF
/// joints their 120,000 port references are ~21 MB that the network's build (the build's peak)
/// does not read.
///
/// The stages: the frame network from the blocks' frame ports and the `--` connections
/// (`physical/network.rs`), the blocks' roles in it, the mechanism compiled from it, then each joint and
/// consumer bound to the mechanism with its hidden ports wired (`physical/binding.rs`).
pub(crate) fn elaborate(
    source: &SourceFile,
    instances: &mut Vec<Instance>,
    physical: Vec<PhysicalLine>,
    lines: &mut Vec<SignalLine>,
    line_spans: &mut Vec<Span>,
    lower: LowerFn,
) -> Result<Option<PhysicalScene>, Diagnostic> {
    if !instances.iter().any(|i| i.block.physical().is_some()) {
        return Ok(None);
    }
    let mut wiring = FrameWiring::new(instances);
    wiring.connect(source, instances, &physical)?;
    drop(physical);
    wiring.add_roles(source, instances)?;
    let mechanism = wiring.build(source, instances)?;

    let mut mech = lower(mechanism);
    let shared = mech.mechanism().clone();
    let binds = binding::bindings(source, instances, &wiring, &shared, wiring.gravity)?;
    let mut target = MechanismWiring {
        block: &mut *mech,
        index: instances.len(),
        mechanism: &shared,
    };
    for (b, bound) in binds {
        binding::wire_block(source, instances, &mut target, b, bound, lines, line_spans)?;
    }
    let (placed, geometry_blocks): (Vec<PlacedGeometry>, Vec<usize>) =
        placed_geometries(instances, &wiring, &shared)
            .into_iter()
            .map(|(b, g)| (g, b))
            .unzip();
    let scene = PhysicalScene {
        connected: connected_geometries(&wiring, &geometry_blocks),
        geometries: placed,
        frames: named_frames(instances, &wiring),
        links: rigid_links(instances, &wiring),
        mechanism: shared,
        lowering: lower,
        mechanism_block: instances.len(),
    };
    let mut name = "mechanism".to_string();
    while instances.iter().any(|i| i.name == name) {
        name.push('_');
    }
    instances.reserve_exact(1);
    instances.push(Instance {
        name,
        type_name: "Mechanism",
        block: mech.finish(),
        span: Span::NONE,
        origin: None,
        binding: None,
    });
    Ok(Some(scene))
}

/// Each consumer's connected geometry port with the index of its geometry among the placed
/// ones (`geometry_blocks[i]` is the block of placed geometry i), ordered by block and port.
fn connected_geometries(wiring: &FrameWiring, geometry_blocks: &[usize]) -> Vec<ConnectedGeometry> {
    let mut connected: Vec<ConnectedGeometry> = wiring
        .geometry_of
        .iter()
        .filter_map(|((block, port), provider)| {
            Some(ConnectedGeometry {
                block: *block,
                port: port.clone(),
                geometry: geometry_blocks.iter().position(|b| b == provider)?,
            })
        })
        .collect();
    connected.sort_by(|a, b| (a.block, &a.port).cmp(&(b.block, &b.port)));
    connected
}

/// Every Solid and geometry block (its index in `instances`) with the body it is fixed to, in
/// model order.
fn placed_geometries(
    instances: &[Instance],
    wiring: &FrameWiring,
    m: &Mechanism,
) -> Vec<(usize, PlacedGeometry)> {
    instances
        .iter()
        .enumerate()
        .filter_map(|(b, inst)| {
            let (shape, solid) = match inst.block.role()? {
                PhysicalRole::Solid { shape, .. } => (shape, true),
                PhysicalRole::Geometry { shape } => (shape, false),
                _ => return None,
            };
            let (body, r_in_body) = m.frame_placement(wiring.frame(instances, b, "R")?);
            Some((
                b,
                PlacedGeometry {
                    block: inst.name.clone(),
                    shape: shape.clone(),
                    solid,
                    body,
                    r_in_body,
                },
            ))
        })
        .collect()
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
        match b.role() {
            Some(PhysicalRole::Solid { inertia, .. }) => mass += inertia.mass,
            Some(PhysicalRole::Configuration { gravity: g }) => gravity = g.norm(),
            _ => {}
        }
    }
    (mass, gravity)
}

/// Each RigidTransform's frames B and F (both wired), in model order; the list is kept in the
/// scene, so its vector is shrunk to its length (a collected vector grows by doubling: 80,000
/// links in a 20,000-joint chain held 131,072).
fn rigid_links(instances: &[Instance], wiring: &FrameWiring) -> Vec<(FrameId, FrameId)> {
    use crate::block::PhysicalRole;
    let mut links: Vec<(FrameId, FrameId)> = instances
        .iter()
        .enumerate()
        .filter(|(_, inst)| matches!(inst.block.role(), Some(PhysicalRole::RigidTransform { .. })))
        .filter_map(|(b, _)| {
            Some((
                wiring.frame(instances, b, "B")?,
                wiring.frame(instances, b, "F")?,
            ))
        })
        .collect();
    links.shrink_to_fit();
    links
}

/// Every frame port's frame with its name "block.port", in model order.
fn named_frames(instances: &[Instance], wiring: &FrameWiring) -> NamedFrames {
    let mut frames = NamedFrames::default();
    for (b, inst) in instances.iter().enumerate() {
        for p in inst.block.physical_ports() {
            if let Some(id) = wiring.frame(instances, b, &p.name) {
                frames.push(&inst.name, &p.name, id);
            }
        }
    }
    frames.shrink_to_fit();
    frames
}
