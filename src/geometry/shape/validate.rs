//! Small validation helpers shared by the shape constructors.

use crate::geometry::GeometryError;

/// `value` must be finite and > 0.
pub(crate) fn positive(
    shape: &'static str,
    parameter: &str,
    value: f64,
) -> Result<f64, GeometryError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(GeometryError::NonPositive {
            shape,
            parameter: parameter.to_string(),
            value,
        })
    }
}

/// `value` must be finite.
pub(crate) fn finite(
    shape: &'static str,
    parameter: impl FnOnce() -> String,
    value: f64,
) -> Result<f64, GeometryError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(GeometryError::NonFinite {
            shape,
            parameter: parameter(),
            value,
        })
    }
}

/// Every coordinate of every point must be finite; parameter names are `points[i][k]`.
pub(crate) fn finite_points(shape: &'static str, points: &[[f64; 3]]) -> Result<(), GeometryError> {
    for (i, p) in points.iter().enumerate() {
        for (k, &c) in p.iter().enumerate() {
            finite(shape, || format!("points[{i}][{k}]"), c)?;
        }
    }
    Ok(())
}
