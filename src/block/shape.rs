//! Signal shapes: every signal is a dense f64 matrix stored column-major (nalgebra's convention).

use std::fmt;

/// The shape of a signal: `rows × cols`, stored column-major. A scalar is 1×1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
}

impl Shape {
    /// The 1×1 scalar shape.
    pub const SCALAR: Shape = Shape { rows: 1, cols: 1 };

    /// A `rows × cols` matrix.
    pub const fn new(rows: usize, cols: usize) -> Self {
        Shape { rows, cols }
    }

    /// An `n × 1` column vector.
    pub const fn vector(n: usize) -> Self {
        Shape { rows: n, cols: 1 }
    }

    /// Number of elements.
    pub const fn len(&self) -> usize {
        self.rows * self.cols
    }

    /// True for a shape with no elements (e.g. an empty point cloud's 3×0 array).
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True for 1×1.
    pub const fn is_scalar(&self) -> bool {
        self.rows == 1 && self.cols == 1
    }

    /// True when one dimension is 1 (a row or column vector, or a scalar).
    pub const fn is_vector(&self) -> bool {
        self.rows == 1 || self.cols == 1
    }

    /// The CSV/legend name of element `k` (column-major) of a signal called `base`,
    /// per the model-format contract: `base` for 1×1, `base[i]` for vectors, `base[i,j]` otherwise.
    pub fn element_name(&self, base: &str, k: usize) -> String {
        if self.is_scalar() {
            base.to_string()
        } else if self.is_vector() {
            format!("{base}[{k}]")
        } else {
            format!("{base}[{},{}]", k % self.rows, k / self.rows)
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}×{}", self.rows, self.cols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_names_follow_the_csv_contract() {
        assert_eq!(Shape::SCALAR.element_name("a.p", 0), "a.p");
        assert_eq!(Shape::vector(3).element_name("a.p", 2), "a.p[2]");
        assert_eq!(Shape::new(1, 4).element_name("a.p", 3), "a.p[3]");
        // 2×3 column-major: element 3 is row 1, column 1.
        assert_eq!(Shape::new(2, 3).element_name("a.f", 3), "a.f[1,1]");
        assert_eq!(Shape::new(2, 3).element_name("a.f", 4), "a.f[0,2]");
    }
}
