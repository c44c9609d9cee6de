//! Outputs and derivatives at a point: the schedule's steps in order (called blocks, fused
//! rows and sums, scalar kernels), the output cache, and evaluations inside a step that leave
//! the run as it was.

use super::Engine;
use crate::block::{kernel, same_bits, Ctx};
use crate::sim::islands::{EVERY_ISLAND, NO_ISLAND};
use crate::sim::steps::Step;

/// Which steps an evaluation runs (see [`Engine::eval_scheduled`]).
#[derive(Clone, Copy)]
enum Steps {
    /// Every block's.
    All,
    /// All but the constant blocks' (a minor step).
    Minor,
    /// Those a zero-crossing evaluation needs (`Engine::crossing_steps`).
    Crossing,
}

impl<'d> Engine<'d> {
    /// Evaluates the outputs at a point inside a step only to record them ([`Ctx::interior`]),
    /// first saving what the run's next evaluation reads: the signals (the blocks evaluated
    /// first in the schedule read inputs left by the previous evaluation: a rigid mechanism
    /// solves once with them before the blocks that apply forces have run, and that solve moves
    /// its warm start) and `run.x`. [`Engine::leave_interior`] restores them, so that the run
    /// goes on as if nothing had been recorded: with `refine = 1` and `8`,
    /// models/turntable.toml under trbdf2 took 4,103 and 7,267 steps before. Copies into
    /// buffers sized when the run started; does not allocate.
    pub(super) fn enter_interior(&mut self, t: f64, x: &[f64]) {
        if self.saved_signals.len() != self.run.signals.len()
            || self.saved_x.len() != self.run.x.len()
        {
            // Not foreseen when the run started (`Engine::may_evaluate_inside_steps`): sized
            // now, once.
            self.size_interior_buffers();
        }
        self.saved_signals.copy_from_slice(&self.run.signals);
        self.saved_x.copy_from_slice(&self.run.x);
        self.interior = true;
        self.outputs_at(t, x);
        self.interior = false;
    }

    /// Sizes the buffers an interior evaluation saves the run's signals and states in (once;
    /// nothing when they already are).
    pub(super) fn size_interior_buffers(&mut self) {
        self.saved_signals.resize(self.run.signals.len(), 0.0);
        self.saved_x.resize(self.run.x.len(), 0.0);
    }

    /// Restores the signals and `run.x` that [`Engine::enter_interior`] saved, and forgets the
    /// output cache: the blocks' scratch now holds the interior point's work (a mechanism
    /// without rigid contacts keeps its forward kinematics there for `derivatives`), so the
    /// run's next request evaluates again, from the run's own signals. Serving the cache here
    /// doubled box_on_incline's steps (its derivatives read the recorded row's kinematics).
    pub(super) fn leave_interior(&mut self) {
        self.run.signals.copy_from_slice(&self.saved_signals);
        self.run.x.copy_from_slice(&self.saved_x);
        self.evaluated_at = None;
    }

    /// Whether the outputs are current for `(t, x)`: evaluated at `t` from the same state
    /// bits, with no work changed since (only when called blocks own states: otherwise the
    /// engine keeps no copy of the state to compare with).
    #[inline]
    pub(super) fn outputs_current_at(&self, t: f64, x: &[f64]) -> bool {
        self.copy_states && self.evaluated_at == Some(t) && same_bits(&self.run.x, x)
    }

    /// Makes the outputs current for `(t, x)`, skipping the evaluation when they already are.
    #[inline]
    pub(super) fn outputs_at(&mut self, t: f64, x: &[f64]) {
        if !self.copy_states {
            if !self.minor_steps().is_empty() {
                self.eval_scheduled(t, Steps::Minor, Some(x));
            }
            return;
        }
        if self.outputs_current_at(t, x) {
            return;
        }
        self.run.x.copy_from_slice(x);
        self.eval_scheduled(t, Steps::Minor, None);
        self.evaluated_at = Some(t);
    }

    /// Makes the inputs of the blocks that give their zero-crossing functions from their inputs
    /// current for `(t, x)` (and the other crossing blocks' outputs): evaluates
    /// `crossing_steps` only. The outputs are then not current ([`Engine::outputs_at`]
    /// evaluates again at any point).
    pub(super) fn crossing_inputs_at(&mut self, t: f64, x: &[f64]) {
        if self.copy_states {
            self.run.x.copy_from_slice(x);
            self.eval_scheduled(t, Steps::Crossing, None);
        } else {
            self.eval_scheduled(t, Steps::Crossing, Some(x));
        }
    }

    /// Evaluates all outputs at `t` from the run state's `x` (`run.x`), which is current after
    /// [`Engine::initialize`] and events; to evaluate at another state, write it to `run.x` first.
    pub fn eval_outputs(&mut self, t: f64) {
        self.eval_scheduled(t, Steps::All, None);
    }

    /// Evaluates the outputs at `t`: every block's ([`Steps::All`]), or all but the constant
    /// ones, which keep the values of the last full evaluation (a minor step), or those a
    /// zero-crossing evaluation needs ([`Steps::Crossing`]). Fused rows read the states from
    /// `x`, or from the run state's when `None`; called blocks always read the run state's.
    #[inline]
    fn eval_scheduled(&mut self, t: f64, which: Steps, x: Option<&[f64]>) {
        self.evaluated_at = None;
        let interior = self.interior;
        let steps = match which {
            Steps::All => &self.steps,
            Steps::Minor => self.minor_steps.as_ref().unwrap_or(&self.steps),
            Steps::Crossing => self.crossing_steps.as_deref().unwrap_or(&[]),
        };
        let (run, plan, sum_scratch) = (&mut self.run, &self.plan, &mut self.sum_scratch);
        let island = self.restricted.then_some(&self.island_mask[..]);
        for step in steps {
            match step {
                Step::Call(call) => {
                    if let Some(mask) = island {
                        match self.island_blocks[call.index] {
                            EVERY_ISLAND => {}
                            NO_ISLAND => continue,
                            body if !mask[body as usize] => continue,
                            _ => {}
                        }
                    }
                    let mut ctx = Ctx::new(
                        t,
                        &mut run.signals,
                        call.inputs,
                        call.outputs,
                        &mut run.x[call.states.clone()],
                        &mut run.work[call.work.clone()],
                        &mut *run.scratch[call.index],
                    );
                    ctx.interior = interior;
                    ctx.island = island;
                    call.block.outputs_eval(&mut ctx);
                }
                Step::Rows(rows) => {
                    let states = x.unwrap_or(&run.x);
                    for row in &plan.rows[rows.start as usize..rows.end as usize] {
                        run.signals[row.target as usize] = plan.eval(row, &run.signals, states);
                    }
                }
                Step::Sum { sum, output } => {
                    let states = x.unwrap_or(&run.x);
                    let scratch = &mut sum_scratch[..output.len()];
                    plan.sums[*sum as usize].evaluate(&run.signals, states, scratch);
                    run.signals[output.clone()].copy_from_slice(scratch);
                }
                &Step::Clamp {
                    input,
                    output,
                    lower,
                    upper,
                } => run.signals[output] = kernel::clamp(run.signals[input], lower, upper),
                &Step::Product2 {
                    inputs: [a, b],
                    divide,
                    output,
                } => {
                    let first = kernel::factor(1.0, divide[0], run.signals[a]);
                    run.signals[output] = kernel::factor(first, divide[1], run.signals[b]);
                }
                &Step::Function {
                    function,
                    input,
                    output,
                } => run.signals[output] = function.eval(run.signals[input], t),
                Step::CopyState { output, state } => {
                    run.signals[*output] = x.unwrap_or(&run.x)[*state];
                }
                Step::CopyStates { output, states } => {
                    let x = x.unwrap_or(&run.x);
                    run.signals[output.clone()].copy_from_slice(&x[states.clone()]);
                }
            }
        }
    }

    /// Outputs at `(t, x)`, then every stateful block's derivatives into `dxdt`.
    #[inline]
    pub(super) fn evaluate_derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
        self.outputs_at(t, x);
        let d = self.diagram;
        for i in 0..self.stateful.len() {
            let b = self.stateful[i];
            let (range, block) = (d.blocks[b].states.clone(), self.blocks[b]);
            let mut ctx = self.ctx(b, t);
            block.derivatives(&mut ctx, &mut dxdt[range]);
        }
        self.plan.derivatives(&self.run.signals, x, dxdt);
    }
}
