//! Gilbert–Johnson–Keerthi distance between two convex shapes given by support maps.
//!
//! GJK works on the Minkowski difference `D = A − B = {a − b}`, whose support point for a direction
//! d is `s_A(d) − s_B(−d)`. The distance between A and B is the distance from the origin to D; the
//! closest point `v` of D to the origin is found by iterating: take the support point w of D in
//! `−v`, add it to a simplex (≤ 4 points), replace v by the closest point of the simplex to the
//! origin and drop the simplex points that do not support it. The iteration stops when the
//! lower bound `v·w/|v|` is within `REL_TOLERANCE·|v| + ABS_TOLERANCE` of `|v|`, when the
//! simplex encloses the origin (the shapes intersect) or when `|v|` stops decreasing.
//!
//! Each simplex point keeps the two shape points it came from, so the witness points are the same
//! barycentric combination of those: `a = Σ λᵢ aᵢ`, `b = Σ λᵢ bᵢ`, `v = a − b`.
//!
//! No allocation: the simplex is a fixed array of four points.

use nalgebra::Vector3;

use super::support::Posed;

/// Relative tolerance on the distance.
pub(crate) const REL_TOLERANCE: f64 = 1e-10;
/// Absolute tolerance on the distance (m): below it the shapes count as touching.
pub(crate) const ABS_TOLERANCE: f64 = 1e-12;
/// Rounding floor of the stopping test, as a fraction of the size of the Minkowski difference
/// (the largest |w| met): the closest point of a nearly degenerate simplex carries rounding error
/// of about 1e-16·|w| amplified by the simplex's conditioning; asking for more than 1e-10·|w|
/// makes GJK add near-duplicate support points and misjudge containment.
const SCALE_TOLERANCE: f64 = 1e-10;
/// A distance below this fraction of the Minkowski difference's size, reached when GJK stops
/// making progress, counts as touching: the simplex then holds the origin up to round-off (a flat
/// face against a curved rim gives nearly coplanar support points whose tetrahedron test fails),
/// and EPA decides. Without it a cylinder 1e-4 m deep in a brick was reported 1e-9 m apart in 135
/// of 20,001 tilts.
const TOUCH_TOLERANCE: f64 = 1e-8;
/// Iteration limit (polytopes converge in a handful; smooth shapes in tens).
const MAX_ITERATIONS: usize = 128;

/// A point of the Minkowski difference with its two origins (all in the world, m).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SupportPoint {
    /// `a − b`.
    pub(crate) w: Vector3<f64>,
    /// Point of A.
    pub(crate) a: Vector3<f64>,
    /// Point of B.
    pub(crate) b: Vector3<f64>,
}

impl SupportPoint {
    pub(crate) const ZERO: SupportPoint = SupportPoint {
        w: Vector3::new(0.0, 0.0, 0.0),
        a: Vector3::new(0.0, 0.0, 0.0),
        b: Vector3::new(0.0, 0.0, 0.0),
    };
}

/// Support point of A − B for the world direction `d`.
#[inline]
pub(crate) fn support_difference(a: &Posed, b: &Posed, d: &Vector3<f64>) -> SupportPoint {
    let pa = a.support(d);
    let pb = b.support(&-d);
    SupportPoint {
        w: pa - pb,
        a: pa,
        b: pb,
    }
}

/// Up to four support points with the barycentric weights of the current closest point.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Simplex {
    pub(crate) points: [SupportPoint; 4],
    pub(crate) weights: [f64; 4],
    pub(crate) len: usize,
}

impl Simplex {
    fn single(p: SupportPoint) -> Self {
        Simplex {
            points: [
                p,
                SupportPoint::ZERO,
                SupportPoint::ZERO,
                SupportPoint::ZERO,
            ],
            weights: [1.0, 0.0, 0.0, 0.0],
            len: 1,
        }
    }
    /// The weighted point `Σ λᵢ wᵢ`.
    fn closest(&self) -> Vector3<f64> {
        (0..self.len).fold(Vector3::zeros(), |acc, i| {
            acc + self.points[i].w * self.weights[i]
        })
    }
    /// Witness points `(Σ λᵢ aᵢ, Σ λᵢ bᵢ)`.
    pub(crate) fn witnesses(&self) -> (Vector3<f64>, Vector3<f64>) {
        let mut a = Vector3::zeros();
        let mut b = Vector3::zeros();
        for i in 0..self.len {
            a += self.points[i].a * self.weights[i];
            b += self.points[i].b * self.weights[i];
        }
        (a, b)
    }
    /// Keeps the points `r.index[..r.len]` (strictly increasing) with weights `r.weight`.
    fn keep(&mut self, r: &Reduced) {
        for k in 0..r.len {
            self.points[k] = self.points[r.index[k]];
            self.weights[k] = r.weight[k];
        }
        self.len = r.len;
    }
}

/// Outcome of GJK. (The simplex is returned by value on purpose: boxing it would allocate on the
/// hot path.)
#[derive(Debug, Clone, Copy)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum Gjk {
    /// The shapes are apart: `distance` (m) between the witness points `a` (on A) and `b` (on B);
    /// `normal` (unit, from A to B) is the direction whose separating slab was the widest met,
    /// i.e. the best certified lower bound of the distance. It agrees with `(b − a)/|b − a|` to
    /// first order, but is more accurate when a flat region meets a curved one (there the
    /// distance pins the closest points down only to the square root of its tolerance).
    Separated {
        distance: f64,
        a: Vector3<f64>,
        b: Vector3<f64>,
        normal: Vector3<f64>,
    },
    /// The shapes intersect or touch within tolerance; the simplex encloses (or touches) the origin.
    Intersecting(Simplex),
}

/// Runs GJK on shapes `a` and `b`; `initial_direction` is any nonzero guess of `a − b`
/// (e.g. the difference of the shapes' origins).
pub(crate) fn gjk(a: &Posed, b: &Posed, initial_direction: &Vector3<f64>) -> Gjk {
    let d0 = if initial_direction.norm_squared() > 0.0 {
        *initial_direction
    } else {
        Vector3::x()
    };
    let mut simplex = Simplex::single(support_difference(a, b, &d0));
    let mut v = simplex.points[0].w;
    let mut vv = v.norm_squared();
    let mut scale = v.norm();
    // Widest slab met: lower bound of the distance and its direction (from A to B).
    let mut best_lower = f64::NEG_INFINITY;
    let mut best_normal = -v;
    for _ in 0..MAX_ITERATIONS {
        if vv <= ABS_TOLERANCE * ABS_TOLERANCE {
            return Gjk::Intersecting(simplex);
        }
        let w = support_difference(a, b, &-v);
        scale = scale.max(w.w.norm());
        let v_norm = vv.sqrt();
        let lower = v.dot(&w.w) / v_norm;
        if lower >= best_lower {
            best_lower = lower;
            best_normal = -v / v_norm;
        }
        let absolute = ABS_TOLERANCE + SCALE_TOLERANCE * scale;
        // |v| − v·w/|v| ≤ ε_rel|v| + ε_abs  ⇔  vv − v·w ≤ (ε_rel|v| + ε_abs)|v|
        if vv - v.dot(&w.w) <= (REL_TOLERANCE * v_norm + absolute) * v_norm {
            break;
        }
        // A support point already in the simplex brings nothing new (rounding): stop.
        if simplex.points[..simplex.len]
            .iter()
            .any(|p| (p.w - w.w).norm_squared() <= absolute * absolute)
        {
            break;
        }
        // The current witnesses, kept in case the next simplex turns out no better.
        let (previous_a, previous_b) = simplex.witnesses();
        simplex.points[simplex.len] = w;
        simplex.len += 1;
        if !reduce(&mut simplex) {
            return Gjk::Intersecting(simplex);
        }
        let v_new = simplex.closest();
        let vv_new = v_new.norm_squared();
        if vv_new >= vv {
            // No progress (rounding): answer with the previous simplex, whose lower bound was
            // checked last; the new one may point in a slightly different direction.
            if vv.sqrt() <= ABS_TOLERANCE + TOUCH_TOLERANCE * scale {
                return Gjk::Intersecting(simplex);
            }
            return Gjk::Separated {
                distance: vv.sqrt(),
                a: previous_a,
                b: previous_b,
                normal: best_normal,
            };
        }
        v = v_new;
        vv = vv_new;
    }
    if vv.sqrt() <= ABS_TOLERANCE + TOUCH_TOLERANCE * scale {
        return Gjk::Intersecting(simplex);
    }
    let (pa, pb) = simplex.witnesses();
    Gjk::Separated {
        distance: vv.sqrt(),
        a: pa,
        b: pb,
        normal: best_normal,
    }
}

/// A sub-simplex: `len` point indices (strictly increasing) into the simplex and their weights.
#[derive(Debug, Clone, Copy)]
struct Reduced {
    index: [usize; 3],
    weight: [f64; 3],
    len: usize,
}

impl Reduced {
    fn vertex(i: usize) -> Self {
        Reduced {
            index: [i, i, i],
            weight: [1.0, 0.0, 0.0],
            len: 1,
        }
    }
    fn edge(i: usize, j: usize, t: f64) -> Self {
        Reduced {
            index: [i, j, j],
            weight: [1.0 - t, t, 0.0],
            len: 2,
        }
    }
    /// `Σ λ w` over the kept points.
    fn point(&self, p: &[SupportPoint; 4]) -> Vector3<f64> {
        (0..self.len).fold(Vector3::zeros(), |acc, k| {
            acc + p[self.index[k]].w * self.weight[k]
        })
    }
}

/// Replaces the simplex by the smallest sub-simplex whose affine hull holds the closest point to
/// the origin, with its barycentric weights. Returns false if the origin is inside a tetrahedron.
fn reduce(s: &mut Simplex) -> bool {
    let r = match s.len {
        2 => closest_on_segment(&s.points, 0, 1),
        3 => closest_on_triangle(&s.points, 0, 1, 2),
        4 => match closest_on_tetrahedron(&s.points) {
            Some(r) => r,
            None => return false,
        },
        _ => return true,
    };
    s.keep(&r);
    true
}

/// Closest point of segment p[i] p[j] to the origin.
fn closest_on_segment(p: &[SupportPoint; 4], i: usize, j: usize) -> Reduced {
    let (a, b) = (p[i].w, p[j].w);
    let ab = b - a;
    let denom = ab.norm_squared();
    let t = if denom > 0.0 {
        -a.dot(&ab) / denom
    } else {
        0.0
    };
    if t <= 0.0 {
        Reduced::vertex(i)
    } else if t >= 1.0 {
        Reduced::vertex(j)
    } else {
        Reduced::edge(i, j, t)
    }
}

/// Closest point of triangle p[i] p[j] p[k] (i < j < k) to the origin by Voronoi regions
/// (Ericson, Real-Time Collision Detection, §5.1.5), degenerate (zero-area) triangles handled by
/// their edges.
fn closest_on_triangle(p: &[SupportPoint; 4], i: usize, j: usize, k: usize) -> Reduced {
    let (a, b, c) = (p[i].w, p[j].w, p[k].w);
    let ab = b - a;
    let ac = c - a;
    let d1 = -ab.dot(&a);
    let d2 = -ac.dot(&a);
    if d1 <= 0.0 && d2 <= 0.0 {
        return Reduced::vertex(i);
    }
    let d3 = -ab.dot(&b);
    let d4 = -ac.dot(&b);
    if d3 >= 0.0 && d4 <= d3 {
        return Reduced::vertex(j);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return Reduced::edge(i, j, d1 / (d1 - d3));
    }
    let d5 = -ab.dot(&c);
    let d6 = -ac.dot(&c);
    if d6 >= 0.0 && d5 <= d6 {
        return Reduced::vertex(k);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return Reduced::edge(i, k, d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return Reduced::edge(j, k, (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let sum = va + vb + vc;
    if sum <= 0.0 || !sum.is_finite() {
        // Degenerate triangle: the best of its edges.
        let candidates = [
            closest_on_segment(p, i, j),
            closest_on_segment(p, j, k),
            closest_on_segment(p, i, k),
        ];
        return best_of(p, &candidates);
    }
    let v = vb / sum;
    let w = vc / sum;
    Reduced {
        index: [i, j, k],
        weight: [1.0 - v - w, v, w],
        len: 3,
    }
}

fn best_of(p: &[SupportPoint; 4], candidates: &[Reduced]) -> Reduced {
    let mut best = candidates[0];
    let mut best_d = best.point(p).norm_squared();
    for c in &candidates[1..] {
        let d = c.point(p).norm_squared();
        if d < best_d {
            best = *c;
            best_d = d;
        }
    }
    best
}

/// Closest point of the tetrahedron to the origin; `None` if the origin is inside.
///
/// The origin is inside if it lies strictly on the inner side of all four faces. Otherwise the
/// closest point is on the boundary, the union of the faces, so it is the best of the four
/// faces' closest points. Checking every face (rather than only those the origin is classified
/// outside of, as in Ericson §5.1.6) keeps the answer right when the tetrahedron is nearly flat and
/// the classification is decided by rounding: GJK on curved shapes ends in such tetrahedra.
fn closest_on_tetrahedron(p: &[SupportPoint; 4]) -> Option<Reduced> {
    // Faces (sorted indices) with the opposite vertex.
    const FACES: [([usize; 3], usize); 4] = [
        ([0, 1, 2], 3),
        ([0, 2, 3], 1),
        ([0, 1, 3], 2),
        ([1, 2, 3], 0),
    ];
    // Inside test by the origin's barycentric coordinates, from one 3×3 solve: consistent for all
    // four faces at once (four separately rounded face normals of a sliver tetrahedron can all
    // claim the origin on their inner side when it lies just outside one of them). A nearly flat
    // tetrahedron holds no interior point: it counts as not enclosing the origin.
    let a = p[0].w;
    let m = nalgebra::Matrix3::from_columns(&[p[1].w - a, p[2].w - a, p[3].w - a]);
    let scale = m.column(0).norm() * m.column(1).norm() * m.column(2).norm();
    let det = m.determinant();
    if det.abs() > 1e-12 * scale {
        if let Some(inv) = m.try_inverse() {
            let l = inv * (-a);
            if l.x > 0.0 && l.y > 0.0 && l.z > 0.0 && l.x + l.y + l.z < 1.0 {
                return None;
            }
        }
    }
    let mut best = closest_on_triangle(p, 0, 1, 2);
    let mut best_d = best.point(p).norm_squared();
    for (f, _) in &FACES[1..] {
        let candidate = closest_on_triangle(p, f[0], f[1], f[2]);
        let d = candidate.point(p).norm_squared();
        if d < best_d {
            best_d = d;
            best = candidate;
        }
    }
    Some(best)
}
