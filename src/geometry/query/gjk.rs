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
    const ZERO: SupportPoint = SupportPoint {
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
    fn set(&mut self, pts: &[SupportPoint], weights: &[f64]) {
        for (i, (p, w)) in pts.iter().zip(weights).enumerate() {
            self.points[i] = *p;
            self.weights[i] = *w;
        }
        self.len = pts.len();
    }
}

/// Outcome of GJK. (The simplex is returned by value on purpose: boxing it would allocate on the
/// hot path.)
#[derive(Debug, Clone, Copy)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum Gjk {
    /// The shapes are apart: `distance` (m) between the witness points `a` (on A) and `b` (on B).
    Separated {
        distance: f64,
        a: Vector3<f64>,
        b: Vector3<f64>,
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
    for _ in 0..MAX_ITERATIONS {
        if vv <= ABS_TOLERANCE * ABS_TOLERANCE {
            return Gjk::Intersecting(simplex);
        }
        let w = support_difference(a, b, &-v);
        let v_norm = vv.sqrt();
        // |v| − v·w/|v| ≤ ε_rel|v| + ε_abs  ⇔  vv − v·w ≤ (ε_rel|v| + ε_abs)|v|
        if vv - v.dot(&w.w) <= (REL_TOLERANCE * v_norm + ABS_TOLERANCE) * v_norm {
            break;
        }
        let previous = simplex;
        simplex.points[simplex.len] = w;
        simplex.len += 1;
        if !reduce(&mut simplex) {
            return Gjk::Intersecting(simplex);
        }
        let v_new = simplex.closest();
        let vv_new = v_new.norm_squared();
        if vv_new >= vv {
            // No progress (rounding): keep the previous, better simplex.
            simplex = previous;
            break;
        }
        v = v_new;
        vv = vv_new;
    }
    let (pa, pb) = simplex.witnesses();
    Gjk::Separated {
        distance: vv.sqrt(),
        a: pa,
        b: pb,
    }
}

/// Replaces the simplex by the smallest sub-simplex whose affine hull holds the closest point to
/// the origin, with its barycentric weights. Returns false if the origin is inside a tetrahedron.
fn reduce(s: &mut Simplex) -> bool {
    let p = s.points;
    match s.len {
        2 => {
            let (w, pts) = closest_on_segment(&p[0], &p[1]);
            s.set(&pts[..w.1], &w.0[..w.1]);
            true
        }
        3 => {
            let (w, pts) = closest_on_triangle(&p[0], &p[1], &p[2]);
            s.set(&pts[..w.1], &w.0[..w.1]);
            true
        }
        4 => closest_on_tetrahedron(s),
        _ => true,
    }
}

type Weights = ([f64; 3], usize);

fn closest_on_segment(a: &SupportPoint, b: &SupportPoint) -> (Weights, [SupportPoint; 3]) {
    let ab = b.w - a.w;
    let denom = ab.norm_squared();
    let t = if denom > 0.0 {
        -a.w.dot(&ab) / denom
    } else {
        0.0
    };
    if t <= 0.0 {
        (([1.0, 0.0, 0.0], 1), [*a, *a, *a])
    } else if t >= 1.0 {
        (([1.0, 0.0, 0.0], 1), [*b, *b, *b])
    } else {
        (([1.0 - t, t, 0.0], 2), [*a, *b, *b])
    }
}

/// Closest point of triangle abc to the origin by Voronoi regions (Ericson, Real-Time Collision
/// Detection, §5.1.5), with degenerate (zero-area) triangles handled by their edges.
fn closest_on_triangle(
    a: &SupportPoint,
    b: &SupportPoint,
    c: &SupportPoint,
) -> (Weights, [SupportPoint; 3]) {
    let ab = b.w - a.w;
    let ac = c.w - a.w;
    let d1 = -ab.dot(&a.w);
    let d2 = -ac.dot(&a.w);
    if d1 <= 0.0 && d2 <= 0.0 {
        return (([1.0, 0.0, 0.0], 1), [*a, *a, *a]);
    }
    let d3 = -ab.dot(&b.w);
    let d4 = -ac.dot(&b.w);
    if d3 >= 0.0 && d4 <= d3 {
        return (([1.0, 0.0, 0.0], 1), [*b, *b, *b]);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let t = d1 / (d1 - d3);
        return (([1.0 - t, t, 0.0], 2), [*a, *b, *b]);
    }
    let d5 = -ab.dot(&c.w);
    let d6 = -ac.dot(&c.w);
    if d6 >= 0.0 && d5 <= d6 {
        return (([1.0, 0.0, 0.0], 1), [*c, *c, *c]);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let t = d2 / (d2 - d6);
        return (([1.0 - t, t, 0.0], 2), [*a, *c, *c]);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return (([1.0 - t, t, 0.0], 2), [*b, *c, *c]);
    }
    let sum = va + vb + vc;
    if sum <= 0.0 || !sum.is_finite() {
        // Degenerate triangle: the best of its edges.
        let candidates = [
            closest_on_segment(a, b),
            closest_on_segment(b, c),
            closest_on_segment(a, c),
        ];
        return best_of(&candidates);
    }
    let v = vb / sum;
    let w = vc / sum;
    (([1.0 - v - w, v, w], 3), [*a, *b, *c])
}

fn weighted(w: &Weights, pts: &[SupportPoint; 3]) -> Vector3<f64> {
    (0..w.1).fold(Vector3::zeros(), |acc, i| acc + pts[i].w * w.0[i])
}

fn best_of(candidates: &[(Weights, [SupportPoint; 3])]) -> (Weights, [SupportPoint; 3]) {
    let mut best = candidates[0];
    let mut best_d = weighted(&best.0, &best.1).norm_squared();
    for c in &candidates[1..] {
        let d = weighted(&c.0, &c.1).norm_squared();
        if d < best_d {
            best = *c;
            best_d = d;
        }
    }
    best
}

/// Closest point of the tetrahedron to the origin: the best of the faces the origin is outside of
/// (Ericson §5.1.6); false if the origin is inside.
fn closest_on_tetrahedron(s: &mut Simplex) -> bool {
    let p = s.points;
    // Faces with the opposite vertex.
    const FACES: [([usize; 3], usize); 4] = [
        ([0, 1, 2], 3),
        ([0, 2, 3], 1),
        ([0, 3, 1], 2),
        ([1, 3, 2], 0),
    ];
    let mut best: Option<(Weights, [SupportPoint; 3])> = None;
    let mut best_d = f64::INFINITY;
    for (f, opposite) in FACES {
        let (a, b, c) = (p[f[0]].w, p[f[1]].w, p[f[2]].w);
        let n = (b - a).cross(&(c - a));
        let side_origin = -n.dot(&a);
        let side_opposite = n.dot(&(p[opposite].w - a));
        // The origin is outside this face if it is on the other side from the opposite vertex;
        // a flat tetrahedron (side_opposite ≈ 0) is treated as outside every face.
        let scale = n.norm() * (p[opposite].w - a).norm();
        let flat = side_opposite.abs() <= 1e-14 * scale;
        if flat || side_origin * side_opposite < 0.0 {
            let candidate = closest_on_triangle(&p[f[0]], &p[f[1]], &p[f[2]]);
            let d = weighted(&candidate.0, &candidate.1).norm_squared();
            if d < best_d {
                best_d = d;
                best = Some(candidate);
            }
        }
    }
    match best {
        Some((w, pts)) => {
            s.set(&pts[..w.1], &w.0[..w.1]);
            true
        }
        None => {
            s.weights = [0.0; 4];
            false
        }
    }
}
