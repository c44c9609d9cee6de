//! Islands (issue 30, part 3) with bodies driven toward another island: two balls in zero
//! gravity, one pushed (a force or its joint's actuator) toward the other, or both pushed in a
//! chase. A body moved by a force other than gravity and contact can come within a group's
//! margin of another island's body inside a stretch: the island's event cuts the stretch and
//! the islands merge there (a cut), and a contact a cut does not catch in time makes the
//! stretch run again with the islands merged. Each run equals the global integration to the
//! tolerance.

mod common;

use blockdyn::output::Recording;

fn column(rec: &Recording, name: &str) -> Vec<f64> {
    common::column(rec, name)
}

/// Two balls (radius 0.05 m, 0.1 kg) in zero gravity, one contact group for both (margin 2 mm,
/// so its look-ahead reach is 16 mm), a at the origin, b at `b_at`, both at rest; `drive` is
/// extra model text that moves a (an external force or an actuator; its first line extends
/// `connect`), `a_joint` extra parameters of a's joint. Rows every 0.1 s over 0.6 s (the first
/// stretch runs from rest to the row at 0.1 s: nothing moves at t = 0, so the group's next look
/// is never) at rel_tol 1e-8 (as the comparisons above).
fn driven_pair(a_joint: &str, b_at: [f64; 3], drive: &str, islands: bool) -> String {
    format!(
        r#"connect = ["world.W -- ja.B", "ja.F -- a.R", "world.W -- jb.B", "jb.F -- b.R", {drive_lines}]
[model]
stop_time = 0.6
[solver]
rel_tol = 1e-8
abs_tol = 1e-10
islands = {islands}
[output]
sample_time = 0.1
log = ["ja.p", "jb.p", "ja.v", "jb.v"]
[blocks.world]
type = "WorldFrame"
[blocks.gravity]
type = "MechanismConfiguration"
gravity = [0.0, 0.0, 0.0]
[blocks.ja]
type = "SixDofJoint"
{a_joint}
[blocks.a]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 0.1
[blocks.jb]
type = "SixDofJoint"
position = [{}, {}, {}]
[blocks.b]
type = "Solid"
geometry = {{ shape = "sphere", radius = 0.05 }}
mass = 0.1
[blocks.group]
type = "ContactGroup"
members = ["a", "b"]
margin = 0.002
normal = {{ method = "hunt_crossley", stiffness = 1e4, damping = 1.0 }}
friction = {{ method = "stribeck", static = 0.5, dynamic = 0.5, stiction_velocity = 0.01 }}
{drive_blocks}
"#,
        b_at[0],
        b_at[1],
        b_at[2],
        drive_lines = drive.lines().next().unwrap_or(""),
        drive_blocks = drive.lines().skip(1).collect::<Vec<_>>().join("\n"),
    )
}

/// A constant 1 N along x on a, through an ExternalForceTorque (first line: the connections).
const PUSH: &str = "\"ja.F -- push.R\", \"f.out -> push.force\"
[blocks.push]
type = \"ExternalForceTorque\"
[blocks.f]
type = \"Constant\"
value = [1.0, 0.0, 0.0]";

/// The same 1 N along x as the joint's actuation input t ([force in B; torque in F]).
const ACTUATOR: &str = "\"f.out -> ja.t\"
[blocks.f]
type = \"Constant\"
value = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]";

/// The largest difference between the positions of joint `name` in `ra` and `rb` at the rows
/// at k·0.1 s (7 over 0.6 s; the last row at each such time).
fn max_gap_rows(ra: &Recording, rb: &Recording, name: &str) -> f64 {
    let rows = |r: &Recording| -> Vec<usize> {
        (0..r.len())
            .filter(|&i| {
                let k = r.times[i] / 0.1;
                (k - k.round()).abs() < 1e-9 && r.times.get(i + 1) != Some(&r.times[i])
            })
            .collect()
    };
    let (ga, gb) = (rows(ra), rows(rb));
    assert_eq!(ga.len(), 7, "a row every 0.1 s over 0.6 s");
    let mut worst = 0.0f64;
    for axis in 0..3 {
        let ca = column(ra, &format!("j{name}.p[{axis}]"));
        let cb = column(rb, &format!("j{name}.p[{axis}]"));
        for (&i, &j) in ga.iter().zip(&gb) {
            assert_eq!(ra.times[i], rb.times[j]);
            worst = worst.max((ca[i] - cb[j]).abs());
        }
    }
    worst
}

/// Runs `driven_pair` with islands and globally; checks that the island run cut its stretch
/// at the approach (no contact across islands, no stretch run again merged, no note, the
/// islands merged) and equals the global run to 1e-6 m at every 0.1 s row (the tolerance of
/// the comparisons in tests/islands.rs: the
/// contact's penetrations, ~1 mm at 0.9 m/s, are 1000× larger, so a contact felt by one ball
/// only, or late, fails it). Returns the island run.
fn equals_global(a_joint: &str, b_at: [f64; 3], drive: &str) -> blockdyn::RunResult {
    let global = common::run_text("global.toml", &driven_pair(a_joint, b_at, drive, false));
    let split = common::run_text("islands.toml", &driven_pair(a_joint, b_at, drive, true));
    let counts = match &split.islands {
        Some(Ok(c)) => c.clone(),
        other => panic!("the run should have used islands: {other:?}"),
    };
    assert_eq!(counts.initial_islands, 2, "{counts:?}");
    assert!(counts.cuts >= 1, "the approach cut a stretch: {counts:?}");
    assert_eq!(counts.min_islands, 1, "they merged: {counts:?}");
    assert_eq!(counts.cross_island_contacts, 0, "{counts:?}");
    assert_eq!(counts.merged_reruns, 0, "the cut was in time: {counts:?}");
    assert!(split.notes.is_empty(), "{:?}", split.notes);
    for name in ["a", "b"] {
        let gap = max_gap_rows(&global.recording, &split.recording, name);
        assert!(gap < 1e-6, "{name}: {gap:e} m");
    }
    split
}

/// Total momentum along x and y at every row, (kg·m/s).
fn momentum(r: &Recording) -> Vec<[f64; 2]> {
    let (ax, bx) = (column(r, "ja.v[0]"), column(r, "jb.v[0]"));
    let (ay, by) = (column(r, "ja.v[1]"), column(r, "jb.v[1]"));
    (0..r.len())
        .map(|i| [0.1 * (ax[i] + bx[i]), 0.1 * (ay[i] + by[i])])
        .collect()
}

/// Checks the momentum theorem on every row: the only external force is 1 N along x on a, so
/// the total momentum is (t·1 N, 0) (the contact's forces are equal and opposite). Within 1e-6
/// kg·m/s: each velocity is integrated to ~1e-8 relative per step over ~10³ steps, so the
/// accumulated error is ~1e-7 of velocities below 6 m/s; a contact felt by one body only
/// (the gap this closes) breaks it by the contact's impulse, ~0.1 kg·m/s.
fn conserves_momentum(r: &Recording) {
    conserves_momentum_along(r, 1.0);
}

/// [`conserves_momentum`] with a total external force of `force` (N) along x: momentum
/// (force·t, 0).
fn conserves_momentum_along(r: &Recording, force: f64) {
    for (i, p) in momentum(r).iter().enumerate() {
        let t = force * r.times[i];
        assert!(
            (p[0] - t).abs() < 1e-6 && p[1].abs() < 1e-6,
            "t = {t}: momentum {p:?}, expected [{t}, 0]"
        );
    }
}

/// The look-ahead broken on purpose: in zero gravity, ball a rests 0.04 m (surface gap, beyond
/// the group's 16 mm reach: two islands) from ball b and is pushed toward it by a constant
/// 1 N. Nothing moves at t = 0, so the first stretch runs to the row at 0.1 s; a reaches b at
/// t = √(2·0.04 m / 10 m/s²) = 0.089 s inside it. The approach function of a's island fires
/// when the pair comes within margin/2, the stretch ends there for both islands, and the merged
/// island locates the contact: the run equals the global one, conserves momentum, and b was
/// hit (it ends moving along +x).
#[test]
fn a_push_into_another_island_equals_the_global_integration() {
    let split = equals_global("", [0.14, 0.0, 0.0], PUSH);
    conserves_momentum(&split.recording);
    let vb = column(&split.recording, "jb.v[0]");
    assert!(vb.last().copied().unwrap() > 0.5, "{:?}", vb.last());
}

/// The same approach driven by a's joint actuator (actuation = "input", 1 N along x).
#[test]
fn an_actuated_approach_equals_the_global_integration() {
    let split = equals_global("actuation = \"input\"", [0.14, 0.0, 0.0], ACTUATOR);
    conserves_momentum(&split.recording);
}

/// A grazing approach: b's centre 0.095 m off a's path (the radii sum to 0.1 m), so a's
/// surface overlaps b's by 5 mm at the closest point: a brief oblique contact that pushes b
/// sideways (+y). Equals the global run, conserves momentum (x: t·1 N, y: 0), and b moved
/// along +y.
#[test]
fn a_grazing_approach_equals_the_global_integration() {
    let split = equals_global("", [0.14, 0.095, 0.0], PUSH);
    conserves_momentum(&split.recording);
    let vy = column(&split.recording, "jb.v[1]");
    assert!(vy.last().copied().unwrap() > 1e-3, "{:?}", vy.last());
}

/// A scene where nothing moves toward another island: the two balls above at rest 0.04 m
/// apart. Two islands, no cut, no contact across islands, no note.
#[test]
fn resting_islands_are_not_cut() {
    let text = driven_pair("", [0.14, 0.0, 0.0], "", true);
    let still = common::run_text("still.toml", &text);
    match &still.islands {
        Some(Ok(c)) => {
            assert_eq!(c.cuts, 0, "{c:?}");
            assert_eq!(c.cross_island_contacts, 0, "{c:?}");
            assert_eq!(c.first_cross_island_contact, None, "{c:?}");
        }
        other => panic!("the run should have used islands: {other:?}"),
    }
    assert!(still.notes.is_empty(), "{:?}", still.notes);
}

/// A constant 1 N along -x on b (first line: the connections): b is pushed toward a.
const PUSH_B: &str = "\"jb.F -- push.R\", \"f.out -> push.force\"
[blocks.push]
type = \"ExternalForceTorque\"
[blocks.f]
type = \"Constant\"
value = [-1.0, 0.0, 0.0]";

/// The mirror of the push above: b (island 1) is pushed toward a resting a (island 0). Island
/// 0 runs first, to the row at 0.1 s; island 1's approach then cuts the stretch at ~0.089 s, so
/// island 0 runs the stretch again (the re-run path). Equals the global run to 1e-6 m,
/// conserves momentum (-t·1 N along x), and a was hit (it ends moving along -x). The event log
/// keeps the accepted runs' events only: none past a stretch's end (so none logged twice by
/// the re-run), in time order, and the same events as the global run's (times within 1e-6 s:
/// both locate the same crossings; the runs differ by ~1e-8 s, the integration error).
#[test]
fn a_push_from_the_second_island_reruns_the_first() {
    let split = equals_global("", [0.14, 0.0, 0.0], PUSH_B);
    let counts = split.islands.clone().unwrap().unwrap();
    assert!(
        counts.reruns >= 1,
        "island 0 ran the stretch again: {counts:?}"
    );
    conserves_momentum_along(&split.recording, -1.0);
    let va = column(&split.recording, "ja.v[0]");
    assert!(va.last().copied().unwrap() < -0.5, "{:?}", va.last());
    let events = &split.events;
    for pair in events.windows(2) {
        assert!(pair[0].time <= pair[1].time, "{events:?}");
        assert!(pair[0] != pair[1], "logged twice: {events:?}");
    }
    let global = common::run_text(
        "global.toml",
        &driven_pair("", [0.14, 0.0, 0.0], PUSH_B, false),
    );
    assert_eq!(
        events.len(),
        global.events.len(),
        "{events:?} vs {:?}",
        global.events
    );
    for (e, g) in events.iter().zip(&global.events) {
        assert_eq!(e.block, g.block);
        assert!((e.time - g.time).abs() < 1e-6, "{e:?} vs {g:?}");
    }
}

/// Both balls pushed along -x (first line: the connections): a by 1 N, b by 4 N, so b (behind,
/// at x = 0.14 m) chases a (ahead, at the origin). Each push is an ExternalForceTorque `p<ball>`
/// fed by a Constant `f<ball>`.
fn chase() -> String {
    let pushes = [("a", -1.0), ("b", -4.0)];
    let lines: Vec<String> = pushes
        .iter()
        .map(|(n, _)| format!("\"j{n}.F -- p{n}.R\", \"f{n}.out -> p{n}.force\""))
        .collect();
    let mut text = lines.join(", ");
    for (n, force) in pushes {
        text += &format!("\n[blocks.p{n}]\ntype = \"ExternalForceTorque\"");
        text += &format!("\n[blocks.f{n}]\ntype = \"Constant\"\nvalue = [{force:?}, 0.0, 0.0]");
    }
    text
}

/// A contact the cuts do not catch in time: b (island 1) chases a (island 0), both driven, in
/// zero gravity. Nothing moves at t = 0, so the first stretch runs to the row at 0.1 s.
/// Island 0 runs it first: a moves freely to x = −5·0.1² = −0.05 m. Island 1 then sees a there
/// (where a's run ended, ahead of where a is at the same time), and b's approach function
/// fires when b's surface comes within margin/2 = 1 mm of that position: 0.09 − 20·t² = 0.001,
/// t_cut = √(0.089/20) s = 66.7 ms, which cuts the stretch. But the balls touched before: the
/// true gap 0.04 − (20 − 5)·t² closes at t_c = √(0.04/15) s = 51.6 ms, and at t_cut it is
/// −26.7 mm. The synchronisation at t_cut, with both balls where they are, finds them in
/// contact across the islands and throws the stretch away: it runs again from t = 0 with the
/// islands merged, which locates the contact at t_c as the global run does.
///
/// So the run equals the global one: every position at the 0.1 s rows within
/// 10·rel_tol·(1 m + max |x|), about 5.5e-7 m (|x| ≤ ½·(5 N / 0.2 kg)·0.6² = 4.5 m; each
/// integration keeps its local errors within rel_tol of the positions, and the two differ in
/// their step sequences only, so they agree to a few local errors: 1.3e-8 m measured; before
/// the fix the merged solve started from the 26.7 mm overlap and threw the balls apart, 0.17 m
/// off). The momentum is (−5 N·t, 0) on every row, and no contact across islands is left
/// noted.
#[test]
fn a_chase_across_islands_runs_again_merged_and_equals_the_global_integration() {
    let text = |islands| driven_pair("", [0.14, 0.0, 0.0], &chase(), islands);
    let global = common::run_text("global.toml", &text(false));
    let split = common::run_text("chase.toml", &text(true));
    let counts = match &split.islands {
        Some(Ok(c)) => c.clone(),
        other => panic!("the run should have used islands: {other:?}"),
    };
    assert_eq!(counts.initial_islands, 2, "{counts:?}");
    let rel_tol = 1e-8;
    for name in ["a", "b"] {
        let gap = max_gap_rows(&global.recording, &split.recording, name);
        let x = column(&global.recording, &format!("j{name}.p[0]"));
        let scale = 1.0 + x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(
            gap < 10.0 * rel_tol * scale,
            "{name}: {gap:e} m (bound {:e} m)",
            10.0 * rel_tol * scale
        );
    }
    assert!(counts.merged_reruns >= 1, "{counts:?}");
    assert_eq!(counts.cross_island_contacts, 0, "{counts:?}");
    assert_eq!(counts.first_cross_island_contact, None, "{counts:?}");
    assert!(split.notes.is_empty(), "{:?}", split.notes);
    conserves_momentum_along(&split.recording, -5.0);
}
