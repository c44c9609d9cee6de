//! Helpers shared by the geometry query tests.
#![allow(dead_code)]

use blockdyn::geometry::{query, ContactGeometry, Shape};
use nalgebra::{Isometry3, Translation3, Unit, UnitQuaternion, Vector3};

pub const EXACT: f64 = 1e-12;
pub const SMOOTH: f64 = 1e-9;

pub fn at(x: f64, y: f64, z: f64) -> Isometry3<f64> {
    Isometry3::translation(x, y, z)
}

pub fn posed(t: [f64; 3], axis: [f64; 3], angle: f64) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::new(t[0], t[1], t[2]),
        UnitQuaternion::from_axis_angle(
            &Unit::new_normalize(Vector3::new(axis[0], axis[1], axis[2])),
            angle,
        ),
    )
}

pub fn v(x: f64, y: f64, z: f64) -> Vector3<f64> {
    Vector3::new(x, y, z)
}

/// Checks separation, normal (base → follower) and, if given, the contact point; then the same
/// query with the arguments exchanged (normal reversed, the rest equal).
#[allow(clippy::too_many_arguments)]
pub fn check(
    base: &Shape,
    pb: &Isometry3<f64>,
    follower: &Shape,
    pf: &Isometry3<f64>,
    separation: f64,
    normal: Vector3<f64>,
    point: Option<Vector3<f64>>,
    tol: f64,
) -> ContactGeometry {
    let c = query(base, pb, follower, pf).unwrap();
    assert!(
        (c.separation - separation).abs() <= tol,
        "separation {} expected {separation}",
        c.separation
    );
    assert!(
        (c.normal.into_inner() - normal.normalize()).norm() <= tol.sqrt().max(tol * 10.0),
        "normal {} expected {}",
        c.normal.into_inner(),
        normal.normalize()
    );
    if let Some(p) = point {
        assert!(
            (c.point.coords - p).norm() <= tol * 10.0,
            "point {} expected {p}",
            c.point
        );
    }
    let s = query(follower, pf, base, pb).unwrap();
    assert!(
        (s.separation - c.separation).abs() <= tol,
        "swapped separation {}",
        s.separation
    );
    assert!(
        (s.normal.into_inner() + c.normal.into_inner()).norm() <= tol.sqrt().max(tol * 10.0),
        "swapped normal {}",
        s.normal.into_inner()
    );
    assert!((s.point - c.point).norm() <= tol * 10.0);
    c
}
