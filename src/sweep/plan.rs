//! What a sweep runs: the cartesian product of the `--vary` lists, numbered, and a shard's share
//! of it.
//!
//! **Order.** Points are numbered 0..N (N the product of the list lengths) like the digits of a
//! number whose last digit is the last `--vary`: the last `--vary` varies fastest. With
//! `--vary a=1,2 --vary b=x,y,z`, points 0..6 are (1,x) (1,y) (1,z) (2,x) (2,y) (2,z).
//!
//! **Shards.** `--shard I/N` (1 ≤ I ≤ N) takes the points k with k mod N = I − 1: round robin,
//! not contiguous blocks, because neighbouring points tend to cost alike (a stiffness that
//! doubles a run's steps does so for every damping beside it), so dealing them out in turn
//! balances the shards better. A point keeps its global index in every shard, so that the
//! shards' outputs merge by concatenation.

use crate::model::value::parse_override_value;
use crate::model::Override;
use crate::params::ParamValue;
use std::fmt;
use std::str::FromStr;

/// Why a `--vary` list or a `--shard` cannot be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// `--vary` without `=`.
    #[error("--vary '{vary}' has no '='\n  help: write --vary block.param=V1,V2,..., e.g. --vary contact.normal.stiffness=1e5,2e5")]
    NoEquals {
        /// The `--vary` option as given.
        vary: String,
    },
    /// `--vary` whose path is not a variable's name, `block.param[.key]` or `section.key`.
    #[error("--vary '{vary}': '{path}' is neither a variable's name nor a dotted path\n  help: write --vary block.param=V1,V2,..., --vary solver.rel_tol=1e-6,1e-8, or --vary NAME=... for a [variables] entry")]
    NotADottedPath {
        /// The `--vary` option as given.
        vary: String,
        /// Its dotted path.
        path: String,
    },
    /// An empty item in a value list (`1,,2`, a trailing comma, or no values at all).
    #[error("--vary '{vary}': value {position} of the list is empty\n  help: separate values with single commas, e.g. --vary {path}=1,2,3")]
    EmptyValue {
        /// The `--vary` option as given.
        vary: String,
        /// Its dotted path.
        path: String,
        /// 1-based.
        position: usize,
    },
    /// A bracket, brace or quote of the value list is not closed (or closed without opening).
    #[error("--vary '{vary}': {what}\n  help: a value that is an array or table is written whole, e.g. --vary 'free.position=[0,0,1],[0,0,2]'")]
    Unbalanced {
        /// The `--vary` option as given.
        vary: String,
        /// What is not closed, or closed without opening.
        what: String,
    },
    /// Two `--vary` options name one path.
    #[error("--vary '{path}=...' is given twice\n  help: list all its values in one --vary")]
    RepeatedPath {
        /// The path given twice.
        path: String,
    },
    /// More points than [`MAX_SWEEP_POINTS`] (counted before anything is allocated).
    #[error("the sweep has {points:.0} points ({lengths}), more than the limit of {limit} points\n  help: vary fewer values, or split the sweep into several (each --vary list a part of the values)")]
    TooManyPoints {
        /// The product of the list lengths (as f64: it may not fit any integer).
        points: f64,
        /// The list lengths, `1000 × 1000 × 1000`.
        lengths: String,
        /// [`MAX_SWEEP_POINTS`].
        limit: usize,
    },
    /// `--shard` is not `I/N` with 1 ≤ I ≤ N.
    #[error("--shard '{text}': {why}\n  help: write --shard I/N with 1 ≤ I ≤ N, e.g. --shard 2/8 for the second of eight slices")]
    BadShard {
        /// The option as given.
        text: String,
        /// What is wrong with it.
        why: String,
    },
}

/// One `--vary PATH=V1,V2,...`: a dotted path (as `--set` takes it) and its values, typed
/// (`1e5`, `"hunt_crossley"`, `[0, 0, 1]`, `{ method = "none" }` read once, where the text
/// enters: [`VaryAxis::parse`]), each with its text for the points file and messages.
#[derive(Clone, Debug, PartialEq)]
pub struct VaryAxis {
    /// The dotted path, as `--set` takes it.
    pub path: String,
    /// Each value, in order.
    values: Vec<ParamValue>,
    /// Each value's text, in order: as written in `--vary`, or the value's TOML when the axis was
    /// made from values ([`VaryAxis::new`]).
    texts: Vec<String>,
}

impl VaryAxis {
    /// The axis of `path` over `values` (from code or Python: no text is parsed); each value
    /// shows as its TOML text.
    pub fn new(path: &str, values: Vec<ParamValue>) -> VaryAxis {
        VaryAxis {
            path: path.trim().to_string(),
            texts: values.iter().map(ParamValue::to_toml).collect(),
            values,
        }
    }

    /// Reads `PATH=V1,V2,...`; see [`split_values`] for the list. Each value is read as
    /// `--set` reads one (TOML, a bare word as a string).
    pub fn parse(vary: &str) -> Result<VaryAxis, PlanError> {
        let Some((path, list)) = vary.split_once('=') else {
            return Err(PlanError::NoEquals {
                vary: vary.to_string(),
            });
        };
        let path = path.trim();
        // A bare name is a [variables] entry; the model says whether it has one.
        if path.split('.').any(|key| key.trim().is_empty()) {
            return Err(PlanError::NotADottedPath {
                vary: vary.to_string(),
                path: path.to_string(),
            });
        }
        let texts = split_values(list).map_err(|split| match split {
            SplitError::Empty { position } => PlanError::EmptyValue {
                vary: vary.to_string(),
                path: path.to_string(),
                position,
            },
            SplitError::Unbalanced(what) => PlanError::Unbalanced {
                vary: vary.to_string(),
                what,
            },
        })?;
        Ok(VaryAxis {
            path: path.to_string(),
            values: texts
                .iter()
                .map(|t| ParamValue::from(&parse_override_value(t)))
                .collect(),
            texts,
        })
    }

    /// The values, in order.
    pub fn values(&self) -> &[ParamValue] {
        &self.values
    }

    /// The values' texts, in order (as written, or their TOML).
    pub fn texts(&self) -> &[String] {
        &self.texts
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when the axis has no values.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The override of value `k`, shown as `PATH=TEXT`.
    pub fn assignment(&self, k: usize) -> Override {
        Override::written(
            &self.path,
            self.values[k].clone(),
            format!("{}={}", self.path, self.texts[k]),
        )
    }
}

/// Why [`split_values`] failed.
#[derive(Clone, Debug, PartialEq)]
pub enum SplitError {
    /// Item `position` (1-based) is empty.
    Empty {
        /// 1-based.
        position: usize,
    },
    /// What is unbalanced.
    Unbalanced(String),
}

/// Splits a value list on the commas that are not inside brackets, braces or quotes, trimming
/// each value: `1e5, 2e5` → [`1e5`, `2e5`]; `[0,0,1],[0,0,2]` → [`[0,0,1]`, `[0,0,2]`];
/// `"a,b",'c'` → [`"a,b"`, `'c'`]. A backslash escapes the next character inside double quotes,
/// as in TOML. Empty values and unbalanced brackets or quotes are errors.
pub fn split_values(list: &str) -> Result<Vec<String>, SplitError> {
    let mut values = Vec::new();
    let mut closers: Vec<char> = Vec::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut start = 0;
    for (at, c) in list.char_indices() {
        if let Some(q) = quote {
            match c {
                _ if escaped => escaped = false,
                '\\' if q == '"' => escaped = true,
                _ if c == q => quote = None,
                _ => {}
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '[' => closers.push(']'),
            '{' => closers.push('}'),
            ']' | '}' if closers.pop() != Some(c) => {
                return Err(SplitError::Unbalanced(format!(
                    "'{c}' at character {} closes nothing that is open",
                    at + 1
                )))
            }
            ',' if closers.is_empty() => {
                values.push(list[start..at].trim().to_string());
                start = at + 1;
            }
            _ => {}
        }
    }
    if let Some(q) = quote {
        return Err(SplitError::Unbalanced(format!(
            "the quote {q} is not closed"
        )));
    }
    if let Some(closer) = closers.last() {
        return Err(SplitError::Unbalanced(format!(
            "a bracket or brace is not closed (expected '{closer}')"
        )));
    }
    values.push(list[start..].trim().to_string());
    match values.iter().position(String::is_empty) {
        Some(k) => Err(SplitError::Empty { position: k + 1 }),
        None => Ok(values),
    }
}

/// The most points a sweep plan may have: a million runs, each its own CSV file in one
/// directory. A larger plan is refused before anything is allocated for it.
pub const MAX_SWEEP_POINTS: usize = 1_000_000;

/// The points of a sweep: the cartesian product of its axes, numbered as the module
/// documentation says. A plan without axes has one point (the model as written).
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPlan {
    axes: Vec<VaryAxis>,
    len: usize,
}

impl SweepPlan {
    /// A plan over `axes` (no path twice).
    pub fn new(axes: Vec<VaryAxis>) -> Result<SweepPlan, PlanError> {
        for (i, axis) in axes.iter().enumerate() {
            if axes[..i].iter().any(|a| a.path == axis.path) {
                return Err(PlanError::RepeatedPath {
                    path: axis.path.clone(),
                });
            }
        }
        // Counted in f64, which never overflows, before any list of points is made.
        let points: f64 = axes.iter().map(|a| a.len() as f64).product();
        if points > MAX_SWEEP_POINTS as f64 {
            let lengths: Vec<String> = axes.iter().map(|a| a.len().to_string()).collect();
            return Err(PlanError::TooManyPoints {
                points,
                lengths: lengths.join(" × "),
                limit: MAX_SWEEP_POINTS,
            });
        }
        let len = axes.iter().map(|a| a.len()).product();
        Ok(SweepPlan { axes, len })
    }

    /// A plan from `--vary` options, in order.
    pub fn parse<S: AsRef<str>>(varies: &[S]) -> Result<SweepPlan, PlanError> {
        let axes = varies
            .iter()
            .map(|v| VaryAxis::parse(v.as_ref()))
            .collect::<Result<_, _>>()?;
        SweepPlan::new(axes)
    }

    /// The axes, in `--vary` order.
    pub fn axes(&self) -> &[VaryAxis] {
        &self.axes
    }

    /// The number of points.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: a plan has at least one point (the product of non-empty lists).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// For point `index` (< [`SweepPlan::len`]), the index into each axis's values: the digits of
    /// `index` in the mixed radix of the list lengths, the last axis the least significant.
    pub fn value_indices(&self, index: usize) -> Vec<usize> {
        debug_assert!(index < self.len);
        let mut rest = index;
        let mut digits = vec![0; self.axes.len()];
        for (digit, axis) in digits.iter_mut().zip(&self.axes).rev() {
            *digit = rest % axis.len();
            rest /= axis.len();
        }
        digits
    }

    /// The value texts of point `index`, one per axis.
    pub fn values(&self, index: usize) -> Vec<&str> {
        self.value_indices(index)
            .into_iter()
            .zip(&self.axes)
            .map(|(k, axis)| axis.texts[k].as_str())
            .collect()
    }

    /// The overrides of point `index`, one per axis.
    pub fn overrides(&self, index: usize) -> Vec<Override> {
        self.value_indices(index)
            .into_iter()
            .zip(&self.axes)
            .map(|(k, axis)| axis.assignment(k))
            .collect()
    }
}

/// `--shard I/N`: the I-th (1-based) of N round-robin slices of a sweep's points; see the module
/// documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// I, 1-based: 1 ≤ index ≤ count.
    index: usize,
    /// N ≥ 1.
    count: usize,
}

impl Shard {
    /// The whole sweep: slice 1 of 1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Slice `index` (1-based) of `count`.
    pub fn new(index: usize, count: usize) -> Result<Shard, PlanError> {
        let bad = |why: String| PlanError::BadShard {
            text: format!("{index}/{count}"),
            why,
        };
        if count == 0 {
            return Err(bad("N must be at least 1".into()));
        }
        if index == 0 || index > count {
            return Err(bad(format!(
                "I must be between 1 and N = {count} (I is 1-based)"
            )));
        }
        Ok(Shard { index, count })
    }

    /// I, 1-based.
    pub fn index(&self) -> usize {
        self.index
    }

    /// N.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Whether this is the whole sweep (1/1).
    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// Whether global point `k` belongs to this slice: k mod N = I − 1.
    pub fn contains(&self, k: usize) -> bool {
        k % self.count == self.index - 1
    }

    /// This slice's points of a sweep of `total` points, in increasing order.
    pub fn points(&self, total: usize) -> Vec<usize> {
        (self.index - 1..total).step_by(self.count).collect()
    }
}

impl FromStr for Shard {
    type Err = PlanError;

    fn from_str(text: &str) -> Result<Shard, PlanError> {
        let bad = |why: &str| PlanError::BadShard {
            text: text.to_string(),
            why: why.to_string(),
        };
        let (i, n) = text.split_once('/').ok_or_else(|| bad("it has no '/'"))?;
        let number = |s: &str, what: &str| {
            s.trim()
                .parse::<usize>()
                .map_err(|_| bad(&format!("{what} is not a whole number")))
        };
        Shard::new(number(i, "I")?, number(n, "N")?).map_err(|e| match e {
            PlanError::BadShard { why, .. } => bad(&why),
            other => other,
        })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_split_on_top_level_commas_only() {
        assert_eq!(split_values(" 1e5, 2e5 ").unwrap(), ["1e5", "2e5"]);
        assert_eq!(
            split_values("[0,0,1],[0, 0, 2]").unwrap(),
            ["[0,0,1]", "[0, 0, 2]"]
        );
        assert_eq!(
            split_values(r#"{ a = [1,2], b = "x,y" },"q\",r",'s,t'"#).unwrap(),
            [r#"{ a = [1,2], b = "x,y" }"#, r#""q\",r""#, "'s,t'"]
        );
        assert_eq!(split_values("1,,2"), Err(SplitError::Empty { position: 2 }));
        assert_eq!(split_values(""), Err(SplitError::Empty { position: 1 }));
        assert!(matches!(
            split_values("[1,2"),
            Err(SplitError::Unbalanced(_))
        ));
        assert!(matches!(split_values("1]"), Err(SplitError::Unbalanced(_))));
        assert!(matches!(
            split_values("[1}"),
            Err(SplitError::Unbalanced(_))
        ));
        assert!(matches!(
            split_values("\"a"),
            Err(SplitError::Unbalanced(_))
        ));
    }

    #[test]
    fn shard_text_is_checked() {
        assert_eq!("2/3".parse::<Shard>().unwrap(), Shard::new(2, 3).unwrap());
        for bad in ["0/3", "4/3", "1/0", "1", "a/2", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
