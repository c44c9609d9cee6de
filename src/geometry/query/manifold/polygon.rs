//! Closed polygons in 3-D with a boundary density per edge, their clipping by planes
//! (Sutherland–Hodgman) and the boundary share of each vertex.
//!
//! A manifold's points stand for the boundary of the contact patch. Each edge of the polygon
//! carries a density ρ: 1 for an edge that is part of that boundary (a face edge, a rim arc, a
//! reference face's side where it cuts the incident face), 0 for an edge that only joins two parts
//! of it (the generator lines of a cylinder between its two cap rims). The share of vertex i is
//! half the weighted length of its two edges, `λ_i = ½(ρ_{i−1}|e_{i−1}| + ρ_i|e_i|)`.
//!
//! Why shares: clipping makes points appear by splitting one vertex into two that start at the
//! same place. With shares from edge lengths, two such points have together the share the vertex
//! had (the new edge between them has zero length), so forces distributed by shares are continuous
//! as the polygon gains and loses vertices.

use nalgebra::Vector3;

/// One vertex of a polygon: its position (world, m), the density of the edge to the next vertex,
/// and its rim relief.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PolygonVertex {
    /// Position (world, m).
    pub(crate) position: Vector3<f64>,
    /// Boundary density of the edge from this vertex to the next (1 or 0).
    pub(crate) density: f64,
    /// How far the vertex lies above its rim's deepest point because the rim is curved (m, ≥ 0;
    /// 0 on flat faces). See [`super::ManifoldPoint::effective_depth`].
    pub(crate) relief: f64,
    /// Where the vertex's relative velocity is taken (world, m): the vertex itself on flat faces,
    /// its rim's deepest point on a short rim arc. See [`super::ManifoldPoint::velocity_point`].
    pub(crate) anchor: Vector3<f64>,
}

/// A plane `{x : normal·x = offset}`; clipping keeps the side `normal·x ≤ offset`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ClipPlane {
    /// Unit normal pointing to the side that is cut away (world).
    pub(crate) normal: Vector3<f64>,
    /// `normal·x` of the plane's points (m).
    pub(crate) offset: f64,
}

/// Clips the closed polygon `input` by `plane` into `output` (cleared first), Sutherland–Hodgman.
///
/// Edges keep their density; the new edge that runs along the plane between an exit and the next
/// entry gets `cut_density`. `output` never grows past its capacity: vertices beyond it are dropped
/// (not reached for the bounded polygons of the shapes, whose capacities are sized for them), so
/// clipping never allocates.
pub(crate) fn clip(
    input: &[PolygonVertex],
    plane: &ClipPlane,
    cut_density: f64,
    output: &mut Vec<PolygonVertex>,
) {
    output.clear();
    let n = input.len();
    let mut push = |v: PolygonVertex| {
        if output.len() < output.capacity() {
            output.push(v);
        }
    };
    for i in 0..n {
        let a = &input[i];
        let b = &input[(i + 1) % n];
        let da = plane.normal.dot(&a.position) - plane.offset;
        let db = plane.normal.dot(&b.position) - plane.offset;
        let a_inside = da <= 0.0;
        let b_inside = db <= 0.0;
        if a_inside {
            push(*a);
        }
        if a_inside != b_inside {
            let t = da / (da - db);
            let position = a.position + (b.position - a.position) * t;
            let relief = a.relief + (b.relief - a.relief) * t;
            let anchor = a.anchor + (b.anchor - a.anchor) * t;
            // Leaving: the boundary follows the plane to the next entry. Entering: the rest of
            // the edge a→b.
            let density = if a_inside { cut_density } else { a.density };
            push(PolygonVertex {
                position,
                density,
                relief,
                anchor,
            });
        }
    }
}

/// The boundary share of each vertex, `λ_i = ½(ρ_{i−1}|e_{i−1}| + ρ_i|e_i|)` (m), written to
/// `shares` (cleared first). When every share is zero (all vertices at one place, or no boundary
/// edge), every vertex gets share 1: the points coincide, so how the total is split does not
/// matter.
pub(crate) fn boundary_shares(polygon: &[PolygonVertex], shares: &mut Vec<f64>) {
    shares.clear();
    let n = polygon.len();
    let edge = |i: usize| -> f64 {
        let a = &polygon[i];
        let b = &polygon[(i + 1) % n];
        a.density * (b.position - a.position).norm()
    };
    let mut total = 0.0;
    for i in 0..n {
        let share = 0.5 * (edge((i + n - 1) % n) + edge(i));
        total += share;
        if shares.len() < shares.capacity() {
            shares.push(share);
        }
    }
    if total <= 0.0 || !total.is_finite() {
        shares.iter_mut().for_each(|s| *s = 1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(side: f64) -> Vec<PolygonVertex> {
        [(0.0, 0.0), (side, 0.0), (side, side), (0.0, side)]
            .iter()
            .map(|&(x, y)| PolygonVertex {
                position: Vector3::new(x, y, 0.0),
                density: 1.0,
                relief: 0.0,
                anchor: Vector3::new(x, y, 0.0),
            })
            .collect()
    }

    #[test]
    fn clipping_a_square_by_a_vertical_plane() {
        let mut out = Vec::with_capacity(8);
        let plane = ClipPlane {
            normal: Vector3::x(),
            offset: 0.25,
        };
        clip(&square(1.0), &plane, 1.0, &mut out);
        let xs: Vec<(f64, f64)> = out.iter().map(|v| (v.position.x, v.position.y)).collect();
        assert_eq!(xs, vec![(0.0, 0.0), (0.25, 0.0), (0.25, 1.0), (0.0, 1.0)]);
        let mut shares = Vec::with_capacity(8);
        boundary_shares(&out, &mut shares);
        // Rectangle 0.25 × 1: every corner gets half of 0.25 + 1.
        for s in shares {
            assert!((s - 0.625).abs() < 1e-15);
        }
    }

    #[test]
    fn a_vertex_crossing_a_plane_splits_into_two_points_with_its_share() {
        // Clip plane just inside the corner (1, 1) along the diagonal: the corner is replaced by
        // two points near it whose shares add up to the corner's.
        let mut out = Vec::with_capacity(8);
        let mut shares = Vec::with_capacity(8);
        let eps = 1e-9;
        let n = Vector3::new(1.0, 1.0, 0.0).normalize();
        let plane = ClipPlane {
            normal: n,
            offset: n.dot(&Vector3::new(1.0, 1.0, 0.0)) - eps,
        };
        clip(&square(1.0), &plane, 1.0, &mut out);
        assert_eq!(out.len(), 5);
        boundary_shares(&out, &mut shares);
        let near_corner: f64 = out
            .iter()
            .zip(&shares)
            .filter(|(v, _)| (v.position - Vector3::new(1.0, 1.0, 0.0)).norm() < 1e-6)
            .map(|(_, s)| s)
            .sum();
        assert!((near_corner - 1.0).abs() < 1e-8, "{near_corner}");
    }

    #[test]
    fn zero_density_edges_give_no_share() {
        let mut poly = square(1.0);
        poly[1].density = 0.0; // the edge (1,0) → (1,1)
        let mut shares = Vec::with_capacity(4);
        boundary_shares(&poly, &mut shares);
        assert_eq!(shares, vec![1.0, 0.5, 0.5, 1.0]);
    }

    #[test]
    fn coincident_points_share_equally() {
        let p = PolygonVertex {
            position: Vector3::new(1.0, 2.0, 3.0),
            density: 1.0,
            relief: 0.0,
            anchor: Vector3::new(1.0, 2.0, 3.0),
        };
        let mut shares = Vec::with_capacity(3);
        boundary_shares(&[p, p, p], &mut shares);
        assert_eq!(shares, vec![1.0; 3]);
    }
}
