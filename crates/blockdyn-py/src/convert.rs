//! Python values to model values: parameters of built blocks, `set` overrides, `vary` lists.

use blockdyn::builder::ParamValue;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// A Python value as a model value: bool, int, float (numpy scalars too), str, list/tuple (or a
/// numpy array), dict with str keys.
pub(crate) fn param_value(obj: &Bound<'_, PyAny>) -> PyResult<ParamValue> {
    if obj.is_instance_of::<PyBool>() {
        return Ok(ParamValue::Bool(obj.extract()?));
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(ParamValue::Integer(obj.extract()?));
    }
    if obj.is_instance_of::<PyFloat>() {
        return Ok(ParamValue::Number(obj.extract()?));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(ParamValue::Text(s.to_cow()?.into_owned()));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut entries = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            let key: String = k.extract().map_err(|_| {
                PyTypeError::new_err(format!("a table's keys are strings, not {}", type_name(&k)))
            })?;
            entries.push((key, param_value(&v)?));
        }
        return Ok(ParamValue::Table(entries));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let items: PyResult<Vec<ParamValue>> = obj.try_iter()?.map(|x| param_value(&x?)).collect();
        return Ok(ParamValue::Array(items?));
    }
    // numpy arrays and scalars: their Python equivalents.
    if obj.hasattr("tolist")? {
        let plain = obj.call_method0("tolist")?;
        if !plain.is(obj) {
            return param_value(&plain);
        }
    }
    if let Ok(x) = obj.extract::<f64>() {
        return Ok(ParamValue::Number(x));
    }
    Err(PyTypeError::new_err(format!(
        "a model value is a bool, int, float, str, list or dict, not {}",
        type_name(obj)
    )))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// `set=`: a dict `{path: value}` (Python values) or a sequence of `"PATH=VALUE"` strings (TOML
/// values, exactly as `--set` takes them), as `PATH=VALUE` strings.
pub(crate) fn overrides(set: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
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
            out.push(format!("{path}={}", param_value(&v)?.to_toml()));
        }
        return Ok(out);
    }
    if set.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "set: give a dict {\"block.param\": value} or a list of \"PATH=VALUE\" strings",
        ));
    }
    set.try_iter()
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
        .collect()
}

/// `vary=`: a dict `{path: [values...]}` as (path, TOML texts) axes, in the dict's order.
pub(crate) fn vary_axes(vary: &Bound<'_, PyDict>) -> PyResult<Vec<(String, Vec<String>)>> {
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
        let values: PyResult<Vec<String>> = v
            .try_iter()
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "vary: the values of '{path}' are a list of values, not {}",
                    type_name(&v)
                ))
            })?
            .map(|x| Ok(param_value(&x?)?.to_toml()))
            .collect();
        let values = values?;
        if values.is_empty() {
            return Err(PyValueError::new_err(format!(
                "vary: '{path}' has no values"
            )));
        }
        axes.push((path, values));
    }
    Ok(axes)
}
