//! A run's result as Python sees it: the recording handed to numpy once (no copy), columns as
//! views, the solver's counts, the located events.

use blockdyn::output::Recording;
use blockdyn::sim::LocatedEvent;
use blockdyn::solver::SolverStats;
use blockdyn::RunResult;
use numpy::ndarray::Array2;
use numpy::{PyArray1, PyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyImportError, PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyDict, PyList, PySlice, PyTuple};
use std::sync::OnceLock;
use std::time::Instant;

/// The process's clock origin for run intervals (set when the module is imported).
static EPOCH: OnceLock<Instant> = OnceLock::new();

pub(crate) fn start_clock() {
    EPOCH.get_or_init(Instant::now);
}

/// `[started, ended]` in seconds since the module was imported.
pub(crate) fn interval(started: Instant, ended: Instant) -> (f64, f64) {
    let epoch = *EPOCH.get_or_init(Instant::now);
    let since = |t: Instant| t.saturating_duration_since(epoch).as_secs_f64();
    (since(started), since(ended))
}

/// One located zero crossing: when, and the block whose crossing function it was.
#[pyclass(frozen, module = "blockdyn", eq)]
#[derive(PartialEq)]
pub struct Event {
    /// The time of the crossing, s.
    #[pyo3(get)]
    time: f64,
    /// The name of the block whose zero crossing was located.
    #[pyo3(get)]
    block: String,
}

#[pymethods]
impl Event {
    fn __repr__(&self) -> String {
        format!("Event(time={:?}, block='{}')", self.time, self.block)
    }

    /// ``time, block = event``.
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pair = PyTuple::new(
            py,
            [
                self.time.into_pyobject(py)?.into_any(),
                self.block.as_str().into_pyobject(py)?.into_any(),
            ],
        )?;
        pair.try_iter().map(Bound::into_any)
    }
}

/// The solver's counts for a run.
#[pyclass(frozen, module = "blockdyn", get_all)]
pub struct Stats {
    /// Accepted steps.
    steps: usize,
    /// Steps rejected by the error test (or because a stage was not finite).
    rejected_steps: usize,
    /// Accepted steps redone to end at the zero crossing they straddled.
    redone_steps: usize,
    /// Evaluations of the derivatives.
    function_evaluations: usize,
    /// Located zero-crossing events.
    zero_crossings: usize,
    /// Time events handled.
    time_events: usize,
    /// The time the run reached, s.
    final_time: f64,
    /// Jacobians formed (implicit methods).
    jacobian_evaluations: usize,
    /// LU factorizations (implicit methods).
    lu_factorizations: usize,
    /// Switches between dopri5 and the implicit method (``method = "auto"``; 0 otherwise).
    method_switches: usize,
    /// Accepted steps of an explicit method (dopri5 under ``auto``).
    explicit_steps: usize,
    /// Accepted steps of an implicit method (``auto``'s stiff phases).
    implicit_steps: usize,
    /// Wall-clock time of the run in Rust, s (the solver loop, without the GIL).
    wall_time: f64,
}

impl Stats {
    fn new(s: &SolverStats, wall_time: f64) -> Stats {
        Stats {
            steps: s.steps,
            rejected_steps: s.rejected_steps,
            redone_steps: s.redone_steps,
            function_evaluations: s.function_evaluations,
            zero_crossings: s.zero_crossings,
            time_events: s.time_events,
            final_time: s.final_time,
            jacobian_evaluations: s.jacobian_evaluations,
            lu_factorizations: s.lu_factorizations,
            method_switches: s.method_switches,
            explicit_steps: s.explicit_steps,
            implicit_steps: s.implicit_steps,
            wall_time,
        }
    }
}

#[pymethods]
impl Stats {
    /// The counts as a dict.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("steps", self.steps)?;
        d.set_item("rejected_steps", self.rejected_steps)?;
        d.set_item("redone_steps", self.redone_steps)?;
        d.set_item("function_evaluations", self.function_evaluations)?;
        d.set_item("zero_crossings", self.zero_crossings)?;
        d.set_item("time_events", self.time_events)?;
        d.set_item("final_time", self.final_time)?;
        d.set_item("jacobian_evaluations", self.jacobian_evaluations)?;
        d.set_item("lu_factorizations", self.lu_factorizations)?;
        d.set_item("method_switches", self.method_switches)?;
        d.set_item("explicit_steps", self.explicit_steps)?;
        d.set_item("implicit_steps", self.implicit_steps)?;
        d.set_item("wall_time", self.wall_time)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "Stats(steps={}, rejected_steps={}, function_evaluations={}, zero_crossings={}, final_time={:?}, wall_time={:.6})",
            self.steps,
            self.rejected_steps,
            self.function_evaluations,
            self.zero_crossings,
            self.final_time,
            self.wall_time
        )
    }
}

/// What a run recorded: ``r.time`` (rows,), ``r.values`` (rows × columns), ``r["block.port"]``
/// (a view of one column), ``r.columns``, ``r.events``, ``r.stats``, ``r.final_state``.
///
/// The arrays hold the recording's own memory, handed to numpy once without copying; a column is
/// a strided view into ``values``. Rows are those of the CLI's CSV (an event gives two rows at
/// the same time: before and after it).
#[pyclass(frozen, module = "blockdyn")]
pub struct SimulationResult {
    time: Py<PyArray1<f64>>,
    values: Py<PyArray2<f64>>,
    columns: Vec<String>,
    units: Vec<Option<String>>,
    events: Vec<LocatedEvent>,
    events_dropped: usize,
    stats: Option<Py<Stats>>,
    final_state: Py<PyArray1<f64>>,
    interval: (f64, f64),
    /// The time taken to make this object from the Rust result, s (for benches/python).
    pub(crate) conversion_time: f64,
}

impl SimulationResult {
    pub(crate) fn from_run(
        py: Python<'_>,
        run: RunResult,
        interval: (f64, f64),
    ) -> PyResult<SimulationResult> {
        let stats = Py::new(py, Stats::new(&run.stats, run.wall_time.as_secs_f64()))?;
        let mut result = SimulationResult::from_parts(
            py,
            run.recording,
            Some(stats),
            run.final_state,
            run.events,
            interval,
        )?;
        result.events_dropped = run.events_dropped;
        Ok(result)
    }

    /// The rows and events a failed (or interrupted) run recorded, without statistics or state.
    pub(crate) fn from_failed(
        py: Python<'_>,
        recording: Recording,
        events: Vec<LocatedEvent>,
        interval: (f64, f64),
    ) -> PyResult<SimulationResult> {
        Self::from_parts(py, recording, None, Vec::new(), events, interval)
    }

    pub(crate) fn from_parts(
        py: Python<'_>,
        recording: Recording,
        stats: Option<Py<Stats>>,
        final_state: Vec<f64>,
        events: Vec<LocatedEvent>,
        interval: (f64, f64),
    ) -> PyResult<SimulationResult> {
        let Recording {
            columns,
            times,
            values,
            ..
        } = recording;
        let rows = times.len();
        let (names, units): (Vec<String>, Vec<Option<String>>) =
            columns.into_iter().map(|c| (c.name, c.unit)).unzip();
        // The vectors become the arrays' memory (numpy owns them from here; no copy).
        let values = Array2::from_shape_vec((rows, names.len()), values)
            .map_err(|e| PyValueError::new_err(format!("inconsistent recording: {e}")))?;
        let values = PyArray2::from_owned_array(py, values);
        Ok(SimulationResult {
            time: PyArray1::from_vec(py, times).unbind(),
            values: values.unbind(),
            columns: names,
            units,
            events,
            events_dropped: 0,
            stats,
            final_state: PyArray1::from_vec(py, final_state).unbind(),
            interval,
            conversion_time: 0.0,
        })
    }

    fn column_index(&self, name: &str) -> PyResult<usize> {
        // A linear search: a recording has tens of columns, and no index is built per run.
        self.columns.iter().position(|c| c == name).ok_or_else(|| {
            let near = blockdyn::model::diagnostic::closest(
                name,
                self.columns
                    .iter()
                    .map(String::as_str)
                    .chain(std::iter::once("time")),
            );
            let hint = match near {
                Some(c) => format!("; did you mean '{c}'?"),
                None => format!("; the columns are time, {}", self.columns.join(", ")),
            };
            PyKeyError::new_err(format!("no recorded column '{name}'{hint}"))
        })
    }
}

#[pymethods]
impl SimulationResult {
    /// The time of each row, s (1-D float64 array).
    #[getter]
    fn time(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.time.clone_ref(py)
    }

    /// Every recorded value, rows × columns (2-D float64 array, row-major; without ``time``).
    #[getter]
    fn values(&self, py: Python<'_>) -> Py<PyArray2<f64>> {
        self.values.clone_ref(py)
    }

    /// The recorded columns' names (the CSV's header after ``time``), in order.
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.columns.clone()
    }

    /// ``{column: unit}`` for the columns whose unit is known (``"m"``, ``"N"``, ...).
    #[getter]
    fn units<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, unit) in self.columns.iter().zip(&self.units) {
            if let Some(u) = unit {
                d.set_item(name, u)?;
            }
        }
        Ok(d)
    }

    /// The located zero crossings, in order: a list of :class:`Event` (``time``, ``block``), one
    /// per block per event; time events (samples) are not listed.
    #[getter]
    fn events(&self, py: Python<'_>) -> PyResult<Vec<Py<Event>>> {
        self.events
            .iter()
            .map(|e| {
                Py::new(
                    py,
                    Event {
                        time: e.time,
                        block: e.block.clone(),
                    },
                )
            })
            .collect()
    }

    /// Located crossings beyond the first 2^20, not listed in :attr:`events` (0 but for runs of
    /// extraordinary length).
    #[getter]
    fn events_dropped(&self) -> usize {
        self.events_dropped
    }

    /// The solver's counts (:class:`Stats`); ``None`` for the partial result of a failed run.
    #[getter]
    fn stats(&self, py: Python<'_>) -> Option<Py<Stats>> {
        self.stats.as_ref().map(|s| s.clone_ref(py))
    }

    /// The state vector at the end (empty for a failed run's partial result).
    #[getter]
    fn final_state(&self, py: Python<'_>) -> Py<PyArray1<f64>> {
        self.final_state.clone_ref(py)
    }

    /// When the run started and ended, s, on a clock that starts when the module is imported
    /// (for checking that runs on two threads overlap).
    #[getter]
    fn _run_interval(&self) -> (f64, f64) {
        self.interval
    }

    /// The time :meth:`Model.simulate` took to make this object from the Rust run's result, s
    /// (part of the binding's overhead; benches/python/overhead.py reports it).
    #[getter]
    fn _conversion_time(&self) -> f64 {
        self.conversion_time
    }

    /// ``r["block.port"]``: one column, a view into :attr:`values` (no copy); ``r["time"]`` is
    /// :attr:`time`. Raises ``KeyError`` (naming the nearest column) for an unknown name.
    fn __getitem__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        if name == "time" && !self.columns.iter().any(|c| c == "time") {
            return Ok(self.time.bind(py).clone().into_any());
        }
        let j = self.column_index(name)?;
        let key = PyTuple::new(
            py,
            [
                PySlice::full(py).into_any(),
                j.into_pyobject(py)?.into_any(),
            ],
        )?;
        self.values.bind(py).as_any().get_item(key)
    }

    fn __contains__(&self, name: &str) -> bool {
        name == "time" || self.columns.iter().any(|c| c == name)
    }

    /// The number of rows.
    fn __len__(&self, py: Python<'_>) -> usize {
        self.time.bind(py).len()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let rows = self.time.bind(py).len();
        let steps = self
            .stats
            .as_ref()
            .map(|s| format!(", {} steps", s.get().steps))
            .unwrap_or_default();
        format!(
            "<blockdyn.SimulationResult: {rows} rows × {} columns{steps}, {} events>",
            self.columns.len(),
            self.events.len()
        )
    }

    /// A ``pandas.DataFrame`` with a ``time`` column then one column per recorded signal (the
    /// CSV's layout). Needs pandas (``pip install pandas``).
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pandas = py.import("pandas").map_err(|e| {
            PyImportError::new_err(format!(
                "SimulationResult.to_pandas() needs pandas: pip install pandas ({e})"
            ))
        })?;
        let frame = pandas.getattr("DataFrame")?.call(
            (self.values.bind(py),),
            Some(&[("columns", PyList::new(py, &self.columns)?)].into_py_dict(py)?),
        )?;
        frame.call_method1("insert", (0, "time", self.time.bind(py)))?;
        Ok(frame)
    }
}
