//! Fcn: an expression (or a column of expressions) of the input vector, time and named constants,
//! parsed once at build (`parse.rs`, grammar there) and compiled into a flat program (`program.rs`)
//! that evaluates without allocating.
//!
//! Semantics follow standard mathematical conventions: `-u^2` = −(u²), `^` groups right to left
//! (`2^3^2` = 2⁹), `*` and `/` have equal priority and group left to right (`a/b*c` = (a/b)·c),
//! as do `+` and `-`; the named operators `atan2`, `min`, `max` bind loosest. Where this differs
//! from exmex 0.21 (which read expressions before), see the note in the FCN summary.

#[cfg(test)]
mod differential;
mod program;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod semantics;

use super::common::{bad, column, param, port, read_port_count};
use super::unit_key::{UnitKey, UNIT_DOC};
use crate::block::{
    Block, BlockType, Ctx, Param, PortDecl, ScalarFunction, ScalarKernel, Setup, Shape, UnitInputs,
    Units,
};
use crate::expr::ast::Expr;
use crate::expr::parse::{ParseError, Scope, BUILT_IN_CONSTANTS};
use crate::params::{ParamError, Params};
use program::{Program, MAX_STACK};

const INPUTS: Param<usize> = crate::param!("inputs", "", 1, "number of elements n of the input u");

/// `out[k] = f_k(u, t)` with `u` = the input vector (`u[i]`, 0-based; plain `u` when it has one
/// element), `t` = time (s), and named constants; one expression gives a 1×1 output, an array
/// of m expressions an m×1 column. Each expression is a compiled [`Program`].
struct Fcn {
    programs: Vec<Program>,
    /// The `unit` key: the output's unit (every element's).
    unit: UnitKey,
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
    fn output_units(&self, _: &UnitInputs<'_>) -> Vec<Units> {
        vec![self.unit.units()]
    }
    fn warnings(&self) -> Vec<String> {
        self.unit.warnings()
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, crate::block::BlockError> {
        Ok(Setup::memoryless(1, 1))
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let t = ctx.t;
        let (signals, inputs, outputs) = ctx.raw();
        let (u, y) = (inputs[0].range(), outputs[0].offset as usize);
        // The output slots are the block's own, apart from its input's.
        if let [program] = &self.programs[..] {
            signals[y] = program.eval(&signals[u], t);
            return;
        }
        for (k, program) in self.programs.iter().enumerate() {
            signals[y + k] = program.eval(&signals[u.clone()], t);
        }
    }
    /// One expression of a one-element input: the engine evaluates the program in place (it
    /// checks that the input and output have one element, so the program reads `u[0]` only).
    fn scalar_kernel(&self) -> Option<ScalarKernel<'_>> {
        match &self.programs[..] {
            [program] => Some(ScalarKernel::Function(program)),
            _ => None,
        }
    }
}

impl ScalarFunction for Program {
    /// The same call as [`Fcn::outputs_eval`] makes, on a one-element input.
    #[inline]
    fn eval(&self, u: f64, t: f64) -> f64 {
        Program::eval(self, std::slice::from_ref(&u), t)
    }
}

const EXAMPLE: &str = "write e.g. expression = \"-k*u[0]*abs(u[1])\" with constants = { k = 2.0 } \
                       (or an array of expressions for a vector output); operators + - * / ^, \
                       functions sin cos tan exp ln sqrt abs signum …, a atan2 b, a min b, a max b";

/// The tree of `text` over an input of `n` elements (and the time) with the named `constants`.
fn parse(text: &str, n: usize, constants: &[(&str, f64)]) -> Result<Expr, ParseError> {
    let scope = Scope {
        inputs: Some(n),
        constants,
        arrays: &[],
    };
    crate::expr::parse::parse(text, &scope)
}

/// Parses and compiles one expression `text` over an input of `n` elements; `label` names it in
/// messages ("'expression'" or "'expression[k]'").
fn compile(
    r: &Params,
    label: &str,
    text: &str,
    n: usize,
    constants: &[(&str, f64)],
) -> Result<Program, ParamError> {
    let tree = parse(text, n, constants).map_err(|e| match e {
        ParseError::Syntax(e) => bad(
            r,
            "expression",
            format!(
                "cannot parse {label} \"{text}\": {} (at character {})",
                e.msg,
                e.at + 1
            ),
            EXAMPLE,
        ),
        ParseError::VectorU => bad(
            r,
            "expression",
            format!("'u' is a vector of {n} elements here"),
            format!("write u[0] .. u[{}] for its elements", n - 1),
        ),
        ParseError::Unknown(name, _) => bad(
            r,
            "expression",
            format!("unknown name '{name}' in {label}"),
            format!("define it with constants = {{ {name} = 1.0 }}, or write u[i] for input elements and t for time"),
        ),
    })?;
    let program = Program::compile(&program::fold(tree));
    if program.depth() > MAX_STACK {
        return Err(bad(
            r,
            "expression",
            format!(
                "{label} needs {} intermediate values at once; at most {MAX_STACK} are supported",
                program.depth()
            ),
            "split it over several Fcn blocks",
        ));
    }
    Ok(program)
}

fn build_fcn(r: &Params) -> Result<Box<dyn Block>, ParamError> {
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
    let n = read_port_count(r, &INPUTS, 1)?;
    let mut constants: Vec<(&str, f64)> = Vec::new();
    let written_constants = r.value("constants");
    if let Some(v) = &written_constants {
        let table = v.as_table().ok_or_else(|| {
            bad(
                r,
                "constants",
                "'constants' must be a table",
                "write constants = { k = 2.0, m = 0.5 }",
            )
        })?;
        for (name, value) in table {
            let name = name.as_str();
            let value = value.as_f64().filter(|x| x.is_finite()).ok_or_else(|| {
                bad(
                    r,
                    "constants",
                    format!("constant '{name}' must be a finite number"),
                    format!("write constants = {{ {name} = 1.0 }}"),
                )
            })?;
            if BUILT_IN_CONSTANTS.iter().any(|(c, _)| *c == name) || name == "t" || name == "u" {
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
    let unit = UnitKey::read(r)?;
    r.finish()?;
    let inputs = vec![PortDecl::signal("in", column(n))];
    let outputs = vec![PortDecl::signal("out", column(expressions.len()))];
    Ok(Box::new(Fcn {
        programs: expressions,
        unit,
        inputs,
        outputs,
    }))
}

pub static FCN: BlockType = BlockType {
    name: "Fcn",
    category: "User-defined",
    summary: "Evaluates an expression of its input vector u (u[0], u[1], …; plain u for one \
              element), the time t and named constants, e.g. \"-k*u[0]*abs(u[1])\"; an array of \
              expressions gives a column output, one element each. Parsed and compiled once at \
              build. From loosest to tightest: the named operators `a atan2 b` (= atan2(a, b)), \
              `a min b`, `a max b`, also written atan2(a, b), min(a, b), max(a, b); `+ -`; `* /` \
              (equal priority, left to right); signs (-u^2 = -(u^2)); `^` (right to left: 2^3^2 = \
              2^9; 2^-u = 2^(-u)); functions, as sin(u) or sin u (sin u^2 = (sin u)^2): abs signum \
              sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh floor round ceil trunc \
              fract exp sqrt cbrt ln log (= ln) log2 log10. Numbers 2, 0.5, .5, 2.5e-3; constants \
              PI or π, E or e, TAU or τ; no implicit multiplication (write 2*π). Unlike exmex, \
              which read expressions before, a sign binds looser than ^ and ^ groups right to \
              left (docs/model-format.md, \"Fcn expressions\").",
    params: &[
        param(
            "expression",
            "",
            "required",
            "the formula in u[i], t and the constants; or an array of formulas (m×1 output)",
        ),
        INPUTS.doc,
        param(
            "constants",
            "",
            "{}",
            "named numbers used in the expression, e.g. { k = 2.0 }",
        ),
        UNIT_DOC,
    ],
    ports: &[
        port("in", "input", "n×1", "", "the vector u"),
        port(
            "out",
            "output",
            "1×1, or m×1 for m expressions",
            "`unit`",
            "the value of the expression(s)",
        ),
    ],
    build: build_fcn,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};
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

    /// Malformed and edge-case expressions (also read by the differential test against exmex).
    pub(super) const MALFORMED: [&str; 41] = [
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

    /// Malformed expressions give diagnostics, never panics.
    #[test]
    fn malformed_expressions_do_not_panic() {
        for text in MALFORMED {
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
