//! The frictional complementarity problem of [`solve_frictional`](super::friction::solve_frictional)
//! assembled from the rows: layout checks, elimination of the bilateral rows, the variables
//! (normal forces, direction multipliers β, slacks λ) and the scaled matrix `M`, vector `q`.

use super::errors::ConstraintError;
use super::friction_problem::{
    ContactMotion, FrictionWorkspace, FrictionalContact, Pattern, Role, Variable,
};
use super::lcp::RowKind;
use nalgebra::DMatrixView;

/// Checks the contacts' row layout, μ and sliding velocities; marks the rows contacts own.
pub(super) fn validate_contacts(
    kinds: &[RowKind],
    contacts: &[FrictionalContact],
    claimed: &mut [bool],
) -> Result<(), ConstraintError> {
    let n = kinds.len();
    claimed.fill(false);
    for (c, contact) in contacts.iter().enumerate() {
        let bad = |what| ConstraintError::BadContact { contact: c, what };
        let (row, t) = (contact.normal_row, contact.tangent_rows);
        if t > 2 {
            return Err(bad(
                "a contact has 0, 1 (planar) or 2 (spatial) tangent rows",
            ));
        }
        if row + t >= n {
            return Err(bad("its rows are beyond the problem's rows"));
        }
        if !contact.mu.is_finite() || contact.mu < 0.0 {
            return Err(bad(
                "the friction coefficient must be finite and non-negative",
            ));
        }
        if let ContactMotion::Sliding { velocity } = contact.motion {
            let speed = velocity[..t].iter().map(|v| v * v).sum::<f64>().sqrt();
            if t > 0 && !(speed.is_finite() && speed > 0.0) {
                return Err(bad(
                    "sliding needs a finite, non-zero tangential velocity (use Sticking at rest)",
                ));
            }
        }
        for (k, r) in (row..=row + t).enumerate() {
            let expected = if k == 0 {
                RowKind::Unilateral
            } else {
                RowKind::Tangent
            };
            if kinds[r] != expected {
                return Err(ConstraintError::BadRow {
                    row: r,
                    what: "a contact's normal row must be Unilateral and its tangent rows Tangent",
                });
            }
            if std::mem::replace(&mut claimed[r], true) {
                return Err(ConstraintError::BadRow {
                    row: r,
                    what: "row owned by two contacts",
                });
            }
        }
    }
    if let Some(row) = (0..n).find(|&r| kinds[r] == RowKind::Tangent && !claimed[r]) {
        return Err(ConstraintError::BadRow {
            row,
            what: "a Tangent row that no contact owns",
        });
    }
    Ok(())
}

/// `Ã`, `b̃` by eliminating the bilateral rows (module documentation).
pub(super) fn eliminate_bilateral(
    a: &DMatrixView<'_, f64>,
    b: &[f64],
    kinds: &[RowKind],
    ws: &mut FrictionWorkspace,
) -> Result<(), ConstraintError> {
    let n = b.len();
    let FrictionWorkspace {
        capacity: cap,
        bilateral,
        reduced_a,
        reduced_b,
        elimination,
        elimination_b,
        column,
        ldl,
        ..
    } = ws;
    let cap = *cap;
    bilateral.clear();
    bilateral.extend((0..n).filter(|&i| kinds[i] == RowKind::Bilateral));
    let nb = bilateral.len();
    ldl.factor(nb, |i, j| a[(bilateral[i], bilateral[j])])
        .map_err(|k| ConstraintError::NotPositiveSemidefinite { row: bilateral[k] })?;
    for (k, &r) in bilateral.iter().enumerate() {
        elimination_b[k] = b[r];
    }
    ldl.solve_in_place(&mut elimination_b[..nb]);
    let others = || (0..n).filter(|&o| kinds[o] != RowKind::Bilateral);
    for o in others() {
        for (k, &r) in bilateral.iter().enumerate() {
            column[k] = a[(r, o)];
        }
        ldl.solve_in_place(&mut column[..nb]);
        for k in 0..nb {
            elimination[k * cap + o] = column[k];
        }
    }
    for r in others() {
        for s in others() {
            let mut v = a[(r, s)];
            for (k, &rb) in bilateral.iter().enumerate() {
                v -= a[(r, rb)] * elimination[k * cap + s];
            }
            reduced_a[r * cap + s] = v;
        }
        let mut v = b[r];
        for (k, &rb) in bilateral.iter().enumerate() {
            v -= a[(r, rb)] * elimination_b[k];
        }
        reduced_b[r] = v;
    }
    Ok(())
}

/// Unit direction `j` of `k` in the tangent plane, at angle `2πj/k` from the unit `heading`
/// (tangent basis; rounding noise set to 0).
fn direction(j: usize, k: usize, heading: [f64; 2]) -> (f64, f64) {
    let angle = std::f64::consts::TAU * j as f64 / k as f64;
    let clean = |x: f64| if x.abs() < 1e-12 { 0.0 } else { x };
    let (c, s) = (clean(angle.cos()), clean(angle.sin()));
    let [hc, hs] = heading;
    (clean(hc * c - hs * s), clean(hs * c + hc * s))
}

/// The variables: one per frictionless unilateral row, then per contact its normal force and,
/// if sticking with friction, its direction multipliers and slack.
pub(super) fn build_variables(
    kinds: &[RowKind],
    contacts: &[FrictionalContact],
    ws: &mut FrictionWorkspace,
) {
    let vars = &mut ws.variables;
    vars.clear();
    for r in (0..kinds.len()).filter(|&r| kinds[r] == RowKind::Unilateral && !ws.claimed[r]) {
        let p = Pattern::one(r, 1.0);
        vars.push(Variable {
            role: Role::Row,
            row: r,
            contact: None,
            force: p,
            measure: p,
        });
    }
    for (c, contact) in contacts.iter().enumerate() {
        let (row, t) = (contact.normal_row, contact.tangent_rows);
        let p = Pattern::one(row, 1.0);
        let variable = |role, force: Pattern| Variable {
            role,
            row,
            contact: Some(c),
            force,
            measure: if role == Role::Row { p } else { force },
        };
        if contact.mu == 0.0 || t == 0 {
            vars.push(variable(Role::Row, p));
            continue;
        }
        match contact.motion {
            ContactMotion::Sliding { velocity } => {
                let speed = velocity[..t].iter().map(|v| v * v).sum::<f64>().sqrt();
                let mut force = p;
                for (k, v) in velocity[..t].iter().enumerate() {
                    force.push(row + 1 + k, -contact.mu * v / speed);
                }
                vars.push(variable(Role::Row, force));
            }
            ContactMotion::Sticking => {
                vars.push(variable(Role::Row, p));
                let (k, heading) = if t == 1 {
                    (2, [1.0, 0.0])
                } else {
                    (ws.settings.directions_3d, contact.heading)
                };
                for j in 0..k {
                    let (cos, sin) = direction(j, k, heading);
                    let mut d = Pattern::default();
                    for (offset, x) in [(1, cos), (2, sin)].into_iter().take(t) {
                        if x != 0.0 {
                            d.push(row + offset, x);
                        }
                    }
                    vars.push(variable(Role::Direction, d));
                }
                vars.push(variable(Role::Slack, Pattern::default()));
            }
        }
    }
    debug_assert!(
        vars.len() <= ws.var_capacity,
        "variable bound of FrictionWorkspace"
    );
}

/// Fills `M / s` and `q / ‖q‖∞`; returns `‖q‖∞` (1 if q = 0).
pub(super) fn build_lcp(contacts: &[FrictionalContact], s: f64, ws: &mut FrictionWorkspace) -> f64 {
    let (cap, vc, nv) = (ws.capacity, ws.var_capacity, ws.variables.len());
    let vars = &ws.variables;
    let mut q_scale = 0.0f64;
    for (i, vi) in vars.iter().enumerate() {
        for (j, vj) in vars.iter().enumerate() {
            let mut value = 0.0;
            for &(r, alpha) in vi.measure.terms() {
                for &(c, beta) in vj.force.terms() {
                    value += alpha * beta * ws.reduced_a[r * cap + c];
                }
            }
            if vi.contact == vj.contact {
                value += match (vi.role, vj.role) {
                    (Role::Direction, Role::Slack) => s,
                    (Role::Slack, Role::Row) => s * contacts[vi.contact.unwrap_or(0)].mu,
                    (Role::Slack, Role::Direction) => -s,
                    _ => 0.0,
                };
            }
            ws.m[i * vc + j] = value / s;
        }
        let qi: f64 = vi
            .measure
            .terms()
            .iter()
            .map(|&(r, alpha)| alpha * ws.reduced_b[r])
            .sum();
        ws.q[i] = qi;
        q_scale = q_scale.max(qi.abs());
    }
    if q_scale == 0.0 {
        q_scale = 1.0;
    }
    for qi in &mut ws.q[..nv] {
        *qi /= q_scale;
    }
    q_scale
}
