//! Contact onsets inside a contact group are located as exactly as the solver's event tolerance
//! allows (issue 30, speed: the cheaper handling of an onset must not move it).
//!
//! Every run is in memory; nothing is written to disk.

mod common;
use common::run_text;

/// Two balls (r = 0.05 m) fall from rest onto a floor, all three in one group with a penalty
/// law; the second ball starts higher, so it lands while the first one is in contact (and its
/// contact's small steps and events are under way). Before touching, each ball falls freely:
/// its centre height is z₀ − ½·g·t², a quadratic that dopri5 and its dense output reproduce
/// to round-off, so the onset (separation z − r through −δ, δ ≈ 2e-15 m, i.e. ~1e-15 s) is at
/// t* = √(2·(z₀ − r)/g) up to the event tolerance (1e-12·max(1, t)) and the round-off of the
/// state (~1e-16 m per step over a few hundred steps, /3 m/s): 1e-10 s bounds both with room.
#[test]
fn onsets_inside_a_group_are_located_at_the_closed_form_drop_times() {
    let (g, r, z0, z1): (f64, f64, f64, f64) = (9.81, 0.05, 0.5, 0.8);
    let text = format!(
        r#"connect = ["world.W -- floor.R", "world.W -- j0.B", "j0.F -- ball0.R", "world.W -- j1.B", "j1.F -- ball1.R"]
[model]
name = "two_drops"
stop_time = 0.45
[solver]
method = "dopri5"
[output]
log = ["j0.p", "j1.p"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, -{g}]
[blocks.floor]
type = "InfinitePlane"
[blocks.ball0]
type = "Solid"
geometry = {{ shape = "sphere", radius = {r} }}
mass = 0.1
[blocks.ball1]
type = "Solid"
geometry = {{ shape = "sphere", radius = {r} }}
mass = 0.1
[blocks.j0]
type = "SixDofJoint"
position = [0.0, 0.0, {z0}]
[blocks.j1]
type = "SixDofJoint"
position = [0.5, 0.0, {z1}]
[blocks.pile]
type = "ContactGroup"
members = ["ball*", "floor"]
normal = {{ method = "hunt_crossley", stiffness = 1e4, damping = 1.0 }}
friction = {{ method = "none" }}
"#
    );
    let run = run_text("two_drops", &text);
    let onsets = [z0, z1].map(|z| (2.0 * (z - r) / g).sqrt());
    assert!(onsets[1] < 0.45, "the second ball lands within the run");
    let events: Vec<f64> = run
        .events
        .iter()
        .filter(|e| e.block == "pile")
        .map(|e| e.time)
        .collect();
    for t_star in onsets {
        let nearest = events
            .iter()
            .map(|t| (t - t_star).abs())
            .fold(f64::INFINITY, f64::min);
        assert!(
            nearest <= 1e-10,
            "onset at {t_star} s: nearest located event {nearest:e} s away ({events:?})"
        );
    }
    // Both balls were watched and touched: the first is still in contact at the second onset.
    let z = common::column(&run.recording, "j0.p[2]");
    let lowest = z.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(
        lowest < r,
        "the first ball pressed into the floor: lowest z = {lowest}"
    );
}
