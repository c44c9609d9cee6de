//! The check a declared parameter's value must pass ([`Check`], its [`Rule`]), declared with the
//! parameter by [`param!`](crate::param) (see [`super::param`]).

use crate::params::{ParamResult, Params};
use std::marker::PhantomData;

/// The check a parameter's value must pass, declared with it (the `; check` of
/// [`param!`](crate::param)), so that the documentation, the default and the check are one
/// declaration. It is typed by the parameter's value: the number checks ([`Check::positive`],
/// [`Check::non_negative`], [`Check::within`]) exist only for a `Param<f64>`,
/// [`Check::at_least`] only for a count (`Param<usize>`) and [`Check::one_of`] only for a
/// `Param<&str>`; any other parameter (`bool`, `[f64; N]`) takes only [`Check::ANY`]. A check declared on a parameter of another type is a
/// compile error (E0308: the macro makes a `Check<f64>` where a `Check<usize>` is wanted), not a
/// check silently ignored:
///
/// ```compile_fail,E0308
/// use blockdyn::block::Param;
/// // A count cannot be declared `positive`: Check<usize> has no such check (`at_least(1, …)`).
/// const N: Param<usize> = blockdyn::param!("n", "", 2, "a count"; positive);
/// ```
///
/// ```compile_fail,E0308
/// use blockdyn::block::Param;
/// // Nor a name: `positive` is a number's check.
/// const S: Param<&str> = blockdyn::param!("s", "", "none", "a name"; positive);
/// ```
///
/// ```compile_fail,E0308
/// use blockdyn::block::Param;
/// const G: Param<[f64; 3]> = blockdyn::param!("g", "m/s²", [0.0, 0.0, -9.8], "gravity"; non_negative);
/// ```
///
/// The same declarations with checks of their own type compile (so the failures above are the
/// checks' types, not the macro's spelling):
///
/// ```
/// use blockdyn::block::Param;
/// const N: Param<usize> = blockdyn::param!("n", "", 2, "a count");
/// const K: Param<f64> = blockdyn::param!("k", "N/m", 1e4, "a stiffness"; positive);
/// const CHOICES: [&str; 2] = ["none", "some"];
/// const S: Param<&str> = blockdyn::param!("s", "", "none", "a name"; one_of(CHOICES));
/// const G: Param<[f64; 3]> = blockdyn::param!("g", "m/s²", [0.0, 0.0, -9.8], "gravity");
/// assert_eq!((N.default, K.default, S.default, G.default[2]), (2, 1e4, "none", -9.8));
/// ```
///
/// Each failure is the message every block gave before the check moved here (see [`Rule`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Check<T: 'static> {
    /// What is checked.
    rule: Rule,
    /// The parameter's value type, which decides the checks it may declare.
    of: PhantomData<fn() -> T>,
}

/// What a [`Check`] asks of a written value, and its message.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// Any value of the type.
    Any,
    /// A number > 0: "'KEY' must be positive (got x)", hint "write a positive value in UNIT".
    Positive {
        /// The unit the hint quotes (the documented unit unless written).
        unit: &'static str,
    },
    /// A number ≥ 0: "'KEY' must not be negative (got x)", hint "write zero or a positive value
    /// in UNIT".
    NonNegative {
        /// The unit the hint quotes (the documented unit unless written).
        unit: &'static str,
    },
    /// A number in [low, high]: "'KEY' must be in [low, high]", with `hint`.
    Within {
        /// The lowest value allowed.
        low: f64,
        /// The highest value allowed.
        high: f64,
        /// What to write instead.
        hint: &'static str,
    },
    /// A number > 0: "'KEY' must be positive (got x)", with `hint`.
    PositiveElse {
        /// What to write instead.
        hint: &'static str,
    },
    /// A number ≥ 0: "'KEY' must not be negative (got x)", with `hint`.
    NonNegativeElse {
        /// What to write instead.
        hint: &'static str,
    },
    /// A count ≥ `low`: "'KEY' must be at least low (got n)", with `hint`.
    AtLeast {
        /// The smallest count allowed.
        low: usize,
        /// What to write instead.
        hint: &'static str,
    },
    /// A string, one of these names: "'KEY' cannot be \"x\"", hint "did you mean …? (write one
    /// of: …)".
    OneOf(&'static [&'static str]),
}

impl<T> Check<T> {
    /// No check: any value of the type (what a parameter declared without `; check` has).
    pub const ANY: Check<T> = Check::new(Rule::Any);

    const fn new(rule: Rule) -> Self {
        Check {
            rule,
            of: PhantomData,
        }
    }

    /// What is checked.
    pub const fn rule(&self) -> Rule {
        self.rule
    }
}

impl Check<f64> {
    /// A number > 0; the hint quotes `unit`.
    pub const fn positive(unit: &'static str) -> Self {
        Check::new(Rule::Positive { unit })
    }

    /// A number ≥ 0; the hint quotes `unit`.
    pub const fn non_negative(unit: &'static str) -> Self {
        Check::new(Rule::NonNegative { unit })
    }

    /// A number > 0, with `hint` for a value that is not.
    pub const fn positive_else(hint: &'static str) -> Self {
        Check::new(Rule::PositiveElse { hint })
    }

    /// A number ≥ 0, with `hint` for a value that is not.
    pub const fn non_negative_else(hint: &'static str) -> Self {
        Check::new(Rule::NonNegativeElse { hint })
    }

    /// A number in [`low`, `high`], with `hint` for a value outside.
    pub const fn within(low: f64, high: f64, hint: &'static str) -> Self {
        Check::new(Rule::Within { low, high, hint })
    }
}

impl Check<usize> {
    /// A count ≥ `low`, with `hint` for a smaller one.
    pub const fn at_least(low: usize, hint: &'static str) -> Self {
        Check::new(Rule::AtLeast { low, hint })
    }
}

impl Check<&'static str> {
    /// One of the names of `choices`.
    pub const fn one_of(choices: &'static [&'static str]) -> Self {
        Check::new(Rule::OneOf(choices))
    }
}

impl Check<f64> {
    /// `x`, the value of `key`, passes this check; else the check's error about `key`.
    pub(super) fn pass(&self, r: &Params, key: &str, x: f64) -> ParamResult<()> {
        match self.rule() {
            Rule::Any | Rule::OneOf(_) | Rule::AtLeast { .. } => Ok(()),
            Rule::Positive { unit } => r.ensure(
                x > 0.0,
                key,
                &format!("must be positive (got {x})"),
                &format!("write a positive value in {unit}"),
            ),
            Rule::NonNegative { unit } => r.ensure(
                x >= 0.0,
                key,
                &format!("must not be negative (got {x})"),
                &format!("write zero or a positive value in {unit}"),
            ),
            Rule::PositiveElse { hint } => {
                r.ensure(x > 0.0, key, &format!("must be positive (got {x})"), hint)
            }
            Rule::NonNegativeElse { hint } => r.ensure(
                x >= 0.0,
                key,
                &format!("must not be negative (got {x})"),
                hint,
            ),
            Rule::Within { low, high, hint } => r.ensure(
                (low..=high).contains(&x),
                key,
                &format!("must be in [{low}, {high}]"),
                hint,
            ),
        }
    }
}
