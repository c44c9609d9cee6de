//! The ContactGroup block: contact among many geometries, gathered by name. With
//! `contact = "penalty"` (the default, this page): one normal law and one friction law, a broad
//! phase, and zero crossings only where contact can begin. With `contact = "rigid"`: every allowed
//! pair is a rigid pair of the mechanism's rigid solver, with RigidContact's parameters (see
//! `group/rigid.rs`); the broad phase, the watch slots and the hidden wrenches are then unused.
//!
//! Members: the Solid and geometry blocks named by `members` (`*` matches any run of
//! characters), in `members` order after expansion (see `diagram::groups`). Every pair of
//! members that the geometry table supports is a potential contact, except pairs written in
//! `exclude`, pairs on one body, pairs both fixed to the World, and pairs whose bodies a joint
//! (other than a SixDofJoint) joins directly.
//!
//! Each pair (i, j), i before j in members order, is evaluated as a SpatialContactForce with
//! base i and follower j would evaluate it (`contact_points = "manifold"`, same laws; see
//! `group/narrow.rs`): the same manifold, the same forces, bit for bit. The pairs evaluated are
//! the broad phase's (`group/grid.rs`, `group/broad_phase.rs`): those whose World-aligned
//! bounding boxes overlap (for a plane fixed to the World: whose box reaches the plane), every
//! pair with another unbounded
//! member (a grid surface, a plane that moves), and every watched pair (below). A pair whose
//! boxes are apart has no contact, so the others contribute nothing.
//!
//! Zero crossings (`zero_crossings = true`), in this order:
//! - the separation of every pair with a grid surface or a moving plane (m, either direction);
//! - `watch_slots` slots, each the separation of one watched pair (m, either direction; an empty
//!   slot is a constant 1): the pairs whose boxes were within `margin` at the last event or at the
//!   start, chosen again after every event (the engine's `settle`), nearest first. The slot of
//!   each watched pair is kept in the block's work slots (the pair's code i·M + j, −1 empty);
//!   with `onsets = "stepped"` the slots are still chosen (the looks bound their pairs one by
//!   one, `watch.rs`) but are not zero-crossing functions: the error control steps over onsets;
//! - the approach function `g = min(margin/2, min over unwatched pairs of (gap − margin/2))`
//!   (m, falling), gap the pair's box gap: continuous, and it falls through zero when an
//!   unwatched pair comes within margin/2. That event re-chooses the watched pairs, so the pair
//!   is watched from then on, long before its boxes can overlap: a contact onset is never
//!   stepped over, however fast the bodies.
//!
//! Separations are located where they pass −δ, δ their round-off, as SpatialContactForce does.
//!
//! Outputs: `active_pairs` (1×1, pairs with a contact point now) and `member_wrench` (6×M,
//! column k: the net contact force on member k (N, World) then the net contact torque about its
//! geometry frame's origin (N·m, World)). Hidden: one kinematics input and one wrench output per
//! member.

mod base;
mod broad_phase;
mod cells;
mod coupling;
mod eval;
mod grid;
mod narrow;
mod params;
mod rigid;
mod silent;
mod stiffness;
mod watch;

use std::collections::HashMap;

use crate::block::{
    Binding, Block, BlockError, BlockType, Ctx, GeometryMembers, ParamDoc, PhysicalRole, PortDecl,
    PortDoc, Setup, Shape,
};
use crate::contact::friction::FrictionLaw;
use crate::geometry::Shape as Geometry;
use crate::params::{ParamError, Params};
use crate::solver::Direction;
use base::{
    ContactGroup, Member, Scratch, ACTIVE_PAIRS, FIRST_WRENCH, MEMBER_WRENCH,
    WATCH_SLOTS_PER_MEMBER,
};
use broad_phase::{radius, thickness};
use nalgebra::Vector3;
use std::any::Any;

use super::laws_params::{read_friction_law, read_normal_law};
use super::rigid_params;
use crate::multibody::rigid::RigidConstraint;

const ROLE: PhysicalRole = PhysicalRole::Consumer;

impl Block for ContactGroup {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn physical_ports(&self) -> &[PortDecl] {
        &self.physical
    }
    fn warnings(&self) -> Vec<String> {
        let mut warnings = self.warnings.clone();
        warnings.extend(self.no_pair_warning());
        warnings
    }
    fn propagate_shapes(
        &self,
        _inputs: &mut [Option<Shape>],
        outputs: &mut [Option<Shape>],
    ) -> Result<(), BlockError> {
        outputs[ACTIVE_PAIRS] = Some(Shape::SCALAR);
        outputs[MEMBER_WRENCH] = Some(Shape::new(6, self.m().max(1)));
        Ok(())
    }

    fn setup(&mut self, _inputs: &[Shape], _outputs: &[Shape]) -> Result<Setup, BlockError> {
        if self.members.len() < 2 {
            return Err(BlockError::MissingGeometry {
                needs: "two or more member geometries",
            });
        }
        if self.rigid.is_some() {
            return Ok(self.setup_rigid());
        }
        let zero_crossings = if self.zero_crossings {
            let mut d = vec![Direction::Either; self.always.len() + self.crossing_slots()];
            d.push(Direction::Falling);
            d
        } else {
            vec![]
        };
        // Every member's kinematics feeds the user outputs and its own wrench: the block then
        // runs after all the mechanism's kinematics, and the wrenches go only to the mechanism,
        // whose kinematics do not depend on its wrench inputs at the same instant (a full
        // M × M table would be a million entries for 1,000 members).
        let feedthrough = (0..self.m())
            .flat_map(|k| [(k, ACTIVE_PAIRS), (k, MEMBER_WRENCH), (k, FIRST_WRENCH + k)])
            .collect();
        Ok(Setup {
            // The watch slots, their generation (`sync_watched`), then the time of the next look.
            num_work: if self.zero_crossings {
                self.watch_slots + 2
            } else {
                0
            },
            zero_crossings,
            feedthrough,
            ..Setup::default()
        })
    }

    fn create_scratch(&self) -> Box<dyn Any + Send> {
        if self.rigid.is_some() {
            return Box::new(self.rigid_scratch());
        }
        Box::new(self.new_scratch())
    }

    fn initialize(&self, ctx: &mut Ctx) {
        ctx.work.fill(-1.0);
        if let [.., generation, next] = &mut ctx.work[..] {
            *generation = 0.0;
            *next = f64::INFINITY;
        }
    }

    fn next_time_event(&self, _t: f64, work: &[f64]) -> Option<f64> {
        work.last().copied().filter(|t| t.is_finite())
    }

    fn outputs_eval(&self, ctx: &mut Ctx) {
        if self.rigid.is_some() {
            return self.rigid_outputs(ctx);
        }
        let Some(s) = ctx.scratch.downcast_mut::<Scratch>() else {
            return;
        };
        let island = ctx.island;
        self.near_pairs(&ctx.work[..], &ctx.io, s, island);
        let active = self.narrow_phase(s, island);
        self.write_outputs(&mut ctx.io, s, active, island);
    }

    /// Read only where the outputs are current: the last evaluation's values, with the
    /// separations of the apart watched pairs it left for now (`apart_separations`).
    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        let Some(s) = ctx.scratch.downcast_mut::<Scratch>() else {
            return;
        };
        if self.crossing_slots() > 0 {
            self.apart_separations(s);
        } else {
            s.apart.clear();
        }
        self.copy_crossings(s, g);
    }

    /// The separations and the approach function are functions of the members' poses alone.
    fn crossings_from_inputs(&self) -> bool {
        self.rigid.is_none() && self.zero_crossings
    }

    /// As [`Block::outputs_eval`] up to the broad phase, then the separations of the pairs with
    /// a zero-crossing function only: no forces, no outputs.
    fn zero_crossings_from_inputs(&self, ctx: &mut Ctx, g: &mut [f64]) {
        let Some(s) = ctx.scratch.downcast_mut::<Scratch>() else {
            return;
        };
        let island = ctx.island;
        self.near_pairs(&ctx.work[..], &ctx.io, s, island);
        self.crossing_separations(s, island);
        self.copy_crossings(s, g);
    }

    /// The watched pairs decide only which separations the zero-crossing functions report and
    /// which apart pairs (zero force) go through the narrow phase; the next look only when the
    /// solver stops to choose them again: the wrenches are the same functions of the state
    /// whatever they are.
    fn events_keep_dynamics(&self) -> bool {
        true
    }

    /// Chooses the watched pairs again and the time of the next look (at the start and after
    /// every event; see `watch.rs`). True when the watched pairs (or the pairs left out of the
    /// approach function) changed: the outputs keep their values, the crossing functions not.
    fn settle(&self, ctx: &mut Ctx) -> bool {
        if !self.zero_crossings {
            return false;
        }
        let Some(s) = ctx.scratch.downcast_mut::<Scratch>() else {
            return false;
        };
        let (slots, rest) = ctx.work.split_at_mut(self.watch_slots);
        let [generation, next] = rest else {
            return false;
        };
        let changed = self.settle_watched(slots, generation, s);
        *next = self.next_look(ctx.t, s);
        changed
    }

    fn state_name(&self, k: usize) -> String {
        format!("x[{k}]")
    }
    fn physical(&self) -> Option<&dyn crate::block::PhysicalBlock> {
        Some(self)
    }
    fn physical_mut(&mut self) -> Option<&mut dyn crate::block::PhysicalBlock> {
        Some(self)
    }
    fn advice(&self) -> Option<&dyn crate::block::Advice> {
        Some(self)
    }
    fn body_coupling(&self) -> Option<&dyn crate::block::BodyCoupling> {
        Some(self)
    }
}

impl crate::block::PhysicalBlock for ContactGroup {
    fn role(&self) -> &crate::block::PhysicalRole {
        &ROLE
    }

    fn bind(&mut self, binding: &Binding) -> Result<(), BlockError> {
        // The member ports, in members order (a parameter set's copy is bound without
        // `set_members`: its ports come from the binding).
        if self.physical.is_empty() {
            self.physical = binding
                .ports
                .iter()
                .map(|p| PortDecl::geometry(p.port.as_str()))
                .collect();
        }
        let mut members = Vec::with_capacity(self.physical.len());
        for (k, decl) in self.physical.iter().enumerate() {
            let (bound, shape, _) = binding.geometry_at(k, &decl.name)?;
            let kind = shape.kind();
            let bounded = shape.support(&Vector3::x()).is_some();
            members.push(Member {
                name: decl.name.clone(),
                placement: bound.placement,
                body: bound.body,
                kind,
                bounded,
                body_mass: bound.body_inertia.mass,
                body_inertia: bound.body_inertia,
                radius: if bounded { radius(&shape) } else { 0.0 },
                thickness: if bounded {
                    thickness(&shape)
                } else {
                    f64::INFINITY
                },
                moving: bound.body != 0,
                fixed_plane: matches!(shape, Geometry::InfinitePlane) && bound.body == 0,
                shape,
            });
        }
        // Names to indices once: an exclusion list as long as the members stays linear.
        let mut by_name: HashMap<&str, usize> = HashMap::with_capacity(members.len());
        for (k, member) in members.iter().enumerate() {
            by_name.entry(member.name.as_str()).or_insert(k); // the first, as a search gives
        }
        let index = |name: &str| by_name.get(name).copied();
        self.excluded = self
            .spec
            .excludes
            .iter()
            .filter_map(|e| {
                let (a, b) = (index(&e.names[0])?, index(&e.names[1])?);
                Some((a.min(b) as u32, a.max(b) as u32))
            })
            .collect();
        self.excluded.sort_unstable();
        self.joined = binding.joined_bodies.clone();
        self.members = members;
        let m = self.m() as u32;
        self.bounded = (0..m)
            .filter(|&k| self.members[k as usize].bounded)
            .collect();
        self.planes = (0..m)
            .filter(|&k| self.members[k as usize].fixed_plane)
            .collect();
        let broad_phased = |k: u32| {
            let member = &self.members[k as usize];
            member.bounded || member.fixed_plane
        };
        // The pairs the broad phase does not see: those with a member it does not track. Only
        // those members' pairs are visited (in (a, b) order), not all M²/2.
        let untracked: Vec<u32> = (0..m).filter(|&k| !broad_phased(k)).collect();
        let mut always = Vec::new();
        for a in 0..m {
            if broad_phased(a) {
                let later = untracked.partition_point(|&b| b <= a);
                always.extend(untracked[later..].iter().map(|&b| (a, b)));
            } else {
                always.extend((a + 1..m).map(|b| (a, b)));
            }
        }
        always.retain(|&(a, b)| self.allowed(a, b));
        self.always = always;
        // Room for every bounded member's near neighbours and three planes (a ball in a corner).
        let n_bounded = self.bounded.len();
        let all_pairs = n_bounded * n_bounded.saturating_sub(1) / 2 + n_bounded * self.planes.len();
        self.watch_slots = ((WATCH_SLOTS_PER_MEMBER + 3) * n_bounded).min(all_pairs);
        self.margin = self.margin_param.unwrap_or_else(|| self.auto_margin());
        self.gravity = binding.gravity.norm();
        self.up = if self.gravity > 0.0 {
            -binding.gravity / self.gravity
        } else {
            Vector3::zeros()
        };
        if let Some(rigid) = self.rigid {
            return self.bind_rigid(&rigid, binding);
        }
        for k in 0..self.m() {
            let name = self.members[k].name.clone();
            self.inputs.push(PortDecl::body_kinematics(&name));
            self.outputs.push(PortDecl::body_wrench(&name));
        }
        Ok(())
    }

    fn rigid_constraints(&self) -> Vec<RigidConstraint> {
        self.rigid_pairs().to_vec()
    }

    fn has_rigid_constraints(&self) -> bool {
        !self.rigid_pairs().is_empty()
    }

    fn geometry_members(&self) -> Option<&GeometryMembers> {
        Some(&self.spec)
    }

    fn set_members(&mut self, members: &[String]) {
        self.physical = members.iter().map(PortDecl::geometry).collect();
    }
}

fn build(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let spec = params::read_members(p)?;
    let rigid = params::read_contact(p)?;
    let (normal, friction, warnings) = if rigid.is_some() {
        // `normal` is refused under "rigid" (`read_contact`): the default law, never used.
        let normal = read_normal_law(p)?;
        (normal, FrictionLaw::None, Vec::new())
    } else {
        let normal = read_normal_law(p)?;
        let (friction, warnings) = read_friction_law(p)?;
        (normal, friction, warnings)
    };
    if normal.is_input() {
        return Err(p
            .error("normal", "normal method \"input\" is not available in a ContactGroup")
            .hint("a group computes its forces from a law; use a SpatialContactForce for a force by input"));
    }
    if friction.is_input() {
        return Err(p
            .error("friction", "friction method \"input\" is not available in a ContactGroup")
            .hint("a group computes its forces from a law; use a SpatialContactForce for a force by input"));
    }
    let zero_crossings = rigid.is_none() && params::ZERO_CROSSINGS.read(p)?;
    let onsets = params::read_onsets(p, zero_crossings)?;
    let margin_param = params::read_margin(p)?;
    let outputs = vec![
        PortDecl::scalar("active_pairs"),
        PortDecl::inherited("member_wrench").element_units(&["N", "N", "N", "N·m", "N·m", "N·m"]),
    ];
    Ok(Box::new(ContactGroup {
        normal,
        friction,
        zero_crossings,
        onsets,
        margin_param,
        margin: margin_param.unwrap_or(1e-3),
        gravity: 0.0,
        up: Vector3::zeros(),
        spec,
        warnings,
        physical: Vec::new(),
        inputs: Vec::new(),
        outputs,
        members: Vec::new(),
        bounded: Vec::new(),
        planes: Vec::new(),
        excluded: Vec::new(),
        joined: Vec::new(),
        always: Vec::new(),
        watch_slots: 0,
        rigid,
        pairs: Vec::new(),
        pair_members: Vec::new(),
    }))
}

/// The ContactGroup's parameters.
const PARAMS: &[ParamDoc] = &[
    params::MEMBERS_DOC,
    ParamDoc { name: "normal", unit: "", default: "smooth_spring_damper", doc: "one normal law for every pair, as SpatialContactForce's `normal` (every method but \"input\")" },
    ParamDoc { name: "friction", unit: "", default: "smooth_stick_slip", doc: "one friction law for every pair, as SpatialContactForce's `friction` (every method but \"input\"); with contact = \"rigid\": RigidContact's { method = \"none\" } | { method = \"coulomb\", coefficient = μ } (default none)" },
    params::CONTACT.doc,
    rigid_params::RESTITUTION.doc,
    rigid_params::REST_VELOCITY.doc,
    rigid_params::IMPACTS.doc,
    params::EXCLUDE_DOC,
    params::ZERO_CROSSINGS.doc,
    params::ONSETS.doc,
    params::MARGIN_DOC,
];

/// The ContactGroup block type.
pub static CONTACT_GROUP: BlockType = BlockType {
    name: "ContactGroup",
    category: "Contact",
    summary: "Contact among many geometries named by `members` (with * wildcards): every pair the geometry table supports touches. Penalty (the default): one normal law and one friction law, each pair computed as a SpatialContactForce computes it (contact manifold, bit for bit); a broad phase (bounding boxes in a uniform grid) evaluates only pairs whose boxes overlap; zero crossings watch only the pairs within `margin`, and the approach of any other pair is itself an event, so no contact onset is stepped over. contact = \"rigid\": every pair is a RigidContact pair (base: the member first in members order) with RigidContact's restitution, rest_velocity, friction and impacts, solved by the mechanism (no broad phase: every pair is evaluated at every evaluation). Outputs the number of pairs in contact and each member's net contact wrench.",
    params: PARAMS,
    ports: &[
        PortDoc { name: "(members)", kind: "geometry", shape: "", unit: "", doc: "one geometry port per member, named after it and connected by the builder to the member's G (write no `--` line)" },
        PortDoc { name: "active_pairs", kind: "output", shape: "1×1", unit: "", doc: "number of pairs in contact (penalty: with at least one contact point; rigid: with a resting point, a RigidContact's contact = 1)" },
        PortDoc { name: "member_wrench", kind: "output", shape: "6×M", unit: "N, N·m", doc: "column k: net contact force on member k (World), then net contact torque about its geometry frame's origin (World); members in `members` order after expansion" },
    ],
    build,
};
