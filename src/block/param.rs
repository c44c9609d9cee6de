//! A parameter with a default, declared once: [`Param`] holds both the documentation row (whose
//! `default` text `blockdyn blocks` and docs/blocks.md print) and the value the block's
//! constructor uses when the parameter is not written. The [`param!`](crate::param) macro makes
//! both from one literal (`stringify!` gives the text), so they cannot disagree:
//!
//! ```
//! use blockdyn::block::Param;
//!
//! const GAIN: Param<f64> = blockdyn::param!("gain", "", 2.5, "the factor");
//! assert_eq!(GAIN.doc.default, "2.5");
//! assert_eq!(GAIN.default, 2.5);
//! // In the constructor: `let k = GAIN.read(r)?;` (2.5 when `gain` is not written). In the
//! // block type: `params: &[GAIN.doc]`.
//! ```
//!
//! A parameter that must be written is a [`Required`], declared by the same macro with
//! `required` in place of the default: its row documents the default as `"required"`, and its
//! unit, check and the help of the "missing parameter" error are the same declaration:
//!
//! ```
//! use blockdyn::block::Required;
//!
//! const K: Required<f64> =
//!     blockdyn::param!("k", "N/m", required("N/m, e.g. k = 100.0"), "the stiffness"; non_negative);
//! assert_eq!((K.doc.default, K.doc.unit, K.missing), ("required", "N/m", "N/m, e.g. k = 100.0"));
//! ```
//!
//! Parameters whose default is not a value (`"computed"`, `"none"`) keep a plain [`ParamDoc`].

use super::check::{Check, Rule};
use super::ParamDoc;
use crate::params::{ParamError, ParamResult, Params};

/// A documented parameter and its default value (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct Param<T: 'static> {
    /// The documentation row; `doc.default` is the default's TOML text.
    pub doc: ParamDoc,
    /// The value used when the parameter is not written.
    pub default: T,
    /// What a written value must satisfy (only checks of its type: see [`Check`]).
    pub check: Check<T>,
}

/// A documented parameter that must be written (see the module documentation): no default,
/// the "missing parameter" error's help from the declaration.
#[derive(Clone, Copy, Debug)]
pub struct Required<T: 'static> {
    /// The documentation row; `doc.default` is `"required"`.
    pub doc: ParamDoc,
    /// What the help of the "missing parameter" error quotes: for a number, the text in the
    /// parentheses of `add KEY = <number> (…)` (the unit, an example where one helps:
    /// `"N/m, e.g. stiffness = 100.0"`); for an array, what follows `add KEY = ` (an example
    /// and its unit: `"[0.0, 1.0, 2.0] (s, strictly increasing)"`).
    pub missing: &'static str,
    /// What a written value must satisfy (see [`Check`]).
    pub check: Check<T>,
}

/// Declares a [`Param`](crate::block::Param) from its name, unit, default and description:
/// `param!("stiffness", "N/m", 1e6, "k")`. The default is one literal (a number, a string, a
/// boolean) or an array of number literals (`[0, 0, -9.80665]`); its text as written is the
/// documented default and its value (converted to the declared type with `as`, so `0` may
/// document an `f64`) is [`Param::default`].
///
/// A check follows a `;` ([`Check`]): `positive` or `non_negative` (the hint quotes the unit;
/// `positive("rad/s (…)")` quotes other text; `positive_else("hint")` and
/// `non_negative_else("hint")` give the whole hint), `within(0, 1, "hint")`, `one_of["a", "b"]`
/// or `one_of(CONST_LIST)`: `param!("period", "s", 1.0, "pulse period (> 0)"; positive)`.
///
/// `required` in place of the default declares a [`Required`](crate::block::Required)
/// parameter (documented default `"required"`); `required("s, the sample period")` gives the
/// text the "missing parameter" help quotes, plain `required` quotes the unit.
#[macro_export]
macro_rules! param {
    ($name:expr, $unit:expr, required, $doc:expr $(; $check:ident $(($($carg:tt)*))? $([$($clist:tt)*])?)? $(,)?) => {
        $crate::param!($name, $unit, required($unit), $doc $(; $check $(($($carg)*))? $([$($clist)*])?)?)
    };
    ($name:expr, $unit:expr, required($missing:expr), $doc:expr $(; $check:ident $(($($carg:tt)*))? $([$($clist:tt)*])?)? $(,)?) => {
        $crate::block::Required {
            doc: $crate::block::ParamDoc {
                name: $name,
                unit: $unit,
                default: "required",
                doc: $doc,
            },
            missing: $missing,
            check: $crate::param!(@check $unit $(, $check $(($($carg)*))? $([$($clist)*])?)?),
        }
    };
    ($name:expr, $unit:expr, [$($x:literal),* $(,)?], $doc:expr $(; $check:ident $(($($carg:tt)*))? $([$($clist:tt)*])?)? $(,)?) => {
        $crate::block::Param {
            doc: $crate::block::ParamDoc {
                name: $name,
                unit: $unit,
                default: stringify!([$($x),*]),
                doc: $doc,
            },
            default: [$({
                #[allow(clippy::unnecessary_cast)]
                let x = $x as _;
                x
            }),*],
            check: $crate::param!(@check $unit $(, $check $(($($carg)*))? $([$($clist)*])?)?),
        }
    };
    ($name:expr, $unit:expr, $default:literal, $doc:expr $(; $check:ident $(($($carg:tt)*))? $([$($clist:tt)*])?)? $(,)?) => {
        $crate::block::Param {
            doc: $crate::block::ParamDoc {
                name: $name,
                unit: $unit,
                default: stringify!($default),
                doc: $doc,
            },
            default: {
                #[allow(clippy::unnecessary_cast)]
                let x = $default as _;
                x
            },
            check: $crate::param!(@check $unit $(, $check $(($($carg)*))? $([$($clist)*])?)?),
        }
    };
    (@check $unit:expr) => { $crate::block::Check::ANY };
    (@check $unit:expr, positive) => { $crate::block::Check::positive($unit) };
    (@check $unit:expr, positive($u:expr)) => { $crate::block::Check::positive($u) };
    (@check $unit:expr, non_negative) => { $crate::block::Check::non_negative($unit) };
    (@check $unit:expr, non_negative($u:expr)) => { $crate::block::Check::non_negative($u) };
    (@check $unit:expr, positive_else($h:expr)) => { $crate::block::Check::positive_else($h) };
    (@check $unit:expr, non_negative_else($h:expr)) => {
        $crate::block::Check::non_negative_else($h)
    };
    (@check $unit:expr, within($low:literal, $high:literal, $hint:expr)) => {
        $crate::block::Check::within(
            {
                #[allow(clippy::unnecessary_cast)]
                let x = $low as f64;
                x
            },
            {
                #[allow(clippy::unnecessary_cast)]
                let x = $high as f64;
                x
            },
            $hint,
        )
    };
    (@check $unit:expr, at_least($low:literal, $hint:expr)) => {
        $crate::block::Check::at_least($low, $hint)
    };
    (@check $unit:expr, one_of[$($c:literal),* $(,)?]) => {
        $crate::block::Check::one_of(&[$($c),*])
    };
    (@check $unit:expr, one_of($list:expr)) => { $crate::block::Check::one_of(&$list) };
}

impl<T: Copy> Param<T> {
    /// The parameter's key.
    pub const fn name(&self) -> &'static str {
        self.doc.name
    }
}

impl Param<f64> {
    /// The number written, or the default, passing [`Param::check`].
    pub fn read(&self, r: &Params) -> ParamResult<f64> {
        let x = r.f64(self.name())?.unwrap_or(self.default);
        self.check.pass(r, self.name(), x)?;
        Ok(x)
    }
}

impl<T> Required<T> {
    /// The parameter's key.
    pub const fn name(&self) -> &'static str {
        self.doc.name
    }

    /// The error for the parameter not written: "missing parameter 'KEY'", help
    /// `add KEY = MISSING` (an array's form of [`Required::missing`]; for a block whose own
    /// reader reads the value, a matrix of checked dimensions).
    pub fn missing_error(&self, r: &Params) -> ParamError {
        let name = r.name(self.name());
        r.table_error(format!("missing parameter '{name}'"))
            .hint(format!("add {name} = {}", self.missing))
    }
}

impl Required<Vec<f64>> {
    /// The array of numbers written (any length; the block checks it).
    pub fn read(&self, r: &Params) -> ParamResult<Vec<f64>> {
        r.vector(self.name())?.ok_or_else(|| self.missing_error(r))
    }
}

impl Required<Vec<Vec<f64>>> {
    /// The rows written (a flat array is one number per row; the block checks the lengths).
    pub fn read(&self, r: &Params) -> ParamResult<Vec<Vec<f64>>> {
        r.rows(self.name())?.ok_or_else(|| self.missing_error(r))
    }
}

impl Required<f64> {
    /// The number written, passing [`Required::check`]; a "missing parameter" error (help:
    /// `add KEY = <number> (MISSING)`) when it is not written.
    pub fn read(&self, r: &Params) -> ParamResult<f64> {
        let x = r.required_f64(self.name(), self.missing)?;
        self.check.pass(r, self.name(), x)?;
        Ok(x)
    }
}

impl Param<usize> {
    /// The non-negative integer written, or the default, passing [`Param::check`] (a count
    /// declares only [`Check::at_least`]).
    pub fn read(&self, r: &Params) -> ParamResult<usize> {
        let n = r.usize(self.name())?.unwrap_or(self.default);
        if let Rule::AtLeast { low, hint } = self.check.rule() {
            let message = format!("must be at least {low} (got {n})");
            r.ensure(n >= low, self.name(), &message, hint)?;
        }
        Ok(n)
    }
}

impl Param<bool> {
    /// The boolean written, or the default.
    pub fn read(&self, r: &Params) -> ParamResult<bool> {
        Ok(r.bool(self.name())?.unwrap_or(self.default))
    }
}

impl Param<&'static str> {
    /// The string written, or the default; one of the names of a [`Check::one_of`].
    pub fn read<'a>(&self, r: &'a Params) -> ParamResult<&'a str> {
        match self.check.rule() {
            Rule::OneOf(choices) => r.choice(self.name(), choices, self.default),
            _ => Ok(r.string(self.name())?.unwrap_or(self.default)),
        }
    }
}

impl<const N: usize> Param<[f64; N]> {
    /// The array of exactly `N` numbers written, or the default.
    pub fn read(&self, r: &Params) -> ParamResult<Vec<f64>> {
        Ok(r.fixed_vector(self.name(), N)?
            .unwrap_or_else(|| self.default.to_vec()))
    }
}

/// True when the prose `doc` (of a table parameter such as `limits = { ... }`) quotes the
/// default of its sub-parameter `param` where it first names it: `" name (TEXT)"`, or with a unit
/// or a symbol first, `" name (m/s, TEXT)"`, `" name n (TEXT)"`. For the tests that keep such
/// prose in step with the declared defaults.
#[cfg(test)]
pub(crate) fn quotes_default(doc: &str, param: &ParamDoc) -> bool {
    let Some(at) = doc.find(&format!(" {} ", param.name)) else {
        return false;
    };
    let rest = &doc[at..];
    let Some(end) = rest.find(')') else {
        return false;
    };
    let quoted = &rest[..end];
    (!quoted.contains(',') && quoted.ends_with(&format!("({}", param.default)))
        || (quoted.contains('(') && quoted.ends_with(&format!(", {}", param.default)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: Param<f64> = crate::param!("f", "m", 1e-3, "a number");
    const I: Param<f64> = crate::param!("i", "", 1000, "an integer literal documenting an f64");
    const N: Param<usize> = crate::param!("n", "", 2, "a count");
    const B: Param<bool> = crate::param!("b", "", true, "a flag");
    const S: Param<&str> = crate::param!("s", "", "none", "a choice");
    const A: Param<[f64; 3]> = crate::param!("a", "m/s²", [0, 0, -9.80665], "a vector");
    const NEG: Param<f64> = crate::param!("neg", "", -1.5, "a negative number");

    #[test]
    fn the_text_is_the_literal_and_the_value_its_value() {
        assert_eq!((F.doc.default, F.default), ("1e-3", 1e-3));
        assert_eq!((I.doc.default, I.default), ("1000", 1000.0));
        assert_eq!((N.doc.default, N.default), ("2", 2));
        assert_eq!((B.doc.default, B.default), ("true", true));
        assert_eq!((S.doc.default, S.default), ("\"none\"", "none"));
        assert_eq!(
            (A.doc.default, A.default),
            ("[0, 0, -9.80665]", [0.0, 0.0, -9.80665])
        );
        assert_eq!((NEG.doc.default, NEG.default), ("-1.5", -1.5));
        assert_eq!((A.name(), A.doc.unit, A.doc.doc), ("a", "m/s²", "a vector"));
    }

    #[test]
    fn prose_quoting_a_default_is_recognised() {
        let doc = "{ f (m, 1e-3), i n (1000), neg } | { f, neg (2) }";
        assert!(quotes_default(doc, &F.doc));
        assert!(quotes_default(doc, &I.doc));
        assert!(!quotes_default(doc, &NEG.doc), "the first mention has none");
        assert!(!quotes_default("{ f (m, 1e-2) }", &F.doc));
        assert!(!quotes_default("{ f (1e-30) }", &F.doc));
    }

    #[test]
    fn reading_gives_the_default_when_absent_and_the_value_when_written() {
        let doc = crate::model::Document::parse("t.toml", "n = 5\ns = \"x\"").unwrap();
        let reader = crate::model::TableReader::new(&doc.source, Some("b"), &doc.root, Some(0..0));
        let r = reader.params();
        assert_eq!(F.read(&r).unwrap(), 1e-3);
        assert_eq!(I.read(&r).unwrap(), 1000.0);
        assert_eq!(NEG.read(&r).unwrap(), -1.5);
        assert_eq!(N.read(&r).unwrap(), 5);
        assert!(B.read(&r).unwrap());
        assert_eq!(S.read(&r).unwrap(), "x");
        assert_eq!(A.read(&r).unwrap(), vec![0.0, 0.0, -9.80665]);
        r.finish().unwrap();
    }

    const K: Param<f64> = crate::param!("k", "N/m", 1e6, "stiffness"; positive);
    const T: Param<f64> = crate::param!("t", "s", 0, "delay"; non_negative);
    const W: Param<f64> =
        crate::param!("w", "rad/s", 10, "cut-off"; positive("rad/s (the cut-off)"));
    const E: Param<f64> =
        crate::param!("e", "", 0.5, "restitution"; within(0, 1, "write e.g. e = 0.5"));
    const M: Param<&str> = crate::param!("m", "", "off", "mode"; one_of["off", "on"]);

    /// `text` read as block `b`'s table; the value of `param`, or its error as the model
    /// reader renders it (message, then `help:` line).
    fn read_one<T>(text: &str, read: impl Fn(&Params) -> ParamResult<T>) -> Result<T, String> {
        let doc = crate::model::Document::parse("t.toml", text).unwrap();
        let reader = crate::model::TableReader::new(&doc.source, Some("b"), &doc.root, Some(0..0));
        let got = read(&reader.params()).map_err(|e| reader.locate(e).to_string());
        got
    }

    /// Each check is declared with the parameter and gives the message the blocks gave with
    /// `.positive(r, unit)`, `.non_negative(r, unit)`, `ensure` and `.choice(r, list)` before;
    /// the documentation row is the same with or without a check. The numbers are at and just
    /// past each bound, so a check with the wrong inequality fails.
    #[test]
    fn a_declared_check_refuses_with_its_message() {
        assert_eq!((K.doc.unit, K.doc.default, K.default), ("N/m", "1e6", 1e6));
        assert_eq!(K.check.rule(), Rule::Positive { unit: "N/m" });
        assert_eq!(N.check.rule(), Rule::Any);
        assert_eq!(M.check.rule(), Rule::OneOf(&["off", "on"]));
        assert_eq!(read_one("k = 2.5", |r| K.read(r)), Ok(2.5));
        assert_eq!(
            read_one("k = 0", |r| K.read(r)).unwrap_err(),
            "t.toml:1:5: block 'b': 'k' must be positive (got 0)\n  help: write a positive value in N/m"
        );
        assert_eq!(read_one("", |r| T.read(r)), Ok(0.0));
        assert_eq!(read_one("t = 0", |r| T.read(r)), Ok(0.0));
        assert_eq!(
            read_one("t = -1e-9", |r| T.read(r)).unwrap_err(),
            "t.toml:1:5: block 'b': 't' must not be negative (got -0.000000001)\n  help: write zero or a positive value in s"
        );
        assert_eq!(W.doc.unit, "rad/s");
        assert!(read_one("w = -1", |r| W.read(r))
            .unwrap_err()
            .ends_with("help: write a positive value in rad/s (the cut-off)"));
        assert_eq!(read_one("e = 1", |r| E.read(r)), Ok(1.0));
        assert_eq!(read_one("e = 0", |r| E.read(r)), Ok(0.0));
        assert_eq!(
            read_one("e = 1.5", |r| E.read(r)).unwrap_err(),
            "t.toml:1:5: block 'b': 'e' must be in [0, 1]\n  help: write e.g. e = 0.5"
        );
        assert_eq!(
            read_one("", |r| M.read(r).map(str::to_string)),
            Ok("off".into())
        );
        assert_eq!(
            read_one("m = \"on\"", |r| M.read(r).map(str::to_string)),
            Ok("on".into())
        );
        assert_eq!(
            read_one("m = \"onn\"", |r| M.read(r).map(str::to_string)).unwrap_err(),
            "t.toml:1:5: block 'b': 'm' cannot be \"onn\"\n  help: did you mean \"on\"? (write one of: \"off\", \"on\")"
        );
    }

    const REQ: Required<f64> = crate::param!("r", "m", required("m, e.g. r = 0.1"), "a radius"; positive_else("write r > 0"));
    const REQ_UNIT: Required<f64> = crate::param!("u", "N/m", required, "a stiffness");
    const WIDE: Param<usize> = crate::param!("w", "", 1, "a width"; at_least(1, "write w ≥ 1"));
    const ROWS: Required<Vec<Vec<f64>>> =
        crate::param!("m", "", required("[[1.0]] (rows)"), "a matrix");

    /// A required parameter documents "required"; its missing help quotes the declared text
    /// (the unit when none is given) and its check's message is the shared one with its hint.
    #[test]
    fn a_required_parameter_is_declared_once() {
        assert_eq!(
            (REQ.doc.default, REQ.doc.unit, REQ.name()),
            ("required", "m", "r")
        );
        assert_eq!(
            REQ.check.rule(),
            Rule::PositiveElse {
                hint: "write r > 0"
            }
        );
        assert_eq!(REQ_UNIT.missing, "N/m");
        assert_eq!(read_one("r = 0.5", |r| REQ.read(r)), Ok(0.5));
        assert_eq!(
            read_one("", |r| REQ.read(r)).unwrap_err(),
            "t.toml:1:1: block 'b': missing parameter 'r'\n  help: add r = <number> (m, e.g. r = 0.1)"
        );
        assert_eq!(
            read_one("r = 0", |r| REQ.read(r)).unwrap_err(),
            "t.toml:1:5: block 'b': 'r' must be positive (got 0)\n  help: write r > 0"
        );
        assert!(read_one("", |r| REQ_UNIT.read(r))
            .unwrap_err()
            .ends_with("add u = <number> (N/m)"));
        assert_eq!(
            read_one("m = [[1, 2]]", |r| ROWS.read(r)),
            Ok(vec![vec![1.0, 2.0]])
        );
        assert!(read_one("", |r| ROWS.read(r))
            .unwrap_err()
            .ends_with("missing parameter 'm'\n  help: add m = [[1.0]] (rows)"));
        assert_eq!((WIDE.doc.default, WIDE.default), ("1", 1));
        assert_eq!(read_one("w = 2", |r| WIDE.read(r)), Ok(2));
        assert_eq!(
            read_one("w = 0", |r| WIDE.read(r)).unwrap_err(),
            "t.toml:1:5: block 'b': 'w' must be at least 1 (got 0)\n  help: write w ≥ 1"
        );
    }
}
