//! A set of distinct points, each in contact on its own.

use nalgebra::Point3;

use super::validate::finite_points;
use crate::geometry::GeometryError;

/// Distinct points given in R (m). The order is kept: per-point results come in this order.
#[derive(Debug, Clone, PartialEq)]
pub struct PointCloud {
    points: Vec<Point3<f64>>,
}

impl PointCloud {
    /// A cloud of `points` (at least one, all finite, no two the same).
    pub fn new(points: &[[f64; 3]]) -> Result<Self, GeometryError> {
        if points.is_empty() {
            return Err(GeometryError::EmptyPointCloud);
        }
        finite_points("point cloud", points)?;
        // Sort indices by coordinates so equal points are adjacent: O(n log n).
        let mut order: Vec<usize> = (0..points.len()).collect();
        // Adding 0.0 maps −0 to +0, so that the two sort together.
        let key = |i: usize| points[i].map(|c| c + 0.0);
        order.sort_by(|&a, &b| {
            let (pa, pb) = (key(a), key(b));
            pa[0]
                .total_cmp(&pb[0])
                .then(pa[1].total_cmp(&pb[1]))
                .then(pa[2].total_cmp(&pb[2]))
                .then(a.cmp(&b))
        });
        // Report the repeated pair with the smallest second index (the first repetition met when
        // reading the list); −0 and +0 count as the same coordinate.
        let mut repeat: Option<(usize, usize)> = None;
        let mut k = 0;
        while k < order.len() {
            let mut end = k + 1;
            while end < order.len() && same(points[order[k]], points[order[end]]) {
                end += 1;
            }
            if end - k > 1 {
                let (first, second) = (order[k], order[k + 1]); // indices ascending within the run
                if repeat.is_none_or(|(_, s)| second < s) {
                    repeat = Some((first, second));
                }
            }
            k = end;
        }
        if let Some((first, second)) = repeat {
            let p = points[first];
            return Err(GeometryError::RepeatedPoint {
                first,
                second,
                x: p[0],
                y: p[1],
                z: p[2],
            });
        }
        Ok(Self {
            points: points
                .iter()
                .map(|p| Point3::new(p[0], p[1], p[2]))
                .collect(),
        })
    }
    /// The points in R (m), in the order given.
    pub fn points(&self) -> &[Point3<f64>] {
        &self.points
    }
    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }
    /// Never true (a cloud has at least one point); present for API symmetry with `len`.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

fn same(a: [f64; 3], b: [f64; 3]) -> bool {
    a[0] == b[0] && a[1] == b[1] && a[2] == b[2]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_points_are_named() {
        let mut pts = vec![[0.0, 0.0, 0.0]; 8];
        for (i, p) in pts.iter_mut().enumerate() {
            p[0] = i as f64;
        }
        pts[3] = [0.0, 0.0, 1.0];
        pts[7] = [0.0, 0.0, 1.0];
        let err = PointCloud::new(&pts).unwrap_err();
        assert_eq!(
            err.to_string(),
            "point cloud: points 3 and 7 are the same point [0, 0, 1]"
        );
    }

    #[test]
    fn negative_zero_equals_zero() {
        let err = PointCloud::new(&[[0.0, 1.0, 2.0], [-0.0, 1.0, 2.0]]).unwrap_err();
        assert!(matches!(
            err,
            GeometryError::RepeatedPoint {
                first: 0,
                second: 1,
                ..
            }
        ));
    }

    #[test]
    fn empty_and_non_finite() {
        assert_eq!(
            PointCloud::new(&[]).unwrap_err(),
            GeometryError::EmptyPointCloud
        );
        let err = PointCloud::new(&[[0.0, f64::NAN, 0.0]]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "point cloud: points[0][1] must be finite, got NaN"
        );
    }
}
