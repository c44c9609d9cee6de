//! A body's motion (World), as the contact candidates and the loop closures read it from a
//! dynamics workspace.

use crate::multibody::kinematics::{body_position, body_velocity};
use crate::multibody::workspace::Workspace;
use nalgebra::Vector3;

/// A body's motion in the World frame.
pub(super) struct BodyMotion {
    pub origin: Vector3<f64>,
    pub angular: Vector3<f64>,
    pub linear: Vector3<f64>,
}

impl BodyMotion {
    pub fn of(ws: &Workspace, body: usize) -> Self {
        if body == 0 {
            return BodyMotion {
                origin: Vector3::zeros(),
                angular: Vector3::zeros(),
                linear: Vector3::zeros(),
            };
        }
        let (angular, linear) = body_velocity(ws, body);
        BodyMotion {
            origin: body_position(ws, body),
            angular,
            linear,
        }
    }

    /// Velocity of the body's material point at `p` (m/s, World).
    pub fn point_velocity(&self, p: &Vector3<f64>) -> Vector3<f64> {
        self.linear + self.angular.cross(&(p - self.origin))
    }
}
