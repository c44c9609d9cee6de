//! Consumers of kinematics: TransformSensor (F relative to B) and ExternalForceTorque (custom force
//! and torque inputs applied at a frame) — how users read motion and wire their own forces in.

use super::frame_signal::{write_wrench, FrameMotion};
use crate::block::{
    Binding, Block, BlockError, BlockType, Ctx, Param, PhysicalRole, PortDecl, PortDoc, Setup,
    Shape,
};
use crate::params::{ParamError, Params};
use nalgebra::{Isometry3, Rotation3, UnitQuaternion, Vector3};

/// TransformSensor: pose and velocity of frame F relative to frame B.
pub struct TransformSensor {
    in_world: bool,
    physical: Vec<PortDecl>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    placements: [Isometry3<f64>; 2],
}

const ROLE_CONSUMER: PhysicalRole = PhysicalRole::Consumer;

impl Block for TransformSensor {
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
        if self.inputs.len() < 2 {
            return;
        }
        let b = FrameMotion::of(ctx.input(0), &self.placements[0]);
        let f = FrameMotion::of(ctx.input(1), &self.placements[1]);
        // Relative quantities in World; then resolved in B unless asked for World.
        let r_bf = b.rotation.transpose() * f.rotation;
        let dp = f.position - b.position;
        // Velocity of F's origin relative to B, as seen from B (time derivative in B): ṗ = v_F − v_B − ω_B × (p_F − p_B).
        let dv = f.velocity - b.velocity - b.angular_velocity.cross(&dp);
        let dw = f.angular_velocity - b.angular_velocity;
        let resolve = |v: Vector3<f64>| {
            if self.in_world {
                v
            } else {
                b.rotation.transpose() * v
            }
        };
        let p = resolve(dp);
        let v = resolve(dv);
        let w = resolve(dw);
        let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(r_bf));
        let qv = [q.w, q.i, q.j, q.k];
        let sign = if qv[0] < 0.0 { -1.0 } else { 1.0 };
        ctx.output(0).copy_from_slice(p.as_slice());
        for (k, x) in qv.iter().enumerate() {
            ctx.output(1)[k] = sign * x;
        }
        ctx.output(2).copy_from_slice(r_bf.as_slice());
        ctx.output(3).copy_from_slice(v.as_slice());
        ctx.output(4).copy_from_slice(w.as_slice());
    }
    fn physical(&self) -> Option<&dyn crate::block::PhysicalBlock> {
        Some(self)
    }
    fn physical_mut(&mut self) -> Option<&mut dyn crate::block::PhysicalBlock> {
        Some(self)
    }
}

impl crate::block::PhysicalBlock for TransformSensor {
    fn role(&self) -> &crate::block::PhysicalRole {
        &ROLE_CONSUMER
    }

    fn bind(&mut self, binding: &Binding) -> Result<(), BlockError> {
        self.placements = binding.frame_pair()?;
        self.inputs.push(PortDecl::body_kinematics("B"));
        self.inputs.push(PortDecl::body_kinematics("F"));
        Ok(())
    }
}

const SENSOR_RESOLVED_IN: Param<&str> = crate::param!(
    "resolved_in",
    "",
    "B",
    "\"B\" or \"world\": the frame the vectors are resolved in"; one_of["B", "world"],
);

fn build_sensor(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let in_world = SENSOR_RESOLVED_IN.read(p)? == "world";
    Ok(Box::new(TransformSensor {
        in_world,
        physical: vec![PortDecl::frame("B"), PortDecl::frame("F")],
        inputs: vec![],
        outputs: vec![
            PortDecl::signal("p", Shape::vector(3)).unit("m"),
            PortDecl::signal("Q", Shape::vector(4)),
            PortDecl::signal("R", Shape::new(3, 3)),
            PortDecl::signal("v", Shape::vector(3)).unit("m/s"),
            PortDecl::signal("w", Shape::vector(3)).unit("rad/s"),
        ],
        placements: [Isometry3::identity(); 2],
    }))
}

/// ExternalForceTorque: force and torque inputs applied at the origin of frame R.
pub struct ExternalForceTorque {
    in_world: bool,
    physical: Vec<PortDecl>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    placement: Isometry3<f64>,
}

impl Block for ExternalForceTorque {
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
        if self.outputs.is_empty() {
            return;
        }
        let r = FrameMotion::of(ctx.input(2), &self.placement);
        let f_in = ctx.input(0);
        let t_in = ctx.input(1);
        let mut f = Vector3::new(f_in[0], f_in[1], f_in[2]);
        let mut t = Vector3::new(t_in[0], t_in[1], t_in[2]);
        if !self.in_world {
            f = r.rotation * f;
            t = r.rotation * t;
        }
        write_wrench(ctx.output(0), &r.position, &f, &t);
    }
    fn physical(&self) -> Option<&dyn crate::block::PhysicalBlock> {
        Some(self)
    }
    fn physical_mut(&mut self) -> Option<&mut dyn crate::block::PhysicalBlock> {
        Some(self)
    }
}

impl crate::block::PhysicalBlock for ExternalForceTorque {
    fn role(&self) -> &crate::block::PhysicalRole {
        &ROLE_CONSUMER
    }

    fn bind(&mut self, binding: &Binding) -> Result<(), BlockError> {
        let pb = binding
            .port("R")
            .ok_or_else(|| BlockError::PortNotBound { port: "R".into() })?;
        self.placement = pb.placement;
        self.inputs.push(PortDecl::body_kinematics("R"));
        self.outputs.push(PortDecl::body_wrench("R"));
        Ok(())
    }
}

const FORCE_RESOLVED_IN: Param<&str> =
    crate::param!("resolved_in", "", "world", "\"world\" or \"R\""; one_of["world", "R"]);

fn build_external(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let in_world = FORCE_RESOLVED_IN.read(p)? == "world";
    Ok(Box::new(ExternalForceTorque {
        in_world,
        physical: vec![PortDecl::frame("R")],
        inputs: vec![
            PortDecl::signal("force", Shape::vector(3))
                .unit("N")
                .optional(),
            PortDecl::signal("torque", Shape::vector(3))
                .unit("N·m")
                .optional(),
        ],
        outputs: vec![],
        placement: Isometry3::identity(),
    }))
}

pub static TRANSFORM_SENSOR: BlockType = BlockType {
    name: "TransformSensor",
    category: "Sensors and forces",
    summary: "Pose and velocity of frame F relative to frame B: position, quaternion, rotation matrix, velocity (time derivative of the position as seen in B) and angular velocity, resolved in B (or in World).",
    params: &[SENSOR_RESOLVED_IN.doc],
    ports: &[
        PortDoc { name: "B", kind: "frame", shape: "", unit: "", doc: "base (measured-from) frame" },
        PortDoc { name: "F", kind: "frame", shape: "", unit: "", doc: "follower (measured) frame" },
        PortDoc { name: "p", kind: "output", shape: "3×1", unit: "m", doc: "position of F's origin relative to B's" },
        PortDoc { name: "Q", kind: "output", shape: "4×1", unit: "", doc: "quaternion [w, x, y, z] of F in B (w ≥ 0)" },
        PortDoc { name: "R", kind: "output", shape: "3×3", unit: "", doc: "rotation matrix R_BF" },
        PortDoc { name: "v", kind: "output", shape: "3×1", unit: "m/s", doc: "velocity of F's origin relative to B" },
        PortDoc { name: "w", kind: "output", shape: "3×1", unit: "rad/s", doc: "angular velocity of F relative to B" },
    ],
    build: build_sensor,
};

pub static EXTERNAL_FORCE_TORQUE: BlockType = BlockType {
    name: "ExternalForceTorque",
    category: "Sensors and forces",
    summary: "Applies the force and torque inputs to the body of frame R, at R's origin; resolved in World (default) or in R. Unconnected inputs are zero.",
    params: &[FORCE_RESOLVED_IN.doc],
    ports: &[
        PortDoc { name: "R", kind: "frame", shape: "", unit: "", doc: "frame the force acts at" },
        PortDoc { name: "force", kind: "input", shape: "3×1", unit: "N", doc: "force (optional)" },
        PortDoc { name: "torque", kind: "input", shape: "3×1", unit: "N·m", doc: "torque (optional)" },
    ],
    build: build_external,
};
