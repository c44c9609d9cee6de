//! From a mechanism to the complementarity problem: the row matrix `A = J M⁻¹ Jᵀ` and the free
//! row accelerations `b` of a set of constraint rows (contact normals, friction tangents, joint
//! limits), and the generalized force `Jᵀ f` of the row forces.
//!
//! # Rows
//!
//! A [`ContactRow::Point`] row measures, along a unit direction `n` (World-resolved, constant),
//! the acceleration of body b's material point at the World point `p` (m) minus that of body a's
//! material point at `p`:
//!
//! ```text
//! row velocity       J v   = n · (v_b(p) − v_a(p))                          (m/s)
//! row acceleration   J v̇ + J̇ v = n · (a_b(p) − a_a(p))                      (m/s²)
//! ```
//!
//! with `v_k(p) = v_k(o_k) + ω_k × (p − o_k)` and the classical acceleration of the material point
//! `a_k(p) = a_k(o_k) + α_k × (p − o_k) + ω_k × (ω_k × (p − o_k))` (all World-resolved; `o_k` is
//! body k's frame origin, `a_k(o_k)` the classical acceleration of the material point there). The
//! row force `f` (N) acts as `f n` on body b at `p` and `−f n` on body a. Body 0 is the World
//! (fixed). The direction is taken as constant: for a normal that turns with a body (a face
//! normal of body a), the caller adds the geometric term of its contact model to `b` (Baraff's
//! `2 ṅ·(ṗ_b − ṗ_a)` for a vertex–face contact).
//!
//! A [`ContactRow::Rotation`] row measures the relative angular velocity of body b with respect to
//! body a along a unit direction `d` (World-resolved, constant): `J v = d·(ω_b − ω_a)` (rad/s),
//! its acceleration `d·(α_b − α_a)` (rad/s²), its force a couple `f d` on body b and `−f d` on body
//! a (N·m). Loop closures use it for the rotations a cut joint forbids; a direction that turns
//! with a body adds its `ḋ·(ω_b − ω_a)` to `b`, as for point rows.
//!
//! A [`ContactRow::Coordinate`] row is `±` one velocity coordinate `v_k` of the mechanism (a joint
//! limit): `J = ±e_kᵀ`, `J̇ = 0`; its units are those of the coordinate (rad/s², m/s²) and its force
//! is a joint torque (N·m) or force (N).
//!
//! # The free accelerations `b`
//!
//! [`ConstraintRows::rows_acceleration_bias`] runs the articulated-body algorithm with every force
//! but the constraint forces (gravity, actuation τ, external wrenches, joint springs and dampers)
//! to get `v̇_free`, then the forward pass of RNEA without the fictitious gravity:
//! `a_i = ⁱX_λ a_λ + c_i + S_i v̇_i` (`c_i = c_J + v_i × v_J`, the velocity-product term), the
//! spatial accelerations. A spatial acceleration's linear part is not the acceleration of a
//! material point: the classical acceleration at the body origin is `a_i.v + ω_i × v_i.v`
//! (Featherstone, RBDA §2.11), to which the point formula above adds the centripetal term. So `b`
//! is `J v̇_free + J̇ v` with all velocity products (centripetal, Coriolis of the joint rates).
//!
//! # The matrix `A`: CRBA and a tree-sparse factorization
//!
//! [`ConstraintRows::rows_matrix`] computes the mass matrix `M` by the composite-rigid-body
//! algorithm ([`mass_matrix`]), factors it in place as `M = Lᵀ L` with Featherstone's LTL
//! factorization (RBDA §6.5: for a kinematic tree, `L` has the sparsity of `M` — no fill-in — and
//! costs O(nv·d²) for depth d), solves `Y = L⁻ᵀ Jᵀ` one column per row (a back-substitution along
//! the path of the row's bodies to the root) and forms `A = Yᵀ Y`. No inverse of `M` is formed.
//!
//! Why this rather than one articulated-body solve per column with a unit test force: `A = Yᵀ Y`
//! is symmetric **exactly** (each entry is computed once and mirrored) and positive semi-definite
//! to rounding by construction, which the solvers check; and `A` comes out alone, whereas an ABA
//! test-force column contains gravity and velocity products (the ABA always applies gravity) that
//! must be removed by subtracting a baseline solve, losing digits to cancellation, and column j's
//! `A_ij` and column i's `A_ji` come from different solves and differ by rounding. The costs are
//! alike for trees of up to ~30 bodies (the CRBA and the factorization once per evaluation, then
//! O(nv·d) per row).
//!
//! # Use
//!
//! Sized once ([`ConstraintRows::new`]) for a mechanism and a maximum number of rows; no call
//! allocates. Per evaluation: `rows_matrix` (A, and the Jacobian used by `apply_row_forces`),
//! `rows_acceleration_bias` (b), a solver ([`solve_lcp`](super::solve_lcp), ...), then
//! `apply_row_forces` adds `Jᵀ f` to τ for the final [`forward_dynamics`].

use super::errors::{check_len, ConstraintError};
use crate::multibody::aba::{forward_dynamics, kinematics_pass};
use crate::multibody::crba::mass_matrix;
use crate::multibody::mechanism::{BodyIndex, Mechanism};
use crate::multibody::spatial::{SpatialForce, SpatialMotion};
use crate::multibody::workspace::Workspace;
use nalgebra::{DMatrix, DMatrixView, Vector3};

/// One constraint row (see the module documentation for what it measures).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ContactRow {
    /// The relative acceleration of two bodies' material points at a point, along a direction.
    Point {
        /// The body whose material point's acceleration is subtracted (0 = World).
        body_a: BodyIndex,
        /// The body whose material point's acceleration is counted positive (0 = World).
        body_b: BodyIndex,
        /// The contact point, World-resolved (m).
        point: Vector3<f64>,
        /// The unit direction, World-resolved (a contact normal pointing from a to b, or a
        /// tangent).
        direction: Vector3<f64>,
    },
    /// The relative angular acceleration of two bodies along a direction.
    Rotation {
        /// The body whose angular acceleration is subtracted (0 = World).
        body_a: BodyIndex,
        /// The body whose angular acceleration is counted positive (0 = World).
        body_b: BodyIndex,
        /// The unit direction, World-resolved.
        direction: Vector3<f64>,
    },
    /// `sign · v̇_index`: one velocity coordinate of the mechanism (joint limits).
    Coordinate {
        /// The velocity coordinate (an index into v, as [`Mechanism::joint_v_range`] gives).
        index: usize,
        /// +1 (a lower bound: the row is `v̇_k`) or −1 (an upper bound: the row is `−v̇_k`).
        sign: f64,
    },
}

impl ContactRow {
    /// A point row: body b's material point at `point` relative to body a's, along `direction`.
    pub fn point(
        body_a: BodyIndex,
        body_b: BodyIndex,
        point: Vector3<f64>,
        direction: Vector3<f64>,
    ) -> Self {
        Self::Point {
            body_a,
            body_b,
            point,
            direction,
        }
    }

    /// A joint-space row `sign · v̇_index` (`sign` = ±1).
    pub fn coordinate(index: usize, sign: f64) -> Self {
        Self::Coordinate { index, sign }
    }
}

/// The ‖n‖ − 1 accepted for a point row's direction.
const UNIT_TOLERANCE: f64 = 1e-9;

/// Buffers for the rows of one mechanism, sized once for up to `capacity` rows. See the module
/// documentation.
#[derive(Clone, Debug)]
pub struct ConstraintRows {
    capacity: usize,
    nv: usize,
    num_bodies: usize,
    /// Rows of the last `rows_matrix` (the Jacobian's valid rows).
    jac_rows: usize,
    /// Rows of the last `rows_acceleration_bias`.
    bias_rows: usize,
    /// `J` (capacity × nv; units m/s per unit of each velocity coordinate).
    jac: DMatrix<f64>,
    /// `M`, then its factor `L` (lower triangle, `M = Lᵀ L`), nv × nv.
    factor: DMatrix<f64>,
    /// The parent of each velocity coordinate in the tree (`NO_PARENT` at a root joint's first).
    dof_parent: Vec<usize>,
    /// `Y = L⁻ᵀ Jᵀ` (nv × capacity).
    y: DMatrix<f64>,
    /// `A` (capacity × capacity; (m/s²)/N for point rows).
    a: DMatrix<f64>,
    /// `b` (capacity; m/s² for point rows).
    b: Vec<f64>,
    /// `v̇_free` (nv).
    vdot: Vec<f64>,
    /// Spatial acceleration of each body in its own frame, without fictitious gravity.
    acc: Vec<SpatialMotion>,
    /// Per velocity coordinate: prescribed (row forces do not move it), see
    /// [`crate::multibody::prescribed`].
    prescribed: Vec<bool>,
}

const NO_PARENT: usize = usize::MAX;

impl ConstraintRows {
    /// Buffers for `m` and up to `capacity` rows.
    pub fn new(m: &Mechanism, capacity: usize) -> Self {
        let nv = m.nv();
        let mut dof_parent = vec![NO_PARENT; nv];
        let mut last_dof = vec![NO_PARENT; m.num_bodies()];
        for i in 1..m.num_bodies() {
            let body = &m.bodies[i];
            let mut parent = last_dof[body.parent];
            let dofs = body.v_start..body.v_start + body.kind.nv();
            for (slot, dof) in dof_parent[dofs.clone()].iter_mut().zip(dofs) {
                *slot = parent;
                parent = dof;
            }
            last_dof[i] = parent;
        }
        Self {
            capacity,
            nv,
            num_bodies: m.num_bodies(),
            jac_rows: 0,
            bias_rows: 0,
            jac: DMatrix::zeros(capacity, nv),
            // nv × nv: sized here only for a mechanism with rows to solve (a 20,000-joint chain
            // without contacts would take 3.2 GB for nothing); see `rows_matrix`.
            factor: if capacity > 0 {
                DMatrix::zeros(nv, nv)
            } else {
                DMatrix::zeros(0, 0)
            },
            dof_parent,
            y: DMatrix::zeros(nv, capacity),
            a: DMatrix::zeros(capacity, capacity),
            b: vec![0.0; capacity],
            vdot: vec![0.0; nv],
            acc: vec![SpatialMotion::ZERO; m.num_bodies()],
            prescribed: m.prescribed().to_vec(),
        }
    }

    /// The largest number of rows.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// `A = J M⁻¹ Jᵀ` (rows × rows) of the rows given to the last [`rows_matrix`](Self::rows_matrix)
    /// at its configuration. Entry (i, j) is row i's acceleration per unit force of row j.
    pub fn matrix(&self) -> DMatrixView<'_, f64> {
        self.a.view((0, 0), (self.jac_rows, self.jac_rows))
    }

    /// The Jacobian `J` (rows × nv) of the last [`rows_matrix`](Self::rows_matrix).
    pub fn jacobian(&self) -> DMatrixView<'_, f64> {
        self.jac.view((0, 0), (self.jac_rows, self.nv))
    }

    /// `b` of the last [`rows_acceleration_bias`](Self::rows_acceleration_bias).
    pub fn bias(&self) -> &[f64] {
        &self.b[..self.bias_rows]
    }

    /// `v̇_free` (nv) of the last [`rows_acceleration_bias`](Self::rows_acceleration_bias): the
    /// joint accelerations without constraint forces.
    pub fn free_acceleration(&self) -> &[f64] {
        &self.vdot
    }

    /// Computes `A = J M⁻¹ Jᵀ` of `rows` at the configuration `q` (see the module
    /// documentation), and keeps `J` for [`apply_row_forces`](Self::apply_row_forces). Leaves in
    /// `ws` the poses of `q` with zero velocities. Does not allocate.
    ///
    /// # Errors
    /// Bad sizes or rows ([`ConstraintError::Dimension`], [`CapacityExceeded`],
    /// [`BodyOutOfRange`], [`BadRow`], [`NonFinite`]), or a mass matrix that is not positive
    /// definite ([`ConstraintError::SingularMassMatrix`]).
    ///
    /// [`CapacityExceeded`]: ConstraintError::CapacityExceeded
    /// [`BodyOutOfRange`]: ConstraintError::BodyOutOfRange
    /// [`BadRow`]: ConstraintError::BadRow
    /// [`NonFinite`]: ConstraintError::NonFinite
    pub fn rows_matrix(
        &mut self,
        m: &Mechanism,
        q: &[f64],
        rows: &[ContactRow],
        ws: &mut Workspace,
    ) -> Result<DMatrixView<'_, f64>, ConstraintError> {
        self.check_rows(m, rows)?;
        check_len("q", q.len(), m.nq())?;
        self.jac_rows = 0;
        if self.factor.nrows() != self.nv {
            // Made with no rows (capacity 0): sized at the first call, which has none.
            self.factor = DMatrix::zeros(self.nv, self.nv);
        }
        mass_matrix(m, q, ws, &mut self.factor);
        if m.has_prescribed() {
            // Row forces never move a prescribed coordinate: A = J blockdiag(M_ff⁻¹, 0) Jᵀ.
            crate::multibody::prescribed::reduce_mass_matrix(m, &mut self.factor);
        }
        self.fill_jacobian(m, rows, ws);
        self.factor_mass_matrix()?;
        let n = rows.len();
        for c in 0..n {
            for k in 0..self.nv {
                self.y[(k, c)] = if self.prescribed[k] {
                    0.0
                } else {
                    self.jac[(c, k)]
                };
            }
            self.solve_lt(c);
        }
        for i in 0..n {
            for j in 0..=i {
                let mut sum = 0.0;
                for k in 0..self.nv {
                    sum += self.y[(k, i)] * self.y[(k, j)];
                }
                self.a[(i, j)] = sum;
                self.a[(j, i)] = sum;
            }
        }
        self.jac_rows = n;
        Ok(self.matrix())
    }

    /// Computes `b`: each row's acceleration under every force but the constraint forces —
    /// gravity, the actuation `tau` (nv), the external wrenches `f_ext` (empty, or one per body:
    /// World-resolved, torque about the World origin, as [`forward_dynamics`] takes them) and the
    /// joints' springs and dampers — velocity products included (`b = J v̇_free + J̇ v`, m/s² for
    /// point rows). Leaves in `ws` the kinematics of `(q, v)`. Does not allocate.
    ///
    /// # Errors
    /// As [`rows_matrix`](Self::rows_matrix), but never `SingularMassMatrix` (a singular
    /// articulated inertia gives non-finite `b`: [`ConstraintError::NonFinite`]).
    #[allow(clippy::too_many_arguments)]
    pub fn rows_acceleration_bias(
        &mut self,
        m: &Mechanism,
        q: &[f64],
        v: &[f64],
        tau: &[f64],
        f_ext: &[SpatialForce],
        rows: &[ContactRow],
        ws: &mut Workspace,
    ) -> Result<&[f64], ConstraintError> {
        self.check_rows(m, rows)?;
        check_len("q", q.len(), m.nq())?;
        check_len("v", v.len(), m.nv())?;
        check_len("tau", tau.len(), m.nv())?;
        if !f_ext.is_empty() {
            check_len("f_ext", f_ext.len(), m.num_bodies())?;
        }
        self.bias_rows = 0;
        forward_dynamics(m, q, v, tau, f_ext, ws, &mut self.vdot);
        self.acceleration_pass(m, ws);
        for (i, row) in rows.iter().enumerate() {
            self.b[i] = match *row {
                ContactRow::Point {
                    body_a,
                    body_b,
                    point,
                    direction,
                } => {
                    let rel = point_acceleration(ws, &self.acc, body_b, &point)
                        - point_acceleration(ws, &self.acc, body_a, &point);
                    direction.dot(&rel)
                }
                ContactRow::Rotation {
                    body_a,
                    body_b,
                    direction,
                } => direction.dot(
                    &(angular_acceleration(ws, &self.acc, body_b)
                        - angular_acceleration(ws, &self.acc, body_a)),
                ),
                ContactRow::Coordinate { index, sign } => sign * self.vdot[index],
            };
            if !self.b[i].is_finite() {
                return Err(ConstraintError::NonFinite { row: i });
            }
        }
        self.bias_rows = rows.len();
        Ok(self.bias())
    }

    /// Adds `Jᵀ f` to `tau` (nv generalized forces: N·m or N): the row forces `f` (one per row of
    /// the last [`rows_matrix`](Self::rows_matrix), N for point rows) as joint forces, so that
    /// [`forward_dynamics`] with the result gives the constrained accelerations.
    ///
    /// # Errors
    /// [`ConstraintError::Dimension`] if `f` or `tau` have the wrong length.
    pub fn apply_row_forces(&self, f: &[f64], tau: &mut [f64]) -> Result<(), ConstraintError> {
        check_len("f", f.len(), self.jac_rows)?;
        check_len("tau", tau.len(), self.nv)?;
        for (k, t) in tau.iter_mut().enumerate() {
            for (i, fi) in f.iter().enumerate() {
                *t += self.jac[(i, k)] * fi;
            }
        }
        Ok(())
    }

    /// Writes to `dv` the velocity change `M⁻¹ Jᵀ p` (nv) of the row impulses `p` (one per row of
    /// the last [`rows_matrix`](Self::rows_matrix), N·s for point rows): the jump of an impact,
    /// or, with row forces, the acceleration they add. Uses the factor `M = Lᵀ L` of that call
    /// (two tree-sparse substitutions, no inverse). Does not allocate.
    ///
    /// # Errors
    /// [`ConstraintError::Dimension`] if `p` or `dv` have the wrong length.
    pub fn velocity_change(&self, p: &[f64], dv: &mut [f64]) -> Result<(), ConstraintError> {
        check_len("p", p.len(), self.jac_rows)?;
        check_len("dv", dv.len(), self.nv)?;
        dv.fill(0.0);
        self.apply_row_forces(p, dv)?;
        for (d, prescribed) in dv.iter_mut().zip(&self.prescribed) {
            if *prescribed {
                *d = 0.0;
            }
        }
        // Lᵀ z = Jᵀ p, from the leaves to the root (RBDA Table 6.4) ...
        for i in (0..self.nv).rev() {
            let zi = dv[i] / self.factor[(i, i)];
            dv[i] = zi;
            let mut j = self.dof_parent[i];
            while j != NO_PARENT {
                dv[j] -= self.factor[(i, j)] * zi;
                j = self.dof_parent[j];
            }
        }
        // ... then L x = z, from the root to the leaves (a dof's ancestors come before it).
        for i in 0..self.nv {
            let mut sum = dv[i];
            let mut j = self.dof_parent[i];
            while j != NO_PARENT {
                sum -= self.factor[(i, j)] * dv[j];
                j = self.dof_parent[j];
            }
            dv[i] = sum / self.factor[(i, i)];
        }
        Ok(())
    }

    /// The row velocities `J v` (m/s for point rows) at `(q, v)`, written to `out` (one per row):
    /// the velocity-level quantities of impacts. Leaves in `ws` the kinematics of `(q, v)`.
    ///
    /// # Errors
    /// As [`rows_matrix`](Self::rows_matrix), but never `SingularMassMatrix`.
    pub fn row_velocities(
        &self,
        m: &Mechanism,
        q: &[f64],
        v: &[f64],
        rows: &[ContactRow],
        ws: &mut Workspace,
        out: &mut [f64],
    ) -> Result<(), ConstraintError> {
        self.check_rows(m, rows)?;
        check_len("q", q.len(), m.nq())?;
        check_len("v", v.len(), m.nv())?;
        check_len("out", out.len(), rows.len())?;
        kinematics_pass(m, q, v, ws);
        for (o, row) in out.iter_mut().zip(rows) {
            *o = match *row {
                ContactRow::Point {
                    body_a,
                    body_b,
                    point,
                    direction,
                } => direction.dot(
                    &(point_velocity(ws, body_b, &point) - point_velocity(ws, body_a, &point)),
                ),
                ContactRow::Rotation {
                    body_a,
                    body_b,
                    direction,
                } => direction.dot(&(angular_velocity(ws, body_b) - angular_velocity(ws, body_a))),
                ContactRow::Coordinate { index, sign } => sign * v[index],
            };
        }
        Ok(())
    }

    /// Checks the rows against the capacity and the mechanism.
    fn check_rows(&self, m: &Mechanism, rows: &[ContactRow]) -> Result<(), ConstraintError> {
        if m.nv() != self.nv || m.num_bodies() != self.num_bodies {
            return Err(ConstraintError::Dimension {
                what: "mechanism velocity coordinates (ConstraintRows made for another mechanism)",
                expected: self.nv,
                got: m.nv(),
            });
        }
        if rows.len() > self.capacity {
            return Err(ConstraintError::CapacityExceeded {
                rows: rows.len(),
                capacity: self.capacity,
            });
        }
        for (row, r) in rows.iter().enumerate() {
            check_row(row, r, self.num_bodies, self.nv)?;
        }
        Ok(())
    }

    /// Fills the first `rows.len()` rows of `J` from the poses in `ws`: for a point row, the row
    /// of joint dof `s` is `⟨S_s, F⟩` with the World wrench `F = (p × n, n)` resolved in the
    /// dof's body, summed over the path of body b (+) and body a (−) to the root.
    fn fill_jacobian(&mut self, m: &Mechanism, rows: &[ContactRow], ws: &Workspace) {
        for (r, row) in rows.iter().enumerate() {
            for k in 0..self.nv {
                self.jac[(r, k)] = 0.0;
            }
            match *row {
                ContactRow::Point {
                    body_a,
                    body_b,
                    point,
                    direction,
                } => {
                    let wrench = SpatialForce::from_force_at_point(direction, point);
                    self.add_path(m, ws, r, body_b, &wrench);
                    self.add_path(m, ws, r, body_a, &-wrench);
                }
                ContactRow::Rotation {
                    body_a,
                    body_b,
                    direction,
                } => {
                    let couple = SpatialForce::new(direction, Vector3::zeros());
                    self.add_path(m, ws, r, body_b, &couple);
                    self.add_path(m, ws, r, body_a, &-couple);
                }
                ContactRow::Coordinate { index, sign } => self.jac[(r, index)] = sign,
            }
        }
    }

    /// `J[r, s] += ⟨S_s, F⟩` for every dof `s` between `body` and the root (`F` World-resolved).
    fn add_path(
        &mut self,
        m: &Mechanism,
        ws: &Workspace,
        r: usize,
        body: BodyIndex,
        wrench: &SpatialForce,
    ) {
        let mut j = body;
        while j != 0 {
            let b = &m.bodies[j];
            let local = ws.x_world[j].apply_force(wrench);
            for d in 0..b.kind.nv() {
                self.jac[(r, b.v_start + d)] += ws.s[b.v_start + d].dot(&local);
            }
            j = b.parent;
        }
    }

    /// In-place `M = Lᵀ L` (RBDA Table 6.3): `L` in the lower triangle, entries off the tree's
    /// sparsity untouched (zero in `M`, zero in `L`).
    fn factor_mass_matrix(&mut self) -> Result<(), ConstraintError> {
        let h = &mut self.factor;
        let lambda = &self.dof_parent;
        for k in (0..self.nv).rev() {
            let d = h[(k, k)];
            if !(d > 0.0 && d.is_finite()) {
                return Err(ConstraintError::SingularMassMatrix { coordinate: k });
            }
            let d = d.sqrt();
            h[(k, k)] = d;
            let mut i = lambda[k];
            while i != NO_PARENT {
                h[(k, i)] /= d;
                i = lambda[i];
            }
            let mut i = lambda[k];
            while i != NO_PARENT {
                let mut j = i;
                while j != NO_PARENT {
                    h[(i, j)] -= h[(k, i)] * h[(k, j)];
                    j = lambda[j];
                }
                i = lambda[i];
            }
        }
        Ok(())
    }

    /// Column `c` of `y` ← `L⁻ᵀ` column `c` (RBDA Table 6.4, back-substitution toward the root).
    fn solve_lt(&mut self, c: usize) {
        for i in (0..self.nv).rev() {
            let yi = self.y[(i, c)] / self.factor[(i, i)];
            self.y[(i, c)] = yi;
            if yi != 0.0 {
                let mut j = self.dof_parent[i];
                while j != NO_PARENT {
                    self.y[(j, c)] -= self.factor[(i, j)] * yi;
                    j = self.dof_parent[j];
                }
            }
        }
    }

    /// Spatial accelerations (body frames) from `v̇_free` and the velocity products in `ws`:
    /// `a_i = ⁱX_λ a_λ + c_i + S_i v̇_i`, the World at rest (no fictitious gravity).
    fn acceleration_pass(&mut self, m: &Mechanism, ws: &Workspace) {
        self.acc[0] = SpatialMotion::ZERO;
        for i in 1..m.num_bodies() {
            let b = &m.bodies[i];
            let mut a = ws.x_up[i].apply_motion(&self.acc[b.parent]) + ws.c[i];
            for d in 0..b.kind.nv() {
                a += ws.s[b.v_start + d] * self.vdot[b.v_start + d];
            }
            self.acc[i] = a;
        }
    }
}

/// Checks one row.
fn check_row(row: usize, r: &ContactRow, bodies: usize, nv: usize) -> Result<(), ConstraintError> {
    match *r {
        ContactRow::Point {
            body_a,
            body_b,
            point,
            direction,
        } => {
            for body in [body_a, body_b] {
                if body >= bodies {
                    return Err(ConstraintError::BodyOutOfRange { row, body, bodies });
                }
            }
            if body_a == body_b {
                return Err(ConstraintError::BadRow {
                    row,
                    what: "a point row between a body and itself",
                });
            }
            if !(point.iter().chain(direction.iter()).all(|x| x.is_finite())) {
                return Err(ConstraintError::NonFinite { row });
            }
            if (direction.norm() - 1.0).abs() > UNIT_TOLERANCE {
                return Err(ConstraintError::BadRow {
                    row,
                    what: "a point row's direction must be a unit vector",
                });
            }
        }
        ContactRow::Rotation {
            body_a,
            body_b,
            direction,
        } => {
            for body in [body_a, body_b] {
                if body >= bodies {
                    return Err(ConstraintError::BodyOutOfRange { row, body, bodies });
                }
            }
            if body_a == body_b {
                return Err(ConstraintError::BadRow {
                    row,
                    what: "a rotation row between a body and itself",
                });
            }
            if !direction.iter().all(|x| x.is_finite())
                || (direction.norm() - 1.0).abs() > UNIT_TOLERANCE
            {
                return Err(ConstraintError::BadRow {
                    row,
                    what: "a rotation row's direction must be a finite unit vector",
                });
            }
        }
        ContactRow::Coordinate { index, sign } => {
            if index >= nv {
                return Err(ConstraintError::BadRow {
                    row,
                    what: "a coordinate row's index is beyond the mechanism's velocity coordinates",
                });
            }
            if sign.abs() != 1.0 {
                return Err(ConstraintError::BadRow {
                    row,
                    what: "a coordinate row's sign must be +1 or −1",
                });
            }
        }
    }
    Ok(())
}

/// The velocity of body `k`'s material point at the World point `p`, World-resolved (m/s).
fn point_velocity(ws: &Workspace, k: BodyIndex, p: &Vector3<f64>) -> Vector3<f64> {
    if k == 0 {
        return Vector3::zeros();
    }
    let x = &ws.x_world[k];
    let omega = x.rot.tr_mul(&ws.v[k].w);
    x.rot.tr_mul(&ws.v[k].v) + omega.cross(&(p - x.trans))
}

/// The angular velocity of body `k`, World-resolved (rad/s).
fn angular_velocity(ws: &Workspace, k: BodyIndex) -> Vector3<f64> {
    if k == 0 {
        return Vector3::zeros();
    }
    ws.x_world[k].rot.tr_mul(&ws.v[k].w)
}

/// The angular acceleration of body `k`, World-resolved (rad/s²).
fn angular_acceleration(ws: &Workspace, acc: &[SpatialMotion], k: BodyIndex) -> Vector3<f64> {
    if k == 0 {
        return Vector3::zeros();
    }
    ws.x_world[k].rot.tr_mul(&acc[k].w)
}

/// The classical acceleration of body `k`'s material point at the World point `p`,
/// World-resolved (m/s²), from its spatial acceleration `acc[k]` (body frame).
fn point_acceleration(
    ws: &Workspace,
    acc: &[SpatialMotion],
    k: BodyIndex,
    p: &Vector3<f64>,
) -> Vector3<f64> {
    if k == 0 {
        return Vector3::zeros();
    }
    let x = &ws.x_world[k];
    let (w, v) = (ws.v[k].w, ws.v[k].v);
    let a = &acc[k];
    // Classical acceleration of the material point at the body origin: a.v + ω × v.
    let a_origin = x.rot.tr_mul(&(a.v + w.cross(&v)));
    let alpha = x.rot.tr_mul(&a.w);
    let omega = x.rot.tr_mul(&w);
    let r = p - x.trans;
    a_origin + alpha.cross(&r) + omega.cross(&omega.cross(&r))
}

#[cfg(test)]
#[path = "rows_tests.rs"]
mod tests;
