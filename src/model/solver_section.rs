//! The `[solver]` section: read into the solver's own [`SolverOptions`] and checked where each
//! value is written.

use super::reader::TableReader;
use super::value::ValueKind;
use super::Diagnostic;
use crate::solver::{Method, SolverOptions};

/// The largest `[solver] max_steps` accepted, written as an integer or a float: 1e18 steps (more
/// than any run takes: 30,000 years at a microsecond a step; `max_wall_time` bounds a run by the
/// clock). 2^63 − 1 and the like are refused, not taken as a budget.
pub const MAX_MAX_STEPS: u64 = 1_000_000_000_000_000_000;

/// The `[solver]` table of a model whose stop time is `stop_time` (s).
pub(super) fn read_solver(s: &TableReader, stop_time: f64) -> Result<SolverOptions, Diagnostic> {
    let solver = SolverOptions {
        method: s.choice_value(
            "method",
            &Method::ALL.map(|m| (m.name(), m)),
            Method::default(),
        )?,
        rel_tol: s.positive_or("rel_tol", 1e-3, "(a relative tolerance, e.g. 1e-6)")?,
        abs_tol: s.positive_or("abs_tol", 1e-6, "(an absolute tolerance, e.g. 1e-8)")?,
        max_step: s.non_negative_or("max_step", 0.0, "s (0 = automatic)")?,
        initial_step: s.non_negative_or("initial_step", 0.0, "s (0 = automatic)")?,
        fixed_step: s.positive_or("fixed_step", 1e-3, "s")?,
        max_steps: read_max_steps(s)?,
        max_wall_time: s.non_negative_or("max_wall_time", 0.0, "s (0 = no limit)")?,
        islands: s.bool("islands")?.unwrap_or(false),
        sparse_lu: s.bool("sparse_lu")?.unwrap_or(true),
        ..SolverOptions::default()
    };
    // Checked here, where the line is known, not when the run starts.
    s.ensure(
        solver.rel_tol >= 10.0 * f64::EPSILON,
        "rel_tol",
        &format!(
            "is below 10·machine epsilon, {:.1e}: no step can meet it (got {:e})",
            10.0 * f64::EPSILON,
            solver.rel_tol
        ),
        "write 1e-14 or more (1e-6 to 1e-10 are typical)",
    )?;
    check_step_settings(s, &solver, stop_time)?;
    s.finish()?;
    Ok(solver)
}

/// A `max_step` (or rk4's `fixed_step`) that t cannot resolve near the stop time, or that alone
/// forces more steps than `max_steps`, is refused here, where its line is known; the solver checks
/// again against the stop time of the run (`--stop-time`).
fn check_step_settings(
    s: &TableReader,
    solver: &SolverOptions,
    stop_time: f64,
) -> Result<(), Diagnostic> {
    let (key, step) = if solver.method == Method::Rk4 {
        ("fixed_step", solver.fixed_step)
    } else {
        ("max_step", solver.max_step)
    };
    if step <= 0.0 {
        return Ok(());
    }
    let resolution = f64::EPSILON * stop_time;
    s.ensure(
        step > resolution,
        key,
        &format!("is {step:e} s, below the resolution of t near the stop time ({resolution:.1e} s): time would not advance"),
        &format!("write {key} = {:.0e} or more (s)", 16.0 * resolution),
    )?;
    let forced = stop_time / step;
    let budget = solver.max_steps as f64;
    s.ensure(
        forced <= budget,
        key,
        &format!(
            "is {step:e} s: {forced:.1e} steps over stop_time = {stop_time} s, more than max_steps = {}",
            solver.max_steps
        ),
        &format!("write {key} = {:.1e} or more (s), or raise max_steps", stop_time / budget),
    )
}

/// `[solver] max_steps`: a whole number ≥ 1, written as an integer or as a float (`1e8`).
fn read_max_steps(s: &TableReader) -> Result<u64, Diagnostic> {
    let Some(v) = s.value("max_steps") else {
        return Ok(crate::solver::DEFAULT_MAX_STEPS);
    };
    let steps = match v.kind {
        ValueKind::Integer(i) if i >= 1 => Some(i as u64),
        ValueKind::Float(x) if (1.0..=1e18).contains(&x) && x.fract() == 0.0 => Some(x as u64),
        _ => None,
    };
    if let Some(steps) = steps.filter(|&n| n > MAX_MAX_STEPS) {
        return Err(s
            .error(
                "max_steps",
                format!(
                    "'max_steps' is {:.2e}, above the largest step budget, {:e}",
                    steps as f64, MAX_MAX_STEPS as f64
                ),
            )
            .hint(format!(
                "write max_steps = {:e} or less (more steps than any run takes); bound a long run by the clock with max_wall_time",
                MAX_MAX_STEPS as f64
            )));
    }
    steps.ok_or_else(|| {
        s.error(
            "max_steps",
            "'max_steps' must be a whole number of steps, at least 1",
        )
        .hint(format!(
            "write e.g. max_steps = 1e8 (the default is {:e})",
            crate::solver::DEFAULT_MAX_STEPS as f64
        ))
    })
}
