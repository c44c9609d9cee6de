//! Helpers shared by the signal blocks: documentation constructors, parameter forms used by
//! several blocks (numbers-or-arrays, matrices, port lists), element-wise shape rules and the
//! sample-hit clock of the discrete blocks.

use crate::block::{BlockError, Param, PortDecl, Required, Shape};
use crate::params::ParamResult;
use crate::params::{ParamError, Params};
use crate::solver::Direction;

/// A parameter's documentation (for the `BlockType` tables).
pub(crate) const fn param(
    name: &'static str,
    unit: &'static str,
    default: &'static str,
    doc: &'static str,
) -> crate::block::ParamDoc {
    crate::block::ParamDoc {
        name,
        unit,
        default,
        doc,
    }
}

/// A port's documentation.
pub(crate) const fn port(
    name: &'static str,
    kind: &'static str,
    shape: &'static str,
    unit: &'static str,
    doc: &'static str,
) -> crate::block::PortDoc {
    crate::block::PortDoc {
        name,
        kind,
        shape,
        unit,
        doc,
    }
}

/// Element `e` of a signal that may be a scalar broadcast over all elements (or an unconnected
/// optional input, which has no elements and reads zero).
#[inline]
pub(crate) fn at(values: &[f64], e: usize) -> f64 {
    match values.len() {
        0 => 0.0,
        1 => values[0],
        _ => values[e],
    }
}

/// `prefix1 .. prefixN` inherited signal ports.
pub(crate) fn numbered_ports(prefix: &str, n: usize) -> Vec<PortDecl> {
    (1..=n)
        .map(|i| PortDecl::inherited(format!("{prefix}{i}")))
        .collect()
}

/// The column-vector shape of `n` elements (1×1 when `n` = 1).
pub(crate) fn column(n: usize) -> Shape {
    Shape::vector(n)
}

/// A numeric parameter that is a number (1×1), a flat array (n×1 column) or an array of rows
/// (r×c matrix). Returns the values column-major and the shape.
pub(crate) fn read_array(r: &Params, key: &'static str) -> ParamResult<Option<(Vec<f64>, Shape)>> {
    let Some(v) = r.value(key) else {
        return Ok(None);
    };
    let flat = v
        .as_array()
        .is_none_or(|items| items.iter().all(|i| i.as_f64().is_some()));
    if flat {
        let values = r.vector(key)?.unwrap_or_default();
        r.ensure(
            !values.is_empty(),
            key,
            "must not be empty",
            &format!(
                "write a number or an array, e.g. {} = [1.0, 2.0]",
                r.name(key)
            ),
        )?;
        let shape = column(values.len());
        return Ok(Some((values, shape)));
    }
    let rows = r.rows(key)?.unwrap_or_default();
    let (nr, nc) = (rows.len(), rows.first().map_or(0, Vec::len));
    r.ensure(
        nc > 0,
        key,
        "must not have empty rows",
        &format!("write e.g. {} = [[1.0, 0.0], [0.0, 1.0]]", r.name(key)),
    )?;
    let mut values = Vec::with_capacity(nr * nc);
    for c in 0..nc {
        values.extend(rows.iter().map(|row| row[c]));
    }
    Ok(Some((values, Shape::new(nr, nc))))
}

/// [`read_array`] of a parameter with a numeric default (a 1×1 array when not written).
pub(crate) fn read_array_or(r: &Params, param: &Param<f64>) -> ParamResult<(Vec<f64>, Shape)> {
    Ok(read_array(r, param.name())?.unwrap_or((vec![param.default], Shape::SCALAR)))
}

/// A matrix parameter of expected size `rows × cols` (`None` = any), stored row-major.
///
/// Written as an array of rows; a flat array is accepted when it fits one of the expected
/// orientations (a single row when `rows` = 1, else a single column).
pub(crate) fn read_matrix(
    r: &Params,
    key: &'static str,
    rows: Option<usize>,
    cols: Option<usize>,
) -> ParamResult<Option<(usize, usize, Vec<f64>)>> {
    let Some(v) = r.value(key) else {
        return Ok(None);
    };
    let flat = v
        .as_array()
        .is_none_or(|items| items.iter().all(|i| i.as_f64().is_some()));
    let (nr, nc, data) = if flat {
        let values = r.vector(key)?.unwrap_or_default();
        if rows == Some(1) || (rows.is_none() && cols == Some(values.len()) && cols != Some(1)) {
            (1, values.len(), values)
        } else {
            (values.len(), 1, values)
        }
    } else {
        let m = r.rows(key)?.unwrap_or_default();
        let (nr, nc) = (m.len(), m.first().map_or(0, Vec::len));
        (nr, nc, m.into_iter().flatten().collect())
    };
    let want = |n: Option<usize>| n.map_or("any".to_string(), |n| n.to_string());
    if nr == 0 || nc == 0 || rows.is_some_and(|n| n != nr) || cols.is_some_and(|n| n != nc) {
        return Err(r
            .error(
                key,
                format!(
                    "'{}' is {nr}×{nc} but must be {}×{}",
                    r.name(key),
                    want(rows),
                    want(cols)
                ),
            )
            .hint(format!(
                "write {} as an array of rows, e.g. {} = [[0.0, 1.0], [-1.0, -2.0]]",
                r.name(key),
                r.name(key)
            )));
    }
    Ok(Some((nr, nc, data)))
}

/// A zero-crossing direction written `"rising" | "falling" | "either"`.
pub(crate) fn read_direction(r: &Params, param: &Param<&str>) -> ParamResult<Direction> {
    Ok(match param.read(r)? {
        "rising" => Direction::Rising,
        "falling" => Direction::Falling,
        _ => Direction::Either,
    })
}

/// A port count ≥ `min` with its documented default.
pub(crate) fn read_port_count(r: &Params, param: &Param<usize>, min: usize) -> ParamResult<usize> {
    read_count(r, param.name(), param.default, min)
}

/// A port count ≥ `min` with a default (what [`read_port_count`] reads).
fn read_count(r: &Params, key: &'static str, default: usize, min: usize) -> ParamResult<usize> {
    let n = r.usize(key)?.unwrap_or(default);
    r.ensure(
        (min..=1024).contains(&n),
        key,
        &format!("must be between {min} and 1024 (got {n})"),
        &format!("write e.g. {} = {}", r.name(key), default.max(min)),
    )?;
    Ok(n)
}

/// Shape propagation of an element-wise block with several inputs (Sum, Product, MinMax): the
/// output takes the inputs' broadcast shape once they are known. With a single input (a
/// reduction over its elements) the block's declared output shape stands.
pub(crate) fn propagate_broadcast(
    inputs: &[Option<Shape>],
    outputs: &mut [Option<Shape>],
) -> Result<(), BlockError> {
    if inputs.len() > 1 && outputs[0].is_none() {
        outputs[0] = broadcast_shape(inputs.iter())?;
    }
    Ok(())
}

/// The broadcast shape of the given (possibly unknown) data-input shapes: the common non-scalar
/// shape when there is one, 1×1 when all are known scalars, unknown otherwise.
pub(crate) fn broadcast_shape<'s>(
    shapes: impl Iterator<Item = &'s Option<Shape>>,
) -> Result<Option<Shape>, BlockError> {
    let mut common: Option<Shape> = None;
    let mut all_known = true;
    for s in shapes {
        match s {
            None => all_known = false,
            Some(s) if s.is_scalar() => {}
            Some(s) => match common {
                None => common = Some(*s),
                Some(c) if c != *s => {
                    return Err(BlockError::NotBroadcastable {
                        first: c,
                        second: *s,
                    });
                }
                _ => {}
            },
        }
    }
    Ok(common.or(all_known.then_some(Shape::SCALAR)))
}

/// Checks that every input shape is 1×1 or `out`.
pub(crate) fn check_broadcast(
    names: &[PortDecl],
    inputs: &[Shape],
    out: Shape,
) -> Result<(), BlockError> {
    for (d, s) in names.iter().zip(inputs) {
        if !s.is_scalar() && *s != out {
            return Err(BlockError::InputShape {
                port: d.name.clone(),
                found: *s,
                output: out,
                scalar_ok: true,
            });
        }
    }
    Ok(())
}

/// The sample hits `offset + k·period` of a discrete block, indexed by `k` (stored as f64 in a
/// work slot so the hit time is recomputed exactly the same way every time it is needed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SampleClock {
    /// s, > 0.
    pub period: f64,
    /// s, ≥ 0 and < period.
    pub offset: f64,
}

impl SampleClock {
    /// The documentation of `offset`, whose default is 0.
    pub const OFFSET: Param<f64> = crate::param!(
            "offset",
            "s",
            0.0,
            "time of the first hit, in [0, sample_time)"; non_negative,
    );

    /// The sample period, which must be written.
    pub const SAMPLE_TIME: Required<f64> = crate::param!(
        "sample_time",
        "s",
        required("s, the sample period"),
        "sample period (> 0)"; positive_else("write the sample period in seconds, e.g. sample_time = 0.01"),
    );

    /// Reads [`SampleClock::SAMPLE_TIME`] and [`SampleClock::OFFSET`].
    pub fn read(r: &Params) -> ParamResult<Self> {
        let period = Self::SAMPLE_TIME.read(r)?;
        let offset = Self::OFFSET.read(r)?;
        r.ensure(
            offset < period,
            "offset",
            &format!("must be smaller than sample_time ({offset} ≥ {period})"),
            "write an offset in [0, sample_time)",
        )?;
        Ok(SampleClock { period, offset })
    }

    /// Time of hit `k`, s.
    #[inline]
    pub fn hit(&self, k: f64) -> f64 {
        self.offset + k * self.period
    }

    /// The index of the first hit at or after `t`.
    pub fn first_at_or_after(&self, t: f64) -> f64 {
        let mut k = ((t - self.offset) / self.period).floor().max(0.0);
        while k > 0.0 && self.hit(k - 1.0) >= t {
            k -= 1.0;
        }
        while self.hit(k) < t {
            k += 1.0;
        }
        k
    }

    /// The first hit strictly after `t`, starting the search at index `k`.
    pub fn next_after(&self, t: f64, mut k: f64) -> f64 {
        while self.hit(k) <= t {
            k += 1.0;
        }
        self.hit(k)
    }
}

/// A located error about `key`, with a hint.
pub(crate) fn bad(
    r: &Params,
    key: &str,
    message: impl Into<String>,
    hint: impl Into<String>,
) -> ParamError {
    r.error(key, message).hint(hint)
}

/// Optional lower and upper limits, each one number or one value per element.
pub(crate) type LimitPair = (Option<Vec<f64>>, Option<Vec<f64>>);

/// A pair of optional limits, each a number (broadcast to every element) or one value per element
/// (a flat array), read from `lower_key` and `upper_key`. Checks that the arrays are not empty,
/// that their lengths agree (or one is a single number), and that lower < upper element by
/// element; the length against the signal is checked in `setup` ([`check_limit_len`]).
pub(crate) fn read_limits(
    r: &Params,
    lower_key: &'static str,
    upper_key: &'static str,
) -> Result<LimitPair, ParamError> {
    let mut limits = [None, None];
    for (slot, key) in limits.iter_mut().zip([lower_key, upper_key]) {
        if let Some(values) = r.vector(key)? {
            r.ensure(
                !values.is_empty(),
                key,
                "must not be empty",
                &format!("write a number, or one value per element: {key} = [-1.0, -2.0]"),
            )?;
            *slot = Some(values);
        }
    }
    let [lower, upper] = limits;
    if let (Some(lo), Some(hi)) = (&lower, &upper) {
        r.ensure(
            lo.len() == hi.len() || lo.len() == 1 || hi.len() == 1,
            upper_key,
            &format!("has {} values but '{lower_key}' has {}", hi.len(), lo.len()),
            "give both one value per element, or a single number for either",
        )?;
        let n = lo.len().max(hi.len());
        if let Some(e) = (0..n).find(|&e| at(lo, e) >= at(hi, e)) {
            return Err(bad(
                r,
                upper_key,
                format!(
                    "'{upper_key}' must be greater than {lower_key} ({} ≤ {}{})",
                    at(hi, e),
                    at(lo, e),
                    if n > 1 {
                        format!(" at element {e}")
                    } else {
                        String::new()
                    }
                ),
                format!("write {lower_key} < {upper_key}"),
            ));
        }
    }
    Ok((lower, upper))
}

/// `Err` unless input `port`'s shape `input` is the output's, `output`.
pub(crate) fn check_input_is_output(
    port: &PortDecl,
    input: Shape,
    output: Shape,
) -> Result<(), BlockError> {
    if input == output {
        Ok(())
    } else {
        Err(BlockError::InputShape {
            port: port.name.clone(),
            found: input,
            output,
            scalar_ok: false,
        })
    }
}

/// `Err` unless the limit `values` (named `key`) is a single number or has one value per
/// element of a signal of `n` elements.
pub(crate) fn check_limit_len(
    key: &str,
    values: Option<&[f64]>,
    n: usize,
) -> Result<(), BlockError> {
    check_values_len(key, values.map_or(1, <[f64]>::len), n)
}

/// `Err` unless a parameter with `len` values, one per element or a single one for all (named
/// `key`), fits a signal of `n` elements.
pub(crate) fn check_values_len(key: &str, len: usize, n: usize) -> Result<(), BlockError> {
    if len == 1 || len == n {
        Ok(())
    } else {
        Err(BlockError::ParamLength {
            param: key.to_string(),
            len,
            elements: n,
            single_ok: true,
        })
    }
}
