//! Reading the hidden body-kinematics signal and composing a frame fixed to the body.

use crate::block::physical::KINEMATICS_LEN;
use nalgebra::{Isometry3, Matrix3, Vector3};

/// Pose and velocity of a frame, all resolved in World.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameMotion {
    /// R_WF: the frame's axes in World.
    pub rotation: Matrix3<f64>,
    /// Position of the frame's origin in World, m.
    pub position: Vector3<f64>,
    /// Angular velocity of the frame in World, rad/s.
    pub angular_velocity: Vector3<f64>,
    /// Velocity of the frame's origin in World, m/s.
    pub velocity: Vector3<f64>,
}

impl FrameMotion {
    /// The World frame: at the origin, axes aligned, at rest.
    pub const AT_REST: FrameMotion = FrameMotion {
        rotation: Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
        position: Vector3::new(0.0, 0.0, 0.0),
        angular_velocity: Vector3::new(0.0, 0.0, 0.0),
        velocity: Vector3::new(0.0, 0.0, 0.0),
    };

    /// The motion of the frame placed at `placement` in a body whose kinematics signal is `kin`
    /// (18 values: R_WB column-major, p_W, ω_W, v_W of the body origin).
    #[inline]
    pub fn of(kin: &[f64], placement: &Isometry3<f64>) -> FrameMotion {
        // One length check for the 18 values instead of one per read.
        let kin: &[f64; KINEMATICS_LEN] = kin[..KINEMATICS_LEN]
            .try_into()
            .expect("a body kinematics signal");
        let r_body = Matrix3::from_column_slice(&kin[0..9]);
        let p_body = Vector3::new(kin[9], kin[10], kin[11]);
        let w = Vector3::new(kin[12], kin[13], kin[14]);
        let v_body = Vector3::new(kin[15], kin[16], kin[17]);
        let offset_world = r_body * placement.translation.vector;
        // Most frames are only translated on their body (or are its origin): skip the product.
        let unrotated = placement.rotation.quaternion().w == 1.0;
        let rotation = if unrotated {
            r_body
        } else {
            r_body * placement.rotation.to_rotation_matrix().matrix()
        };
        FrameMotion {
            rotation,
            position: p_body + offset_world,
            angular_velocity: w,
            velocity: v_body + w.cross(&offset_world),
        }
    }

    /// The pose as an isometry (World ← frame).
    pub fn isometry(&self) -> Isometry3<f64> {
        let r = nalgebra::Rotation3::from_matrix_unchecked(self.rotation);
        Isometry3::from_parts(
            self.position.into(),
            nalgebra::UnitQuaternion::from_rotation_matrix(&r),
        )
    }

    /// Velocity in World of the material point of this frame's body at World position `p`.
    #[inline]
    pub fn point_velocity(&self, p: &Vector3<f64>) -> Vector3<f64> {
        self.velocity + self.angular_velocity.cross(&(p - self.position))
    }
}

/// Writes the wrench of force `f` (World, N) applied at World point `p` (m), plus a pure torque
/// `tau` (World, N·m), as the 6×1 hidden wrench signal [n about the World origin; f].
#[inline]
pub fn write_wrench(out: &mut [f64], p: &Vector3<f64>, f: &Vector3<f64>, tau: &Vector3<f64>) {
    let n = p.cross(f) + tau;
    out[..3].copy_from_slice(n.as_slice());
    out[3..6].copy_from_slice(f.as_slice());
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Translation3, UnitQuaternion};

    #[test]
    fn a_frame_offset_on_a_spinning_body_moves_with_omega_cross_r() {
        // Body at the origin spinning at 2 rad/s about z; frame 1 m along the body's x.
        let mut kin = [0.0; 18];
        kin[..9].copy_from_slice(Matrix3::identity().as_slice());
        kin[14] = 2.0;
        let placement =
            Isometry3::from_parts(Translation3::new(1.0, 0.0, 0.0), UnitQuaternion::identity());
        let m = FrameMotion::of(&kin, &placement);
        assert_eq!(m.position, Vector3::new(1.0, 0.0, 0.0));
        assert!((m.velocity - Vector3::new(0.0, 2.0, 0.0)).norm() < 1e-15);
    }

    #[test]
    fn wrench_torque_is_about_the_world_origin() {
        let mut w = [0.0; 6];
        write_wrench(
            &mut w,
            &Vector3::new(1.0, 0.0, 0.0),
            &Vector3::new(0.0, 0.0, -10.0),
            &Vector3::zeros(),
        );
        assert_eq!(&w, &[0.0, 10.0, 0.0, 0.0, 0.0, -10.0]);
    }
}
