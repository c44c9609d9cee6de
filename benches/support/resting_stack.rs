//! Model text of a stack of boxes resting on a floor, with rigid (RigidContact) or penalty
//! (SpatialContactForce) contact, shared by `benches/rigid_contact.rs` and
//! `tests/rigid_contact_cost.rs` so that the test checks the configuration the bench measures.
//!
//! The stack: `n` bricks of 1 kg, 0.2 × 0.2 × 0.1 m, each on its own SixDofJoint, stacked level and
//! aligned on an InfinitePlane (World z up, default gravity); contact pairs floor–box 1, box 1–box 2,
//! …, every pair frictionless (the two methods' friction laws differ, and the smooth stick-slip
//! law's stiffness would dominate the penalty figures; see BENCHMARKS.md, "Face contact").
//! Every box starts at rest at its static equilibrium:
//!
//! - rigid: at zero separation, centres at 0.05 + 0.1·(j − 1) m (resting contact from t = 0);
//! - penalty: the linear law k = 1e5 N/m, damping 2·√(k·m) = 632.5 N·s/m (critical for one 1 kg
//!   box on one pair), each pair j sunk by the weight it carries, (n − j + 1)·m·g/k, so the centre
//!   of box j is 0.05 + 0.1·(j − 1) − Σ_{i ≤ j} (n − i + 1)·m·g/k.
//!
//! Solver: dopri5, rel_tol 1e-6, abs_tol 1e-9. The top box's position is logged (`j{n}.p`).

/// Standard gravity (m/s²), the mechanism's default.
pub const G: f64 = 9.80665;
/// Penalty stiffness (N/m) and damping (N·s/m) of every pair.
pub const PENALTY_STIFFNESS: f64 = 1e5;
pub const PENALTY_DAMPING: f64 = 632.5;

/// How the pairs are modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contact {
    /// RigidContact, restitution 0, frictionless.
    Rigid,
    /// SpatialContactForce, linear spring-damper, frictionless.
    Penalty,
}

impl Contact {
    /// A short name for printing.
    pub fn name(self) -> &'static str {
        match self {
            Contact::Rigid => "rigid",
            Contact::Penalty => "penalty",
        }
    }

    fn block(self) -> String {
        match self {
            Contact::Rigid => {
                "type = \"RigidContact\"\nrestitution = 0.0\nfriction = { method = \"none\" }\n"
                    .to_string()
            }
            Contact::Penalty => format!(
                "type = \"SpatialContactForce\"\nnormal = {{ method = \"linear_spring_damper\", stiffness = {PENALTY_STIFFNESS:?}, damping = {PENALTY_DAMPING:?} }}\nfriction = {{ method = \"none\" }}\n"
            ),
        }
    }

    /// The resting height (m) of the centre of box `j` (1-based) of a stack of `n`.
    pub fn rest_height(self, n: usize, j: usize) -> f64 {
        let level = 0.05 + 0.1 * (j - 1) as f64;
        match self {
            Contact::Rigid => level,
            Contact::Penalty => {
                let sunk: f64 = (1..=j)
                    .map(|i| (n - i + 1) as f64 * G / PENALTY_STIFFNESS)
                    .sum();
                level - sunk
            }
        }
    }
}

/// The model text of `n` boxes resting for `stop_time` seconds.
pub fn resting_stack(n: usize, contact: Contact, stop_time: f64) -> String {
    let mut connect = vec!["\"world.W -- floor.R\"".to_string()];
    let mut blocks = String::new();
    for j in 1..=n {
        connect.push(format!("\"world.W -- j{j}.B\""));
        connect.push(format!("\"j{j}.F -- b{j}.R\""));
        let below = if j == 1 {
            "floor".to_string()
        } else {
            format!("b{}", j - 1)
        };
        connect.push(format!("\"{below}.G -- c{j}.B\""));
        connect.push(format!("\"b{j}.G -- c{j}.F\""));
        blocks.push_str(&format!(
            "[blocks.b{j}]\ntype = \"Solid\"\ngeometry = {{ shape = \"brick\", size = [0.2, 0.2, 0.1] }}\nmass = 1.0\n\
             [blocks.j{j}]\ntype = \"SixDofJoint\"\nposition = [0.0, 0.0, {:?}]\n\
             [blocks.c{j}]\n{}",
            contact.rest_height(n, j),
            contact.block()
        ));
    }
    format!(
        "connect = [{}]\n[model]\nname = \"stack_{n}_{}\"\nstop_time = {stop_time:?}\n\
         [solver]\nrel_tol = 1e-6\nabs_tol = 1e-9\n[output]\nlog = [\"j{n}.p\"]\n\
         [blocks.world]\ntype = \"WorldFrame\"\n[blocks.floor]\ntype = \"InfinitePlane\"\n{blocks}",
        connect.join(", "),
        contact.name(),
    )
}
