//! The evaluator Fcn used before its own compiler: exmex 0.21 behind a pre-pass that rewrites
//! `u[i]` and scientific notation. Kept (test-only) as the reference of the differential test.

use exmex::{Express, FlatEx};

/// One expression as exmex reads it, and where each of its (sorted) variables comes from.
pub(super) struct Reference {
    expr: FlatEx<f64>,
    sources: Vec<Source>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Source {
    Input(usize),
    Time,
    Constant(f64),
}

impl Reference {
    /// Parses `text` over an input of `n` elements as the exmex-based Fcn did; `Err` where it
    /// gave a diagnostic.
    pub(super) fn parse(text: &str, n: usize, constants: &[(&str, f64)]) -> Result<Self, String> {
        let (rewritten, literals) = rewrite_indices(text, n)?;
        let expr = exmex::parse::<f64>(&rewritten).map_err(|e| e.msg().to_string())?;
        let mut sources = Vec::new();
        for name in expr.var_names() {
            let index = name
                .strip_prefix("u[")
                .and_then(|s| s.strip_suffix(']'))
                .and_then(|s| s.parse().ok());
            let constant = constants
                .iter()
                .copied()
                .chain(literals.iter().map(|(c, v)| (c.as_str(), *v)))
                .find(|(c, _)| c == name)
                .map(|(_, v)| v);
            sources.push(match (name.as_str(), index, constant) {
                ("t", _, _) => Source::Time,
                ("u", _, _) if n == 1 => Source::Input(0),
                (_, Some(k), _) => Source::Input(k),
                (_, _, Some(v)) => Source::Constant(v),
                _ => return Err(format!("unknown name '{name}'")),
            });
        }
        Ok(Reference { expr, sources })
    }

    pub(super) fn eval(&self, u: &[f64], t: f64) -> f64 {
        let values: Vec<f64> = self
            .sources
            .iter()
            .map(|s| match *s {
                Source::Input(i) => u[i],
                Source::Time => t,
                Source::Constant(c) => c,
            })
            .collect();
        self.expr.eval(&values).unwrap_or(f64::NAN)
    }
}

/// Rewrites `u[i]` as exmex's braced variable `{u[i]}`, checking `i < n`, and numbers in
/// scientific notation (which exmex does not read) as braced variables `{#k}` whose values are
/// returned; leaves other numbers and names untouched.
fn rewrite_indices(text: &str, n: usize) -> Result<(String, Vec<(String, f64)>), String> {
    let mut literals = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    let is_start = |c: char| c.is_alphabetic() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        if c == '{' || c == '}' {
            return Err("braces '{' '}' are not allowed".into());
        }
        if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit)) {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let mantissa_end = i;
            if i < chars.len() && (chars[i] == 'e' || chars[i] == 'E') {
                let mut j = i + 1;
                if j < chars.len() && (chars[j] == '+' || chars[j] == '-') {
                    j += 1;
                }
                if chars.get(j).is_some_and(char::is_ascii_digit) {
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        j += 1;
                    }
                    i = j;
                }
            }
            let literal: String = chars[start..i].iter().collect();
            if i == mantissa_end {
                out.push_str(&literal);
            } else {
                let value: f64 = literal
                    .parse()
                    .map_err(|_| format!("'{literal}' is not a number"))?;
                let name = format!("#{}", literals.len());
                out.push_str(&format!("{{{name}}}"));
                literals.push((name, value));
            }
            continue;
        }
        if is_start(c) {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            let mut j = i;
            while chars.get(j).is_some_and(|c| c.is_whitespace()) {
                j += 1;
            }
            if name == "u" && chars.get(j) == Some(&'[') {
                let close = chars[j..]
                    .iter()
                    .position(|&c| c == ']')
                    .ok_or("'u[' has no closing ']'")?
                    + j;
                let inner: String = chars[j + 1..close].iter().collect();
                let k: usize = inner
                    .trim()
                    .parse()
                    .map_err(|_| format!("'u[{inner}]' needs a non-negative integer index"))?;
                if k >= n {
                    return Err(format!(
                        "u[{k}] is out of range: the input has {n} element(s), u[0]..u[{}]",
                        n - 1
                    ));
                }
                out.push_str(&format!("{{u[{k}]}}"));
                i = close + 1;
            } else {
                out.push_str(&name);
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    Ok((out, literals))
}

#[cfg(test)]
mod tests {
    use super::rewrite_indices;

    #[test]
    fn rewrites_only_input_indices() {
        let (text, literals) = rewrite_indices("u[1]*2.5e-3+mu[0]-1.5", 2).unwrap();
        assert_eq!(text, "{u[1]}*{#0}+mu[0]-1.5");
        assert_eq!(literals, vec![("#0".to_string(), 2.5e-3)]);
        assert!(rewrite_indices("u[2]", 2)
            .unwrap_err()
            .contains("out of range"));
    }
}
