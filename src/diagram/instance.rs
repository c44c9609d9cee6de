//! A block instantiated from the model, before layout: what the build makes of each entry (and
//! the mechanism block the physical lowering adds), what the wiring, the groups' expansion, the
//! physical lowering and the assembly read, and what a parameter set that changes the mechanism
//! makes again. Below all of them (it uses only the block and the compiled block's [`Origin`]).

use super::compiled::Origin;
use crate::block::Block;
use crate::model::Span;

/// A block instantiated from the model, before layout.
pub struct Instance {
    pub name: String,
    pub type_name: &'static str,
    pub block: Box<dyn Block>,
    pub span: Span,
    /// How the block was made from the model: its type's constructor and its entry in
    /// `ModelSpec::blocks` (`None` for blocks the build adds, such as the mechanism).
    pub origin: Option<Origin>,
    /// The mechanism binding it was given (joints and consumers of the frame network); boxed,
    /// as in [`super::CompiledBlock::binding`].
    pub binding: Option<Box<crate::block::Binding>>,
}
