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
//! - Degenerate case: when the normal components cancel (|N| ≤ 8·ε·Σ|f_n,i|, ε the f64 machine
//!   epsilon, or no normal components at all) the axis is undefined; P is the centroid of the
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
                let moment_about_centroid = self
                    .entries
                    .iter()
                    .fold(Vector3::zeros(), |acc, e| {
                        acc + (e.point - centroid).cross(&e.normal_force)
                    });
                let axis_point = centroid
                    + normal_sum.cross(&moment_about_centroid) / normal_sum.norm_squared();
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
            sums.normal_force_magnitudes += e.normal_force.norm();
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
