//! Contact: the force laws shared by the contact blocks (which live in `crate::blocks::contact`).
//!
//! The laws are pure functions of penetration, velocities and states (no diagram needed):
//! [`normal_force`] (penalty normal force magnitudes) and their kinks as zero-crossing functions
//! ([`law_kinks`]), [`friction`] (velocity-dependent friction
//! coefficients and forces), [`ground_law`] (spatial_v2's compliant ground per point) and
//! [`resultant`] (the equivalent force, point and torque of a set of contact forces).

pub mod friction;
pub mod ground_law;
pub mod law_kinks;
pub mod law_methods;
pub(crate) mod manifold_force;
pub mod normal_force;
pub mod resultant;
