//! A ContactGroup with `onsets = "stepped"` (issue 30, speed): the error control steps over
//! contact onsets instead of ending a step at each, while the approach function and the looks
//! still keep members from passing through one another. Closed-form bounce, the thin-plate
//! graze, the pile's counts, and the refusals.
//!
//! Every run is in memory; nothing is written to disk.

mod common;
use common::{build_error, column, graze_scene, run_text, run_text_with};

/// A sphere (r = 0.05 m, m = 0.1 kg) dropped from rest, centre at z₀ = 0.2 m, onto a floor,
/// under g = 9.81 m/s², with an undamped linear spring law (k = 1e4 N/m, f = k·d for d > 0): no
/// energy is lost, so the flight after the bounce is closed form. It touches at
/// t_f = √(2(z₀ − r)/g) with speed v = g·t_f. In contact d'' = g − (k/m)·d from d = 0, d' = v:
/// d = δ + A·sin(ω(t − t_f) − φ) with ω = √(k/m), δ = m·g/k, A = √(δ² + (v/ω)²), sin φ = δ/A;
/// d returns to 0 after T = (π + 2φ)/ω with speed v upwards (the motion is symmetric). After
/// that, z(t) = r + v·(t − t₁) − ½g(t − t₁)², t₁ = t_f + T, until it lands again at t₁ + 2v/g.
fn bounce(onsets: &str) -> String {
    ball_drop(&format!(
        "normal = {{ method = \"linear_spring_damper\", stiffness = 1e4, damping = 0.0 }}\nfriction = {{ method = \"none\" }}\nonsets = \"{onsets}\""
    ))
}

/// The ball of [`bounce`] over its floor, both in the group `group`, whose table's other lines
/// are `group_keys`.
fn ball_drop(group_keys: &str) -> String {
    format!(
        r#"connect = ["world.W -- floor.R", "world.W -- free.B", "free.F -- ball.R"]
[model]
name = "bounce"
stop_time = 0.5
[solver]
method = "dopri5"
rel_tol = 1e-8
abs_tol = 1e-10
[output]
log = ["free.p", "free.v"]
sample_time = 0.01
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, -9.81]
[blocks.floor]
type = "InfinitePlane"
[blocks.ball]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 0.1
[blocks.free]
type = "SixDofJoint"
position = [0.0, 0.0, 0.2]
[blocks.group]
type = "ContactGroup"
members = ["ball", "floor"]
{group_keys}
"#
    )
}

/// The bounce above, stepped over and located, at rel_tol 1e-8 (abs_tol 1e-10): the height in
/// the flight after the bounce is the closed form's to 5e-8 m with located onsets (measured
/// 1.4e-8 m: the global error of ~100 steps at that tolerance) and to 1e-6 m with stepped ones
/// (measured 1.4e-7 m, growing linearly through the flight: a speed error of ~5e-7 m/s out of the
/// bounce). A step across the onset's kink (the force's slope jumps from 0 to k) passes an error
/// test whose estimate assumes a smooth solution, so at equal tolerance a stepped onset is about
/// ten times less accurate than a located one: the price of not ending a step there (why
/// "located" is the default). Each bound leaves a factor 4–7. The stepped run locates no
/// crossing; the located one locates both onsets' (touch and release).
#[test]
fn a_bounce_with_stepped_onsets_matches_the_closed_form_flight() {
    let (g, r, z0, m, k): (f64, f64, f64, f64, f64) = (9.81, 0.05, 0.2, 0.1, 1e4);
    let t_f = (2.0 * (z0 - r) / g).sqrt();
    let v = g * t_f;
    let omega = (k / m).sqrt();
    let delta = m * g / k;
    let amplitude = (delta * delta + (v / omega).powi(2)).sqrt();
    let phi = (delta / amplitude).asin();
    let t1 = t_f + (std::f64::consts::PI + 2.0 * phi) / omega;
    let t_land = t1 + 2.0 * v / g;
    for (onsets, bound) in [("stepped", 1e-6), ("located", 5e-8)] {
        let run = run_text("bounce", &bounce(onsets));
        let z = column(&run.recording, "free.p[2]");
        let mut checked = 0;

        for (i, &t) in run.recording.times.iter().enumerate() {
            if t > t1 + 1e-3 && t < t_land - 1e-3 {
                let s = t - t1;
                let want = r + v * s - 0.5 * g * s * s;
                assert!(
                    (z[i] - want).abs() < bound,
                    "{onsets}: z({t}) = {} against {want}",
                    z[i]
                );
                checked += 1;
            }
        }
        assert!(checked > 10, "{onsets}: only {checked} rows in the flight");
        if onsets == "stepped" {
            assert_eq!(run.stats.zero_crossings, 0, "a stepped onset was located");
        } else {
            assert!(run.stats.zero_crossings >= 2, "the located onsets were not");
        }
    }
}

/// The bounce above with a damper (b = 5 N·s/m: f = max(0, k·d + b·ḋ)), whose force jumps to
/// b·v ≈ 8.6 N at the onset: a discontinuity inside a step, which the error control meets by
/// rejecting and shrinking the step around it. The stepped run stays within twice the located
/// run's steps (measured 167 against 146) and follows it: the heights at the common sample rows
/// agree to 2e-6 m (measured 3.5e-7 m, about the undamped case's stepped error, 1.4e-7 m, over
/// two bounces).
#[test]
fn a_damped_bounce_with_stepped_onsets_costs_steps_not_accuracy() {
    let damped = |onsets: &str| {
        bounce(onsets).replace(
            "stiffness = 1e4, damping = 0.0",
            "stiffness = 1e4, damping = 5.0",
        )
    };
    let located = run_text("damped", &damped("located"));
    let stepped = run_text("damped", &damped("stepped"));
    let (zl, zs) = (
        column(&located.recording, "free.p[2]"),
        column(&stepped.recording, "free.p[2]"),
    );
    assert!(
        stepped.stats.steps < 2 * located.stats.steps,
        "stepped {} steps against located {}",
        stepped.stats.steps,
        located.stats.steps
    );
    let mut compared = 0;
    for (i, &t) in located.recording.times.iter().enumerate() {
        if let Some(j) = stepped.recording.times.iter().position(|&u| u == t) {
            assert!(
                (zl[i] - zs[j]).abs() < 2e-6,
                "z({t}): {} against {}",
                zs[j],
                zl[i]
            );
            compared += 1;
        }
    }
    assert!(compared > 40, "only {compared} common rows");
}

/// The graze of tests/contact_group.rs (a 10 m/s sphere, r = 5 mm, past the edge of a 4 mm
/// plate, overlapping it for ~1 ms while free flight takes 0.05 s steps) with stepped onsets, at
/// the default margin and at wide ones: the looks still bound every step so that the sphere
/// cannot cross the plate within one, so it is deflected (v_z > 1 mm/s after), as with located
/// onsets; with zero crossings off it flies through (that case is tests/contact_group.rs's).
#[test]
fn a_fast_sphere_grazing_a_thin_plate_makes_contact_with_stepped_onsets() {
    let scene = |margin: &str| graze_scene(&format!("onsets = \"stepped\"\n{margin}"));
    for margin in ["", "margin = 0.01", "margin = 0.02", "margin = 0.05"] {
        // The default tolerances and the loose ones stepped onsets are advised with.
        for rel_tol in [None, Some("0.03"), Some("0.1")] {
            let set: Vec<String> = rel_tol
                .map(|r| vec![format!("solver.rel_tol={r}")])
                .unwrap_or_default();
            let set: Vec<&str> = set.iter().map(String::as_str).collect();
            let run = run_text_with("graze_stepped", &scene(margin), &set);
            let vz = column(&run.recording, "free.v[2]");
            assert!(
                *vz.last().unwrap() > 1e-3,
                "{margin:?}, rel_tol {rel_tol:?}: not deflected: v_z = {vz:?}"
            );
        }
    }
}

/// models/sphere_pile.toml (64 spheres into a box) at rel_tol 0.03: with stepped onsets the
/// run locates fewer than 1 % of the crossings the located run does and takes fewer steps
/// (measured: 0 against 1,571 crossings, 2,337 against 4,589 steps; BENCHMARKS.md, "Stepped
/// onsets"). Counts, not times: they are deterministic. And nothing is stepped through: the two
/// logged spheres (free0, free63) end inside the box (|x|, |y| < 0.3 m − r) and on or above the
/// floor (z > r − 5 mm, where 5 mm is the penetration that holds 20 spheres' weight at
/// k = 1e4 N/m, ten times what the settled pile's lowest spheres carry).
#[test]
fn the_pile_with_stepped_onsets_ends_no_step_at_an_onset() {
    let text = std::fs::read_to_string("models/sphere_pile.toml").unwrap();
    let loose = ["solver.rel_tol=0.03", "solver.abs_tol=0.0003"];
    let located = run_text_with("pile", &text, &loose);
    let mut with_stepped = loose.to_vec();
    with_stepped.push("pile.onsets=stepped");
    let stepped = run_text_with("pile", &text, &with_stepped);
    let (l, s) = (&located.stats, &stepped.stats);
    assert!(
        l.zero_crossings > 1000,
        "located: {} crossings",
        l.zero_crossings
    );
    assert!(
        s.zero_crossings * 100 < l.zero_crossings,
        "stepped located {} crossings against {}",
        s.zero_crossings,
        l.zero_crossings
    );
    assert!(
        s.steps < l.steps,
        "stepped {} steps against {}",
        s.steps,
        l.steps
    );
    let r = 0.05;
    for ball in ["free0", "free63"] {
        let p = |k: usize| {
            *column(&stepped.recording, &format!("{ball}.p[{k}]"))
                .last()
                .unwrap()
        };
        let (x, y, z) = (p(0), p(1), p(2));
        assert!(
            x.abs() < 0.3 - r + 5e-3 && y.abs() < 0.3 - r + 5e-3,
            "{ball} left the box: {x}, {y}"
        );
        assert!(z > r - 5e-3, "{ball} went through the floor: z = {z}");
    }
}

/// `onsets = "stepped"` keeps the approach function and the looks that `zero_crossings = false`
/// turns off, so the two together are refused, naming the fix; a rigid group has no onsets to
/// step over and refuses the key as a penalty-only parameter.
#[test]
fn stepped_onsets_without_zero_crossings_and_in_a_rigid_group_are_refused() {
    let group = ball_drop;
    let e = build_error(&group("onsets = \"stepped\"\nzero_crossings = false"));
    assert!(
        e.contains("onsets = \"stepped\" needs zero_crossings = true"),
        "{e}"
    );
    assert!(e.contains("remove `zero_crossings = false`"), "{e}");
    let e = build_error(&group("contact = \"rigid\"\nonsets = \"stepped\""));
    assert!(
        e.contains("'onsets' is a parameter of penalty contact"),
        "{e}"
    );
    let e = build_error(&group("onsets = \"sometimes\""));
    assert!(e.contains("located") && e.contains("stepped"), "{e}");
}
