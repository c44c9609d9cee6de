//! The ContactGroup's data, below every other file of the folder: the block's fields and its
//! members, the per-run buffers (`Scratch`), the port indices, and the small helpers every
//! part reads (the pair rules, the watch slots' pair codes, the automatic margin). The `Block`
//! impl (`group/mod.rs`) and the parts (`eval.rs`, `watch.rs`, `rigid.rs`, ...) use it; it uses
//! none of them but the leaves (`broad_phase.rs`, `grid.rs`, `narrow.rs`, `silent.rs`).

use super::broad_phase::{self, half_size, NearPair, Sweep};
use super::grid;
use super::narrow::Narrow;
use super::silent;
use crate::block::GeometryMembers;
use crate::block::PortDecl;
use crate::blocks::contact::rigid_params::RigidParams;
use crate::blocks::multibody::FrameMotion;
use crate::contact::friction::FrictionLaw;
use crate::contact::normal_force::NormalForceLaw;
use crate::geometry::{pair_supported, Shape as Geometry, ShapeKind};
use crate::multibody::rigid::RigidConstraint;
use nalgebra::{Isometry3, Matrix3, Vector3};

/// Output indices.
pub(super) const ACTIVE_PAIRS: usize = 0;
pub(super) const MEMBER_WRENCH: usize = 1;
/// The first hidden wrench output.
pub(super) const FIRST_WRENCH: usize = 2;

/// A separation's round-off, in machine epsilons times the larger of 1 m and the geometries'
/// distances from the World origin (as SpatialContactForce's).
pub(super) const SEPARATION_RESOLUTION: f64 = 8.0 * f64::EPSILON;

/// Watch slots per bounded member (a sphere among equal spheres touches at most 12, 6 pairs per
/// member; the margin adds a few near ones).
pub(super) const WATCH_SLOTS_PER_MEMBER: usize = 8;

/// The most pairs the broad phase's buffers are sized for up front.
pub(super) const PAIR_BUFFER_LIMIT: usize = 1 << 16;

/// One member: its geometry, where it sits on its body, and the body.
#[derive(Clone, Debug)]
pub(super) struct Member {
    pub(super) name: String,
    pub(super) shape: Geometry,
    pub(super) placement: Isometry3<f64>,
    pub(super) body: usize,
    pub(super) kind: ShapeKind,
    pub(super) bounded: bool,
    /// The mass of its body (kg; 0 for the World): for `check`'s advice only.
    pub(super) body_mass: f64,
    /// Its body's mass properties (body frame; zero for the World): for the stall message's
    /// modes only (`stiffness.rs`).
    pub(super) body_inertia: crate::multibody::SpatialInertia,
    /// The radius of its box about its frame's origin (m; 0 when unbounded).
    pub(super) radius: f64,
    /// Its smallest width along its frame's axes (m; infinite when unbounded): a body must move
    /// this far past it to come out on the other side.
    pub(super) thickness: f64,
    /// It moves with a body (not fixed to the World): gravity accelerates it.
    pub(super) moving: bool,
    /// An infinite plane fixed to the World: broad-phased by its distance to the boxes.
    pub(super) fixed_plane: bool,
}

/// The ContactGroup block.
pub struct ContactGroup {
    pub(super) normal: NormalForceLaw,
    pub(super) friction: FrictionLaw,
    pub(super) zero_crossings: bool,
    /// `onsets`: whether the watch slots' separations are zero-crossing functions.
    pub(super) onsets: super::params::Onsets,
    /// `margin` as written (m); `None`: automatic, worked out when bound.
    pub(super) margin_param: Option<f64>,
    /// The margin in use (m).
    pub(super) margin: f64,
    /// |gravity| (m/s²), for the look-ahead's bound on how fast a gap can close.
    pub(super) gravity: f64,
    /// Up, −gravity/|gravity| (World, unit; zero without gravity): for `check`'s count of the
    /// members their contacts do not hold up (`stiffness.rs`).
    pub(super) up: Vector3<f64>,
    pub(super) spec: GeometryMembers,
    pub(super) warnings: Vec<String>,
    pub(super) physical: Vec<PortDecl>,
    pub(super) inputs: Vec<PortDecl>,
    pub(super) outputs: Vec<PortDecl>,
    pub(super) members: Vec<Member>,
    /// The bounded members (indices), for the sweep.
    pub(super) bounded: Vec<u32>,
    /// The infinite planes fixed to the World (indices).
    pub(super) planes: Vec<u32>,
    /// Pairs (i < j) never in contact: excluded by name; sorted.
    pub(super) excluded: Vec<(u32, u32)>,
    /// Body pairs (lower first) a joint joins directly; sorted.
    pub(super) joined: Vec<(usize, usize)>,
    /// Every allowed pair with a grid surface or a moving plane (i < j), sorted: always evaluated
    /// and watched.
    pub(super) always: Vec<(u32, u32)>,
    /// Number of watch slots.
    pub(super) watch_slots: usize,
    /// With `contact = "rigid"`: RigidContact's parameters, shared by every pair (`rigid.rs`).
    pub(super) rigid: Option<RigidParams>,
    /// With `contact = "rigid"`, once bound: the rigid pairs, one per allowed pair of members.
    pub(super) pairs: Vec<RigidConstraint>,
    /// The members (i < j) of each rigid pair, in `pairs` order.
    pub(super) pair_members: Vec<(u32, u32)>,
}

impl ContactGroup {
    pub(super) fn m(&self) -> usize {
        self.members.len()
    }

    /// Whether members i < j may touch: a supported pair, not excluded, not on one body, not
    /// both fixed, not joined by a joint.
    pub(super) fn allowed(&self, i: u32, j: u32) -> bool {
        let (a, b) = (&self.members[i as usize], &self.members[j as usize]);
        let bodies = (a.body.min(b.body), a.body.max(b.body));
        pair_supported(a.kind, b.kind)
            && a.body != b.body
            && self.excluded.binary_search(&(i, j)).is_err()
            && self.joined.binary_search(&bodies).is_err()
    }

    /// The warning for a bound group none of whose pairs may touch (`silent.rs`); `None` when a
    /// pair may touch.
    pub(super) fn no_pair_warning(&self) -> Option<String> {
        let members: Vec<(usize, ShapeKind)> =
            self.members.iter().map(|m| (m.body, m.kind)).collect();
        silent::no_pair_warning(&members, &self.excluded, &self.joined, self.rigid.is_some())
    }

    /// The automatic margin: a quarter of the smallest bounded member's half size (1 mm when no
    /// member has a size).
    pub(super) fn auto_margin(&self) -> f64 {
        let smallest = self
            .members
            .iter()
            .filter(|m| m.bounded)
            .map(|m| half_size(&m.shape))
            .filter(|h| *h > 0.0)
            .fold(f64::INFINITY, f64::min);
        if smallest.is_finite() {
            0.25 * smallest
        } else {
            1e-3
        }
    }

    /// The number of zero-crossing functions before the watch slots.
    pub(super) fn first_slot(&self) -> usize {
        self.always.len()
    }

    /// The watch slots that are zero-crossing functions: every slot with located onsets, none
    /// with stepped ones (the slots then only choose the pairs the looks bound one by one).
    pub(super) fn crossing_slots(&self) -> usize {
        match self.onsets {
            super::params::Onsets::Located => self.watch_slots,
            super::params::Onsets::Stepped => 0,
        }
    }

    /// Decodes a watch slot's work value into its pair.
    pub(super) fn decode(&self, code: f64) -> Option<(u32, u32)> {
        (code >= 0.0).then(|| {
            let m = self.m() as u64;
            let c = code as u64;
            ((c / m) as u32, (c % m) as u32)
        })
    }

    pub(super) fn encode(&self, a: u32, b: u32) -> f64 {
        (a as u64 * self.m() as u64 + b as u64) as f64
    }

    /// The zero-crossing values the last evaluation left in the scratch space.
    pub(super) fn copy_crossings(&self, s: &Scratch, g: &mut [f64]) {
        let first = self.first_slot();
        g[..first].copy_from_slice(&s.always_g);
        let slots = self.crossing_slots();
        g[first..first + slots].copy_from_slice(&s.slot_g[..slots]);
        g[first + slots] = s.approach;
    }

    /// Whether member k is on one of the island's bodies (every member when `island` is
    /// `None`; a member fixed to the World is on none).
    #[inline]
    pub(super) fn in_island(&self, island: Option<&[bool]>, k: u32) -> bool {
        island.is_none_or(|mask| mask[self.members[k as usize].body])
    }

    /// The penalty group's buffers for a run, sized once.
    pub(super) fn new_scratch(&self) -> Scratch {
        let m = self.m();
        let still = FrameMotion {
            rotation: Matrix3::identity(),
            position: Vector3::zeros(),
            angular_velocity: Vector3::zeros(),
            velocity: Vector3::zeros(),
        };
        let slots = if self.zero_crossings {
            self.watch_slots
        } else {
            0
        };
        // Room for every broad-phased pair up to PAIR_BUFFER_LIMIT (no allocation in a run),
        // beyond it for 16 per bounded member (grown once if a run needs more).
        let n = self.bounded.len();
        let all_pairs = n * n.saturating_sub(1) / 2 + n * self.planes.len();
        let pairs = if all_pairs <= PAIR_BUFFER_LIMIT {
            all_pairs
        } else {
            PAIR_BUFFER_LIMIT.max(16 * n)
        };
        Scratch {
            motions: vec![still; m],
            poses: vec![Isometry3::identity(); m],
            lo: vec![[0.0; 3]; m],
            hi: vec![[0.0; 3]; m],
            island_box: ([0.0; 3], [0.0; 3]),
            sweep: Sweep::new(&self.bounded),
            near: Vec::with_capacity(pairs),
            grid: grid::Grid::new(
                m,
                &self.bounded,
                &self.planes,
                |k| self.members[k as usize].radius,
                (self.margin, pairs),
            ),
            candidates: Vec::with_capacity(self.always.len() + pairs),
            candidate_slots: Vec::with_capacity(pairs),
            candidate_apart: Vec::with_capacity(pairs),
            apart: Vec::with_capacity(pairs),
            scale: vec![1.0; m],
            watched: Vec::with_capacity(slots),
            watched_generation: f64::NAN,
            watch_start: vec![0; m + 1],
            always_g: vec![1.0; self.always.len()],
            slot_g: vec![1.0; slots],
            approach: 0.5 * self.margin,
            narrow: Narrow::for_shapes(self.members.iter().map(|m| &m.shape)),
            wrench: vec![[0.0; 6]; m],
            touched: vec![false; m],
            pick: Vec::with_capacity(pairs),
            ahead: Vec::with_capacity(pairs),
            speed: vec![0.0; m],
            overflow: Vec::with_capacity(pairs),
            overflow_before: Vec::with_capacity(pairs),
        }
    }
}

/// Per-run buffers, sized once.
#[derive(Clone)]
pub(super) struct Scratch {
    pub(super) motions: Vec<FrameMotion>,
    pub(super) poses: Vec<Isometry3<f64>>,
    pub(super) lo: Vec<[f64; 3]>,
    pub(super) hi: Vec<[f64; 3]>,
    /// In an island's evaluation: the box around its bounded members' boxes (World, m).
    pub(super) island_box: broad_phase::Aabb,
    pub(super) sweep: Sweep,
    /// The pairs whose boxes were within the margin at the last evaluation.
    pub(super) near: Vec<NearPair>,
    /// The whole evaluations' broad phase (the sweep serves islands' and the look-ahead).
    pub(super) grid: grid::Grid,
    /// The pairs the narrow phase evaluates, in (i, j) order.
    pub(super) candidates: Vec<(u32, u32)>,
    /// Per candidate after the always-pairs: its watch slot (u32::MAX: not watched).
    pub(super) candidate_slots: Vec<u32>,
    /// Per candidate after the always-pairs: a watched pair whose boxes are apart (gap > 0),
    /// so without contact: the narrow phase gives it no manifold (`ContactGroup::narrow_phase`).
    pub(super) candidate_apart: Vec<bool>,
    /// The candidates the last narrow phase skipped as apart whose separations are not yet in
    /// `slot_g`: computed when the crossing functions are read
    /// (`ContactGroup::apart_separations`), not at every evaluation of f.
    pub(super) apart: Vec<u32>,
    /// Per member: max(1 m, |its frame's origin|) (m), the scale of its separations' round-off.
    pub(super) scale: Vec<f64>,
    /// The watched pairs, sorted, and the generation of the work slots they were decoded from
    /// (NaN: never decoded; see `ContactGroup::sync_watched`).
    pub(super) watched: Vec<(u32, u32, u32)>,
    pub(super) watched_generation: f64,
    /// Per member a (and one past the last): where a's watched pairs (a, b) start in `watched`.
    pub(super) watch_start: Vec<u32>,
    /// Per always-pair and per watch slot: the separation plus its resolution (m).
    pub(super) always_g: Vec<f64>,
    pub(super) slot_g: Vec<f64>,
    /// The approach function's value (m).
    pub(super) approach: f64,
    pub(super) narrow: Narrow,
    /// Per member: the hidden wrench [n about the World origin; f] and whether a pair wrote it.
    pub(super) wrench: Vec<[f64; 6]>,
    pub(super) touched: Vec<bool>,
    /// Workspaces of `settle`: the pairs chosen, the pairs within the look-ahead, and each
    /// member's speed bound (m/s).
    pub(super) pick: Vec<NearPair>,
    pub(super) ahead: Vec<NearPair>,
    pub(super) speed: Vec<f64>,
    /// The pairs within margin/2 that got no watch slot at the last choice (sorted): left out of
    /// the approach function (which they would hold at or below 0, so that no other pair could
    /// fire it) and bounded by the look-ahead instead.
    pub(super) overflow: Vec<(u32, u32)>,
    /// `overflow` before the last choice (`ContactGroup::settle_watched` compares them).
    pub(super) overflow_before: Vec<(u32, u32)>,
}
