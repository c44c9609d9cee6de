//! The Spatial Contact Force block's state (its laws, settings, ports and bound sides) and its
//! per-run buffers: below the block's `Block` impl (`mod.rs`) and the evaluations that split it
//! (the manifold and per-point evaluations, kinks, stiffness), which all read them.

use super::outputs::POINTS;
use super::sensed::UsedOutputs;
use super::side::Side;
use super::static_base::StaticBase;
use crate::block::{Io, PortDecl};
use crate::blocks::multibody::FrameMotion;
use crate::contact::friction::FrictionLaw;
use crate::contact::normal_force::NormalForceLaw;
use crate::contact::resultant::ResultantCalculator;
use crate::geometry::query::manifold::ContactManifold;
use crate::geometry::{ContactGeometry, QueryWorkspace};
use nalgebra::{Isometry3, Vector3};

/// How many contact points a pair of bounded geometries gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContactPoints {
    /// Every point of the contact manifold (a face touches at its corners); the default.
    #[default]
    Manifold,
    /// Simscape's single deepest point per pair.
    Single,
}

impl ContactPoints {
    /// Both values, in the order the documentation lists them.
    pub const ALL: [ContactPoints; 2] = [ContactPoints::Manifold, ContactPoints::Single];

    /// The value's name in a model file (`contact_points = "..."`).
    pub const fn name(self) -> &'static str {
        match self {
            ContactPoints::Manifold => "manifold",
            ContactPoints::Single => "single",
        }
    }
}

/// The Spatial Contact Force block.
pub struct SpatialContactForce {
    pub(super) normal: NormalForceLaw,
    pub(super) friction: FrictionLaw,
    pub(super) zero_crossings: bool,
    /// Also locate the normal law's kinks (`law_kinks`), per contact slot.
    pub(super) kink_crossings: bool,
    pub(super) contact_points: ContactPoints,
    /// The pair is evaluated over its manifold (bounded geometries, `contact_points = "manifold"`).
    pub(super) use_manifold: bool,
    pub(super) warnings: Vec<String>,
    pub(super) physical: Vec<PortDecl>,
    pub(super) inputs: Vec<PortDecl>,
    pub(super) outputs: Vec<PortDecl>,
    pub(super) used: Vec<bool>,
    /// What `used` implies for the evaluation, worked out once when `used` is set.
    pub(super) used_outputs: UsedOutputs,
    pub(super) base: Option<Side>,
    pub(super) follower: Option<Side>,
    /// Number of contact points (cloud size, else 1).
    pub(super) points: usize,
    /// The base geometry is fixed to the World (its material velocity is zero).
    pub(super) base_static: bool,
    /// Its motion and pose then, worked out when bound.
    pub(super) static_base: Option<StaticBase>,
    pub(super) cloud: bool,
    /// Input indices: fn, ff (when by input), kin_B, kin_F.
    pub(super) fn_input: Option<usize>,
    pub(super) ff_input: Option<usize>,
}

/// Per-run buffers.
pub(super) struct Scratch {
    pub(super) geometry: Vec<ContactGeometry>,
    /// Where the geometry queries work (EPA's store), per point or for the manifold.
    pub(super) workspace: QueryWorkspace,
    /// The pair's contact manifold (manifold mode).
    pub(super) manifold: ContactManifold,
    pub(super) resultant: ResultantCalculator,
    /// Per point (cloud point or manifold point), in World: normal velocity v_n (m/s), tangential
    /// velocity v_t (m/s), its magnitude (m/s; held as |v_t|² until the square roots are taken in
    /// one pass), normal force magnitude (N) and friction force (N). Filled pass by pass, so that
    /// each pass is a short loop whose iterations overlap (and the square roots vectorize) instead
    /// of one long chain of dependent square roots and divisions per point.
    pub(super) normal_velocity: Vec<f64>,
    pub(super) tangential_velocity: Vec<Vector3<f64>>,
    pub(super) slip_speed: Vec<f64>,
    pub(super) normal_force: Vec<f64>,
    pub(super) friction_force: Vec<Vector3<f64>>,
    /// The geometry frames' poses at the last evaluation (World ← geometry), for the stall
    /// message's modes (`stiffness.rs`).
    pub(super) pose_base: Isometry3<f64>,
    pub(super) pose_follower: Isometry3<f64>,
    /// Both geometry frames' motion at the last evaluation (World), for the surfaces' speed.
    pub(super) motion_base: FrameMotion,
    pub(super) motion_follower: FrameMotion,
}

/// Both sides' motion (World) and pose (World ← geometry frame) for one evaluation.
pub(super) struct Sides<'a> {
    pub(super) base: &'a FrameMotion,
    pub(super) follower: &'a FrameMotion,
    pub(super) pose_base: &'a Isometry3<f64>,
    pub(super) pose_follower: &'a Isometry3<f64>,
}

impl SpatialContactForce {
    /// The mass (kg) the pair is taken to carry in `check`'s advice: its follower body's (the
    /// base's when the follower is fixed or massless), else the whole mechanism's `total_mass`.
    pub(super) fn supported_mass(&self, total_mass: f64) -> f64 {
        [&self.follower, &self.base]
            .into_iter()
            .flatten()
            .map(|side| side.inertia.mass)
            .find(|&m| m > 0.0)
            .unwrap_or(total_mass)
    }

    pub(super) fn kin_inputs(&self) -> (usize, usize) {
        let n = self.inputs.len();
        (n - 2, n - 1)
    }

    /// Velocity of the follower's material point at `p` relative to the base's (World, m/s).
    #[inline]
    pub(super) fn relative_velocity(
        &self,
        base: &FrameMotion,
        follower: &FrameMotion,
        p: &Vector3<f64>,
    ) -> Vector3<f64> {
        if self.base_static {
            follower.point_velocity(p)
        } else {
            follower.point_velocity(p) - base.point_velocity(p)
        }
    }

    /// Writes the `points` output: the number of contact points in contact.
    pub(super) fn write_point_count(&self, io: &mut Io, count: usize) {
        if self.used.get(POINTS).copied().unwrap_or(true) {
            io.output(POINTS)[0] = count as f64;
        }
    }
}
