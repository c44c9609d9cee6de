//! The expression tree of an Fcn expression, and the functions and operators it applies.

/// A function of one argument (`sin u`, `-u`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Func {
    Neg,
    Abs,
    Signum,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Floor,
    Round,
    Ceil,
    Trunc,
    Fract,
    Exp,
    Sqrt,
    Cbrt,
    Ln,
    Log2,
    Log10,
}

/// Every function by the name expressions call it (`log` is `ln`).
pub(crate) const FUNCTIONS: [(&str, Func); 26] = [
    ("abs", Func::Abs),
    ("signum", Func::Signum),
    ("sin", Func::Sin),
    ("cos", Func::Cos),
    ("tan", Func::Tan),
    ("asin", Func::Asin),
    ("acos", Func::Acos),
    ("atan", Func::Atan),
    ("sinh", Func::Sinh),
    ("cosh", Func::Cosh),
    ("tanh", Func::Tanh),
    ("asinh", Func::Asinh),
    ("acosh", Func::Acosh),
    ("atanh", Func::Atanh),
    ("floor", Func::Floor),
    ("round", Func::Round),
    ("ceil", Func::Ceil),
    ("trunc", Func::Trunc),
    ("fract", Func::Fract),
    ("exp", Func::Exp),
    ("sqrt", Func::Sqrt),
    ("cbrt", Func::Cbrt),
    ("ln", Func::Ln),
    ("log", Func::Ln),
    ("log2", Func::Log2),
    ("log10", Func::Log10),
];

impl Func {
    /// The function's value at `x` (Rust's `f64` methods: `signum(0.0)` is 1, `round` rounds
    /// half away from zero, `fract(x)` = x − trunc(x)).
    #[inline(always)]
    pub(crate) fn apply(self, x: f64) -> f64 {
        match self {
            Func::Neg => -x,
            Func::Abs => x.abs(),
            Func::Signum => x.signum(),
            Func::Sin => x.sin(),
            Func::Cos => x.cos(),
            Func::Tan => x.tan(),
            Func::Asin => x.asin(),
            Func::Acos => x.acos(),
            Func::Atan => x.atan(),
            Func::Sinh => x.sinh(),
            Func::Cosh => x.cosh(),
            Func::Tanh => x.tanh(),
            Func::Asinh => x.asinh(),
            Func::Acosh => x.acosh(),
            Func::Atanh => x.atanh(),
            Func::Floor => x.floor(),
            Func::Round => x.round(),
            Func::Ceil => x.ceil(),
            Func::Trunc => x.trunc(),
            Func::Fract => x.fract(),
            Func::Exp => x.exp(),
            Func::Sqrt => x.sqrt(),
            Func::Cbrt => x.cbrt(),
            Func::Ln => x.ln(),
            Func::Log2 => x.log2(),
            Func::Log10 => x.log10(),
        }
    }
}

/// An operator of two operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    /// `a ^ b` = `a.powf(b)` (integer exponents are compiled to multiplications).
    Pow,
    /// `y atan2 x` = `atan2(y, x)`, the angle of the point (x, y).
    Atan2,
    /// `a min b` (the other operand when one is NaN, as `f64::min`).
    Min,
    Max,
}

/// The operators spelled as names: `a atan2 b`, `a min b`, `a max b` (or `atan2(a, b)` …).
pub(crate) const NAMED_OPERATORS: [(&str, Bin); 3] =
    [("atan2", Bin::Atan2), ("min", Bin::Min), ("max", Bin::Max)];

impl Bin {
    #[inline(always)]
    pub(crate) fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            Bin::Add => a + b,
            Bin::Sub => a - b,
            Bin::Mul => a * b,
            Bin::Div => a / b,
            Bin::Pow => a.powf(b),
            Bin::Atan2 => a.atan2(b),
            Bin::Min => a.min(b),
            Bin::Max => a.max(b),
        }
    }

    /// Whether `a op b` is exactly `b op a` in floating point.
    pub(crate) fn commutes(self) -> bool {
        matches!(self, Bin::Add | Bin::Mul)
    }
}

/// An expression tree; names are resolved while parsing (constants become numbers).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Expr {
    Num(f64),
    /// `u[i]` (or `u` for a one-element input).
    Input(usize),
    /// `t`.
    Time,
    Unary(Func, Box<Expr>),
    Binary(Bin, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// The value of an expression that reads no input and no time (a model's variables); `None`
    /// when it does.
    pub(crate) fn constant(&self) -> Option<f64> {
        match self {
            Expr::Num(x) => Some(*x),
            Expr::Input(_) | Expr::Time => None,
            Expr::Unary(f, a) => Some(f.apply(a.constant()?)),
            Expr::Binary(op, a, b) => Some(op.apply(a.constant()?, b.constant()?)),
        }
    }
}
