//! The API's way to a parameter set or vector: [`Blueprint`]'s methods, which check that the
//! diagram is the blueprint's and hand its view ([`Built`](crate::diagram::blueprint::Built)) to
//! the set's compilation (`mod.rs`) or the vector's layout (`vector.rs`). A set is made from a
//! blueprint, never the reverse: these methods live here, above both, rather than in
//! `blueprint.rs`, which knows nothing of sets.

use super::{ParameterSet, ParameterVector};
use crate::diagram::blueprint::Blueprint;
use crate::diagram::Diagram;
use crate::model::{Diagnostic, Override};

/// The blueprint's methods that make a set or a vector for its diagram.
impl Blueprint {
    /// Compiles parameter overrides ([`Override`]s of `block.param[.sub...]`, as `--set` gives
    /// them) for runs of `diagram`, this blueprint's diagram; see [`crate::diagram::parameters`] for what
    /// can be overridden. A bare name sets a model variable (`length=0.7`): every parameter that
    /// depends on it follows, as in a build with `--set length=0.7`; assignments to block
    /// parameters apply after those. Errors name the assignment, the block and what to do
    /// instead; a diagram of another build is refused.
    pub fn parameters(
        &self,
        diagram: &Diagram,
        assignments: &[Override],
    ) -> Result<ParameterSet, Diagnostic> {
        self.with(diagram)?.parameters(assignments)
    }

    /// Lays out a [`ParameterVector`] of the scalar parameters at `paths` (`block.param[.sub...]`,
    /// `[i]` after the last key for element `i` of an array of numbers; a bare name is a model
    /// variable), each starting at the value `diagram` was built with. Errors name the path and
    /// say what to write instead; a diagram of another build is refused.
    pub fn parameter_vector<S: AsRef<str>>(
        &self,
        diagram: &Diagram,
        paths: &[S],
    ) -> Result<ParameterVector, Diagnostic> {
        self.with(diagram)?.parameter_vector(paths)
    }

    /// The [`ParameterSet`] that runs `diagram` with `vector`'s values (only blocks with a slot
    /// away from its built value are made again). Errors name the slot: a non-finite value, a
    /// value the block refuses or one that changes its structure. A vector laid out for another
    /// diagram, and a diagram of another build than this blueprint's, are refused.
    pub fn parameters_from(
        &self,
        diagram: &Diagram,
        vector: &ParameterVector,
    ) -> Result<ParameterSet, Diagnostic> {
        self.with(diagram)?.parameters_from(vector)
    }
}
