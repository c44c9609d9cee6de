//! One trial step of an explicit Runge–Kutta tableau, and the dense output of an accepted step.
//!
//! Stage derivatives live in one flat buffer `k` of `(stages + 1)·n` values: slot j holds kⱼ,
//! slot 0 is f(t, x) at the step start. The derivative at the step end, f(t_new, x_new), is in
//! slot `stages − 1` for FSAL tableaux (their last stage) and in slot `stages` otherwise (evaluated
//! after acceptance by the caller).

use super::finite::first_non_finite;
use super::tableau::{dopri5_interpolate_component, hermite, DenseOutput, Tableau, DOPRI5_DENSE};
use super::System;

/// Slot of f(t_new, x_new) in the stage buffer.
pub(crate) fn end_slot(tab: &Tableau) -> usize {
    if tab.fsal {
        tab.stages - 1
    } else {
        tab.stages
    }
}

/// Buffers of one step (all of length n, `k` of length (stages + 1)·n).
pub(crate) struct StepBuffers<'a> {
    pub x: &'a [f64],
    pub k: &'a mut [f64],
    pub x_stage: &'a mut [f64],
    pub x_new: &'a mut [f64],
    pub err: &'a mut [f64],
}

/// Computes stages 2..s from (t, x) with k₁ = f(t, x) already in slot 0, the propagated
/// solution `x_new` and (embedded pairs) the error estimate `err`. `t_new` is the exact end time
/// (used for stages with c = 1, so that landing steps evaluate at the landing time bitwise).
/// Returns the stage time and component of the first non-finite derivative, if any.
pub(crate) fn rk_trial_step<S: System>(
    tab: &Tableau,
    system: &mut S,
    t: f64,
    h: f64,
    t_new: f64,
    buf: StepBuffers<'_>,
    evaluations: &mut usize,
) -> Result<(), (f64, usize)> {
    let n = buf.x.len();
    let StepBuffers {
        x,
        k,
        x_stage,
        x_new,
        err,
    } = buf;
    for s in 1..tab.stages {
        let row = tab.a[s];
        let fsal_last = tab.fsal && s == tab.stages - 1;
        let input: &mut [f64] = if fsal_last { x_new } else { x_stage };
        combine(input, Some(x), h, row, k);
        let ts = if tab.c[s] == 1.0 {
            t_new
        } else {
            t + tab.c[s] * h
        };
        let ks = &mut k[s * n..(s + 1) * n];
        system.derivatives(ts, input, ks);
        *evaluations += 1;
        if let Some(i) = first_non_finite(ks) {
            system.non_finite_derivative(ts, input);
            return Err((ts, i));
        }
    }
    if !tab.fsal {
        combine(x_new, Some(x), h, tab.b, k);
    }
    if let Some(e) = tab.e {
        combine(err, None, h, e, k);
    }
    Ok(())
}

/// out = base + h·Σⱼ coeffsⱼ·kⱼ (base = 0 when `None`), where kⱼ is slot j of `k`. The
/// increment is summed first and added to `base` last, so that small increments of large
/// states are not rounded away term by term; the loops run over contiguous slots.
fn combine(out: &mut [f64], base: Option<&[f64]>, h: f64, coeffs: &[f64], k: &[f64]) {
    let n = out.len();
    out.fill(0.0);
    for (j, &c) in coeffs.iter().enumerate() {
        if c != 0.0 {
            let hc = h * c;
            for (o, kj) in out.iter_mut().zip(&k[j * n..(j + 1) * n]) {
                *o += hc * kj;
            }
        }
    }
    if let Some(base) = base {
        for (o, b) in out.iter_mut().zip(base) {
            *o += b;
        }
    }
}

/// Precomputes the per-step part of the dense output (`d` = h·Σⱼ dⱼ·kⱼ for Dormand–Prince;
/// nothing for Hermite).
pub(crate) fn prepare_dense(tab: &Tableau, h: f64, k: &[f64], d: &mut [f64]) {
    if tab.dense == DenseOutput::Dopri5 {
        combine(d, None, h, &DOPRI5_DENSE, k);
    }
}

/// An accepted step (t, x) → (t + h, x_new) with its stage derivatives, for dense output.
pub(crate) struct DenseStep<'a> {
    pub tab: &'a Tableau,
    pub h: f64,
    pub x: &'a [f64],
    pub x_new: &'a [f64],
    pub k: &'a [f64],
    /// Per-step coefficients from [`prepare_dense`].
    pub d: &'a [f64],
}

impl DenseStep<'_> {
    /// The dense output at θ = (t_out − t)/h ∈ [0, 1] into `out`.
    pub(crate) fn interpolate(&self, theta: f64, out: &mut [f64]) {
        let Self {
            tab,
            h,
            x,
            x_new,
            k,
            d,
        } = *self;
        let n = x.len();
        let end = end_slot(tab) * n;
        match tab.dense {
            DenseOutput::Dopri5 => {
                for i in 0..n {
                    let (hk1, hk7) = (h * k[i], h * k[end + i]);
                    out[i] = dopri5_interpolate_component(theta, x[i], x_new[i], hk1, hk7, d[i]);
                }
            }
            DenseOutput::Hermite => {
                for i in 0..n {
                    out[i] = hermite(theta, x[i], x_new[i], h * k[i], h * k[end + i]);
                }
            }
        }
    }
}
