//! Fcn: an expression (or a column of expressions) of the input vector, time and named constants
//! (parsed by exmex).

use super::common::{bad, column, param, port, read_count};
use crate::block::{Block, BlockType, Ctx, PortDecl, Setup, Shape};
use crate::model::{Diagnostic, TableReader};
use exmex::{Express, FlatEx};

/// Most distinct names (inputs, constants, `t`) one expression may use; their values are passed
/// to exmex from a stack array, so evaluation does not allocate.
const MAX_VARIABLES: usize = 32;

/// Names exmex reserves as constants: a user constant with one of these names would silently be
/// replaced by the built-in value.
const BUILT_IN_CONSTANTS: [&str; 6] = ["PI", "π", "E", "e", "TAU", "τ"];

/// Where the value of one expression variable comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Source {
    Input(usize),
    Time,
    Constant(f64),
}

/// One parsed expression and where each of its variables comes from.
struct Compiled {
    expr: FlatEx<f64>,
    /// One entry per exmex variable, in exmex's (sorted) variable order.
    sources: Vec<Source>,
}

/// `out[k] = f_k(u, t)` with `u` = the input vector (`u[i]`, 0-based; plain `u` when it has one
/// element), `t` = time (s), and named constants; one expression gives a 1×1 output, an array
/// of m expressions an m×1 column. Parsed once at build; exmex's `eval` keeps up to 32 operands
/// on the stack, so evaluating a typical expression does not allocate.
struct Fcn {
    expressions: Vec<Compiled>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Block for Fcn {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, crate::block::BlockError> {
        Ok(Setup::memoryless(1, 1))
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let t = ctx.t;
        let (u, y) = ctx.input_output(0, 0);
        for (y, compiled) in y.iter_mut().zip(&self.expressions) {
            let mut values = [0.0; MAX_VARIABLES];
            for (v, s) in values.iter_mut().zip(&compiled.sources) {
                *v = match *s {
                    Source::Input(i) => u[i],
                    Source::Time => t,
                    Source::Constant(c) => c,
                };
            }
            // The variable count was checked at build, so eval cannot fail.
            *y = compiled
                .expr
                .eval(&values[..compiled.sources.len()])
                .unwrap_or(f64::NAN);
        }
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

const EXAMPLE: &str = "write e.g. expression = \"-k*u[0]*abs(u[1])\" with constants = { k = 2.0 } \
                       (or an array of expressions for a vector output); operators + - * / ^, \
                       functions sin cos tan exp ln sqrt abs signum atan2 …";

/// Parses one expression `text` over an input of `n` elements; `label` names it in messages
/// ("'expression'" or "'expression[k]'").
fn compile(
    r: &TableReader,
    label: &str,
    text: &str,
    n: usize,
    constants: &[(&str, f64)],
) -> Result<Compiled, Diagnostic> {
    let (rewritten, literals) = rewrite_indices(text, n).map_err(|why| {
        bad(
            r,
            "expression",
            format!("cannot read {label} \"{text}\": {why}"),
            EXAMPLE,
        )
    })?;
    let expr = exmex::parse::<f64>(&rewritten).map_err(|e| {
        bad(
            r,
            "expression",
            format!("cannot parse {label} \"{text}\": {}", e.msg()),
            EXAMPLE,
        )
    })?;
    let mut sources = Vec::with_capacity(expr.var_names().len());
    for name in expr.var_names() {
        let source = if name == "t" {
            Source::Time
        } else if name == "u" {
            if n != 1 {
                return Err(bad(
                    r,
                    "expression",
                    format!("'u' is a vector of {n} elements here"),
                    format!("write u[0] .. u[{}] for its elements", n - 1),
                ));
            }
            Source::Input(0)
        } else if let Some(k) = name
            .strip_prefix("u[")
            .and_then(|s| s.strip_suffix(']'))
            .and_then(|s| s.parse().ok())
        {
            Source::Input(k)
        } else if let Some((_, v)) = constants.iter().find(|(c, _)| c == name) {
            Source::Constant(*v)
        } else if let Some((_, v)) = literals.iter().find(|(c, _)| c == name) {
            Source::Constant(*v)
        } else {
            return Err(bad(
                r,
                "expression",
                format!("unknown name '{name}' in {label}"),
                format!("define it with constants = {{ {name} = 1.0 }}, or write u[i] for input elements and t for time"),
            ));
        };
        sources.push(source);
    }
    if sources.len() > MAX_VARIABLES {
        return Err(bad(
            r,
            "expression",
            format!(
                "{label} uses {} names; at most {MAX_VARIABLES} are supported",
                sources.len()
            ),
            "split it over several Fcn blocks",
        ));
    }
    Ok(Compiled { expr, sources })
}

fn build_fcn(r: &TableReader) -> Result<Box<dyn Block>, Diagnostic> {
    let value = r.value("expression").ok_or_else(|| {
        r.table_error("missing parameter 'expression'")
            .hint(EXAMPLE)
    })?;
    // One string, or a non-empty array of strings (one output element each).
    let texts: Vec<&str> = match (value.as_str(), value.as_array()) {
        (Some(text), _) => vec![text],
        (None, Some(items)) if !items.is_empty() && items.iter().all(|i| i.as_str().is_some()) => {
            items.iter().filter_map(|i| i.as_str()).collect()
        }
        _ => {
            return Err(bad(
                r,
                "expression",
                "'expression' must be a string or a non-empty array of strings",
                EXAMPLE,
            ))
        }
    };
    let vector_output = value.as_array().is_some();
    let n = read_count(r, "inputs", 1, 1)?;
    let mut constants: Vec<(&str, f64)> = Vec::new();
    if let Some(v) = r.value("constants") {
        let table = v.as_table().ok_or_else(|| {
            bad(
                r,
                "constants",
                "'constants' must be a table",
                "write constants = { k = 2.0, m = 0.5 }",
            )
        })?;
        for entry in &table.entries {
            let name = entry.key.as_str();
            let value = entry
                .value
                .as_f64()
                .filter(|x| x.is_finite())
                .ok_or_else(|| {
                    bad(
                        r,
                        "constants",
                        format!("constant '{name}' must be a finite number"),
                        format!("write constants = {{ {name} = 1.0 }}"),
                    )
                })?;
            if BUILT_IN_CONSTANTS.contains(&name) || name == "t" || name == "u" {
                return Err(bad(
                    r,
                    "constants",
                    format!(
                        "'{name}' cannot name a constant: it means {} in expressions",
                        if name == "t" {
                            "time"
                        } else if name == "u" {
                            "the input"
                        } else {
                            "a built-in constant"
                        }
                    ),
                    "choose another name, e.g. restitution",
                ));
            }
            constants.push((name, value));
        }
    }
    let mut expressions = Vec::with_capacity(texts.len());
    for (k, text) in texts.iter().enumerate() {
        let label = if vector_output {
            format!("'expression[{k}]'")
        } else {
            "'expression'".to_string()
        };
        expressions.push(compile(r, &label, text, n, &constants)?);
    }
    r.finish()?;
    let inputs = vec![PortDecl::signal("in", column(n))];
    let outputs = vec![PortDecl::signal("out", column(expressions.len()))];
    Ok(Box::new(Fcn {
        expressions,
        inputs,
        outputs,
    }))
}

pub static FCN: BlockType = BlockType {
    name: "Fcn",
    category: "User-defined",
    summary: "Evaluates an expression of its input vector u (u[0], u[1], …; plain u for one \
              element), the time t and named constants, e.g. \"-k*u[0]*abs(u[1])\"; an array of \
              expressions gives a column output, one element each. Operators + - * / ^; \
              functions sin cos tan asin acos atan sinh cosh tanh exp ln log10 sqrt cbrt abs signum \
              floor ceil round, `a atan2 b`, `a min b`, `a max b`; constants PI, E.",
    params: &[
        param(
            "expression",
            "",
            "required",
            "the formula in u[i], t and the constants; or an array of formulas (m×1 output)",
        ),
        param("inputs", "", "1", "number of elements n of the input u"),
        param("constants", "", "{}", "named numbers used in the expression, e.g. { k = 2.0 }"),
    ],
    ports: &[
        port("in", "input", "n×1", "", "the vector u"),
        port(
            "out",
            "output",
            "1×1, or m×1 for m expressions",
            "",
            "the value of the expression(s)",
        ),
    ],
    build: build_fcn,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};
    use super::rewrite_indices;
    use crate::block::Shape;

    #[test]
    fn an_array_of_expressions_gives_a_column() {
        // A planar rotation of the input by the angle t, and its squared norm.
        let mut h = Harness::new(
            "Fcn",
            "expression = [\"cos(t)*u[0] - sin(t)*u[1]\", \"sin(t)*u[0] + cos(t)*u[1]\", \"u[0]^2 + u[1]^2\"]\ninputs = 2",
            &[Shape::vector(2)],
        );
        assert_eq!(h.outputs[0], Shape::vector(3));
        h.set_input(0, &[3.0, 4.0]);
        let t = std::f64::consts::FRAC_PI_2;
        let y = h.out_at(t, 0);
        // Rotating (3, 4) by 90° gives (−4, 3); the norm is kept: 25.
        assert!(
            (y[0] + 4.0).abs() < 1e-14 && (y[1] - 3.0).abs() < 1e-14,
            "{y:?}"
        );
        assert_eq!(y[2], 25.0);
        // Messages name the element that is wrong.
        let e = build_error("Fcn", "expression = [\"u\", \"u +\"]");
        assert!(e.contains("cannot parse 'expression[1]' \"u +\""), "{e}");
        let e = build_error("Fcn", "expression = [\"u\", \"q\"]");
        assert!(e.contains("unknown name 'q' in 'expression[1]'"), "{e}");
        for bad in [
            "expression = []",
            "expression = [\"u\", 2.0]",
            "expression = 3.0",
        ] {
            assert!(
                build_error("Fcn", bad)
                    .contains("must be a string or a non-empty array of strings"),
                "{bad}"
            );
        }
    }

    #[test]
    fn evaluates_inputs_time_and_constants() {
        let mut h = Harness::new(
            "Fcn",
            "expression = \"-k*u[0]*abs(u[1]) + t\"\ninputs = 2\nconstants = { k = 2.0 }",
            &[Shape::vector(2)],
        );
        h.set_input(0, &[3.0, -0.5]);
        // −2·3·0.5 + 1.5 = −1.5
        assert_eq!(h.out_at(1.5, 0), vec![-1.5]);
        assert_eq!(h.setup.feedthrough, vec![(0, 0)]);
        let mut h = Harness::scalar("Fcn", "expression = \"sin(u)^2 + cos(u)^2 + 1e-3*u\"");
        h.set_input(0, &[0.7]);
        assert!((h.out_at(0.0, 0)[0] - 1.0007).abs() < 1e-14);
    }

    #[test]
    fn rewrites_only_input_indices() {
        let (text, literals) = rewrite_indices("u[1]*2.5e-3+mu[0]-1.5", 2).unwrap();
        assert_eq!(text, "{u[1]}*{#0}+mu[0]-1.5");
        assert_eq!(literals, vec![("#0".to_string(), 2.5e-3)]);
        assert!(rewrite_indices("u[2]", 2)
            .unwrap_err()
            .contains("out of range"));
    }

    #[test]
    fn bad_expressions_are_located_diagnostics() {
        let e = build_error("Fcn", "expression = \"2*(u\"");
        assert!(
            e.contains("cannot parse 'expression'") && e.contains("help:"),
            "{e}"
        );
        let e = build_error("Fcn", "expression = \"k*u\"");
        assert!(
            e.contains("unknown name 'k'") && e.contains("constants = { k = 1.0 }"),
            "{e}"
        );
        assert!(build_error("Fcn", "expression = \"u[3]\"\ninputs = 2").contains("out of range"));
        assert!(build_error("Fcn", "expression = \"u\"\ninputs = 2").contains("write u[0] .. u[1]"));
        assert!(
            build_error("Fcn", "expression = \"e*u\"\nconstants = { e = 0.8 }")
                .contains("built-in constant")
        );
    }
}

#[cfg(test)]
mod robustness {
    use super::super::harness::{build, Harness};

    /// Malformed expressions give diagnostics, never panics.
    #[test]
    fn malformed_expressions_do_not_panic() {
        let inputs = [
            "",
            " ",
            "(",
            ")",
            "()",
            "u u",
            "sin",
            "sin()",
            "1..2",
            "+",
            "-",
            "u^",
            "^u",
            "atan2(u, t)",
            ",",
            "u[",
            "[0]",
            "u[]",
            "u[-1]",
            "u[0",
            "1e",
            "1e+",
            ".5e3*u",
            "u**2",
            "u//2",
            "sin(u,u)",
            "min(u)",
            "u min t",
            "((((u))))",
            "2π",
            "ln(-1)",
            "{x}",
            "u}",
            "ééé",
            "u[0]]",
            "u[[0]]",
            "1/0",
            "t t",
            "--u",
            "+-u",
            "u+",
        ];
        for text in inputs {
            let snippet = format!("expression = \"{text}\"");
            match build("Fcn", &snippet) {
                Ok(_) => {
                    // What parses must also evaluate without panicking.
                    let mut h = Harness::scalar("Fcn", &snippet);
                    h.set_input(0, &[0.5]);
                    let y = h.out_at(1.0, 0)[0];
                    assert!(
                        y.is_finite() || matches!(text, "ln(-1)" | "1/0"),
                        "{text} -> {y}"
                    );
                }
                Err(e) => assert!(e.contains("expression"), "{text}: {e}"),
            }
        }
    }
}
