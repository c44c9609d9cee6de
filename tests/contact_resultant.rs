//! The ResultantCalculator contract, through the public API only.

use blockdyn::contact::resultant::ResultantCalculator;
use nalgebra::Vector3;

/// A plate resting on four corner contacts with unequal loads: the point is the centre of
/// pressure Σ F_i p_i / Σ F_i (on the plate), the torque about it vanishes, and the torque
/// about the origin is P × F. Tolerance 1e-12: a few roundings on O(1) numbers.
#[test]
fn plate_on_four_corners_has_its_centre_of_pressure() {
    let up = Vector3::z();
    let corners = [
        (Vector3::new(0.0, 0.0, 0.0), 10.0),
        (Vector3::new(2.0, 0.0, 0.0), 20.0),
        (Vector3::new(2.0, 1.0, 0.0), 30.0),
        (Vector3::new(0.0, 1.0, 0.0), 40.0),
    ];
    let mut calculator = ResultantCalculator::with_capacity(4);
    for (point, load) in corners {
        calculator.add_force(point, up, up * load);
    }
    let r = calculator.compute();
    // x = (20·2 + 30·2)/100 = 1, y = (30 + 40)/100 = 0.7.
    assert!(
        (r.point - Vector3::new(1.0, 0.7, 0.0)).norm() < 1e-12,
        "{}",
        r.point
    );
    assert_eq!(r.normal, up);
    assert_eq!(r.force, Vector3::new(0.0, 0.0, 100.0));
    assert!(r.torque.norm() < 1e-12);
    let about_origin = calculator.compute_about(&Vector3::zeros());
    assert!((about_origin.torque - r.point.cross(&r.force)).norm() < 1e-12);
    // Reuse: clear and add a single force with a pure torque (e.g. torsional friction).
    calculator.clear();
    calculator.add_force_with_torque(
        Vector3::new(0.5, 0.5, 0.0),
        up,
        Vector3::new(1.0, 0.0, 5.0),
        Vector3::new(0.0, 0.0, 0.25),
    );
    let r = calculator.compute();
    assert_eq!(r.point, Vector3::new(0.5, 0.5, 0.0));
    assert_eq!(r.torque, Vector3::new(0.0, 0.0, 0.25));
}

/// Contacts on a curved surface (a sphere of radius 1 pressed onto +z normals at different
/// heights): the reported point is the lowest projection along the resultant normal.
#[test]
fn point_on_a_non_planar_patch_is_nearest_the_source() {
    let mut calculator = ResultantCalculator::new();
    let up = Vector3::z();
    calculator.add_force(Vector3::new(-0.1, 0.0, 0.005), up, up * 1.0);
    calculator.add_force(Vector3::new(0.0, 0.0, 0.0), up, up * 2.0);
    calculator.add_force(Vector3::new(0.1, 0.0, 0.005), up, up * 1.0);
    let r = calculator.compute();
    assert!((r.point - Vector3::zeros()).norm() < 1e-12, "{}", r.point);
    assert!(r.torque.norm() < 1e-12);
}
