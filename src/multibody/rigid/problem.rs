//! One complementarity problem of resting constraints (a group of rows that share no moving
//! subtree with the others), and the strategy that solves it:
//!
//! 1. without friction rows: Baraff's method ([`solve_lcp`]), exact and tolerant of redundant rows;
//! 2. with friction, every contact sticking: the frictionless problem first — when its forces
//!    leave every tangential acceleration at zero (within 10⁻⁹ of the problem's scale), they solve
//!    the frictional problem too (a stack resting on level ground);
//! 3. otherwise the polyhedral-cone problem by [`solve_frictional`]: a warm start from the
//!    previous solve's contact mode (kept in the workspace, cloned with the run's state), Lemke's
//!    method with the lexicographic anti-cycling rule, and the enumeration of complementary
//!    bases for small problems as its fallback;
//! 4. when Lemke's method ends on a ray with every contact sticking (degenerate cones; sticking
//!    problems always have a solution), the frictionless normal forces are kept and the friction
//!    found by projected Gauss–Seidel within each contact's disk `|f_t| ≤ μ f_n`. With a sliding
//!    contact the failure may be Painlevé's paradox and is returned;
//! 5. a sticking contact that the solve let slip (friction on its polygon's boundary) gets its
//!    polygon turned so that its first direction is along that friction, and the problem is
//!    solved again (the last result is kept if that fails), until every such friction lies on
//!    its first direction: the cap along the friction is then the exact `μ f_n`, the sliding
//!    law's (see `turn_saturated_polygons`);
//! 6. the rows the answer holds at zero acceleration are brought to zero to round-off
//!    (`refine.rs`): the solvers' tolerances would otherwise act as forces (a stack's creep).

use super::refine::{self, Refinement, Rows};
use crate::multibody::constraints::{
    solve_frictional, solve_lcp, ConstraintError, ContactMotion, FrictionSettings,
    FrictionWorkspace, FrictionalContact, LcpSettings, LcpWorkspace, RowKind,
};
use nalgebra::{DMatrix, DMatrixView};

/// A problem `a = A f + b` over `n` rows, in buffers sized once.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The Delassus matrix A (capacity-sized; the leading n×n block is used).
    pub a: DMatrix<f64>,
    /// The free acceleration or velocity b of each row.
    pub b: Vec<f64>,
    /// Each row's kind (normal, friction, bilateral).
    pub kinds: Vec<RowKind>,
    /// The frictional contacts (a normal row with its friction rows).
    pub contacts: Vec<FrictionalContact>,
    /// The solution f.
    pub forces: Vec<f64>,
    /// Rows in use.
    pub n: usize,
    // Scratch of the strategy.
    lcp: LcpWorkspace,
    friction: FrictionWorkspace,
    sub_a: DMatrix<f64>,
    sub_rows: Vec<usize>,
    sub_b: Vec<f64>,
    sub_kinds: Vec<RowKind>,
    sub_f: Vec<f64>,
    saved: Vec<f64>,
    /// The contacts (their polygons' headings) before a turn, restored with `saved` when the
    /// turned problem fails, so that the forces and the polygons they were solved on agree.
    saved_contacts: Vec<FrictionalContact>,
    refinement: Refinement,
}

/// Copies the rows and columns `rows` of `a` into the top-left of `out`.
pub fn gather(a: DMatrixView<'_, f64>, rows: &[usize], out: &mut DMatrix<f64>) {
    for (i, &ri) in rows.iter().enumerate() {
        for (j, &rj) in rows.iter().enumerate() {
            out[(i, j)] = a[(ri, rj)];
        }
    }
}

/// Makes `row` of the `n × n` problem matrix `a` independent of the others: `A_row,· = 0`,
/// `A_row,row = 1`. With a zero right-hand side its force is then zero: how a redundant
/// bilateral row that the others already hold, inconsistent with them only by drift, is taken
/// out of a problem.
pub fn decouple(a: &mut DMatrix<f64>, n: usize, row: usize) {
    for j in 0..n {
        a[(row, j)] = 0.0;
        a[(j, row)] = 0.0;
    }
    a[(row, row)] = 1.0;
}

/// The most times a problem is solved again with its saturated polygons turned (step 5 of the
/// strategy); the turns also stop when one does not halve the largest angle (redundant points,
/// whose friction is not unique). On the driven turntable's brick a turn left about a quarter of
/// the last angle (0.134 → 0.030 rad), so three turns bring its corners within ~2e-3 rad of their
/// vertices (cap short of `μ f_n` by ~1e-6 relative): 590 steps under auto, against 1,676 with
/// one turn. Twelve turns (the cap first tried) made the solve's result change in more and
/// smaller jumps with the state, and a spinning, tilted prism of the contact corpus (seed 175)
/// stalled under auto; tests/data/stalls/rigid_prism_spin_1004.toml stalled under trbdf2.
const MAX_TURNS: usize = 3;
/// After the first turn, a saturated friction within this angle (rad) of its polygon's first
/// direction is at the vertex, where the cap is the exact `μ f_n` to
/// `1 − TURN_TOLERANCE·tan(π/k)`: no further turn. The first turn is taken at any angle, as
/// before the turns were repeated (a pushed box's located slip onset, exact to 10⁻⁸, depends on
/// it: tests/contact_modes.rs).
const TURN_TOLERANCE: f64 = 1e-6;

/// Sweeps of the fixed-normal friction fallback.
const FRICTION_SWEEPS: usize = 200;

impl Problem {
    /// Takes `other`'s warm start (the frictional solver's remembered contact mode).
    pub fn copy_warm_start(&mut self, other: &Problem) {
        self.friction.copy_warm_start(&other.friction);
    }

    /// Buffers for up to `capacity` rows, the solvers' default settings.
    pub fn new(capacity: usize) -> Self {
        Self::with_settings(
            capacity,
            LcpSettings::default(),
            FrictionSettings::default(),
        )
    }

    /// Buffers for up to `capacity` rows, the solvers' settings given.
    fn with_settings(capacity: usize, lcp: LcpSettings, friction: FrictionSettings) -> Self {
        let c = capacity.max(1);
        let mut lcp_workspace = LcpWorkspace::new(c);
        lcp_workspace.settings = lcp;
        Problem {
            a: DMatrix::zeros(c, c),
            b: vec![0.0; c],
            kinds: Vec::with_capacity(c),
            contacts: Vec::with_capacity(c),
            forces: vec![0.0; c],
            n: 0,
            lcp: lcp_workspace,
            friction: FrictionWorkspace::with_settings(c, friction),
            sub_a: DMatrix::zeros(c, c),
            sub_rows: Vec::with_capacity(c),
            sub_b: vec![0.0; c],
            sub_kinds: vec![RowKind::Unilateral; c],
            sub_f: vec![0.0; c],
            saved: vec![0.0; c],
            saved_contacts: Vec::with_capacity(c),
            refinement: Refinement::new(c),
        }
    }

    /// The most rows a problem may have.
    pub fn capacity(&self) -> usize {
        self.b.len()
    }

    /// Buffers for `capacity` rows (at least this one's) that keep this problem's solver
    /// settings and warm start: their next solve starts where this one's would. Allocates (the
    /// rigid workspace grows its buffers with it when more rows touch than it was sized for:
    /// `workspace.rs`).
    pub fn grown(&self, capacity: usize) -> Self {
        let mut bigger = Problem::with_settings(
            capacity.max(self.capacity()),
            self.lcp.settings,
            *self.friction.settings(),
        );
        bigger.copy_warm_start(self);
        bigger
    }

    /// Whether the solved friction of `c` (one of [`Problem::contacts`]) holds it: the contact
    /// sticks and its friction is short of its polygon's edge ([`refine::saturated`]). False
    /// for a sliding contact or one about to slip.
    pub fn holds_friction(&self, c: &FrictionalContact) -> bool {
        c.motion == ContactMotion::Sticking
            && !refine::saturated(c, &self.forces, self.friction.settings().directions_3d)
    }

    fn matrix(&self) -> DMatrixView<'_, f64> {
        self.a.view((0, 0), (self.n, self.n))
    }

    /// Solves the problem into `forces[..n]` (module documentation). A bilateral row found
    /// redundant and inconsistent with the others (a loop's closure rows at a singular,
    /// collinear configuration, inconsistent only by the drift the projection removes) is
    /// decoupled — its force set to zero — and the problem solved again.
    pub fn solve(&mut self) -> Result<(), ConstraintError> {
        self.solve_decoupling()?;
        let mut last_angle = f64::INFINITY;
        for turn in 0..MAX_TURNS {
            self.saved_contacts.clear();
            self.saved_contacts.extend_from_slice(&self.contacts);
            let angle = self.turn_saturated_polygons(turn == 0);
            if angle == 0.0 {
                break;
            }
            self.saved[..self.n].copy_from_slice(&self.forces[..self.n]);
            if self.solve_decoupling().is_err() {
                self.forces[..self.n].copy_from_slice(&self.saved[..self.n]);
                self.contacts.copy_from_slice(&self.saved_contacts);
                break;
            }
            // Turns that do not halve the largest angle are not converging (redundant points,
            // whose friction is not unique): the last solve stands.
            if turn > 0 && angle > 0.5 * last_angle {
                break;
            }
            last_angle = angle;
        }
        let n = self.n;
        let rows = Rows {
            a: self.a.view((0, 0), (n, n)),
            b: &self.b[..n],
            kinds: &self.kinds[..n],
            contacts: &self.contacts,
            directions: self.friction.settings().directions_3d,
        };
        self.refinement.refine(&rows, &mut self.forces[..n]);
        Ok(())
    }

    /// Step 5 of the strategy: a sticking spatial contact that the solve let slip (its friction
    /// on the polygon's boundary, its tangential acceleration not zero within 10⁻⁹ of the
    /// problem's scale) gets its polygon turned so that the first direction is along the
    /// friction found; the largest angle turned (rad; 0 when none was, else positive: solve again). After the `first` turn a
    /// friction already within [`TURN_TOLERANCE`] of its first direction is not turned, so [`Problem::solve`] repeats
    /// this until none is turned (at most [`MAX_TURNS`] times): turned once, the brick on the
    /// driven turntable had its corners' frictions move again by up to 0.03 rad off their new
    /// vertex, 1.2 % short of `μ f_n`, and a corner that the exact sliding law held was let go
    /// by the polygon, chattering at the sliding threshold. Between two of the polygon's
    /// vertices its cap is short of `μ f_n` by up to `1 − cos(π/k)`; along the first direction
    /// it is exact. The pair's common heading (`resting.rs`) points the polygons along the pair's
    /// total friction, but the points of a face also share a torque (a block turned with a
    /// turntable needs `I α`), which tilts each point's friction by a few degrees from it: with
    /// k = 8 that made the turntable slip 0.9 % early. Contacts that hold are left alone: their
    /// friction is inside the polygon, and among redundant points (a face's corners) it is not
    /// unique, so it would be no guide.
    fn turn_saturated_polygons(&mut self, first: bool) -> f64 {
        let scale = self.b[..self.n].iter().fold(1.0f64, |s, b| s.max(b.abs()));
        let mut largest = 0.0f64;
        for i in 0..self.contacts.len() {
            let c = self.contacts[i];
            if c.tangent_rows != 2 || c.motion != ContactMotion::Sticking || c.mu <= 0.0 {
                continue;
            }
            let r = c.normal_row;
            let a_t = self
                .row_acceleration(r + 1)
                .hypot(self.row_acceleration(r + 2));
            let f_t = [self.forces[r + 1], self.forces[r + 2]];
            let angle = (f_t[1] * c.heading[0] - f_t[0] * c.heading[1])
                .atan2(f_t[0] * c.heading[0] + f_t[1] * c.heading[1])
                .abs();
            let off_vertex = angle > if first { 0.0 } else { TURN_TOLERANCE };
            if a_t > 1e-9 * scale && f_t[0].hypot(f_t[1]) > 0.0 && off_vertex {
                self.contacts[i] = c.with_heading(f_t);
                // A turn of exactly 0 at the first pass still counts as a turn.
                largest = largest.max(angle.max(f64::MIN_POSITIVE));
            }
        }
        largest
    }

    /// [`Problem::solve`] without the polygons' turning: decouples redundant bilateral rows.
    fn solve_decoupling(&mut self) -> Result<(), ConstraintError> {
        for _ in 0..self.n.max(1) {
            match self.solve_once() {
                Err(ConstraintError::Infeasible { row })
                    if self.kinds[row] == RowKind::Bilateral =>
                {
                    self.decouple(row)
                }
                other => return other,
            }
        }
        self.solve_once()
    }

    /// Makes `row` independent of the others with a zero force (see [`decouple`]).
    fn decouple(&mut self, row: usize) {
        decouple(&mut self.a, self.n, row);
        self.b[row] = 0.0;
    }

    fn solve_once(&mut self) -> Result<(), ConstraintError> {
        let n = self.n;
        let any_friction = self
            .contacts
            .iter()
            .any(|c| c.tangent_rows > 0 && c.mu > 0.0);
        if !any_friction {
            let a = self.a.view((0, 0), (n, n));
            return solve_lcp(
                a,
                &self.b[..n],
                &self.kinds,
                &mut self.lcp,
                &mut self.forces[..n],
            )
            .map(|_| ());
        }
        let all_sticking = self
            .contacts
            .iter()
            .all(|c| c.motion == ContactMotion::Sticking);
        if all_sticking && self.frictionless_forces() && self.tangential_accelerations_vanish() {
            return Ok(());
        }
        let a = self.a.view((0, 0), (n, n));
        let solved = solve_frictional(
            a,
            &self.b[..n],
            &self.kinds,
            &self.contacts,
            &mut self.friction,
            &mut self.forces[..n],
        );
        match solved {
            Ok(_) => Ok(()),
            Err(_) if all_sticking && self.frictionless_forces() && self.sticking_friction() => {
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// `Σ_j A_rj f_j + b_r`.
    fn row_acceleration(&self, r: usize) -> f64 {
        let a = self.matrix();
        (0..self.n).map(|j| a[(r, j)] * self.forces[j]).sum::<f64>() + self.b[r]
    }

    /// Whether the forces leave every tangent row's acceleration at zero (10⁻⁹ of the scale).
    fn tangential_accelerations_vanish(&self) -> bool {
        let scale = self.b[..self.n].iter().fold(1.0f64, |s, b| s.max(b.abs()));
        (0..self.n)
            .filter(|&r| self.kinds[r] == RowKind::Tangent)
            .all(|r| self.row_acceleration(r).abs() <= 1e-9 * scale)
    }

    /// Solves the rows without their tangents into `forces` (tangent forces zero).
    fn frictionless_forces(&mut self) -> bool {
        let n = self.n;
        self.sub_rows.clear();
        self.sub_rows
            .extend((0..n).filter(|&r| self.kinds[r] != RowKind::Tangent));
        let m = self.sub_rows.len();
        gather(self.a.view((0, 0), (n, n)), &self.sub_rows, &mut self.sub_a);
        for (i, &ri) in self.sub_rows.iter().enumerate() {
            self.sub_b[i] = self.b[ri];
            self.sub_kinds[i] = self.kinds[ri];
        }
        let solved = solve_lcp(
            self.sub_a.view((0, 0), (m, m)),
            &self.sub_b[..m],
            &self.sub_kinds[..m],
            &mut self.lcp,
            &mut self.sub_f[..m],
        );
        if solved.is_err() {
            return false;
        }
        self.forces[..n].iter_mut().for_each(|f| *f = 0.0);
        for (i, &ri) in self.sub_rows.iter().enumerate() {
            self.forces[ri] = self.sub_f[i];
        }
        true
    }

    /// Friction of sticking contacts with the normal forces in `forces` held: projected
    /// Gauss–Seidel on the tangent rows, each contact's friction kept in its disk, until a sweep
    /// changes no force by more than 10⁻¹² of the largest. False when it does not settle.
    fn sticking_friction(&mut self) -> bool {
        let n = self.n;
        let largest = self.forces[..n].iter().fold(0.0f64, |m, f| m.max(f.abs()));
        for _ in 0..FRICTION_SWEEPS {
            let mut change = 0.0f64;
            for k in 0..self.contacts.len() {
                let c = self.contacts[k];
                if c.tangent_rows != 2 {
                    continue;
                }
                let (r1, r2) = (c.normal_row + 1, c.normal_row + 2);
                let mut f = [self.forces[r1], self.forces[r2]];
                for (slot, r) in [r1, r2].into_iter().enumerate() {
                    let diagonal = self.a[(r, r)];
                    if diagonal > 0.0 {
                        f[slot] -= self.row_acceleration(r) / diagonal;
                    }
                }
                let limit = c.mu * self.forces[c.normal_row];
                let norm = f[0].hypot(f[1]);
                if norm > limit {
                    f = [f[0] * limit / norm, f[1] * limit / norm];
                }
                change = change
                    .max((f[0] - self.forces[r1]).abs())
                    .max((f[1] - self.forces[r2]).abs());
                self.forces[r1] = f[0];
                self.forces[r2] = f[1];
            }
            if change <= 1e-12 * largest.max(f64::MIN_POSITIVE) {
                return true;
            }
        }
        false
    }
}
