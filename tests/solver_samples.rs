//! Sample times (`System::next_sample_time` / `System::sample`): the solution at requested times
//! from the dense output, without changing the steps taken.

use blockdyn::solver::problems::{BouncingBall, Problem};
use blockdyn::solver::{
    Direction, EventOutcome, Method, RecordKind, Solver, SolverOptions, System,
};

/// Wraps a system and samples it every `dt` seconds.
struct Sampled<S> {
    inner: S,
    dt: f64,
    samples: Vec<(f64, Vec<f64>)>,
    records: usize,
}

impl<S> Sampled<S> {
    fn new(inner: S, dt: f64) -> Self {
        Self {
            inner,
            dt,
            samples: Vec::new(),
            records: 0,
        }
    }
}

impl<S: System> System for Sampled<S> {
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
    fn handle_events(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        time_event: bool,
    ) -> EventOutcome {
        self.inner.handle_events(t, x, crossed, time_event)
    }
    fn record(&mut self, _t: f64, _x: &[f64], _kind: RecordKind) {
        self.records += 1;
    }
    fn next_sample_time(&self) -> Option<f64> {
        Some(self.samples.len() as f64 * self.dt)
    }
    fn sample(&mut self, t: f64, x: &[f64]) {
        self.samples.push((t, x.to_vec()));
    }
}

/// Every requested time in [0, t_end] is delivered once, in order, and each sample is the exact
/// solution to the dense output's accuracy: dopri5's 4th-order extension at rel_tol 1e-9 stays
/// within 1e-7 of the harmonic oscillator's cos t / −sin t over [0, 10]. The sampled run takes
/// the same steps as the unsampled one (the samples do not cut steps).
#[test]
fn samples_come_from_the_dense_output_without_changing_the_steps() {
    let options = SolverOptions {
        rel_tol: 1e-9,
        abs_tol: 1e-12,
        ..Default::default()
    };
    let problem = Problem::HarmonicOscillator;
    let mut x0 = vec![0.0; problem.dim()];
    problem.exact(0.0, &mut x0);
    let t_end = problem.t_end();
    let mut plain = Solver::new(problem.dim(), 0, options.clone()).unwrap();
    let plain_stats = plain.integrate(&mut { problem }, 0.0, &x0, t_end).unwrap();

    let mut sampled = Sampled::new(problem, 0.1);
    let mut solver = Solver::new(problem.dim(), 0, options).unwrap();
    let stats = solver.integrate(&mut sampled, 0.0, &x0, t_end).unwrap();
    assert_eq!(stats.steps, plain_stats.steps);
    assert_eq!(sampled.samples.len(), 101, "t = 0, 0.1, …, 10");
    let mut exact = vec![0.0; 2];
    for (k, (t, x)) in sampled.samples.iter().enumerate() {
        assert_eq!(*t, k as f64 * 0.1);
        problem.exact(*t, &mut exact);
        for i in 0..2 {
            assert!(
                (x[i] - exact[i]).abs() < 1e-7,
                "t = {t}: {x:?} vs {exact:?}"
            );
        }
    }
    // Every step was recorded once, as in the plain run: samples add no records.
    assert_eq!(sampled.records, plain_stats.steps + 1);
}

/// Across impacts: samples before an impact come from the step cut at the event, samples after
/// it from the restarted integration. A ball dropped from 1 m (g = 9.81, e = 0.5) is at
/// h = 1 − g t²/2 before t₁ = 0.4515 s and at v₁·e·(t − t₁) − g (t − t₁)²/2 after; the dense
/// output of a quadratic is exact up to the event-location and step tolerances (1e-6 here).
#[test]
fn samples_straddle_located_events() {
    let options = SolverOptions {
        rel_tol: 1e-8,
        abs_tol: 1e-10,
        method: Method::Dopri5,
        ..Default::default()
    };
    let g: f64 = 9.81;
    let mut sampled = Sampled::new(BouncingBall::new(0.5, 16), 0.02);
    let mut solver = Solver::new(2, 1, options).unwrap();
    solver
        .integrate(&mut sampled, 0.0, &[1.0, 0.0], 0.8)
        .unwrap();
    let t1 = (2.0 / g).sqrt();
    let v1 = g * t1;
    assert_eq!(sampled.samples.len(), 41);
    for (t, x) in &sampled.samples {
        let h = if *t <= t1 {
            1.0 - 0.5 * g * t * t
        } else {
            let s = t - t1;
            0.5 * v1 * s - 0.5 * g * s * s
        };
        assert!((x[0] - h).abs() < 1e-6, "t = {t}: h = {} vs {h}", x[0]);
    }
}
