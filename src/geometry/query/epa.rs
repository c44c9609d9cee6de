//! Expanding Polytope Algorithm: penetration depth and direction of two intersecting convex shapes.
//!
//! Starting from GJK's simplex (blown up to a tetrahedron when GJK stopped on a lower-dimensional
//! simplex), EPA grows a convex polytope inside the Minkowski difference `D = A − B`, which holds the
//! origin. Each step takes the polytope face nearest the origin (distance δ, outward unit normal
//! n), fetches the support point w of D in n; if `n·w − δ ≤ tolerance` the face lies on D's
//! boundary and δ is the penetration depth; otherwise w is added: the faces that see w are removed
//! and their boundary (the horizon) is joined to w.
//!
//! Result: depth δ (m) and the unit normal n pointing from A into B (translating B by δ·n separates
//! the shapes); the witness points are the barycentric combination, over the final face, of the
//! shape points that produced its corners, evaluated at the origin's projection δ·n.
//!
//! No allocation: the polytope lives in fixed arrays (`MAX_VERTICES` vertices, `MAX_FACES` faces)
//! of an [`EpaStore`] that the caller owns (through [`super::QueryWorkspace`]: a block keeps one
//! in its scratch space, so that runs on several threads each use their own and nothing is
//! shared or thread-local). If the store fills up (only for curved shapes, where the polytope
//! refines forever) the best face so far is returned; its depth is then accurate to about the
//! polytope's facet sag.

use nalgebra::Vector3;

use super::gjk::{support_difference, Simplex, SupportPoint};
use super::support::Posed;

const MAX_VERTICES: usize = 64;
const MAX_FACES: usize = 2 * MAX_VERTICES;
const MAX_HORIZON: usize = MAX_VERTICES;
/// Relative termination tolerance on the depth.
const REL_TOLERANCE: f64 = 1e-10;
/// Absolute termination tolerance on the depth (m).
const ABS_TOLERANCE: f64 = 1e-12;

/// Penetration found by EPA (world, m).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Penetration {
    /// Penetration depth (m, ≥ 0 up to rounding).
    pub(crate) depth: f64,
    /// Unit normal from A into B.
    pub(crate) normal: Vector3<f64>,
    /// Deepest point of A inside B (on A's surface).
    pub(crate) a: Vector3<f64>,
    /// Deepest point of B inside A (on B's surface).
    pub(crate) b: Vector3<f64>,
}

#[derive(Debug, Clone, Copy)]
struct Face {
    v: [u8; 3],
    normal: Vector3<f64>,
    distance: f64,
    alive: bool,
}

impl Face {
    const DEAD: Face = Face {
        v: [0; 3],
        normal: Vector3::new(0.0, 0.0, 0.0),
        distance: 0.0,
        alive: false,
    };
}

/// Fixed-size backing store of the polytope (~10 kB): made once by its owner and reused by every
/// EPA call given it, so that a call neither allocates nor clears it (only the entries in use are
/// ever read).
#[derive(Clone)]
pub(crate) struct EpaStore {
    vertices: [SupportPoint; MAX_VERTICES],
    faces: [Face; MAX_FACES],
}

impl EpaStore {
    /// A store on the heap (its owners move it around; 10 kB would be copied each time).
    pub(crate) fn boxed() -> Box<Self> {
        Box::new(EpaStore {
            vertices: [SupportPoint::ZERO; MAX_VERTICES],
            faces: [Face::DEAD; MAX_FACES],
        })
    }
}

impl std::fmt::Debug for EpaStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EpaStore { .. }")
    }
}

/// The polytope: counts over the borrowed store.
struct Polytope<'s> {
    vertices: &'s mut [SupportPoint; MAX_VERTICES],
    vertex_count: usize,
    faces: &'s mut [Face; MAX_FACES],
    face_count: usize,
}

impl Polytope<'_> {
    /// Adds face (i, j, k), counter-clockwise seen from outside. False if it is degenerate.
    #[inline]
    fn add_face(&mut self, i: usize, j: usize, k: usize) -> bool {
        if self.face_count == MAX_FACES {
            return false;
        }
        let (a, b, c) = (self.vertices[i].w, self.vertices[j].w, self.vertices[k].w);
        let n = (b - a).cross(&(c - a));
        let len = n.norm();
        if len <= f64::MIN_POSITIVE {
            return false;
        }
        let normal = n * len.recip();
        self.faces[self.face_count] = Face {
            v: [i as u8, j as u8, k as u8],
            normal,
            distance: normal.dot(&a),
            alive: true,
        };
        self.face_count += 1;
        true
    }

    fn nearest_face(&self) -> Option<usize> {
        let mut best = None;
        let mut best_distance = f64::INFINITY;
        for (i, f) in self.faces[..self.face_count].iter().enumerate() {
            if f.alive && f.distance < best_distance {
                best_distance = f.distance;
                best = Some(i);
            }
        }
        best
    }
}

/// Runs EPA from GJK's final simplex, in `store`. `None` if the Minkowski difference is flat (no
/// volume), which does not happen for the supported pairs (at least one side is a solid).
pub(crate) fn epa(
    store: &mut EpaStore,
    a: &Posed,
    b: &Posed,
    simplex: &Simplex,
) -> Option<Penetration> {
    let tetra = blow_up(a, b, simplex)?;
    let EpaStore { vertices, faces } = store;
    expand(
        a,
        b,
        &tetra,
        Polytope {
            vertices,
            vertex_count: 0,
            faces,
            face_count: 0,
        },
    )
}

/// EPA proper, from a tetrahedron holding the origin.
fn expand(
    a: &Posed,
    b: &Posed,
    tetra: &[SupportPoint; 4],
    mut poly: Polytope,
) -> Option<Penetration> {
    let tetra = *tetra;
    poly.vertices[..4].copy_from_slice(&tetra);
    poly.vertex_count = 4;
    // Orient the four faces outward (away from the opposite vertex).
    for (f, opposite) in [
        ([0, 1, 2], 3),
        ([0, 3, 1], 2),
        ([0, 2, 3], 1),
        ([1, 3, 2], 0),
    ] {
        let (p0, p1, p2) = (tetra[f[0]].w, tetra[f[1]].w, tetra[f[2]].w);
        let n = (p1 - p0).cross(&(p2 - p0));
        let ok = if n.dot(&(tetra[opposite].w - p0)) > 0.0 {
            poly.add_face(f[0], f[2], f[1])
        } else {
            poly.add_face(f[0], f[1], f[2])
        };
        if !ok {
            return None;
        }
    }

    // Faces see a new point only if it is farther than this above their plane (m): points in the
    // plane of a face (common: the Minkowski difference of polytopes has many coplanar vertices)
    // must not flip a face by rounding, or the visible region stops being one connected cap.
    let scale = tetra.iter().fold(0.0f64, |m, p| m.max(p.w.norm()));
    let visibility_tolerance = 1e-13 * scale;
    let mut horizon = [(0u8, 0u8); MAX_HORIZON];
    let mut best = poly.nearest_face()?;
    // The face the answer is read from (a copy: indices move when dead faces are dropped).
    let mut face = poly.faces[best];
    loop {
        let w = support_difference(a, b, &face.normal);
        let gap = face.normal.dot(&w.w) - face.distance;
        if gap <= ABS_TOLERANCE + REL_TOLERANCE * face.distance.abs()
            || poly.vertex_count == MAX_VERTICES
        {
            break;
        }
        // Remove the faces that see w; collect the horizon (edges of exactly one removed face).
        let new_index = poly.vertex_count;
        let mut horizon_len = 0;
        let mut overflow = false;
        for fi in 0..poly.face_count {
            let f = poly.faces[fi];
            if !f.alive || (fi != best && f.normal.dot(&w.w) - f.distance <= visibility_tolerance) {
                continue;
            }
            poly.faces[fi].alive = false;
            for k in 0..3 {
                let (i, j) = (f.v[k], f.v[(k + 1) % 3]);
                // If the reverse edge is on the horizon already, the edge is interior: drop both.
                if let Some(pos) = horizon[..horizon_len]
                    .iter()
                    .position(|&(p, q)| p == j && q == i)
                {
                    horizon[pos] = horizon[horizon_len - 1];
                    horizon_len -= 1;
                } else if horizon_len < MAX_HORIZON {
                    horizon[horizon_len] = (i, j);
                    horizon_len += 1;
                } else {
                    overflow = true;
                }
            }
        }
        if overflow || poly.face_count + horizon_len > MAX_FACES {
            break; // store full: keep the best face found (already removed faces do not matter)
        }
        poly.vertices[new_index] = w;
        poly.vertex_count += 1;
        for &(i, j) in &horizon[..horizon_len] {
            poly.add_face(i as usize, j as usize, new_index);
        }
        compact(&mut poly);
        match poly.nearest_face() {
            // The nearest distance never decreases for a convex polytope holding the origin; if
            // rounding broke the polytope, stop at the last sound face.
            Some(f) if poly.faces[f].distance >= face.distance - visibility_tolerance => {
                best = f;
                face = poly.faces[f];
            }
            _ => break,
        }
    }
    let [i, j, k] = face.v.map(usize::from);
    let (p0, p1, p2) = (poly.vertices[i], poly.vertices[j], poly.vertices[k]);
    let lambda = barycentric(&(face.normal * face.distance), &p0.w, &p1.w, &p2.w);
    Some(Penetration {
        depth: face.distance,
        normal: face.normal,
        a: p0.a * lambda[0] + p1.a * lambda[1] + p2.a * lambda[2],
        b: p0.b * lambda[0] + p1.b * lambda[1] + p2.b * lambda[2],
    })
}

/// Drops dead faces so that the face store does not fill up with them.
fn compact(poly: &mut Polytope) {
    let mut kept = 0;
    for fi in 0..poly.face_count {
        if poly.faces[fi].alive {
            poly.faces[kept] = poly.faces[fi];
            kept += 1;
        }
    }
    poly.face_count = kept;
}

/// Barycentric coordinates of p (assumed in the plane of abc), clamped into the triangle.
fn barycentric(p: &Vector3<f64>, a: &Vector3<f64>, b: &Vector3<f64>, c: &Vector3<f64>) -> [f64; 3] {
    let v0 = b - a;
    let v1 = c - a;
    let v2 = p - a;
    let d00 = v0.dot(&v0);
    let d01 = v0.dot(&v1);
    let d11 = v1.dot(&v1);
    let d20 = v2.dot(&v0);
    let d21 = v2.dot(&v1);
    let denom = d00 * d11 - d01 * d01;
    if denom <= 0.0 {
        return [1.0, 0.0, 0.0];
    }
    let v = ((d11 * d20 - d01 * d21) / denom).clamp(0.0, 1.0);
    let w = ((d00 * d21 - d01 * d20) / denom).clamp(0.0, 1.0 - v);
    [1.0 - v - w, v, w]
}

/// A tetrahedron of support points holding the origin, grown from GJK's simplex (1 to 4 points).
fn blow_up(a: &Posed, b: &Posed, simplex: &Simplex) -> Option<[SupportPoint; 4]> {
    let mut pts = [simplex.points[0]; 4];
    let mut len = simplex.len;
    pts[..len].copy_from_slice(&simplex.points[..len]);
    let scale = pts[..len]
        .iter()
        .fold(0.0f64, |m, p| m.max(p.w.norm()))
        .max(1.0);
    let eps = 1e-10 * scale;
    const AXES: [Vector3<f64>; 3] = [
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::new(0.0, 1.0, 0.0),
        Vector3::new(0.0, 0.0, 1.0),
    ];
    if len == 1 {
        let found = AXES
            .iter()
            .flat_map(|d| [*d, -d])
            .map(|d| support_difference(a, b, &d))
            .find(|w| (w.w - pts[0].w).norm() > eps)?;
        pts[1] = found;
        len = 2;
    }
    if len == 2 {
        let e = (pts[1].w - pts[0].w).normalize();
        let helper = AXES[e.iamin()];
        let u = e.cross(&helper).normalize();
        let v = e.cross(&u);
        let found = [u, v, -u, -v, u + v, u - v, -u + v, -u - v]
            .iter()
            .map(|d| support_difference(a, b, d))
            .find(|w| {
                let r = w.w - pts[0].w;
                (r - e * r.dot(&e)).norm() > eps
            })?;
        pts[2] = found;
        len = 3;
    }
    if len == 3 {
        let n = (pts[1].w - pts[0].w)
            .cross(&(pts[2].w - pts[0].w))
            .normalize();
        let found = [n, -n]
            .iter()
            .map(|d| support_difference(a, b, d))
            .find(|w| n.dot(&(w.w - pts[0].w)).abs() > eps)?;
        pts[3] = found;
    }
    Some(pts)
}
