//! Errors of the constraint solvers.

use thiserror::Error;

/// Why a constraint problem could not be solved. Row and contact indices are those of the
/// caller's problem (row `i` of `A` and `b`; contact `c` of the contact list), so that the caller
/// can name the joint limit, loop closure or contact behind them.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ConstraintError {
    /// Inconsistent sizes of the problem's arrays.
    #[error("constraint problem: {what} has {got} entries, expected {expected}")]
    Dimension {
        /// Which array.
        what: &'static str,
        /// The size it should have.
        expected: usize,
        /// The size it has.
        got: usize,
    },
    /// More rows than the workspace was sized for.
    #[error("constraint problem with {rows} rows, but the workspace was sized for {capacity}: create the workspace with a larger capacity")]
    CapacityExceeded {
        /// Rows of the problem.
        rows: usize,
        /// Rows the workspace holds.
        capacity: usize,
    },
    /// A NaN or infinity in the problem.
    #[error("constraint row {row}: non-finite entry in A, b or the contact data")]
    NonFinite {
        /// The row.
        row: usize,
    },
    /// `A` is not symmetric (it must be `J M⁻¹ Jᵀ`).
    #[error("constraint matrix is not symmetric at ({row}, {column}): A must be J·M⁻¹·Jᵀ")]
    NotSymmetric {
        /// Row of the offending entry.
        row: usize,
        /// Column of the offending entry.
        column: usize,
    },
    /// A row of a kind the solver does not take, or a contact whose rows are laid out wrongly.
    #[error("constraint row {row}: {what}")]
    BadRow {
        /// The row.
        row: usize,
        /// What is wrong with it.
        what: &'static str,
    },
    /// A contact with bad parameters (negative or non-finite μ, zero sliding velocity, ...).
    #[error("contact {contact}: {what}")]
    BadContact {
        /// The contact.
        contact: usize,
        /// What is wrong with it.
        what: &'static str,
    },
    /// `A` is not positive semi-definite on the rows involved with `row`: the rows cannot come
    /// from `J M⁻¹ Jᵀ` with a positive definite mass matrix.
    #[error("constraint row {row}: the constraint matrix is not positive semi-definite (it cannot be J·M⁻¹·Jᵀ with a positive definite mass matrix)")]
    NotPositiveSemidefinite {
        /// The row whose pivot or driving direction revealed it.
        row: usize,
    },
    /// No force at `row` can satisfy it: increasing its force does not change its acceleration
    /// (the row is redundant with other rows that demand incompatible accelerations), so the
    /// complementarity problem has no solution.
    #[error("constraint row {row} cannot be satisfied: its force has no effect on its own acceleration once the other constraints hold (redundant constraints demanding incompatible accelerations)")]
    Infeasible {
        /// The row.
        row: usize,
    },
    /// The frictional problem has no solution (or the pivoting could not find one): the
    /// rigid-body Coulomb model is inconsistent at this contact (Painlevé's paradox).
    #[error("contact {contact} (normal row {row}): no contact force satisfies Coulomb friction here (Painlevé's paradox: μ too large for this configuration in a rigid model); lower μ or use a compliant contact")]
    FrictionInfeasible {
        /// The contact.
        contact: usize,
        /// Its normal row.
        row: usize,
    },
    /// The pivoting did not finish within its budget (cycling on a degenerate problem).
    #[error("constraint solver gave up after {pivots} pivots while resolving row {row} (cycling on a degenerate problem)")]
    PivotLimit {
        /// The row being resolved when the budget ran out.
        row: usize,
        /// Pivots made.
        pivots: usize,
    },
    /// Rounding destroyed the pivoting's feasibility (a near-singular basis) and no fallback
    /// found a solution.
    #[error("constraint row {row}: the pivoting lost feasibility to rounding (a nearly singular contact configuration) and no fallback found a solution")]
    Unstable {
        /// The row being resolved.
        row: usize,
    },
    /// The final check found a condition violated beyond the tolerance (an ill-conditioned `A`).
    #[error("constraint row {row}: the computed forces violate the constraint conditions by {violation:e} (relative); the constraint matrix is too ill-conditioned")]
    Inaccurate {
        /// The row.
        row: usize,
        /// The violation, relative to the problem's scale.
        violation: f64,
    },
    /// The mechanism's mass matrix is not positive definite (a body without mass or inertia
    /// along a joint's motion), found at the given velocity coordinate while factoring it to build
    /// `J·M⁻¹·Jᵀ`.
    #[error("the mass matrix is not positive definite at velocity coordinate {coordinate}: a joint moves a body without mass or inertia along its motion")]
    SingularMassMatrix {
        /// The velocity coordinate whose pivot was not positive.
        coordinate: usize,
    },
    /// A row couples a body index outside the body list.
    #[error("constraint row {row} couples body {body}, but there are only {bodies} bodies")]
    BodyOutOfRange {
        /// The row.
        row: usize,
        /// The bad body index.
        body: usize,
        /// Number of bodies.
        bodies: usize,
    },
}

/// `got == expected`, or the [`ConstraintError::Dimension`] of `what`.
pub(crate) fn check_len(
    what: &'static str,
    got: usize,
    expected: usize,
) -> Result<(), ConstraintError> {
    if got == expected {
        Ok(())
    } else {
        Err(ConstraintError::Dimension {
            what,
            expected,
            got,
        })
    }
}

impl ConstraintError {
    /// The row the error is about, if it names one (for the caller to name the contact, limit or
    /// closure behind it).
    pub fn row(&self) -> Option<usize> {
        match *self {
            ConstraintError::NonFinite { row }
            | ConstraintError::NotSymmetric { row, .. }
            | ConstraintError::BadRow { row, .. }
            | ConstraintError::NotPositiveSemidefinite { row }
            | ConstraintError::Infeasible { row }
            | ConstraintError::FrictionInfeasible { row, .. }
            | ConstraintError::PivotLimit { row, .. }
            | ConstraintError::Unstable { row }
            | ConstraintError::Inaccurate { row, .. }
            | ConstraintError::BodyOutOfRange { row, .. } => Some(row),
            ConstraintError::Dimension { .. }
            | ConstraintError::CapacityExceeded { .. }
            | ConstraintError::BadContact { .. }
            | ConstraintError::SingularMassMatrix { .. } => None,
        }
    }
}
