//! What makes a ContactGroup stiff at its last evaluation, for the stall message
//! ([`Block::stiffness`](crate::block::Block::stiffness)): of the pairs in contact, the one
//! whose fastest mode (normal, sliding or twisting) is the fastest, named by its members.
//!
//! Each pair in contact is what a SpatialContactForce with base i and follower j would be
//! (`contact_points = "manifold"`), and its modes are that block's (`spatial_contact/stiffness.rs`,
//! whose module documentation states them): the normal mode from K = Σ ∂f_n,i/∂d (N/m) and
//! B = Σ ∂f_n,i/∂ḋ (N·s/m) on the reduced mass m = 1/(1/m_i + 1/m_j) (kg; 1/m = 0 for a member
//! fixed to the World), the sliding mode C/m (C = Σ c_i, N·s/m, c_i friction's slope at point i's
//! slip speed), and the twisting mode Σ c_i·r_i² over each body's polar inertia about the normal
//! through its centre of mass. Every vector is in World.
//!
//! With the note, the members that the contacts do not hold up ([`StiffnessNote::free_members`],
//! for `check`'s count of a group's impacts).
//!
//! The pairs are those the last whole evaluation put through the narrow phase (its candidates:
//! the always-evaluated pairs, the watched ones and those whose boxes overlap); their manifolds
//! are formed again here from the members' poses and motions it kept. This runs once, when a
//! run stalls or `check` reads the state at t = 0, never inside the integration: it allocates
//! its own buffers.

use super::base::{ContactGroup, Scratch};
use crate::block::StiffnessNote;
use crate::blocks::contact::pair_modes::{BodyAt, PairModes};
use crate::geometry::query::manifold::{contact_manifold_with, ContactManifold};
use crate::geometry::QueryWorkspace;
use nalgebra::Vector3;

impl ContactGroup {
    /// The fastest mode of the pairs in contact at the last whole evaluation (see the module
    /// documentation), with the members that fall; rate 0 when no pair is in contact or their
    /// bodies have no mass.
    pub(super) fn stiffness_note(&self, s: &Scratch) -> Option<StiffnessNote> {
        let mut workspace = QueryWorkspace::new();
        let mut manifold = ContactManifold::for_shapes(self.members.iter().map(|m| &m.shape));
        let mut stiffest: Option<StiffnessNote> = None;
        for &(i, j) in &s.candidates {
            let Some(note) =
                self.pair_note(s, (i as usize, j as usize), &mut workspace, &mut manifold)
            else {
                continue;
            };
            if stiffest.as_ref().is_none_or(|best| note.rate > best.rate) {
                stiffest = Some(note);
            }
        }
        // With no pair in contact, a note of rate 0 (which no stall names) still says which
        // members fall.
        let note = stiffest.unwrap_or(StiffnessNote {
            rate: 0.0,
            what: String::new(),
            help: String::new(),
            surface_speed: 0.0,
            free_members: 0,
        });
        Some(StiffnessNote {
            free_members: self.free_members(s),
            ..note
        })
    }

    /// The moving members that fall at the last whole evaluation: those whose net contact
    /// force holds up less than half their body's weight, F·up < m·|g|/2 (F the member's net
    /// contact force, World, N; up = −g/|g|), and that do not sit within the margin above
    /// another member. A member resting on another or on the floor carries its weight (F·up ≈
    /// m·|g|); one that touches a neighbour side by side, or nothing, falls; one released
    /// within the margin (a quarter of the smallest member's half size) above another lands at
    /// once at a speed below sqrt(2·|g|·margin) and settles with the members under it (a
    /// stack started with gaps: its landings are at the run's start, inside `check`'s probe).
    /// Without gravity, the members that touch nothing. Members on one body are counted each.
    pub(super) fn free_members(&self, s: &Scratch) -> usize {
        self.members
            .iter()
            .enumerate()
            .filter(|(_, m)| m.moving)
            .filter(|&(k, m)| {
                let w = &s.wrench[k];
                let force = Vector3::new(w[3], w[4], w[5]);
                let held = s.touched[k]
                    && !(self.gravity > 0.0
                        && force.dot(&self.up) < 0.5 * m.body_mass * self.gravity);
                !held && !self.sits_on_another(s, k)
            })
            .count()
    }

    /// Whether member k's box is within the margin above another member's (a near pair of the
    /// last broad phase whose other box's top, along up, is below k's box's bottom plus the
    /// margin; a fixed plane in the near list when it faces up, its normal within 60° of up).
    fn sits_on_another(&self, s: &Scratch, k: usize) -> bool {
        if self.gravity <= 0.0 {
            return false;
        }
        // The extent of member j's World box along up: (bottom, top) (m).
        let along_up = |j: usize| {
            let (lo, hi) = (&s.lo[j], &s.hi[j]);
            let (mut centre, mut half) = (0.0, 0.0);
            for a in 0..3 {
                centre += self.up[a] * 0.5 * (lo[a] + hi[a]);
                half += self.up[a].abs() * 0.5 * (hi[a] - lo[a]);
            }
            (centre - half, centre + half)
        };
        s.near.iter().any(|p| {
            let (a, b) = (p.a as usize, p.b as usize);
            let other = match (a == k, b == k) {
                (true, _) => b,
                (_, true) => a,
                _ => return false,
            };
            if self.members[other].fixed_plane {
                // A floor (its normal within 60° of up), not a wall.
                let normal = s.motions[other].rotation.column(2).into_owned();
                return normal.dot(&self.up) > 0.5;
            }
            self.members[other].bounded
                && self.members[k].bounded
                && along_up(other).1 <= along_up(k).0 + self.margin
        })
    }

    /// The note of pair (i, j), member i the base and j the follower, from the poses and motions
    /// of the last evaluation; `None` when it is apart.
    fn pair_note(
        &self,
        s: &Scratch,
        (i, j): (usize, usize),
        workspace: &mut QueryWorkspace,
        manifold: &mut ContactManifold,
    ) -> Option<StiffnessNote> {
        let (a, b) = (&self.members[i], &self.members[j]);
        let (pose_a, pose_b) = (&s.poses[i], &s.poses[j]);
        contact_manifold_with(workspace, &a.shape, pose_a, &b.shape, pose_b, manifold).ok()?;
        let touching = manifold.separation() < 0.0 && !manifold.points().is_empty();
        if !touching {
            return None;
        }
        let n: Vector3<f64> = manifold.normal().into_inner();
        let (mb, mf) = (&s.motions[i], &s.motions[j]);
        // The follower's material velocity relative to the base's at p (World, m/s), as the
        // narrow phase forms it.
        let relative = |p: &Vector3<f64>| {
            if a.body == 0 {
                mf.point_velocity(p)
            } else {
                mf.point_velocity(p) - mb.point_velocity(p)
            }
        };
        let (normal_velocity, slip_speed): (Vec<f64>, Vec<f64>) = manifold
            .points()
            .iter()
            .map(|p| {
                let v_rel = relative(&p.point.coords);
                let vt = v_rel - n * n.dot(&v_rel);
                (n.dot(&relative(&p.velocity_point.coords)), vt.norm())
            })
            .unzip();
        let body = |m: &super::base::Member, pose| {
            (m.body != 0)
                .then(|| BodyAt::from_inertia(&m.body_inertia, &m.placement, pose, &n))
                .flatten()
        };
        let modes = PairModes {
            normal: &self.normal,
            friction: &self.friction,
            n,
            motions: (mb, mf),
            bodies: (body(a, pose_a), body(b, pose_b)),
        };
        let sums = modes.manifold_sums(manifold, &normal_velocity, &slip_speed);
        modes.note(&format!("(pair {} against {})", a.name, b.name), &sums)
    }
}
