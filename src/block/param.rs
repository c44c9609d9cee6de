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
//! Parameters that must be written, or whose default is not a value (`"computed"`, `"none"`),
//! keep a plain [`ParamDoc`].

use super::ParamDoc;
use crate::params::{ParamResult, Params};

/// A documented parameter and its default value (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct Param<T: 'static> {
    /// The documentation row; `doc.default` is the default's TOML text.
    pub doc: ParamDoc,
    /// The value used when the parameter is not written.
    pub default: T,
}

/// Declares a [`Param`](crate::block::Param) from its name, unit, default and description:
/// `param!("stiffness", "N/m", 1e6, "k")`. The default is one literal (a number, a string, a
/// boolean) or an array of number literals (`[0, 0, -9.80665]`); its text as written is the
/// documented default and its value (converted to the declared type with `as`, so `0` may
/// document an `f64`) is [`Param::default`].
#[macro_export]
macro_rules! param {
    ($name:expr, $unit:expr, [$($x:literal),* $(,)?], $doc:expr $(,)?) => {
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
        }
    };
    ($name:expr, $unit:expr, $default:literal, $doc:expr $(,)?) => {
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
        }
    };
}

impl<T: Copy> Param<T> {
    /// The parameter's key.
    pub const fn name(&self) -> &'static str {
        self.doc.name
    }
}

impl Param<f64> {
    /// The number written, or the default.
    pub fn read(&self, r: &Params) -> ParamResult<f64> {
        r.f64_or(self.name(), self.default)
    }

    /// The number written (> 0), or the default; `unit` is quoted by the error's hint.
    pub fn positive(&self, r: &Params, unit: &str) -> ParamResult<f64> {
        r.positive_or(self.name(), self.default, unit)
    }

    /// The number written (≥ 0), or the default; `unit` is quoted by the error's hint.
    pub fn non_negative(&self, r: &Params, unit: &str) -> ParamResult<f64> {
        r.non_negative_or(self.name(), self.default, unit)
    }
}

impl Param<usize> {
    /// The non-negative integer written, or the default.
    pub fn read(&self, r: &Params) -> ParamResult<usize> {
        Ok(r.usize(self.name())?.unwrap_or(self.default))
    }
}

impl Param<bool> {
    /// The boolean written, or the default.
    pub fn read(&self, r: &Params) -> ParamResult<bool> {
        Ok(r.bool(self.name())?.unwrap_or(self.default))
    }
}

impl Param<&'static str> {
    /// The string written, or the default.
    pub fn read<'a>(&self, r: &'a Params) -> ParamResult<&'a str> {
        Ok(r.string(self.name())?.unwrap_or(self.default))
    }

    /// The string written, which must be one of `choices`, or the default.
    pub fn choice(&self, r: &Params, choices: &[&'static str]) -> ParamResult<&'static str> {
        r.choice(self.name(), choices, self.default)
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
        assert_eq!(I.positive(&r, "kg/m³").unwrap(), 1000.0);
        assert_eq!(NEG.read(&r).unwrap(), -1.5);
        assert_eq!(N.read(&r).unwrap(), 5);
        assert!(B.read(&r).unwrap());
        assert_eq!(S.read(&r).unwrap(), "x");
        assert!(S.choice(&r, &["none", "y"]).is_err());
        assert_eq!(A.read(&r).unwrap(), vec![0.0, 0.0, -9.80665]);
        r.finish().unwrap();
    }
}
