//! The differential test: random expressions, written in the part of the grammar where exmex 0.21
//! (the former evaluator, kept as [`Reference`]) and our parser agree, must evaluate to the same
//! value in both, to 1e-12 relative (absolute below 1), or to non-finite values in both.
//!
//! The part where both agree: a sign is followed by an operand without `^` (exmex binds a sign
//! tighter than `^`); `^` does not chain; `+` and `*` join two operands only (exmex computes
//! `a + b + c` as `a + (b + c)` when b and c are numbers, which rounds differently); the right
//! operand of a named operator has no `+` (exmex gives `+` the named operators' priority, `-` a
//! higher one); `atan2(a, b)`, `min(a, b)`, `max(a, b)` do not nest (exmex's comma rewriting).

use super::parse;
use super::program::{fold, Program};
use super::reference::Reference;

/// A small deterministic generator (xorshift64*), so the test writes no regression files.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const FUNCTIONS: [&str; 26] = [
    "abs", "signum", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh",
    "acosh", "atanh", "floor", "round", "ceil", "trunc", "fract", "exp", "sqrt", "cbrt", "ln",
    "log", "log2", "log10",
];
const NAMED: [&str; 3] = ["atan2", "min", "max"];
const CONSTANTS: [(&str, f64); 2] = [("k", 1.7), ("gain", -0.3)];

/// Writes random expressions at each level of the grammar; `budget` bounds their size, `calls`
/// whether `atan2(a, b)`-style calls are still allowed (they do not nest).
struct Writer {
    rng: Rng,
    inputs: usize,
}

impl Writer {
    fn named(&mut self, budget: u32, calls: bool) -> String {
        if budget == 0 || self.rng.below(4) != 0 {
            return self.sum(budget, calls);
        }
        let left = self.named(budget - 1, calls);
        let op = self.rng.pick(&NAMED);
        let right = if self.rng.below(2) == 0 {
            self.product(budget - 1, calls)
        } else {
            format!(
                "{} - {}",
                self.product(budget - 1, calls),
                self.product(budget - 1, calls)
            )
        };
        format!("{left} {op} {right}")
    }

    fn sum(&mut self, budget: u32, calls: bool) -> String {
        if budget == 0 {
            return self.product(0, calls);
        }
        match self.rng.below(4) {
            0 => format!(
                "{} - {}",
                self.sum(budget - 1, calls),
                self.product(budget - 1, calls)
            ),
            1 => format!(
                "{} + {}",
                self.product(budget - 1, calls),
                self.product(budget - 1, calls)
            ),
            _ => self.product(budget, calls),
        }
    }

    fn product(&mut self, budget: u32, calls: bool) -> String {
        if budget == 0 {
            return self.signed(0, calls);
        }
        match self.rng.below(4) {
            0 => format!(
                "{}/{}",
                self.product(budget - 1, calls),
                self.signed(budget - 1, calls)
            ),
            1 => format!(
                "{}*{}",
                self.signed(budget - 1, calls),
                self.signed(budget - 1, calls)
            ),
            _ => self.signed(budget, calls),
        }
    }

    fn signed(&mut self, budget: u32, calls: bool) -> String {
        match self.rng.below(6) {
            0 => format!("-{}", self.apply(budget, calls)),
            1 => format!("-{}", self.signed_apply(budget, calls)),
            _ => self.power(budget, calls),
        }
    }

    /// Signs before an operand without `^`.
    fn signed_apply(&mut self, budget: u32, calls: bool) -> String {
        match self.rng.below(3) {
            0 => format!("-{}", self.signed_apply(budget, calls)),
            1 => format!("+{}", self.apply(budget, calls)),
            _ => self.apply(budget, calls),
        }
    }

    fn power(&mut self, budget: u32, calls: bool) -> String {
        if self.rng.below(4) != 0 {
            return self.apply(budget, calls);
        }
        let base = self.apply(budget.saturating_sub(1), calls);
        let exponent = match self.rng.below(4) {
            0 => format!("{}", self.rng.below(9) as i32 - 3),
            1 => format!("-{}", self.rng.below(4)),
            2 => format!("-{}", self.apply(budget.saturating_sub(1), calls)),
            _ => self.apply(budget.saturating_sub(1), calls),
        };
        format!("{base}^{exponent}")
    }

    fn apply(&mut self, budget: u32, calls: bool) -> String {
        let f = self.rng.pick(&FUNCTIONS);
        match self.rng.below(8) {
            0 | 1 if budget > 0 => format!("{f}({})", self.named(budget - 1, calls)),
            2 => format!("{f} {}", self.atom()),
            3 => format!("{f} -{}", self.atom()),
            4 if calls && budget > 0 => {
                let op = self.rng.pick(&NAMED);
                let a = self.named(budget - 1, false);
                let b = self.named(budget - 1, false);
                format!("{op}({a}, {b})")
            }
            _ => self.primary(budget, calls),
        }
    }

    fn primary(&mut self, budget: u32, calls: bool) -> String {
        if budget > 0 && self.rng.below(3) == 0 {
            return format!("({})", self.named(budget - 1, calls));
        }
        self.atom()
    }

    fn atom(&mut self) -> String {
        match self.rng.below(10) {
            0 => "t".into(),
            1 => self.rng.pick(&["PI", "e", "E", "TAU"]).into(),
            2 => CONSTANTS[self.rng.below(2)].0.into(),
            3 => self
                .rng
                .pick(&["0.5", "3", "2.5e-1", "12.25", "1E1", ".75", "4."])
                .into(),
            4 => format!("{}", self.rng.below(5)),
            _ if self.inputs == 1 && self.rng.below(2) == 0 => "u".into(),
            _ => format!("u[{}]", self.rng.below(self.inputs)),
        }
    }
}

fn agree(ours: f64, reference: f64) -> bool {
    if !ours.is_finite() || !reference.is_finite() {
        return !ours.is_finite() && !reference.is_finite();
    }
    (ours - reference).abs() <= 1e-12 * ours.abs().max(reference.abs()).max(1.0)
}

/// Checks `count` expressions over `inputs` input elements; returns how many gave a finite value.
fn check(seed: u64, count: usize, inputs: usize) -> usize {
    let mut w = Writer {
        rng: Rng(seed),
        inputs,
    };
    let mut finite = 0;
    for _ in 0..count {
        let budget = 1 + w.rng.below(4) as u32;
        let text = w.named(budget, true);
        let tree = parse(&text, inputs, &CONSTANTS)
            .unwrap_or_else(|e| panic!("ours rejects \"{text}\": {e:?}"));
        let program = Program::compile(&fold(tree));
        let reference = Reference::parse(&text, inputs, &CONSTANTS)
            .unwrap_or_else(|e| panic!("exmex rejects \"{text}\": {e}"));
        for _ in 0..4 {
            let u: Vec<f64> = (0..inputs).map(|_| w.rng.uniform(-2.0, 2.0)).collect();
            let t = w.rng.uniform(0.0, 3.0);
            let (ours, theirs) = (program.eval(&u, t), reference.eval(&u, t));
            assert!(
                agree(ours, theirs),
                "\"{text}\" at u = {u:?}, t = {t}: ours {ours}, exmex {theirs}"
            );
            finite += usize::from(ours.is_finite());
        }
    }
    finite
}

#[test]
fn agrees_with_exmex_where_the_grammars_agree() {
    let finite = check(0x5eed_f00d_1234_5678, 3000, 3);
    // Most points must be in the functions' domains, or the test would compare little.
    assert!(finite > 3000 * 4 / 2, "{finite} finite values");
    check(0x0123_4567_89ab_cdef, 500, 1);
}

/// The robustness list of mod.rs and other edge cases: which of them each parser accepts.
#[test]
fn accepted_and_rejected_like_exmex() {
    // The robustness list of mod.rs, then more forms where the two grammars may differ.
    let more = [
        "u\t+ 1",
        "max_u + 1",
        "sin u",
        "2*-u",
        "u^-2",
        "-(u)",
        "(u)(t)",
        "2(u)",
        "u(2)",
        "abs -u",
        "sinu",
        "e",
        "u e",
        "atan2(min(u, 1), t)",
    ];
    let inputs = super::robustness::MALFORMED.iter().chain(&more).copied();
    let constants = [("max_u", 1.0)];
    let mut differ = Vec::new();
    for text in inputs {
        match (
            parse(text, 1, &constants),
            Reference::parse(text, 1, &constants),
        ) {
            (Ok(tree), Ok(reference)) => {
                let (ours, theirs) = (
                    Program::compile(&fold(tree)).eval(&[0.5], 1.0),
                    reference.eval(&[0.5], 1.0),
                );
                assert!(agree(ours, theirs), "{text}: ours {ours}, exmex {theirs}");
            }
            (Err(_), Err(_)) => {}
            (ours, _) => differ.push((text, ours.is_ok())),
        }
    }
    // Only where we accept more: any whitespace separates tokens (exmex only reads spaces), and
    // a name may begin with an operator's name (exmex reads `max_u` as `max` then `_u`).
    assert_eq!(differ, [("u\t+ 1", true), ("max_u + 1", true)]);
}

/// Where both parse but the meaning changed (standard conventions now; exmex's before).
#[test]
fn documented_differences_from_exmex() {
    // (text, ours, exmex's) at u = 0.5, t = 1.
    let cases = [
        ("-2^2", -4.0, 4.0),
        ("-u^2", -0.25, 0.25),
        ("-(u + 1)^2", -2.25, 2.25),
        ("-sin(u)^2", -0.5f64.sin().powi(2), 0.5f64.sin().powi(2)),
        ("2^3^2", 512.0, 64.0),
        ("2^-u^2", 2f64.powf(-0.25), 2f64.powf(-0.5).powi(2)),
        // exmex gave `+` the named operators' priority, except between two literal numbers
        // (`3 max 2 + 5` was 7 there too).
        ("u max 0 + t", 1.0, 1.5),
        ("u min t + 5", 0.5, 5.5),
    ];
    for (text, ours, exmex) in cases {
        let tree = parse(text, 1, &[]).unwrap();
        let y = Program::compile(&fold(tree)).eval(&[0.5], 1.0);
        let r = Reference::parse(text, 1, &[]).unwrap().eval(&[0.5], 1.0);
        assert!(
            agree(y, ours) && agree(r, exmex),
            "{text}: ours {y}, exmex {r}"
        );
    }
}
