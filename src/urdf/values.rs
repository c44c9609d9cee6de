//! The values a URDF expansion writes, each as a model file would write it and all located at
//! one place (the Urdf block's `file`): numbers, vectors, rows, tables, a rigid transform's
//! parameters, a Solid's drawn box, and the physical connections between the blocks.

use super::read::Origin;
use crate::blocks::multibody::kinds::SolidShape;
use crate::model::connection::{Connection, ConnectionKind, PortRef};
use crate::model::value::{Entry, Table, Value, ValueKind};
use crate::model::Span;
use nalgebra::{Matrix3, Vector3};

/// A block's frame port as one end of a physical connection: the block's index among the
/// expansion's blocks and the port's name.
pub(super) type End = (usize, &'static str);

/// Builds values with one span (where the Urdf block's `file` is written).
pub(super) struct Values {
    pub(super) span: Span,
}

impl Values {
    pub(super) fn v(&self, kind: ValueKind) -> Value {
        Value {
            kind,
            span: self.span.clone(),
        }
    }
    pub(super) fn num(&self, x: f64) -> Value {
        self.v(ValueKind::Float(x))
    }
    pub(super) fn text(&self, s: &str) -> Value {
        self.v(ValueKind::String(s.into()))
    }
    pub(super) fn vec(&self, xs: &[f64]) -> Value {
        self.v(ValueKind::Array(xs.iter().map(|x| self.num(*x)).collect()))
    }
    pub(super) fn rows(&self, rows: &[[f64; 3]]) -> Value {
        self.v(ValueKind::Array(rows.iter().map(|r| self.vec(r)).collect()))
    }
    pub(super) fn table(&self, entries: Vec<(&str, Value)>) -> Value {
        self.v(ValueKind::Table(Table {
            entries: entries
                .into_iter()
                .map(|(k, value)| Entry {
                    key: k.into(),
                    key_span: self.span.clone(),
                    value,
                })
                .collect(),
        }))
    }
    /// A RigidTransform's parameters for `origin` (nothing for the identity).
    pub(super) fn origin_params(&self, origin: &Origin) -> Vec<(String, Value)> {
        let mut p = Vec::new();
        if origin.xyz != [0.0; 3] {
            p.push(("translation".into(), self.vec(&origin.xyz)));
        }
        if origin.rpy != [0.0; 3] {
            // URDF's fixed-axis roll-pitch-yaw, R = Rz(y)·Ry(p)·Rx(r), is the intrinsic z-y-x
            // sequence with the angles in the order yaw, pitch, roll.
            let [r, pitch, y] = origin.rpy;
            p.push((
                "rotation".into(),
                self.table(vec![
                    ("sequence", self.text("zyx")),
                    ("angles", self.vec(&[y, pitch, r])),
                ]),
            ));
        }
        p
    }
    pub(super) fn axis_angle(&self, axis: Vector3<f64>, angle: f64) -> Value {
        self.table(vec![
            ("axis", self.vec(axis.as_slice())),
            ("angle", self.num(angle)),
        ])
    }
    /// The physical connection `from -- to`, as `"a.F -- b.B"` reads (the model's parser is
    /// not run on it: the names are the expansion's own, checked once by the Urdf instance).
    pub(super) fn joined(&self, from: (String, &str), to: (String, &str)) -> Connection {
        let end = |(block, port): (String, &str)| PortRef {
            block,
            port: port.to_string(),
            index: None,
        };
        Connection {
            kind: ConnectionKind::Physical,
            from: end(from),
            to: end(to),
            span: self.span.clone(),
        }
    }
}

/// The uniform box with mass `m` and inertia `i` about its centre: its edges along the
/// principal axes, full lengths s_k = √(6·(I_a + I_b − I_k)/m) (a brick when `i` is diagonal, else
/// the convex hull of its corners). Edges are at least 1 mm and 2 % of the longest, so that a
/// point mass or a thin rod is still drawn.
pub(super) fn equivalent_box(m: f64, i: &Matrix3<f64>, val: &Values) -> Value {
    let diagonal = i[(0, 1)] == 0.0 && i[(0, 2)] == 0.0 && i[(1, 2)] == 0.0;
    let (moments, axes) = if diagonal {
        (
            Vector3::new(i[(0, 0)], i[(1, 1)], i[(2, 2)]),
            Matrix3::identity(),
        )
    } else {
        let e = i.symmetric_eigen();
        (e.eigenvalues, e.eigenvectors)
    };
    let trace = moments.sum();
    let mut size = [0.0; 3];
    for (k, s) in size.iter_mut().enumerate() {
        *s = (6.0 * (trace - 2.0 * moments[k]) / m).max(0.0).sqrt();
    }
    let longest = size.iter().copied().fold(0.0, f64::max);
    for s in &mut size {
        *s = s.max(0.02 * longest).max(1e-3);
    }
    if diagonal {
        return val.table(vec![
            ("shape", val.text(SolidShape::Brick.name())),
            ("size", val.vec(&size)),
        ]);
    }
    let mut corners = Vec::with_capacity(8);
    for signs in 0..8 {
        let local = Vector3::from_fn(|k, _| {
            let sign = if signs & (1 << k) == 0 { -0.5 } else { 0.5 };
            sign * size[k]
        });
        let c = axes * local;
        corners.push([c.x, c.y, c.z]);
    }
    val.table(vec![
        ("shape", val.text(SolidShape::ConvexHull.name())),
        ("points", val.rows(&corners)),
    ])
}
