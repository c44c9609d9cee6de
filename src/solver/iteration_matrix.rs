//! The linear algebra every method with a Jacobian shares (TR-BDF2 and ESDIRK 4(3) in `trbdf2`,
//! the Rosenbrock W-method in `rosenbrock`): J = ∂f/∂x by forward differences, column group by
//! column group from the system's sparsity pattern (`jacobian`, `column_groups`), and the
//! factorisation of M = I − h·γ·J, dense or sparse (`newton_matrix`), with the counts of each in
//! [`SolverStats`].
//!
//! **Path.** The sparse path (J in its column-compressed pattern, M factored by `SparseLu`) is
//! taken from [`SPARSE_MIN_STATES`] states on, when the pattern holds at most
//! [`SPARSE_MAX_DENSITY`] of the n² entries and the filled pattern of M's factors at most
//! [`SPARSE_MAX_FILL`]; the pattern is asked from the system once per run, or before every
//! Jacobian when [`System::jacobian_sparsity_varies`].

use super::column_groups::ColumnGroups;
use super::finite::first_non_finite;
use super::jacobian::{fd_jacobian, FdWork};
use super::newton_matrix::{NewtonMatrix, MAX_IMPLICIT_STATES};
use super::{SolverStats, System};

/// The sparse path is taken from this many states on, when the pattern is sparse enough
/// (below). Under it a dense LU costs at most n³/3 ≈ 7·10⁵ flops and the run stays on the dense
/// path, bit for bit as before.
pub(crate) const SPARSE_MIN_STATES: usize = 128;
/// ... and when J's pattern holds at most this fraction of the n² entries ...
const SPARSE_MAX_DENSITY: f64 = 0.125;
/// ... and the filled pattern of M's factors at most this fraction (more fill, and the dense
/// LU's contiguous loops win over the sparse one's indirection).
const SPARSE_MAX_FILL: f64 = 0.25;

/// Why a step of a method with a Jacobian failed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ImplicitFailure {
    /// f was not finite at (t, component).
    NonFinite(f64, usize),
    /// Newton did not converge (or M was singular) with a Jacobian of the step start.
    Newton,
    /// The Jacobian at time t needs the dense path and the model is above
    /// `MAX_IMPLICIT_STATES` states (`newton_matrix::DenseRefused`).
    DenseRefused(f64),
}

/// Where a method's J stands relative to the current step start (trbdf2 and ros34pw2 decide
/// when to form it again from this).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JacobianState {
    /// None usable (start of a run, after a state-changing event): formed at the next step start.
    Missing,
    /// Formed at the current step start.
    Current,
    /// Formed at an earlier step start.
    Stale,
}

/// Where J's difference quotients take f(t, x) from.
pub(crate) enum FStart<'a> {
    /// Evaluated afresh into this buffer (one evaluation, checked finite).
    Evaluate(&'a mut [f64]),
    /// Given: evaluated at exactly (t, x) by the caller, and finite (ros34pw2's step start).
    Given(&'a [f64]),
}

/// J, its column groups and M's factorisation (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct IterationMatrix {
    /// J and M's factorisation, dense or sparse (`newton_matrix`).
    pub(crate) newton: NewtonMatrix,
    /// The column groups of the difference Jacobian, from the system's sparsity pattern.
    pub(crate) groups: ColumnGroups,
    /// The groups were set up for the current run.
    groups_ready: bool,
}

impl IterationMatrix {
    /// Buffers for n states.
    pub(crate) fn new(n: usize) -> Self {
        let mut groups = ColumnGroups::new(n);
        if n > MAX_IMPLICIT_STATES {
            // A pattern keeps at most as many entries as a dense one at the limit: a denser one
            // is refused anyway (`form_jacobian`), and declaring it costs no more.
            groups.limit_pattern(MAX_IMPLICIT_STATES * MAX_IMPLICIT_STATES);
        }
        Self {
            newton: NewtonMatrix::new(n),
            groups,
            groups_ready: false,
        }
    }

    /// Allows (true, the default) or forbids the sparse LU path.
    pub(crate) fn with_sparse_lu(mut self, allowed: bool) -> Self {
        self.newton = self.newton.with_sparse_lu(allowed);
        self
    }

    /// A run starts: the column groups are asked from the system again.
    pub(crate) fn start_run(&mut self) {
        self.groups_ready = false;
        self.newton.new_run();
    }

    /// J at (t, x) by forward differences: f(t, x) from `f_0` (evaluated afresh, one evaluation,
    /// or given), then one evaluation per column group. M must then be factored again.
    pub(crate) fn form_jacobian<S: System>(
        &mut self,
        system: &mut S,
        (t, x): (f64, &[f64]),
        f_0: FStart<'_>,
        work: FdWork<'_>,
        stats: &mut SolverStats,
    ) -> Result<(), ImplicitFailure> {
        if !self.groups_ready || system.jacobian_sparsity_varies() {
            // A pattern past its limit (above MAX_IMPLICIT_STATES: denser than a dense one
            // at the limit) is dense.
            if system.jacobian_sparsity(self.groups.pattern_mut()) && !self.groups.overflowed() {
                if self.groups.set_pattern() {
                    let limits = (SPARSE_MAX_DENSITY, SPARSE_MAX_FILL);
                    let newton = &mut self.newton;
                    let analysed = newton.choose_path(&self.groups, SPARSE_MIN_STATES, limits);
                    stats.sparse_analyses += usize::from(analysed);
                }
            } else {
                self.groups.set_dense();
                self.newton.set_dense();
            }
            self.groups_ready = true;
        }
        // Refused before any evaluation: the run stops where it stands.
        let out = self
            .newton
            .jacobian_out()
            .map_err(|_| ImplicitFailure::DenseRefused(t))?;
        let f_0: &[f64] = match f_0 {
            FStart::Given(f_0) => f_0,
            FStart::Evaluate(f_0) => {
                system.derivatives(t, x, f_0);
                stats.function_evaluations += 1;
                if let Some(i) = first_non_finite(f_0) {
                    system.non_finite_derivative(t, x);
                    return Err(ImplicitFailure::NonFinite(t, i));
                }
                f_0
            }
        };
        fd_jacobian(
            system,
            (t, x, f_0),
            out,
            &self.groups,
            work,
            &mut stats.function_evaluations,
        )
        .map_err(|(t, i)| ImplicitFailure::NonFinite(t, i))?;
        stats.jacobian_evaluations += 1;
        Ok(())
    }

    /// Factors M = I − hd·J (counted in `stats`); a singular M is a [`ImplicitFailure::Newton`].
    pub(crate) fn factor(
        &mut self,
        hd: f64,
        stats: &mut SolverStats,
    ) -> Result<(), ImplicitFailure> {
        stats.lu_factorizations += 1;
        let sparse = self
            .newton
            .factor(hd, &self.groups)
            .map_err(|_| ImplicitFailure::Newton)?;
        stats.sparse_lu_factorizations += usize::from(sparse);
        Ok(())
    }

    /// Solves M·y = b in place with M's current factorisation.
    pub(crate) fn solve(&mut self, b: &mut [f64]) {
        self.newton.solve(b);
    }
}
