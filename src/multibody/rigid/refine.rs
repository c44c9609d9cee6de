//! The last step of a resting problem's solve: the accelerations that the solution holds at zero
//! are made zero to round-off.
//!
//! The complementarity solvers accept a row's acceleration within their tolerance (10⁻⁹ of the
//! problem's scale for Lemke's method and the frictionless test, a force change of 10⁻¹² for
//! projected Gauss–Seidel), 10⁻⁸ to 5·10⁻⁷ m/s² under gravity, and a face's four corners make the
//! problem degenerate (its matrix singular), where they do reach that tolerance. Those residuals
//! are forces no one applies: three stacked bricks gained velocities of 10⁻⁸ m/s within 1.5 s
//! from them (issue 27, part 3). Given the solver's answer, the rows it holds — bilateral rows,
//! normal rows with a positive force, and the tangent rows of sticking contacts whose friction
//! is inside the Coulomb disk — form an *equality* system `A_SS δf = −a_S` in the force change
//! `δf`. `a_S = J_S v̇` lies in the range of `A_SS = J_S M⁻¹ J_Sᵀ`, so the system is consistent
//! even when `A_SS` is singular; conjugate gradients from `δf = 0` find its minimum-norm solution
//! (no factorization, no pivoting: at most `2·|S|` products with `A_SS`). The refined forces are
//! kept only when they still satisfy the problem — normal forces ≥ 0, friction in its disk, the
//! other unilateral rows not accelerating into contact beyond the solver's own tolerance — and
//! the residual fell; otherwise the solver's answer stands.

use crate::multibody::constraints::{ContactMotion, FrictionalContact, RowKind};
use nalgebra::DMatrixView;

/// Residuals above this fraction of the problem's scale (`max(1, ‖b‖∞)`) are not tolerance but
/// motion (a contact that slips): such a tangent row is not held, and the refinement is a
/// correction of at most this size.
const RESIDUAL_LIMIT: f64 = 1e-6;
/// A refinement is kept only when its residual is at most this fraction of the scale (the
/// conjugate gradients converged; a partial answer could move load off a held row).
const CONVERGED: f64 = 1e-12;
/// Residuals at most this fraction of the scale are left alone (round-off of `A f + b`).
const SETTLED: f64 = 1e-15;
/// Conjugate gradients stop at a residual of this fraction of the scale (round-off).
const ROUND_OFF: f64 = 1e-13;
/// The solvers' own acceptance of a not-held unilateral row's acceleration (fraction of scale).
const SOLVER_TOLERANCE: f64 = 1e-8;
/// A sticking contact whose friction reaches this fraction of its polygon (the gauge
/// [`polygon_gauge`]) is on the cone's edge — about to slip, or slipping at an acceleration
/// still inside [`RESIDUAL_LIMIT`] — and its tangent rows are not held: holding them would stop
/// the slip that the slip-onset event watches (issue 27, part 3). The solvers place a saturated
/// friction on the boundary to ~10⁻¹², so 10⁻⁶ separates the two cases with room on both sides.
const SATURATED: f64 = 1.0 - 1e-6;

/// Scratch of [`Refinement::refine`], sized once.
#[derive(Clone, Debug)]
pub struct Refinement {
    held: Vec<usize>,
    x: Vec<f64>,
    r: Vec<f64>,
    p: Vec<f64>,
    ap: Vec<f64>,
    best: Vec<f64>,
    saved: Vec<f64>,
}

/// The problem `a = A f + b` being refined (the leading `n` rows of each slice).
pub struct Rows<'a> {
    /// A (n × n; (m/s²)/N for point rows).
    pub a: DMatrixView<'a, f64>,
    /// b (m/s² for point rows).
    pub b: &'a [f64],
    /// Each row's kind.
    pub kinds: &'a [RowKind],
    /// The contacts (a normal row with its tangent rows).
    pub contacts: &'a [FrictionalContact],
    /// The number `k` of directions of a spatial sticking contact's friction polygon.
    pub directions: usize,
}

impl Rows<'_> {
    fn acceleration(&self, f: &[f64], r: usize) -> f64 {
        (0..self.b.len())
            .map(|j| self.a[(r, j)] * f[j])
            .sum::<f64>()
            + self.b[r]
    }
}

impl Refinement {
    /// Buffers for up to `capacity` rows.
    pub fn new(capacity: usize) -> Self {
        Self {
            held: Vec::with_capacity(capacity),
            x: vec![0.0; capacity],
            r: vec![0.0; capacity],
            p: vec![0.0; capacity],
            ap: vec![0.0; capacity],
            best: vec![0.0; capacity],
            saved: vec![0.0; capacity],
        }
    }

    /// Refines `forces` (n) of the problem `rows` (module documentation); returns whether they
    /// changed. Does not allocate.
    pub fn refine(&mut self, rows: &Rows<'_>, forces: &mut [f64]) -> bool {
        let scale = rows.b.iter().fold(1.0f64, |s, b| s.max(b.abs()));
        // First the minimum-norm forces of every row at rest (a face's load split evenly);
        // else the minimum-norm change of the solver's forces on the rows it holds.
        // A sliding contact's friction is tied to its normal force (μ f_n), which the whole
        // solve would change under it: only problems whose contacts all stick get it.
        let sticking = rows
            .contacts
            .iter()
            .all(|c| c.motion == ContactMotion::Sticking);
        // A contact on its cone's edge is about to slip (or slipping within the tolerance):
        // its friction is tied to its normal force, which either refinement would change
        // under it; such problems keep the solver's answer.
        let any_saturated = rows
            .contacts
            .iter()
            .any(|c| c.motion == ContactMotion::Sticking && saturated(c, forces, rows.directions));
        if any_saturated {
            return false;
        }
        for whole in [true, false] {
            if whole && !sticking {
                continue;
            }
            if self.try_refine(rows, forces, scale, whole) {
                return true;
            }
        }
        false
    }

    /// One refinement: `whole` solves for the held rows' forces from zero, else for their
    /// change. Keeps the result when it is feasible and the residual fell.
    fn try_refine(&mut self, rows: &Rows<'_>, forces: &mut [f64], scale: f64, whole: bool) -> bool {
        let n = rows.b.len();
        self.hold(rows, forces, scale, whole);
        let m = self.held.len();
        if m == 0 {
            return false;
        }
        let before = self
            .held
            .iter()
            .fold(0.0f64, |s, &ri| s.max(rows.acceleration(forces, ri).abs()));
        if before <= SETTLED * scale || before > RESIDUAL_LIMIT * scale {
            return false;
        }
        self.saved[..n].copy_from_slice(forces);
        if whole {
            for &ri in &self.held {
                forces[ri] = 0.0;
            }
        }
        for (i, &ri) in self.held.iter().enumerate() {
            self.r[i] = -rows.acceleration(forces, ri);
            self.x[i] = 0.0;
            self.p[i] = self.r[i];
        }
        self.conjugate_gradients(rows, scale);
        for (i, &ri) in self.held.iter().enumerate() {
            forces[ri] += self.x[i];
        }
        let after = self
            .held
            .iter()
            .fold(0.0f64, |s, &ri| s.max(rows.acceleration(forces, ri).abs()));
        if after < before && after <= CONVERGED * scale && feasible(rows, forces, scale) {
            return true;
        }
        forces.copy_from_slice(&self.saved[..n]);
        false
    }

    /// The rows held at zero acceleration, into `held`: bilateral rows, normal rows with a
    /// positive force (and, for `whole`, those without force whose acceleration is below
    /// [`RESIDUAL_LIMIT`]: touching and at rest), and the tangent rows of a held sticking
    /// contact whose friction is inside its disk and whose tangential acceleration is below
    /// that limit.
    fn hold(&mut self, rows: &Rows<'_>, forces: &[f64], scale: f64, whole: bool) {
        self.held.clear();
        let at_rest = |r: usize| rows.acceleration(forces, r).abs() <= RESIDUAL_LIMIT * scale;
        for (r, kind) in rows.kinds.iter().enumerate() {
            let held = match kind {
                RowKind::Bilateral => true,
                RowKind::Unilateral => forces[r] > 0.0 || (whole && at_rest(r)),
                RowKind::Tangent => false,
            };
            if held {
                self.held.push(r);
            }
        }
        // `held` is sorted up to here; the tangent rows appended below must not be searched
        // (a binary search over the whole, unsorted, `held` missed later contacts' normal rows,
        // so only some sticking contacts had their tangents refined).
        let normals = self.held.len();
        for c in rows.contacts {
            let tangents = c.normal_row + 1..c.normal_row + 1 + c.tangent_rows;
            if c.motion != ContactMotion::Sticking
                || c.tangent_rows == 0
                || c.mu <= 0.0
                || self.held[..normals].binary_search(&c.normal_row).is_err()
            {
                continue;
            }
            let friction = tangents.clone().map(|t| forces[t] * forces[t]).sum::<f64>();
            let inside =
                polygon_gauge(c, forces, rows.directions) < SATURATED || (whole && friction == 0.0);
            if inside && tangents.clone().all(at_rest) {
                self.held.extend(tangents);
            }
        }
        self.held.sort_unstable();
    }

    /// Conjugate gradients on `A_SS x = r` from `x = 0` (`r`, `p` set by the caller), at most
    /// `2·|S|` iterations, stopping at [`ROUND_OFF`]; on a singular matrix the iterates can
    /// wander off in its null space once the residual is at round-off, so `x` ends as the
    /// iterate with the smallest residual.
    fn conjugate_gradients(&mut self, rows: &Rows<'_>, scale: f64) {
        let m = self.held.len();
        let mut rr: f64 = self.r[..m].iter().map(|v| v * v).sum();
        let mut best = rr;
        self.best[..m].fill(0.0);
        for _ in 0..2 * m {
            for i in 0..m {
                self.ap[i] = (0..m)
                    .map(|j| rows.a[(self.held[i], self.held[j])] * self.p[j])
                    .sum();
            }
            let pap: f64 = (0..m).map(|i| self.p[i] * self.ap[i]).sum();
            if pap <= 0.0 {
                break;
            }
            let alpha = rr / pap;
            for i in 0..m {
                self.x[i] += alpha * self.p[i];
                self.r[i] -= alpha * self.ap[i];
            }
            let next: f64 = self.r[..m].iter().map(|v| v * v).sum();
            if next < best {
                best = next;
                self.best[..m].copy_from_slice(&self.x[..m]);
            }
            if next.sqrt() <= ROUND_OFF * scale {
                break;
            }
            let beta = next / rr;
            rr = next;
            for i in 0..m {
                self.p[i] = self.r[i] + beta * self.p[i];
            }
        }
        self.x[..m].copy_from_slice(&self.best[..m]);
    }
}

/// The gauge of a sticking contact's friction `f_t` in its polygon: the smallest `s` with
/// `f_t` in `s` times the polygon (1 on its boundary). Planar (one tangent row): `|f_t| / (μ f_n)`.
/// Spatial: the polygon has its `k` vertices at `μ f_n d_j`, `d_j` at the angles
/// `θ₀ + 2πj/k` from the tangent basis's first axis (`θ₀` the contact's heading), so its edges
/// have the outward unit normals `e_j` at `θ₀ + (2j + 1)π/k` and lie at the distance
/// `μ f_n cos(π/k)`: the gauge is `max_j f_t·e_j / (μ f_n cos(π/k))`. Infinite when `μ f_n ≤ 0`
/// and `f_t ≠ 0`; 0 without friction force.
fn polygon_gauge(c: &FrictionalContact, forces: &[f64], directions: usize) -> f64 {
    let r = c.normal_row;
    let cap = c.mu * forces[r];
    let f_t = match c.tangent_rows {
        1 => [forces[r + 1], 0.0],
        2 => [forces[r + 1], forces[r + 2]],
        _ => return 0.0,
    };
    if f_t == [0.0, 0.0] {
        return 0.0;
    }
    if cap <= 0.0 {
        return f64::INFINITY;
    }
    if c.tangent_rows == 1 {
        return f_t[0].abs() / cap;
    }
    let k = directions.max(3) as f64;
    let half = std::f64::consts::PI / k;
    let start = c.heading[1].atan2(c.heading[0]) + half;
    (0..directions.max(3))
        .map(|j| {
            let angle = start + 2.0 * half * j as f64;
            f_t[0] * angle.cos() + f_t[1] * angle.sin()
        })
        .fold(f64::NEG_INFINITY, f64::max)
        / (cap * half.cos())
}

/// Whether a sticking contact's friction in `forces` is on its polygon's edge (gauge at least
/// [`SATURATED`]): about to slip. False without friction (`μ = 0` or no tangent rows).
pub fn saturated(c: &FrictionalContact, forces: &[f64], directions: usize) -> bool {
    c.mu > 0.0 && c.tangent_rows > 0 && polygon_gauge(c, forces, directions) >= SATURATED
}

/// Whether `forces` satisfy the problem: unilateral forces ≥ 0, the other unilateral rows not
/// accelerating into contact beyond the solvers' tolerance, sticking friction inside its polygon
/// (short of its edge: a refined friction on the edge would make the contact look saturated to
/// the next solve).
fn feasible(rows: &Rows<'_>, forces: &[f64], scale: f64) -> bool {
    let rows_ok = rows.kinds.iter().enumerate().all(|(r, kind)| {
        *kind != RowKind::Unilateral
            || (forces[r] >= 0.0
                && (forces[r] > 0.0 || rows.acceleration(forces, r) >= -SOLVER_TOLERANCE * scale))
    });
    rows_ok
        && rows.contacts.iter().all(|c| {
            let t = c.normal_row + 1..c.normal_row + 1 + c.tangent_rows;
            c.motion != ContactMotion::Sticking
                || t.clone().all(|t| forces[t] == 0.0)
                || polygon_gauge(c, forces, rows.directions) < SATURATED
        })
}
