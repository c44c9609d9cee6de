//! Scalar kernels: small memoryless functions that the engine evaluates in place, without calling
//! the block (see [`super::Block::scalar_kernel`]).
//!
//! A call through the [`super::Block`] trait costs a context, a virtual call and the block's
//! general handling of shapes and broadcasting; for a block that computes one number from one or
//! two, that is most of its cost. A kernel is the block's own arithmetic, written so that the
//! engine's inline evaluation gives the same bits as `outputs_eval`.

/// A function of one number and time, evaluated in place by the engine (a compiled expression).
pub trait ScalarFunction: Send + Sync {
    /// `y = f(u, t)` for the input value `u` at time `t` (s).
    fn eval(&self, u: f64, t: f64) -> f64;
}

/// A scalar block's arithmetic on its one-element inputs `u₀, u₁, …`, giving its one-element
/// output `y`.
#[derive(Clone, Copy)]
pub enum ScalarKernel<'a> {
    /// `y = clamp(u₀, lower, upper)` ([`clamp`]).
    Clamp {
        /// The lower limit.
        lower: f64,
        /// The upper limit.
        upper: f64,
    },
    /// `y = factor(factor(1, divide[0], u₀), divide[1], u₁)` ([`factor`]): left to right, as
    /// the block multiplies.
    Product2 {
        /// Whether each input divides (`/`) rather than multiplies (`*`).
        divide: [bool; 2],
    },
    /// `y = f(u₀, t)`: the block's own function (one call, no context).
    Function(&'a dyn ScalarFunction),
}

/// `min(max(u, lower), upper)` — Saturation's arithmetic, in the block and in its kernel
/// (`f64::max` then `f64::min`: a NaN input gives the lower limit).
#[inline]
pub fn clamp(u: f64, lower: f64, upper: f64) -> f64 {
    u.max(lower).min(upper)
}

/// One factor of a product, `acc / x` when `divide`, else `acc · x` — Product's arithmetic, in
/// the block and in its kernel.
#[inline]
pub fn factor(acc: f64, divide: bool, x: f64) -> f64 {
    if divide {
        acc / x
    } else {
        acc * x
    }
}

impl ScalarKernel<'_> {
    /// How many inputs the kernel reads.
    pub fn inputs(&self) -> usize {
        match self {
            ScalarKernel::Clamp { .. } | ScalarKernel::Function(_) => 1,
            ScalarKernel::Product2 { .. } => 2,
        }
    }
}

impl std::fmt::Debug for ScalarKernel<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScalarKernel::Clamp { lower, upper } => f
                .debug_struct("Clamp")
                .field("lower", lower)
                .field("upper", upper)
                .finish(),
            ScalarKernel::Product2 { divide } => {
                f.debug_struct("Product2").field("divide", divide).finish()
            }
            ScalarKernel::Function(_) => f.write_str("Function(..)"),
        }
    }
}
