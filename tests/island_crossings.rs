//! The contact group's zero crossings from its inputs (a g without the group's forces) under
//! an island's restriction (issue 30): each island's solver asks for g with its evaluations
//! restricted to its bodies, and the group then gives the separations of its island's pairs
//! only (`ContactGroup::crossing_separations`). The crossings are located where the global
//! integration locates them.

mod common;

/// Two balls 10 m apart over one floor, one contact group: `a` dropped from 0.15 m (its
/// centre; radius 0.05 m), `b` from 0.20 m. Islands on or off.
fn model(islands: bool) -> String {
    format!(
        r#"connect = ["world.W -- floor.R", "world.W -- ja.B", "ja.F -- ba.R", "world.W -- jb.B", "jb.F -- bb.R"]

[model]
stop_time = 0.2

[solver]
rel_tol = 1e-8
abs_tol = 1e-10
islands = {islands}

[blocks.world]
type = "WorldFrame"

[blocks.floor]
type = "InfinitePlane"

[blocks.ja]
type = "SixDofJoint"
position = [0.0, 0.0, 0.15]

[blocks.ba]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 0.1

[blocks.jb]
type = "SixDofJoint"
position = [10.0, 0.0, 0.2]

[blocks.bb]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 0.1

[blocks.group]
type = "ContactGroup"
members = ["b*", "floor"]
normal = {{ method = "hunt_crossley", stiffness = 1e4, damping = 1.0 }}
friction = {{ method = "stribeck", static = 0.5, dynamic = 0.5, stiction_velocity = 0.01 }}
"#
    )
}

/// Each ball's touchdown on the floor ends a free fall (standard gravity, 9.80665 m/s²):
/// positions quadratic in t, which dopri5 and its dense output reproduce to round-off whatever
/// the steps, so each touchdown (the pair's separation crossing) lies at sqrt(2·gap/g):
/// a at 0.1428 s, b at 0.1749 s (gaps 0.10 and 0.15 m), in both runs to 1e-9 s (round-off of
/// the states over ~100 steps, far above the location bracket of 1e-12·max(1, t) s). And the
/// island run locates each where the global run does to 3e-12 s: twice the bracket plus
/// round-off. The island run's g at a point whose outputs are not current comes from the
/// inputs, restricted to the island's bodies. Other crossings (a's rebound) follow the
/// contact's dynamics, which the two runs integrate with different steps (equal to the
/// tolerances, not to the bracket), and are not compared.
#[test]
fn an_island_locates_the_group_s_crossings_where_the_global_run_does() {
    let global = common::run_text("global.toml", &model(false));
    let split = common::run_text("islands.toml", &model(true));
    let counts = match &split.islands {
        Some(Ok(counts)) => counts.clone(),
        other => panic!("the run should have used islands: {other:?}"),
    };
    assert!(counts.initial_islands >= 2, "{counts:?}");
    let times = |r: &blockdyn::RunResult| -> Vec<f64> { r.events.iter().map(|e| e.time).collect() };
    let (g, s) = (times(&global), times(&split));
    let nearest = |events: &[f64], t: f64| {
        let k = (0..events.len())
            .min_by(|&i, &j| (events[i] - t).abs().total_cmp(&(events[j] - t).abs()))
            .unwrap_or_else(|| panic!("no crossing near {t}"));
        events[k]
    };
    for gap in [0.10, 0.15] {
        let touchdown = (2.0 * gap / 9.80665f64).sqrt();
        let (a, b) = (nearest(&g, touchdown), nearest(&s, touchdown));
        assert!(
            (a - touchdown).abs() < 1e-9,
            "global {a} vs {touchdown}: {g:?}"
        );
        assert!(
            (b - touchdown).abs() < 1e-9,
            "islands {b} vs {touchdown}: {s:?}"
        );
        assert!(
            (a - b).abs() <= 3e-12,
            "global {a}, islands {b}: {:e} s",
            a - b
        );
    }
}
