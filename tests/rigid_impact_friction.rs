//! Impacts with Coulomb friction in RigidContact (issue 27, part 4) against closed forms: a ball
//! with backspin bouncing back (models/reverse_spin_bounce.toml), a rod landing on its end
//! (sticking and sliding, e = 0), and the serial and simultaneous orders agreeing on one pair.
//!
//! Every run is in memory (`blockdyn::simulate`); nothing is written to disk.

mod common;
use common::{at, event_rows, run, run_text};

/// Standard gravity, the default of a mechanism without a MechanismConfiguration block.
const G: f64 = 9.80665;

/// models/reverse_spin_bounce.toml: a solid sphere (m = 1 kg, R = 0.1 m, I = (2/5) m R²) with
/// forward speed v_x and backspin ω_y lands with normal speed v_n. With the slip
/// s = v_x − R ω_y ≤ (7/2) μ (1 + e) v_n it sticks (Stronge §4.2): v_x⁺ = (5 v_x + 2 R ω_y)/7,
/// ω_y⁺ = ω_y + (5/7) s/R, v_z⁺ = e v_n, P_n = m (1 + e) v_n. The closed form is evaluated with
/// the recorded pre-impact velocities (the row before the event); tolerance 1e-9 relative (the
/// event is located to the solver's tolerances, the impulse itself is exact to round-off).
#[test]
fn a_ball_with_backspin_bounces_back() {
    let (m, radius, e, mu) = (1.0, 0.1, 0.8, 0.5);
    let r = run("models/reverse_spin_bounce.toml", &[]);
    let rec = &r.recording;
    let events = event_rows(rec);
    assert!(!events.is_empty(), "the ball bounces");
    let i = events[0];
    let (v_x, v_n, w_y) = (
        at(rec, "free.v[0]", i - 1),
        -at(rec, "free.v[2]", i - 1),
        at(rec, "free.w[1]", i - 1),
    );
    assert!(
        (v_n - (2.0 * G * 0.5).sqrt()).abs() < 1e-9 * v_n,
        "lands at {v_n}"
    );
    let slip = v_x - radius * w_y;
    assert!(slip <= 3.5 * mu * (1.0 + e) * v_n, "the sticking regime");
    let expected_vx = (5.0 * v_x + 2.0 * radius * w_y) / 7.0;
    let expected_w = w_y + 5.0 / 7.0 * slip / radius;
    assert!(expected_vx < -0.4, "the ball comes back: {expected_vx}");
    let tol = 1e-9 * v_n;
    assert!((at(rec, "free.v[0]", i) - expected_vx).abs() < tol);
    assert!((at(rec, "free.w[1]", i) * radius - expected_w * radius).abs() < tol);
    assert!((at(rec, "free.v[2]", i) - e * v_n).abs() < tol);
    let p_n = m * (1.0 + e) * v_n;
    assert!((at(rec, "contact.impulse", i) - p_n).abs() < 1e-9 * p_n);
    // The next bounce rolls without slipping: no friction impulse, v_x unchanged.
    if let Some(&k) = events.get(1) {
        assert!((at(rec, "free.v[0]", k) - at(rec, "free.v[0]", k - 1)).abs() < tol);
    }
}

/// A thin rod (m = 2 kg, L = 1 m, I = mL²/12 about its centre) tilted θ = 50° above the floor,
/// its lower end a small sphere (ρ = 5 mm) at the frame R, dropped without spin from 0.2 m.
fn rod(mu: f64, impacts: &str) -> String {
    let theta = 50f64.to_radians();
    // R's frame turned by −θ about y takes the rod's axis x to (cos θ, 0, sin θ).
    let (hs, hc) = (-0.5 * theta).sin_cos();
    format!(
        r#"connect = ["world.W -- floor.R", "world.W -- j.B", "j.F -- rod.R", "floor.G -- c.B", "rod.G -- c.F"]
[model]
stop_time = 0.21
[solver]
rel_tol = 1e-9
abs_tol = 1e-11
[output]
log = ["j.v", "j.w", "c.impulse"]
[blocks.world]
type = "WorldFrame"
[blocks.floor]
type = "InfinitePlane"
[blocks.rod]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.005 }}
mass = 2.0
center_of_mass = [0.5, 0.0, 0.0]
inertia = [1e-4, {i:?}, {i:?}]
[blocks.j]
type = "SixDofJoint"
position = [0.0, 0.0, 0.205]
orientation = [{hc:?}, 0.0, {hs:?}, 0.0]
[blocks.c]
type = "RigidContact"
restitution = 0.0
friction = {{ method = "coulomb", coefficient = {mu:?} }}
{impacts}
"#,
        i = 2.0 / 12.0,
    )
}

/// The rod of [`rod`] lands on its end at speed v with e = 0. Planar rows (v_x, v_z, ω_y) with
/// the contact point r = (r_x, r_z) from the centre of mass (r_x = −(L/2) cos θ,
/// r_z = −(L/2) sin θ − ρ), ω × r = ω_y (r_z, 0, −r_x): normal `v_z − r_x ω_y`, tangent
/// `v_x + r_z ω_y`; `A_nn = 1/m + r_x²/I`, `A_tt = 1/m + r_z²/I`, `A_nt = −r_x r_z/I`.
/// Sticking (μ ≥ −A_nt/A_tt): `p = −A⁻¹ v⁻ = (v/det)(A_tt, −A_nt)`; sliding (the end slides
/// towards −x, friction +x): `p_n = v/(A_nn + μ A_nt)`, `p_t = μ p_n`. Then
/// `ω_y⁺ = (−r_x p_n + r_z p_t)/I`. Tolerance 1e-9 relative (located event, exact impulse).
/// Serial and simultaneous resolution give the same answer for this single point.
#[test]
fn a_rod_landing_on_its_end_sticks_or_slides_as_impulse_momentum_predicts() {
    let (m, len, rho, theta) = (2.0, 1.0, 0.005, 50f64.to_radians());
    let i_yy = m * len * len / 12.0;
    let (rx, rz) = (-0.5 * len * theta.cos(), -0.5 * len * theta.sin() - rho);
    let (ann, att, ant) = (
        1.0 / m + rx * rx / i_yy,
        1.0 / m + rz * rz / i_yy,
        -rx * rz / i_yy,
    );
    let threshold = -ant / att;
    assert!((threshold - 0.5332).abs() < 1e-4, "{threshold}");
    for (mu, impacts) in [
        (0.8, ""),
        (0.2, ""),
        (0.8, r#"impacts = "simultaneous""#),
        (0.2, r#"impacts = "simultaneous""#),
    ] {
        let r = run_text("rod", &rod(mu, impacts));
        let rec = &r.recording;
        let i = event_rows(rec)[0];
        let v = -at(rec, "j.v[2]", i - 1);
        assert!((v - (2.0 * G * 0.2).sqrt()).abs() < 1e-9 * v);
        assert!(at(rec, "j.w[1]", i - 1).abs() < 1e-12, "no spin before");
        let (p_n, p_t) = if mu >= threshold {
            let det = ann * att - ant * ant;
            (v * att / det, -v * ant / det)
        } else {
            let p_n = v / (ann + mu * ant);
            (p_n, mu * p_n)
        };
        let omega = (-rx * p_n + rz * p_t) / i_yy;
        assert!(
            (at(rec, "c.impulse", i) - p_n).abs() < 1e-9 * p_n,
            "μ = {mu} {impacts}: P_n {} vs {p_n}",
            at(rec, "c.impulse", i)
        );
        assert!(
            (at(rec, "j.w[1]", i) - omega).abs() < 1e-9 * omega.abs(),
            "μ = {mu} {impacts}: ω⁺ {} vs {omega}",
            at(rec, "j.w[1]", i)
        );
        // The frame R is the end sphere's centre: the contact point moves at v_R + ω × (0, 0, −ρ),
        // i.e. v_x − ρ ω_y along x; zero when sticking, negative when sliding.
        let slip = at(rec, "j.v[0]", i) - rho * at(rec, "j.w[1]", i);
        if mu >= threshold {
            assert!(slip.abs() < 1e-9 * v, "sticks: {slip}");
        } else {
            let expected = p_t / m + rz * omega;
            assert!(
                slip < 0.0 && (slip - expected).abs() < 1e-9 * v,
                "slides: {slip}"
            );
        }
    }
}

/// A 1 kg brick (0.2 × 0.2 × 0.1 m) dropped flat from 0.3 m (v = √(2 g·0.3)) with a horizontal
/// velocity u = 0.5 m/s along x, e = 0.5: its four corners land at once (redundant rows, the
/// impulses not unique). Newton's target leaves every corner at v⁺_n = e·v, so it leaves flat:
/// ω⁺ = 0 and v_z⁺ = e·v (1e-9 relative: located event, exact impulse). Total normal impulse
/// P_n = m(1 + e)v. Sticking when u ≤ μ(1 + e)v (μ = 0.5: 0.5 ≤ 1.82): v_t⁺ = 0. Sliding (μ = 0.1:
/// 0.5 > 0.364): v_x⁺ = u − μ(1 + e)v along a vertex of the friction polygon, and between that and
/// u − cos(π/8)·μ(1 + e)v if the tangent basis puts x between two of its 8 directions.
#[test]
fn a_brick_landing_flat_with_friction_leaves_flat() {
    let (m, e, u, h) = (1.0, 0.5, 0.5, 0.3);
    for mu in [0.5, 0.1] {
        let text = format!(
            r#"connect = ["world.W -- floor.R", "world.W -- j.B", "j.F -- b.R", "floor.G -- c.B", "b.G -- c.F"]
[model]
stop_time = 0.3
[solver]
rel_tol = 1e-9
abs_tol = 1e-11
[output]
log = ["j.v", "j.w", "c.impulse"]
[blocks.world]
type = "WorldFrame"
[blocks.floor]
type = "InfinitePlane"
[blocks.b]
type = "Solid"
geometry = {{ shape = "brick", size = [0.2, 0.2, 0.1] }}
mass = 1.0
[blocks.j]
type = "SixDofJoint"
position = [0.0, 0.0, {z:?}]
velocity = [{u:?}, 0.0, 0.0]
[blocks.c]
type = "RigidContact"
restitution = {e:?}
friction = {{ method = "coulomb", coefficient = {mu:?} }}
"#,
            z = h + 0.05
        );
        let r = run_text("flat", &text);
        let rec = &r.recording;
        let i = event_rows(rec)[0];
        let v = -at(rec, "j.v[2]", i - 1);
        assert!((v - (2.0 * G * h).sqrt()).abs() < 1e-9 * v);
        let tol = 1e-9 * v;
        for k in 0..3 {
            let w = at(rec, &format!("j.w[{k}]"), i);
            assert!(w.abs() < tol / 0.1, "μ = {mu}: ω[{k}] = {w}");
        }
        assert!((at(rec, "j.v[2]", i) - e * v).abs() < tol);
        let p_n = m * (1.0 + e) * v;
        assert!((at(rec, "c.impulse", i) - p_n).abs() < 1e-9 * p_n);
        let (vx, vy) = (at(rec, "j.v[0]", i), at(rec, "j.v[1]", i));
        let reach = mu * (1.0 + e) * v;
        if u <= reach {
            assert!(vx.abs() < tol && vy.abs() < tol, "sticks: {vx}, {vy}");
        } else {
            let cos = (std::f64::consts::PI / 8.0).cos();
            assert!(
                vx >= u - reach - tol && vx <= u - cos * reach + tol,
                "slides: {vx} in [{}, {}]",
                u - reach,
                u - cos * reach
            );
            assert!(vy.abs() < 0.1 * reach, "mostly along x: {vy}");
        }
    }
}
