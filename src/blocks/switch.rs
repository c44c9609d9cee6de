//! Switch: passes in1 or in3 by a criterion on the control in2, its mode switched at located
//! crossings.

use super::common::{at, bad, broadcast_shape, check_broadcast, port};
use crate::block::{
    Block, BlockError, BlockType, Ctx, Param, PortDecl, Setup, Shape, UnitInputs, Units,
};
use crate::params::{ParamError, Params};
use crate::solver::Direction;

#[derive(Clone, Copy, PartialEq)]
enum Criterion {
    AtLeast,
    Above,
    NonZero,
}

/// `out = in1` while the criterion on the control `in2` holds, else `in3`.
///
/// For `"u2 >= threshold"` and `"u2 > threshold"`, work slot 0 is the mode (1 = passing in1),
/// frozen during a step, with one zero crossing `g = in2 − threshold` (direction Either). At a
/// located crossing the mode follows the sign of g, and g = 0 exactly counts as having crossed
/// (the mode flips: otherwise a signal that continues through zero from there would never be
/// seen crossing again). `settle` changes the mode only on a strict sign, so it never undoes that
/// flip, and it catches jumps of the control at other blocks' events. Work slot 1 marks the first
/// settle, where g = 0 is decided by the criterion itself (≥ passes in1, > does not).
///
/// `"u2 != 0"` needs no mode: the output is chosen from the current in2 (in3 only where in2 is
/// exactly 0), with a zero crossing on in2 to end steps where it changes sign.
struct Switch {
    threshold: f64,
    criterion: Criterion,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Switch {
    fn g(&self, u2: f64) -> f64 {
        if self.criterion == Criterion::NonZero {
            u2
        } else {
            u2 - self.threshold
        }
    }

    fn set_mode(work: &mut [f64], pass_in1: bool) -> bool {
        let changed = (work[0] != 0.0) != pass_in1;
        work[0] = f64::from(u8::from(pass_in1));
        changed
    }
}

impl Block for Switch {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    /// The unit in1 and in3 agree on, element by element (the control in2's is not passed).
    fn output_units(&self, io: &UnitInputs<'_>) -> Vec<Units> {
        vec![io.agreed(0, &[0, 2])]
    }
    fn propagate_shapes(
        &self,
        inputs: &mut [Option<Shape>],
        outputs: &mut [Option<Shape>],
    ) -> Result<(), BlockError> {
        if outputs[0].is_none() {
            outputs[0] = broadcast_shape([&inputs[0], &inputs[2]].into_iter())?;
        }
        Ok(())
    }
    fn setup(&mut self, inputs: &[Shape], outputs: &[Shape]) -> Result<Setup, BlockError> {
        if !inputs[1].is_scalar() {
            return Err(BlockError::NotScalar {
                port: self.inputs[1].name.clone(),
                found: inputs[1],
            });
        }
        check_broadcast(
            &[self.inputs[0].clone(), self.inputs[2].clone()],
            &[inputs[0], inputs[2]],
            outputs[0],
        )?;
        let num_work = if self.criterion == Criterion::NonZero {
            0
        } else {
            2
        };
        Ok(Setup {
            num_work,
            zero_crossings: vec![Direction::Either],
            feedthrough: vec![(0, 0), (1, 0), (2, 0)],
            ..Default::default()
        })
    }
    fn initialize(&self, ctx: &mut Ctx) {
        if self.criterion != Criterion::NonZero {
            ctx.work[0] = 1.0;
            ctx.work[1] = 0.0;
        }
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let pass_in1 = match self.criterion {
            Criterion::NonZero => ctx.input_scalar(1) != 0.0,
            _ => ctx.work[0] != 0.0,
        };
        let pass = if pass_in1 { 0 } else { 2 };
        let (sig, ins, outs) = ctx.raw();
        let o = outs[0];
        for e in 0..o.len as usize {
            sig[o.offset as usize + e] = at(&sig[ins[pass].range()], e);
        }
    }
    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        g[0] = self.g(ctx.input_scalar(1));
    }
    fn handle_event(&self, ctx: &mut Ctx, crossed: &[bool], _: bool) -> bool {
        if self.criterion == Criterion::NonZero || !crossed[0] {
            return self.settle(ctx);
        }
        let g = self.g(ctx.input_scalar(1));
        let old = ctx.work[0] != 0.0;
        let new = if g > 0.0 {
            true
        } else if g < 0.0 {
            false
        } else {
            !old
        };
        Self::set_mode(ctx.work, new)
    }
    fn settle(&self, ctx: &mut Ctx) -> bool {
        if self.criterion == Criterion::NonZero {
            return false;
        }
        let g = self.g(ctx.input_scalar(1));
        let first = ctx.work[1] == 0.0;
        ctx.work[1] = 1.0;
        if g > 0.0 {
            Self::set_mode(ctx.work, true) || first
        } else if g < 0.0 {
            Self::set_mode(ctx.work, false) || first
        } else if first {
            Self::set_mode(ctx.work, self.criterion == Criterion::AtLeast);
            true
        } else {
            false
        }
    }
}

const THRESHOLD: Param<f64> = crate::param!("threshold", "", 0.0, "compared with in2");
const CRITERIA: Param<&str> = crate::param!(
    "criteria",
    "",
    "u2 >= threshold",
    "\"u2 >= threshold\", \"u2 > threshold\" or \"u2 != 0\""; one_of["u2 >= threshold", "u2 > threshold", "u2 != 0"],
);

fn build_switch(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let threshold = THRESHOLD.read(r)?;
    let criterion = match CRITERIA.read(r)? {
        "u2 >= threshold" => Criterion::AtLeast,
        "u2 > threshold" => Criterion::Above,
        _ => Criterion::NonZero,
    };
    if criterion == Criterion::NonZero && r.has("threshold") {
        return Err(bad(
            r,
            "threshold",
            "'threshold' is not used with criteria = \"u2 != 0\"",
            "remove threshold, or use criteria = \"u2 > threshold\"",
        ));
    }
    r.finish()?;
    let inputs = vec![
        PortDecl::inherited("in1"),
        PortDecl::scalar("in2"),
        PortDecl::inherited("in3"),
    ];
    Ok(Box::new(Switch {
        threshold,
        criterion,
        inputs,
        outputs: vec![PortDecl::inherited("out")],
    }))
}

pub static SWITCH: BlockType = BlockType {
    name: "Switch",
    category: "Routing",
    summary: "Passes in1 while the control in2 meets the criterion, else in3. The choice is a mode \
              that changes only at a located zero crossing of in2 − threshold (or at other events), \
              so the output is smooth within every solver step.",
    params: &[
        THRESHOLD.doc,
        CRITERIA.doc,
    ],
    ports: &[
        port("in1", "input", "inherited", "", "passed while the criterion holds"),
        port("in2", "input", "1×1", "", "the control"),
        port("in3", "input", "inherited", "", "passed otherwise"),
        port("out", "output", "common shape of in1 and in3", "", "the selected input"),
    ],
    build: build_switch,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};

    #[test]
    fn switch_mode_changes_at_crossings_only() {
        let mut h = Harness::scalar("Switch", "threshold = 1.0");
        h.set_input(0, &[10.0]);
        h.set_input(1, &[0.0]);
        h.set_input(2, &[30.0]);
        h.initialize(0.0);
        assert_eq!(
            h.out_at(0.0, 0),
            vec![30.0],
            "settle at the start picks in3 (0 < 1)"
        );
        // Within a step the mode is frozen even if in2 passes the threshold …
        h.set_input(1, &[1.5]);
        assert_eq!(h.out_at(0.1, 0), vec![30.0]);
        assert_eq!(h.zero_crossings(), vec![0.5]);
        // … and switches at the located crossing (g = 0 exactly counts as crossed).
        h.set_input(1, &[1.0]);
        assert!(h.cross(0.05, 0));
        assert_eq!(h.out_at(0.05, 0), vec![10.0]);
        // Falling back through the threshold, located at g = 0: flips to in3 and settle keeps it.
        assert!(h.cross(0.2, 0));
        assert_eq!(h.out_at(0.2, 0), vec![30.0]);
        assert!(build_error("Switch", "criteria = \"u2 < threshold\"")
            .contains("cannot be \"u2 < threshold\""));
        // At the start, in2 exactly at the threshold passes in1 for >= but not for >.
        for (criteria, expected) in [("u2 >= threshold", 10.0), ("u2 > threshold", 30.0)] {
            let mut h = Harness::scalar(
                "Switch",
                &format!("threshold = 1.0\ncriteria = \"{criteria}\""),
            );
            h.set_input(0, &[10.0]);
            h.set_input(1, &[1.0]);
            h.set_input(2, &[30.0]);
            h.initialize(0.0);
            assert_eq!(h.out_at(0.0, 0), vec![expected], "{criteria}");
        }
    }

    #[test]
    fn switch_nonzero_criterion() {
        let mut h = Harness::scalar("Switch", "criteria = \"u2 != 0\"");
        h.set_input(0, &[1.0]);
        h.set_input(2, &[3.0]);
        h.set_input(1, &[0.0]);
        h.initialize(0.0);
        assert_eq!(h.out_at(0.0, 0), vec![3.0]);
        h.set_input(1, &[-2.0]);
        assert_eq!(h.out_at(0.0, 0), vec![1.0]);
        assert_eq!(h.zero_crossings(), vec![-2.0]);
        assert_eq!(h.setup.num_work, 0);
    }
}
