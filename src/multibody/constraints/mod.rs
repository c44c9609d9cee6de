//! Constraint forces of rigid contacts, joint limits and loop closures, as complementarity
//! problems over constraint rows. Pure solvers: they take the matrices and know nothing of
//! bodies, blocks or diagrams.
//!
//! # The problem
//!
//! For n constraint rows with Jacobian `J` (n × nv) and mass matrix `M`, the row accelerations are
//! `a = A f + b` with `A = J M⁻¹ Jᵀ` (symmetric positive semi-definite; (m/s²)/N for force rows)
//! and `b = J M⁻¹ (τ − C) + J̇ v` (m/s²: the accelerations without constraint forces, velocity
//! products included); `f` (N, or N·m for rotational rows) are the row forces, applied to the
//! mechanism as `Jᵀ f`. Each row is
//!
//! - **unilateral** (contact normals, rigid joint-limit bounds): `a_i ≥ 0, f_i ≥ 0, a_i·f_i = 0`;
//! - **bilateral** (loop closures, locked limits): `a_i = 0`, `f_i` of either sign;
//! - **tangent** (friction rows of a contact, with `friction.rs` only).
//!
//! # The solvers
//!
//! - [`solve_lcp`] (`lcp.rs`): frictionless problems by Baraff's incremental pivoting ("Fast
//!   contact force computation for nonpenetrating rigid bodies", SIGGRAPH 94), exact, tolerant of
//!   redundant rows (the four corners of a box: `A` of rank 3);
//! - [`solve_frictional`] (`friction.rs`): Coulomb friction with μ static = dynamic, by the
//!   polyhedral-cone complementarity problem of Stewart–Trinkle / Anitescu–Potra solved exactly
//!   (`complementarity.rs`: a warm start from the previous contact mode, Lemke's pivoting with the
//!   lexicographic anti-cycling rule in `lemke.rs`, and as exact fallbacks the enumeration of
//!   complementary bases up to 14 variables and a branch-and-bound search over complementary
//!   pairs with a linear-programming test per node above (`branch.rs`); not an iterative projected Gauss–Seidel); sliding
//!   contacts use the exact isotropic law; Painlevé's paradox is reported naming the contact;
//! - [`solve_impulses`] (`impulse.rs`): collision impulses with Newton's restitution per row, the
//!   same problem at the velocity level;
//! - [`solve_frictional_impulses`] (`impulse_friction.rs`): collision impulses with Coulomb
//!   friction in two phases (compression, restitution to Newton's target) and a kinetic-energy
//!   cap;
//! - [`RowGroups`] (`groups.rs`): partitions the rows into independent groups (rows sharing no
//!   moving body) by union–find, so each group is solved apart.
//!
//! Errors ([`ConstraintError`]) name the row or contact concerned, so the caller can name the
//! contact, joint limit or loop closure behind it. Tolerances are relative to the scale of `A`
//! (`max A_ii`) and `b` (`‖b‖∞`) and documented with each solver. Workspaces ([`LcpWorkspace`],
//! [`FrictionWorkspace`], [`RowGroups`]) are sized once for a maximum number of rows and reused:
//! no solve allocates, and problems smaller than the capacity may pass a sub-view of a
//! capacity-sized matrix.
//!
//! Typical use, a stack of two 1 kg boxes on the ground (gaps `y₁` and `y₂ − y₁`):
//! ```
//! use blockdyn::multibody::constraints::*;
//! use nalgebra::DMatrix;
//! // J = [1 0; −1 1], M = I: A = J Jᵀ, b = J M⁻¹ (−g, −g) = (−g, 0).
//! let a = DMatrix::from_row_slice(2, 2, &[1.0, -1.0, -1.0, 2.0]);
//! let b = [-9.81, 0.0];
//! let mut ws = LcpWorkspace::new(8);
//! let mut f = [0.0; 2];
//! solve_lcp(a.as_view(), &b, &[RowKind::Unilateral; 2], &mut ws, &mut f).unwrap();
//! assert!((f[0] - 2.0 * 9.81).abs() < 1e-12 && (f[1] - 9.81).abs() < 1e-12);
//! assert!(ws.accelerations().iter().all(|a| a.abs() < 1e-12));
//! ```

mod branch;
pub(crate) mod complementarity;
pub(crate) mod errors;
pub(crate) mod friction;
mod friction_problem;
mod friction_setup;
pub(crate) mod groups;
pub(crate) mod impulse;
pub(crate) mod impulse_friction;
pub(crate) mod lcp;
mod lcp_problem;
mod ldl;
mod lemke;
mod principal;
pub(crate) mod rows;
#[cfg(test)]
mod testutil;

pub use complementarity::SolveMethod;
pub use errors::ConstraintError;
pub use friction::{solve_frictional, FrictionStats};
pub use friction_problem::{ContactMotion, FrictionSettings, FrictionWorkspace, FrictionalContact};
pub use groups::{RowGroups, WORLD};
pub use impulse::solve_impulses;
pub use impulse_friction::{solve_frictional_impulses, ImpactOutcome, ImpulseWorkspace};
pub use lcp::{solve_lcp, LcpSettings, LcpStats, LcpWorkspace, RowKind};
pub use rows::{ConstraintRows, ContactRow};
