//! Python values to model values: parameters of built blocks, `set` overrides, `vary` lists.

use crate::errors::model_error;
use blockdyn::builder::ParamValue;
use blockdyn::sweep::VaryAxis;
use blockdyn::Override;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// How deeply lists, tuples and dicts may nest in a model value given from Python (deeper values
/// raise `ValueError`; a model file nests a few levels at most). Documented in docs/python.md.
pub(crate) const MAX_VALUE_DEPTH: usize = 64;

/// A Python value as a model value: bool, int, float (numpy scalars too), str, list/tuple (or a
/// numpy array), dict with str keys. `what` names the value in messages (e.g. `"set:
/// 'free.position'"`, `"parameter 'gain'"`). A value nested deeper than [`MAX_VALUE_DEPTH`] or a
/// list or dict that contains itself raises `ValueError` (no unbounded recursion).
pub(crate) fn param_value(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<ParamValue> {
    let mut open = Vec::new();
    value_at(obj, what, 0, &mut open)
}

/// [`param_value`] at nesting `depth`, inside the containers `open` (their addresses).
fn value_at(
    obj: &Bound<'_, PyAny>,
    what: &str,
    depth: usize,
    open: &mut Vec<usize>,
) -> PyResult<ParamValue> {
    if obj.is_instance_of::<PyBool>() {
        return Ok(ParamValue::Bool(obj.extract()?));
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(ParamValue::Integer(obj.extract()?));
    }
    if obj.is_instance_of::<PyFloat>() {
        return Ok(ParamValue::Float(obj.extract()?));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(ParamValue::String(s.to_cow()?.into_owned()));
    }
    let is_dict = obj.is_instance_of::<PyDict>();
    let is_sequence = obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>();
    if is_dict || is_sequence || obj.hasattr("tolist")? {
        let address = obj.as_ptr() as usize;
        if open.contains(&address) {
            return Err(PyValueError::new_err(format!(
                "{what}: the value contains itself (a {} that holds itself, directly or through \
                 another list or dict); give a value without cycles (a list or dict of plain \
                 values)",
                type_name(obj)
            )));
        }
        if depth >= MAX_VALUE_DEPTH {
            return Err(PyValueError::new_err(format!(
                "{what}: the value nests lists, tuples or dicts more than {MAX_VALUE_DEPTH} levels \
                 deep (the limit); give a flatter value (a model value nests a few levels at most)"
            )));
        }
        open.push(address);
        let value = container_value(obj, what, depth, open);
        open.pop();
        if let Some(value) = value? {
            return Ok(value);
        }
    }
    if let Ok(x) = obj.extract::<f64>() {
        return Ok(ParamValue::Float(x));
    }
    Err(PyTypeError::new_err(format!(
        "{what}: a model value is a bool, int, float, str, list or dict, not {}",
        type_name(obj)
    )))
}

/// A dict, list or tuple (or a numpy value, through its `tolist`) at `depth`; `None` when
/// `obj` is none of these after all.
fn container_value(
    obj: &Bound<'_, PyAny>,
    what: &str,
    depth: usize,
    open: &mut Vec<usize>,
) -> PyResult<Option<ParamValue>> {
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut entries = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            let key: String = k.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{what}: a table's keys are strings, not {}",
                    type_name(&k)
                ))
            })?;
            entries.push((key, value_at(&v, what, depth + 1, open)?));
        }
        return Ok(Some(ParamValue::Table(entries)));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut items = Vec::new();
        for x in obj.try_iter()? {
            items.push(value_at(&x?, what, depth + 1, open)?);
        }
        return Ok(Some(ParamValue::Array(items)));
    }
    // numpy arrays and scalars: their Python equivalents.
    let plain = obj.call_method0("tolist")?;
    if plain.is(obj) {
        return Ok(None);
    }
    value_at(&plain, what, depth + 1, open).map(Some)
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// `set=`: a dict `{path: value}` (Python values, passed as they are) or a sequence of
/// `"PATH=VALUE"` strings (TOML values, exactly as `--set` takes them, read here once), as
/// overrides.
pub(crate) fn overrides(py: Python<'_>, set: &Bound<'_, PyAny>) -> PyResult<Vec<Override>> {
    if set.is_none() {
        return Ok(Vec::new());
    }
    if let Ok(d) = set.cast::<PyDict>() {
        let mut out = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            let path: String = k.extract().map_err(|_| {
                PyTypeError::new_err(
                    "set: the keys are dotted paths (str), e.g. \"contact.normal.stiffness\"",
                )
            })?;
            let value = param_value(&v, &format!("set: '{path}'"))?;
            out.push(Override::new(path, value));
        }
        return Ok(out);
    }
    if set.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "set: give a dict {\"block.param\": value} or a list of \"PATH=VALUE\" strings",
        ));
    }
    let texts: Vec<String> = set
        .try_iter()
        .map_err(|_| {
            PyTypeError::new_err(
                "set: give a dict {\"block.param\": value} or a list of \"PATH=VALUE\" strings",
            )
        })?
        .map(|item| {
            item?.extract::<String>().map_err(|_| {
                PyTypeError::new_err("set: each item of a list is a \"PATH=VALUE\" string")
            })
        })
        .collect::<PyResult<_>>()?;
    Override::parse_set_options(&texts).map_err(|d| model_error(py, &d, d.to_string()))
}

/// `vary=`: a dict `{path: [values...]}` as axes of typed values, in the dict's order.
pub(crate) fn vary_axes(vary: &Bound<'_, PyDict>) -> PyResult<Vec<VaryAxis>> {
    let mut axes = Vec::with_capacity(vary.len());
    for (k, v) in vary.iter() {
        let path: String = k
            .extract()
            .map_err(|_| PyTypeError::new_err("vary: the keys are dotted paths (str)"))?;
        if v.is_instance_of::<PyString>() || v.is_instance_of::<PyDict>() {
            return Err(PyTypeError::new_err(format!(
                "vary: the values of '{path}' are a list of values, not {}",
                type_name(&v)
            )));
        }
        let values: PyResult<Vec<ParamValue>> = v
            .try_iter()
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "vary: the values of '{path}' are a list of values, not {}",
                    type_name(&v)
                ))
            })?
            .map(|x| param_value(&x?, &format!("vary: '{path}'")))
            .collect();
        let values = values?;
        if values.is_empty() {
            return Err(PyValueError::new_err(format!(
                "vary: '{path}' has no values"
            )));
        }
        axes.push(VaryAxis::new(&path, values));
    }
    Ok(axes)
}
