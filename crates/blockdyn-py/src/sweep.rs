//! Threaded sweeps: [`blockdyn::sweep::Sweep`] over a model's parsed document, run without the
//! GIL. python/blockdyn/__init__.py wraps the results with their points (`blockdyn.sweep`).

use crate::errors::plain_model_error;
use crate::{
    convert, interruptible, model_error, result, simulation_error, Model, SimulationResult,
};
use blockdyn::sweep::{PlanError, RunSettings, Sweep, SweepError, SweepPlan, VaryAxis};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::num::NonZeroUsize;
use std::time::Instant;

fn sweep_error(py: Python<'_>, e: SweepError) -> PyErr {
    match &e {
        SweepError::Model(d) => model_error(py, d, e.to_string()),
        SweepError::Point { source, .. } => model_error(py, source, e.to_string()),
        _ => plain_model_error(py, e.to_string()),
    }
}

/// Runs `model` at every combination of the `vary` values (the last key varying fastest) on
/// `jobs` threads (default: every core) and returns the results in point order. `set`
/// overrides apply to every point, after the model's own and before the point's. Every point is
/// built before any runs (a bad value raises `ModelError` first). A failed point raises its
/// `SimulationError` once all ran, or with `keep_errors` takes its place in the list. Ctrl-C
/// raises `KeyboardInterrupt` carrying the points that had finished (`_finished`).
#[pyfunction]
#[pyo3(signature = (model, vary, set=None, jobs=None, keep_errors=false))]
pub(crate) fn _sweep(
    py: Python<'_>,
    model: &Bound<'_, Model>,
    vary: &Bound<'_, PyDict>,
    set: Option<&Bound<'_, PyAny>>,
    jobs: Option<usize>,
    keep_errors: bool,
) -> PyResult<Vec<Py<PyAny>>> {
    let model = model.get();
    let axes: Vec<VaryAxis> = convert::vary_axes(vary)?;
    if axes.is_empty() {
        return Err(PyValueError::new_err(
            "vary: give at least one parameter and its values",
        ));
    }
    // Counted before anything is allocated: a plan past the limit is the caller's value error.
    let plan = SweepPlan::new(axes).map_err(|e| match e {
        PlanError::TooManyPoints {
            points,
            lengths,
            limit,
        } => PyValueError::new_err(format!(
            "vary: the sweep has {points:.0} points ({lengths}), more than the limit of {limit} \
             points; vary fewer values, or split the sweep into several calls (each with a part \
             of a list)"
        )),
        e => plain_model_error(py, e.to_string()),
    })?;
    let mut fixed = model.overrides.clone();
    if let Some(set) = set {
        fixed.extend(convert::overrides(py, set)?);
    }
    let mut settings = match jobs {
        None => RunSettings::all_cores(),
        Some(n) => RunSettings::with_jobs(
            NonZeroUsize::new(n).ok_or_else(|| PyValueError::new_err("jobs must be 1 or more"))?,
        ),
    };
    let sweep = Sweep::new(model.document.clone(), fixed, plan);
    let points: Vec<usize> = (0..sweep.plan().len()).collect();
    // Ctrl-C stops the runs under way and starts no more; its KeyboardInterrupt is raised.
    let (outcome, signal) = interruptible(py, |interrupt| {
        settings.interrupt = interrupt;
        let started = Instant::now();
        sweep.check(&points, &settings)?;
        let runs = sweep.run_in_memory(&points, &settings)?;
        Ok::<_, SweepError>((runs, result::interval(started, Instant::now())))
    });
    if let Some(signal) = signal {
        // The points that finished before Ctrl-C stay the caller's: `(index, result)` pairs as
        // the exception's `_finished` (`blockdyn.sweep` makes them its `partial` SweepResult).
        // A point the interrupt stopped part-way is not among them.
        if let Ok((runs, interval)) = outcome {
            let finished: Vec<(usize, Py<SimulationResult>)> = runs
                .into_iter()
                .filter_map(|run| {
                    let r = run.result.ok()?;
                    let r = SimulationResult::from_run(py, r, interval).ok()?;
                    Some((run.index, Py::new(py, r).ok()?))
                })
                .collect();
            let _ = signal.value(py).setattr("_finished", finished);
        }
        return Err(signal);
    }
    let (runs, interval) = outcome.map_err(|e| sweep_error(py, e))?;
    let mut out = Vec::with_capacity(runs.len());
    for run in runs {
        match run.result {
            Ok(r) => {
                out.push(Py::new(py, SimulationResult::from_run(py, r, interval)?)?.into_any())
            }
            Err(failed) => {
                let err = simulation_error(py, *failed, interval, Some(run.index));
                if !keep_errors {
                    return Err(err);
                }
                out.push(err.into_value(py).into_any());
            }
        }
    }
    Ok(out)
}
