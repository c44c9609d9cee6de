//! Spatial (6-D) algebra after Featherstone, *Rigid Body Dynamics Algorithms* (2008), ch. 2.
//!
//! Conventions used throughout `multibody`:
//! - Spatial vectors are ordered **[angular; linear]**.
//! - A [`SpatialMotion`] `(w, v)` expressed in a frame A is the angular velocity `w` (rad/s) and the
//!   linear velocity `v` (m/s) of the body point that coincides with A's origin, both resolved in A.
//! - A [`SpatialForce`] `(n, f)` expressed in A is the torque `n` (N·m) about A's origin and the force
//!   `f` (N), both resolved in A. Power is `⟨m, f⟩ = w·n + v·f` (W), independent of the frame.
//! - A [`PluckerTransform`] `B_X_A` maps motion vectors from A coordinates to B coordinates. It is
//!   stored as `rot = E` (the 3×3 matrix mapping A-resolved 3-vectors to B-resolved ones, i.e.
//!   `E = R_AB^T` where `R_AB` is B's orientation in A) and `trans = r` (B's origin relative to A's
//!   origin, resolved in A, in m).

mod inertia;

pub use inertia::{ArticulatedInertia, SpatialInertia};
use nalgebra::{Isometry3, Matrix3, Matrix6, Rotation3, Translation3, UnitQuaternion, Vector3};
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// The 3×3 cross-product matrix `[a]×` with `[a]× b = a × b`.
#[inline]
pub fn skew(a: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -a.z, a.y, a.z, 0.0, -a.x, -a.y, a.x, 0.0)
}

/// A spatial motion vector (velocity or acceleration): `w` angular part, `v` linear part of the
/// body point at the origin of the frame it is expressed in.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpatialMotion {
    /// Angular part (rad/s, or rad/s² for accelerations).
    pub w: Vector3<f64>,
    /// Linear part at the frame origin (m/s, or m/s²).
    pub v: Vector3<f64>,
}

/// A spatial force vector (wrench): `n` torque about the origin of the frame it is expressed in,
/// `f` force.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpatialForce {
    /// Torque about the frame origin (N·m).
    pub n: Vector3<f64>,
    /// Force (N).
    pub f: Vector3<f64>,
}

impl SpatialMotion {
    /// The zero motion.
    pub const ZERO: SpatialMotion = SpatialMotion {
        w: Vector3::new(0.0, 0.0, 0.0),
        v: Vector3::new(0.0, 0.0, 0.0),
    };

    /// From angular and linear parts.
    #[inline]
    pub fn new(w: Vector3<f64>, v: Vector3<f64>) -> Self {
        Self { w, v }
    }

    /// From a 6-array `[wx, wy, wz, vx, vy, vz]`.
    #[inline]
    pub fn from_array(a: [f64; 6]) -> Self {
        Self::new(
            Vector3::new(a[0], a[1], a[2]),
            Vector3::new(a[3], a[4], a[5]),
        )
    }

    /// As a 6-array `[wx, wy, wz, vx, vy, vz]`.
    #[inline]
    pub fn to_array(&self) -> [f64; 6] {
        [self.w.x, self.w.y, self.w.z, self.v.x, self.v.y, self.v.z]
    }

    /// Motion cross product `self × m` (Featherstone's `crm(self) m`):
    /// `[w × mw; w × mv + v × mw]`. The derivative of motion vector `m` fixed in a frame moving with
    /// velocity `self`.
    #[inline]
    pub fn cross_motion(&self, m: &SpatialMotion) -> SpatialMotion {
        SpatialMotion::new(self.w.cross(&m.w), self.w.cross(&m.v) + self.v.cross(&m.w))
    }

    /// Force cross product `self ×* f` (Featherstone's `crf(self) f`):
    /// `[w × fn + v × ff; w × ff]`. Satisfies `self ×* = -(self ×)ᵀ`.
    #[inline]
    pub fn cross_force(&self, f: &SpatialForce) -> SpatialForce {
        SpatialForce::new(self.w.cross(&f.n) + self.v.cross(&f.f), self.w.cross(&f.f))
    }

    /// Power (scalar product) `⟨self, f⟩ = w·n + v·f` (W).
    #[inline]
    pub fn dot(&self, f: &SpatialForce) -> f64 {
        self.w.dot(&f.n) + self.v.dot(&f.f)
    }

    /// Scaled copy.
    #[inline]
    pub fn scale(&self, s: f64) -> SpatialMotion {
        SpatialMotion::new(self.w * s, self.v * s)
    }
}

impl SpatialForce {
    /// The zero force.
    pub const ZERO: SpatialForce = SpatialForce {
        n: Vector3::new(0.0, 0.0, 0.0),
        f: Vector3::new(0.0, 0.0, 0.0),
    };

    /// From torque about the origin and force.
    #[inline]
    pub fn new(n: Vector3<f64>, f: Vector3<f64>) -> Self {
        Self { n, f }
    }

    /// The Plücker force of a pure force `force` (N) acting at the point `point` (m), both resolved in
    /// the frame the result is expressed in: `(point × force, force)`. For external forces on a
    /// mechanism, pass world-resolved values to get the torque about the world origin.
    #[inline]
    pub fn from_force_at_point(force: Vector3<f64>, point: Vector3<f64>) -> Self {
        Self::new(point.cross(&force), force)
    }

    /// From a 6-array `[nx, ny, nz, fx, fy, fz]`.
    #[inline]
    pub fn from_array(a: [f64; 6]) -> Self {
        Self::new(
            Vector3::new(a[0], a[1], a[2]),
            Vector3::new(a[3], a[4], a[5]),
        )
    }

    /// As a 6-array `[nx, ny, nz, fx, fy, fz]`.
    #[inline]
    pub fn to_array(&self) -> [f64; 6] {
        [self.n.x, self.n.y, self.n.z, self.f.x, self.f.y, self.f.z]
    }

    /// True when both parts are exactly zero.
    #[inline]
    pub fn is_zero(&self) -> bool {
        self.n == Vector3::zeros() && self.f == Vector3::zeros()
    }

    /// Scaled copy.
    #[inline]
    pub fn scale(&self, s: f64) -> SpatialForce {
        SpatialForce::new(self.n * s, self.f * s)
    }
}

macro_rules! impl_linear_ops {
    ($t:ident, $a:ident, $b:ident) => {
        impl Add for $t {
            type Output = $t;
            #[inline]
            fn add(self, o: $t) -> $t {
                $t::new(self.$a + o.$a, self.$b + o.$b)
            }
        }
        impl Sub for $t {
            type Output = $t;
            #[inline]
            fn sub(self, o: $t) -> $t {
                $t::new(self.$a - o.$a, self.$b - o.$b)
            }
        }
        impl Neg for $t {
            type Output = $t;
            #[inline]
            fn neg(self) -> $t {
                $t::new(-self.$a, -self.$b)
            }
        }
        impl AddAssign for $t {
            #[inline]
            fn add_assign(&mut self, o: $t) {
                self.$a += o.$a;
                self.$b += o.$b;
            }
        }
        impl SubAssign for $t {
            #[inline]
            fn sub_assign(&mut self, o: $t) {
                self.$a -= o.$a;
                self.$b -= o.$b;
            }
        }
        impl Mul<f64> for $t {
            type Output = $t;
            #[inline]
            fn mul(self, s: f64) -> $t {
                $t::new(self.$a * s, self.$b * s)
            }
        }
    };
}
impl_linear_ops!(SpatialMotion, w, v);
impl_linear_ops!(SpatialForce, n, f);

/// A Plücker coordinate transform `B_X_A` (see the module docs for the stored parts).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PluckerTransform {
    /// `E`: maps A-resolved 3-vectors to B-resolved ones (`E = R_ABᵀ`).
    pub rot: Matrix3<f64>,
    /// `r`: B's origin relative to A's origin, resolved in A (m).
    pub trans: Vector3<f64>,
}

impl Default for PluckerTransform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl PluckerTransform {
    /// The identity transform.
    pub const IDENTITY: PluckerTransform = PluckerTransform {
        rot: Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
        trans: Vector3::new(0.0, 0.0, 0.0),
    };

    /// From `E` and `r` directly.
    #[inline]
    pub fn new(rot: Matrix3<f64>, trans: Vector3<f64>) -> Self {
        Self { rot, trans }
    }

    /// `B_X_A` from the pose of frame B in frame A (B's orientation and origin in A).
    pub fn from_pose(b_in_a: &Isometry3<f64>) -> Self {
        Self::new(
            b_in_a
                .rotation
                .to_rotation_matrix()
                .into_inner()
                .transpose(),
            b_in_a.translation.vector,
        )
    }

    /// The pose of frame B in frame A that this `B_X_A` describes.
    pub fn to_pose(&self) -> Isometry3<f64> {
        let rot = Rotation3::from_matrix_unchecked(self.rot.transpose());
        Isometry3::from_parts(
            Translation3::from(self.trans),
            UnitQuaternion::from_rotation_matrix(&rot),
        )
    }

    /// `B_X_A m`: `[E w; E (v − r × w)]`.
    #[inline]
    pub fn apply_motion(&self, m: &SpatialMotion) -> SpatialMotion {
        SpatialMotion::new(self.rot * m.w, self.rot * (m.v - self.trans.cross(&m.w)))
    }

    /// `B_X_A* f` (force transform): `[E (n − r × f); E f]`.
    #[inline]
    pub fn apply_force(&self, f: &SpatialForce) -> SpatialForce {
        SpatialForce::new(self.rot * (f.n - self.trans.cross(&f.f)), self.rot * f.f)
    }

    /// `A_X_B m` (inverse motion transform): `[Eᵀ w; Eᵀ v + r × Eᵀ w]`.
    #[inline]
    pub fn inv_apply_motion(&self, m: &SpatialMotion) -> SpatialMotion {
        let w = self.rot.tr_mul(&m.w);
        SpatialMotion::new(w, self.rot.tr_mul(&m.v) + self.trans.cross(&w))
    }

    /// `A_X_B* f = (B_X_A)ᵀ f` (inverse force transform): `[Eᵀ n + r × Eᵀ f; Eᵀ f]`.
    #[inline]
    pub fn inv_apply_force(&self, f: &SpatialForce) -> SpatialForce {
        let force = self.rot.tr_mul(&f.f);
        SpatialForce::new(self.rot.tr_mul(&f.n) + self.trans.cross(&force), force)
    }

    /// Composition `C_X_A = self ∘ other` where `self = C_X_B` and `other = B_X_A`.
    #[inline]
    pub fn compose(&self, other: &PluckerTransform) -> PluckerTransform {
        PluckerTransform::new(
            self.rot * other.rot,
            other.trans + other.rot.tr_mul(&self.trans),
        )
    }

    /// The inverse `A_X_B`: `E' = Eᵀ`, `r' = −E r`.
    #[inline]
    pub fn inverse(&self) -> PluckerTransform {
        PluckerTransform::new(self.rot.transpose(), -(self.rot * self.trans))
    }

    /// The 6×6 motion-transform matrix `[E 0; −E[r]× E]`.
    pub fn to_motion_matrix(&self) -> Matrix6<f64> {
        let mut x = Matrix6::zeros();
        let erx = -self.rot * skew(&self.trans);
        x.fixed_view_mut::<3, 3>(0, 0).copy_from(&self.rot);
        x.fixed_view_mut::<3, 3>(3, 3).copy_from(&self.rot);
        x.fixed_view_mut::<3, 3>(3, 0).copy_from(&erx);
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{UnitQuaternion, Vector6};

    // Deterministic pseudo-random numbers (xorshift) so the tests need no extra crate.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        }
        fn v3(&mut self) -> Vector3<f64> {
            Vector3::new(self.next(), self.next(), self.next())
        }
        fn motion(&mut self) -> SpatialMotion {
            SpatialMotion::new(self.v3(), self.v3())
        }
        fn force(&mut self) -> SpatialForce {
            SpatialForce::new(self.v3(), self.v3())
        }
        fn transform(&mut self) -> PluckerTransform {
            let q = UnitQuaternion::from_scaled_axis(self.v3() * 2.0);
            PluckerTransform::from_pose(&Isometry3::from_parts(Translation3::from(self.v3()), q))
        }
        fn inertia(&mut self) -> SpatialInertia {
            let l = Matrix3::from_fn(|_, _| self.next());
            let ic = l * l.transpose() + Matrix3::identity() * 0.1;
            SpatialInertia::from_mass_com_inertia(1.0 + self.next().abs(), self.v3(), ic)
        }
    }

    fn v6m(m: &SpatialMotion) -> Vector6<f64> {
        Vector6::from_row_slice(&m.to_array())
    }
    fn v6f(f: &SpatialForce) -> Vector6<f64> {
        Vector6::from_row_slice(&f.to_array())
    }

    // All tolerances 1e-12: values are O(1) and each identity takes a few dozen flops, so round-off
    // stays around 1e-15.
    const TOL: f64 = 1e-12;

    #[test]
    fn compose_and_inverse() {
        let mut rng = Rng(0x1234_5678);
        for _ in 0..50 {
            let x_ba = rng.transform();
            let x_cb = rng.transform();
            let m = rng.motion();
            let f = rng.force();
            let x_ca = x_cb.compose(&x_ba);
            let lhs = x_ca.apply_motion(&m);
            let rhs = x_cb.apply_motion(&x_ba.apply_motion(&m));
            assert!((v6m(&lhs) - v6m(&rhs)).norm() < TOL);
            let lhs = x_ca.apply_force(&f);
            let rhs = x_cb.apply_force(&x_ba.apply_force(&f));
            assert!((v6f(&lhs) - v6f(&rhs)).norm() < TOL);
            // Inverse both ways.
            let back = x_ba.inverse().apply_motion(&x_ba.apply_motion(&m));
            assert!((v6m(&back) - v6m(&m)).norm() < TOL);
            let back = x_ba.inv_apply_motion(&x_ba.apply_motion(&m));
            assert!((v6m(&back) - v6m(&m)).norm() < TOL);
            let back = x_ba.inv_apply_force(&x_ba.apply_force(&f));
            assert!((v6f(&back) - v6f(&f)).norm() < TOL);
            let id = x_ba.compose(&x_ba.inverse());
            assert!((id.rot - Matrix3::identity()).norm() < TOL && id.trans.norm() < TOL);
            // Matrix form agrees with the structured one; force transform is X^-T.
            let xm = x_ba.to_motion_matrix();
            assert!((xm * v6m(&m) - v6m(&x_ba.apply_motion(&m))).norm() < TOL);
            let xf = xm.try_inverse().unwrap().transpose();
            assert!((xf * v6f(&f) - v6f(&x_ba.apply_force(&f))).norm() < TOL);
            // Pose round trip.
            let back = PluckerTransform::from_pose(&x_ba.to_pose());
            assert!((back.rot - x_ba.rot).norm() < TOL && (back.trans - x_ba.trans).norm() < TOL);
        }
    }

    #[test]
    fn cross_product_duality_and_matrix_forms() {
        let mut rng = Rng(99);
        for _ in 0..50 {
            let (v, m, f) = (rng.motion(), rng.motion(), rng.force());
            // ⟨v×m, f⟩ = −⟨m, v×*f⟩
            let lhs = v.cross_motion(&m).dot(&f);
            let rhs = -m.dot(&v.cross_force(&f));
            assert!((lhs - rhs).abs() < TOL);
            // v × v = 0
            assert!(v6m(&v.cross_motion(&v)).norm() < TOL);
            // X (v × m) = (X v) × (X m)
            let x = rng.transform();
            let lhs = x.apply_motion(&v.cross_motion(&m));
            let rhs = x.apply_motion(&v).cross_motion(&x.apply_motion(&m));
            assert!((v6m(&lhs) - v6m(&rhs)).norm() < TOL);
        }
    }

    #[test]
    fn transforms_preserve_power() {
        let mut rng = Rng(7);
        for _ in 0..50 {
            let (x, m, f) = (rng.transform(), rng.motion(), rng.force());
            let p_a = m.dot(&f);
            let p_b = x.apply_motion(&m).dot(&x.apply_force(&f));
            assert!((p_a - p_b).abs() < TOL);
        }
    }

    #[test]
    fn inertia_parallel_axis_and_transform() {
        let mut rng = Rng(4242);
        for _ in 0..50 {
            let i_a = rng.inertia();
            // Parallel axis: Ī_o = Ī_c + m (|c|² 1 − c cᵀ).
            let c = i_a.com();
            let ic = i_a.inertia_about_com();
            let expected =
                ic + (Matrix3::identity() * c.norm_squared() - c * c.transpose()) * i_a.mass;
            assert!((i_a.i_origin - expected).norm() < TOL);
            // Transforming the inertia equals X* I X⁻¹ on matrices.
            let x = rng.transform();
            let i_b = i_a.transform(&x);
            let xm = x.to_motion_matrix();
            let xinv = xm.try_inverse().unwrap();
            let expected = xinv.transpose() * i_a.to_matrix() * xinv;
            assert!((i_b.to_matrix() - expected).norm() < 1e-10);
            // Kinetic energy is frame independent.
            let v = rng.motion();
            let ke_a = 0.5 * v.dot(&i_a.mul_motion(&v));
            let v_b = x.apply_motion(&v);
            let ke_b = 0.5 * v_b.dot(&i_b.mul_motion(&v_b));
            assert!((ke_a - ke_b).abs() < 1e-10);
            // Articulated block transform to the parent equals Xᵀ I X.
            let ia = ArticulatedInertia::from(i_b);
            let back = ia.to_parent(&x).to_matrix();
            assert!((back - xm.transpose() * i_b.to_matrix() * xm).norm() < 1e-10);
            assert!((back - i_a.to_matrix()).norm() < 1e-10);
            // mul_motion agrees with the matrix form.
            assert!((v6f(&i_a.mul_motion(&v)) - i_a.to_matrix() * v6m(&v)).norm() < TOL);
            assert!((v6f(&ia.mul_motion(&v)) - i_b.to_matrix() * v6m(&v)).norm() < TOL);
        }
    }

    #[test]
    fn force_at_point_is_pure_force_there() {
        // A force applied at p has zero moment about p: shifting to a frame at p leaves (0, f).
        let f = Vector3::new(1.0, -2.0, 0.5);
        let p = Vector3::new(0.3, 0.4, -1.0);
        let w = SpatialForce::from_force_at_point(f, p);
        let x = PluckerTransform::new(Matrix3::identity(), p);
        let at_p = x.apply_force(&w);
        assert!(at_p.n.norm() < TOL && (at_p.f - f).norm() < TOL);
    }
}
