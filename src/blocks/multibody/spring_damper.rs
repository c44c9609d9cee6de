//! SpringDamper: a linear spring and a linear damper in parallel between the origins of two
//! frames, B and F, acting along the line through them.
//!
//! With p_B, p_F the frames' origins in World (m) and v_B, v_F their velocities (m/s, the
//! velocities of those material points of the frames' bodies):
//!
//! - d = p_F − p_B, the length L = |d| (m) and the unit vector u = d / L from B to F;
//! - the rate of the length L̇ = u · (v_F − v_B) (m/s);
//! - the tension T = k·(L − L₀) + c·L̇ (N, positive when the element pulls its ends together);
//! - the force −T·u on F's body at p_F and +T·u on B's body at p_B (equal and opposite along one
//!   line, so they carry no net force and no net moment: linear and angular momentum are kept).
//!
//! The element stores the potential energy ½·k·(L − L₀)² and dissipates c·L̇² (W).
//!
//! When L < [`MIN_LENGTH`] the direction u is undefined: u is taken as zero, so the element applies
//! no force and L̇ = 0 (the `force` output is then k·(L − L₀)), and every value stays finite.
//! Either frame may be fixed to the World (an anchor); a wrench on the World is ignored by the
//! mechanism.

use super::frame_signal::{write_wrench, FrameMotion};
use crate::block::{
    Binding, Block, BlockError, BlockType, Ctx, Param, PhysicalRole, PortDecl, PortDoc, Required,
    Setup, Shape,
};
use crate::params::{ParamError, Params};
use nalgebra::{Isometry3, Vector3};

/// Below this length (m) the line of action is undefined and the element applies no force.
pub const MIN_LENGTH: f64 = 1e-12;

/// The parameters, each written once (see [`Param`] and [`Required`]).
const STIFFNESS: Required<f64> = crate::param!(
    "stiffness",
    "N/m",
    required("N/m, e.g. stiffness = 100.0"),
    "k ≥ 0; a mass m hanging from it stretches it by m·g/k and oscillates at ω = √(k/m)";
    non_negative_else("write zero (a pure damper) or a positive value in N/m"),
);
const DAMPING: Param<f64> = crate::param!(
    "damping",
    "N·s/m",
    0.0,
    "c ≥ 0, on the rate of the length; c = 2·√(k·m) is critical for a mass m"; non_negative,
);
const FREE_LENGTH: Param<f64> = crate::param!(
    "free_length",
    "m",
    0.0,
    "L₀ ≥ 0, the length at which the spring force is zero"; non_negative,
);

const ROLE: PhysicalRole = PhysicalRole::Consumer;

/// Output indices (the hidden wrench outputs follow them).
const LENGTH: usize = 0;
const FORCE: usize = 1;
const WRENCH_B: usize = 2;
const WRENCH_F: usize = 3;

/// The element's law: stiffness k (N/m), damping c (N·s/m), free length L₀ (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringDamperLaw {
    pub stiffness: f64,
    pub damping: f64,
    pub free_length: f64,
}

/// The element's state between two frames, and its tension.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringDamperState {
    /// L, m.
    pub length: f64,
    /// L̇, m/s (0 when L < [`MIN_LENGTH`]).
    pub rate: f64,
    /// T = k·(L − L₀) + c·L̇, N, positive in tension.
    pub tension: f64,
    /// u, the unit vector from B's origin to F's in World (zero when L < [`MIN_LENGTH`]).
    pub direction: Vector3<f64>,
}

impl SpringDamperState {
    /// The force on F's body (World, N), applied at F's origin; B's body gets its opposite.
    pub fn force_on_follower(&self) -> Vector3<f64> {
        self.direction * -self.tension
    }
}

impl SpringDamperLaw {
    /// The element's state between frames `b` and `f`.
    pub fn evaluate(&self, b: &FrameMotion, f: &FrameMotion) -> SpringDamperState {
        let d = f.position - b.position;
        let length = d.norm();
        let (direction, rate) = if length < MIN_LENGTH {
            (Vector3::zeros(), 0.0)
        } else {
            let u = d / length;
            (u, u.dot(&(f.velocity - b.velocity)))
        };
        SpringDamperState {
            length,
            rate,
            tension: self.stiffness * (length - self.free_length) + self.damping * rate,
            direction,
        }
    }

    /// The potential energy ½·k·(L − L₀)² stored at length `length` (m), J.
    pub fn potential_energy(&self, length: f64) -> f64 {
        0.5 * self.stiffness * (length - self.free_length).powi(2)
    }
}

/// The SpringDamper block.
pub struct SpringDamper {
    law: SpringDamperLaw,
    physical: Vec<PortDecl>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    /// The placements of B and F in their bodies.
    placements: [Isometry3<f64>; 2],
}

impl SpringDamper {
    /// The block's law.
    pub fn law(&self) -> &SpringDamperLaw {
        &self.law
    }
}

impl Block for SpringDamper {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn physical_ports(&self) -> &[PortDecl] {
        &self.physical
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        Ok(Setup::memoryless(self.inputs.len(), self.outputs.len()))
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        if self.outputs.len() <= WRENCH_F {
            return;
        }
        let b = FrameMotion::of(ctx.input(0), &self.placements[0]);
        let f = FrameMotion::of(ctx.input(1), &self.placements[1]);
        let s = self.law.evaluate(&b, &f);
        let on_f = s.force_on_follower();
        ctx.io.set_output_scalar(LENGTH, s.length);
        ctx.io.set_output_scalar(FORCE, s.tension);
        let zero = Vector3::zeros();
        write_wrench(ctx.output(WRENCH_B), &b.position, &-on_f, &zero);
        write_wrench(ctx.output(WRENCH_F), &f.position, &on_f, &zero);
    }
    fn physical(&self) -> Option<&dyn crate::block::PhysicalBlock> {
        Some(self)
    }
    fn physical_mut(&mut self) -> Option<&mut dyn crate::block::PhysicalBlock> {
        Some(self)
    }
}

impl crate::block::PhysicalBlock for SpringDamper {
    fn role(&self) -> &crate::block::PhysicalRole {
        &ROLE
    }

    fn bind(&mut self, binding: &Binding) -> Result<(), BlockError> {
        self.placements = binding.frame_pair()?;
        self.inputs.push(PortDecl::body_kinematics("B"));
        self.inputs.push(PortDecl::body_kinematics("F"));
        self.outputs.push(PortDecl::body_wrench("B"));
        self.outputs.push(PortDecl::body_wrench("F"));
        Ok(())
    }
}

fn build(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let stiffness = STIFFNESS.read(p)?;
    let damping = DAMPING.read(p)?;
    let free_length = FREE_LENGTH.read(p)?;
    Ok(Box::new(SpringDamper {
        law: SpringDamperLaw {
            stiffness,
            damping,
            free_length,
        },
        physical: vec![PortDecl::frame("B"), PortDecl::frame("F")],
        inputs: vec![],
        outputs: vec![
            PortDecl::signal("length", Shape::SCALAR).unit("m"),
            PortDecl::signal("force", Shape::SCALAR).unit("N"),
        ],
        placements: [Isometry3::identity(); 2],
    }))
}

pub static SPRING_DAMPER: BlockType = BlockType {
    name: "SpringDamper",
    category: "Sensors and forces",
    summary: "A linear spring and damper in parallel between the origins of frames B and F, along the line through them: tension T = stiffness·(L − free_length) + damping·dL/dt (N, positive when it pulls the ends together), −T·u on F at its origin and +T·u on B at its origin, u the unit vector from B's origin to F's. Below a length of 1e-12 m the direction is undefined and no force is applied (dL/dt is taken as 0). Either frame may be the World's (an anchor).",
    params: &[
        STIFFNESS.doc,
        DAMPING.doc,
        FREE_LENGTH.doc,
    ],
    ports: &[
        PortDoc { name: "B", kind: "frame", shape: "", unit: "", doc: "base frame: one end at its origin" },
        PortDoc { name: "F", kind: "frame", shape: "", unit: "", doc: "follower frame: the other end at its origin" },
        PortDoc { name: "length", kind: "output", shape: "1×1", unit: "m", doc: "L, the distance between the origins" },
        PortDoc { name: "force", kind: "output", shape: "1×1", unit: "N", doc: "T = stiffness·(L − free_length) + damping·dL/dt, positive in tension" },
    ],
    build,
};

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Matrix3;

    fn at(position: Vector3<f64>, velocity: Vector3<f64>) -> FrameMotion {
        FrameMotion {
            rotation: Matrix3::identity(),
            position,
            angular_velocity: Vector3::zeros(),
            velocity,
        }
    }

    const LAW: SpringDamperLaw = SpringDamperLaw {
        stiffness: 100.0,
        damping: 3.0,
        free_length: 0.5,
    };

    #[test]
    fn tension_is_k_stretch_plus_c_rate_along_the_line() {
        // F 2 m from B along (3, 4, 0)/5, moving away at 1 m/s along the line plus 7 m/s across it.
        let u = Vector3::new(0.6, 0.8, 0.0);
        let across = Vector3::new(-0.8, 0.6, 0.0);
        let b = at(Vector3::new(1.0, 1.0, 1.0), Vector3::zeros());
        let f = at(b.position + 2.0 * u, u + 7.0 * across);
        let s = LAW.evaluate(&b, &f);
        assert!((s.length - 2.0).abs() < 1e-15);
        assert!((s.rate - 1.0).abs() < 1e-15, "{}", s.rate);
        // T = 100·(2 − 0.5) + 3·1 = 153 N, pulling F back towards B.
        assert!((s.tension - 153.0).abs() < 1e-12);
        assert!((s.force_on_follower() + u * 153.0).norm() < 1e-12);
    }

    #[test]
    fn a_compressed_spring_pushes_the_ends_apart() {
        let b = at(Vector3::zeros(), Vector3::zeros());
        let f = at(Vector3::new(0.0, 0.0, 0.2), Vector3::zeros());
        let s = LAW.evaluate(&b, &f);
        assert!((s.tension + 30.0).abs() < 1e-12, "{}", s.tension);
        assert!(s.force_on_follower().z > 0.0);
    }

    #[test]
    fn coincident_origins_give_no_force_and_no_nan() {
        let b = at(Vector3::new(1.0, 2.0, 3.0), Vector3::zeros());
        let f = at(b.position, Vector3::new(0.0, 5.0, 0.0));
        let s = LAW.evaluate(&b, &f);
        assert_eq!(s.length, 0.0);
        assert_eq!(s.rate, 0.0);
        assert_eq!(s.direction, Vector3::zeros());
        assert_eq!(s.force_on_follower(), Vector3::zeros());
        assert!((s.tension + 50.0).abs() < 1e-12);
    }

    #[test]
    fn the_two_wrenches_cancel() {
        let b = at(Vector3::new(0.3, -0.2, 0.1), Vector3::new(0.5, 0.0, 0.0));
        let f = at(Vector3::new(-1.0, 0.4, 2.0), Vector3::new(0.0, 0.0, -1.0));
        let s = LAW.evaluate(&b, &f);
        let on_f = s.force_on_follower();
        let (mut wb, mut wf) = ([0.0; 6], [0.0; 6]);
        write_wrench(&mut wb, &b.position, &-on_f, &Vector3::zeros());
        write_wrench(&mut wf, &f.position, &on_f, &Vector3::zeros());
        for k in 0..6 {
            // Both forces lie on the line through the two origins: the moments cancel too.
            assert!((wb[k] + wf[k]).abs() < 1e-12, "{wb:?} {wf:?}");
        }
    }
}
