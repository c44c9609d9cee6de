//! A height field z = h(x, y) over a rectangular grid, in contact on its +z side.

use super::validate::finite;
use crate::geometry::GeometryError;

/// Heights `z[i][j]` at `(x[i], y[j])` in R (m), interpolated bilinearly within each cell:
///
/// `h(x, y) = (1−u)(1−v)·z[i][j] + u(1−v)·z[i+1][j] + (1−u)v·z[i][j+1] + uv·z[i+1][j+1]`,
/// `u = (x − x[i])/(x[i+1] − x[i])`, `v = (y − y[j])/(y[j+1] − y[j])`.
///
/// The surface is continuous; its normal is continuous within a cell and may jump across cell
/// edges (as it would for any piecewise surface). The outward side is +z of R.
#[derive(Debug, Clone, PartialEq)]
pub struct GridSurface {
    x: Vec<f64>,
    y: Vec<f64>,
    /// Row-major heights: `z[i * ny + j]`.
    z: Vec<f64>,
}

/// Height, slope and cell lookup of a grid surface at one (x, y).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridSample {
    /// Height h(x, y) (m, in R).
    pub height: f64,
    /// ∂h/∂x (dimensionless).
    pub dh_dx: f64,
    /// ∂h/∂y (dimensionless).
    pub dh_dy: f64,
}

impl GridSurface {
    /// A grid from strictly increasing `x` (≥ 2 values), strictly increasing `y` (≥ 2 values) and
    /// `z` with `x.len()` rows of `y.len()` heights; all finite (m).
    pub fn new(x: &[f64], y: &[f64], z: &[Vec<f64>]) -> Result<Self, GeometryError> {
        check_axis("x", x)?;
        check_axis("y", y)?;
        if z.len() != x.len() {
            return Err(GeometryError::GridDimensions {
                rows_expected: x.len(),
                columns_expected: y.len(),
                detail: format!("z has {} rows", z.len()),
            });
        }
        let mut heights = Vec::with_capacity(x.len() * y.len());
        for (i, row) in z.iter().enumerate() {
            if row.len() != y.len() {
                return Err(GeometryError::GridDimensions {
                    rows_expected: x.len(),
                    columns_expected: y.len(),
                    detail: format!("row {i} has {} heights", row.len()),
                });
            }
            for (j, &h) in row.iter().enumerate() {
                heights.push(finite("grid surface", || format!("z[{i}][{j}]"), h)?);
            }
        }
        Ok(Self {
            x: x.to_vec(),
            y: y.to_vec(),
            z: heights,
        })
    }
    /// Grid x coordinates (m).
    pub fn x(&self) -> &[f64] {
        &self.x
    }
    /// Grid y coordinates (m).
    pub fn y(&self) -> &[f64] {
        &self.y
    }
    /// Height at grid node (i, j) (m).
    pub fn z(&self, i: usize, j: usize) -> f64 {
        self.z[i * self.y.len() + j]
    }
    /// Whether (x, y) lies in the grid's closed extent `[x0, xn] × [y0, yn]`.
    pub fn contains(&self, x: f64, y: f64) -> bool {
        x >= self.x[0]
            && x <= self.x[self.x.len() - 1]
            && y >= self.y[0]
            && y <= self.y[self.y.len() - 1]
    }
    /// Horizontal distance (m) from (x, y) to the grid's extent (0 inside).
    pub fn distance_to_extent(&self, x: f64, y: f64) -> f64 {
        let dx = (self.x[0] - x).max(x - self.x[self.x.len() - 1]).max(0.0);
        let dy = (self.y[0] - y).max(y - self.y[self.y.len() - 1]).max(0.0);
        dx.hypot(dy)
    }
    /// Bilinear height and slopes at (x, y); `None` outside the extent. On a shared cell edge the
    /// cell with the larger index is used (the last cell on the upper boundary).
    pub fn sample(&self, x: f64, y: f64) -> Option<GridSample> {
        if !self.contains(x, y) {
            return None;
        }
        let i = cell_index(&self.x, x);
        let j = cell_index(&self.y, y);
        let (x0, x1, y0, y1) = (self.x[i], self.x[i + 1], self.y[j], self.y[j + 1]);
        let (hx, hy) = (x1 - x0, y1 - y0);
        let u = (x - x0) / hx;
        let v = (y - y0) / hy;
        let (z00, z10, z01, z11) = (
            self.z(i, j),
            self.z(i + 1, j),
            self.z(i, j + 1),
            self.z(i + 1, j + 1),
        );
        let height =
            (1.0 - u) * (1.0 - v) * z00 + u * (1.0 - v) * z10 + (1.0 - u) * v * z01 + u * v * z11;
        let dh_dx = ((1.0 - v) * (z10 - z00) + v * (z11 - z01)) / hx;
        let dh_dy = ((1.0 - u) * (z01 - z00) + u * (z11 - z10)) / hy;
        Some(GridSample {
            height,
            dh_dx,
            dh_dy,
        })
    }
}

/// Index i of the cell [c[i], c[i+1]] holding `t` (c[0] ≤ t ≤ c[n−1]).
fn cell_index(c: &[f64], t: f64) -> usize {
    // Number of coordinates ≤ t, minus one, clamped to the last cell.
    let k = c.partition_point(|&ci| ci <= t);
    k.saturating_sub(1).min(c.len() - 2)
}

fn check_axis(axis: &'static str, c: &[f64]) -> Result<(), GeometryError> {
    if c.len() < 2 {
        return Err(GeometryError::GridTooSmall {
            axis,
            count: c.len(),
        });
    }
    for (i, &v) in c.iter().enumerate() {
        finite("grid surface", || format!("{axis}[{i}]"), v)?;
        if i > 0 && v <= c[i - 1] {
            return Err(GeometryError::GridNotIncreasing {
                axis,
                index: i,
                value: v,
                previous: c[i - 1],
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_messages() {
        let e = GridSurface::new(&[0.0, 1.0, 1.0], &[0.0, 1.0], &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "grid surface: x coordinates must be strictly increasing, but x[2] = 1 does not exceed x[1] = 1"
        );
        let e = GridSurface::new(&[0.0], &[0.0, 1.0], &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "grid surface: x needs at least 2 coordinates, got 1"
        );
        let e =
            GridSurface::new(&[0.0, 1.0], &[0.0, 1.0], &[vec![0.0, 0.0], vec![0.0]]).unwrap_err();
        assert!(e.to_string().ends_with("but row 1 has 1 heights"), "{e}");
    }

    #[test]
    fn bilinear_reproduces_a_plane_and_a_saddle() {
        // z = 0.5 x − 0.25 y is reproduced exactly, with exact slopes.
        let xs = [0.0, 1.0, 3.0];
        let ys = [-1.0, 2.0];
        let z: Vec<Vec<f64>> = xs
            .iter()
            .map(|&x| ys.iter().map(|&y| 0.5 * x - 0.25 * y).collect())
            .collect();
        let g = GridSurface::new(&xs, &ys, &z).unwrap();
        let s = g.sample(2.2, 0.7).unwrap();
        assert!((s.height - (1.1 - 0.175)).abs() < 1e-15);
        assert!((s.dh_dx - 0.5).abs() < 1e-15 && (s.dh_dy + 0.25).abs() < 1e-15);
        assert!(g.sample(3.0 + 1e-9, 0.0).is_none());
        assert!(g.sample(3.0, 2.0).is_some());
        // Saddle z = x y on the unit cell: bilinear interpolation is exact.
        let g =
            GridSurface::new(&[0.0, 1.0], &[0.0, 1.0], &[vec![0.0, 0.0], vec![0.0, 1.0]]).unwrap();
        let s = g.sample(0.3, 0.6).unwrap();
        assert!(
            (s.height - 0.18).abs() < 1e-15
                && (s.dh_dx - 0.6).abs() < 1e-15
                && (s.dh_dy - 0.3).abs() < 1e-15
        );
    }
}
