//! Scalar kernels: small memoryless functions that the engine evaluates in place, without calling
//! the block (see [`super::Block::scalar_kernel`]).
//!
//! A call through the [`super::Block`] trait costs a context, a virtual call and the block's
//! general handling of shapes and broadcasting; for a block that computes one number from one or
//! two, that is most of its cost. A kernel is the block's own arithmetic, written so that the
//! engine's inline evaluation gives the same bits as `outputs_eval`.

/// A scalar block's arithmetic on its one-element inputs `u₀, u₁, …`, giving its one-element
/// output `y`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScalarKernel {
    /// `y = min(max(u₀, lower), upper)` (`f64::max` then `f64::min`: a NaN input gives the
    /// lower limit, as the block does).
    Clamp { lower: f64, upper: f64 },
    /// `y = (1 ∘₀ u₀) ∘₁ u₁`, where `∘ᵢ` divides when `divide[i]` and multiplies otherwise,
    /// evaluated left to right as written.
    Product2 { divide: [bool; 2] },
}

impl ScalarKernel {
    /// How many inputs the kernel reads.
    pub fn inputs(&self) -> usize {
        match self {
            ScalarKernel::Clamp { .. } => 1,
            ScalarKernel::Product2 { .. } => 2,
        }
    }
}
