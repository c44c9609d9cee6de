//! Rims lying level and tilting (issue 26): a whole rim below the plane is sampled on the body,
//! so neither a round-off tilt's direction nor the blend into the deepest-direction sampling
//! makes the wrench jump.

use nalgebra::Vector3;

use super::tests::{at, manifold, posed};
use super::*;

/// The wrench (force, moment about the body's centre `c`) of a rim contact under the linear law
/// (k = 1e5 N/m, no damping) and Stribeck friction (μ = 0.3, v_s = 1e-4 m/s), on a body sliding
/// at 0.5 m/s along x and spinning at 20 rad/s about z (the puck of issue 26).
fn puck_wrench(m: &ContactManifold, c: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
    use crate::contact::friction::FrictionLaw;
    use crate::contact::normal_force::NormalForceLaw;
    let law = NormalForceLaw::LinearSpringDamper {
        stiffness: 1e5,
        damping: 0.0,
    };
    let friction = FrictionLaw::Stribeck {
        static_coefficient: 0.3,
        dynamic_coefficient: 0.3,
        stiction_velocity: 1e-4,
    };
    let (v, w) = (Vector3::new(0.5, 0.0, 0.0), Vector3::new(0.0, 0.0, 20.0));
    let (force, moment_origin) = crate::contact::manifold_force::manifold_wrench(
        &law,
        &friction,
        &m.normal().into_inner(),
        m.points(),
        |p| v + w.cross(&(p - c)),
    );
    (force, moment_origin - c.cross(&force))
}

/// A cylinder (r = 5 cm, 2 cm thick) or a disk face lying level at the depth `depth`, tilted by
/// `tilt` (rad) about the horizontal axis at `azimuth` (rad from x).
fn level_rim(
    shape: &Shape,
    half_thickness: f64,
    depth: f64,
    tilt: f64,
    azimuth: f64,
) -> (ContactManifold, Vector3<f64>) {
    let pose = if tilt == 0.0 {
        at(0.0, 0.0, half_thickness - depth)
    } else {
        let axis = Vector3::new(azimuth.cos(), azimuth.sin(), 0.0);
        posed(0.0, 0.0, half_thickness - depth, axis, tilt)
    };
    let m = manifold(&Shape::InfinitePlane, &at(0.0, 0.0, 0.0), shape, &pose);
    (m, pose.translation.vector)
}

#[test]
fn a_level_rim_does_not_depend_on_the_direction_of_a_round_off_tilt() {
    // Issue 26: a puck lying exactly level stalled at 1e-8 s steps. Its samples were placed from
    // the rim's deepest direction, which a tilt of 1e-12 rad decides: the 8 samples turned by up
    // to π/8 between evaluations, and with them each sample's friction on the sliding, spinning
    // face. Now a whole rim's samples are fixed on the body until its high side nears the plane,
    // so a tilt ε changes the wrench by O(k·r·ε) (the depths' change), whatever its direction.
    let depth = 0.2 * 9.81 / 1e5;
    for (shape, half) in [
        (Shape::cylinder(0.05, 0.02).unwrap(), 0.01),
        (Shape::disk(0.05).unwrap(), 0.0),
    ] {
        let (m0, c0) = level_rim(&shape, half, depth, 0.0, 0.0);
        let (f0, t0) = puck_wrench(&m0, &c0);
        assert!((f0.z - 1e5 * depth).abs() < 1e-9, "{f0:?}");
        for tilt in [1e-14, 1e-12, 1e-10, 1e-8] {
            for k in 0..16 {
                let azimuth = 0.3 + k as f64 * std::f64::consts::TAU / 16.0;
                let (m, c) = level_rim(&shape, half, depth, tilt, azimuth);
                let (f, t) = puck_wrench(&m, &c);
                // The depths change by at most r·ε = 0.05·ε: the normal forces by k·r·ε, the
                // friction by μ times that, moments by r times those; a factor 10 of slack for
                // the centre's position.
                let bound = 10.0 * 1e5 * 0.05 * tilt + 1e-12;
                assert!(
                    (f - f0).norm() < bound,
                    "tilt {tilt}, azimuth {azimuth}: {f:?} vs {f0:?}"
                );
                assert!(
                    (t - t0).norm() < bound,
                    "tilt {tilt}, azimuth {azimuth}: {t:?} vs {t0:?}"
                );
            }
        }
    }
}

#[test]
fn a_rim_tilting_from_level_to_its_edge_changes_its_wrench_continuously() {
    // The samples fixed on the body (level) and those from the deepest direction (on an arc) are
    // blended between τ = r·t/d_c = 1/2 and 1. Sweep the tilt from 0 to 3·d_c/r (past the point
    // where the high side leaves the plane) and compare the largest change between neighbouring
    // tilts at two resolutions: a continuous wrench halves it when the spacing halves; a jump
    // keeps it.
    let depth = 0.2 * 9.81 / 1e5;
    for (shape, half) in [
        (Shape::cylinder(0.05, 0.02).unwrap(), 0.01),
        (Shape::disk(0.05).unwrap(), 0.0),
    ] {
        let largest_step = |n: usize| {
            let mut previous: Option<(Vector3<f64>, Vector3<f64>)> = None;
            let mut largest = 0.0f64;
            for i in 0..=n {
                let tilt = 3.0 * depth / 0.05 * i as f64 / n as f64;
                let (m, c) = level_rim(&shape, half, depth, tilt, 0.7);
                let w = puck_wrench(&m, &c);
                if let Some(p) = previous {
                    largest = largest.max((w.0 - p.0).norm() + (w.1 - p.1).norm() / 0.05);
                }
                previous = Some(w);
            }
            largest
        };
        let (coarse, fine) = (largest_step(1500), largest_step(3000));
        assert!(
            fine < 0.65 * coarse,
            "largest change {coarse} at 1500 steps, {fine} at 3000"
        );
    }
}
