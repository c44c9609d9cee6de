//! The exceptions: `blockdyn.Error` and its subclasses, carrying the CLI's text and, as
//! attributes, the parts of the message (file, line, column, block, hint; a failed run's time,
//! block and partial result).

use crate::result::SimulationResult;
use blockdyn::model::Diagnostic;
use blockdyn::{FailedRun, SimError};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyUserWarning};
use pyo3::prelude::*;

create_exception!(
    blockdyn,
    Error,
    PyException,
    "The base of blockdyn's exceptions. ``str(e)`` is the text the CLI prints after ``error:``."
);
create_exception!(
    blockdyn,
    ModelError,
    Error,
    "A model that cannot be read or built (a wrong parameter, connection, override, ...).\n\n\
     Attributes (``None`` when the message has no such part): ``file`` (the model file, or the \
     label of a model from text), ``line`` and ``column`` (1-based), ``block`` (the block \
     concerned), ``hint`` (what to write instead), ``message`` (the problem alone), ``kind`` (when \
     a block reported the problem: its error's kind, the name of the Rust ``BlockError`` variant, \
     e.g. ``\"ParamLength\"``, ``\"UnsupportedPair\"``). ``str(e)`` is the CLI's whole text, \
     other problems found in the same pass included."
);
create_exception!(
    blockdyn,
    SimulationError,
    Error,
    "A run that failed (a step-size underflow, chattering, a non-finite value, a stall, ...).\n\n\
     Attributes: ``time`` (s, when the failure has one), ``block`` (the block concerned, or \
     ``None``), ``partial`` (a SimulationResult with the rows recorded until the failure; in a \
     sweep, ``point`` is the failed point's index)."
);
create_exception!(
    blockdyn,
    ModelWarning,
    PyUserWarning,
    "A warning about a model, issued when it is built (the CLI's ``warning:`` lines)."
);

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("ModelError", py.get_type::<ModelError>())?;
    m.add("SimulationError", py.get_type::<SimulationError>())?;
    m.add("ModelWarning", py.get_type::<ModelWarning>())?;
    Ok(())
}

/// A `ModelError` whose text is `text` (the CLI's) and whose attributes are `d`'s parts.
pub(crate) fn model_error(py: Python<'_>, d: &Diagnostic, text: String) -> PyErr {
    let err = ModelError::new_err(text);
    let set = || -> PyResult<()> {
        let v = err.value(py);
        v.setattr("file", d.file.as_deref())?;
        v.setattr("line", d.line_column.map(|(l, _)| l))?;
        v.setattr("column", d.line_column.map(|(_, c)| c))?;
        v.setattr("block", d.block.as_deref())?;
        v.setattr("hint", d.hint.as_deref())?;
        v.setattr("message", d.message.as_str())?;
        v.setattr("kind", d.block_error().map(|e| e.kind()))?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A `ModelError` with text only (no file or line): a bad `vary` list, say.
pub(crate) fn plain_model_error(py: Python<'_>, text: String) -> PyErr {
    let d = Diagnostic::new(text.clone());
    model_error(py, &d, text)
}

/// The time and block a run failure names, if any.
fn time_and_block(e: &SimError) -> (Option<f64>, Option<&str>) {
    match e {
        SimError::NonFinite { block, t, .. }
        | SimError::BlockFailed { block, t, .. }
        | SimError::Chattering { block, t, .. }
        | SimError::Unsettled { block, t } => (Some(*t), Some(block)),
        SimError::StepSizeUnderflow { t, .. }
        | SimError::TimeDoesNotAdvance { t, .. }
        | SimError::TimeEventFlood { t, .. }
        | SimError::Stalled { t, .. }
        | SimError::Interrupted { t }
        | SimError::Islands { t } => (Some(*t), None),
        SimError::InvalidOptions(_)
        | SimError::Options(_)
        | SimError::Output(_)
        | SimError::OutputBudget { .. } => (None, None),
    }
}

/// A `SimulationError` with text `text` for the failure `e` of a run whose rows are not kept (the
/// run to a linearization's operating point): ``time`` and ``block`` from `e`, ``partial``
/// ``None``.
pub(crate) fn run_error(py: Python<'_>, e: &SimError, text: String) -> PyErr {
    let err = SimulationError::new_err(text);
    let (time, block) = time_and_block(e);
    let set = || -> PyResult<()> {
        let v = err.value(py);
        v.setattr("time", time)?;
        v.setattr("block", block)?;
        v.setattr("partial", py.None())?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// The exception of a failed run: a `SimulationError` with the rows recorded until the failure
/// (problems of the model are found before a run starts and raised as `ModelError` there). `point` is a
/// sweep point's index.
pub(crate) fn simulation_error(
    py: Python<'_>,
    failed: FailedRun,
    interval: (f64, f64),
    point: Option<usize>,
) -> PyErr {
    let text = match point {
        Some(k) => format!("{}\n  note: in sweep point {k}", failed.error),
        None => failed.error.to_string(),
    };
    let err = SimulationError::new_err(text);
    let (time, block) = time_and_block(&failed.error);
    let (time, block) = (time, block.map(str::to_string));
    let set = || -> PyResult<()> {
        let v = err.value(py);
        v.setattr("time", time)?;
        v.setattr("block", block)?;
        v.setattr("point", point)?;
        let partial = SimulationResult::from_failed(py, failed.recording, failed.events, interval)?;
        v.setattr("partial", Py::new(py, partial)?)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// `signal` (the exception a signal handler raised during a run, e.g. `KeyboardInterrupt`) with
/// the rows the run recorded until it stopped as its `partial` attribute, as a
/// `SimulationError` carries them (the exception goes unchanged if it takes no attribute).
pub(crate) fn with_partial(py: Python<'_>, signal: PyErr, partial: SimulationResult) -> PyErr {
    if let Ok(partial) = Py::new(py, partial) {
        let _ = signal.value(py).setattr("partial", partial);
    }
    signal
}
