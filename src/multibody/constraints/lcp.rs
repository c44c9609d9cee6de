//! Baraff's incremental pivoting for the frictionless complementarity problem (D. Baraff, "Fast
//! contact force computation for nonpenetrating rigid bodies", SIGGRAPH 94).
//!
//! Given `A` (n × n, symmetric positive semi-definite, `A = J M⁻¹ Jᵀ`, units (m/s²)/N for force
//! rows) and `b` (n, m/s²: the constraint accelerations without constraint forces), find the
//! forces `f` (N) with accelerations `a = A f + b` such that every row satisfies
//!
//! ```text
//! unilateral:  a_i ≥ 0,  f_i ≥ 0,  a_i·f_i = 0
//! bilateral:   a_i = 0,  f_i free in sign
//! ```
//!
//! # The algorithm
//!
//! Start from `f = 0`, `a = b`, the clamped set `C = ∅` (rows with `a_i = 0`, `f_i > 0`, or
//! bilateral) and the not-clamped set `NC = ∅` (rows with `f_i = 0`, `a_i > 0`). Bilateral rows
//! are driven first, in index order; then, while an unprocessed unilateral row has `a_d < 0`, the
//! most negative one is driven to zero. *Driving* row `d` repeats:
//!
//! 1. **Direction.** `Δf_d = σ` (σ = +1 to raise a negative `a_d`, −1 to lower a positive `a_d` of
//!    a bilateral row), `Δf_C` from `A_CC Δf_C = −σ A_Cd` (so that `Δa_C = 0`), `Δf = 0` elsewhere;
//!    `Δa = A Δf`. For a PSD `A`, `σ Δa_d = Δfᵀ A Δf ≥ 0`.
//! 2. **Ratio test ("maxstep").** The largest step `s ≥ 0` keeping every processed row valid:
//!    `s_d = −a_d/Δa_d` (if `σ Δa_d > 0`: where row d reaches zero), `s_i = f_i/(−Δf_i)` for
//!    unilateral `i ∈ C` with `Δf_i < 0` (its force would turn negative), `s_i = a_i/(−Δa_i)` for
//!    `i ∈ NC` with `Δa_i < 0` (its acceleration would turn negative). The smallest wins; ties go to
//!    `d` (it ends the drive), then to the lowest index (a Bland-like rule against cycling).
//! 3. **Step.** `f += s Δf`, `a += s Δa`. If `d` limited the step, it joins `C` and the drive ends;
//!    a limiting `i ∈ C` moves to `NC` (`f_i = 0`), a limiting `i ∈ NC` moves to `C` (`a_i = 0`).
//!
//! Rows never leave `C ∪ NC` once processed, so at most n drives happen. No limiting index means
//! that no force at `d` can stop its acceleration being negative: [`ConstraintError::Infeasible`]
//! (a redundant row demanding an acceleration incompatible with the others); `σ Δa_d < 0` or a
//! negative pivot of `A_CC` means `A` is not PSD: [`ConstraintError::NotPositiveSemidefinite`].
//!
//! # Degenerate problems
//!
//! - **Redundant rows** (four corners of a box on a plane: `A` of rank 3): `A_CC` is factored as
//!   `L D Lᵀ` with pivot skipping: a pivot (Schur complement) below 10⁻⁹ of its diagonal marks a
//!   row dependent on the earlier clamped rows, which gets `Δf_i = 0`. For a PSD
//!   `A` the system is consistent, so `Δa_C = 0` still holds. The forces are then one of many
//!   solutions; the accelerations `a` and the generalized force `Jᵀf` are unique (for a symmetric
//!   PSD `A`, two solutions have `A f₁ = A f₂`).
//! - **Zero-length steps**: a row whose acceleration is already zero within tolerance is not
//!   driven (it settles in `C` or `NC` as it is); a blocking row already at its bound moves sets
//!   with `s = 0`. Direction components below the rounding noise (`10⁻¹¹·‖Δf‖∞`, scaled by
//!   `max A_ii` for accelerations) are treated as zero, so noise cannot make a row flip-flop
//!   between `C` and `NC`.
//! - **Cycling**: the pivots of one solve are capped at
//!   [`pivots_per_row`](LcpSettings::pivots_per_row)`·n` (Baraff's algorithm typically needs
//!   n to 2n); beyond it, [`ConstraintError::PivotLimit`] names the row being driven.
//!
//! # Tolerances
//!
//! With ε = [`relative_tolerance`](LcpSettings::relative_tolerance) (default 10⁻⁹), the
//! acceleration tolerance is `tol_a = ε·max(‖b‖∞, max_i A_ii·‖f‖∞)` (the size of the terms summed
//! into `a`) and the force tolerance `tol_f = ε·max(‖f‖∞, ‖b‖∞ / max_i A_ii)`. A row with
//! `a_d ≥ −tol_a` is not driven; a bilateral row with `|a_d| ≤ tol_a` is satisfied. ε is ~10⁷ times
//! the machine epsilon: room for the rounding of the O(n) sums and of solves with condition
//! numbers up to ~10⁵, while far below any physically meaningful acceleration. On return the
//! accelerations are recomputed as `A f + b` and checked: `f_i ≥ 0` and `a_i ≥ −10 tol_a` for
//! unilateral rows, `a_i ≤ 10 tol_a` where `f_i > tol_f`, `|a_i| ≤ 10 tol_a` for bilateral rows;
//! otherwise [`ConstraintError::Inaccurate`].
//!
//! # Cost and allocation
//!
//! `A_CC` is refactored at every pivot, O(|C|³/6) flops, so a solve costs O(n⁴) in the worst
//! case; for contact groups of a few dozen rows this is well below the cost of building `A`.
//! Nothing is allocated during a solve: [`LcpWorkspace`] holds every buffer, sized once.

use super::errors::ConstraintError;
use super::ldl::SemidefiniteLdl;
use nalgebra::DMatrixView;

/// The kind of a constraint row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// `a_i ≥ 0, f_i ≥ 0, a_i·f_i = 0`: contact normals, joint-limit bounds.
    Unilateral,
    /// `a_i = 0`, `f_i` of either sign: loop closures, locked limits.
    Bilateral,
    /// A friction (tangent) row of a contact; only
    /// [`solve_frictional`](super::friction::solve_frictional) takes it.
    Tangent,
}

/// Tolerance and pivot budget of [`solve_lcp`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LcpSettings {
    /// ε of the tolerances `tol_a`, `tol_f` (see the module documentation). Default 10⁻⁹.
    pub relative_tolerance: f64,
    /// Pivot budget per row: a solve of n rows fails after `pivots_per_row·n` pivots. Default 10.
    pub pivots_per_row: usize,
}

impl Default for LcpSettings {
    fn default() -> Self {
        Self {
            relative_tolerance: 1e-9,
            pivots_per_row: 10,
        }
    }
}

/// What a solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LcpStats {
    /// Direction computations (each factors `A_CC`).
    pub pivots: usize,
    /// Rows moved between the clamped and not-clamped sets.
    pub transfers: usize,
    /// Pivots whose step was zero (degenerate problems).
    pub zero_steps: usize,
    /// Rows clamped at the end (acceleration held at zero).
    pub clamped: usize,
}

/// Which set a row is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RowSet {
    /// Not driven yet: `f_i = 0`.
    Unprocessed,
    /// `C`: `a_i = 0` (and `f_i ≥ 0` if unilateral).
    Clamped,
    /// `NC`: `f_i = 0`, `a_i ≥ 0`.
    NotClamped,
}

/// Buffers of [`solve_lcp`] for up to `capacity` rows, allocated once; solves of fewer rows reuse
/// them. After a successful solve, [`accelerations`](Self::accelerations) holds `a = A f + b`.
#[derive(Clone, Debug)]
pub struct LcpWorkspace {
    /// Tolerance and pivot budget.
    pub settings: LcpSettings,
    capacity: usize,
    rows: usize,
    set: Vec<RowSet>,
    /// The clamped rows in the order they joined `C`.
    clamped: Vec<usize>,
    accel: Vec<f64>,
    delta_f: Vec<f64>,
    delta_a: Vec<f64>,
    /// Right-hand side and solution of `A_CC x = −σ A_Cd`.
    rhs: Vec<f64>,
    ldl: SemidefiniteLdl,
    /// `b` of the impulse problem (see [`solve_impulses`](super::impulse::solve_impulses)).
    pub(crate) impulse_rhs: Vec<f64>,
}

impl LcpWorkspace {
    /// Buffers for problems of up to `capacity` rows, default settings.
    pub fn new(capacity: usize) -> Self {
        Self {
            settings: LcpSettings::default(),
            capacity,
            rows: 0,
            set: vec![RowSet::Unprocessed; capacity],
            clamped: Vec::with_capacity(capacity),
            accel: vec![0.0; capacity],
            delta_f: vec![0.0; capacity],
            delta_a: vec![0.0; capacity],
            rhs: vec![0.0; capacity],
            ldl: SemidefiniteLdl::new(capacity),
            impulse_rhs: vec![0.0; capacity],
        }
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

    /// Capacities of the internal buffers (for tests that check nothing grows).
    #[cfg(test)]
    pub(crate) fn buffer_capacities(&self) -> [usize; 7] {
        [
            self.set.capacity(),
            self.clamped.capacity(),
            self.accel.capacity(),
            self.delta_f.capacity(),
            self.delta_a.capacity(),
            self.rhs.capacity(),
            self.impulse_rhs.capacity(),
        ]
    }
}

/// The magnitudes the tolerances are relative to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scales {
    /// `max_i A_ii` ((m/s²)/N): for a PSD `A`, also `max |A_ij|`.
    pub(crate) a: f64,
    /// `‖b‖∞` (m/s²).
    pub(crate) b: f64,
}

/// Checks sizes, finiteness and symmetry of `(A, b, kinds)` and an output of `f_len` entries;
/// returns the scales.
pub(crate) fn validate_problem(
    a: &DMatrixView<'_, f64>,
    b: &[f64],
    kinds: &[RowKind],
    f_len: usize,
    capacity: usize,
) -> Result<Scales, ConstraintError> {
    let n = b.len();
    let dimension = |what, got| ConstraintError::Dimension {
        what,
        expected: n,
        got,
    };
    if n > capacity {
        return Err(ConstraintError::CapacityExceeded { rows: n, capacity });
    }
    if a.nrows() != n {
        return Err(dimension("A (rows)", a.nrows()));
    }
    if a.ncols() != n {
        return Err(dimension("A (columns)", a.ncols()));
    }
    if kinds.len() != n {
        return Err(dimension("the row kinds", kinds.len()));
    }
    if f_len != n {
        return Err(dimension("the force output", f_len));
    }
    let mut scales = Scales { a: 0.0, b: 0.0 };
    for i in 0..n {
        if !b[i].is_finite() || (0..n).any(|j| !a[(i, j)].is_finite()) {
            return Err(ConstraintError::NonFinite { row: i });
        }
        scales.a = scales.a.max(a[(i, i)]);
        scales.b = scales.b.max(b[i].abs());
    }
    let symmetry_tolerance = 1e-9 * scales.a;
    for i in 0..n {
        for j in 0..i {
            if (a[(i, j)] - a[(j, i)]).abs() > symmetry_tolerance {
                return Err(ConstraintError::NotSymmetric { row: i, column: j });
            }
        }
    }
    Ok(scales)
}

/// Solves the frictionless complementarity problem `a = A f + b` (module documentation) by
/// Baraff's pivoting: writes `f` (n forces, N) and leaves `a` in
/// [`ws.accelerations()`](LcpWorkspace::accelerations). `A` is n × n (a view, so a capacity-sized
/// matrix can be reused: `a.view((0, 0), (n, n))`), `b` and `kinds` have n entries; `Tangent`
/// rows are refused. Does not allocate.
///
/// Errors name the row concerned: [`ConstraintError::Infeasible`] (no solution),
/// [`ConstraintError::NotPositiveSemidefinite`], [`ConstraintError::PivotLimit`],
/// [`ConstraintError::Inaccurate`], and the input checks (sizes, finiteness, symmetry).
pub fn solve_lcp(
    a: DMatrixView<'_, f64>,
    b: &[f64],
    kinds: &[RowKind],
    ws: &mut LcpWorkspace,
    f: &mut [f64],
) -> Result<LcpStats, ConstraintError> {
    let scales = validate_problem(&a, b, kinds, f.len(), ws.capacity)?;
    if let Some(row) = kinds.iter().position(|k| *k == RowKind::Tangent) {
        return Err(ConstraintError::BadRow {
            row,
            what: "a friction (tangent) row: frictional problems are solved by solve_frictional",
        });
    }
    let n = b.len();
    ws.rows = n;
    ws.set[..n].fill(RowSet::Unprocessed);
    ws.clamped.clear();
    ws.accel[..n].copy_from_slice(b);
    f.fill(0.0);
    let max_pivots = ws.settings.pivots_per_row * n;
    let mut run = Baraff {
        eps: ws.settings.relative_tolerance,
        a,
        b,
        kinds,
        f,
        ws,
        scales,
        max_pivots,
        stats: LcpStats::default(),
    };
    run.solve()?;
    run.stats.clamped = run.ws.clamped.len();
    Ok(run.stats)
}

/// One solve in progress.
struct Baraff<'p, 'w> {
    a: DMatrixView<'p, f64>,
    b: &'p [f64],
    kinds: &'p [RowKind],
    f: &'w mut [f64],
    ws: &'w mut LcpWorkspace,
    scales: Scales,
    eps: f64,
    max_pivots: usize,
    stats: LcpStats,
}

/// Direction components below this fraction of `‖Δf‖∞` (times `max A_ii` for accelerations) are
/// rounding noise: `Δf` comes from a solve with `A_CC`, whose error is about `n·ε·cond(A_CC)`
/// relative, ~10⁻¹² for condition numbers up to 10⁴.
const DIRECTION_NOISE: f64 = 1e-11;

impl Baraff<'_, '_> {
    fn n(&self) -> usize {
        self.b.len()
    }

    fn max_force(&self) -> f64 {
        self.f.iter().fold(0.0, |m, x| m.max(x.abs()))
    }

    /// `tol_a = ε·max(‖b‖∞, max A_ii·‖f‖∞)`.
    fn acceleration_tolerance(&self) -> f64 {
        self.eps * self.scales.b.max(self.scales.a * self.max_force())
    }

    /// `tol_f = ε·max(‖f‖∞, ‖b‖∞ / max A_ii)`.
    fn force_tolerance(&self) -> f64 {
        let typical = if self.scales.a > 0.0 {
            self.scales.b / self.scales.a
        } else {
            0.0
        };
        self.eps * self.max_force().max(typical)
    }

    fn solve(&mut self) -> Result<(), ConstraintError> {
        let n = self.n();
        for d in 0..n {
            if self.kinds[d] == RowKind::Bilateral {
                self.refresh_accelerations();
                self.drive_to_zero(d)?;
            }
        }
        loop {
            self.refresh_accelerations();
            let tol = self.acceleration_tolerance();
            let ws = &*self.ws;
            let next = (0..n)
                .filter(|&i| ws.set[i] == RowSet::Unprocessed && ws.accel[i] < -tol)
                .min_by(|&i, &j| ws.accel[i].total_cmp(&ws.accel[j]));
            match next {
                Some(d) => self.drive_to_zero(d)?,
                None => break,
            }
        }
        self.finish()
    }

    /// `a = A f + b` from scratch (the incremental updates drift by rounding).
    fn refresh_accelerations(&mut self) {
        let n = self.n();
        self.ws.accel[..n].copy_from_slice(self.b);
        for j in 0..n {
            let fj = self.f[j];
            if fj != 0.0 {
                for i in 0..n {
                    self.ws.accel[i] += self.a[(i, j)] * fj;
                }
            }
        }
    }

    /// Baraff's drive-to-zero of row `d` (module documentation, steps 1–3).
    fn drive_to_zero(&mut self, d: usize) -> Result<(), ConstraintError> {
        let bilateral = self.kinds[d] == RowKind::Bilateral;
        loop {
            let tol = self.acceleration_tolerance();
            let a_d = self.ws.accel[d];
            let reached = if bilateral {
                a_d.abs() <= tol
            } else {
                a_d >= -tol
            };
            if reached {
                self.settle(d);
                return Ok(());
            }
            self.stats.pivots += 1;
            if self.stats.pivots > self.max_pivots {
                return Err(ConstraintError::PivotLimit {
                    row: d,
                    pivots: self.stats.pivots - 1,
                });
            }
            let sigma = if a_d < 0.0 { 1.0 } else { -1.0 };
            self.compute_direction(d, sigma)?;
            let (step, limiting) = self.max_step(d, sigma)?;
            if step == 0.0 {
                self.stats.zero_steps += 1;
            }
            self.take_step(d, step);
            if limiting == d {
                self.ws.accel[d] = 0.0;
                self.settle(d);
                return Ok(());
            }
            self.transfer(limiting);
        }
    }

    /// Puts a driven row in its final set: `C` if bilateral or carrying force, else `NC`.
    fn settle(&mut self, d: usize) {
        if self.kinds[d] == RowKind::Bilateral || self.f[d] > 0.0 {
            self.ws.set[d] = RowSet::Clamped;
            self.ws.clamped.push(d);
        } else {
            self.ws.set[d] = RowSet::NotClamped;
        }
    }

    /// `Δf` (`Δf_d = σ`, `A_CC Δf_C = −σ A_Cd`) and `Δa = A Δf`.
    fn compute_direction(&mut self, d: usize, sigma: f64) -> Result<(), ConstraintError> {
        let n = self.n();
        let a = self.a;
        let ws = &mut *self.ws;
        let m = ws.clamped.len();
        let clamped = &ws.clamped;
        ws.ldl
            .factor(m, |i, j| a[(clamped[i], clamped[j])])
            .map_err(|k| ConstraintError::NotPositiveSemidefinite { row: clamped[k] })?;
        for (k, &i) in clamped.iter().enumerate() {
            ws.rhs[k] = -sigma * a[(i, d)];
        }
        ws.ldl.solve_in_place(&mut ws.rhs[..m]);
        ws.delta_f[..n].fill(0.0);
        ws.delta_f[d] = sigma;
        for (k, &i) in clamped.iter().enumerate() {
            ws.delta_f[i] = ws.rhs[k];
        }
        for i in 0..n {
            let mut s = sigma * a[(i, d)];
            for (k, &j) in clamped.iter().enumerate() {
                s += a[(i, j)] * ws.rhs[k];
            }
            ws.delta_a[i] = s;
        }
        Ok(())
    }

    /// Baraff's "maxstep": the step `s` and the row limiting it (module documentation, step 2).
    fn max_step(&self, d: usize, sigma: f64) -> Result<(f64, usize), ConstraintError> {
        let ws = &*self.ws;
        let n = self.n();
        let df_norm = ws.delta_f[..n].iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let noise_f = DIRECTION_NOISE * df_norm;
        let noise_a = DIRECTION_NOISE * self.scales.a * df_norm;
        let da_d = ws.delta_a[d];
        if sigma * da_d < -noise_a {
            return Err(ConstraintError::NotPositiveSemidefinite { row: d });
        }
        let mut best = (sigma * da_d > noise_a).then(|| ((-ws.accel[d] / da_d).max(0.0), d));
        for i in 0..n {
            let s = match ws.set[i] {
                RowSet::Clamped
                    if self.kinds[i] == RowKind::Unilateral && ws.delta_f[i] < -noise_f =>
                {
                    self.f[i].max(0.0) / -ws.delta_f[i]
                }
                RowSet::NotClamped if ws.delta_a[i] < -noise_a => {
                    ws.accel[i].max(0.0) / -ws.delta_a[i]
                }
                _ => continue,
            };
            if best.is_none_or(|(s_best, _)| s < s_best) {
                best = Some((s, i));
            }
        }
        best.ok_or(ConstraintError::Infeasible { row: d })
    }

    /// `f += s Δf` (on `C ∪ {d}`), `a += s Δa`.
    fn take_step(&mut self, d: usize, s: f64) {
        let ws = &mut *self.ws;
        self.f[d] += s * ws.delta_f[d];
        for &i in &ws.clamped {
            self.f[i] += s * ws.delta_f[i];
        }
        for i in 0..self.b.len() {
            ws.accel[i] += s * ws.delta_a[i];
        }
    }

    /// Moves the limiting row `j` between `C` and `NC`, exactly at its bound.
    fn transfer(&mut self, j: usize) {
        self.stats.transfers += 1;
        let ws = &mut *self.ws;
        if ws.set[j] == RowSet::Clamped {
            ws.set[j] = RowSet::NotClamped;
            self.f[j] = 0.0;
            if let Some(pos) = ws.clamped.iter().position(|&i| i == j) {
                ws.clamped.remove(pos);
            }
        } else {
            ws.set[j] = RowSet::Clamped;
            ws.accel[j] = 0.0;
            ws.clamped.push(j);
        }
    }

    /// Clears rounding-level negative forces, recomputes `a` and checks every condition within
    /// `10 tol` (module documentation, "Tolerances").
    fn finish(&mut self) -> Result<(), ConstraintError> {
        let tol_f = self.force_tolerance();
        for i in 0..self.n() {
            if self.kinds[i] == RowKind::Unilateral && self.f[i] < 0.0 {
                if self.f[i] < -10.0 * tol_f {
                    return Err(ConstraintError::Inaccurate {
                        row: i,
                        violation: -self.f[i] / self.max_force(),
                    });
                }
                self.f[i] = 0.0;
            }
        }
        self.refresh_accelerations();
        let tol_a = self.acceleration_tolerance();
        let scale = tol_a / self.eps;
        for i in 0..self.n() {
            let a_i = self.ws.accel[i];
            let violation = match self.kinds[i] {
                RowKind::Unilateral if self.f[i] > tol_f => a_i.abs(),
                RowKind::Unilateral => -a_i,
                _ => a_i.abs(),
            };
            if violation > 10.0 * tol_a {
                return Err(ConstraintError::Inaccurate {
                    row: i,
                    violation: violation / scale,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "lcp_tests.rs"]
mod tests;
