//! `blockdyn.Builder`: the Rust [`blockdyn::builder::ModelBuilder`] for Python.

use crate::convert::param_value;
use crate::{model_error, Model};
use blockdyn::builder as rust;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::collections::HashMap;

/// A block to add to a :class:`Builder`: its type and parameters.
///
/// ``BlockSpec.of_type("Gain", gain=2.0)`` makes a block of any registered type (the keys a model
/// file writes); the static methods (``gain``, ``integrator``, ``solid_sphere``, ...) make the
/// common ones, each with the Rust builder's typed constructor (``Gain::new``, …). ``spec.param(key, value)`` returns a copy with one more parameter.
#[pyclass(frozen, module = "blockdyn")]
#[derive(Clone)]
pub struct BlockSpec {
    inner: rust::BlockSpec,
}

fn with_params(
    mut spec: rust::BlockSpec,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<rust::BlockSpec> {
    if let Some(params) = params {
        for (k, v) in params.iter() {
            let key: String = k.extract()?;
            let value = param_value(&v, &format!("parameter '{key}'"))?;
            spec = spec.param(&key, value);
        }
    }
    Ok(spec)
}

fn spec(inner: rust::BlockSpec) -> BlockSpec {
    BlockSpec { inner }
}

#[pymethods]
impl BlockSpec {
    /// A block of type ``type_name`` (``type = "..."`` in a model file) with the keyword
    /// arguments as its parameters.
    #[staticmethod]
    #[pyo3(signature = (type_name, **params))]
    fn of_type(type_name: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<BlockSpec> {
        Ok(spec(with_params(
            rust::BlockSpec::of_type(type_name),
            params,
        )?))
    }

    /// A copy with the parameter ``key`` set to ``value`` (a number, bool, str, list or dict).
    fn param(&self, key: &str, value: &Bound<'_, PyAny>) -> PyResult<BlockSpec> {
        let value = param_value(value, &format!("parameter '{key}'"))?;
        Ok(spec(self.inner.clone().param(key, value)))
    }

    /// Constant: ``out = value``.
    #[staticmethod]
    fn constant(value: f64) -> BlockSpec {
        spec(rust::blocks::Constant::new(value).into())
    }
    /// Gain: ``out = gain·in``.
    #[staticmethod]
    fn gain(gain: f64) -> BlockSpec {
        spec(rust::blocks::Gain::new(gain).into())
    }
    /// Sum with one sign per input, e.g. ``"+-"``.
    #[staticmethod]
    fn sum(signs: &str) -> BlockSpec {
        spec(rust::blocks::Sum::new(signs).into())
    }
    /// Integrator with its initial value.
    #[staticmethod]
    fn integrator(initial: f64) -> BlockSpec {
        spec(rust::blocks::Integrator::new(initial).into())
    }
    /// Scope with ``inputs`` inputs (``in1`` .. ``inN``); its inputs are recorded.
    #[staticmethod]
    fn scope(inputs: usize) -> BlockSpec {
        spec(rust::blocks::Scope::new(inputs).into())
    }
    /// The World frame (port ``W``).
    #[staticmethod]
    fn world_frame() -> BlockSpec {
        spec(rust::blocks::WorldFrame::new().into())
    }
    /// Gravity in World, m/s² (and the mechanism's other settings).
    #[staticmethod]
    fn mechanism_configuration(gravity: [f64; 3]) -> BlockSpec {
        spec(rust::blocks::MechanismConfiguration::new(gravity).into())
    }
    /// An infinite plane (its normal is the frame's +z).
    #[staticmethod]
    fn infinite_plane() -> BlockSpec {
        spec(rust::blocks::InfinitePlane::new().into())
    }
    /// A solid sphere of ``radius`` (m) and ``mass`` (kg).
    #[staticmethod]
    fn solid_sphere(radius: f64, mass: f64) -> BlockSpec {
        spec(
            rust::blocks::Solid::new(rust::blocks::Shape::sphere(radius))
                .mass(mass)
                .into(),
        )
    }
    /// A solid brick of ``size`` (m, full edge lengths) and ``mass`` (kg).
    #[staticmethod]
    fn solid_brick(size: [f64; 3], mass: f64) -> BlockSpec {
        spec(
            rust::blocks::Solid::new(rust::blocks::Shape::brick(size))
                .mass(mass)
                .into(),
        )
    }
    /// A six-DOF joint starting at ``position`` (m, World), at rest.
    #[staticmethod]
    fn six_dof_joint(position: [f64; 3]) -> BlockSpec {
        spec(rust::blocks::SixDofJoint::new(position).into())
    }
    /// A revolute joint about the z axis of its frames.
    #[staticmethod]
    fn revolute_joint() -> BlockSpec {
        spec(rust::blocks::Joint::revolute().into())
    }
    /// The Spatial Contact Force with a linear spring-damper normal law (``stiffness`` N/m,
    /// ``damping`` N·s/m) and no friction; change it with :meth:`param`.
    #[staticmethod]
    fn linear_contact(stiffness: f64, damping: f64) -> BlockSpec {
        let normal = rust::blocks::NormalLaw::linear(stiffness, damping);
        let contact = rust::blocks::SpatialContactForce::new(normal);
        spec(contact.friction(rust::blocks::FrictionLaw::none()).into())
    }

    fn __repr__(&self) -> String {
        format!("{:?}", self.inner)
    }
}

/// A block added to a :class:`Builder`. ``handle.port("out")`` (or ``handle["out"]``) names one
/// of its ports, ``"name.out"``, for :meth:`Builder.connect` and :meth:`Builder.attach`.
#[pyclass(frozen, module = "blockdyn")]
pub struct BlockHandle {
    inner: rust::BlockHandle,
}

#[pymethods]
impl BlockHandle {
    /// The block's name in the model.
    #[getter]
    fn name(&self) -> &str {
        self.inner.name()
    }

    /// The port ``port`` of this block as ``"block.port"`` (an element: ``"p[2]"``).
    fn port(&self, port: &str) -> String {
        format!("{}.{port}", self.inner.name())
    }

    fn __getitem__(&self, port: &str) -> String {
        self.port(port)
    }

    /// The recorded column of its output ``port`` in ``result`` (a view, as ``result[...]``).
    fn column<'py>(
        &self,
        result: &Bound<'py, crate::SimulationResult>,
        port: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        result.as_any().get_item(self.port(port))
    }

    fn __repr__(&self) -> String {
        format!("<blockdyn.BlockHandle {:?}>", self.inner.name())
    }
}

/// A model built in code (the Rust ``ModelBuilder``'s Python face).
///
/// ``Builder(name, stop_time)``, then :meth:`add` blocks, :meth:`connect` signal lines (output to
/// input) and :meth:`attach` physical connections (frames, geometry to contact), set
/// :meth:`solver` and :meth:`output` settings, and :meth:`build` a :class:`Model`. A built model
/// gets every check and message a model file gets, naming the model, the block and the
/// parameter, with no line (it has no text); :meth:`to_toml` writes it out.
#[pyclass(module = "blockdyn")]
pub struct Builder {
    inner: rust::ModelBuilder,
    handles: HashMap<String, rust::BlockHandle>,
}

impl Builder {
    /// `"block.port"` (or a string a handle gave) as the builder's port reference.
    fn port_ref(&self, port: &Bound<'_, PyAny>) -> PyResult<rust::PortRef> {
        let text: String = port.extract().map_err(|_| {
            PyTypeError::new_err("a port is \"block.port\", e.g. ball.port(\"G\") or \"ball.G\"")
        })?;
        let Some((block, rest)) = text.split_once('.') else {
            return Err(PyValueError::new_err(format!(
                "'{text}' is not \"block.port\""
            )));
        };
        let handle = self.handles.get(block).ok_or_else(|| {
            PyValueError::new_err(format!(
                "'{text}': no block '{block}' was added to this builder (add it first)"
            ))
        })?;
        Ok(handle.port(rest))
    }
}

#[pymethods]
impl Builder {
    /// A model called ``name`` that runs from t = 0 to ``stop_time`` (s).
    #[new]
    #[pyo3(signature = (name, stop_time))]
    fn new(name: &str, stop_time: f64) -> Builder {
        Builder {
            inner: rust::ModelBuilder::new(name, stop_time),
            handles: HashMap::new(),
        }
    }

    /// ``[solver]`` settings as keyword arguments: ``b.solver(rel_tol=1e-6, method="trbdf2")``.
    /// Returns the builder.
    #[pyo3(signature = (**settings))]
    fn solver<'py>(
        slf: Bound<'py, Self>,
        settings: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, Self>> {
        if let Some(settings) = settings {
            for (k, v) in settings.iter() {
                let key: String = k.extract()?;
                let value = param_value(&v, &format!("solver setting '{key}'"))?;
                slf.borrow_mut().inner.solver(&key, value);
            }
        }
        Ok(slf)
    }

    /// ``[output]`` settings as keyword arguments: ``b.output(log=["contact.penetration"])``.
    /// Returns the builder.
    #[pyo3(signature = (**settings))]
    fn output<'py>(
        slf: Bound<'py, Self>,
        settings: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, Self>> {
        if let Some(settings) = settings {
            for (k, v) in settings.iter() {
                let key: String = k.extract()?;
                let value = param_value(&v, &format!("output setting '{key}'"))?;
                slf.borrow_mut().inner.output(&key, value);
            }
        }
        Ok(slf)
    }

    /// Adds a block called ``name``: ``block`` is a :class:`BlockSpec` or a type name
    /// (``"Gain"``), the keyword arguments further parameters. Returns its :class:`BlockHandle`.
    #[pyo3(signature = (name, block, **params))]
    fn add(
        &mut self,
        name: &str,
        block: &Bound<'_, PyAny>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<BlockHandle> {
        let base = if let Ok(s) = block.cast::<BlockSpec>() {
            s.get().inner.clone()
        } else if let Ok(t) = block.cast::<PyString>() {
            rust::BlockSpec::of_type(&t.to_cow()?)
        } else {
            return Err(PyTypeError::new_err(
                "add(name, block): block is a BlockSpec or a block type name (str)",
            ));
        };
        let handle = self.inner.add(name, with_params(base, params)?);
        self.handles.insert(name.to_string(), handle.clone());
        Ok(BlockHandle { inner: handle })
    }

    /// A signal line from ``output`` to ``input``: ``b.connect(k.port("out"), x.port("in"))`` or
    /// ``b.connect("k.out", "x.in")``. Returns the builder.
    fn connect<'py>(
        slf: Bound<'py, Self>,
        output: &Bound<'py, PyAny>,
        input: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        let (a, b) = {
            let this = slf.borrow();
            (this.port_ref(output)?, this.port_ref(input)?)
        };
        slf.borrow_mut().inner.connect(a, b);
        Ok(slf)
    }

    /// A physical connection between two frames, or a geometry and a contact block's port:
    /// ``b.attach(world.port("W"), free.port("B"))``. Returns the builder.
    fn attach<'py>(
        slf: Bound<'py, Self>,
        a: &Bound<'py, PyAny>,
        b: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        let (a, b) = {
            let this = slf.borrow();
            (this.port_ref(a)?, this.port_ref(b)?)
        };
        slf.borrow_mut().inner.attach(a, b);
        Ok(slf)
    }

    /// The model as a model file writes it (write it to a file to keep the model; the file reads
    /// back into the same model).
    fn to_toml(&self) -> String {
        self.inner.to_toml()
    }

    /// Builds the model (standard block library); returns a :class:`Model`. Raises
    /// :class:`ModelError` with the message a model file would get.
    fn build(&self, py: Python<'_>) -> PyResult<Model> {
        let document = self
            .inner
            .document()
            .map_err(|d| model_error(py, &d, d.to_string()))?;
        Model::build(py, document, Vec::new(), None)
    }

    fn __repr__(&self) -> String {
        format!("<blockdyn.Builder with {} blocks>", self.handles.len())
    }
}
