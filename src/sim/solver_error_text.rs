//! A solver error told in the model's terms: the state, block and contact it concerns, and what
//! to write instead (the stall advice names the method the run was on and the stiffest contact).

use super::{solver_options, Engine, SimError};
use crate::diagram::Diagram;
use crate::solver::{Method, SolverError};

fn state_name(d: &Diagram, k: usize) -> String {
    match d.block_of_state(k) {
        Some(b) => format!(
            "{} of block '{}'",
            b.block.state_name(k - b.states.start),
            b.name
        ),
        None => format!("x[{k}]"),
    }
}

pub(crate) fn map_solver_error(d: &Diagram, engine: &Engine<'_>, e: SolverError) -> SimError {
    match e {
        // The blame found at the stage that stopped the run (same time); an older one, from a
        // stage the solver recovered from, does not explain this error.
        SolverError::NonFinite { t, index } => {
            // A block that says why it failed (the blamed one first, else any).
            let blamed = engine.run.non_finite.as_ref().map(|src| src.block);
            let failure = blamed.into_iter().chain(0..d.blocks.len()).find_map(|b| {
                engine
                    .block_failure(b)
                    .map(|message| (d.blocks[b].name.clone(), message))
            });
            if let Some((block, message)) = failure {
                return SimError::BlockFailed { block, message, t };
            }
            match engine.run.non_finite.as_ref().filter(|src| src.t == t) {
                Some(src) => {
                    let (block, what) = src.describe(d);
                    SimError::NonFinite {
                        block,
                        what,
                        t: src.t,
                    }
                }
                None => {
                    let (block, what) = match d.block_of_state(index) {
                        Some(b) => (
                            b.name.clone(),
                            format!("state {}", b.block.state_name(index - b.states.start)),
                        ),
                        None => ("?".into(), format!("state x[{index}]")),
                    };
                    SimError::NonFinite { block, what, t }
                }
            }
        }
        SolverError::StepSizeUnderflow { t, step, index } => SimError::StepSizeUnderflow {
            t,
            step,
            state: index.map_or_else(|| "unknown".to_string(), |k| state_name(d, k)),
        },
        SolverError::Chattering { t, index, count } => {
            let (block, crossing) = match d.block_of_zero_crossing(index) {
                Some(b) => (b.name.clone(), index - b.zero_crossings.start),
                None => ("?".into(), index),
            };
            SimError::Chattering {
                block,
                crossing,
                t,
                count,
            }
        }
        SolverError::TimeDoesNotAdvance { t, step } => SimError::TimeDoesNotAdvance {
            t,
            step,
            resolution: f64::EPSILON * t.abs().max(f64::MIN_POSITIVE),
        },
        SolverError::TimeEventFlood { t, count } => SimError::TimeEventFlood { t, count },
        SolverError::Stalled {
            t,
            step,
            reason,
            index,
        } => {
            let contact = stiffest_contact(d, engine, step);
            SimError::Stalled {
                t,
                step,
                reason: reason.to_string(),
                stiffest: match index.and_then(|k| d.block_of_state(k).map(|b| (k, b))) {
                    Some((k, b)) => {
                        format!("'{}' ({})", b.name, b.block.state_name(k - b.states.start))
                    }
                    None => NO_STIFFEST_STATE.into(),
                },
                contact: contact.as_ref().map_or_else(String::new, |c| c.0.clone()),
                help: contact.map_or_else(|| stall_help(d, engine), |c| c.1),
            }
        }
        SolverError::InvalidOptions(m) => SimError::InvalidOptions(m),
        SolverError::Interrupted { t } => SimError::Interrupted { t },
        SolverError::IslandsNotJoined { t } => SimError::Islands { t },
    }
}

/// The stall message's stiffest block when no state's error set the step.
const NO_STIFFEST_STATE: &str =
    "none (no state's error set the step size: fixed steps, or steps cut short by time events)";

/// The stall message's advice when no contact explains the step: the stiff solver when the run
/// stalled under an explicit method, else gentler parameters (an implicit method that stalls is
/// held back by accuracy, not by stability). RKC is explicit but stabilised: its stages carry
/// the stiffness of modes near the negative real axis, so its steps are held by its second
/// order's accuracy or by oscillatory modes (outside its stability strip).
fn stall_help(d: &Diagram, engine: &Engine<'_>) -> String {
    const GENTLER: &str =
        "give that block gentler parameters (lower stiffness or damping, slower poles, a start outside contact)";
    match method_at_stall(d, engine) {
        Method::Trbdf2 | Method::Esdirk43 | Method::Ros34pw2 => format!("the run was on an implicit method, whose steps follow the accuracy the tolerances ask for: loosen rel_tol/abs_tol, or {GENTLER}"),
        Method::Rkc => format!("the run was on rkc, whose stages carry damped stiff modes but whose second order holds its steps to the accuracy asked, and which oscillatory modes hold as any explicit method: write method = \"trbdf2\" under [solver] (the stiff solver), loosen rel_tol/abs_tol, or {GENTLER}"),
        _ => format!("write method = \"trbdf2\" under [solver] (the stiff solver; \"auto\", the default, switches to it only where it detects stiffness), or {GENTLER}"),
    }
}

/// The method in use when the run stopped (the named method, or auto's phase then).
fn method_at_stall(d: &Diagram, engine: &Engine<'_>) -> Method {
    engine
        .run
        .method
        .unwrap_or_else(|| solver_options(d).method)
}

/// Whether the method in use when the run stopped was an explicit one of bounded stability
/// (dopri5's reach, about 3/rate; not RKC, whose reach grows with its stages, nor the implicit
/// methods).
fn explicit_at_stall(d: &Diagram, engine: &Engine<'_>) -> bool {
    !matches!(
        method_at_stall(d, engine),
        Method::Trbdf2 | Method::Esdirk43 | Method::Rkc | Method::Ros34pw2
    )
}

/// The block whose last evaluation gives the fastest rate (a contact's normal, sliding or
/// twisting mode, see [`crate::block::Advice::stiffness`]) when that rate explains the recent step
/// `step` (s): rate·step ≥ 0.3, where an explicit method's step is bounded by its stability
/// (about 3/rate) rather than by accuracy. Returns the stall message's line naming it (starting
/// with a newline) and its advice.
fn stiffest_contact(d: &Diagram, engine: &Engine<'_>, step: f64) -> Option<(String, String)> {
    if !explicit_at_stall(d, engine) {
        return None;
    }
    let (b, note) = (0..d.blocks.len())
        .filter_map(|b| engine.block_stiffness(b).map(|note| (b, note)))
        .max_by(|a, b| a.1.rate.total_cmp(&b.1.rate))?;
    (note.rate * step >= 0.3).then(|| {
        (
            format!(
                "\n  stiffest contact: '{}' {}: a rate of {:.1e} 1/s, so explicit steps below about {:.1e} s",
                d.blocks[b].name,
                note.what,
                note.rate,
                Method::Dopri5.stability_reach() / note.rate,
            ),
            format!(
                "{}, or write method = \"trbdf2\" under [solver] (the stiff solver steps over it)",
                note.help
            ),
        )
    })
}
