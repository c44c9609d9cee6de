//! `blockdyn._blockdyn`: the Python face of the `blockdyn` crate (see docs/python.md).
//!
//! The pure-Python package around it (python/blockdyn/__init__.py) re-exports these names and
//! adds the sweep's result type. Everything here is a call into the crate's public API:
//! [`blockdyn::build_model_parts`] to build (the diagram and its blueprint, for parameter sets), [`blockdyn::simulate_keeping_rows`] to run (without the
//! GIL), [`blockdyn::sweep::Sweep`] for threaded sweeps, [`blockdyn::builder`] for models built
//! in code.

mod builder;
mod convert;
mod errors;
mod interrupt;
mod linearize;
mod parameters;
mod result;
mod sweep;

use blockdyn::library::Registry;
use blockdyn::model::Document;
use blockdyn::{Blueprint, Diagram, Override, RunOptions};
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

pub(crate) use errors::{model_error, simulation_error};
pub(crate) use result::SimulationResult;

/// A built model, from :func:`load`, :func:`loads` or :meth:`Builder.build`: run it with
/// :meth:`simulate` (from any number of threads at once: a run never changes the model).
///
/// It keeps what it was built from (the parsed text and the overrides), so that
/// :meth:`variant` and :func:`sweep` build variants without reading the file again.
#[pyclass(frozen, module = "blockdyn")]
pub struct Model {
    pub(crate) diagram: Arc<Diagram>,
    /// The model the diagram was built from, which parameter vectors are laid out with.
    pub(crate) blueprint: Arc<Blueprint>,
    /// The parsed model, before the overrides.
    pub(crate) document: Document,
    /// The overrides it was built with.
    pub(crate) overrides: Vec<Override>,
    /// The file it was read from (`None` for text and built models).
    pub(crate) path: Option<PathBuf>,
}

impl Model {
    /// Builds `document` with `overrides` (the document is kept unchanged for rebuilding).
    pub(crate) fn build(
        py: Python<'_>,
        document: Document,
        overrides: Vec<Override>,
        path: Option<PathBuf>,
    ) -> PyResult<Model> {
        let (blueprint, diagram) =
            blockdyn::build_model_parts(document.clone(), &overrides, Registry::standard())
                .map_err(|d| model_error(py, &d, d.to_string()))?;
        warn_about(py, &diagram)?;
        Ok(Model {
            diagram: Arc::new(diagram),
            blueprint: Arc::new(blueprint),
            document,
            overrides,
            path,
        })
    }
}

/// The build warnings (what the CLI prints as `warning: ...`) as Python warnings.
fn warn_about(py: Python<'_>, diagram: &Diagram) -> PyResult<()> {
    if diagram.warnings().is_empty() {
        return Ok(());
    }
    let category = py.get_type::<errors::ModelWarning>();
    for w in diagram.warnings() {
        let text = std::ffi::CString::new(w.replace('\0', " ")).unwrap_or_default();
        PyErr::warn(py, &category, &text, 2)?;
    }
    Ok(())
}

/// The options of one run, all plain values (so that the run can go on without the GIL).
struct RunRequest {
    stop_time: Option<f64>,
    start_time: Option<f64>,
    initial_state: Option<Vec<f64>>,
    parameters: Option<Arc<blockdyn::ParameterSet>>,
}

impl RunRequest {
    fn options(self) -> RunOptions {
        RunOptions {
            stop_time: self.stop_time,
            start_time: self.start_time,
            initial_state: self.initial_state,
            parameters: self.parameters,
            ..RunOptions::default()
        }
    }
}

/// Reads a state vector: a 1-D float64 array without copying its elements one by one, else any
/// sequence of numbers.
fn state_vector(obj: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
    if let Ok(array) = obj.extract::<PyReadonlyArray1<'_, f64>>() {
        return Ok(array.as_array().to_vec());
    }
    obj.extract::<Vec<f64>>()
}

/// Runs `work` without the GIL, handing it an interrupt flag that a Ctrl-C (SIGINT) sets while
/// it runs on the main thread ([`interrupt::watch`]; `None` elsewhere, where Python raises no
/// `KeyboardInterrupt`). Returns `work`'s value and the exception a signal handler raised
/// meanwhile, if any (checked once `work` returned, so the run's rows go with it).
pub(crate) fn interruptible<T, F>(py: Python<'_>, work: F) -> (T, Option<PyErr>)
where
    T: Send,
    F: FnOnce(Option<Arc<AtomicBool>>) -> T + Send,
{
    let flag = Arc::new(AtomicBool::new(false));
    let guard = interrupt::watch(py, &flag);
    let handed = guard.as_ref().map(|_| Arc::clone(&flag));
    let value = py.detach(move || work(handed));
    drop(guard);
    (value, py.check_signals().err())
}

#[pymethods]
impl Model {
    /// Runs the model and returns a :class:`SimulationResult`.
    ///
    /// - ``stop_time``: the end of the run, s (default: the model's ``[model] stop_time``);
    /// - ``start_time``: the start, s (default 0);
    /// - ``initial_state``: the state vector to start from (``num_states`` numbers, e.g. a
    ///   previous result's ``final_state``); default: the blocks' own initial conditions;
    /// - ``parameters``: a :class:`ParameterVector` of this model (:meth:`parameter_vector`),
    ///   whose numbers the run uses; the model is not built again.
    ///
    /// The run does not hold the GIL: other Python threads go on meanwhile, and several threads
    /// may run this model (or others) at once. A run writes no files (the model's ``[output]``
    /// paths are for the CLI). Raises :class:`SimulationError` when the run fails; the rows it
    /// recorded until then are the exception's ``partial`` result.
    #[pyo3(signature = (*, stop_time=None, start_time=None, initial_state=None, parameters=None))]
    fn simulate(
        &self,
        py: Python<'_>,
        stop_time: Option<f64>,
        start_time: Option<f64>,
        initial_state: Option<&Bound<'_, PyAny>>,
        parameters: Option<&parameters::ParameterVector>,
    ) -> PyResult<SimulationResult> {
        let request = RunRequest {
            stop_time,
            start_time,
            initial_state: initial_state.map(state_vector).transpose()?,
            parameters: parameters
                .map(|p| p.set_for(py, &self.blueprint, &self.diagram))
                .transpose()?,
        };
        let diagram = self.diagram.clone();
        let ((outcome, interval), signal) = interruptible(py, move |interrupt| {
            let started = Instant::now();
            let mut options = request.options();
            options.interrupt = interrupt;
            let outcome = blockdyn::simulate_keeping_rows(&diagram, options);
            (outcome, result::interval(started, Instant::now()))
        });
        match (outcome, signal) {
            (Ok(run), None) => {
                let converting = Instant::now();
                let mut result = SimulationResult::from_run(py, run, interval)?;
                result.conversion_time = converting.elapsed().as_secs_f64();
                Ok(result)
            }
            // The run ended before it saw the flag: the whole result goes with the exception.
            (Ok(run), Some(signal)) => {
                let result = SimulationResult::from_run(py, run, interval)?;
                Err(errors::with_partial(py, signal, result))
            }
            (Err(failed), Some(signal)) => {
                let failed = *failed;
                let partial =
                    SimulationResult::from_failed(py, failed.recording, failed.events, interval)?;
                Err(errors::with_partial(py, signal, partial))
            }
            (Err(failed), None) => Err(simulation_error(py, *failed, interval, None)),
        }
    }

    /// The same model built again with more overrides (``set``: a dict ``{path: value}`` or a
    /// list of ``"PATH=VALUE"`` strings, as :func:`load` takes them), applied after this model's
    /// own. The file is not read again.
    fn variant(&self, py: Python<'_>, set: &Bound<'_, PyAny>) -> PyResult<Model> {
        let mut overrides = self.overrides.clone();
        overrides.extend(convert::overrides(py, set)?);
        Model::build(py, self.document.clone(), overrides, self.path.clone())
    }

    /// Lays out a :class:`ParameterVector` of the scalar parameters at ``paths``
    /// (``"block.param[.sub...]"``, with ``[i]`` after the last key for element ``i`` of an array
    /// of numbers; a bare name is a model variable, ``"l"`` or ``"size[0]"``, and every parameter
    /// whose expression reads it follows it), each starting at the value the model was built with. Raises
    /// :class:`ModelError` for a path no vector can hold, naming it and what to write instead.
    fn parameter_vector(
        &self,
        py: Python<'_>,
        paths: Vec<String>,
    ) -> PyResult<parameters::ParameterVector> {
        // Laid out without the GIL: the layout compiles the slots once and probes each.
        let (blueprint, diagram) = (&self.blueprint, &self.diagram);
        let vector = py
            .detach(|| blueprint.parameter_vector(diagram, &paths))
            .map_err(|d| model_error(py, &d, d.to_string()))?;
        Ok(parameters::ParameterVector {
            vector,
            diagram: Arc::clone(&self.diagram),
        })
    }

    /// The model's name (``[model] name``, else the file's stem).
    #[getter]
    fn name(&self) -> &str {
        &self.diagram.run().name
    }

    /// The model's stop time, s (``[model] stop_time``, with the overrides).
    #[getter]
    fn stop_time(&self) -> f64 {
        self.diagram.run().stop_time
    }

    /// The number of continuous states (the length of ``initial_state`` and ``final_state``).
    #[getter]
    fn num_states(&self) -> usize {
        self.diagram.num_states()
    }

    /// The recorded columns a run will have (the CSV's columns after ``time``).
    #[getter]
    fn columns(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let names: Vec<&str> = self
            .diagram
            .run()
            .output
            .recorded
            .columns
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        Ok(PyList::new(py, names)?.unbind())
    }

    /// The file the model was read from (``None`` for a model from text or a :class:`Builder`).
    #[getter]
    fn path(&self) -> Option<String> {
        self.path.as_ref().map(|p| p.display().to_string())
    }

    /// The overrides the model was built with, as ``"PATH=VALUE"`` strings (``--set``'s form).
    #[getter]
    fn overrides(&self) -> Vec<String> {
        self.overrides.iter().map(Override::to_string).collect()
    }

    /// The model's text (the file as read, before the overrides).
    #[getter]
    fn source(&self) -> &str {
        &self.document.source.text
    }

    /// The warnings of the build (also issued as :class:`ModelWarning` when it was loaded).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.diagram.warnings().to_vec()
    }

    fn __repr__(&self) -> String {
        let from = match &self.path {
            Some(p) => format!("{:?}", p.display().to_string()),
            None => format!("{:?}", self.document.source.path),
        };
        format!(
            "<blockdyn.Model {:?} from {from}, {} blocks, {} states, stop_time={}>",
            self.diagram.run().name,
            self.diagram.blocks().len(),
            self.diagram.num_states(),
            self.diagram.run().stop_time,
        )
    }

    /// For benches/python/overhead.py: runs the model ``repeats`` times inside Rust (as
    /// :meth:`simulate` does, without the conversion to Python objects) and returns each run's
    /// wall time, s.
    #[pyo3(signature = (repeats, stop_time=None))]
    fn _bench_rust(&self, py: Python<'_>, repeats: usize, stop_time: Option<f64>) -> Vec<f64> {
        let diagram = self.diagram.clone();
        py.detach(move || {
            (0..repeats)
                .map(|_| {
                    let started = Instant::now();
                    let run = blockdyn::simulate_keeping_rows(
                        &diagram,
                        RunOptions {
                            stop_time,
                            ..RunOptions::default()
                        },
                    );
                    let elapsed = started.elapsed().as_secs_f64();
                    drop(run);
                    elapsed
                })
                .collect()
        })
    }
}

/// Reads, overrides and builds a model file; returns a :class:`Model`.
///
/// ``set`` overrides parameters as the CLI's ``--set`` does: a dict ``{"block.param": value}``
/// (values are Python numbers, bools, strings, lists and dicts, e.g.
/// ``{"contact.normal.stiffness": 1e6, "free.position": [0, 0, 2]}``) or a list of
/// ``"PATH=VALUE"`` strings with TOML values (``["solver.method=\"trbdf2\""]``).
/// Raises :class:`ModelError` with the CLI's message when the model cannot be built.
#[pyfunction]
#[pyo3(signature = (path, set=None))]
fn load(py: Python<'_>, path: PathBuf, set: Option<&Bound<'_, PyAny>>) -> PyResult<Model> {
    let overrides = set
        .map(|s| convert::overrides(py, s))
        .transpose()?
        .unwrap_or_default();
    let document = Document::load(&path).map_err(|d| model_error(py, &d, d.to_string()))?;
    Model::build(py, document, overrides, Some(path))
}

/// Like :func:`load`, from the model's TOML text; ``name`` is the file name messages show.
#[pyfunction]
#[pyo3(signature = (text, set=None, name="<string>"))]
fn loads(
    py: Python<'_>,
    text: &str,
    set: Option<&Bound<'_, PyAny>>,
    name: &str,
) -> PyResult<Model> {
    let overrides = set
        .map(|s| convert::overrides(py, s))
        .transpose()?
        .unwrap_or_default();
    let document = Document::parse(name, text).map_err(|d| model_error(py, &d, d.to_string()))?;
    Model::build(py, document, overrides, None)
}

/// The extension module.
#[pymodule]
fn _blockdyn(m: &Bound<'_, PyModule>) -> PyResult<()> {
    result::start_clock();
    // numpy's C API now, at import: touched first when a run ends, it would import numpy then,
    // and a Ctrl-C pending at that moment would fail the import (and panic in the numpy crate).
    // (numpy imported first, so that its failure is this import's exception, not a panic.)
    m.py().import("numpy")?;
    numpy::PyArray1::<f64>::zeros(m.py(), 0, false);
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::_sweep, m)?)?;
    m.add_function(wrap_pyfunction!(linearize::linearize, m)?)?;
    m.add_function(wrap_pyfunction!(linearize::trim, m)?)?;
    m.add_class::<Model>()?;
    m.add_class::<SimulationResult>()?;
    m.add_class::<parameters::ParameterVector>()?;
    m.add_class::<result::Stats>()?;
    m.add_class::<result::Event>()?;
    m.add_class::<builder::Builder>()?;
    m.add_class::<builder::BlockSpec>()?;
    m.add_class::<builder::BlockHandle>()?;
    errors::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("_MAX_SWEEP_POINTS", blockdyn::sweep::MAX_SWEEP_POINTS)?;
    m.add("_MAX_VALUE_DEPTH", convert::MAX_VALUE_DEPTH)?;
    Ok(())
}
