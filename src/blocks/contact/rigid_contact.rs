//! The RigidContact block (seed 002, myPhysicsLab's ContactSim): rigid resting contact by
//! complementarity and collisions as impulses between a base geometry B and a follower geometry
//! F. The block only declares its pair; the mechanism solves it (see
//! [`crate::multibody::rigid`]) and sends the solved contact back through a hidden input, from
//! which the block writes its outputs.
//!
//! Output conventions (World frame, SI units): `contact` is 1 while any point of the pair rests
//! (sliding or sticking); `separation` the pair's signed distance (m); `normal_force` the total
//! normal force (N); `friction_force` the magnitude of the total friction force (N); `impulse` the
//! total normal impulse of the pair's last impact (N·s, held); `resultant_*` the forces on the
//! follower reduced to Drake's minimum-moment resultant, as SpatialContactForce (each point with
//! the contact normal, so the point is the centre of pressure whatever the friction). With a point
//! cloud on either side, `contact`, `separation`, `normal_force` and `friction_force` are 1×N,
//! per point in the cloud's order (every point a contact candidate, up to
//! [`MAX_CLOUD_POINTS`](crate::multibody::rigid::MAX_CLOUD_POINTS)).

use crate::block::{
    Binding, Block, BlockError, BlockType, Ctx, DrawnAs, HiddenPort, PhysicalRole, PortDecl,
    PortDoc, Setup, Shape,
};
use crate::contact::resultant::ResultantCalculator;
use crate::geometry::pair_supported;
use crate::multibody::rigid::{output, ConstraintKind, PairSide, RigidConstraint};
use crate::params::{ParamError, Params};
use nalgebra::Vector3;
use std::any::Any;

pub use super::rigid_params::RigidFrictionMethod;
use super::rigid_params::{check_rigid_geometry, RigidParams};

const ROLE: PhysicalRole = PhysicalRole::Consumer;

/// Output indices.
const CONTACT: usize = 0;
const SEPARATION: usize = 1;
const NORMAL_FORCE: usize = 2;
const FRICTION_FORCE: usize = 3;
const IMPULSE: usize = 4;
const RESULTANT_FORCE: usize = 5;
const RESULTANT_TORQUE: usize = 6;
const RESULTANT_POINT: usize = 7;
const FRICTION_POWER: usize = 8;

/// The RigidContact block.
pub struct RigidContact {
    params: RigidParams,
    physical: Vec<PortDecl>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    pair: Option<RigidConstraint>,
    /// The number of points of a point cloud on either side.
    cloud_points: Option<usize>,
}

impl Block for RigidContact {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn physical_ports(&self) -> &[PortDecl] {
        &self.physical
    }
    fn propagate_shapes(
        &self,
        _inputs: &mut [Option<Shape>],
        outputs: &mut [Option<Shape>],
    ) -> Result<(), BlockError> {
        let per_point = self
            .cloud_points
            .map_or(Shape::SCALAR, |n| Shape::new(1, n));
        for (o, out) in outputs.iter_mut().enumerate() {
            *out = Some(match o {
                IMPULSE | FRICTION_POWER => Shape::SCALAR,
                o if o < RESULTANT_FORCE => per_point,
                _ => Shape::vector(3),
            });
        }
        Ok(())
    }

    fn setup(&mut self, _inputs: &[Shape], _outputs: &[Shape]) -> Result<Setup, BlockError> {
        if self.pair.is_none() {
            return Err(BlockError::MissingGeometry {
                needs: "two geometries",
            });
        }
        Ok(Setup {
            feedthrough: (0..self.outputs.len()).map(|o| (0, o)).collect(),
            ..Setup::default()
        })
    }

    fn create_scratch(&self) -> Box<dyn Any + Send> {
        let points = self.pair.as_ref().map_or(0, RigidConstraint::max_rows);
        Box::new(ResultantCalculator::with_capacity(points))
    }

    fn outputs_eval(&self, ctx: &mut Ctx) {
        let Some(resultant) = ctx.scratch.downcast_mut::<ResultantCalculator>() else {
            return;
        };
        let (signals, inputs, outputs) = ctx.io.raw();
        let solution = &signals[inputs[0].range()];
        let slots = (solution.len() - output::POINTS) / output::SLOT_LEN;
        let slot =
            |k: usize| &solution[output::POINTS + output::SLOT_LEN * k..][..output::SLOT_LEN];
        resultant.clear();
        for k in 0..slots {
            let at = slot(k);
            let point = Vector3::from_column_slice(&at[output::SLOT_POINT..output::SLOT_POINT + 3]);
            let force = Vector3::from_column_slice(&at[output::SLOT_FORCE..output::SLOT_FORCE + 3]);
            // The contact normal, not the force's direction: with friction the force leans off
            // the normal, and the central axis is that of the normal components (issue 27).
            let normal =
                Vector3::from_column_slice(&at[output::SLOT_NORMAL..output::SLOT_NORMAL + 3]);
            if force != Vector3::zeros() {
                resultant.add_force(point, normal, force);
            }
        }
        // Pair totals, or per cloud point.
        let per_point = [
            (CONTACT, output::CONTACT, output::SLOT_CONTACT),
            (SEPARATION, output::SEPARATION, output::SLOT_SEPARATION),
            (
                NORMAL_FORCE,
                output::NORMAL_FORCE,
                output::SLOT_NORMAL_FORCE,
            ),
            (
                FRICTION_FORCE,
                output::FRICTION_FORCE,
                output::SLOT_FRICTION_FORCE,
            ),
        ];
        // Copied by index: the solution and the outputs share the signal buffer.
        let from = inputs[0].offset as usize;
        for (port, total, in_slot) in per_point {
            let range = outputs[port].range();
            if self.cloud_points.is_some() {
                for (k, i) in range.enumerate() {
                    signals[i] = signals[from + output::POINTS + output::SLOT_LEN * k + in_slot];
                }
            } else {
                signals[range.start] = signals[from + total];
            }
        }
        signals[outputs[IMPULSE].offset as usize] = signals[from + output::IMPULSE];
        signals[outputs[FRICTION_POWER].offset as usize] = signals[from + output::FRICTION_POWER];
        let r = (!resultant.is_empty()).then(|| resultant.compute());
        let (f, t, p) = r.map_or(
            (Vector3::zeros(), Vector3::zeros(), Vector3::zeros()),
            |r| (r.force, r.torque, r.point),
        );
        for (o, v) in [
            (RESULTANT_FORCE, f),
            (RESULTANT_TORQUE, t),
            (RESULTANT_POINT, p),
        ] {
            signals[outputs[o].range()].copy_from_slice(v.as_slice());
        }
    }
    fn physical(&self) -> Option<&dyn crate::block::PhysicalBlock> {
        Some(self)
    }
    fn physical_mut(&mut self) -> Option<&mut dyn crate::block::PhysicalBlock> {
        Some(self)
    }
}

impl crate::block::PhysicalBlock for RigidContact {
    fn role(&self) -> &crate::block::PhysicalRole {
        &ROLE
    }

    fn bind(&mut self, binding: &Binding) -> Result<(), BlockError> {
        let side = |port: &str| -> Result<(PairSide, String), BlockError> {
            let (bound, shape, label) = binding.geometry(port)?;
            let side = PairSide {
                body: bound.body,
                placement: bound.placement,
                shape,
                frame: bound.frame,
            };
            Ok((side, label))
        };
        let (base, base_label) = side("B")?;
        let (follower, follower_label) = side("F")?;
        let (kb, kf) = (base.shape.kind(), follower.shape.kind());
        check_rigid_geometry(&base.shape, &base_label)?;
        check_rigid_geometry(&follower.shape, &follower_label)?;
        if !pair_supported(kb, kf) {
            return Err(BlockError::UnsupportedPair {
                base: base_label,
                base_kind: kb,
                follower: follower_label,
                follower_kind: kf,
            });
        }
        if base.body == follower.body {
            return Err(BlockError::SameBody {
                base: base_label,
                follower: follower_label,
            });
        }
        let constraint = self.params.constraint(base, follower, String::new());
        self.cloud_points = match &constraint.kind {
            ConstraintKind::Contact(pair) => pair.cloud_points(),
            _ => None,
        };
        self.inputs.push(
            PortDecl::signal("solution", Shape::vector(constraint.output_len()))
                .hidden(HiddenPort::RigidConstraint),
        );
        self.pair = Some(constraint);
        Ok(())
    }

    fn rigid_constraint(&self) -> Option<RigidConstraint> {
        self.pair.clone()
    }
}

fn build(p: &Params) -> Result<Box<dyn Block>, ParamError> {
    let params = RigidParams::read(p)?;
    let out = |name: &str, unit: &'static str| {
        let d = PortDecl::inherited(name);
        if unit.is_empty() {
            d
        } else {
            d.unit(unit)
        }
    };
    Ok(Box::new(RigidContact {
        params,
        physical: vec![PortDecl::geometry("B"), PortDecl::geometry("F")],
        inputs: Vec::new(),
        outputs: vec![
            out("contact", ""),
            out("separation", "m"),
            out("normal_force", "N"),
            out("friction_force", "N"),
            out("impulse", "N·s"),
            out("resultant_force", "N").drawn(DrawnAs::ResultantForce),
            out("resultant_torque", "N·m"),
            out("resultant_point", "m").drawn(DrawnAs::ResultantPoint),
            out("friction_power", "W"),
        ],
        pair: None,
        cloud_points: None,
    }))
}

pub static RIGID_CONTACT: BlockType = BlockType {
    name: "RigidContact",
    category: "Contact",
    summary: "Rigid contact between a base geometry B and a follower geometry F (myPhysicsLab's ContactSim, Baraff's method): resting contacts hold exactly, with forces from a complementarity problem solved in the mechanism's dynamics (Coulomb friction by a polyhedral cone); collisions are impulses at located events with Newton's restitution (and Coulomb friction), resolved serially (Newton's cradle) or simultaneously; impacts slower than rest_velocity end at rest. Solids, disks, planes, points and point clouds (every point a contact, at most 64).",
    params: &RigidParams::DOCS,
    ports: &[
        PortDoc { name: "B", kind: "geometry", shape: "", unit: "", doc: "base geometry" },
        PortDoc { name: "F", kind: "geometry", shape: "", unit: "", doc: "follower geometry" },
        PortDoc { name: "contact", kind: "output", shape: "1×1 | 1×N", unit: "", doc: "1 while resting (sliding or sticking), 0 otherwise; per point for a point cloud" },
        PortDoc { name: "separation", kind: "output", shape: "1×1 | 1×N", unit: "m", doc: "signed distance of the pair (negative when penetrating); per point for a point cloud" },
        PortDoc { name: "normal_force", kind: "output", shape: "1×1 | 1×N", unit: "N", doc: "total normal force of the pair; per point for a point cloud" },
        PortDoc { name: "friction_force", kind: "output", shape: "1×1 | 1×N", unit: "N", doc: "magnitude of the total friction force (below μ·N while sticking); per point for a point cloud" },
        PortDoc { name: "impulse", kind: "output", shape: "1×1", unit: "N·s", doc: "total normal impulse of the pair's last impact (0 before the first), held" },
        PortDoc { name: "resultant_force", kind: "output", shape: "3×1", unit: "N", doc: "sum of the contact forces on the follower (World)" },
        PortDoc { name: "resultant_torque", kind: "output", shape: "3×1", unit: "N·m", doc: "torque about resultant_point (World; Drake's minimum-moment resultant)" },
        PortDoc { name: "resultant_point", kind: "output", shape: "3×1", unit: "m", doc: "application point on the central axis of the normal forces (World)" },
        PortDoc { name: "friction_power", kind: "output", shape: "1×1", unit: "W", doc: "power of the pair's friction forces, Σ f_t·(v_F − v_B) over its points (≤ 0: friction only dissipates; a sticking point's drift below 1e-6 m/s may give round-off of either sign; integrate it for the work)" },
    ],
    build,
};
