//! The settings of the image outputs (the animation's GIF and the viewer page) that the model
//! reads and the renderer draws with: the image's size limits and default, the frame rate, and
//! the camera. Plain values, so that the model's `[output]` settings name no renderer type.

use nalgebra::{Point3, Vector3};

/// Default image size, px (`[output] animation_size`).
pub const DEFAULT_SIZE: [u32; 2] = [640, 480];
/// Smallest accepted image side, px.
pub const MIN_SIDE: u32 = 32;
/// Largest accepted image side, px (bounds the framebuffers to 4096² × 5 bytes).
pub const MAX_SIDE: u32 = 4096;
/// Default frames per second of simulated time, and the playback rate (`[output]
/// animation_fps`): 25 frames/s, shown 4/100 s each (GIF delays are whole hundredths).
pub const DEFAULT_FRAME_RATE: f64 = 25.0;

/// Where the camera stands and looks (World frame, m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The eye, World frame, m.
    pub eye: Point3<f64>,
    /// The point looked at, World frame, m.
    pub target: Point3<f64>,
    /// Shown upwards in the image (World frame; need not be perpendicular to the viewing
    /// direction).
    pub up: Vector3<f64>,
}

/// Why a camera cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CameraError {
    /// The eye is the target (no viewing direction).
    #[error("the camera's eye and target are the same point")]
    EyeAtTarget,
    /// `up` gives no image direction.
    #[error("the camera's up vector is zero or parallel to its viewing direction")]
    UpAlongView,
    /// A coordinate is NaN or infinite.
    #[error("the camera's eye, target or up is not finite")]
    NotFinite,
}

impl Camera {
    /// The camera frame C's axes in World, unit and orthogonal, right-handed: `[x, y, z]` with
    /// z = (target − eye)/|target − eye| forward, x = (z × up)/|z × up| to the right of the
    /// image and y = z × x down it. Refused: a non-finite coordinate, an eye within
    /// 1e-12·(1 + |eye|) m of the target, and an `up` within 1e-9·|up| of the viewing direction
    /// (or zero).
    pub fn axes(&self) -> Result<[Vector3<f64>; 3], CameraError> {
        let finite = self
            .eye
            .iter()
            .chain(self.target.iter())
            .all(|v| v.is_finite())
            && self.up.iter().all(|v| v.is_finite());
        if !finite {
            return Err(CameraError::NotFinite);
        }
        let forward = self.target - self.eye;
        let z_world = forward
            .try_normalize(1e-12 * (1.0 + self.eye.coords.norm()))
            .ok_or(CameraError::EyeAtTarget)?;
        let x_world = z_world
            .cross(&self.up)
            .try_normalize(1e-9 * self.up.norm().max(f64::MIN_POSITIVE))
            .ok_or(CameraError::UpAlongView)?;
        let y_world = z_world.cross(&x_world);
        Ok([x_world, y_world, z_world])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An eye on −y looking at the origin with z up, by hand: forward z_C = (0, 1, 0),
    /// x_C = z_C × up = (0, 1, 0) × (0, 0, 1) = (1, 0, 0), y_C = z_C × x_C = (0, 0, −1) (down
    /// the image is down in World); and each refusal.
    #[test]
    fn the_axes_of_a_camera_looking_along_y() {
        let c = Camera {
            eye: Point3::new(0.0, -3.0, 0.0),
            target: Point3::origin(),
            up: Vector3::z(),
        };
        let [x, y, z] = c.axes().unwrap();
        // Exact: every product is of 0s and 1s.
        assert_eq!((x, y, z), (Vector3::x(), -Vector3::z(), Vector3::y()));
        let at_target = Camera { eye: c.target, ..c };
        assert_eq!(at_target.axes(), Err(CameraError::EyeAtTarget));
        let up_along = Camera {
            up: Vector3::y(),
            ..c
        };
        assert_eq!(up_along.axes(), Err(CameraError::UpAlongView));
        let nan = Camera {
            up: Vector3::new(f64::NAN, 0.0, 1.0),
            ..c
        };
        assert_eq!(nan.axes(), Err(CameraError::NotFinite));
    }
}
