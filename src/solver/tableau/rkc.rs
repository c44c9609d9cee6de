//! RKC's place in the loop's terms (the method itself: `solver::rkc`).
//!
//! RKC has no fixed Butcher tableau: its number of stages s changes from step to step and its
//! coefficients come from a recurrence (`rkc::ChebyshevStages`). The loop reads a tableau for
//! what is common to every method, and this one says exactly that: an error-controlled method
//! (the loop is adaptive when `e` is `Some`) of order 2 with an O(h³) estimate, whose derivative
//! at the step end, f(t + h, x_new), is evaluated by the step (FSAL, in stage slot 1 of the two),
//! with cubic Hermite dense output between f(t, x) and f(t + h, x_new). Its `a`, `b` and `e`
//! (those of the explicit trapezoidal rule, Heun's method, with its Euler estimate) are never
//! used to take a step: `Solver::trial_step` sends RKC's steps to `rkc`.

use super::{own_step_method, Tableau};

/// RKC as the loop sees it (see the module documentation).
pub(crate) static RKC: Tableau = own_step_method(2, 2);
