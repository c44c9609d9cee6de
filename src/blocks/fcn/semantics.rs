//! Closed-form tests of the Fcn grammar and evaluation: priorities, grouping, every function,
//! named operator and constant, non-finite values, and the diagnostics of bad expressions.

use super::super::harness::build_error;
use super::parse;
use super::program::{fold, Program};
use std::f64::consts::{E, FRAC_PI_4, PI, TAU};

/// The value of `text` at u = (0.5, −2), t = 1.5 with the constant k = 2.
fn value(text: &str) -> f64 {
    let tree = parse(text, 2, &[("k", 2.0)]).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    Program::compile(&fold(tree)).eval(&[0.5, -2.0], 1.5)
}

fn check(cases: &[(&str, f64)]) {
    for &(text, expected) in cases {
        let y = value(text);
        let ok = (y - expected).abs() <= 1e-15 * expected.abs().max(1.0);
        assert!(ok, "{text} = {y}, expected {expected}");
    }
}

#[test]
fn priorities_and_grouping() {
    check(&[
        ("1 + 2*3", 7.0),
        ("2*3 + 1", 7.0),
        ("8/4/2", 1.0),
        ("8/4*2", 4.0),
        ("2*3/4", 1.5),
        ("1 - 2 - 3", -4.0),
        ("1 - 2 + 3", 2.0),
        ("2^3^2", 512.0),
        ("(2^3)^2", 64.0),
        ("-2^2", -4.0),
        ("(-2)^2", 4.0),
        ("-u[1]^2", -4.0),
        ("2^-1", 0.5),
        ("2^-1^2", 0.5),
        ("2^-u[0]*4", 4.0 * 0.5f64.powf(-0.5).recip()),
        ("--3", 3.0),
        ("+-3", -3.0),
        ("2*-3", -6.0),
        ("2 - -3", 5.0),
        ("exp 1^2", E * E),
        ("exp(1)^2", E * E),
        ("sin -u[0]", (-0.5f64).sin()),
        ("abs -3*2", 6.0),
        ("cos cos 0", 1f64.cos()),
        ("((((u[0]))))", 0.5),
        (" 1\t+\n2 ", 3.0),
    ]);
}

#[test]
fn named_operators_bind_loosest() {
    check(&[
        ("3 max 2 + 5", 7.0),
        ("1 - 5 max 2", 2.0),
        ("1 max 2 * 3", 6.0),
        ("4 min 3 min 2", 2.0),
        ("(3 max 2) + 5", 8.0),
        ("1 atan2 1", FRAC_PI_4),
        ("atan2(1, -1)", 3.0 * FRAC_PI_4),
        ("min(3, 2)", 2.0),
        ("max(u[0], u[1])", 0.5),
        ("2*max(u[0] - 1, t) + 1", 4.0),
        ("max(min(1, 2), atan2(0, 1))", 1.0),
    ]);
}

#[test]
fn functions_constants_and_numbers() {
    let x: f64 = 0.3;
    let functions: [(&str, f64, f64); 26] = [
        ("abs", -x, x),
        ("signum", -x, -1.0),
        ("sin", x, x.sin()),
        ("cos", x, x.cos()),
        ("tan", x, x.tan()),
        ("asin", x, x.asin()),
        ("acos", x, x.acos()),
        ("atan", x, x.atan()),
        ("sinh", x, x.sinh()),
        ("cosh", x, x.cosh()),
        ("tanh", x, x.tanh()),
        ("asinh", x, x.asinh()),
        ("acosh", 1.0 + x, (1.0 + x).acosh()),
        ("atanh", x, x.atanh()),
        ("floor", -2.5, -3.0),
        ("round", -2.5, -3.0),
        ("ceil", -2.5, -2.0),
        ("trunc", -2.5, -2.0),
        ("fract", -2.5, -0.5),
        ("exp", x, x.exp()),
        ("sqrt", x, x.sqrt()),
        ("cbrt", -8.0, -2.0),
        ("ln", x, x.ln()),
        ("log", x, x.ln()),
        ("log2", 8.0, 3.0),
        ("log10", 1000.0, 3.0),
    ];
    for (name, arg, expected) in functions {
        // Both the call and the application without parentheses, on a folded constant and on
        // an input (compiled, not folded).
        check(&[(&format!("{name}({arg})"), expected)]);
        let tree = parse(&format!("{name} u"), 1, &[]).unwrap();
        let y = Program::compile(&fold(tree)).eval(&[arg], 0.0);
        assert!((y - expected).abs() <= 1e-15, "{name}({arg}) = {y}");
    }
    check(&[
        ("PI + π", 2.0 * PI),
        ("E*e", E * E),
        ("TAU - τ", 0.0),
        ("TAU", TAU),
        ("k*u[0] + t", 2.5),
        ("1.5e3", 1500.0),
        ("2.5E-2", 0.025),
        ("1e+2", 100.0),
        (".5e1", 5.0),
        ("4.", 4.0),
        ("u[0]^3", 0.125),
        ("u[1]^-2", 0.25),
        ("u[1]^0", 1.0),
        ("u[1]^1", -2.0),
        ("u[1]^5", -32.0),
        ("u[1]^-7", -1.0 / 128.0),
        ("u[0]^0.5", 0.5f64.sqrt()),
        ("u[0]^100", 0.5f64.powf(100.0)),
        ("2^u[0]", 2f64.sqrt()),
    ]);
}

#[test]
fn non_finite_values_propagate() {
    for text in [
        "ln(-1)",
        "0/0",
        "sqrt(u[1])",
        "u[1]^0.5",
        "asin(2)",
        "ln(-1) + 1",
    ] {
        assert!(value(text).is_nan(), "{text}");
    }
    for (text, y) in [
        ("1/0", f64::INFINITY),
        ("-1/0", f64::NEG_INFINITY),
        ("ln(0)", f64::NEG_INFINITY),
        ("0^-1", f64::INFINITY),
        ("(u[0] - 0.5)^-3", f64::INFINITY),
        ("exp(1000)", f64::INFINITY),
    ] {
        assert_eq!(value(text), y, "{text}");
    }
    // min and max return the other operand when one is NaN, as f64::min does.
    check(&[("u[1] min ln(-1)", -2.0), ("max(ln(-1), 3)", 3.0)]);
}

#[test]
fn bad_expressions_give_located_messages() {
    let cases = [
        (
            "2*(u",
            "missing ')' for the '(' at character 3 (at character 5)",
        ),
        (
            "u +",
            "expected a number, a name or '(' but found the end (at character 4)",
        ),
        (
            "2π",
            "missing operator before 'π' (write e.g. 2*u) (at character 2)",
        ),
        ("u u", "missing operator before 'u'"),
        (
            "sin",
            "function 'sin' needs an argument, e.g. sin(u) (at character 1)",
        ),
        ("sin()", "expected a number, a name or '(' but found ')'"),
        (
            "sin(u, u)",
            "',' separates the two arguments of atan2, min and max only",
        ),
        (
            "min(u)",
            "min takes two arguments: write min(a, b) or a min b",
        ),
        (
            "u max",
            "expected a number, a name or '(' but found the end",
        ),
        ("max + u", "'max' needs two operands"),
        (
            "u**2",
            "expected a number, a name or '(' but found '*' (at character 3)",
        ),
        ("1..2", "a number with two '.' (at character 1)"),
        (
            "u[0]]",
            "unexpected ']' (brackets follow a name: u[i], size[2]) (at character 5)",
        ),
        (
            "mu[0]",
            "'mu[0]': only u[i] takes brackets here (at character 1)",
        ),
        ("{x}", "unexpected character '{'"),
        ("u)", "unmatched ')'"),
        ("u, t", "',' outside atan2(a, b)"),
    ];
    for (text, expected) in cases {
        let e = build_error("Fcn", &format!("expression = \"{text}\""));
        assert!(
            e.contains(&format!("cannot parse 'expression' \"{text}\": {expected}"))
                && e.contains("help:"),
            "{text}: {e}"
        );
    }
    let e = build_error("Fcn", "expression = \"foo(u)\"");
    assert!(
        e.contains("unknown name 'foo'") && e.contains("constants = { foo = 1.0 }"),
        "{e}"
    );
    let e = build_error("Fcn", "expression = \"u[2]\"\ninputs = 2");
    assert!(
        e.contains("u[2] is out of range: the input has 2 element(s), u[0]..u[1]"),
        "{e}"
    );
}

#[test]
fn depth_limits_are_diagnostics() {
    // Each level keeps one value waiting (both operands of '-' are computed).
    let deep = "sin(u) - (".repeat(40) + "u" + &")".repeat(40);
    let e = build_error("Fcn", &format!("expression = \"{deep}\""));
    assert!(
        e.contains("needs 39 intermediate values at once; at most 32 are supported")
            && e.contains("split it over several Fcn blocks"),
        "{e}"
    );
    let nested = "(".repeat(100) + "u" + &")".repeat(100);
    let e = build_error("Fcn", &format!("expression = \"{nested}\""));
    assert!(e.contains("nested more than 64 deep"), "{e}");
    // A long flat sum needs no stack at all.
    let long = vec!["sin(u)"; 200].join(" + ");
    let y = value(&long.replace('u', "u[0]"));
    assert!((y - 200.0 * 0.5f64.sin()).abs() < 1e-12, "{y}");
}

#[test]
fn operation_count_is_bounded() {
    let long = vec!["u"; 2002].join("+");
    let e = build_error("Fcn", &format!("expression = \"{long}\""));
    assert!(
        e.contains("more than 2000 operations; split it over several Fcn blocks"),
        "{e}"
    );
    // The longest accepted one compiles (a tree 2000 deep) and evaluates.
    assert_eq!(value(&vec!["u[0]"; 2000].join("+")), 1000.0);
    assert_eq!(value(&format!("{}u[0]", "-".repeat(63))), -0.5);
}
