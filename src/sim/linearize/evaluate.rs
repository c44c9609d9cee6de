//! The operating point and the central differences (see the module documentation of
//! [`super`]).

use super::coordinates::Coordinates;
use super::error::LinearizeError;
use super::linearization::Linearization;
use super::names::{Port, Target};
use super::perturb::{InputCopy, OutputShift, Perturbed};
use crate::block::{Block, Slot};
use crate::diagram::Diagram;
use crate::sim::{map_solver_error, solver_options, Engine, Recorder, SimError};
use crate::solver::{Solver, System};
use nalgebra::DMatrix;

/// The wrappers of the blocks whose ports are perturbed, and the extra signals they need.
fn wrappers<'d>(d: &'d Diagram, inputs: &[Port]) -> (Vec<(usize, Perturbed<'d>)>, usize) {
    let base = d.signal_len as u32;
    let n_u: u32 = inputs.iter().map(|p| p.slot.len).sum();
    let mut wrapped: Vec<(usize, Perturbed<'d>)> = Vec::new();
    let (mut delta, mut copy) = (base, base + n_u);
    for port in inputs {
        let block = match port.target {
            Target::Input { block, .. } | Target::Output { block } => block,
        };
        let at = match wrapped.iter().position(|(b, _)| *b == block) {
            Some(i) => i,
            None => {
                wrapped.push((
                    block,
                    Perturbed {
                        inner: &*d.blocks[block].block,
                        inputs: d.blocks[block].input_slots.to_vec(),
                        copies: Vec::new(),
                        shifts: Vec::new(),
                    },
                ));
                wrapped.len() - 1
            }
        };
        let w = &mut wrapped[at].1;
        match port.target {
            Target::Input { port: i, .. } => {
                w.copies.push(InputCopy {
                    source: port.slot,
                    target: copy,
                    delta,
                });
                w.inputs[i] = Slot {
                    offset: copy,
                    len: port.slot.len,
                };
                copy += port.slot.len;
            }
            Target::Output { .. } => w.shifts.push(OutputShift {
                slot: port.slot,
                delta,
            }),
        }
        delta += port.slot.len;
    }
    (wrapped, (copy - base) as usize)
}

/// Runs the engine from its initialization to `at`; returns the state there.
fn operating_state(
    d: &Diagram,
    engine: &mut Engine<'_>,
    at: f64,
) -> Result<Vec<f64>, LinearizeError> {
    let failed = |source: SimError| LinearizeError::Run {
        at,
        source: Box::new(source),
    };
    let x0 = engine.initialize(0.0);
    if let Some((block, t)) = engine.run.unsettled.take() {
        return Err(failed(SimError::Unsettled { block, t }));
    }
    if at == 0.0 {
        return Ok(x0);
    }
    let directions = d.zero_crossing_directions.len();
    let mut solver = Solver::new(d.num_states, directions, solver_options(d))
        .map_err(|e| failed(SimError::InvalidOptions(e.to_string())))?;
    let outcome = solver.integrate(engine, 0.0, &x0, at);
    if let Some((block, t)) = engine.run.unsettled.take() {
        return Err(failed(SimError::Unsettled { block, t }));
    }
    outcome.map_err(|e| failed(map_solver_error(d, engine, e)))?;
    Ok(solver.state().to_vec())
}

/// Evaluates `(ż, y)` at perturbations `(dz, du)` of the operating point.
pub(super) struct Evaluator<'e, 'd> {
    engine: &'e mut Engine<'d>,
    /// The linearization's states.
    pub(super) coordinates: &'e Coordinates,
    outputs: Vec<Slot>,
    output_names: Vec<String>,
    t: f64,
    x_op: Vec<f64>,
    /// Offset of the perturbations in the signal buffer.
    base: usize,
    x: Vec<f64>,
    xdot: Vec<f64>,
    g0: Vec<f64>,
    g: Vec<f64>,
    /// Zero crossings at 0 at the operating point or that changed sign under a perturbation.
    switching: Vec<bool>,
    /// Evaluations so far.
    pub(super) evaluations: usize,
}

impl Evaluator<'_, '_> {
    /// `(ż, y)` at the perturbation `(dz, du)` of the operating point (`dz` in the
    /// linearization's states, `du` added to the inputs' operating values).
    pub(super) fn eval(
        &mut self,
        dz: &[f64],
        du: &[f64],
        zdot: &mut [f64],
        y: &mut [f64],
    ) -> Result<(), LinearizeError> {
        self.engine.run.signals[self.base..self.base + du.len()].copy_from_slice(du);
        self.coordinates.expand(&self.x_op, dz, &mut self.x);
        self.engine.forget_outputs();
        self.engine.derivatives(self.t, &self.x, &mut self.xdot);
        self.evaluations += 1;
        self.coordinates.reduce_rate(&self.x, dz, &self.xdot, zdot);
        let mut at = 0;
        for slot in &self.outputs {
            y[at..at + slot.len as usize].copy_from_slice(&self.engine.run.signals[slot.range()]);
            at += slot.len as usize;
        }
        let non_finite = |what: String| LinearizeError::NonFinite { t: self.t, what };
        if let Some(k) = zdot.iter().position(|v| !v.is_finite()) {
            return Err(non_finite(format!(
                "the derivative of {}",
                self.coordinates.names[k]
            )));
        }
        if let Some(k) = y.iter().position(|v| !v.is_finite()) {
            return Err(non_finite(format!("output {}", self.output_names[k])));
        }
        self.engine.zero_crossings(self.t, &self.x, &mut self.g);
        for (k, (g, g0)) in self.g.iter().zip(&self.g0).enumerate() {
            if *g0 == 0.0 || (g.signum() != g0.signum()) {
                self.switching[k] = true;
            }
        }
        Ok(())
    }
}

impl Evaluator<'_, '_> {
    /// `[A B; C D]` by central differences about `w_op` = [z; u] (`n_z` states, `n_y`
    /// outputs), and the largest estimated error of an entry, `|D(h) − D(2h)|/3`.
    fn jacobian(
        &mut self,
        w_op: &[f64],
        n_z: usize,
        n_y: usize,
    ) -> Result<(DMatrix<f64>, f64), LinearizeError> {
        let n_w = w_op.len();
        let mut dw = vec![0.0; n_w];
        let mut jac = DMatrix::zeros(n_z + n_y, n_w);
        let mut worst: f64 = 0.0;
        let (mut plus, mut minus) = (vec![0.0; n_z + n_y], vec![0.0; n_z + n_y]);
        let mut columns = [vec![0.0; n_z + n_y], vec![0.0; n_z + n_y]];
        for j in 0..n_w {
            let (h_plus, h_minus) = steps(w_op[j]);
            for (scale, column) in [1.0, 2.0].iter().zip(columns.iter_mut()) {
                for (step, out) in [(scale * h_plus, &mut plus), (-scale * h_minus, &mut minus)] {
                    dw[j] = step;
                    let (zdot, y) = out.split_at_mut(n_z);
                    let (dz, du) = dw.split_at(n_z);
                    self.eval(dz, du, zdot, y)?;
                }
                dw[j] = 0.0;
                let width = scale * (h_plus + h_minus);
                for (c, (p, m)) in column.iter_mut().zip(plus.iter().zip(&minus)) {
                    *c = (p - m) / width;
                }
            }
            for i in 0..n_z + n_y {
                jac[(i, j)] = columns[0][i];
                worst = worst.max((columns[0][i] - columns[1][i]).abs() / 3.0);
            }
        }
        Ok((jac, worst))
    }
}

/// `2^round(log₂(ε^{1/3}·max(1, |w|)))`, and the exact steps `(w + h) − w` and `w − (w − h)`.
pub(super) fn steps(w: f64) -> (f64, f64) {
    let h = (f64::EPSILON.cbrt() * w.abs().max(1.0))
        .log2()
        .round()
        .exp2();
    ((w + h) - w, w - (w - h))
}

/// The operating point reached at `at` with `inputs` perturbable and `outputs` read: calls `f`
/// with the evaluator there, the operating state `z_op` (the linearization's states), the
/// inputs' operating values `u_op` and `(ż, y)` at the operating point.
pub(super) fn at_operating_point<R>(
    d: &Diagram,
    inputs: &[Port],
    outputs: &[Port],
    at: f64,
    f: impl FnOnce(&mut Evaluator<'_, '_>, OperatingPoint) -> Result<R, LinearizeError>,
) -> Result<R, LinearizeError> {
    let coordinates = Coordinates::of(d);
    let (wrapped, extra) = wrappers(d, inputs);
    let blocks: Vec<&dyn Block> = (0..d.blocks.len())
        .map(|b| match wrapped.iter().find(|(w, _)| *w == b) {
            Some((_, w)) => w as &dyn Block,
            None => &*d.blocks[b].block,
        })
        .collect();
    let mut engine = Engine::with_blocks(d, Recorder::new(d), false, blocks, extra);
    let x_op = operating_state(d, &mut engine, at)?;
    let n_z = coordinates.len();
    let n_u: usize = inputs.iter().map(|p| p.slot.len as usize).sum();
    let n_y: usize = outputs.iter().map(|p| p.slot.len as usize).sum();
    let mut ev = Evaluator {
        engine: &mut engine,
        coordinates: &coordinates,
        outputs: outputs.iter().map(|p| p.slot).collect(),
        output_names: outputs.iter().flat_map(|p| p.names.clone()).collect(),
        t: at,
        x: x_op.clone(),
        xdot: vec![0.0; d.num_states],
        x_op,
        base: d.signal_len,
        g0: vec![0.0; d.zero_crossing_directions.len()],
        g: vec![0.0; d.zero_crossing_directions.len()],
        switching: vec![false; d.zero_crossing_directions.len()],
        evaluations: 0,
    };
    let (mut zdot0, mut y0) = (vec![0.0; n_z], vec![0.0; n_y]);
    ev.eval(&vec![0.0; n_z], &vec![0.0; n_u], &mut zdot0, &mut y0)?;
    ev.g0.copy_from_slice(&ev.g);
    for (s, g0) in ev.switching.iter_mut().zip(&ev.g0) {
        *s = *g0 == 0.0;
    }
    let u_op: Vec<f64> = inputs
        .iter()
        .flat_map(|p| ev.engine.run.signals[p.slot.range()].to_vec())
        .collect();
    let z_op = coordinates.reduce_state(&ev.x_op);
    f(
        &mut ev,
        OperatingPoint {
            z: z_op,
            u: u_op,
            y: y0,
        },
    )
}

/// The operating point: states, inputs, and `(ż, y)` there.
pub(super) struct OperatingPoint {
    /// The linearization's states (a quaternion's tangent coordinates are 0).
    pub z: Vec<f64>,
    /// The inputs' values.
    pub u: Vec<f64>,
    /// The outputs' values.
    pub y: Vec<f64>,
}

/// Linearizes about the state reached at `at`, perturbing `inputs` and reading `outputs`.
pub(super) fn linearize_ports(
    d: &Diagram,
    inputs: &[Port],
    outputs: &[Port],
    at: f64,
) -> Result<Linearization, LinearizeError> {
    at_operating_point(d, inputs, outputs, at, |ev, op| {
        let (n_z, n_y) = (op.z.len(), op.y.len());
        let (z_op, u_op, y0) = (op.z, op.u, op.y);
        let w_op: Vec<f64> = z_op.iter().chain(&u_op).copied().collect();
        let (jac, worst) = ev.jacobian(&w_op, n_z, n_y)?;
        let warnings = findings(d, ev);
        let n_u = u_op.len();
        Ok(Linearization {
            states: ev.coordinates.names.clone(),
            inputs: inputs.iter().flat_map(|p| p.names.clone()).collect(),
            outputs: outputs.iter().flat_map(|p| p.names.clone()).collect(),
            a: jac.view((0, 0), (n_z, n_z)).into_owned(),
            b: jac.view((0, n_z), (n_z, n_u)).into_owned(),
            c: jac.view((n_z, 0), (n_y, n_z)).into_owned(),
            d: jac.view((n_z, n_z), (n_y, n_u)).into_owned(),
            x: z_op,
            u: u_op,
            y: y0,
            t: at,
            warnings,
            error_estimate: worst,
            evaluations: ev.evaluations,
        })
    })
}

/// What the linearization does not capture: sampled blocks, switching zero crossings, closed
/// loops of the mechanism.
pub(super) fn findings(d: &Diagram, ev: &Evaluator<'_, '_>) -> Vec<String> {
    let mut warnings = Vec::new();
    for blk in &d.blocks {
        let work = &ev.engine.run.work[blk.work.clone()];
        let sampled =
            blk.block.period().is_some() || blk.block.next_time_event(ev.t, work).is_some();
        if sampled {
            warnings.push(format!(
                "block '{}' ({}) is sampled or has time events: its discrete states and held outputs stay at their operating values (not states of the linearization)",
                blk.name, blk.type_name
            ));
        }
        let crossings = blk.zero_crossings.clone();
        if ev.switching[crossings].iter().any(|s| *s) {
            warnings.push(format!(
                "block '{}' ({}) has a zero crossing at the operating point or within the difference steps: the model switches there, and the matrices mix both sides",
                blk.name, blk.type_name
            ));
        }
    }
    if let Some(scene) = d.scene.as_ref() {
        if !scene.mechanism.cut_joints().is_empty() {
            warnings.push(
                "the mechanism has closed loops: its tree coordinates are not independent, and A has directions that break the loop constraints".to_string(),
            );
        }
    }
    warnings
}
