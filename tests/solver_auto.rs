//! `method = "auto"`: stiffness detection and switching between dopri5 and the implicit method.
//!
//! - A stiff linear problem and the classic stiff problems (Robertson, Van der Pol at μ = 1000):
//!   auto switches, takes about the implicit method's evaluations, and is as accurate.
//! - Non-stiff problems: auto never switches and takes dopri5's steps bit for bit.
//! - A ball bouncing on a stiff floor with regularised friction: implicit in contact, dopri5 in
//!   flight, with every contact onset located as exactly as dopri5 locates it.
//! - A run stopped at every event and resumed takes the same steps as one that never stopped.

use blockdyn::solver::problems::{BouncingBall, Problem, Robertson, VanDerPol};
use blockdyn::solver::{
    Direction, EventOutcome, FnSystem, Method, RecordKind, Solver, SolverCheckpoint, SolverOptions,
    SolverStats, System,
};

fn options(method: Method, rel_tol: f64, abs_tol: f64) -> SolverOptions {
    SolverOptions {
        method,
        rel_tol,
        abs_tol,
        ..Default::default()
    }
}

/// Every row a run records, as bits, and the methods `method_changed` reported.
#[derive(Default)]
struct Log {
    rows: Vec<(u64, Vec<u64>, RecordKind)>,
    methods: Vec<(f64, Method)>,
}

impl Log {
    fn record(&mut self, t: f64, x: &[f64], kind: RecordKind) {
        self.rows
            .push((t.to_bits(), x.iter().map(|v| v.to_bits()).collect(), kind));
    }
}

/// Any system, with its rows and method changes logged.
struct Logged<S> {
    inner: S,
    log: Log,
}

impl<S: System> System for Logged<S> {
    fn state_dim(&self) -> usize {
        self.inner.state_dim()
    }
    fn zero_crossing_dim(&self) -> usize {
        self.inner.zero_crossing_dim()
    }
    fn zero_crossing_direction(&self, index: usize) -> Direction {
        self.inner.zero_crossing_direction(index)
    }
    fn derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
        self.inner.derivatives(t, x, dxdt)
    }
    fn zero_crossings(&mut self, t: f64, x: &[f64], g: &mut [f64]) {
        self.inner.zero_crossings(t, x, g)
    }
    fn next_time_event(&self, t: f64) -> Option<f64> {
        self.inner.next_time_event(t)
    }
    fn handle_events(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        time_event: bool,
    ) -> EventOutcome {
        self.inner.handle_events(t, x, crossed, time_event)
    }
    fn record(&mut self, t: f64, x: &[f64], kind: RecordKind) {
        self.log.record(t, x, kind)
    }
    fn method_changed(&mut self, t: f64, method: Method) {
        self.log.methods.push((t, method));
    }
}

fn run<S: System>(
    system: S,
    method: Method,
    tol: (f64, f64),
    x0: &[f64],
    t_end: f64,
) -> (Logged<S>, SolverStats, Vec<f64>) {
    let mut logged = Logged {
        inner: system,
        log: Log::default(),
    };
    let (n, m) = (logged.state_dim(), logged.zero_crossing_dim());
    let mut solver = Solver::new(n, m, options(method, tol.0, tol.1)).unwrap();
    let stats = solver.integrate(&mut logged, 0.0, x0, t_end).unwrap();
    (logged, stats, solver.state().to_vec())
}

/// y' = −1e6·(y − cos t) − sin t, y(0) = 0: y = cos t − e^(−1e6·t), a transient of 1 µs, then a
/// slow solution on a mode of rate 1e6. Dopri5 is held at h ≤ 3.3e-6 by stability over the
/// whole span (3e6 steps to t = 10); auto leaves it after the transient and 15 stiff steps.
#[test]
fn stiff_linear_problem_switches_and_takes_few_steps() {
    let system = || {
        FnSystem::new(1, |t: f64, y: &[f64], d: &mut [f64]| {
            d[0] = -1e6 * (y[0] - t.cos()) - t.sin()
        })
    };
    // Dopri5's price, measured on [0, 0.1]: at least 0.1/3.3e-6 steps.
    let (_, dopri5, _) = run(system(), Method::Dopri5, (1e-6, 1e-9), &[0.0], 0.1);
    assert!(dopri5.steps as f64 > 0.9 * 0.1 / 3.3e-6, "{dopri5:?}");
    let (log, auto, y) = run(system(), Method::Auto, (1e-6, 1e-9), &[0.0], 10.0);
    eprintln!("auto on [0, 10]: {auto:?}");
    // One switch, to ESDIRK 4(3) (rel_tol 1e-6), at the end of the transient, and 100 times fewer
    // steps over [0, 10] than dopri5 takes over [0, 0.1].
    assert_eq!(auto.method_switches, 1);
    assert_eq!(log.log.methods[1].1, Method::Esdirk43);
    assert!(log.log.methods[1].0 < 1e-3, "{:?}", log.log.methods);
    assert!(
        auto.steps < 300 && 100 * auto.steps < dopri5.steps,
        "{auto:?}"
    );
    assert_eq!(auto.explicit_steps + auto.implicit_steps, auto.steps);
    // The mode damps every earlier error by e^(−1e6·h): what is left at t = 10 is the local error
    // of the last steps, within the tolerance rel_tol·|y| + abs_tol ≈ 1e-6.
    let error = (y[0] - 10f64.cos()).abs();
    assert!(error < 1e-6, "error {error:e}");
}

/// Robertson to t = 40 and Van der Pol at μ = 1000 over one period, with the references of
/// tests/solver_stiff.rs, at rel_tol 1e-4 (auto's implicit method: trbdf2) and 1e-6 (esdirk43):
/// auto meets the same accuracy bounds as the implicit method alone and costs at most 1.2 times
/// its evaluations (its dopri5 steps before the switch are cheap), in at most 1.5 times its steps.
#[test]
fn robertson_and_van_der_pol_cost_what_the_implicit_method_costs() {
    for (rel_tol, implicit) in [(1e-4, Method::Trbdf2), (1e-6, Method::Esdirk43)] {
        let tol = (rel_tol, rel_tol * 1e-6);
        let mut stats = Vec::new();
        for method in [implicit, Method::Auto] {
            let (_, s, y) = run(Robertson, method, tol, &Robertson::INITIAL, 40.0);
            for (y, r) in y.iter().zip(Robertson::AT_40) {
                // 1e-3 relative, as tests/solver_stiff.rs asks of dopri5 and trbdf2 at 1e-6.
                assert!(
                    ((y - r) / r).abs() <= 1e-3,
                    "{method:?} {rel_tol}: {y} vs {r}"
                );
            }
            stats.push(s);
        }
        let (alone, auto) = (stats[0], stats[1]);
        eprintln!("Robertson rel_tol {rel_tol}: {implicit:?} {alone:?}\n  auto {auto:?}");
        assert_eq!(auto.method_switches, 1, "{auto:?}");
        assert!(auto.function_evaluations as f64 <= 1.2 * alone.function_evaluations as f64);
        assert!(auto.steps as f64 <= 1.5 * alone.steps as f64);

        let tol = (rel_tol, rel_tol * 1e-2);
        let mut stats = Vec::new();
        for method in [implicit, Method::Auto] {
            let (log, s, x) = run(VanDerPol::new(1000.0), method, tol, &[2.0, 0.0], 2000.0);
            let period = log.inner.first_maximum;
            // The period within 1e-3 relative and x(T) within 1e-3, as tests/solver_stiff.rs.
            let t_ref = VanDerPol::PERIOD_MU_1000;
            assert!(
                ((period - t_ref) / t_ref).abs() <= 1e-3,
                "{method:?}: T = {period}"
            );
            assert!(
                (x[0] - VanDerPol::X_MAX_MU_1000).abs() <= 1e-3,
                "{method:?}: x = {}",
                x[0]
            );
            stats.push(s);
        }
        let (alone, auto) = (stats[0], stats[1]);
        eprintln!("Van der Pol rel_tol {rel_tol}: {implicit:?} {alone:?}\n  auto {auto:?}");
        // Dopri5 on the slow branches until they turn stiff, the implicit method there; dopri5
        // again across the fast jumps.
        assert!(auto.method_switches >= 2, "{auto:?}");
        assert!(auto.function_evaluations as f64 <= 1.2 * alone.function_evaluations as f64);
        assert!(auto.steps as f64 <= 1.5 * alone.steps as f64);
    }
}

/// The non-stiff shared problems, the bouncing ball with its resets, and a ball on a stiff but
/// lightly damped penalty floor (x'' = −g + max(0, −k·x − c·x') below 0, k = 1e7, c = 100: its
/// contact is a 1 ms oscillation of rate √k ≈ 3200/s that the motion follows, so dopri5's steps
/// are set by accuracy, not stability): auto never switches and records dopri5's rows bit for
/// bit.
#[test]
fn non_stiff_problems_take_dopri5_steps_bit_for_bit() {
    fn same<S: System>(make: impl Fn() -> S, x0: &[f64], t_end: f64, what: &str) {
        for tol in [(1e-3, 1e-6), (1e-8, 1e-10)] {
            let (d, ds, dx) = run(make(), Method::Dopri5, tol, x0, t_end);
            let (a, auto, ax) = run(make(), Method::Auto, tol, x0, t_end);
            assert_eq!(auto.method_switches, 0, "{what}: {auto:?}");
            assert_eq!(a.log.methods, vec![(0.0, Method::Dopri5)], "{what}");
            assert!(a.log.rows == d.log.rows && ax == dx, "{what}: rows differ");
            let dopri5 = SolverStats {
                explicit_steps: ds.steps,
                ..ds
            };
            assert_eq!(auto, dopri5, "{what}");
        }
    }
    for problem in [
        Problem::ExponentialDecay,
        Problem::HarmonicOscillator,
        Problem::Forced,
        Problem::Chain,
    ] {
        let mut x0 = vec![0.0; problem.dim()];
        problem.exact(0.0, &mut x0);
        same(|| problem, &x0, problem.t_end(), &format!("{problem:?}"));
    }
    same(
        || BouncingBall::new(0.8, 64),
        &[10.0, 0.0],
        10.0,
        "bouncing ball",
    );
    same(
        || PenaltyBall::new(100.0, 0.0),
        &[0.0, 1.0, 0.0, 0.0],
        3.0,
        "penalty ball",
    );
}

/// A point mass bouncing on a penalty floor (z < 0: normal force N = max(0, −k·z − c·ż), k = 1e7,
/// c = 200, restitution about 0.9) with regularised Coulomb friction −μ·N·tanh(ẋ/ε), μ = 0.5,
/// ε = 1e-3 m/s. Thrown at 1 m/s sideways from 1 m, it sticks within its first contact; while in
/// contact, ∂ẍ/∂ẋ = −μ·N/ε reaches −7e6/s: stiff (dopri5 creeps at h ≈ 4e-7 s), and in flight
/// nothing is (the Jacobian is nilpotent). State (x, z, ẋ, ż); zero crossing z, Either.
struct PenaltyBall {
    damping: f64,
    friction: f64,
    /// Contact onsets (z crossing downwards) and lift-offs (upwards, with ż there).
    onsets: Vec<f64>,
    lift_offs: Vec<(f64, f64)>,
    /// Whether each event stops the run (for the checkpoint tests).
    stop_at_events: bool,
}

const STIFFNESS: f64 = 1e7;
const GRAVITY: f64 = 9.81;

impl PenaltyBall {
    fn new(damping: f64, friction: f64) -> Self {
        Self {
            damping,
            friction,
            onsets: Vec::new(),
            lift_offs: Vec::new(),
            stop_at_events: false,
        }
    }
}

impl System for PenaltyBall {
    fn state_dim(&self) -> usize {
        4
    }
    fn zero_crossing_dim(&self) -> usize {
        1
    }
    fn zero_crossing_direction(&self, _index: usize) -> Direction {
        Direction::Either
    }
    fn derivatives(&mut self, _t: f64, s: &[f64], d: &mut [f64]) {
        let (z, vx, vz) = (s[1], s[2], s[3]);
        let normal = if z < 0.0 {
            (-STIFFNESS * z - self.damping * vz).max(0.0)
        } else {
            0.0
        };
        d[0] = vx;
        d[1] = vz;
        d[2] = -self.friction * normal * (vx / 1e-3).tanh();
        d[3] = -GRAVITY + normal;
    }
    fn zero_crossings(&mut self, _t: f64, s: &[f64], g: &mut [f64]) {
        g[0] = s[1];
    }
    fn handle_events(
        &mut self,
        t: f64,
        s: &mut [f64],
        _crossed: &[usize],
        _time_event: bool,
    ) -> EventOutcome {
        if s[3] < 0.0 {
            self.onsets.push(t);
        } else {
            self.lift_offs.push((t, s[3]));
        }
        EventOutcome {
            stop: self.stop_at_events,
            ..EventOutcome::default()
        }
    }
}

#[test]
fn ball_on_a_stiff_floor_is_implicit_in_contact_and_explicit_in_flight() {
    let x0 = [0.0, 1.0, 1.0, 0.0];
    let tol = (1e-9, 1e-12);
    let (d, dopri5, _) = run(PenaltyBall::new(200.0, 0.5), Method::Dopri5, tol, &x0, 3.0);
    let (a, auto, _) = run(PenaltyBall::new(200.0, 0.5), Method::Auto, tol, &x0, 3.0);
    eprintln!("dopri5 {dopri5:?}\nauto {auto:?}\n{:?}", a.log.methods);
    let (onsets, lift_offs) = (&a.inner.onsets, &a.inner.lift_offs);
    assert_eq!(onsets.len(), 4, "{onsets:?}");
    assert_eq!(d.inner.onsets.len(), 4);
    // Every switch to the implicit method falls inside a contact, every switch back inside the
    // flight that follows it: two or more each way. (The force lets go a little before z = 0, at
    // z = −c·ż/k ≈ −8e-5 m, 2e-5 s earlier at ż ≈ 4 m/s: a switch back may come after that.)
    let switches = &a.log.methods[1..];
    assert_eq!(switches.len(), auto.method_switches);
    assert!(auto.method_switches >= 4, "{switches:?}");
    for (k, pair) in switches.chunks(2).enumerate() {
        let (on, off) = (onsets[k], lift_offs[k].0);
        assert!(
            pair[0].1 == Method::Esdirk43 && on < pair[0].0 && pair[0].0 < off,
            "{k}: {pair:?}"
        );
        if let Some(&(t_back, method)) = pair.get(1) {
            let next = onsets.get(k + 1).copied().unwrap_or(3.0);
            assert!(
                method == Method::Dopri5 && off - 1e-4 < t_back && t_back < next,
                "{k}: {pair:?}"
            );
        }
    }
    // The first onset comes before any switch: the very bits dopri5 finds, and the free fall's
    // sqrt(2h/g) to the location's resolution, 1e-12·max(1, t), plus rounding.
    assert_eq!(onsets[0].to_bits(), d.inner.onsets[0].to_bits());
    assert!(
        (onsets[0] - (2.0 / GRAVITY).sqrt()).abs() < 1e-10,
        "{}",
        onsets[0]
    );
    // Every later onset ends a free flight that dopri5 integrated after switching back (a
    // parabola, which it integrates exactly): lift-off time + 2·ż/g from the lift-off state,
    // to 1e-10 s.
    for (k, &(t_off, vz)) in lift_offs.iter().enumerate().take(onsets.len() - 1) {
        let flight = t_off + 2.0 * vz / GRAVITY;
        assert!(
            (onsets[k + 1] - flight).abs() < 1e-10,
            "onset {}: {} vs {flight}",
            k + 1,
            onsets[k + 1]
        );
    }
    // Against dopri5's run: the onsets differ by what each method's contact integration leaves
    // in the lift-off velocity (about rel_tol·|ż|, times 2/g per flight): measured 1e-8 s.
    for (a, d) in onsets.iter().zip(&d.inner.onsets) {
        assert!((a - d).abs() < 1e-7, "{a} vs {d}");
    }
    // Dopri5 creeps through every stuck contact (27 514 evaluations); auto pays a fifth of that
    // (5 547; a tenth at rel_tol 1e-6).
    assert!(
        4 * auto.function_evaluations < dopri5.function_evaluations,
        "{auto:?}"
    );
}

/// Stops at every event and resumes from the checkpoint: the pieces record the rows of the run
/// that never stopped, bit for bit, across the switches (the method in use, the counts, the
/// spare controller and a switch due travel in the checkpoint).
#[test]
fn resumes_exactly_across_switches() {
    let x0 = [0.0, 1.0, 1.0, 0.0];
    let tol = (1e-6, 1e-9);
    let (full, full_stats, full_x) = run(PenaltyBall::new(200.0, 0.5), Method::Auto, tol, &x0, 3.0);
    assert!(full_stats.method_switches >= 4);

    let mut pieces = Logged {
        inner: PenaltyBall {
            stop_at_events: true,
            ..PenaltyBall::new(200.0, 0.5)
        },
        log: Log::default(),
    };
    let mut solver = Solver::new(4, 1, options(Method::Auto, tol.0, tol.1)).unwrap();
    let mut total = solver.integrate(&mut pieces, 0.0, &x0, 3.0).unwrap();
    let mut count = 1;
    while let Some(checkpoint) = solver.checkpoint() {
        let checkpoint: SolverCheckpoint = checkpoint;
        let s = solver.resume(&mut pieces, &checkpoint, 3.0).unwrap();
        for (sum, part) in [
            (&mut total.steps, s.steps),
            (&mut total.function_evaluations, s.function_evaluations),
            (&mut total.method_switches, s.method_switches),
            (&mut total.explicit_steps, s.explicit_steps),
            (&mut total.implicit_steps, s.implicit_steps),
        ] {
            *sum += part;
        }
        count += 1;
    }
    assert_eq!(
        count,
        1 + full.inner.onsets.len() + full.inner.lift_offs.len()
    );
    assert_eq!(solver.state(), &full_x[..]);
    // A stopped piece ends with a `Final` row at the event, the next starts with an `Initial`
    // one there: the rows in between, of steps and events, are the comparison.
    let times = |log: &Log| {
        log.rows
            .iter()
            .filter(|r| !matches!(r.2, RecordKind::Initial | RecordKind::Final))
            .map(|r| (r.0, r.1.clone()))
            .collect::<Vec<_>>()
    };
    assert!(
        times(&pieces.log) == times(&full.log),
        "the pieces' rows differ"
    );
    assert_eq!(
        (
            total.steps,
            total.function_evaluations,
            total.method_switches
        ),
        (
            full_stats.steps,
            full_stats.function_evaluations,
            full_stats.method_switches
        )
    );
    assert_eq!(
        (total.explicit_steps, total.implicit_steps),
        (full_stats.explicit_steps, full_stats.implicit_steps)
    );
}

/// `[solver] method = "auto"` in a model: a stiff first-order lag (ẋ = −1e6·(x − u), u a unit
/// step at 0.1 s: x = u after a 1 µs transient) switches to trbdf2 (rel_tol 1e-4) and matches
/// the step; and the peers' ball drop, run with `--set solver.method=auto` as the command line
/// would, switches once its contact comes to rest.
#[test]
fn models_name_auto_and_report_their_switches() {
    let text = r#"
connect = ["step.out -> err.in1", "lag.out -> err.in2", "err.out -> k.in", "k.out -> lag.in"]
[model]
stop_time = 1.0
[solver]
method = "auto"
rel_tol = 1e-4
abs_tol = 1e-7
[blocks.step]
type = "Step"
time = 0.1
[blocks.err]
type = "Sum"
signs = "+-"
[blocks.k]
type = "Gain"
gain = 1e6
[blocks.lag]
type = "Integrator"
"#;
    let d = blockdyn::load_model_str("lag.toml", text, &[]).unwrap();
    assert_eq!(d.run().solver.method, blockdyn::solver::Method::Auto);
    let r = blockdyn::simulate(&d, Default::default()).unwrap();
    let s = r.stats;
    assert!(s.method_switches >= 1 && s.implicit_steps > 0, "{s:?}");
    assert_eq!(s.explicit_steps + s.implicit_steps, s.steps);
    assert!((r.final_state[0] - 1.0).abs() < 1e-6, "{:?}", r.final_state);
    // Dopri5 alone: held at 3.3e-6 s for 0.9 s.
    let dopri5 = blockdyn::load_model_str(
        "lag.toml",
        text,
        &["solver.method=\"dopri5\"".parse().unwrap()],
    )
    .map(|d| blockdyn::simulate(&d, Default::default()).unwrap())
    .unwrap();
    assert!(
        dopri5.stats.steps > 100 * s.steps,
        "{:?} vs {s:?}",
        dopri5.stats
    );

    let path = std::path::Path::new("models/ball_drop.toml");
    let d = blockdyn::load_model(path, &["solver.method=auto".parse().unwrap()]).unwrap();
    let r = blockdyn::simulate(&d, Default::default()).unwrap();
    assert!(
        r.stats.method_switches >= 1 && r.stats.implicit_steps > 0,
        "{:?}",
        r.stats
    );
}

/// A switch that is due when a time event stops the run travels in the checkpoint and is made
/// first thing on resuming. The stiff lag y' = −1e6·(y − cos t) − sin t with a time event every
/// 3e-6 s (just under dopri5's stable step, so every step ends on one and is judged stiff,
/// h·ρ = 3 > 2.5): the run stopped at every time event switches at the start of a piece (the
/// resumed dopri5 and the switch to the implicit method reported at the same instant), and its
/// rows are those of the run that never stopped, bit for bit.
#[test]
fn a_switch_due_at_a_stop_is_made_on_resuming() {
    const PERIOD: f64 = 3e-6;
    struct Lag {
        stop: bool,
    }
    impl System for Lag {
        fn state_dim(&self) -> usize {
            1
        }
        fn zero_crossing_dim(&self) -> usize {
            0
        }
        fn zero_crossing_direction(&self, _index: usize) -> Direction {
            Direction::Either
        }
        fn derivatives(&mut self, t: f64, y: &[f64], d: &mut [f64]) {
            d[0] = -1e6 * (y[0] - t.cos()) - t.sin()
        }
        fn zero_crossings(&mut self, _t: f64, _y: &[f64], _g: &mut [f64]) {}
        fn next_time_event(&self, t: f64) -> Option<f64> {
            let mut k = (t / PERIOD).floor() + 1.0;
            if k * PERIOD <= t {
                k += 1.0;
            }
            Some(k * PERIOD)
        }
        fn handle_events(
            &mut self,
            _t: f64,
            _y: &mut [f64],
            _c: &[usize],
            _te: bool,
        ) -> EventOutcome {
            EventOutcome {
                stop: self.stop,
                state_changed: false,
            }
        }
    }
    let (tol, t_end) = ((1e-6, 1e-9), 3e-4);
    let (full, full_stats, full_y) = run(Lag { stop: false }, Method::Auto, tol, &[0.0], t_end);
    assert_eq!(full_stats.method_switches, 1, "{full_stats:?}");
    let switched_at = full.log.methods.last().unwrap().0;

    let mut pieces = Logged {
        inner: Lag { stop: true },
        log: Log::default(),
    };
    let mut solver = Solver::new(1, 0, options(Method::Auto, tol.0, tol.1)).unwrap();
    solver.integrate(&mut pieces, 0.0, &[0.0], t_end).unwrap();
    while let Some(checkpoint) = solver.checkpoint() {
        solver.resume(&mut pieces, &checkpoint, t_end).unwrap();
    }
    assert_eq!(solver.state(), &full_y[..]);
    // The switch: made at the same instant as in the full run, right after a resume reported
    // dopri5 there (the switch was due in the checkpoint).
    let methods = &pieces.log.methods;
    let i = methods
        .iter()
        .position(|&(t, m)| t == switched_at && m != Method::Dopri5)
        .unwrap_or_else(|| panic!("no switch at {switched_at}: {methods:?}"));
    assert!(
        i > 0 && methods[i - 1] == (switched_at, Method::Dopri5),
        "{methods:?}"
    );
    let rows = |log: &Log| {
        log.rows
            .iter()
            .filter(|r| !matches!(r.2, RecordKind::Initial | RecordKind::Final))
            .map(|r| (r.0, r.1.clone()))
            .collect::<Vec<_>>()
    };
    assert!(
        rows(&pieces.log) == rows(&full.log),
        "the pieces' rows differ"
    );
}
