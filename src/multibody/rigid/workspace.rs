//! The buffers of rigid contact for one mechanism and set of pairs.
//!
//! # Sizes
//!
//! The bookkeeping is sized once, linear in the pairs: per pair its manifold, margin, bounds and
//! flags; per possible point (`max_rows` of each constraint: four per contact pair) a candidate,
//! and three row slots per point for the rows' lists, kinds and per-row values (`max_rows` in
//! all). The *dense* buffers — the rows' Jacobian and Delassus matrix
//! ([`ConstraintRows`]: rows × nv and rows × rows), the complementarity solvers' matrices and
//! tableaux ([`LcpWorkspace`], [`Problem`], [`ImpulseWorkspace`]: up to (4·rows)² for a
//! frictional problem), the gathered sub-problem — are quadratic in the rows they hold, so they
//! are sized by the rows actually solved: first for [`INITIAL_ROWS`] (or every row, when the
//! constraints have fewer: a RigidContact model or the rigid tower is then sized once, exactly
//! as before), and grown by [`RigidWorkspace::fit_rows`] before a problem that has more
//! rows than they hold, to `max(rows, 1.5 × capacity)` (never above `max_rows`). The rows of a
//! problem are the touching or resting points' (three each with friction), so the dense
//! buffers are quadratic in the points that touch at once, not in the pairs: a rigid pile of 32
//! spheres (656 pairs, 7,872 possible rows) solves at most a few hundred rows.
//!
//! Growing allocates, inside the evaluation that first needs the room: at most
//! `log₁.₅(max_rows / INITIAL_ROWS)` times per workspace and run, never twice for the same size;
//! a run whose contacts stay within what the buffers have held allocates nothing
//! (tests/rigid_group_alloc.rs runs a rigid pile twice without an allocation; its 432 possible
//! rows fit [`INITIAL_ROWS`], so it does not exercise growing). A grown
//! problem keeps the frictional solvers' warm starts (their remembered contact modes), so the
//! solves, and the run, are bit for bit those of buffers sized for every row at once.

use super::broad::PairBounds;
use super::mode_indicators::ModeIndicators;
use super::problem::Problem;
use super::{ConstraintKind, RigidConstraint};
use crate::geometry::query::manifold::ContactManifold;
use crate::geometry::query::{ContactGeometry, QueryWorkspace};
use crate::multibody::constraints::{
    ConstraintRows, ContactRow, FrictionalContact, ImpulseWorkspace, LcpWorkspace, RowGroups,
    RowKind,
};
use crate::multibody::mechanism::Mechanism;
use nalgebra::{DMatrix, Vector3};

/// The rows the dense buffers are first sized for when the constraints may have more (see the
/// [module documentation](self)): 512 rows, 170 frictional contact points. The rigid models of
/// tests/engine_alloc.rs have at most this many rows in all (the largest, the rigid box tower
/// models/box_tower_rigid.toml: 3 × 4 × 36 = 432), so their buffers are sized once, as they
/// were before they could grow; no problem of the rigid sphere piles measured (up to 64
/// spheres, BENCHMARKS.md) needed more. The buffers then hold about 60 MB of address space (the
/// frictional solvers' tableaux in 4 × 512 variables), most of it never touched.
pub const INITIAL_ROWS: usize = 512;

/// One speculative contact point of a pair, or one bound of a joint limit (see the
/// [module documentation](super)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// Index of its constraint.
    pub owner: usize,
    /// Its slot in the constraint's output: its index in the pair's manifold or point cloud.
    pub slot: usize,
    /// Its normal row: a contact point and normal (World, from the base into the follower), or a
    /// joint coordinate with its sign (+1 at a lower bound, −1 at an upper one).
    pub row: ContactRow,
    /// Two unit tangents completing a right-handed basis with a contact normal (World).
    pub tangents: [Vector3<f64>; 2],
    /// Signed gap (m, or rad for a revolute limit): negative when penetrating.
    pub gap: f64,
    /// Velocity of the follower's material point relative to the base's at the point (m/s,
    /// World; zero for a limit).
    pub relative_velocity: Vector3<f64>,
    /// The gap's rate (m/s or rad/s; negative when approaching).
    pub normal_velocity: f64,
    /// What the row's acceleration has beyond `J v̇ + J̇ v` with a constant direction (m/s² or
    /// rad/s²): Baraff's `2 ṅ·v_rel` for a contact normal turning with the base body, `ḋ·(ω_b −
    /// ω_a)` for a closure's rotation row.
    pub bias: f64,
    /// The same for its tangent rows, as a vector `b_t` (m/s², World) whose component along a
    /// tangent `t` is that row's term: a sphere side's material point at the contact is not the
    /// contact point (which stays at the bottom of a sphere rolling on a plane), so its
    /// centripetal acceleration `ω×(ω×r)`, `r = p − c`, is no acceleration of the slip. Its
    /// tangential part `−t·(ω(ω·r))` with `r = −R n` (follower) or `R n` (base) is
    /// `R (ω·n)(t·ω)` for either side, so `b_t = Σ_sphere sides R (ω·n) ω` (zero for other
    /// shapes). Without it a sphere rolling while it spins about the normal (ω_n ≠ 0) has its
    /// sticking tangents hold the material point's acceleration `−R ω_n ω⊥` at zero, so its slip
    /// grows at `R ω_n |ω⊥|` until it slides, and the stick–slip events chatter (contact corpus
    /// seed 64).
    pub tangent_bias: Vector3<f64>,
    /// A loop-closure row: always active, force of either sign, its gap the closure error.
    pub bilateral: bool,
}

impl Candidate {
    /// The contact normal (World; zero for a joint limit's coordinate row).
    pub fn normal(&self) -> Vector3<f64> {
        match self.row {
            ContactRow::Point { direction, .. } => direction,
            ContactRow::Rotation { .. } | ContactRow::Coordinate { .. } => Vector3::zeros(),
        }
    }

    /// The tangential slip speed at a contact point (m/s; zero for other rows).
    pub fn slip_speed(&self) -> f64 {
        (self.relative_velocity - self.normal() * self.normal_velocity).norm()
    }

    /// The contact point (m, World; zero for a joint limit).
    pub fn point(&self) -> Vector3<f64> {
        match self.row {
            ContactRow::Point { point, .. } => point,
            ContactRow::Rotation { .. } | ContactRow::Coordinate { .. } => Vector3::zeros(),
        }
    }

    /// Whether the point is touching (gap at most [`super::CONTACT_DISTANCE`]); closures always.
    pub fn touching(&self) -> bool {
        self.bilateral || self.gap <= super::CONTACT_DISTANCE
    }

    /// Whether the point is a resting contact: touching, neither approaching nor separating
    /// faster than [`super::SEPARATING_VELOCITY`]; closures always.
    pub fn resting(&self) -> bool {
        self.bilateral
            || (self.touching() && self.normal_velocity.abs() <= super::SEPARATING_VELOCITY)
    }

    /// Whether the point approaches faster than [`super::SEPARATING_VELOCITY`] (never a closure).
    pub fn approaching(&self) -> bool {
        !self.bilateral && self.normal_velocity < -super::SEPARATING_VELOCITY
    }

    /// The row's kind in a complementarity problem.
    pub fn kind(&self) -> RowKind {
        if self.bilateral {
            RowKind::Bilateral
        } else {
            RowKind::Unilateral
        }
    }
}

/// What one pair's query found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairContact {
    /// Signed distance of the pair (m).
    pub separation: f64,
    /// The pair's zero-crossing value (m; see the module documentation).
    pub crossing: f64,
    /// Its candidates: `candidates[first..first + count]`.
    pub first: usize,
    /// How many candidates it has.
    pub count: usize,
}

impl PairContact {
    /// Nothing found yet: apart, the crossing at `margin`, no candidates from `first` on.
    pub fn apart(first: usize, margin: f64) -> Self {
        PairContact {
            separation: f64::INFINITY,
            crossing: margin,
            first,
            count: 0,
        }
    }
}

/// All buffers of rigid contact for one mechanism.
#[derive(Clone, Debug)]
pub struct RigidWorkspace {
    /// Per constraint, the contact manifold of the last query.
    pub manifolds: Vec<ContactManifold>,
    /// Per constraint, the contact geometry of each point of its point cloud (empty without one).
    pub cloud_queries: Vec<Vec<ContactGeometry>>,
    /// Where the pairs' geometry queries work (EPA's store), manifolds and point clouds alike.
    pub query_workspace: QueryWorkspace,
    /// Every candidate point of every pair, in constraint order.
    pub candidates: Vec<Candidate>,
    /// Per constraint: its separation, crossing value and candidates.
    pub pairs: Vec<PairContact>,
    /// The rows of the current problem, their kinds and (for frictional problems) contacts.
    pub rows: Vec<ContactRow>,
    /// Each row's kind.
    pub kinds: Vec<RowKind>,
    /// The frictional contacts among the rows.
    pub contacts: Vec<FrictionalContact>,
    /// The candidate behind each row.
    pub row_candidate: Vec<usize>,
    /// The rows' Jacobians and their products with M⁻¹.
    pub constraint_rows: ConstraintRows,
    /// Scratch of the complementarity solver.
    pub lcp: LcpWorkspace,
    /// Per-row right-hand side, solution and velocities (capacity-sized).
    pub bias: Vec<f64>,
    /// Per row: the solution (force or impulse).
    pub forces: Vec<f64>,
    /// Per row: the velocity before an impact.
    pub velocities: Vec<f64>,
    /// Per row: the velocity after an impact.
    pub velocities_after: Vec<f64>,
    /// Per row: the restitution coefficient.
    pub restitution: Vec<f64>,
    /// A gathered sub-problem (impacts of one pair).
    pub sub_matrix: DMatrix<f64>,
    /// The rows of the sub-problem.
    pub sub_rows: Vec<usize>,
    /// Their velocities before.
    pub sub_velocities: Vec<f64>,
    /// Their restitution coefficients.
    pub sub_restitution: Vec<f64>,
    /// Their kinds.
    pub sub_kinds: Vec<RowKind>,
    /// Their impulses.
    pub sub_impulses: Vec<f64>,
    /// Their velocities after.
    pub sub_after: Vec<f64>,
    /// Generalized velocity change and a q-sized buffer (nv, nq).
    pub dv: Vec<f64>,
    /// A q-sized buffer (nq).
    pub dq: Vec<f64>,
    /// Per candidate: the force of its normal row (N, or N·m for a revolute limit), and for a
    /// contact point the whole contact force on the follower (N, World).
    pub row_force: Vec<f64>,
    /// Per candidate point: the contact force on the follower (N, World).
    pub point_force: Vec<Vector3<f64>>,
    /// Per constraint: total normal impulse of the current impact (N·s).
    pub pair_impulse: Vec<f64>,
    /// Why the last constraint solve failed (formatted only when it does).
    pub failure: Option<String>,
    /// Independent groups of rows: the root subtree of each body and the body of each velocity
    /// coordinate (what a row couples), the partition, and one group's problem.
    pub root_of_body: Vec<usize>,
    /// The body of each velocity coordinate.
    pub body_of_dof: Vec<usize>,
    /// Per row: the two root subtrees it couples.
    pub couples: Vec<[usize; 2]>,
    /// The partition of the rows into independent groups.
    pub groups: RowGroups,
    /// One group's problem.
    pub problem: Problem,
    /// Each contact pair's speculative margin (m; computed once).
    pub margins: Vec<f64>,
    /// Each contact pair's broad-phase bounds (`None`: always queried; computed once).
    pub bounds: Vec<Option<PairBounds>>,
    /// The mode indicators of the last solve and the mode counts of the last event.
    pub modes: ModeIndicators,
    /// The buffers of frictional impacts.
    pub impact: ImpactBuffers,
    /// Per pair, whether the last resting solve had one of its contacts sliding or with its
    /// friction on the polygon's edge (about to slip): such a pair is not settled
    /// ([`super::settle`]).
    pub slipping: Vec<bool>,
    /// Per pair, whether the last resting solve gave one of its contacts a positive normal
    /// force: only such a pair is settled ([`super::settle`]; a touching point without load,
    /// slowly lifting off, is not held).
    pub loaded: Vec<bool>,
    /// The rows the dense buffers (`constraint_rows`, `lcp`, `sub_matrix`, `problem`, `impact`)
    /// hold now (see the [module documentation](self)).
    row_capacity: usize,
    /// The most rows the constraints can have at once: three per possible point (the size of
    /// the per-row lists, and the dense buffers' largest size).
    max_rows: usize,
}

/// Buffers of the frictional impact rounds, allocated once with the [`RigidWorkspace`].
#[derive(Clone, Debug)]
pub struct ImpactBuffers {
    /// The frictional contacts of the current round, in its row numbering.
    pub(super) contacts: Vec<FrictionalContact>,
    /// The two-phase solver.
    pub(super) solver: ImpulseWorkspace,
}

impl ImpactBuffers {
    /// Buffers for up to `rows` rows.
    pub fn new(rows: usize) -> Self {
        Self {
            contacts: Vec::with_capacity(rows),
            solver: ImpulseWorkspace::new(rows),
        }
    }

    /// Buffers for up to `rows` rows that keep these buffers' warm start (the frictional
    /// impulse solver's remembered contact mode). Allocates.
    fn grown(&self, rows: usize) -> Self {
        let mut bigger = Self::new(rows);
        bigger.solver.copy_warm_start(&self.solver);
        bigger
    }
}

impl RigidWorkspace {
    /// Buffers for `constraints` on `m`, the dense ones for [`INITIAL_ROWS`] rows at first.
    pub fn new(m: &Mechanism, constraints: &[RigidConstraint]) -> Self {
        Self::with_initial_rows(m, constraints, INITIAL_ROWS)
    }

    /// Buffers for `constraints` on `m`, the dense ones for `initial` rows at first (or every
    /// row, when the constraints have fewer).
    fn with_initial_rows(m: &Mechanism, constraints: &[RigidConstraint], initial: usize) -> Self {
        let pairs = constraints;
        let points: usize = pairs.iter().map(|c| c.max_rows()).sum();
        let rows = 3 * points;
        let dense = rows.min(initial);
        RigidWorkspace {
            manifolds: pairs
                .iter()
                .map(|c| match &c.kind {
                    ConstraintKind::Contact(p) if p.cloud_points().is_none() => {
                        ContactManifold::for_pair(&p.base.shape, &p.follower.shape)
                    }
                    _ => ContactManifold::for_pair(
                        &crate::geometry::Shape::Point,
                        &crate::geometry::Shape::Point,
                    ),
                })
                .collect(),
            cloud_queries: pairs
                .iter()
                .map(|c| match &c.kind {
                    ConstraintKind::Contact(p) => {
                        vec![ContactGeometry::apart(); p.cloud_points().unwrap_or(0)]
                    }
                    _ => Vec::new(),
                })
                .collect(),
            query_workspace: QueryWorkspace::new(),
            candidates: Vec::with_capacity(points),
            pairs: vec![PairContact::default(); pairs.len()],
            rows: Vec::with_capacity(rows),
            kinds: Vec::with_capacity(rows),
            contacts: Vec::with_capacity(points),
            row_candidate: Vec::with_capacity(rows),
            constraint_rows: ConstraintRows::new(m, dense),
            lcp: LcpWorkspace::new(dense.max(1)),
            bias: vec![0.0; rows],
            forces: vec![0.0; rows],
            velocities: vec![0.0; rows],
            velocities_after: vec![0.0; rows],
            restitution: vec![0.0; rows],
            sub_matrix: DMatrix::zeros(dense.max(1), dense.max(1)),
            sub_rows: Vec::with_capacity(rows),
            sub_velocities: vec![0.0; rows],
            sub_restitution: vec![0.0; rows],
            sub_kinds: vec![RowKind::Unilateral; rows],
            sub_impulses: vec![0.0; rows],
            sub_after: vec![0.0; rows],
            dv: vec![0.0; m.nv()],
            dq: vec![0.0; m.nq()],
            row_force: vec![0.0; points],
            point_force: vec![Vector3::zeros(); points],
            pair_impulse: vec![0.0; pairs.len()],
            failure: None,
            // Parents precede their children, so one pass in body order is linear in the bodies
            // (walking each body up to its root was quadratic on a 20,000-joint chain).
            root_of_body: {
                let mut root = vec![0; m.num_bodies()];
                for b in 1..m.num_bodies() {
                    let parent = m.bodies[b].parent;
                    root[b] = if parent == 0 { b } else { root[parent] };
                }
                root
            },
            body_of_dof: {
                let mut of = vec![0; m.nv()];
                for b in 1..m.num_bodies() {
                    let body = &m.bodies[b];
                    of[body.v_start..body.v_start + body.kind.nv()].fill(b);
                }
                of
            },
            couples: Vec::with_capacity(rows),
            groups: RowGroups::new(rows.max(1), m.num_bodies()),
            problem: Problem::new(dense),
            margins: pairs
                .iter()
                .map(|c| match &c.kind {
                    ConstraintKind::Contact(p) => p.margin(),
                    _ => 0.0,
                })
                .collect(),
            bounds: pairs
                .iter()
                .map(|c| match &c.kind {
                    ConstraintKind::Contact(p) if p.broad_phase && p.cloud_points().is_none() => {
                        PairBounds::of(&p.base, &p.follower)
                    }
                    _ => None,
                })
                .collect(),
            modes: ModeIndicators::new(pairs.len(), points),
            impact: ImpactBuffers::new(dense),
            slipping: vec![false; pairs.len()],
            loaded: vec![false; pairs.len()],
            row_capacity: dense,
            max_rows: rows,
        }
    }
}

impl RigidWorkspace {
    /// Takes `other`'s warm start (the frictional solver's remembered contact mode), so that
    /// the next solve here starts where `other`'s would. Copies; allocates only when `other`'s
    /// problem buffers have grown past these (a smaller copy could not hold the mode).
    pub fn copy_warm_start(&mut self, other: &RigidWorkspace) {
        if self.problem.capacity() < other.problem.capacity() {
            self.problem = self.problem.grown(other.problem.capacity());
        }
        self.problem.copy_warm_start(&other.problem);
    }

    /// Makes the dense buffers hold a problem of `rows` rows (at most `max_rows`: the rows of
    /// the candidates): nothing when they do; else they grow to `max(rows, 1.5 × capacity)`,
    /// capped at `max_rows`, keeping the solvers' settings and the frictional solvers' warm
    /// starts (see the [module documentation](self)). Called before every problem is assembled (`rows_matrix`).
    pub fn fit_rows(&mut self, m: &Mechanism, rows: usize) {
        if rows <= self.row_capacity {
            return;
        }
        let capacity = (self.row_capacity + self.row_capacity / 2)
            .min(self.max_rows)
            .max(rows);
        self.constraint_rows = ConstraintRows::new(m, capacity);
        let lcp_settings = self.lcp.settings;
        self.lcp = LcpWorkspace::new(capacity);
        self.lcp.settings = lcp_settings;
        self.sub_matrix = DMatrix::zeros(capacity, capacity);
        self.problem = self.problem.grown(capacity);
        self.impact = self.impact.grown(capacity);
        self.row_capacity = capacity;
    }

    /// Sets the problem's rows to the normal rows of the candidates that `keep` selects (all
    /// unilateral).
    pub fn normal_rows(&mut self, keep: impl Fn(&Candidate) -> bool) {
        self.rows.clear();
        self.kinds.clear();
        self.row_candidate.clear();
        for (i, c) in self.candidates.iter().enumerate() {
            if keep(c) {
                self.rows.push(c.row);
                self.kinds.push(c.kind());
                self.row_candidate.push(i);
            }
        }
    }

    /// Zeroes `values[r]` of the bilateral rows that no motion of the mechanism can change
    /// (`A_rr ≤ 10⁻¹²·max A_ii`: a planar loop's out-of-plane closure rows, whose Jacobian rows
    /// vanish). Their right-hand sides are round-off; left in, the solvers would rightly report
    /// them as unsatisfiable redundant rows.
    pub fn drop_ineffective_rows(&mut self, values_are_velocities: bool) {
        let n = self.rows.len();
        let a = self.constraint_rows.matrix();
        let largest = (0..n).fold(0.0f64, |m, r| m.max(a[(r, r)]));
        for r in 0..n {
            if self.kinds[r] == RowKind::Bilateral && a[(r, r)] <= 1e-12 * largest {
                if values_are_velocities {
                    self.velocities[r] = 0.0;
                } else {
                    self.bias[r] = 0.0;
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "workspace_tests.rs"]
mod tests;
