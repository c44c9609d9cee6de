//! A seeded stress corpus of random contact scenes (issue 26, part 4), shared by
//! `tests/contact_corpus.rs` (a fixed sample in CI) and `benches/contact_corpus.rs` (thousands of
//! scenes, per method) so that both run the same scenes and the same checks.
//!
//! [`Scene::generate`] turns a seed (u64) into one model as TOML text, with a one-line
//! [`Scene::description`] for messages. A scene is one body (sometimes a second one resting on it)
//! on an InfinitePlane table, free on a SixDofJoint:
//!
//! - **shapes**: sphere; brick; convex hull (a prism over a random convex polygon, or a cube hull);
//!   cylinder on its face (axis vertical); cylinder on its rim (axis horizontal: a roller or a coin
//!   on edge); disk (a Disk geometry on the bottom face of a cylinder Solid, as in coin_drop.toml).
//!   The largest size is 5 mm – 20 cm (log-uniform), the other dimensions 0.2–1 of it; the mass
//!   0.01–2 kg (log-uniform), lowered where needed so that the static depth stays below 5 % of the
//!   body's smallest dimension.
//! - **poses**: exactly level (the face exactly parallel to the table), its centre exactly at its
//!   rest depth or exactly touching; exactly on an edge (a brick or cube hull of square section
//!   balanced on an edge at 45°, touching); slightly tilted (1e-9 – 1e-3 rad, log-uniform, about a
//!   random horizontal axis, its lowest point at rest depth or touching); dropped from 1–5 mm
//!   (level, slightly tilted, or tilted up to 0.3 rad).
//! - **motions**: at rest; sliding (0.05–1 m/s); spinning about the vertical (1–30 rad/s); both;
//!   rolling (a cylinder on its rim, or a sphere, with the matching spin); dropped.
//! - **laws** (penalty contact, SpatialContactForce, in 85 % of scenes): every normal law
//!   (smooth_spring_damper with the default or a random transition width, linear_spring_damper,
//!   linear_spring_limited_damper, hunt_crossley) with stiffness 1e4–1e6 (N/m, or N/m^1.5 for
//!   Hunt–Crossley) and the damping of a damping ratio ζ of 0.05–2 (ζ = b/(2·√(k·m)) for the
//!   spring-damper laws, as in the examples; for Hunt–Crossley the ratio of its linearisation at
//!   the static depth); friction smooth_stick_slip (critical velocity 1e-4 – 1e-2 m/s, a decade
//!   either side of the default 1e-3) or stribeck (stiction velocity 1e-5 – 1e-3 m/s, a decade
//!   either side of the default 1e-4), μ_s 0.1–1 and μ_d 0.5–1 of μ_s, or none (15 %);
//!   `contact_points` left at its default (manifold).
//! - **RigidContact** in 15 % of scenes, only where docs/contact.md says it holds: a brick, hull,
//!   sphere, cylinder on its face or disk, level and exactly touching, slightly tilted (brick and
//!   hull), or dropped; at rest, sliding, spinning, both, rolling (sphere) or dropped; restitution
//!   0–0.6, Coulomb friction μ 0.1–1 or none (20 %).
//! - **a second body** on the first in 7 % of scenes: a smaller brick resting level on a brick,
//!   cube hull, prism or cylinder lying on its face, at rest, sliding, or dropped 1–5 mm onto it.
//! - **tolerances**: the default, abs_tol 1e-9 (the default rel_tol, as in models/puck.toml),
//!   rel_tol 1e-6 with abs_tol 1e-9, rel_tol 1e-8 with abs_tol 1e-9.
//! - **stop_time** 0.2–0.5 s.
//!
//! The TOML names no `[solver] method`: [`run`] adds `solver.method=...` only when asked, so the
//! model's default (dopri5 today, "auto" once it exists) is what a run without one uses.
//!
//! [`run`] gives every run a step budget of [`STEPS_PER_SIMULATED_SECOND`] trial steps per
//! simulated second (`--set solver.max_steps=N`), and [`check`] judges it: any error (a stall, the
//! budget, a non-finite value, …), a non-finite final state, a body ending below the table by more
//! than 10 times its reference depth, or a body that should have come to rest and has not.

#![allow(dead_code)]

use nalgebra::{UnitQuaternion, Vector3};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// Standard gravity (m/s²), the mechanism's default.
pub const G: f64 = 9.80665;

/// The step budget's pace: trial steps (accepted and rejected) per simulated second. A sane pace
/// for these scenes is a few thousand steps per simulated second (the median scene of seeds
/// 0..2000 takes about 1,300 under dopri5 and 900 under trbdf2); 50,000 is a generous multiple
/// of it, so a scene that needs more is stalling or crawling, not merely busy.
pub const STEPS_PER_SIMULATED_SECOND: f64 = 50_000.0;

/// The solver's own step limit (`--set solver.max_steps=N`) is this many times the budget; a run
/// that finishes within it but takes more than the budget is a budget overrun. Not the budget
/// itself: the stall detector (src/solver/stall.rs) judges the pace over windows of
/// max_steps/100 trial steps (at least 100), and with max_steps at the budget (10,000–25,000
/// for these stop times) those windows are 100–250 steps: the start of a run at tight
/// tolerances or a single impact then projects past the budget for two windows and ends runs
/// that would finish within it: with max_steps at the budget, 31 of seeds 0..200 failed under
/// dopri5 and 26 under trbdf2, most within their first 300–800 trial steps; given 10 times the
/// room, 14 of those dopri5 runs and 25 of the trbdf2 runs take fewer trial steps than the
/// budget itself. With 10 times the budget the windows are 1,000–2,500 steps, and a run still
/// ends with `SolverError::Stalled` as soon as its pace projects past 10 times the budget for
/// two of them.
pub const MAX_STEPS_PER_BUDGET: u64 = 10;

/// The step budget of a run of `stop_time` seconds (trial steps).
pub fn budget(stop_time: f64) -> u64 {
    (STEPS_PER_SIMULATED_SECOND * stop_time).ceil() as u64
}

// ---------------------------------------------------------------------------------------------
// The PRNG: SplitMix64 (Steele, Lea, Flood 2014), enough for a corpus and stable forever.

/// A small seeded generator; the same seed gives the same scene on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        // Decorrelate neighbouring seeds.
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unit()
    }

    pub fn log_uniform(&mut self, a: f64, b: f64) -> f64 {
        (a.ln() + (b.ln() - a.ln()) * self.unit()).exp()
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// An index drawn with the given weights.
    pub fn weighted(&mut self, weights: &[f64]) -> usize {
        let total: f64 = weights.iter().sum();
        let mut x = self.unit() * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        weights.len() - 1
    }
}

// ---------------------------------------------------------------------------------------------
// The parts of a scene.

/// The follower's shape. Sizes in m; every shape is centred on its Solid's frame R.
#[derive(Clone, Debug)]
pub enum Shape {
    Sphere {
        radius: f64,
    },
    Brick {
        size: [f64; 3],
    },
    /// A prism over a convex polygon inscribed in a circle of `radius`, `thickness` along z.
    Prism {
        radius: f64,
        thickness: f64,
        angles: Vec<f64>,
    },
    /// A cube of side `side` given as a convex hull of its 8 corners.
    CubeHull {
        side: f64,
    },
    /// A cylinder lying on its face (its axis, z of R, vertical at level).
    CylinderFace {
        radius: f64,
        length: f64,
    },
    /// A cylinder on its rim (its axis horizontal): a roller, or a coin on edge.
    CylinderRim {
        radius: f64,
        length: f64,
    },
    /// A cylinder Solid (mass, inertia) with a Disk geometry at its bottom face, lying flat.
    Disk {
        radius: f64,
        thickness: f64,
    },
}

impl Shape {
    pub fn name(&self) -> &'static str {
        match self {
            Shape::Sphere { .. } => "sphere",
            Shape::Brick { .. } => "brick",
            Shape::Prism { .. } => "prism hull",
            Shape::CubeHull { .. } => "cube hull",
            Shape::CylinderFace { .. } => "cylinder on face",
            Shape::CylinderRim { .. } => "cylinder on rim",
            Shape::Disk { .. } => "disk",
        }
    }

    /// The orientation of the shape's rest pose before yaw and tilt.
    fn base_orientation(&self) -> UnitQuaternion<f64> {
        match self {
            Shape::CylinderRim { .. } => {
                UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_2)
            }
            _ => UnitQuaternion::identity(),
        }
    }

    /// The hull's points in R (brick, prism, cube hull).
    fn corners(&self) -> Vec<Vector3<f64>> {
        match self {
            Shape::Brick { size } => box_corners(size[0] / 2.0, size[1] / 2.0, size[2] / 2.0),
            Shape::CubeHull { side } => box_corners(side / 2.0, side / 2.0, side / 2.0),
            Shape::Prism {
                radius,
                thickness,
                angles,
            } => {
                let mut p = Vec::new();
                for z in [-thickness / 2.0, thickness / 2.0] {
                    for a in angles {
                        p.push(Vector3::new(radius * a.cos(), radius * a.sin(), z));
                    }
                }
                p
            }
            _ => Vec::new(),
        }
    }

    /// The lowest point of the contact geometry below R's origin (≤ 0), at orientation `q`.
    pub fn lowest(&self, q: &UnitQuaternion<f64>) -> f64 {
        let axis = q * Vector3::z();
        let across = (1.0 - axis.z * axis.z).max(0.0).sqrt();
        match self {
            Shape::Sphere { radius } => -radius,
            Shape::Brick { .. } | Shape::Prism { .. } | Shape::CubeHull { .. } => self
                .corners()
                .iter()
                .map(|c| (q * c).z)
                .fold(f64::INFINITY, f64::min),
            Shape::CylinderFace { radius, length } | Shape::CylinderRim { radius, length } => {
                -(length / 2.0) * axis.z.abs() - radius * across
            }
            Shape::Disk {
                radius, thickness, ..
            } => -(thickness / 2.0) * axis.z - radius * across,
        }
    }

    /// The highest point of the Solid above R's origin, at orientation `q` (the top face of a
    /// body that carries a second one).
    fn highest(&self, q: &UnitQuaternion<f64>) -> f64 {
        let axis = q * Vector3::z();
        let across = (1.0 - axis.z * axis.z).max(0.0).sqrt();
        match self {
            Shape::Sphere { radius } => *radius,
            Shape::Brick { .. } | Shape::Prism { .. } | Shape::CubeHull { .. } => self
                .corners()
                .iter()
                .map(|c| (q * c).z)
                .fold(f64::NEG_INFINITY, f64::max),
            Shape::CylinderFace { radius, length } | Shape::CylinderRim { radius, length } => {
                (length / 2.0) * axis.z.abs() + radius * across
            }
            Shape::Disk { radius, thickness } => (thickness / 2.0) * axis.z.abs() + radius * across,
        }
    }

    /// The largest distance of the Solid's points from R's origin (m).
    pub fn bounding_radius(&self) -> f64 {
        match self {
            Shape::Sphere { radius } => *radius,
            Shape::Brick { .. } | Shape::Prism { .. } | Shape::CubeHull { .. } => {
                self.corners().iter().map(|c| c.norm()).fold(0.0, f64::max)
            }
            Shape::CylinderFace { radius, length } | Shape::CylinderRim { radius, length } => {
                radius.hypot(length / 2.0)
            }
            Shape::Disk { radius, thickness } => radius.hypot(thickness / 2.0),
        }
    }

    /// The smallest dimension (m).
    pub fn min_dim(&self) -> f64 {
        match self {
            Shape::Sphere { radius } => 2.0 * radius,
            Shape::Brick { size } => size[0].min(size[1]).min(size[2]),
            Shape::Prism {
                radius, thickness, ..
            } => thickness.min(*radius),
            Shape::CubeHull { side } => *side,
            Shape::CylinderFace { radius, length } | Shape::CylinderRim { radius, length } => {
                length.min(2.0 * radius)
            }
            Shape::Disk { radius, thickness } => thickness.min(2.0 * radius),
        }
    }

    /// For the rest check: m·ρ²/(2·I_c), the rocking mode's stiffness and damping per inertia
    /// relative to the vertical mode's per mass, for a face lying down: its manifold's points at
    /// a radius ρ about an axis in the face (ρ the face's half-width, its inscribed radius for a
    /// polygon; ρ²/2 a lower bound of the points' mean square distance), I_c the inertia about
    /// that axis (about the centre plus m·h², h the centre's height; a polygon's at most its
    /// circumscribed disk's). 1 for a sphere and a rim, which roll instead.
    fn rocking_ratio(&self) -> f64 {
        let (rho, i_per_m) = match self {
            Shape::Brick { size } => {
                let w = size[0].min(size[1]);
                let c = size[2];
                (w / 2.0, (w * w + c * c) / 12.0 + c * c / 4.0)
            }
            Shape::CubeHull { side } => (side / 2.0, side * side / 6.0 + side * side / 4.0),
            Shape::Prism {
                radius,
                thickness,
                angles,
            } => {
                let mut max_gap: f64 = angles[0] + std::f64::consts::TAU - angles[angles.len() - 1];
                for w in angles.windows(2) {
                    max_gap = max_gap.max(w[1] - w[0]);
                }
                let t = *thickness;
                (
                    radius * (max_gap / 2.0).cos(),
                    (3.0 * radius * radius + t * t) / 12.0 + t * t / 4.0,
                )
            }
            Shape::CylinderFace { radius, length } => (
                *radius,
                (3.0 * radius * radius + length * length) / 12.0 + length * length / 4.0,
            ),
            Shape::Disk { radius, thickness } => (
                *radius,
                (3.0 * radius * radius + thickness * thickness) / 12.0
                    + thickness * thickness / 4.0,
            ),
            Shape::Sphere { .. } | Shape::CylinderRim { .. } => return 1.0,
        };
        (rho * rho / 2.0 / i_per_m).min(1.0)
    }

    /// Whether it can roll on the table (then sliding turns into rolling, which friction does
    /// not stop).
    fn rolls(&self) -> bool {
        matches!(self, Shape::Sphere { .. } | Shape::CylinderRim { .. })
    }

    /// Whether it lies on a flat face (level means something).
    fn has_face_down(&self) -> bool {
        !matches!(self, Shape::Sphere { .. } | Shape::CylinderRim { .. })
    }

    /// Time for friction μ to stop a spin ω about the vertical with the pressure at the face's
    /// edge (the manifold's points): I·ω / (μ·m·g·r_f), I and r_f of the face lying down.
    fn spin_stop_time(&self, omega: f64, mu: f64) -> f64 {
        // I/m (m²) about the vertical, and the radius r_f (m) where the friction acts.
        let (i_per_m, r_f) = match self {
            Shape::Brick { size } => (
                (size[0] * size[0] + size[1] * size[1]) / 12.0,
                size[0].hypot(size[1]) / 2.0,
            ),
            Shape::CubeHull { side } => (side * side / 6.0, side / std::f64::consts::SQRT_2),
            // A polygon inscribed in the circle: at most the disk's I, r_f ≥ the apothem ≥ R/2.
            Shape::Prism { radius, .. } => (radius * radius / 2.0, radius / 2.0),
            Shape::CylinderFace { radius, .. } => (radius * radius / 2.0, *radius),
            Shape::Disk { radius, .. } => (radius * radius / 2.0, *radius),
            _ => return f64::INFINITY,
        };
        i_per_m * omega / (mu * G * r_f)
    }

    fn dims(&self) -> String {
        let mm = |x: f64| x * 1e3;
        match self {
            Shape::Sphere { radius } => format!("r={:.1}mm", mm(*radius)),
            Shape::Brick { size } => {
                format!("{:.1}x{:.1}x{:.1}mm", mm(size[0]), mm(size[1]), mm(size[2]))
            }
            Shape::Prism {
                radius,
                thickness,
                angles,
            } => format!(
                "{}-gon r={:.1}mm t={:.1}mm",
                angles.len(),
                mm(*radius),
                mm(*thickness)
            ),
            Shape::CubeHull { side } => format!("side={:.1}mm", mm(*side)),
            Shape::CylinderFace { radius, length } | Shape::CylinderRim { radius, length } => {
                format!("r={:.1}mm L={:.1}mm", mm(*radius), mm(*length))
            }
            Shape::Disk { radius, thickness } => {
                format!("r={:.1}mm t={:.1}mm", mm(*radius), mm(*thickness))
            }
        }
    }

    /// The Solid's `geometry = ...` value.
    fn geometry_toml(&self) -> String {
        match self {
            Shape::Sphere { radius } => format!("{{ shape = \"sphere\", radius = {radius:?} }}"),
            Shape::Brick { size } => format!(
                "{{ shape = \"brick\", size = [{:?}, {:?}, {:?}] }}",
                size[0], size[1], size[2]
            ),
            Shape::Prism { .. } | Shape::CubeHull { .. } => {
                let points: Vec<String> = self
                    .corners()
                    .iter()
                    .map(|c| format!("[{:?}, {:?}, {:?}]", c.x, c.y, c.z))
                    .collect();
                format!(
                    "{{ shape = \"convex_hull\", points = [{}] }}",
                    points.join(", ")
                )
            }
            Shape::CylinderFace { radius, length } | Shape::CylinderRim { radius, length } => {
                format!("{{ shape = \"cylinder\", radius = {radius:?}, length = {length:?} }}")
            }
            Shape::Disk { radius, thickness } => {
                format!("{{ shape = \"cylinder\", radius = {radius:?}, length = {thickness:?} }}")
            }
        }
    }
}

fn box_corners(a: f64, b: f64, c: f64) -> Vec<Vector3<f64>> {
    let mut p = Vec::with_capacity(8);
    for sx in [-1.0, 1.0] {
        for sy in [-1.0, 1.0] {
            for sz in [-1.0, 1.0] {
                p.push(Vector3::new(sx * a, sy * b, sz * c));
            }
        }
    }
    p
}

/// The pose at t = 0.
#[derive(Clone, Debug)]
pub enum Pose {
    /// Exactly level; its lowest point exactly at the rest depth (`touching` false) or exactly
    /// touching the table.
    Level { touching: bool },
    /// A brick or cube hull of square section balanced on an edge at 45°, exactly touching.
    Edge,
    /// Tilted by `angle` (rad) about a horizontal axis at `direction` (rad from World x); its
    /// lowest point at the rest depth or touching.
    Tilted {
        angle: f64,
        direction: f64,
        touching: bool,
    },
    /// Its lowest point `height` (m) above the table, tilted by `tilt` (rad) about a horizontal
    /// axis at `direction`.
    Dropped {
        height: f64,
        tilt: f64,
        direction: f64,
    },
}

/// The initial motion.
#[derive(Clone, Debug)]
pub enum Motion {
    Rest,
    /// Sliding at `speed` (m/s) towards `heading` (rad from World x).
    Sliding {
        speed: f64,
        heading: f64,
    },
    /// Spinning about the vertical at `spin` (rad/s).
    Spinning {
        spin: f64,
    },
    SlidingSpinning {
        speed: f64,
        heading: f64,
        spin: f64,
    },
    /// Rolling at `speed` (m/s) towards `heading`, with the matching spin about the horizontal.
    Rolling {
        speed: f64,
        heading: f64,
    },
    /// Released at rest above the table.
    Dropped,
}

/// A penalty contact's normal law.
#[derive(Clone, Debug)]
pub enum Normal {
    /// `transition_width`: `None` leaves the default (1e-4 m).
    Smooth {
        k: f64,
        b: f64,
        width: Option<f64>,
    },
    Linear {
        k: f64,
        b: f64,
    },
    Limited {
        k: f64,
        b: f64,
    },
    /// Exponent n = 1.5, velocity exponent 1, depth exponent n (the defaults).
    HuntCrossley {
        k: f64,
        b: f64,
    },
}

/// Hunt–Crossley's exponent n (its default).
pub const HC_EXPONENT: f64 = 1.5;
/// The smooth law's default transition width (m).
pub const SMOOTH_DEFAULT_WIDTH: f64 = 1e-4;

impl Normal {
    pub fn name(&self) -> &'static str {
        match self {
            Normal::Smooth { .. } => "smooth_spring_damper",
            Normal::Linear { .. } => "linear_spring_damper",
            Normal::Limited { .. } => "linear_spring_limited_damper",
            Normal::HuntCrossley { .. } => "hunt_crossley",
        }
    }

    fn kb(&self) -> (f64, f64) {
        match *self {
            Normal::Smooth { k, b, .. }
            | Normal::Linear { k, b }
            | Normal::Limited { k, b }
            | Normal::HuntCrossley { k, b } => (k, b),
        }
    }

    /// The elastic force (N) at depth d (m), damping left out.
    fn spring(&self, d: f64) -> f64 {
        if d <= 0.0 {
            return 0.0;
        }
        match *self {
            Normal::Smooth { k, width, .. } => {
                let w = width.unwrap_or(SMOOTH_DEFAULT_WIDTH);
                let x = (d / w).min(1.0);
                (3.0 * x * x - 2.0 * x * x * x) * k * d
            }
            Normal::Linear { k, .. } | Normal::Limited { k, .. } => k * d,
            Normal::HuntCrossley { k, .. } => k * d.powf(HC_EXPONENT),
        }
    }

    /// The elastic energy (J) stored at depth d: ∫₀ᵈ spring (an upper bound for the smooth law,
    /// whose smoothstep is at most 1).
    fn energy(&self, d: f64) -> f64 {
        if d <= 0.0 {
            return 0.0;
        }
        match *self {
            Normal::Smooth { k, .. } | Normal::Linear { k, .. } | Normal::Limited { k, .. } => {
                0.5 * k * d * d
            }
            Normal::HuntCrossley { k, .. } => k * d.powf(HC_EXPONENT + 1.0) / (HC_EXPONENT + 1.0),
        }
    }

    /// The depth at which the spring carries `weight` (N).
    pub fn static_depth(&self, weight: f64) -> f64 {
        let mut hi = 1e-12;
        while self.spring(hi) < weight {
            hi *= 2.0;
        }
        let mut lo = 0.0;
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if self.spring(mid) < weight {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        hi
    }

    /// The deepest a body of weight W can press with `energy` (J) to spend besides its fall
    /// into the table: the lower bound of the law's energy (the smooth law's smoothstep makes it
    /// softer, so its depth is found with the linear law's energy and widened by the width),
    /// solving E(d) = energy + W·d.
    fn energy_depth(&self, weight: f64, energy: f64) -> f64 {
        let f = |d: f64| self.energy(d) - energy - weight * d;
        let mut hi = 1e-12;
        while f(hi) < 0.0 {
            hi *= 2.0;
        }
        let mut lo = 0.0;
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if f(mid) < 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        match *self {
            Normal::Smooth { width, .. } => hi + width.unwrap_or(SMOOTH_DEFAULT_WIDTH),
            _ => hi,
        }
    }

    fn toml(&self) -> String {
        match *self {
            Normal::Smooth { k, b, width } => match width {
                Some(w) => format!(
                    "{{ method = \"smooth_spring_damper\", stiffness = {k:?}, damping = {b:?}, transition_width = {w:?} }}"
                ),
                None => format!(
                    "{{ method = \"smooth_spring_damper\", stiffness = {k:?}, damping = {b:?} }}"
                ),
            },
            Normal::Linear { k, b } => format!(
                "{{ method = \"linear_spring_damper\", stiffness = {k:?}, damping = {b:?} }}"
            ),
            Normal::Limited { k, b } => format!(
                "{{ method = \"linear_spring_limited_damper\", stiffness = {k:?}, damping = {b:?} }}"
            ),
            Normal::HuntCrossley { k, b } => {
                format!("{{ method = \"hunt_crossley\", stiffness = {k:?}, damping = {b:?} }}")
            }
        }
    }
}

/// A penalty contact's friction law.
#[derive(Clone, Debug)]
pub enum Friction {
    SmoothStickSlip { ms: f64, md: f64, vc: f64 },
    Stribeck { ms: f64, md: f64, vs: f64 },
    None,
}

impl Friction {
    pub fn name(&self) -> &'static str {
        match self {
            Friction::SmoothStickSlip { .. } => "smooth_stick_slip",
            Friction::Stribeck { .. } => "stribeck",
            Friction::None => "none",
        }
    }

    /// The sliding coefficient (0 without friction).
    fn dynamic(&self) -> f64 {
        match *self {
            Friction::SmoothStickSlip { md, .. } | Friction::Stribeck { md, .. } => md,
            Friction::None => 0.0,
        }
    }

    fn toml(&self) -> String {
        match *self {
            Friction::SmoothStickSlip { ms, md, vc } => format!(
                "{{ method = \"smooth_stick_slip\", static = {ms:?}, dynamic = {md:?}, critical_velocity = {vc:?} }}"
            ),
            Friction::Stribeck { ms, md, vs } => format!(
                "{{ method = \"stribeck\", static = {ms:?}, dynamic = {md:?}, stiction_velocity = {vs:?} }}"
            ),
            Friction::None => "{ method = \"none\" }".to_string(),
        }
    }

    fn describe(&self) -> String {
        match *self {
            Friction::SmoothStickSlip { ms, md, vc } => {
                format!("smooth_stick_slip μs={ms:.2} μd={md:.2} vc={vc:.1e}")
            }
            Friction::Stribeck { ms, md, vs } => {
                format!("stribeck μs={ms:.2} μd={md:.2} vs={vs:.1e}")
            }
            Friction::None => "no friction".to_string(),
        }
    }
}

/// The contact between the table and the body (and between the two bodies of a stack).
#[derive(Clone, Debug)]
pub enum Contact {
    /// SpatialContactForce; `zeta` is the damping ratio the damping was chosen for.
    Penalty {
        normal: Normal,
        friction: Friction,
        zeta: f64,
    },
    /// RigidContact; `mu` None is frictionless.
    Rigid { restitution: f64, mu: Option<f64> },
}

impl Contact {
    /// "penalty" or "rigid".
    pub fn kind(&self) -> &'static str {
        match self {
            Contact::Penalty { .. } => "penalty",
            Contact::Rigid { .. } => "rigid",
        }
    }

    /// The normal law's name ("rigid" for RigidContact).
    pub fn normal_name(&self) -> &'static str {
        match self {
            Contact::Penalty { normal, .. } => normal.name(),
            Contact::Rigid { .. } => "rigid",
        }
    }

    /// The friction law's name.
    pub fn friction_name(&self) -> &'static str {
        match self {
            Contact::Penalty { friction, .. } => friction.name(),
            Contact::Rigid { mu: Some(_), .. } => "coulomb",
            Contact::Rigid { mu: None, .. } => "none",
        }
    }

    fn mu_dynamic(&self) -> f64 {
        match self {
            Contact::Penalty { friction, .. } => friction.dynamic(),
            Contact::Rigid { mu, .. } => mu.unwrap_or(0.0),
        }
    }

    /// The block's body (after `[blocks.NAME]`).
    fn block(&self, normal: Option<&Normal>) -> String {
        match self {
            Contact::Penalty {
                normal: n,
                friction,
                ..
            } => format!(
                "type = \"SpatialContactForce\"\nnormal = {}\nfriction = {}\n",
                normal.unwrap_or(n).toml(),
                friction.toml()
            ),
            Contact::Rigid { restitution, mu } => {
                let friction = match mu {
                    Some(mu) => format!("{{ method = \"coulomb\", coefficient = {mu:?} }}"),
                    None => "{ method = \"none\" }".to_string(),
                };
                format!(
                    "type = \"RigidContact\"\nrestitution = {restitution:?}\nfriction = {friction}\n"
                )
            }
        }
    }

    fn describe(&self) -> String {
        match self {
            Contact::Penalty {
                normal,
                friction,
                zeta,
            } => {
                let (k, b) = normal.kb();
                let width = match normal {
                    Normal::Smooth { width: Some(w), .. } => format!(" w={w:.1e}"),
                    _ => String::new(),
                };
                format!(
                    "{} k={k:.2e} b={b:.3e} ζ={zeta:.2}{width}, {}",
                    normal.name(),
                    friction.describe()
                )
            }
            Contact::Rigid { restitution, mu } => match mu {
                Some(mu) => format!("RigidContact e={restitution:.2} coulomb μ={mu:.2}"),
                None => format!("RigidContact e={restitution:.2} frictionless"),
            },
        }
    }
}

/// The solver's tolerances, as the TOML writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tolerance {
    /// No `[solver]` section.
    Default,
    /// abs_tol 1e-9 with the default rel_tol (as models/puck.toml).
    Abs9,
    Rel6Abs9,
    Rel8Abs9,
}

impl Tolerance {
    pub fn describe(self) -> &'static str {
        match self {
            Tolerance::Default => "default tolerances",
            Tolerance::Abs9 => "abs_tol 1e-9",
            Tolerance::Rel6Abs9 => "rel_tol 1e-6 abs_tol 1e-9",
            Tolerance::Rel8Abs9 => "rel_tol 1e-8 abs_tol 1e-9",
        }
    }

    fn toml(self) -> &'static str {
        match self {
            Tolerance::Default => "",
            Tolerance::Abs9 => "[solver]\nabs_tol = 1e-9\n\n",
            Tolerance::Rel6Abs9 => "[solver]\nrel_tol = 1e-6\nabs_tol = 1e-9\n\n",
            Tolerance::Rel8Abs9 => "[solver]\nrel_tol = 1e-8\nabs_tol = 1e-9\n\n",
        }
    }
}

/// A second body resting on the first: a brick, level, centred over it.
#[derive(Clone, Debug)]
pub struct Stacked {
    pub size: [f64; 3],
    pub mass: f64,
    pub yaw: f64,
    /// Sliding speed (m/s) along World x, 0 at rest.
    pub speed: f64,
    /// Drop height (m) of its bottom face above the first body's top face, 0 at rest depth.
    pub drop: f64,
    /// Its static depth into the first body (m).
    pub depth: f64,
    /// Its contact law (the first body's, with the damping for its own mass).
    pub normal: Option<Normal>,
}

/// One generated scene.
#[derive(Clone, Debug)]
pub struct Scene {
    pub seed: u64,
    pub shape: Shape,
    pub mass: f64,
    pub pose: Pose,
    pub motion: Motion,
    pub contact: Contact,
    pub tolerance: Tolerance,
    pub stop_time: f64,
    pub stacked: Option<Stacked>,
    /// The first body's static depth (m): its weight (and the second body's) on the normal law;
    /// 0 for RigidContact.
    pub depth: f64,
    /// The initial pose and velocities (World; angular velocity resolved in the body).
    pub orientation: UnitQuaternion<f64>,
    pub position: Vector3<f64>,
    pub velocity: Vector3<f64>,
    pub angular_velocity: Vector3<f64>,
    /// The model.
    pub toml: String,
    /// One line: shape, pose, motion, laws, tolerance, stop time.
    pub description: String,
}

impl Scene {
    /// The scene of `seed`.
    pub fn generate(seed: u64) -> Scene {
        let mut rng = Rng::new(seed);
        let rigid = rng.chance(0.15);

        // Shape: the largest size 5 mm – 20 cm, the others 0.2–1 of it.
        let size = rng.log_uniform(0.005, 0.2);
        let shape_index = if rigid {
            [0, 1, 2, 3, 4, 6][rng.below(6)]
        } else {
            rng.below(7)
        };
        let aspect = |rng: &mut Rng| rng.uniform(0.2, 1.0);
        let mut shape = match shape_index {
            0 => Shape::Sphere { radius: size / 2.0 },
            1 => Shape::Brick {
                size: [size, size * aspect(&mut rng), size * aspect(&mut rng)],
            },
            2 => {
                let n = 3 + rng.below(6);
                // Random angles on the circle, at least 0.3 rad apart: a convex polygon.
                let mut angles: Vec<f64>;
                loop {
                    angles = (0..n)
                        .map(|_| rng.uniform(0.0, std::f64::consts::TAU))
                        .collect();
                    angles.sort_by(f64::total_cmp);
                    let gaps_ok = angles.windows(2).all(|w| w[1] - w[0] > 0.3)
                        && angles[0] + std::f64::consts::TAU - angles[n - 1] > 0.3;
                    // The origin inside the polygon: no gap of π or more.
                    let inside = angles.windows(2).all(|w| w[1] - w[0] < 3.0)
                        && angles[0] + std::f64::consts::TAU - angles[n - 1] < 3.0;
                    if gaps_ok && inside {
                        break;
                    }
                }
                Shape::Prism {
                    radius: size / 2.0,
                    thickness: size * aspect(&mut rng),
                    angles,
                }
            }
            3 => Shape::CubeHull { side: size },
            4 => Shape::CylinderFace {
                radius: size / 2.0,
                length: size * aspect(&mut rng),
            },
            5 => Shape::CylinderRim {
                radius: size / 2.0,
                length: size * rng.uniform(0.1, 2.0),
            },
            _ => Shape::Disk {
                radius: size / 2.0,
                thickness: size * rng.uniform(0.1, 0.5),
            },
        };

        // Pose.
        let edge_capable = matches!(shape, Shape::Brick { .. } | Shape::CubeHull { .. });
        let pose_index = rng.weighted(&[0.35, if edge_capable { 0.25 } else { 0.0 }, 0.3, 0.3]);
        let pose_index = if rigid && pose_index == 1 {
            0
        } else {
            pose_index
        };
        let direction = rng.uniform(0.0, std::f64::consts::TAU);
        let mut pose = match pose_index {
            0 => Pose::Level {
                touching: rigid || rng.chance(0.5),
            },
            1 => Pose::Edge,
            2 => Pose::Tilted {
                angle: rng.log_uniform(1e-9, 1e-3),
                direction,
                touching: rigid || rng.chance(0.5),
            },
            _ => Pose::Dropped {
                height: rng.uniform(0.001, 0.005),
                tilt: match rng.below(3) {
                    0 => 0.0,
                    1 => rng.log_uniform(1e-9, 1e-3),
                    _ => rng.uniform(0.01, 0.3),
                },
                direction,
            },
        };
        // RigidContact tilts only bricks and hulls (docs/contact.md: a box's corners lift off and
        // land as located modes; the curvature of rims is not in its rows).
        if rigid
            && matches!(pose, Pose::Tilted { .. })
            && !matches!(
                shape,
                Shape::Brick { .. } | Shape::Prism { .. } | Shape::CubeHull { .. }
            )
        {
            pose = Pose::Level { touching: true };
        }
        if rigid {
            if let Pose::Dropped { tilt, .. } = &mut pose {
                if !matches!(
                    shape,
                    Shape::Brick { .. } | Shape::Prism { .. } | Shape::CubeHull { .. }
                ) {
                    *tilt = 0.0;
                }
            }
        }
        if let (Pose::Edge, Shape::Brick { size }) = (&pose, &mut shape) {
            // A square section about x, balanced on an edge along x.
            size[2] = size[1];
        }
        if !shape.has_face_down() {
            if let Pose::Tilted { touching, .. } = pose {
                pose = Pose::Level { touching };
            }
        }

        // Motion.
        let heading = rng.uniform(0.0, std::f64::consts::TAU);
        let speed = rng.log_uniform(0.05, 1.0);
        let spin = rng.log_uniform(1.0, 30.0);
        let motion = match pose {
            Pose::Dropped { .. } => Motion::Dropped,
            Pose::Edge => Motion::Rest,
            _ => {
                let roll_ok = shape.rolls();
                match rng.weighted(&[0.25, 0.2, 0.2, 0.2, if roll_ok { 0.3 } else { 0.0 }]) {
                    0 => Motion::Rest,
                    1 => Motion::Sliding { speed, heading },
                    2 => Motion::Spinning { spin },
                    3 => Motion::SlidingSpinning {
                        speed,
                        heading,
                        spin,
                    },
                    _ => Motion::Rolling { speed, heading },
                }
            }
        };
        // RigidContact rolls only spheres (a cylinder's rolling contact drifts, docs/contact.md).
        let motion = match (&motion, &shape, rigid) {
            (Motion::Rolling { speed, heading }, Shape::CylinderRim { .. }, true) => {
                Motion::Sliding {
                    speed: *speed,
                    heading: *heading,
                }
            }
            _ => motion,
        };

        // The second body: a smaller brick resting level on a flat top.
        let stack_ok = matches!(
            shape,
            Shape::Brick { .. }
                | Shape::Prism { .. }
                | Shape::CubeHull { .. }
                | Shape::CylinderFace { .. }
        ) && matches!(pose, Pose::Level { .. })
            && matches!(motion, Motion::Rest);
        let stack_draw = rng.unit();
        let mut room = 0.0;
        let stacked = if stack_ok && stack_draw < 0.35 {
            // The first body's top face: its inscribed square's side.
            let footprint = match &shape {
                Shape::Brick { size } => size[0].min(size[1]),
                Shape::CubeHull { side } => *side,
                Shape::Prism { radius, angles, .. } => {
                    // The apothem of the widest gap bounds the inscribed circle.
                    let mut max_gap: f64 =
                        angles[0] + std::f64::consts::TAU - angles[angles.len() - 1];
                    for w in angles.windows(2) {
                        max_gap = max_gap.max(w[1] - w[0]);
                    }
                    radius * (max_gap / 2.0).cos() * std::f64::consts::SQRT_2
                }
                Shape::CylinderFace { radius, .. } => radius * std::f64::consts::SQRT_2,
                _ => unreachable!(),
            };
            let a = footprint * rng.uniform(0.3, 0.6);
            let s = [a, a * aspect(&mut rng), a * aspect(&mut rng)];
            let yaw = rng.uniform(0.0, std::f64::consts::TAU);
            // Sliding: a fraction of the speed that friction stops within half the room left
            // on the top face (set once the friction is drawn), so that it never slides off
            // the edge (a box tipping over another's edge is outside RigidContact's range, and
            // nothing catches a body that falls off).
            let (speed, drop) = match rng.below(3) {
                0 => (0.0, 0.0),
                1 => (-rng.uniform(0.3, 1.0), 0.0),
                _ => (0.0, rng.uniform(0.001, 0.005)),
            };
            room = footprint / 2.0 - s[0].hypot(s[1]) / 2.0;
            Some(Stacked {
                size: s,
                mass: 0.0,
                yaw,
                speed,
                drop,
                depth: 0.0,
                normal: None,
            })
        } else {
            None
        };

        // Mass, laws, and the static depth (at most 5 % of the smallest dimension).
        let mut mass = rng.log_uniform(0.01, 2.0);
        let mut stacked = stacked;
        if let Some(s) = &mut stacked {
            s.mass = mass * rng.uniform(0.1, 1.0);
        }
        let zeta = rng.log_uniform(0.05, 2.0);
        let contact = if rigid {
            Contact::Rigid {
                restitution: rng.uniform(0.0, 0.6),
                mu: if rng.chance(0.8) {
                    Some(rng.uniform(0.1, 1.0))
                } else {
                    None
                },
            }
        } else {
            let law = rng.below(4);
            let mut k = rng.log_uniform(1e4, 1e6);
            let width = if law == 0 && rng.chance(0.5) {
                Some(rng.log_uniform(1e-7, 1e-4))
            } else {
                None
            };
            let spring_only = |k: f64| match law {
                0 => Normal::Smooth { k, b: 0.0, width },
                1 => Normal::Linear { k, b: 0.0 },
                2 => Normal::Limited { k, b: 0.0 },
                _ => Normal::HuntCrossley { k, b: 0.0 },
            };
            let cap = 0.05 * shape.min_dim();
            let carried = |mass: f64, stacked: &Option<Stacked>| {
                (mass + stacked.as_ref().map_or(0.0, |s| s.mass)) * G
            };
            while spring_only(k).static_depth(carried(mass, &stacked)) > cap {
                if mass > 0.0101 {
                    mass = (mass * 0.7).max(0.01);
                    if let Some(s) = &mut stacked {
                        s.mass *= 0.7;
                    }
                } else {
                    k *= 1.5;
                }
            }
            let total = mass + stacked.as_ref().map_or(0.0, |s| s.mass);
            let depth = spring_only(k).static_depth(total * G);
            let b = damping(law, k, mass, zeta, depth);
            let normal = match law {
                0 => Normal::Smooth { k, b, width },
                1 => Normal::Linear { k, b },
                2 => Normal::Limited { k, b },
                _ => Normal::HuntCrossley { k, b },
            };
            if let Some(s) = &mut stacked {
                let d2 = spring_only(k).static_depth(s.mass * G);
                s.depth = d2;
                s.normal = Some(match law {
                    0 => Normal::Smooth {
                        k,
                        b: damping(law, k, s.mass, zeta, d2),
                        width,
                    },
                    1 => Normal::Linear {
                        k,
                        b: damping(law, k, s.mass, zeta, d2),
                    },
                    2 => Normal::Limited {
                        k,
                        b: damping(law, k, s.mass, zeta, d2),
                    },
                    _ => Normal::HuntCrossley {
                        k,
                        b: damping(law, k, s.mass, zeta, d2),
                    },
                });
            }
            let friction = match rng.weighted(&[0.425, 0.425, 0.15]) {
                0 => {
                    let ms = rng.uniform(0.1, 1.0);
                    Friction::SmoothStickSlip {
                        ms,
                        md: ms * rng.uniform(0.5, 1.0),
                        vc: rng.log_uniform(1e-4, 1e-2),
                    }
                }
                1 => {
                    let ms = rng.uniform(0.1, 1.0);
                    Friction::Stribeck {
                        ms,
                        md: ms * rng.uniform(0.5, 1.0),
                        vs: rng.log_uniform(1e-5, 1e-3),
                    }
                }
                _ => Friction::None,
            };
            Contact::Penalty {
                normal,
                friction,
                zeta,
            }
        };
        if let Some(s) = &mut stacked {
            if s.speed < 0.0 {
                // v²/(2·μ·g) ≤ room/2; at rest without friction.
                s.speed = -s.speed * (contact.mu_dynamic() * G * room).sqrt();
            }
        }
        let depth = match &contact {
            Contact::Penalty { normal, .. } => {
                normal.static_depth((mass + stacked.as_ref().map_or(0.0, |s| s.mass)) * G)
            }
            Contact::Rigid { .. } => 0.0,
        };

        let tolerance = match rng.weighted(&[0.3, 0.3, 0.25, 0.15]) {
            0 => Tolerance::Default,
            1 => Tolerance::Abs9,
            2 => Tolerance::Rel6Abs9,
            _ => Tolerance::Rel8Abs9,
        };
        let stop_time = (rng.uniform(0.2, 0.5) * 100.0).round() / 100.0;
        let yaw = if rng.chance(0.5) {
            0.0
        } else {
            rng.uniform(0.0, std::f64::consts::TAU)
        };

        // The initial state.
        let horizontal = |angle: f64| Vector3::new(angle.cos(), angle.sin(), 0.0);
        let tilt_about = |direction: f64, angle: f64| {
            UnitQuaternion::from_axis_angle(
                &nalgebra::Unit::new_normalize(horizontal(direction)),
                angle,
            )
        };
        let yaw_of = |motion: &Motion| match motion {
            // A roller's axis across its heading.
            Motion::Rolling { heading, .. } => *heading,
            _ => yaw,
        };
        let q_yaw = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), yaw_of(&motion));
        let q_rest = match pose {
            Pose::Edge => {
                q_yaw
                    * UnitQuaternion::from_axis_angle(
                        &Vector3::x_axis(),
                        std::f64::consts::FRAC_PI_4,
                    )
            }
            _ => q_yaw * shape.base_orientation(),
        };
        let (orientation, lift) = match pose {
            Pose::Level { touching } => (q_rest, if touching { 0.0 } else { -depth }),
            Pose::Edge => (q_rest, 0.0),
            Pose::Tilted {
                angle,
                direction,
                touching,
            } => (
                tilt_about(direction, angle) * q_rest,
                if touching { 0.0 } else { -depth },
            ),
            Pose::Dropped {
                height,
                tilt,
                direction,
            } => (tilt_about(direction, tilt) * q_rest, height),
        };
        let position = Vector3::new(0.0, 0.0, -shape.lowest(&orientation) + lift);
        let (velocity, spin_world) = match motion {
            Motion::Rest | Motion::Dropped => (Vector3::zeros(), Vector3::zeros()),
            Motion::Sliding { speed, heading } => (speed * horizontal(heading), Vector3::zeros()),
            Motion::Spinning { spin } => (Vector3::zeros(), Vector3::new(0.0, 0.0, spin)),
            Motion::SlidingSpinning {
                speed,
                heading,
                spin,
            } => (speed * horizontal(heading), Vector3::new(0.0, 0.0, spin)),
            Motion::Rolling { speed, heading } => {
                // The contact point at rest: ω = ẑ × v / r, r the centre's height.
                let v = speed * horizontal(heading);
                let r = position.z;
                (v, Vector3::z().cross(&v) / r)
            }
        };
        let angular_velocity = orientation.inverse() * spin_world;

        let mut scene = Scene {
            seed,
            shape,
            mass,
            pose,
            motion,
            contact,
            tolerance,
            stop_time,
            stacked,
            depth,
            orientation,
            position,
            velocity,
            angular_velocity,
            toml: String::new(),
            description: String::new(),
        };
        scene.toml = scene.write_toml();
        scene.description = scene.describe();
        scene
    }

    /// The second body's initial position (World), when there is one.
    fn stacked_position(&self) -> Option<Vector3<f64>> {
        self.stacked.as_ref().map(|s| {
            let top = self.position.z + self.shape.highest(&self.orientation);
            let lift = if s.drop > 0.0 { s.drop } else { -s.depth };
            Vector3::new(0.0, 0.0, top + s.size[2] / 2.0 + lift)
        })
    }

    fn write_toml(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(t, "# {}", self.describe());
        let disk = matches!(self.shape, Shape::Disk { .. });
        t.push_str("connect = [\n  \"world.W -- table.R\",\n  \"world.W -- free.B\",\n  \"free.F -- body.R\",\n  \"table.G -- contact.B\",\n");
        if disk {
            t.push_str("  \"free.F -- face_offset.B\",\n  \"face_offset.F -- face.R\",\n  \"face.G -- contact.F\",\n");
        } else {
            t.push_str("  \"body.G -- contact.F\",\n");
        }
        if self.stacked.is_some() {
            t.push_str("  \"world.W -- free2.B\",\n  \"free2.F -- body2.R\",\n  \"body.G -- contact2.B\",\n  \"body2.G -- contact2.F\",\n");
        }
        t.push_str("]\n\n");
        let _ = write!(
            t,
            "[model]\nname = \"corpus_{}\"\nstop_time = {:?}\n\n",
            self.seed, self.stop_time
        );
        t.push_str(self.tolerance.toml());
        // Rows at a few sample times and the final row: the checks read the final state.
        let log = if self.stacked.is_some() {
            "[\"free.p\", \"free.v\", \"free.w\", \"free.Q\", \"free2.p\", \"free2.v\", \"free2.w\", \"free2.Q\"]"
        } else {
            "[\"free.p\", \"free.v\", \"free.w\", \"free.Q\"]"
        };
        let _ = write!(
            t,
            "[output]\nsample_time = {:?}\nlog = {log}\n\n",
            self.stop_time / 4.0
        );
        t.push_str(
            "[blocks.world]\ntype = \"WorldFrame\"\n\n[blocks.table]\ntype = \"InfinitePlane\"\n\n",
        );
        let _ = write!(
            t,
            "[blocks.body]\ntype = \"Solid\"\ngeometry = {}\nmass = {:?}\n\n",
            self.shape.geometry_toml(),
            self.mass
        );
        if let Shape::Disk { radius, thickness } = self.shape {
            let _ = write!(
                t,
                "[blocks.face_offset]\ntype = \"RigidTransform\"\ntranslation = [0.0, 0.0, {:?}]\n\n[blocks.face]\ntype = \"Disk\"\nradius = {radius:?}\n\n",
                -thickness / 2.0
            );
        }
        let q = self.orientation.quaternion();
        let (p, v, w) = (self.position, self.velocity, self.angular_velocity);
        let _ = write!(
            t,
            "[blocks.free]\ntype = \"SixDofJoint\"\nposition = [{:?}, {:?}, {:?}]\norientation = [{:?}, {:?}, {:?}, {:?}]\nvelocity = [{:?}, {:?}, {:?}]\nangular_velocity = [{:?}, {:?}, {:?}]\n\n",
            p.x, p.y, p.z, q.w, q.i, q.j, q.k, v.x, v.y, v.z, w.x, w.y, w.z
        );
        let _ = write!(t, "[blocks.contact]\n{}", self.contact.block(None));
        if let (Some(s), Some(p2)) = (&self.stacked, self.stacked_position()) {
            let q2 = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), s.yaw);
            let q2 = q2.quaternion();
            let _ = write!(
                t,
                "\n[blocks.body2]\ntype = \"Solid\"\ngeometry = {{ shape = \"brick\", size = [{:?}, {:?}, {:?}] }}\nmass = {:?}\n\n[blocks.free2]\ntype = \"SixDofJoint\"\nposition = [{:?}, {:?}, {:?}]\norientation = [{:?}, {:?}, {:?}, {:?}]\nvelocity = [{:?}, 0.0, 0.0]\n\n[blocks.contact2]\n{}",
                s.size[0], s.size[1], s.size[2], s.mass, p2.x, p2.y, p2.z, q2.w, q2.i, q2.j, q2.k, s.speed,
                self.contact.block(s.normal.as_ref())
            );
        }
        t
    }

    fn describe(&self) -> String {
        let pose = match self.pose {
            Pose::Level { touching } => {
                format!(
                    "level {}",
                    if touching {
                        "touching"
                    } else {
                        "at rest depth"
                    }
                )
            }
            Pose::Edge => "balanced on an edge at 45°".to_string(),
            Pose::Tilted {
                angle, touching, ..
            } => format!(
                "tilted {angle:.1e} rad {}",
                if touching {
                    "touching"
                } else {
                    "at rest depth"
                }
            ),
            Pose::Dropped { height, tilt, .. } => {
                if tilt == 0.0 {
                    format!("dropped {:.1} mm level", height * 1e3)
                } else {
                    format!("dropped {:.1} mm tilted {tilt:.1e} rad", height * 1e3)
                }
            }
        };
        let motion = match self.motion {
            Motion::Rest => "at rest".to_string(),
            Motion::Sliding { speed, .. } => format!("sliding {speed:.2} m/s"),
            Motion::Spinning { spin } => format!("spinning {spin:.1} rad/s"),
            Motion::SlidingSpinning { speed, spin, .. } => {
                format!("sliding {speed:.2} m/s + spinning {spin:.1} rad/s")
            }
            Motion::Rolling { speed, .. } => format!("rolling {speed:.2} m/s"),
            Motion::Dropped => "dropped".to_string(),
        };
        let stack = match &self.stacked {
            Some(s) => {
                let what = if s.speed > 0.0 {
                    format!("sliding {:.2} m/s", s.speed)
                } else if s.drop > 0.0 {
                    format!("dropped {:.1} mm", s.drop * 1e3)
                } else {
                    "at rest".to_string()
                };
                format!(
                    " + a {:.1}x{:.1}x{:.1}mm {:.3} kg brick on top {what}",
                    s.size[0] * 1e3,
                    s.size[1] * 1e3,
                    s.size[2] * 1e3,
                    s.mass
                )
            }
            None => String::new(),
        };
        format!(
            "seed {}: {} {} {:.3} kg{stack} | {pose}, {motion} | {} | {} | T={} s",
            self.seed,
            self.shape.name(),
            self.shape.dims(),
            self.mass,
            self.contact.describe(),
            self.tolerance.describe(),
            self.stop_time
        )
    }

    /// The speed scale (m/s) of the scene's initial motion: the impact speed of a drop, the sag
    /// speed of a body released touching, the sliding, spinning and rolling speeds.
    fn speed_scale(&self) -> f64 {
        let r = self.shape.bounding_radius();
        let omega = self.angular_velocity.norm();
        let fall = self.fall_height();
        let touching = matches!(
            self.pose,
            Pose::Level { touching: true } | Pose::Edge | Pose::Tilted { touching: true, .. }
        );
        let sag = match &self.contact {
            // A body released touching sinks through its static depth: its speed stays below
            // √(2·g·d_max), d_max the deepest its weight alone presses it.
            Contact::Penalty { normal, .. } if touching => {
                (2.0 * G * normal.energy_depth(self.mass * G, 0.0)).sqrt()
            }
            _ => 0.0,
        };
        (2.0 * G * fall).sqrt() + self.velocity.norm() + omega * r + sag
    }

    /// The height (m) the centre can fall: the drop, and how far a tilt lowers it as the body
    /// settles flat (the bounding radius times the tilt).
    fn fall_height(&self) -> f64 {
        let r = self.shape.bounding_radius();
        match self.pose {
            Pose::Dropped { height, tilt, .. } => height + r * tilt,
            Pose::Tilted { angle, .. } => r * angle,
            _ => 0.0,
        }
    }

    /// The reference depth (m) of the first body at the end: its static depth, or, for a body
    /// still moving, the deepest its energy can press it (a scene may end mid-impact or
    /// mid-bounce; the energy of its vertical fall and of all its motion bounds the depth).
    fn reference_depth(&self, moving: bool) -> f64 {
        match &self.contact {
            Contact::Penalty { normal, .. } => {
                let total = self.mass + self.stacked.as_ref().map_or(0.0, |s| s.mass);
                let weight = total * G;
                if !moving {
                    return self.depth;
                }
                let drop2 = self.stacked.as_ref().map_or(0.0, |s| s.mass * G * s.drop);
                let v = self.speed_scale();
                let energy = weight * self.fall_height() + 0.5 * total * v * v + drop2;
                normal.energy_depth(weight, energy).max(self.depth)
            }
            Contact::Rigid { .. } => 0.0,
        }
    }

    /// When the scene should be near rest at its end: `Some(speed)` with the speed (m/s) below
    /// which its points must move, `None` when nothing says it stops by then.
    pub fn rest_expectation(&self) -> Option<f64> {
        if matches!(self.pose, Pose::Edge) {
            // Balanced on an edge: an unstable equilibrium, left alone.
            return None;
        }
        if let Some(s) = &self.stacked {
            // Only a stack left at rest, with friction, is expected to stay at rest (without
            // friction the second body slides on the first as soon as that tilts a little, as
            // a prism whose centre of mass is off its face's centre does when it settles).
            if s.speed > 0.0 || s.drop > 0.0 || self.contact.mu_dynamic() == 0.0 {
                return None;
            }
        }
        let mu = self.contact.mu_dynamic();
        // Horizontal motion: friction must stop it, on a shape that cannot roll.
        let (speed, spin) = match self.motion {
            Motion::Rest | Motion::Dropped => (0.0, 0.0),
            Motion::Sliding { speed, .. } => (speed, 0.0),
            Motion::Spinning { spin } => (0.0, spin),
            Motion::SlidingSpinning { speed, spin, .. } => (speed, spin),
            Motion::Rolling { .. } => return None,
        };
        if (speed > 0.0 || spin > 0.0) && (mu == 0.0 || self.shape.rolls()) {
            return None;
        }
        // Sliding stops after v/(μ g), spinning after I ω/(μ m g r_f); together each decays more
        // slowly (the puck: 1.65 times): twice the sum bounds it.
        let horizontal = if speed > 0.0 || spin > 0.0 {
            2.0 * (speed / (mu * G) + self.shape.spin_stop_time(spin, mu))
        } else {
            0.0
        };
        // Vertical motion: the bounces of a drop end after t₁(1 + e)/(1 − e) (t₁ the fall), then
        // the oscillation decays at the rate of its damping.
        let fall = self.fall_height();
        let t_fall = (2.0 * fall / G).sqrt();
        let vertical = match &self.contact {
            Contact::Rigid { restitution, .. } => {
                t_fall * (1.0 + restitution) / (1.0 - restitution)
            }
            Contact::Penalty { normal, .. } => {
                let (_, b) = normal.kb();
                // The law linearised at the static depth d₀: the secant stiffness W/d₀ (the
                // linear laws' k; below the tangent of the laws that stiffen with depth, so the
                // rates below are lower bounds) and the damping there (b·s(d₀) for the smooth
                // law, b·d₀ⁿ for Hunt–Crossley).
                let d0 = self.depth.max(1e-15);
                let k_eff = self.mass * G / d0;
                let b_eff = match *normal {
                    Normal::Smooth { width, .. } => {
                        let x = (d0 / width.unwrap_or(SMOOTH_DEFAULT_WIDTH)).min(1.0);
                        b * (3.0 * x * x - 2.0 * x * x * x)
                    }
                    Normal::HuntCrossley { .. } => b * d0.powf(HC_EXPONENT),
                    _ => b,
                };
                let zeta = b_eff / (2.0 * (k_eff * self.mass).sqrt());
                // The restitution of the linear law for that ratio (the limited damper damps
                // less at impact: counted with half the ratio; Hunt–Crossley damps more at
                // impact than at rest, so its ratio at rest is the conservative one).
                let z = match normal {
                    Normal::Limited { .. } => zeta / 2.0,
                    _ => zeta,
                };
                let e = if z < 1.0 {
                    (-z * std::f64::consts::PI / (1.0 - z * z).sqrt()).exp()
                } else {
                    0.0
                };
                if e > 0.9 {
                    return None;
                }
                let bounces = t_fall * (1.0 + e) / (1.0 - e);
                // The decay rate of the slower of the vertical and the rocking mode (the face's
                // corners as springs k·s_i at a radius ρ about an axis in the face:
                // k·ρ²/2 against the inertia I about that axis, a lower bound of the rocking
                // stiffness; see [`Shape::rocking_ratio`]).
                let rate = |m: f64, k: f64, b: f64| {
                    let omega = (k / m).sqrt();
                    let z = b / (2.0 * (k * m).sqrt());
                    omega * (z - (z * z - 1.0).max(0.0).sqrt())
                };
                let f = self.shape.rocking_ratio();
                let slowest =
                    rate(self.mass, k_eff, b_eff).min(rate(self.mass, k_eff * f, b_eff * f));
                // Down to a hundredth of its start.
                bounces + 100f64.ln() / slowest
            }
        };
        let settle = horizontal.max(vertical);
        if 2.0 * settle > self.stop_time {
            return None;
        }
        // A hundredth of the speed scale (what is left after decaying to a hundredth) plus a
        // floor of 1 mm/s: regularised friction and the rest oscillation leave creep well below.
        Some(0.01 * self.speed_scale() + 1e-3)
    }
}

impl Scene {
    /// The regularised friction's stiffness for an explicit method, as a note for the lists of
    /// known failures: near rest the law damps the sliding at the rate 2·μ_s·g/v_c (smooth
    /// stick-slip) or 1.875·μ_s·g/v_s (Stribeck) (1/s), a face's twist about 3 times that, and
    /// dopri5 needs steps below 3/rate: about `rate` steps per simulated second with the face's
    /// factor. `None` without a regularised law.
    pub fn friction_note(&self) -> Option<String> {
        let Contact::Penalty { friction, .. } = &self.contact else {
            return None;
        };
        let (law, v, ms, slope) = match *friction {
            Friction::SmoothStickSlip { ms, vc, .. } => {
                ("smooth stick-slip vc", vc, ms, 2.0 * ms / vc)
            }
            Friction::Stribeck { ms, vs, .. } => ("Stribeck vs", vs, ms, 1.875 * ms / vs),
            Friction::None => return None,
        };
        Some(format!(
            "{law} = {v:.1e}, μs = {ms:.2} ⇒ ≈ {:.1e} steps/s",
            slope * G
        ))
    }
}

/// The damping b (N·s/m) of the law for damping ratio ζ on a mass m: b = 2ζ√(k·m) for the
/// spring-damper laws; for Hunt–Crossley (force k·dⁿ + b·ḋ·dⁿ), the ratio of its linearisation
/// at the static depth d₀: b·d₀ⁿ = 2ζ√(n·k·d₀ⁿ⁻¹·m).
fn damping(law: usize, k: f64, m: f64, zeta: f64, depth: f64) -> f64 {
    if law == 3 {
        let n = HC_EXPONENT;
        2.0 * zeta * (n * k * depth.powf(n - 1.0) * m).sqrt() / depth.powf(n)
    } else {
        2.0 * zeta * (k * m).sqrt()
    }
}

// ---------------------------------------------------------------------------------------------
// Running and checking.

/// One run of one scene.
#[derive(Clone, Debug)]
pub struct Report {
    pub seed: u64,
    /// Trial steps (accepted, rejected and redone), whether or not the run finished.
    pub trial_steps: usize,
    /// Trial steps per simulated second (of the time reached).
    pub pace: f64,
    pub wall: Duration,
    /// Why the scene failed, if it did.
    pub failure: Option<String>,
}

/// The method a model that names none runs with (the model default).
pub fn default_method() -> String {
    let scene = Scene::generate(0);
    let d = blockdyn::load_model_str("corpus.toml", &scene.toml, &[]).expect("scene 0 builds");
    d.run().solver.method.name().to_string()
}

/// Runs `scene` with its step budget, under `method` (None: the model's default), and checks it.
pub fn run(scene: &Scene, method: Option<&str>) -> Report {
    run_with_max_steps(
        scene,
        method,
        MAX_STEPS_PER_BUDGET * budget(scene.stop_time),
        budget(scene.stop_time),
    )
}

/// [`run`] with the solver's limit `max_steps` and the budget `allowed` (trial steps).
pub fn run_with_max_steps(
    scene: &Scene,
    method: Option<&str>,
    max_steps: u64,
    allowed: u64,
) -> Report {
    let mut overrides = vec![format!("solver.max_steps={max_steps}")];
    if let Some(m) = method {
        overrides.push(format!("solver.method=\"{m}\""));
    }
    let label = format!("corpus_{}.toml", scene.seed);
    let start = Instant::now();
    let diagram = match blockdyn::load_model_str(
        &label,
        &scene.toml,
        &blockdyn::Override::parse_all(&overrides).unwrap(),
    ) {
        Ok(d) => d,
        Err(e) => {
            return Report {
                seed: scene.seed,
                trial_steps: 0,
                pace: 0.0,
                wall: start.elapsed(),
                failure: Some(format!("does not build: {e}")),
            }
        }
    };
    match blockdyn::simulate_keeping_rows(&diagram, blockdyn::RunOptions::default()) {
        Ok(r) => {
            let s = &r.stats;
            let trial = s.steps + s.rejected_steps + s.redone_steps;
            let failure = if trial as u64 > allowed {
                Some(format!(
                    "budget overrun: {trial} trial steps ({} accepted, {} rejected), more than the budget of {allowed} ({STEPS_PER_SIMULATED_SECOND} per simulated second)",
                    s.steps, s.rejected_steps
                ))
            } else {
                check(scene, &r).err()
            };
            Report {
                seed: scene.seed,
                trial_steps: trial,
                pace: trial as f64 / scene.stop_time,
                wall: start.elapsed(),
                failure,
            }
        }
        Err(failed) => {
            let t = failed.last_time.unwrap_or(0.0);
            let message = failed.error.to_string();
            let first = message.lines().next().unwrap_or("").to_string();
            // The stall message's second line names the stiffest block.
            let stiffest = message
                .lines()
                .find(|l| l.trim_start().starts_with("stiffest block"))
                .map(|l| format!("; {}", l.trim()))
                .unwrap_or_default();
            Report {
                seed: scene.seed,
                trial_steps: 0,
                pace: 0.0,
                wall: start.elapsed(),
                failure: Some(format!("{first}{stiffest} (last row at t = {t:.4} s)")),
            }
        }
    }
}

/// The final pose and velocities of joint `joint` from the last row.
struct Final {
    p: Vector3<f64>,
    v: Vector3<f64>,
    w: Vector3<f64>,
    q: UnitQuaternion<f64>,
}

fn final_state(rec: &blockdyn::output::Recording, joint: &str) -> Result<Final, String> {
    let last = rec.len().checked_sub(1).ok_or("no rows recorded")?;
    let row = rec.row(last);
    let get = |port: &str, i: usize| -> Result<f64, String> {
        let name = format!("{joint}.{port}[{i}]");
        let j = rec
            .column_index(&name)
            .ok_or_else(|| format!("no column {name}"))?;
        Ok(row[j])
    };
    let v3 = |port: &str| -> Result<Vector3<f64>, String> {
        Ok(Vector3::new(get(port, 0)?, get(port, 1)?, get(port, 2)?))
    };
    let (p, v, w) = (v3("p")?, v3("v")?, v3("w")?);
    let q = [get("Q", 0)?, get("Q", 1)?, get("Q", 2)?, get("Q", 3)?];
    if !(p.iter().chain(v.iter()).chain(w.iter()).chain(q.iter())).all(|x| x.is_finite()) {
        return Err(format!(
            "non-finite final state of {joint}: p {p:?} v {v:?} w {w:?} Q {q:?}"
        ));
    }
    let q = UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q[0], q[1], q[2], q[3]));
    Ok(Final { p, v, w, q })
}

/// The physics checks of a finished run.
///
/// - It reached the stop time, and every state is finite at the end.
/// - The body's lowest point is not below the table by more than 10 times its reference depth:
///   the static depth when it has stopped, or, while it still moves (a bounce or an impact may
///   be under way at the stop time), the depth its energy can reach (the fall plus all its
///   kinetic energy put into the spring). 10 times, because the manifold's edges and corners
///   carry the load on fewer points than a face (an edge is half as stiff, docs/contact.md), and
///   the checks must not fail on a legitimate rocking body; a body sinking through the table
///   goes far deeper. RigidContact's floor is 1e-6 m (its projection keeps 1e-10 m; 1e-6 is the
///   band models/contactsim_blocks.toml is held to). The second body is held to the same bound
///   against the first body's top face plane.
/// - A scene that friction and damping should have stopped ([`Scene::rest_expectation`]: at
///   most half its stop time for the estimated settling) ends with every point slower than the
///   expectation's speed.
pub fn check(scene: &Scene, r: &blockdyn::RunResult) -> Result<(), String> {
    if r.stats.final_time < scene.stop_time * (1.0 - 1e-12) {
        return Err(format!(
            "ended at t = {} s before the stop time",
            r.stats.final_time
        ));
    }
    if let Some(i) = r.final_state.iter().position(|x| !x.is_finite()) {
        return Err(format!("final state [{i}] is not finite"));
    }
    let body = final_state(&r.recording, "free")?;
    let radius = scene.shape.bounding_radius();
    let point_speed = |f: &Final, radius: f64| f.v.norm() + f.w.norm() * radius;
    let rest = scene.rest_expectation();
    let moving_threshold = rest.unwrap_or(1e-3);
    let moving = point_speed(&body, radius) > moving_threshold;
    let floor = match scene.contact {
        Contact::Rigid { .. } => 1e-6,
        Contact::Penalty { .. } => 0.0,
    };
    let allowed = (10.0 * scene.reference_depth(moving)).max(floor);
    let depth = -(body.p.z + scene.shape.lowest(&body.q));
    if depth > allowed {
        return Err(format!(
            "ends {depth:.3e} m below the table, more than {allowed:.3e} m (10 × its reference depth; static depth {:.3e} m{})",
            scene.depth,
            if moving { ", still moving" } else { "" }
        ));
    }
    if let Some(limit) = rest {
        let s = point_speed(&body, radius);
        if s > limit {
            return Err(format!(
                "should be at rest by {} s but its points move at up to {s:.3e} m/s (limit {limit:.3e}; v {:.3e} m/s, ω {:.3e} rad/s)",
                scene.stop_time,
                body.v.norm(),
                body.w.norm()
            ));
        }
    }
    if let Some(s) = &scene.stacked {
        let top = final_state(&r.recording, "free2")?;
        // The first body's top face plane, and the second body's depth below it.
        let normal = body.q * Vector3::z();
        let face = body.p + normal * scene.shape.highest(&UnitQuaternion::identity());
        let corners = box_corners(s.size[0] / 2.0, s.size[1] / 2.0, s.size[2] / 2.0);
        let lowest = corners
            .iter()
            .map(|c| normal.dot(&(top.p + top.q * c - face)))
            .fold(f64::INFINITY, f64::min);
        let r2 = s.size[0].hypot(s.size[1]).hypot(s.size[2]) / 2.0;
        let moving2 = point_speed(&top, r2) > moving_threshold;
        let reference = if moving2 || moving {
            let normal_law = s.normal.as_ref();
            match normal_law {
                Some(n) => {
                    let v = scene.speed_scale() + s.speed + (2.0 * G * s.drop).sqrt();
                    let e = s.mass * G * s.drop + 0.5 * s.mass * v * v;
                    n.energy_depth(s.mass * G, e).max(s.depth)
                }
                None => 0.0,
            }
        } else {
            s.depth
        };
        let allowed = (10.0 * reference).max(floor);
        if -lowest > allowed {
            return Err(format!(
                "the second body ends {:.3e} m into the first, more than {allowed:.3e} m",
                -lowest
            ));
        }
        if let Some(limit) = rest {
            let sp = point_speed(&top, r2);
            if sp > limit {
                return Err(format!(
                    "the second body should be at rest by {} s but its points move at up to {sp:.3e} m/s (limit {limit:.3e})",
                    scene.stop_time
                ));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Summaries.

/// The median of `xs` (0 for none).
pub fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// A summary table of one method's runs: counts and failures per shape, per normal law, per
/// friction law; the median and worst pace (trial steps per simulated second) of the runs that
/// finished; the worst scene.
pub fn summary(method: &str, scenes: &[Scene], reports: &[Report]) -> String {
    let mut out = String::new();
    let total_wall: Duration = reports.iter().map(|r| r.wall).sum();
    let failures = reports.iter().filter(|r| r.failure.is_some()).count();
    let _ = writeln!(
        out,
        "contact corpus under {method}: {} scenes, {failures} failing, {:.1} s of runs (budget {} trial steps per simulated second)",
        scenes.len(),
        total_wall.as_secs_f64(),
        STEPS_PER_SIMULATED_SECOND
    );
    let _ = writeln!(
        out,
        "  checked to end near rest: {} scenes; the rest: finite and above the table",
        scenes
            .iter()
            .filter(|s| s.rest_expectation().is_some())
            .count()
    );
    let mut table = |title: &str, key: &dyn Fn(&Scene) -> String| {
        let mut keys: Vec<String> = scenes.iter().map(key).collect();
        keys.sort();
        keys.dedup();
        let _ = writeln!(
            out,
            "  {title:<30} {:>6} {:>6} {:>12} {:>12}",
            "scenes", "failed", "median/s", "worst/s"
        );
        for k in keys {
            let runs: Vec<&Report> = scenes
                .iter()
                .zip(reports)
                .filter(|(s, _)| key(s) == k)
                .map(|(_, r)| r)
                .collect();
            let paces: Vec<f64> = runs
                .iter()
                .filter(|r| r.failure.is_none())
                .map(|r| r.pace)
                .collect();
            let worst = paces.iter().cloned().fold(0.0, f64::max);
            let _ = writeln!(
                out,
                "  {k:<30} {:>6} {:>6} {:>12.0} {:>12.0}",
                runs.len(),
                runs.iter().filter(|r| r.failure.is_some()).count(),
                median(&paces),
                worst
            );
        }
    };
    table("shape", &|s| {
        if s.stacked.is_some() {
            format!("{} + brick", s.shape.name())
        } else {
            s.shape.name().to_string()
        }
    });
    table("normal law", &|s| s.contact.normal_name().to_string());
    table("friction law", &|s| s.contact.friction_name().to_string());
    table("tolerance", &|s| s.tolerance.describe().to_string());
    let paces: Vec<f64> = reports
        .iter()
        .filter(|r| r.failure.is_none())
        .map(|r| r.pace)
        .collect();
    let _ = writeln!(
        out,
        "  pace of the finished runs: median {:.0}, worst {:.0} trial steps per simulated second",
        median(&paces),
        paces.iter().cloned().fold(0.0, f64::max)
    );
    if let Some((s, r)) = scenes
        .iter()
        .zip(reports)
        .filter(|(_, r)| r.failure.is_none())
        .max_by(|a, b| a.1.pace.total_cmp(&b.1.pace))
    {
        let _ = writeln!(
            out,
            "  worst finished scene ({:.0} steps/s, {:.2} s wall): {}",
            r.pace,
            r.wall.as_secs_f64(),
            s.description
        );
    }
    if let Some((s, r)) = scenes
        .iter()
        .zip(reports)
        .max_by(|a, b| a.1.wall.cmp(&b.1.wall))
    {
        let _ = writeln!(
            out,
            "  slowest scene in wall time ({:.2} s): {}",
            r.wall.as_secs_f64(),
            s.description
        );
    }
    out
}
