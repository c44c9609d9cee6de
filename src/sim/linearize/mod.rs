//! Linearization of a diagram about an operating point (Simulink's `linmod`, Drake's
//! `Linearize`): `ż = A·z + B·u`, `y = C·z + D·u` for small deviations of the states `z`, the
//! named inputs `u` and the named outputs `y` from their operating values.
//!
//! **Operating point.** The state and inputs a run of the model reaches at time T
//! ([`LinearizeSpec::at`], 0 by default: the initial state, after the blocks' initialization and
//! settling). For T > 0 the model runs from 0 to T with its own solver settings, every block
//! called (no fusion; the same results up to round-off); a failing run is an error, and so is a
//! T outside [0, stop_time].
//!
//! **States** `z` (see [`coordinates`](self)): the diagram's continuous states, with a
//! mechanism's quaternions replaced by three tangent coordinates each; a mechanism's states are
//! named `JOINT.q[i]`, `JOINT.v[i]`, every other block's `BLOCK.NAME` (`integrator.x[0]`).
//!
//! **Inputs** `u`: `BLOCK.PORT` names an input port of any block; the block then reads its
//! connected value (or 0, unconnected) *plus* the perturbation, and every other reader of the
//! same signal is unaffected. So perturbing a connected input linearizes with that loop still
//! closed, the input acting as an additive disturbance at that port. A bare `BLOCK` names a
//! source block with no inputs and one output `out` (an Inport, a Constant): its output is
//! perturbed about its operating value (0 for an Inport) and every reader sees it. **Outputs**
//! `y`: `BLOCK.PORT` names an output port. A port of several elements gives one input or output
//! per element, `BLOCK.PORT[i]` (column-major).
//!
//! **Jacobians** by central differences in every column (the engine gives no analytic block
//! Jacobians): column j of `[A B; C D]` is `(F(w + hⱼ·eⱼ) − F(w − hⱼ·eⱼ)) / (2hⱼ)` with
//! `hⱼ = 2^round(log₂(ε^{1/3}·max(1, |wⱼ|)))` ≈ 7.6e-6·max(1, |wⱼ|). The truncation error is
//! `hⱼ²/6·|F'''|` and the rounding error about `ε·|F|/hⱼ`: both near 1e-11 relative for
//! functions of order one, the balance point of the two (ε^{2/3}). The steps are powers of two,
//! so that `w ± hⱼ` are exact: a linear diagram (Gain, StateSpace, TransferFunction, Sum) at a
//! zero operating point gives its own coefficients exactly (`A·(h·eⱼ)` is exact). Each column
//! is also formed with `2hⱼ`; [`Linearization::error_estimate`] is the largest
//! `|D(hⱼ) − D(2hⱼ)|/3` over all entries, the estimate of `D(hⱼ)`'s truncation error for smooth
//! functions (Richardson). Each column costs four evaluations.
//!
//! **What is reported, not linearized through** ([`Linearization::warnings`]): blocks with a
//! sample time or time events (their held values and discrete states are fixed at the operating
//! point and are not states of `z`); zero crossings that are zero at the operating point or
//! change sign within the difference steps (the model switches there: the matrices are one-sided
//! at best); a mechanism with closed loops (its tree coordinates are not independent).
//!
//! **Trim** ([`trim()`]): an equilibrium `ż = 0` with the same names, inputs and states, by
//! Gauss–Newton / Levenberg–Marquardt on these differences (`blockdyn trim`).

mod coordinates;
mod error;
mod evaluate;
mod linearization;
mod names;
mod perturb;
mod trim;

pub use error::LinearizeError;
pub use linearization::Linearization;
pub use trim::{trim, Trim, TrimError, TrimSpec};

use crate::diagram::Diagram;

/// What to linearize: the names of the inputs and outputs and the operating time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinearizeSpec {
    /// `BLOCK.PORT` (an input port) or `BLOCK` (a source with one output `out`).
    pub inputs: Vec<String>,
    /// `BLOCK.PORT` (an output port).
    pub outputs: Vec<String>,
    /// The operating time T, s (0: the initial state).
    pub at: f64,
}

/// Linearizes `diagram` about the operating point of `spec`; see the module documentation.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // ẋ = −2x + u, y = 3x: A = [−2], B = [1], C = [3], D = [0], exactly.
/// let model = r#"
/// connect = ["u.out -> sum.in1", "sum.out -> x.in", "x.out -> k.in", "k.out -> sum.in2", "x.out -> y.in"]
/// [model]
/// stop_time = 1.0
/// [output]
/// log = ["y.out"]   # an output must be read (or logged) to be computed
/// [blocks.u]
/// type = "Constant"
/// value = 0.0
/// [blocks.x]
/// type = "Integrator"
/// [blocks.k]
/// type = "Gain"
/// gain = -2.0
/// [blocks.sum]
/// type = "Sum"
/// signs = "++"
/// [blocks.y]
/// type = "Gain"
/// gain = 3.0
/// "#;
/// let d = blockdyn::load_model_str("first_order.toml", model, &[])?;
/// let spec = blockdyn::sim::linearize::LinearizeSpec {
///     inputs: vec!["sum.in1".into()],
///     outputs: vec!["y.out".into()],
///     at: 0.0,
/// };
/// let lin = blockdyn::sim::linearize::linearize(&d, &spec)?;
/// assert_eq!(lin.states, ["x.x[0]"]);
/// assert_eq!((lin.a[(0, 0)], lin.b[(0, 0)], lin.c[(0, 0)], lin.d[(0, 0)]), (-2.0, 1.0, 3.0, 0.0));
/// # Ok(())
/// # }
/// ```
pub fn linearize(diagram: &Diagram, spec: &LinearizeSpec) -> Result<Linearization, LinearizeError> {
    check_spec(diagram, spec)?;
    let inputs = spec
        .inputs
        .iter()
        .map(|n| names::resolve_input(diagram, n))
        .collect::<Result<Vec<_>, _>>()?;
    let outputs = spec
        .outputs
        .iter()
        .map(|n| names::resolve_output(diagram, n))
        .collect::<Result<Vec<_>, _>>()?;
    evaluate::linearize_ports(diagram, &inputs, &outputs, spec.at)
}

/// Refuses an operating time outside [0, stop time] and an input named twice.
fn check_spec(diagram: &Diagram, spec: &LinearizeSpec) -> Result<(), LinearizeError> {
    let stop_time = diagram.run.stop_time;
    if !(spec.at.is_finite() && spec.at >= 0.0 && spec.at <= stop_time) {
        return Err(LinearizeError::Time {
            at: spec.at,
            stop_time,
        });
    }
    if let Some(k) = (1..spec.inputs.len()).find(|&k| {
        spec.inputs[..k]
            .iter()
            .any(|n| n.trim() == spec.inputs[k].trim())
    }) {
        return Err(LinearizeError::DuplicateInput {
            name: spec.inputs[k].trim().to_string(),
        });
    }
    Ok(())
}
