//! The Fcn grammar: a recursive-descent parser from tokens to an [`Expr`], resolving names as it
//! goes. From the loosest binding to the tightest:
//!
//! ```text
//! expression := sum (NAMED sum)*                      NAMED: atan2 min max, left to right
//! sum        := product (('+' | '-') product)*        left to right
//! product    := signed (('*' | '/') signed)*          left to right, equal priority
//! signed     := ('+' | '-') signed | power            so -u^2 = -(u^2)
//! power      := apply ('^' signed)?                   right to left: 2^3^2 = 2^9, 2^-u = 2^(-u)
//! apply      := FUNCTION argument | NAMED '(' expression ',' expression ')' | primary
//! argument   := ('+' | '-') argument | apply          sin u^2 = (sin u)^2, sin -u = sin(-u)
//! primary    := NUMBER | u | u[i] | t | CONSTANT | ARRAY[i] | '(' expression ')'
//! ```
//!
//! CONSTANT is PI or π, E or e, TAU or τ, or a name of the [`Scope`]'s constants (an Fcn block's
//! `constants` table, a model's scalar variables); ARRAY a name of its arrays (a model's array
//! variables). `u` and `t` exist only in a scope with inputs (the Fcn block). There is no implicit
//! multiplication (`2π`, `u u` are errors).

use super::ast::{Bin, Expr, Func, FUNCTIONS, NAMED_OPERATORS};
use super::lex::{tokens, SyntaxError, Tok};
use std::f64::consts::{E, PI, TAU};

/// How deep parentheses, signs and function applications may nest.
pub(crate) const MAX_NESTING: usize = 64;

/// Most operators and functions one expression may apply (which bounds the tree's height, so
/// that compiling it cannot exhaust the thread's stack).
pub(crate) const MAX_OPERATIONS: usize = 2000;

/// The constants every expression knows.
pub(crate) const BUILT_IN_CONSTANTS: [(&str, f64); 6] = [
    ("PI", PI),
    ("π", PI),
    ("E", E),
    ("e", E),
    ("TAU", TAU),
    ("τ", TAU),
];

/// Why an expression does not parse.
#[derive(Debug, PartialEq)]
pub(crate) enum ParseError {
    Syntax(SyntaxError),
    /// A name that is neither `u`, `t`, a function, an operator nor a constant, and where it
    /// starts (character index).
    Unknown(String, usize),
    /// Plain `u` for an input of more than one element.
    VectorU,
}

impl From<SyntaxError> for ParseError {
    fn from(e: SyntaxError) -> Self {
        ParseError::Syntax(e)
    }
}

type Parsed = Result<Expr, ParseError>;

fn fail<T>(msg: impl Into<String>, at: usize) -> Result<T, ParseError> {
    Err(ParseError::Syntax(SyntaxError {
        msg: msg.into(),
        at,
    }))
}

/// The names an expression may use besides numbers, functions and the built-in constants.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Scope<'a> {
    /// The number of elements of the input `u`, where there is one (the Fcn block: then the
    /// time `t` exists too); `None` in a model's variables.
    pub inputs: Option<usize>,
    /// Named numbers.
    pub constants: &'a [(&'a str, f64)],
    /// Named arrays, read by element (`size[2]`).
    pub arrays: &'a [(&'a str, &'a [f64])],
}

/// The expression tree of `text` in `scope`.
pub(crate) fn parse(text: &str, scope: &Scope) -> Parsed {
    let mut p = Parser {
        toks: tokens(text)?,
        pos: 0,
        depth: 0,
        operations: 0,
        scope: *scope,
    };
    let e = p.expression()?;
    let (tok, at) = p.peek();
    let msg = match tok {
        Tok::End => return Ok(e),
        Tok::Close => "unmatched ')'".to_string(),
        Tok::Comma => "',' outside atan2(a, b), min(a, b) or max(a, b)".to_string(),
        t => format!("missing operator before {} (write e.g. 2*u)", t.describe()),
    };
    fail(msg, at)
}

struct Parser<'a> {
    toks: Vec<(Tok, usize)>,
    pos: usize,
    depth: usize,
    /// Operators and functions read so far.
    operations: usize,
    scope: Scope<'a>,
}

impl Parser<'_> {
    fn peek(&self) -> (&Tok, usize) {
        let (t, at) = &self.toks[self.pos];
        (t, *at)
    }

    /// Counts one operation whose token is the current one.
    fn operation(&mut self) -> Result<(), ParseError> {
        self.operations += 1;
        if self.operations > MAX_OPERATIONS {
            let at = self.peek().1;
            return fail(
                format!("more than {MAX_OPERATIONS} operations; split it over several Fcn blocks"),
                at,
            );
        }
        Ok(())
    }

    fn next(&mut self) -> Tok {
        let t = self.toks[self.pos].0.clone();
        if t != Tok::End {
            self.pos += 1;
        }
        t
    }

    /// Runs `f` one nesting level deeper, refusing to go past [`MAX_NESTING`].
    fn nested(&mut self, f: impl FnOnce(&mut Self) -> Parsed) -> Parsed {
        if self.depth >= MAX_NESTING {
            let at = self.peek().1;
            return fail(
                format!("nested more than {MAX_NESTING} deep; split it over several Fcn blocks"),
                at,
            );
        }
        self.depth += 1;
        let e = f(self);
        self.depth -= 1;
        e
    }

    fn expression(&mut self) -> Parsed {
        let mut left = self.sum()?;
        while let Some(op) = self.named_operator() {
            self.operation()?;
            self.next();
            let right = self.sum()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    /// The named operator at the current token, if it is one.
    fn named_operator(&self) -> Option<Bin> {
        match self.peek().0 {
            Tok::Name(name) => NAMED_OPERATORS
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, op)| *op),
            _ => None,
        }
    }

    fn sum(&mut self) -> Parsed {
        let mut left = self.product()?;
        loop {
            let op = match self.peek().0 {
                Tok::Plus => Bin::Add,
                Tok::Minus => Bin::Sub,
                _ => return Ok(left),
            };
            self.operation()?;
            self.next();
            let right = self.product()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn product(&mut self) -> Parsed {
        let mut left = self.signed()?;
        loop {
            let op = match self.peek().0 {
                Tok::Star => Bin::Mul,
                Tok::Slash => Bin::Div,
                _ => return Ok(left),
            };
            self.operation()?;
            self.next();
            let right = self.signed()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    /// A signed operand; `below` parses what follows the signs.
    fn signs(&mut self, below: fn(&mut Self) -> Parsed) -> Parsed {
        let negate = match self.peek().0 {
            Tok::Plus => false,
            Tok::Minus => true,
            _ => return below(self),
        };
        self.operation()?;
        self.next();
        let inner = self.nested(|p| p.signs(below))?;
        Ok(if negate {
            Expr::Unary(Func::Neg, Box::new(inner))
        } else {
            inner
        })
    }

    fn signed(&mut self) -> Parsed {
        self.signs(Self::power)
    }

    fn power(&mut self) -> Parsed {
        let base = self.apply()?;
        if *self.peek().0 != Tok::Caret {
            return Ok(base);
        }
        self.operation()?;
        self.next();
        let exponent = self.signed()?;
        Ok(Expr::Binary(Bin::Pow, Box::new(base), Box::new(exponent)))
    }

    fn apply(&mut self) -> Parsed {
        let (tok, at) = self.peek();
        let Tok::Name(name) = tok else {
            return self.primary();
        };
        if let Some((name, f)) = FUNCTIONS.iter().find(|(n, _)| n == name) {
            self.operation()?;
            self.next();
            if !matches!(
                self.peek().0,
                Tok::Num(_) | Tok::Name(_) | Tok::Element(..) | Tok::Open | Tok::Plus | Tok::Minus
            ) {
                return fail(
                    format!("function '{name}' needs an argument, e.g. {name}(u)"),
                    at,
                );
            }
            let arg = self.nested(|p| p.signs(Self::apply))?;
            return Ok(Expr::Unary(*f, Box::new(arg)));
        }
        match self.named_operator() {
            Some(op) => {
                self.operation()?;
                self.call(op, at)
            }
            None => self.primary(),
        }
    }

    /// `name(a, b)` for a named operator whose name is at `at`.
    fn call(&mut self, op: Bin, at: usize) -> Parsed {
        let Tok::Name(name) = self.next() else {
            unreachable!("called at a name")
        };
        let usage = format!("write {name}(a, b) or a {name} b");
        if self.next() != Tok::Open {
            return fail(format!("'{name}' needs two operands: {usage}"), at);
        }
        let a = self.nested(Self::expression)?;
        if self.next() != Tok::Comma {
            return fail(format!("{name} takes two arguments: {usage}"), at);
        }
        let b = self.nested(Self::expression)?;
        self.close(at)?;
        Ok(Expr::Binary(op, Box::new(a), Box::new(b)))
    }

    /// Consumes the ')' closing the '(' at `open`.
    fn close(&mut self, open: usize) -> Result<(), ParseError> {
        let (tok, at) = self.peek();
        let msg = match tok {
            Tok::Close => {
                self.next();
                return Ok(());
            }
            Tok::Comma => "',' separates the two arguments of atan2, min and max only".to_string(),
            Tok::End => format!("missing ')' for the '(' at character {}", open + 1),
            t => format!("missing operator before {}", t.describe()),
        };
        fail(msg, at)
    }

    fn primary(&mut self) -> Parsed {
        let (tok, at) = self.peek();
        let tok = tok.clone();
        match tok {
            Tok::Num(x) => {
                self.next();
                Ok(Expr::Num(x))
            }
            Tok::Element(name, k) => {
                self.next();
                self.element(&name, k, at)
            }
            Tok::Open => {
                self.next();
                let e = self.nested(Self::expression)?;
                self.close(at)?;
                Ok(e)
            }
            Tok::Name(name) => {
                self.next();
                self.name(&name, at)
            }
            t => fail(
                format!(
                    "expected a number, a name or '(' but found {}",
                    t.describe()
                ),
                at,
            ),
        }
    }

    /// The element `name[k]` written at `at`: of the input `u`, or of a named array.
    fn element(&self, name: &str, k: usize, at: usize) -> Parsed {
        let array = self.scope.arrays.iter().find(|(a, _)| *a == name);
        let (what, len) = match (name, self.scope.inputs, array) {
            ("u", Some(n), _) => ("the input", n),
            (_, _, Some((_, values))) => ("the array", values.len()),
            _ if self.scope.constants.iter().any(|(c, _)| *c == name) => {
                return fail(format!("'{name}' is a number, not an array"), at)
            }
            (_, Some(_), None) => {
                return fail(format!("'{name}[{k}]': only u[i] takes brackets here"), at)
            }
            (_, None, None) => return Err(ParseError::Unknown(name.to_string(), at)),
        };
        if k >= len {
            let range = match len {
                0 => "none".to_string(),
                _ => format!("{name}[0]..{name}[{}]", len - 1),
            };
            return fail(
                format!("{name}[{k}] is out of range: {what} has {len} element(s), {range}"),
                at,
            );
        }
        Ok(match array {
            Some((_, values)) if name != "u" || self.scope.inputs.is_none() => Expr::Num(values[k]),
            _ => Expr::Input(k),
        })
    }

    /// The value of an operand name at `at`.
    fn name(&self, name: &str, at: usize) -> Parsed {
        if let Some(n) = self.scope.inputs {
            if name == "t" {
                return Ok(Expr::Time);
            }
            if name == "u" {
                return if n == 1 {
                    Ok(Expr::Input(0))
                } else {
                    Err(ParseError::VectorU)
                };
            }
        }
        let constant = BUILT_IN_CONSTANTS
            .iter()
            .chain(self.scope.constants)
            .find(|(c, _)| *c == name);
        if let Some((_, x)) = constant {
            return Ok(Expr::Num(*x));
        }
        if NAMED_OPERATORS.iter().any(|(n, _)| *n == name) {
            return fail(
                format!("'{name}' needs two operands: write a {name} b or {name}(a, b)"),
                at,
            );
        }
        if self.scope.arrays.iter().any(|(a, _)| *a == name) {
            return fail(
                format!("'{name}' is an array: write {name}[i] for one element"),
                at,
            );
        }
        Err(ParseError::Unknown(name.to_string(), at))
    }
}
