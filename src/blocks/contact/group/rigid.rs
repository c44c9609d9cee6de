//! A ContactGroup with `contact = "rigid"`: every allowed pair of members (the pair rules of
//! [`ContactGroup::allowed`]) becomes a rigid pair of the mechanism's rigid solver
//! ([`crate::multibody::rigid`]), with the group's RigidContact parameters
//! (`blocks/contact/rigid_params.rs`). Pair (i, j), i before j in members order, is the pair a
//! RigidContact with base i and follower j declares: the same constraint, so the same
//! dynamics, bit for bit.
//!
//! The group then declares no forces of its own: it reads each pair's solved contact (one hidden
//! input per pair, from the mechanism) and writes
//!
//! - `active_pairs`: the pairs with a resting point now (a RigidContact's `contact` is 1);
//! - `member_wrench`, column k: `F_k = Σ f` and `τ_k = Σ (p − o_k) × f` over the contact points
//!   p of member k's pairs, with f the force on member k there (N, World: the solved force on
//!   the follower, its opposite on the base), o_k member k's geometry frame origin (m, World).
//!
//! A group of either kind none of whose pairs may touch says so when the model is built
//! ([`ContactGroup::no_pair_warning`], `group/silent.rs`).
//!
//! Cost: the mechanism bounds every pair at every evaluation (M(M − 1)/2 pairs for M bounded
//! members: two balls, then two World-axis boxes when the balls are near) and computes the
//! speculative manifold only of pairs whose bounds come within twice their margin (the broad
//! phase of `multibody/rigid/broad.rs`; the group's pairs opt in with
//! [`crate::multibody::rigid::RigidPair::broad_phase`]).

use super::base::{ContactGroup, ACTIVE_PAIRS, MEMBER_WRENCH};
use crate::block::{Binding, BlockError, Ctx, HiddenPort, PortDecl, Setup, Shape};
use crate::blocks::contact::rigid_params::{check_rigid_geometry, RigidParams};
use crate::blocks::multibody::FrameMotion;
use crate::multibody::rigid::{output, ConstraintKind, PairSide, RigidConstraint};
use nalgebra::Vector3;

/// Per-run buffers of a rigid group, sized once.
pub(super) struct RigidScratch {
    /// Each member's geometry frame origin (m, World).
    origin: Vec<Vector3<f64>>,
    /// Each member's net contact force (N) and torque about its origin (N·m), World.
    wrench: Vec<[Vector3<f64>; 2]>,
}

impl ContactGroup {
    /// Every allowed pair (i < j) in (i, j) order.
    fn allowed_pairs(&self) -> Vec<(u32, u32)> {
        let m = self.m() as u32;
        (0..m)
            .flat_map(|a| (a + 1..m).map(move |b| (a, b)))
            .filter(|&(a, b)| self.allowed(a, b))
            .collect()
    }

    /// Binds a rigid group: checks that rigid contact takes every member, makes one rigid pair
    /// per allowed pair, and declares the hidden inputs (each member's body kinematics, then
    /// each pair's solution). No wrench outputs: the mechanism applies the rigid forces itself.
    pub(super) fn bind_rigid(
        &mut self,
        params: &RigidParams,
        binding: &Binding,
    ) -> Result<(), BlockError> {
        let mut sides = Vec::with_capacity(self.m());
        for member in &self.members {
            let (bound, shape, label) = binding.geometry(&member.name)?;
            check_rigid_geometry(&shape, &label)?;
            sides.push(PairSide {
                body: bound.body,
                placement: bound.placement,
                shape,
                frame: bound.frame,
            });
        }
        self.pair_members = self.allowed_pairs();
        self.pairs = self
            .pair_members
            .iter()
            .map(|&(a, b)| {
                let (a, b) = (a as usize, b as usize);
                let label = format!("{}–{}", self.members[a].name, self.members[b].name);
                let mut pair = params.constraint(sides[a].clone(), sides[b].clone(), label);
                // The group reports no pair's separation: its pairs may skip the narrow phase
                // while apart (the mechanism's broad phase, multibody/rigid/broad.rs).
                if let ConstraintKind::Contact(p) = &mut pair.kind {
                    p.broad_phase = true;
                }
                pair
            })
            .collect();
        for k in 0..self.m() {
            let name = self.members[k].name.clone();
            self.inputs.push(PortDecl::body_kinematics(&name));
        }
        for (k, pair) in self.pairs.iter().enumerate() {
            self.inputs.push(
                PortDecl::signal(format!("pair_{k}"), Shape::vector(pair.output_len()))
                    .hidden(HiddenPort::RigidConstraint),
            );
        }
        Ok(())
    }

    /// The rigid group's setup: every input (kinematics and solved pairs) feeds both outputs;
    /// no states, work or zero crossings (the mechanism locates the pairs' impacts).
    pub(super) fn setup_rigid(&self) -> Setup {
        let inputs = self.m() + self.pairs.len();
        Setup {
            feedthrough: (0..inputs)
                .flat_map(|k| [(k, ACTIVE_PAIRS), (k, MEMBER_WRENCH)])
                .collect(),
            ..Setup::default()
        }
    }

    pub(super) fn rigid_scratch(&self) -> RigidScratch {
        RigidScratch {
            origin: vec![Vector3::zeros(); self.m()],
            wrench: vec![[Vector3::zeros(); 2]; self.m()],
        }
    }

    /// The outputs from the solved pairs (see the module documentation). Allocates nothing.
    pub(super) fn rigid_outputs(&self, ctx: &mut Ctx) {
        let Some(s) = ctx.scratch.downcast_mut::<RigidScratch>() else {
            return;
        };
        let m = self.m();
        for (k, member) in self.members.iter().enumerate() {
            s.origin[k] = FrameMotion::of(ctx.io.input(k), &member.placement).position;
            s.wrench[k] = [Vector3::zeros(); 2];
        }
        let mut active = 0usize;
        for (k, &(a, b)) in self.pair_members.iter().enumerate() {
            let solution = ctx.io.input(m + k);
            active += usize::from(solution[output::CONTACT] > 0.5);
            let (a, b) = (a as usize, b as usize);
            for slot in solution[output::POINTS..].chunks_exact(output::SLOT_LEN) {
                let at = |i: usize| Vector3::new(slot[i], slot[i + 1], slot[i + 2]);
                let f = at(output::SLOT_FORCE);
                if f == Vector3::zeros() {
                    continue;
                }
                let p = at(output::SLOT_POINT);
                // The force on the follower b, its opposite on the base a.
                s.wrench[b][0] += f;
                s.wrench[b][1] += (p - s.origin[b]).cross(&f);
                s.wrench[a][0] -= f;
                s.wrench[a][1] -= (p - s.origin[a]).cross(&f);
            }
        }
        ctx.io.output(ACTIVE_PAIRS)[0] = active as f64;
        let table = ctx.io.output(MEMBER_WRENCH);
        for (col, [f, tau]) in table.chunks_exact_mut(6).zip(&s.wrench) {
            col[..3].copy_from_slice(f.as_slice());
            col[3..].copy_from_slice(tau.as_slice());
        }
    }

    /// The rigid pairs, in the order of their hidden inputs.
    pub(super) fn rigid_pairs(&self) -> &[RigidConstraint] {
        &self.pairs
    }
}
