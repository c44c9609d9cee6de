//! The frictional problem's description and buffers, below both its assembly
//! ([`friction_setup`](super::friction_setup)) and its solve ([`solve_frictional`](super::friction::solve_frictional)): the contacts
//! and settings a caller gives, the variables of the complementarity problem, and the workspace
//! that holds them (allocated once).
//!
//! Units as in [`solve_frictional`](super::friction::solve_frictional): row forces in N, accelerations in m/s² (or rad/s²), tangential
//! velocities in m/s in each contact's tangent basis.

use super::complementarity::ComplementaritySolver;
use super::ldl::SemidefiniteLdl;

/// The tangential motion of a contact, which selects static or dynamic friction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ContactMotion {
    /// Zero tangential velocity: static friction (stays stuck or starts to slide).
    Sticking,
    /// Sliding with this tangential velocity (m/s) in the contact's tangent basis (`[v_t, 0]` for
    /// a planar contact): dynamic friction `−μ f_n v_t/|v_t|`.
    Sliding {
        /// Tangential velocity components along the tangent rows.
        velocity: [f64; 2],
    },
}

/// One contact of a frictional problem: its rows and friction coefficient.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrictionalContact {
    /// The normal row (`Unilateral`).
    pub normal_row: usize,
    /// Number of tangent rows following the normal row: 0, 1 (planar) or 2 (spatial).
    pub tangent_rows: usize,
    /// Coulomb coefficient (static = dynamic), ≥ 0.
    pub mu: f64,
    /// Sticking or sliding.
    pub motion: ContactMotion,
    /// A sticking spatial contact's first polygon direction `d_0` as a unit vector in its
    /// tangent basis (`[1, 0]`: along `t₁`); the others follow at `2πj/k` from it. Along `d_0`
    /// the polygon reaches the friction circle exactly, so a caller that knows which way the
    /// friction will point (see [`with_heading`](Self::with_heading)) gets the exact cap `μ f_n`
    /// there instead of one short by up to `1 − cos(π/k)`. Ignored by planar and sliding contacts.
    pub heading: [f64; 2],
}

impl FrictionalContact {
    /// A sticking contact.
    pub fn sticking(normal_row: usize, tangent_rows: usize, mu: f64) -> Self {
        Self {
            normal_row,
            tangent_rows,
            mu,
            motion: ContactMotion::Sticking,
            heading: [1.0, 0.0],
        }
    }

    /// The same contact with its first polygon direction along `heading` (tangent basis; any
    /// length: normalised here; a zero or non-finite one leaves `[1, 0]`).
    pub fn with_heading(mut self, heading: [f64; 2]) -> Self {
        let norm = heading[0].hypot(heading[1]);
        if norm.is_finite() && norm > 0.0 {
            self.heading = [heading[0] / norm, heading[1] / norm];
        }
        self
    }

    /// A contact sliding with tangential velocity `velocity` (m/s, tangent basis).
    pub fn sliding(normal_row: usize, tangent_rows: usize, mu: f64, velocity: [f64; 2]) -> Self {
        Self {
            normal_row,
            tangent_rows,
            mu,
            motion: ContactMotion::Sliding { velocity },
            heading: [1.0, 0.0],
        }
    }
}

/// Settings of [`solve_frictional`](super::friction::solve_frictional); fixed when the workspace is created.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrictionSettings {
    /// Friction directions `k` of a spatial sticking contact (≥ 3). Default 8.
    pub directions_3d: usize,
    /// ε of the acceptance checks (module documentation). Default 10⁻⁹.
    pub relative_tolerance: f64,
    /// Lemke's pivot budget per variable. Default 10.
    pub pivots_per_variable: usize,
    /// Skips the warm start and both pivotings and goes straight to the exact fallback (the
    /// enumeration up to 14 variables, the branch-and-bound search up to 64): for testing the
    /// fallback on problems the pivoting would solve. Default false. A testing switch, hidden
    /// from the documentation.
    #[doc(hidden)]
    pub fallback_only: bool,
}

impl Default for FrictionSettings {
    fn default() -> Self {
        Self {
            directions_3d: 8,
            relative_tolerance: 1e-9,
            pivots_per_variable: 10,
            fallback_only: false,
        }
    }
}

/// Up to three `(row, coefficient)` terms: a variable's force on rows, or the rows it measures.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Pattern {
    len: usize,
    terms: [(usize, f64); 3],
}

impl Pattern {
    pub(super) fn one(row: usize, coefficient: f64) -> Self {
        let mut p = Self::default();
        p.push(row, coefficient);
        p
    }

    pub(super) fn push(&mut self, row: usize, coefficient: f64) {
        self.terms[self.len] = (row, coefficient);
        self.len += 1;
    }

    pub(super) fn terms(&self) -> &[(usize, f64)] {
        &self.terms[..self.len]
    }
}

/// What a variable of the complementarity problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// A row force (`f_n` of a contact or the force of a frictionless unilateral row).
    Row,
    /// `β_j` of a sticking contact.
    Direction,
    /// `λ` of a sticking contact.
    Slack,
}

/// A variable: `Σ force` is its force on the rows per unit value, `Σ measure·a` its
/// complementary quantity (plus the structural terms of `Role`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Variable {
    pub(super) role: Role,
    /// The row named in errors: the contact's normal row, or the unilateral row.
    pub(super) row: usize,
    pub(super) contact: Option<usize>,
    pub(super) force: Pattern,
    pub(super) measure: Pattern,
}

impl Variable {
    /// A number for the role (for the layout key of the warm start).
    pub(super) fn role_code(&self) -> u64 {
        match self.role {
            Role::Row => 0,
            Role::Direction => 1,
            Role::Slack => 2,
        }
    }
}

/// Buffers of [`solve_frictional`](super::friction::solve_frictional) for up to `capacity` rows, allocated once.
#[derive(Clone, Debug)]
pub struct FrictionWorkspace {
    pub(super) settings: FrictionSettings,
    pub(super) capacity: usize,
    pub(super) var_capacity: usize,
    pub(super) rows: usize,
    /// Rows owned by a contact.
    pub(super) claimed: Vec<bool>,
    pub(super) bilateral: Vec<usize>,
    /// `Ã` (row-major, capacity stride) and `b̃` over the non-bilateral rows.
    pub(super) reduced_a: Vec<f64>,
    pub(super) reduced_b: Vec<f64>,
    /// `A_BB⁻¹ A_BO` (row k: bilateral row k; column: row index) and `A_BB⁻¹ b_B`.
    pub(super) elimination: Vec<f64>,
    pub(super) elimination_b: Vec<f64>,
    pub(super) column: Vec<f64>,
    pub(super) ldl: SemidefiniteLdl,
    pub(super) variables: Vec<Variable>,
    pub(super) m: Vec<f64>,
    pub(super) q: Vec<f64>,
    pub(super) z: Vec<f64>,
    /// Lemke's method, its fallback and the remembered contact mode (the warm start).
    pub(super) solver: ComplementaritySolver,
    pub(super) accel: Vec<f64>,
}

impl FrictionWorkspace {
    /// Takes `other`'s remembered contact mode (the warm start) as this workspace's: buffers of
    /// the same capacity solve their next problem as `other` would. Copies; does not allocate.
    pub fn copy_warm_start(&mut self, other: &FrictionWorkspace) {
        self.solver.copy_mode(&other.solver);
    }

    /// Buffers for problems of up to `capacity` rows, default settings.
    pub fn new(capacity: usize) -> Self {
        Self::with_settings(capacity, FrictionSettings::default())
    }

    /// Buffers for problems of up to `capacity` rows. Panics if `directions_3d < 3`.
    pub fn with_settings(capacity: usize, settings: FrictionSettings) -> Self {
        assert!(
            settings.directions_3d >= 3,
            "directions_3d must be at least 3"
        );
        // Variables per row: 1 (unilateral), 4 per 2 rows (planar), (k + 2) per 3 rows (spatial).
        let var_capacity = capacity * 2.max(settings.directions_3d.div_ceil(3) + 1);
        Self {
            settings,
            capacity,
            var_capacity,
            rows: 0,
            claimed: vec![false; capacity],
            bilateral: Vec::with_capacity(capacity),
            reduced_a: vec![0.0; capacity * capacity],
            reduced_b: vec![0.0; capacity],
            elimination: vec![0.0; capacity * capacity],
            elimination_b: vec![0.0; capacity],
            column: vec![0.0; capacity],
            ldl: SemidefiniteLdl::new(capacity),
            variables: Vec::with_capacity(var_capacity),
            m: vec![0.0; var_capacity * var_capacity],
            q: vec![0.0; var_capacity],
            z: vec![0.0; var_capacity],
            solver: ComplementaritySolver::new(var_capacity).fallback_only(settings.fallback_only),
            accel: vec![0.0; capacity],
        }
    }

    /// The settings.
    pub fn settings(&self) -> &FrictionSettings {
        &self.settings
    }

    /// The largest number of rows a problem may have.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The accelerations `a = A f + b` of the last successful solve (one per row); unspecified
    /// after an error.
    pub fn accelerations(&self) -> &[f64] {
        &self.accel[..self.rows]
    }

    /// Forgets the remembered contact mode: the next solve starts cold (Lemke's method).
    pub fn forget_mode(&mut self) {
        self.solver.forget_mode();
    }

    /// Capacities of the growable buffers (for tests that check nothing grows).
    #[cfg(test)]
    pub(crate) fn buffer_capacities(&self) -> [usize; 4] {
        [
            self.bilateral.capacity(),
            self.variables.capacity(),
            self.m.capacity(),
            self.reduced_a.capacity(),
        ]
    }
}
