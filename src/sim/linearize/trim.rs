//! Trim: an equilibrium of the diagram, states `z` and free inputs `u` with `ż = f(z, u) = 0`,
//! found from the model's initial state with the linearization's machinery (its names, its
//! perturbed inputs, its states: a mechanism's joint coordinates and velocities, quaternions by
//! their tangent space).
//!
//! **Unknowns** `w`: every state not named in [`TrimSpec::fixed_states`] (which stay at their
//! initial values) and every element of the inputs named in [`TrimSpec::free_inputs`] (the other
//! inputs stay at their operating values, what the ports read at the initial state).
//! **Residual** `r(w) = ż`, all states' derivatives (`n_z` equations).
//!
//! **Method**: Gauss–Newton on the central-difference Jacobian `J = ∂ż/∂w` (the linearization's
//! steps, see [`super`]): the step solves `J·Δ = −r` in the least-squares sense with the smallest
//! norm (the SVD's pseudo-inverse: fewer unknowns than equations → least squares, more →
//! minimum norm). A step that does not lower `‖r‖₂` is replaced by Levenberg–Marquardt's
//! `(JᵀJ + λ·I)·Δ = −Jᵀ·r` with λ raised tenfold until one does. Converged when
//! `‖ż‖₂ ≤ tolerance`; a trim that stops short (no step lowers the residual, or
//! [`TrimSpec::max_iterations`]) is [`TrimError::NotConverged`], naming the state with the
//! largest derivative left.

use super::error::LinearizeError;
use super::evaluate::{at_operating_point, findings, steps, Evaluator, OperatingPoint};
use super::names;
use crate::diagram::Diagram;
use crate::params::closest;
use nalgebra::{DMatrix, DVector};

/// What to trim: the inputs (all perturbable; the free ones solved for), the states held at
/// their initial values, the outputs to report, and when to stop.
#[derive(Clone, Debug, PartialEq)]
pub struct TrimSpec {
    /// `BLOCK.PORT` (an input port, on top of its connected value) or `BLOCK` (a source with one
    /// output `out`), as [`super::LinearizeSpec::inputs`]; held at their operating values unless
    /// also in `free_inputs`.
    pub inputs: Vec<String>,
    /// The inputs solved for (a name not in `inputs` is added to them).
    pub free_inputs: Vec<String>,
    /// States held at their initial values, by the linearization's names (`hinge.q[0]`).
    pub fixed_states: Vec<String>,
    /// `BLOCK.PORT` output ports, reported at the equilibrium.
    pub outputs: Vec<String>,
    /// Converged when `‖ż‖₂` is at most this (in the states' units per second).
    pub tolerance: f64,
    /// The most Gauss–Newton iterations.
    pub max_iterations: usize,
}

impl Default for TrimSpec {
    fn default() -> Self {
        TrimSpec {
            inputs: Vec::new(),
            free_inputs: Vec::new(),
            fixed_states: Vec::new(),
            outputs: Vec::new(),
            tolerance: 1e-10,
            max_iterations: 50,
        }
    }
}

/// An equilibrium found by [`trim`].
#[derive(Clone, Debug, PartialEq)]
pub struct Trim {
    /// The states' names (`JOINT.q[i]`, `JOINT.v[i]`, `BLOCK.NAME`).
    pub states: Vec<String>,
    /// The states at the equilibrium (a quaternion's three tangent coordinates about its
    /// initial value, rad).
    pub x: Vec<f64>,
    /// The inputs' names, one per element.
    pub inputs: Vec<String>,
    /// The inputs' values at the equilibrium (what the ports read).
    pub u: Vec<f64>,
    /// The outputs' names, one per element.
    pub outputs: Vec<String>,
    /// The outputs' values at the equilibrium.
    pub y: Vec<f64>,
    /// `‖ż‖₂` at the equilibrium.
    pub xdot_norm: f64,
    /// Gauss–Newton iterations taken (0: the initial state is an equilibrium).
    pub iterations: usize,
    /// Evaluations of the diagram.
    pub evaluations: usize,
    /// What the model does there that a smooth equilibrium does not capture (sampled blocks,
    /// zero crossings at the point): as [`super::Linearization::warnings`].
    pub warnings: Vec<String>,
}

/// Why a diagram could not be trimmed.
#[derive(Debug, thiserror::Error)]
pub enum TrimError {
    /// A name, the operating point or an evaluation failed, as for a linearization.
    #[error(transparent)]
    Linearize(#[from] LinearizeError),
    /// A fixed state that is not a state of the linearization.
    #[error("--fix-states '{name}': there is no such state ({hint})")]
    UnknownState {
        /// The name given.
        name: String,
        /// The nearest name, or the list.
        hint: String,
    },
    /// The tolerance is not a positive number (no residual can reach it).
    #[error("trim tolerance = {0}: it must be a positive number (‖ż‖₂ in the states' units per second)\n  help: write --tolerance 1e-10 (the default) or another positive value")]
    BadTolerance(f64),
    /// No equilibrium was reached.
    #[error("trim did not converge ({iterations} iterations): ‖ż‖ = {xdot_norm:e} (tolerance {tolerance:e}); the largest derivative left is {state}' = {residual:e}\n  help: free more inputs or states (--free-inputs, fewer --fix-states), or start nearer an equilibrium (--set)")]
    NotConverged {
        /// The state whose derivative is largest in magnitude at the end.
        state: String,
        /// Its derivative.
        residual: f64,
        /// `‖ż‖₂` at the end.
        xdot_norm: f64,
        /// Iterations taken.
        iterations: usize,
        /// The tolerance asked.
        tolerance: f64,
    },
}

/// Finds an equilibrium of `diagram` as `spec` says, from its initial state; see the module
/// documentation.
pub fn trim(diagram: &Diagram, spec: &TrimSpec) -> Result<Trim, TrimError> {
    if !(spec.tolerance > 0.0 && spec.tolerance.is_finite()) {
        return Err(TrimError::BadTolerance(spec.tolerance));
    }
    let mut input_names: Vec<String> = spec.inputs.iter().map(|n| n.trim().to_string()).collect();
    for name in &spec.free_inputs {
        if !input_names.iter().any(|n| n == name.trim()) {
            input_names.push(name.trim().to_string());
        }
    }
    let lin_spec = super::LinearizeSpec {
        inputs: input_names.clone(),
        outputs: spec.outputs.clone(),
        at: 0.0,
    };
    super::check_spec(diagram, &lin_spec)?;
    let inputs = input_names
        .iter()
        .map(|n| names::resolve_input(diagram, n))
        .collect::<Result<Vec<_>, _>>()?;
    let outputs = spec
        .outputs
        .iter()
        .map(|n| names::resolve_output(diagram, n))
        .collect::<Result<Vec<_>, _>>()?;
    let free_u: Vec<bool> = inputs
        .iter()
        .zip(&input_names)
        .flat_map(|(port, name)| {
            let free = spec.free_inputs.iter().any(|f| f.trim() == name);
            std::iter::repeat_n(free, port.names.len())
        })
        .collect();
    at_operating_point(diagram, &inputs, &outputs, 0.0, |ev, op| {
        let free_z = free_states(&ev.coordinates.names, &spec.fixed_states);
        let free_z = match free_z {
            Ok(f) => f,
            Err(e) => return Ok(Err(e)),
        };
        let mut solver = Newton {
            ev,
            free: free_z.iter().chain(&free_u).copied().collect(),
            n_z: op.z.len(),
            n_y: op.y.len(),
            w: vec![0.0; op.z.len() + op.u.len()],
            op: &op,
        };
        let outcome = solver.solve(spec)?;
        let ev = solver.ev;
        let (mut zdot, mut y) = (vec![0.0; op.z.len()], vec![0.0; op.y.len()]);
        let (dz, du) = solver.w.split_at(op.z.len());
        ev.eval(dz, du, &mut zdot, &mut y)?;
        let xdot_norm = norm(&zdot);
        let (converged, iterations) = outcome;
        if !converged {
            let k = (0..zdot.len())
                .max_by(|&a, &b| zdot[a].abs().total_cmp(&zdot[b].abs()))
                .unwrap_or(0);
            return Ok(Err(TrimError::NotConverged {
                state: ev.coordinates.names.get(k).cloned().unwrap_or_default(),
                residual: zdot.get(k).copied().unwrap_or(0.0),
                xdot_norm,
                iterations,
                tolerance: spec.tolerance,
            }));
        }
        Ok(Ok(Trim {
            states: ev.coordinates.names.clone(),
            x: op.z.iter().zip(dz).map(|(a, b)| a + b).collect(),
            inputs: inputs.iter().flat_map(|p| p.names.clone()).collect(),
            u: op.u.iter().zip(du).map(|(a, b)| a + b).collect(),
            outputs: outputs.iter().flat_map(|p| p.names.clone()).collect(),
            y,
            xdot_norm,
            iterations,
            evaluations: ev.evaluations,
            warnings: findings(diagram, ev),
        }))
    })?
}

/// Which states are unknowns: all but `fixed` (each of which must be a state's name).
fn free_states(names: &[String], fixed: &[String]) -> Result<Vec<bool>, TrimError> {
    let mut free = vec![true; names.len()];
    for name in fixed {
        let name = name.trim();
        match names.iter().position(|n| n == name) {
            Some(k) => free[k] = false,
            None => {
                let hint = match closest(name, names.iter().map(String::as_str)) {
                    Some(near) => format!("did you mean '{near}'?"),
                    None => format!("the states are: {}", names.join(", ")),
                };
                return Err(TrimError::UnknownState {
                    name: name.to_string(),
                    hint,
                });
            }
        }
    }
    Ok(free)
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The Gauss–Newton / Levenberg–Marquardt iteration over the free entries of `w` = [dz; du],
/// the offsets from the operating point.
struct Newton<'a, 'e, 'd> {
    ev: &'a mut Evaluator<'e, 'd>,
    /// Which entries of `w` are unknowns.
    free: Vec<bool>,
    n_z: usize,
    n_y: usize,
    w: Vec<f64>,
    op: &'a OperatingPoint,
}

impl Newton<'_, '_, '_> {
    /// `ż` at offsets `w`.
    fn residual(&mut self, w: &[f64]) -> Result<Vec<f64>, LinearizeError> {
        let (mut zdot, mut y) = (vec![0.0; self.n_z], vec![0.0; self.n_y]);
        let (dz, du) = w.split_at(self.n_z);
        self.ev.eval(dz, du, &mut zdot, &mut y)?;
        Ok(zdot)
    }

    /// The operating value of entry `j` of `w` (for the difference step's size).
    fn value(&self, j: usize) -> f64 {
        let base = if j < self.n_z {
            self.op.z[j]
        } else {
            self.op.u[j - self.n_z]
        };
        base + self.w[j]
    }

    /// `∂ż/∂w` over the free entries, by central differences about `w`.
    fn jacobian(&mut self, unknowns: &[usize]) -> Result<DMatrix<f64>, LinearizeError> {
        let mut jac = DMatrix::zeros(self.n_z, unknowns.len());
        for (col, &j) in unknowns.iter().enumerate() {
            let (h_plus, h_minus) = steps(self.value(j));
            let mut w = self.w.clone();
            w[j] += h_plus;
            let plus = self.residual(&w)?;
            w[j] = self.w[j] - h_minus;
            let minus = self.residual(&w)?;
            for i in 0..self.n_z {
                jac[(i, col)] = (plus[i] - minus[i]) / (h_plus + h_minus);
            }
        }
        Ok(jac)
    }

    /// Iterates to `‖ż‖₂ ≤ tolerance`: whether it got there, and the iterations taken (it stops
    /// short when no step lowers the residual or after [`TrimSpec::max_iterations`]).
    fn solve(&mut self, spec: &TrimSpec) -> Result<(bool, usize), LinearizeError> {
        let unknowns: Vec<usize> = (0..self.w.len()).filter(|&j| self.free[j]).collect();
        let mut r = self.residual(&self.w.clone())?;
        for iteration in 0..spec.max_iterations {
            if norm(&r) <= spec.tolerance {
                return Ok((true, iteration));
            }
            if unknowns.is_empty() {
                return Ok((false, iteration));
            }
            let jac = self.jacobian(&unknowns)?;
            let rhs = -DVector::from_column_slice(&r);
            let mut accepted = None;
            // Gauss–Newton's least-squares, minimum-norm step first; then damped steps.
            let scale = jac.iter().fold(0.0_f64, |m, x| m.max(x.abs())).max(1e-300);
            let mut lambda = 0.0;
            for _ in 0..40 {
                let Some(step) = damped_step(&jac, &rhs, lambda) else {
                    break;
                };
                let mut w = self.w.clone();
                for (k, &j) in unknowns.iter().enumerate() {
                    w[j] += step[k];
                }
                let trial = self.residual(&w)?;
                if norm(&trial) < norm(&r) {
                    accepted = Some((w, trial));
                    break;
                }
                lambda = if lambda == 0.0 {
                    1e-6 * scale * scale
                } else {
                    10.0 * lambda
                };
            }
            let Some((w, trial)) = accepted else {
                return Ok((false, iteration));
            };
            self.w = w;
            r = trial;
            if norm(&r) <= spec.tolerance {
                return Ok((true, iteration + 1));
            }
        }
        Ok((false, spec.max_iterations))
    }
}

/// The step `Δ` solving `J·Δ = rhs`: with `lambda` = 0 the least-squares solution of least
/// norm (SVD pseudo-inverse, singular values below `1e-12·σ_max` dropped); else
/// Levenberg–Marquardt's `(JᵀJ + λ·I)·Δ = Jᵀ·rhs`.
fn damped_step(jac: &DMatrix<f64>, rhs: &DVector<f64>, lambda: f64) -> Option<DVector<f64>> {
    if lambda == 0.0 {
        let svd = jac.clone().svd(true, true);
        let largest = svd.singular_values.max();
        return svd.solve(rhs, 1e-12 * largest).ok();
    }
    let n = jac.ncols();
    let normal = jac.transpose() * jac + DMatrix::identity(n, n) * lambda;
    normal.cholesky().map(|c| c.solve(&(jac.transpose() * rhs)))
}
