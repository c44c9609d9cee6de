//! `blockdyn.linearize(model, inputs, outputs, at=0.0)`: the linearization of a model
//! ([`blockdyn::linearize`]) as a dict of numpy arrays.

use crate::errors::{model_error, plain_model_error, run_error};
use crate::Model;
use blockdyn::{Linearization, LinearizeError, LinearizeSpec, Trim, TrimError, TrimSpec};
use numpy::ndarray::Array2;
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Linearizes ``model`` about the state a run of it reaches at time ``at`` (s; default 0, the
/// initial state): ``ż = A·z + B·u``, ``y = C·z + D·u`` in deviations from that point.
///
/// ``inputs``: names ``"BLOCK.PORT"`` of input ports (perturbed on top of their connected
/// values, seen by that block only) or ``"BLOCK"`` of a source with one output ``out`` (an
/// Inport); ``outputs``: names ``"BLOCK.PORT"`` of output ports (an output nothing reads is
/// logged and the model built again). Returns a dict: ``"A"``, ``"B"``, ``"C"``, ``"D"`` (2-D
/// float arrays, states × states, states × inputs, outputs × states, outputs × inputs), ``"x"``,
/// ``"u"``, ``"y"`` (the operating point, 1-D arrays), ``"states"``, ``"inputs"``,
/// ``"outputs"`` (the names, one per element: ``JOINT.q[i]``, ``JOINT.v[i]`` for a mechanism),
/// ``"t"``, ``"error_estimate"`` (the largest estimated error of an entry of the central
/// differences), ``"evaluations"`` and ``"warnings"`` (sampled blocks and zero crossings at the
/// operating point, which the matrices do not capture). See docs/linearize.md.
///
/// Raises :class:`ModelError` for a name that is not a port (with "did you mean") or an ``at``
/// outside [0, stop_time], :class:`SimulationError` when the run to ``at`` fails.
#[pyfunction]
#[pyo3(signature = (model, inputs, outputs, at=0.0))]
pub(crate) fn linearize(
    py: Python<'_>,
    model: &Model,
    inputs: Vec<String>,
    outputs: Vec<String>,
    at: f64,
) -> PyResult<Py<PyDict>> {
    let spec = LinearizeSpec {
        inputs,
        outputs,
        at,
    };
    let lin = match blockdyn::linearize(&model.diagram, &spec) {
        Err(LinearizeError::UnusedOutput { .. }) => {
            let set = blockdyn::command::linearize::logging_outputs(
                &model.diagram,
                &model.overrides,
                &spec,
            );
            let logged = Model::build(py, model.document.clone(), set, model.path.clone())?;
            blockdyn::linearize(&logged.diagram, &spec)
        }
        result => result,
    }
    .map_err(|e| error(py, e))?;
    to_dict(py, lin)
}

fn error(py: Python<'_>, e: LinearizeError) -> PyErr {
    let text = e.to_string();
    match e {
        LinearizeError::Name(d) | LinearizeError::Model(d) => model_error(py, &d, text),
        LinearizeError::Run { source, .. } => run_error(py, &source, text),
        _ => plain_model_error(py, text),
    }
}

fn matrix<'py>(py: Python<'py>, m: &nalgebra::DMatrix<f64>) -> Bound<'py, PyArray2<f64>> {
    let array = Array2::from_shape_fn((m.nrows(), m.ncols()), |(i, j)| m[(i, j)]);
    PyArray2::from_owned_array(py, array)
}

fn to_dict(py: Python<'_>, lin: Linearization) -> PyResult<Py<PyDict>> {
    let d = PyDict::new(py);
    d.set_item("states", lin.states)?;
    d.set_item("inputs", lin.inputs)?;
    d.set_item("outputs", lin.outputs)?;
    d.set_item("A", matrix(py, &lin.a))?;
    d.set_item("B", matrix(py, &lin.b))?;
    d.set_item("C", matrix(py, &lin.c))?;
    d.set_item("D", matrix(py, &lin.d))?;
    d.set_item("x", PyArray1::from_vec(py, lin.x))?;
    d.set_item("u", PyArray1::from_vec(py, lin.u))?;
    d.set_item("y", PyArray1::from_vec(py, lin.y))?;
    d.set_item("t", lin.t)?;
    d.set_item("error_estimate", lin.error_estimate)?;
    d.set_item("evaluations", lin.evaluations)?;
    d.set_item("warnings", lin.warnings)?;
    Ok(d.unbind())
}

/// Finds an equilibrium of ``model`` from its initial state: states and ``free_inputs`` with
/// ``ż = 0`` (``blockdyn trim``; see docs/linearize.md).
///
/// ``inputs`` are named as for :func:`linearize` and held at their operating values unless also
/// in ``free_inputs`` (which are added to them); ``fixed_states`` (names as
/// :func:`linearize`'s ``states``, ``"hinge.q[0]"``) keep their initial values; ``outputs`` are
/// reported there. Returns a dict: ``"states"``, ``"x"``, ``"inputs"``, ``"u"``, ``"outputs"``,
/// ``"y"`` (names and 1-D arrays), ``"xdot_norm"``, ``"iterations"``, ``"evaluations"``,
/// ``"warnings"``. Raises :class:`ModelError` for an unknown name or a trim that does not
/// converge (naming the state with the largest derivative left).
#[pyfunction]
#[pyo3(signature = (model, inputs=Vec::new(), free_inputs=Vec::new(), fixed_states=Vec::new(), outputs=Vec::new(), tolerance=1e-10))]
pub(crate) fn trim(
    py: Python<'_>,
    model: &Model,
    inputs: Vec<String>,
    free_inputs: Vec<String>,
    fixed_states: Vec<String>,
    outputs: Vec<String>,
    tolerance: f64,
) -> PyResult<Py<PyDict>> {
    let spec = TrimSpec {
        inputs,
        free_inputs,
        fixed_states,
        outputs,
        tolerance,
        ..Default::default()
    };
    let t = match blockdyn::trim(&model.diagram, &spec) {
        Err(TrimError::Linearize(LinearizeError::UnusedOutput { .. })) => {
            let logged_spec = LinearizeSpec {
                outputs: spec.outputs.clone(),
                ..Default::default()
            };
            let set = blockdyn::command::linearize::logging_outputs(
                &model.diagram,
                &model.overrides,
                &logged_spec,
            );
            let logged = Model::build(py, model.document.clone(), set, model.path.clone())?;
            blockdyn::trim(&logged.diagram, &spec)
        }
        result => result,
    };
    let t = t.map_err(|e| match e {
        TrimError::Linearize(e) => error(py, e),
        other => plain_model_error(py, other.to_string()),
    })?;
    trim_dict(py, t)
}

fn trim_dict(py: Python<'_>, t: Trim) -> PyResult<Py<PyDict>> {
    let d = PyDict::new(py);
    d.set_item("states", t.states)?;
    d.set_item("x", PyArray1::from_vec(py, t.x))?;
    d.set_item("inputs", t.inputs)?;
    d.set_item("u", PyArray1::from_vec(py, t.u))?;
    d.set_item("outputs", t.outputs)?;
    d.set_item("y", PyArray1::from_vec(py, t.y))?;
    d.set_item("xdot_norm", t.xdot_norm)?;
    d.set_item("iterations", t.iterations)?;
    d.set_item("evaluations", t.evaluations)?;
    d.set_item("warnings", t.warnings)?;
    Ok(d.unbind())
}
