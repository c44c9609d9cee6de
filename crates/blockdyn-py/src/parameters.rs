//! `ParameterVector`: a model's chosen scalar parameters as numbers, for optimisers and fitting
//! loops (`Model.parameter_vector`, `Model.simulate(parameters=...)`).

use crate::errors::model_error;
use crate::state_vector;
use blockdyn::{Blueprint, Diagram, ParameterSet};
use numpy::{PyArray1, ToPyArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Arc;

/// Chosen scalar parameters of one model as numbers, in a fixed order: lay it out with
/// :meth:`Model.parameter_vector`, make one with other numbers with :meth:`with_values`, and run
/// with :meth:`Model.simulate` (``parameters=``). The model is not built again: only the blocks
/// whose numbers changed are made again.
#[pyclass(frozen, module = "blockdyn")]
pub struct ParameterVector {
    pub(crate) vector: blockdyn::ParameterVector,
    /// The diagram it was laid out for.
    pub(crate) diagram: Arc<Diagram>,
}

impl ParameterVector {
    /// The parameter set that runs `diagram` (built with `blueprint`) with these numbers.
    pub(crate) fn set_for(
        &self,
        py: Python<'_>,
        blueprint: &Blueprint,
        diagram: &Arc<Diagram>,
    ) -> PyResult<Arc<ParameterSet>> {
        if !Arc::ptr_eq(&self.diagram, diagram) {
            return Err(PyValueError::new_err(
                "this parameter vector was laid out for another model: lay it out with this model's parameter_vector",
            ));
        }
        // Made without the GIL: a vector that moves mechanism values elaborates the mechanism
        // again (up to a fraction of a millisecond on a robot).
        let vector = &self.vector;
        py.detach(|| blueprint.parameters_from(diagram, vector))
            .map(Arc::new)
            .map_err(|d| model_error(py, &d, d.to_string()))
    }
}

#[pymethods]
impl ParameterVector {
    /// The slots' paths, in order (``"ball.mass"``, ``"free.position[2]"``).
    #[getter]
    fn paths(&self) -> Vec<String> {
        self.vector.paths().map(str::to_string).collect()
    }

    /// The slots' values, a new float64 array.
    #[getter]
    fn values<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.vector.values().to_pyarray(py)
    }

    /// The values the model was built with, a new float64 array.
    #[getter]
    fn built_values<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.vector.built_values().to_pyarray(py)
    }

    /// The same slots with ``values`` (one number per slot, a sequence or a 1-D array).
    fn with_values(&self, values: &Bound<'_, PyAny>) -> PyResult<ParameterVector> {
        let values = state_vector(values)?;
        let vector = self
            .vector
            .with_values(&values)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(ParameterVector {
            vector,
            diagram: Arc::clone(&self.diagram),
        })
    }

    fn __len__(&self) -> usize {
        self.vector.len()
    }

    fn __repr__(&self) -> String {
        let slots: Vec<String> = self
            .vector
            .paths()
            .zip(self.vector.values())
            .map(|(p, x)| format!("{p}={x}"))
            .collect();
        format!("ParameterVector({})", slots.join(", "))
    }
}
