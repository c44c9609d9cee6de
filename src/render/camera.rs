//! The pinhole camera: where it stands, the perspective projection to pixels, and the automatic
//! framing of a set of points.
//!
//! Camera frame C (right-handed): origin at the eye, x to the right of the image, y down the
//! image, z forward (the viewing direction). A point p_camera = (x, y, z) with z > 0 lands on
//! pixel (cx + f·x/z, cy + f·y/z), where (cx, cy) is the image centre and f = (height/2)/tan(fov_y/2)
//! the focal length in pixels (square pixels). Depth is kept as 1/z, which is affine in screen
//! space, so that it can be interpolated linearly across a triangle.

use nalgebra::{Point3, Vector3};

/// Vertical field of view of every camera, rad (35°: a mild perspective).
pub const FIELD_OF_VIEW_Y: f64 = 35.0 * std::f64::consts::PI / 180.0;
/// Fraction of the half-image the automatic framing may fill (a margin around the motion).
const FILL: f64 = 0.9;

pub use crate::output::image::{Camera, CameraError};

/// A camera ready to project into an image of a given size.
#[derive(Clone, Debug)]
pub struct View {
    eye: Point3<f64>,
    /// Camera axes in World: x (right), y (down), z (forward), unit, orthogonal, right-handed.
    x_world: Vector3<f64>,
    y_world: Vector3<f64>,
    z_world: Vector3<f64>,
    /// Focal length, px.
    focal: f64,
    cx: f64,
    cy: f64,
}

impl View {
    /// The view of `camera` in a `width`×`height` image.
    pub fn new(camera: &Camera, width: u32, height: u32) -> Result<View, CameraError> {
        let [x_world, y_world, z_world] = camera.axes()?;
        Ok(View {
            eye: camera.eye,
            x_world,
            y_world,
            z_world,
            focal: 0.5 * height as f64 / (0.5 * FIELD_OF_VIEW_Y).tan(),
            cx: 0.5 * width as f64,
            cy: 0.5 * height as f64,
        })
    }

    /// A World point in the camera frame C.
    pub fn to_camera(&self, p_world: &Point3<f64>) -> Vector3<f64> {
        let d = p_world - self.eye;
        Vector3::new(
            d.dot(&self.x_world),
            d.dot(&self.y_world),
            d.dot(&self.z_world),
        )
    }

    /// A World direction in the camera frame C.
    pub fn direction_to_camera(&self, v_world: &Vector3<f64>) -> Vector3<f64> {
        Vector3::new(
            v_world.dot(&self.x_world),
            v_world.dot(&self.y_world),
            v_world.dot(&self.z_world),
        )
    }

    /// Pixel coordinates (x right, y down; pixel (i, j) covers [i, i+1)×[j, j+1)) and 1/z of a
    /// point of C in front of the camera (z > 0).
    pub fn project(&self, p_camera: &Vector3<f64>) -> [f64; 3] {
        let inv_z = 1.0 / p_camera.z;
        [
            self.cx + self.focal * p_camera.x * inv_z,
            self.cy + self.focal * p_camera.y * inv_z,
            inv_z,
        ]
    }

    /// Focal length, px.
    pub fn focal(&self) -> f64 {
        self.focal
    }
}

/// A camera that shows every point of `points_world` in a `width`×`height` image: it looks at
/// the centre of their bounding box from a three-quarter view (mostly from −y' of a basis x', y'
/// perpendicular to `up`, a little from +x', from 27° above), at the distance where the point
/// farthest out in the image fills `FILL` of the half-image. Without points it frames the
/// unit cube about the origin.
pub fn auto_camera(
    points_world: &[Point3<f64>],
    up: &Vector3<f64>,
    width: u32,
    height: u32,
) -> Camera {
    auto_camera_over(|f| points_world.iter().for_each(f), up, width, height)
}

/// [`auto_camera`] over the points `visit` hands to its argument (twice: once for their bounding
/// box, once for the distance), so that a long animation's points need not be stored.
pub fn auto_camera_over(
    visit: impl Fn(&mut dyn FnMut(&Point3<f64>)),
    up: &Vector3<f64>,
    width: u32,
    height: u32,
) -> Camera {
    let up = up.try_normalize(1e-12).unwrap_or_else(Vector3::z);
    let (mut lo, mut hi) = (
        Vector3::repeat(f64::INFINITY),
        Vector3::repeat(f64::NEG_INFINITY),
    );
    visit(&mut |p: &Point3<f64>| {
        if p.iter().all(|c| c.is_finite()) {
            lo = lo.inf(&p.coords);
            hi = hi.sup(&p.coords);
        }
    });
    if lo.x > hi.x {
        (lo, hi) = (Vector3::repeat(-0.5), Vector3::repeat(0.5));
    }
    let center = Point3::from(0.5 * (lo + hi));
    // x', y' perpendicular to up: x' is World x made perpendicular when possible.
    let seed = if up.cross(&Vector3::x()).norm() > 0.1 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let x_h = (seed - up * up.dot(&seed)).normalize();
    let y_h = up.cross(&x_h);
    let to_eye = (0.45 * x_h - 1.0 * y_h + 0.58 * up).normalize();
    let forward = -to_eye;
    let right = forward.cross(&up).normalize();
    let up_img = right.cross(&forward);
    let tan_v = FILL * (0.5 * FIELD_OF_VIEW_Y).tan();
    let tan_h = tan_v * width as f64 / height as f64;
    // A point at offset (x, y, z) from the centre in the camera axes is at depth D + z from an
    // eye at distance D: it fits when |x| ≤ tan_h·(D + z) and |y| ≤ tan_v·(D + z).
    let extent = (hi - lo).norm().max(1e-3);
    let mut distance = 0.5 * extent;
    visit(&mut |p: &Point3<f64>| {
        if p.iter().all(|c| c.is_finite()) {
            let d = p - center;
            let (x, y, z) = (d.dot(&right), d.dot(&up_img), d.dot(&forward));
            distance = distance
                .max(x.abs() / tan_h - z)
                .max(y.abs() / tan_v - z)
                .max(0.05 * extent - z);
        }
    });
    Camera {
        eye: center + to_eye * distance,
        target: center,
        up,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_projects_to_the_image_centre_and_up_is_up() {
        let camera = Camera {
            eye: Point3::new(0.0, -5.0, 0.0),
            target: Point3::origin(),
            up: Vector3::z(),
        };
        let view = View::new(&camera, 640, 480).unwrap();
        let c = view.project(&view.to_camera(&Point3::origin()));
        assert_eq!([c[0], c[1]], [320.0, 240.0]);
        assert!((c[2] - 0.2).abs() < 1e-15);
        // +z in the World is up in the image (smaller row), +x to the right.
        let above = view.project(&view.to_camera(&Point3::new(0.0, 0.0, 1.0)));
        let right = view.project(&view.to_camera(&Point3::new(1.0, 0.0, 0.0)));
        assert!(above[1] < 240.0 && right[0] > 320.0);
    }

    #[test]
    fn bad_cameras_are_refused() {
        let at = |eye: [f64; 3], up: [f64; 3]| {
            View::new(
                &Camera {
                    eye: Point3::from(eye),
                    target: Point3::origin(),
                    up: Vector3::from(up),
                },
                64,
                48,
            )
            .err()
        };
        assert_eq!(
            at([0.0; 3], [0.0, 0.0, 1.0]),
            Some(CameraError::EyeAtTarget)
        );
        assert_eq!(
            at([0.0, 0.0, 3.0], [0.0, 0.0, 1.0]),
            Some(CameraError::UpAlongView)
        );
        assert_eq!(
            at([f64::NAN, 0.0, 3.0], [0.0, 0.0, 1.0]),
            Some(CameraError::NotFinite)
        );
    }

    /// Every framed point lands inside the image, and the farthest out nearly touches the border.
    #[test]
    fn auto_camera_frames_every_point() {
        let points: Vec<Point3<f64>> = (0..50)
            .map(|k| {
                let t = k as f64 * 0.1;
                Point3::new(2.0 * t, 0.3 * t.sin(), 1.0 - 0.1 * t * t)
            })
            .collect();
        let camera = auto_camera(&points, &Vector3::z(), 640, 480);
        let view = View::new(&camera, 640, 480).unwrap();
        let mut margin = f64::INFINITY;
        for p in &points {
            let q = view.project(&view.to_camera(p));
            assert!(q[2] > 0.0);
            let m = q[0].min(640.0 - q[0]).min(q[1]).min(480.0 - q[1]);
            assert!(m > 0.0, "{p} lands outside: {q:?}");
            margin = margin.min(m);
        }
        // FILL = 0.9 leaves 5 % of the width (32 px) or of the height (24 px) on the tightest side.
        assert!(margin < 33.0, "margin {margin}");
    }
}
