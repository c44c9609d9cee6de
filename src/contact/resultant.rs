//! The resultant of a set of contact forces: one force at one point plus a pure torque, with the
//! point on the central axis (line of minimum moment) of the forces' normal components — the
//! semantics of Drake's `ContactResultantForceCalculator`.
//!
//! # Definitions
//!
//! Every input is expressed in one common frame A, positions measured from A's origin (m), forces
//! in N, torques in N·m. Contact i has application point p_i, unit normal n_i, force f_i and an
//! optional pure torque τ_i. Its normal component is f_n,i = (f_i·n_i)·n_i.
//!
//! - Resultant force F = Σ f_i.
//! - Resultant normal force N = Σ f_n,i; the resultant normal is n = N/|N|.
//! - Central axis of the normal components: the line {P : (Σ (p_i − P) × f_n,i) ∥ N}, on which the
//!   moment of the normal components is smallest. With c the centroid of the p_i and
//!   M_c = Σ (p_i − c) × f_n,i, the point of the axis closest to c is p₀ = c + (N × M_c)/|N|²
//!   (the moment there is M_c − (p₀ − c) × N = n·(n·M_c), parallel to N).
//! - The reported point P is the application point's projection onto the axis that lies farthest
//!   in the **negative** n direction (nearest the source of the contact):
//!   P = p₀ + t_min·n with t_min = min_i (p_i − p₀)·n. Moving P along the axis keeps the moment
//!   minimal; this choice approximates where the axis meets the contact surface.
//! - Resultant torque about P: τ = Σ τ_i + Σ (p_i − P) × f_i (it includes the tangential
//!   components' moment and the minimum moment of the normal components).
//! - Degenerate case: when the normal components cancel (|N| ≤ 8·ε·Σ‖f_n,i‖₁, ε the f64 machine
//!   epsilon, ‖·‖₁ the sum of the absolute components; or no normal components at all) the axis is undefined; P is the centroid of the
//!   application points and the normal is +x (Drake's convention). An empty calculator gives
//!   P = 0, n = +x, zero force and torque.
//!
//! The normals need not be exactly unit length: n_i/|n_i| is used; a zero normal contributes no
//! normal component. Non-finite inputs propagate to the result.

use nalgebra::Vector3;

/// One contact force added to a [`ResultantCalculator`], in the calculator's common frame.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ContactForceEntry {
    point: Vector3<f64>,
    normal_force: Vector3<f64>,
    force: Vector3<f64>,
    pure_torque: Vector3<f64>,
}

/// The equivalent contact force of a set: `force` applied at `point`, plus the pure `torque`.
/// All in the calculator's common frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactResultant {
    /// The application point P (m): on the central axis (from [`ResultantCalculator::compute`]) or
    /// the given reference point (from [`ResultantCalculator::compute_about`]).
    pub point: Vector3<f64>,
    /// The resultant normal n = N/|N| (unit), or +x when the normal components cancel.
    pub normal: Vector3<f64>,
    /// The resultant force F = Σ f_i (N).
    pub force: Vector3<f64>,
    /// The pure torque about `point` (N·m): Σ τ_i + Σ (p_i − point) × f_i.
    pub torque: Vector3<f64>,
}

/// Accumulates contact forces and reduces them to a [`ContactResultant`] (see the module
/// documentation). Reuse one calculator per block: [`ResultantCalculator::clear`] keeps the
/// storage, so a calculator built [`ResultantCalculator::with_capacity`] for the block's maximum
/// number of contacts never allocates while simulating. The order of the forces does not matter.
#[derive(Debug, Clone, Default)]
pub struct ResultantCalculator {
    entries: Vec<ContactForceEntry>,
}

impl ResultantCalculator {
    /// An empty calculator (allocates on the first `add_force`).
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty calculator with room for `capacity` forces before any allocation.
    pub fn with_capacity(capacity: usize) -> Self {
        ResultantCalculator {
            entries: Vec::with_capacity(capacity),
        }
    }

    /// Removes every force, keeping the storage.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Number of forces added since the last [`ResultantCalculator::clear`].
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no force has been added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds force `force` (N) applied at `point` (m), with the contact's unit normal
    /// `unit_normal`, all in the common frame.
    pub fn add_force(
        &mut self,
        point: Vector3<f64>,
        unit_normal: Vector3<f64>,
        force: Vector3<f64>,
    ) {
        self.add_force_with_torque(point, unit_normal, force, Vector3::zeros());
    }

    /// Adds a force as [`ResultantCalculator::add_force`] together with a pure torque
    /// `pure_torque` (N·m), e.g. torsional friction.
    pub fn add_force_with_torque(
        &mut self,
        point: Vector3<f64>,
        unit_normal: Vector3<f64>,
        force: Vector3<f64>,
        pure_torque: Vector3<f64>,
    ) {
        let normal_norm_squared = unit_normal.norm_squared();
        let normal_force = if normal_norm_squared > 0.0 {
            unit_normal * (force.dot(&unit_normal) / normal_norm_squared)
        } else {
            Vector3::zeros()
        };
        self.entries.push(ContactForceEntry {
            point,
            normal_force,
            force,
            pure_torque,
        });
    }

    /// The resultant with its point on the central axis of the normal components (see the module
    /// documentation). Does not allocate.
    pub fn compute(&self) -> ContactResultant {
        let sums = self.sums();
        let count = self.entries.len();
        let point = match sums.resultant_normal() {
            None => sums.centroid(count),
            Some(normal) => {
                let centroid = sums.centroid(count);
                let normal_sum = sums.normal_force;
                // Moment of the normal components about the centroid.
                let moment_about_centroid = self.entries.iter().fold(Vector3::zeros(), |acc, e| {
                    acc + (e.point - centroid).cross(&e.normal_force)
                });
                let axis_point =
                    centroid + normal_sum.cross(&moment_about_centroid) / normal_sum.norm_squared();
                let most_negative = self
                    .entries
                    .iter()
                    .map(|e| (e.point - axis_point).dot(&normal))
                    .fold(f64::INFINITY, f64::min);
                axis_point + normal * most_negative
            }
        };
        self.resultant_at(point, &sums)
    }

    /// The resultant about a given `reference` point (m, common frame): point = reference,
    /// torque = Σ τ_i + Σ (p_i − reference) × f_i; force and normal as in
    /// [`ResultantCalculator::compute`]. Does not allocate.
    pub fn compute_about(&self, reference: &Vector3<f64>) -> ContactResultant {
        let sums = self.sums();
        self.resultant_at(*reference, &sums)
    }

    fn resultant_at(&self, point: Vector3<f64>, sums: &Sums) -> ContactResultant {
        let torque = self.entries.iter().fold(sums.pure_torque, |acc, e| {
            acc + (e.point - point).cross(&e.force)
        });
        ContactResultant {
            point,
            normal: sums.resultant_normal().unwrap_or_else(Vector3::x),
            force: sums.force,
            torque,
        }
    }

    fn sums(&self) -> Sums {
        let mut sums = Sums {
            point: Vector3::zeros(),
            force: Vector3::zeros(),
            normal_force: Vector3::zeros(),
            normal_force_magnitudes: 0.0,
            pure_torque: Vector3::zeros(),
        };
        for e in &self.entries {
            sums.point += e.point;
            sums.force += e.force;
            sums.normal_force += e.normal_force;
            sums.normal_force_magnitudes += e.normal_force.abs().sum();
            sums.pure_torque += e.pure_torque;
        }
        sums
    }
}

/// Sums over the entries, computed once per `compute`.
struct Sums {
    point: Vector3<f64>,
    force: Vector3<f64>,
    normal_force: Vector3<f64>,
    /// Σ‖f_n,i‖₁: the scale against which N counts as zero.
    normal_force_magnitudes: f64,
    pure_torque: Vector3<f64>,
}

impl Sums {
    fn centroid(&self, count: usize) -> Vector3<f64> {
        if count == 0 {
            Vector3::zeros()
        } else {
            self.point / count as f64
        }
    }

    /// N/|N|, or None when the normal components cancel (relative to their magnitudes).
    fn resultant_normal(&self) -> Option<Vector3<f64>> {
        let length = self.normal_force.norm();
        if length > 8.0 * f64::EPSILON * self.normal_force_magnitudes && length > 0.0 {
            Some(self.normal_force / length)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Hand values with a few roundings on O(1) numbers: absolute tolerance 1e-12.
    const TOL: f64 = 1e-12;

    fn v(x: f64, y: f64, z: f64) -> Vector3<f64> {
        Vector3::new(x, y, z)
    }

    #[test]
    fn single_force_is_returned_unchanged() {
        let mut c = ResultantCalculator::new();
        c.add_force_with_torque(
            v(1.0, 2.0, 3.0),
            v(0.0, 0.0, 1.0),
            v(0.5, 0.0, 2.0),
            v(0.0, 0.0, 0.1),
        );
        let r = c.compute();
        assert!((r.point - v(1.0, 2.0, 3.0)).norm() < TOL);
        assert!((r.normal - v(0.0, 0.0, 1.0)).norm() < TOL);
        assert_eq!(r.force, v(0.5, 0.0, 2.0));
        assert!((r.torque - v(0.0, 0.0, 0.1)).norm() < TOL);
    }

    #[test]
    fn two_symmetric_forces_meet_at_the_midpoint() {
        let mut c = ResultantCalculator::with_capacity(2);
        c.add_force(v(-1.0, 0.0, 0.0), v(0.0, 0.0, 1.0), v(0.0, 0.0, 1.0));
        c.add_force(v(1.0, 0.0, 0.0), v(0.0, 0.0, 1.0), v(0.0, 0.0, 1.0));
        let r = c.compute();
        assert!(r.point.norm() < TOL);
        assert_eq!(r.force, v(0.0, 0.0, 2.0));
        assert!(r.torque.norm() < TOL);
    }

    #[test]
    fn point_is_the_most_negative_projection_on_the_central_axis() {
        // Normal forces 1 N at x = 0 and 2 N at x = 3: the axis is x = 2, y = 0, along +z.
        // The application points project to z = 0.5 and z = −0.2: P = (2, 0, −0.2).
        // A tangential 1 N along x at the second point leaves the axis where it is.
        let mut c = ResultantCalculator::new();
        c.add_force(v(0.0, 0.0, 0.5), v(0.0, 0.0, 1.0), v(0.0, 0.0, 1.0));
        c.add_force(v(3.0, 0.0, -0.2), v(0.0, 0.0, 1.0), v(1.0, 0.0, 2.0));
        let r = c.compute();
        assert!((r.point - v(2.0, 0.0, -0.2)).norm() < TOL, "{}", r.point);
        assert_eq!(r.force, v(1.0, 0.0, 3.0));
        // τ = (−2, 0, 0.7) × (0, 0, 1) + (1, 0, 0) × (1, 0, 2) = (0, 2, 0) + (0, −2, 0) = 0.
        assert!(r.torque.norm() < TOL, "{}", r.torque);
    }

    #[test]
    fn a_couple_resolves_at_the_centroid() {
        let mut c = ResultantCalculator::new();
        c.add_force(v(-1.0, 0.0, 0.0), v(0.0, 0.0, 1.0), v(0.0, 0.0, 1.0));
        c.add_force(v(1.0, 0.0, 0.0), v(0.0, 0.0, 1.0), v(0.0, 0.0, -1.0));
        let r = c.compute();
        assert_eq!(r.point, v(0.0, 0.0, 0.0));
        assert_eq!(r.normal, v(1.0, 0.0, 0.0));
        assert_eq!(r.force, Vector3::zeros());
        // (−1, 0, 0) × (0, 0, 1) + (1, 0, 0) × (0, 0, −1) = (0, 1, 0) + (0, 1, 0).
        assert!((r.torque - v(0.0, 2.0, 0.0)).norm() < TOL);
    }

    #[test]
    fn purely_tangential_forces_resolve_at_the_centroid() {
        let mut c = ResultantCalculator::new();
        c.add_force(v(0.0, 0.0, 0.0), v(0.0, 0.0, 1.0), v(1.0, 0.0, 0.0));
        c.add_force(v(2.0, 4.0, 0.0), v(0.0, 0.0, 1.0), v(1.0, 0.0, 0.0));
        let r = c.compute();
        assert!((r.point - v(1.0, 2.0, 0.0)).norm() < TOL);
        assert_eq!(r.normal, Vector3::x());
    }

    #[test]
    fn empty_calculator() {
        let r = ResultantCalculator::new().compute();
        assert_eq!(r.point, Vector3::zeros());
        assert_eq!(r.normal, Vector3::x());
        assert_eq!(r.force, Vector3::zeros());
        assert_eq!(r.torque, Vector3::zeros());
    }

    fn general_set() -> ResultantCalculator {
        // Non-coplanar points, different normals, tangential parts and a pure torque.
        let mut c = ResultantCalculator::new();
        c.add_force(v(0.3, -0.2, 0.1), v(0.0, 0.0, 1.0), v(0.2, -0.1, 3.0));
        c.add_force(v(-0.5, 0.4, -0.05), v(0.0, 0.6, 0.8), v(-0.3, 1.0, 2.0));
        c.add_force_with_torque(
            v(0.1, 0.9, 0.3),
            v(0.6, 0.0, 0.8),
            v(1.5, 0.2, 1.0),
            v(0.05, -0.02, 0.1),
        );
        c
    }

    fn normal_moment_about(c: &ResultantCalculator, point: &Vector3<f64>) -> Vector3<f64> {
        c.entries.iter().fold(Vector3::zeros(), |acc, e| {
            acc + (e.point - point).cross(&e.normal_force)
        })
    }

    #[test]
    fn the_point_has_the_minimum_moment_of_the_normal_components() {
        let c = general_set();
        let r = c.compute();
        let normal_sum = c
            .entries
            .iter()
            .fold(Vector3::zeros(), |a, e| a + e.normal_force);
        assert!((r.normal - normal_sum.normalize()).norm() < TOL);
        let moment = normal_moment_about(&c, &r.point);
        // Parallel to N: the cross product vanishes (relative to |M|·|N|).
        assert!(
            moment.cross(&normal_sum).norm() < 1e-12 * (1.0 + moment.norm() * normal_sum.norm())
        );
        // No other point does better: a grid of offsets around P.
        for i in -2..=2 {
            for j in -2..=2 {
                for k in -2..=2 {
                    let q = r.point + v(i as f64, j as f64, k as f64) * 0.1;
                    assert!(normal_moment_about(&c, &q).norm() >= moment.norm() - 1e-12);
                }
            }
        }
        // P is the most negative projection of the application points on the axis.
        for e in &c.entries {
            assert!((e.point - r.point).dot(&r.normal) >= -1e-12);
        }
        assert!(c
            .entries
            .iter()
            .any(|e| (e.point - r.point).dot(&r.normal).abs() < 1e-12));
    }

    #[test]
    fn compute_about_shifts_the_torque() {
        let c = general_set();
        let r = c.compute();
        let reference = v(1.0, -2.0, 0.5);
        let about = c.compute_about(&reference);
        assert_eq!(about.point, reference);
        assert_eq!(about.force, r.force);
        assert_eq!(about.normal, r.normal);
        // τ_ref = τ_P + (P − ref) × F.
        let shifted = r.torque + (r.point - reference).cross(&r.force);
        assert!((about.torque - shifted).norm() < TOL);
        // And directly: Σ τ_i + Σ (p_i − ref) × f_i.
        let direct = c.entries.iter().fold(Vector3::zeros(), |a, e| {
            a + e.pure_torque + (e.point - reference).cross(&e.force)
        });
        assert!((about.torque - direct).norm() < TOL);
    }

    #[test]
    fn order_does_not_matter_and_clear_keeps_capacity() {
        let c = general_set();
        let mut reversed = ResultantCalculator::with_capacity(8);
        let capacity = reversed.entries.capacity();
        for e in c.entries.iter().rev() {
            // Reconstruct the normal direction from the stored normal component.
            reversed.add_force_with_torque(e.point, e.normal_force, e.force, e.pure_torque);
        }
        let (a, b) = (c.compute(), reversed.compute());
        assert!((a.point - b.point).norm() < TOL);
        assert!((a.torque - b.torque).norm() < TOL);
        reversed.clear();
        assert!(reversed.is_empty());
        assert_eq!(reversed.entries.capacity(), capacity);
    }

    #[test]
    fn non_unit_and_zero_normals() {
        let mut c = ResultantCalculator::new();
        c.add_force(v(0.0, 0.0, 0.0), v(0.0, 0.0, 5.0), v(1.0, 0.0, 2.0));
        c.add_force(v(1.0, 0.0, 0.0), Vector3::zeros(), v(0.0, 0.0, 7.0));
        assert_eq!(c.len(), 2);
        let r = c.compute();
        // Only the first has a normal component: the axis passes through the origin.
        assert!(r.point.norm() < TOL);
        assert!((r.normal - v(0.0, 0.0, 1.0)).norm() < TOL);
    }
}
