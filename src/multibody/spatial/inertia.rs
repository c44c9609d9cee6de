//! Rigid-body spatial inertia and general (articulated-body) 6×6 inertias, in the conventions of
//! [`spatial`](super): [angular; linear] ordering, expressed about the origin of a frame.

use super::{skew, PluckerTransform, SpatialForce, SpatialMotion};
use nalgebra::{Matrix3, Matrix6, Vector3};
use std::ops::{Add, AddAssign};

/// The spatial inertia of a rigid body, stored about the origin of the frame it is expressed in:
/// `I = [Ī_o, [h]×; [h]×ᵀ, m 1]` with `h = m c` (first moment, kg·m) and `Ī_o = Ī_c + m [c]× [c]×ᵀ`
/// the rotational inertia about the origin (kg·m²).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpatialInertia {
    /// Mass (kg).
    pub mass: f64,
    /// First moment of mass `h = m c` (kg·m), `c` the centre of mass in this frame.
    pub h: Vector3<f64>,
    /// Rotational inertia about this frame's origin, resolved in this frame (kg·m²).
    pub i_origin: Matrix3<f64>,
}

impl Default for SpatialInertia {
    fn default() -> Self {
        Self::ZERO
    }
}

impl SpatialInertia {
    /// No mass.
    pub const ZERO: SpatialInertia = SpatialInertia {
        mass: 0.0,
        h: Vector3::new(0.0, 0.0, 0.0),
        i_origin: Matrix3::new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    };

    /// From mass (kg), centre of mass `com` (m) and rotational inertia about the centre of mass
    /// `inertia_com` (kg·m²), all in this frame. Applies the parallel-axis theorem.
    pub fn from_mass_com_inertia(mass: f64, com: Vector3<f64>, inertia_com: Matrix3<f64>) -> Self {
        let cx = skew(&com);
        Self {
            mass,
            h: com * mass,
            i_origin: inertia_com + cx * cx.transpose() * mass,
        }
    }

    /// Centre of mass in this frame (m); the origin when the mass is zero.
    pub fn com(&self) -> Vector3<f64> {
        if self.mass > 0.0 {
            self.h / self.mass
        } else {
            Vector3::zeros()
        }
    }

    /// Rotational inertia about the centre of mass (kg·m²).
    pub fn inertia_about_com(&self) -> Matrix3<f64> {
        if self.mass > 0.0 {
            let cx = skew(&self.h);
            self.i_origin - cx * cx.transpose() / self.mass
        } else {
            self.i_origin
        }
    }

    /// `I m`: the momentum of a body moving with `m`: `[Ī_o w + h × v; m v − h × w]`.
    #[inline]
    pub fn mul_motion(&self, m: &SpatialMotion) -> SpatialForce {
        SpatialForce::new(
            self.i_origin * m.w + self.h.cross(&m.v),
            m.v * self.mass - self.h.cross(&m.w),
        )
    }

    /// This inertia expressed in frame B, given `x = B_X_A` (this inertia in A):
    /// `I_B = B_X_A* I_A A_X_B`. The centre of mass moves to `E (c − r)` and the inertia about it
    /// rotates to `E Ī_c Eᵀ`.
    pub fn transform(&self, x: &PluckerTransform) -> SpatialInertia {
        let ic = self.inertia_about_com();
        let com_b = x.rot * (self.com() - x.trans);
        SpatialInertia::from_mass_com_inertia(self.mass, com_b, x.rot * ic * x.rot.transpose())
    }

    /// The 6×6 matrix form `[Ī_o, [h]×; [h]×ᵀ, m 1]`.
    pub fn to_matrix(&self) -> Matrix6<f64> {
        ArticulatedInertia::from(*self).to_matrix()
    }
}

impl Add for SpatialInertia {
    type Output = SpatialInertia;
    fn add(self, o: SpatialInertia) -> SpatialInertia {
        SpatialInertia {
            mass: self.mass + o.mass,
            h: self.h + o.h,
            i_origin: self.i_origin + o.i_origin,
        }
    }
}

/// A general symmetric 6×6 (articulated-body) inertia in 3×3 blocks:
/// `[A, B; Bᵀ, C]` with `A` (angular–angular, kg·m²), `B` (angular–linear, kg·m) and `C`
/// (linear–linear, kg); `A`, `C` symmetric.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ArticulatedInertia {
    /// Angular–angular block.
    pub a: Matrix3<f64>,
    /// Angular–linear block (upper right).
    pub b: Matrix3<f64>,
    /// Linear–linear block.
    pub c: Matrix3<f64>,
}

impl From<SpatialInertia> for ArticulatedInertia {
    #[inline]
    fn from(i: SpatialInertia) -> Self {
        ArticulatedInertia {
            a: i.i_origin,
            b: skew(&i.h),
            c: Matrix3::from_diagonal_element(i.mass),
        }
    }
}

impl ArticulatedInertia {
    /// `Ia m = [A w + B v; Bᵀ w + C v]`.
    #[inline]
    pub fn mul_motion(&self, m: &SpatialMotion) -> SpatialForce {
        SpatialForce::new(
            self.a * m.w + self.b * m.v,
            self.b.tr_mul(&m.w) + self.c * m.v,
        )
    }

    /// Subtracts the symmetric rank-1 term `x yᵀ` where `x`, `y` are given as 6-vectors (force
    /// parts `x`, `y`): `Ia −= x yᵀ`. Used with `y = U/D`, `x = U` in the articulated-body algorithm.
    #[inline]
    pub fn sub_outer(&mut self, x: &SpatialForce, y: &SpatialForce) {
        self.a -= x.n * y.n.transpose();
        self.b -= x.n * y.f.transpose();
        self.c -= x.f * y.f.transpose();
    }

    /// `Aᵀ`-side transform to the parent: returns `(B_X_A)ᵀ Ia (B_X_A)`, i.e. this inertia (in B)
    /// expressed in A, where `x = B_X_A`. With `E`, `r` of `x`: first rotate the blocks
    /// (`A' = EᵀAE`, `B' = EᵀBE`, `C' = EᵀCE`) then shift by `r`:
    /// `C'' = C'`, `B'' = B' + [r]× C'`, `A'' = A' + [r]× B'ᵀ + ([r]× B'ᵀ)ᵀ − [r]× C' [r]×`.
    #[inline]
    pub fn to_parent(&self, x: &PluckerTransform) -> ArticulatedInertia {
        let e = &x.rot;
        let a1 = e.tr_mul(&(self.a * e));
        let b1 = e.tr_mul(&(self.b * e));
        let c1 = e.tr_mul(&(self.c * e));
        let rx = skew(&x.trans);
        let rc = rx * c1;
        let rbt = rx * b1.transpose();
        ArticulatedInertia {
            a: a1 + rbt + rbt.transpose() - rc * rx,
            b: b1 + rc,
            c: c1,
        }
    }

    /// The 6×6 matrix form.
    pub fn to_matrix(&self) -> Matrix6<f64> {
        let mut m = Matrix6::zeros();
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(&self.a);
        m.fixed_view_mut::<3, 3>(0, 3).copy_from(&self.b);
        m.fixed_view_mut::<3, 3>(3, 0)
            .copy_from(&self.b.transpose());
        m.fixed_view_mut::<3, 3>(3, 3).copy_from(&self.c);
        m
    }
}

impl AddAssign for ArticulatedInertia {
    #[inline]
    fn add_assign(&mut self, o: ArticulatedInertia) {
        self.a += o.a;
        self.b += o.b;
        self.c += o.c;
    }
}
