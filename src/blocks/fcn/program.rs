//! An expression tree compiled into a flat program for a one-register stack machine, and its
//! evaluation.
//!
//! Compiling folds every constant sub-expression into one number, turns integer powers
//! `x^2`, `x^3`, `x^-1`, … `x^±64` into multiplications, and gives binary operators a constant
//! or input operand directly (`u - 0.5` is one instruction). Evaluation keeps the current value
//! in a local (`acc`) and spills pending left operands to a stack array whose size is known at
//! build: one `match` per instruction, no allocation, no call through a pointer.

use crate::expr::ast::{Bin, Expr, Func};

/// The most values a program may have waiting on its stack.
pub(super) const MAX_STACK: usize = 32;

/// Stack size of the small-program evaluation (most expressions).
const SMALL_STACK: usize = 4;

/// Largest |n| compiled as multiplications for `x^n`.
const MAX_INTEGER_POWER: f64 = 64.0;

/// A value read without computation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Leaf {
    Const(f64),
    Input(usize),
    Time,
}

/// One instruction; `acc` is the current value, `pop` the top of the stack. The four
/// arithmetic operators have instructions of their own (one `match` each); the others go
/// through [`Bin::apply`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Op {
    /// push acc; acc = c
    PushConst(f64),
    /// push acc; acc = u[i]
    PushInput(usize),
    /// push acc; acc = t
    PushTime,
    /// acc = −acc
    Neg,
    /// acc = f(acc)
    Unary(Func),
    /// acc = acc²
    Square,
    /// acc = acc³
    Cube,
    /// acc = 1/acc
    Recip,
    /// acc = acc^n by repeated squaring
    PowI(i32),
    /// acc = pop + acc, and so on
    Add,
    Sub,
    Mul,
    Div,
    /// acc = pop op acc
    Bin(Bin),
    /// acc = acc + c, and so on
    AddConst(f64),
    SubConst(f64),
    MulConst(f64),
    DivConst(f64),
    /// acc = acc op c
    BinConst(Bin, f64),
    /// acc = acc + u[i], and so on
    AddInput(usize),
    SubInput(usize),
    MulInput(usize),
    DivInput(usize),
    /// acc = acc op u[i]
    BinInput(Bin, usize),
    /// acc = c − acc, c / acc
    ConstSub(f64),
    ConstDiv(f64),
    /// acc = c op acc
    ConstBin(Bin, f64),
    /// acc = u[i] − acc, u[i] / acc
    InputSub(usize),
    InputDiv(usize),
    /// acc = u[i] op acc
    InputBin(Bin, usize),
}

/// Where a binary instruction finds its operands.
#[derive(Clone, Copy)]
enum Operands {
    /// pop op acc
    Stack,
    /// acc op c
    AccConst(f64),
    /// acc op u[i]
    AccInput(usize),
    /// c op acc
    ConstAcc(f64),
    /// u[i] op acc
    InputAcc(usize),
}

/// The instruction applying `op` to `operands`.
fn instruction(op: Bin, operands: Operands) -> Op {
    use Operands::*;
    match (op, operands) {
        (Bin::Add, Stack) => Op::Add,
        (Bin::Sub, Stack) => Op::Sub,
        (Bin::Mul, Stack) => Op::Mul,
        (Bin::Div, Stack) => Op::Div,
        (_, Stack) => Op::Bin(op),
        (Bin::Add, AccConst(c)) => Op::AddConst(c),
        (Bin::Sub, AccConst(c)) => Op::SubConst(c),
        (Bin::Mul, AccConst(c)) => Op::MulConst(c),
        (Bin::Div, AccConst(c)) => Op::DivConst(c),
        (_, AccConst(c)) => Op::BinConst(op, c),
        (Bin::Add, AccInput(i)) => Op::AddInput(i),
        (Bin::Sub, AccInput(i)) => Op::SubInput(i),
        (Bin::Mul, AccInput(i)) => Op::MulInput(i),
        (Bin::Div, AccInput(i)) => Op::DivInput(i),
        (_, AccInput(i)) => Op::BinInput(op, i),
        (Bin::Sub, ConstAcc(c)) => Op::ConstSub(c),
        (Bin::Div, ConstAcc(c)) => Op::ConstDiv(c),
        (_, ConstAcc(c)) => Op::ConstBin(op, c),
        (Bin::Sub, InputAcc(i)) => Op::InputSub(i),
        (Bin::Div, InputAcc(i)) => Op::InputDiv(i),
        (_, InputAcc(i)) => Op::InputBin(op, i),
    }
}

/// A compiled expression.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Program {
    start: Leaf,
    ops: Vec<Op>,
    /// Most values on the stack at once.
    depth: usize,
}

/// Folds constant sub-expressions of `e` (and `x^0` = 1, as `powf` gives for any x).
pub(super) fn fold(e: Expr) -> Expr {
    match e {
        Expr::Unary(f, a) => match fold(*a) {
            Expr::Num(x) => Expr::Num(f.apply(x)),
            a => Expr::Unary(f, Box::new(a)),
        },
        Expr::Binary(op, a, b) => match (op, fold(*a), fold(*b)) {
            (_, Expr::Num(x), Expr::Num(y)) => Expr::Num(op.apply(x, y)),
            (Bin::Pow, _, Expr::Num(0.0)) => Expr::Num(1.0),
            (_, a, b) => Expr::Binary(op, Box::new(a), Box::new(b)),
        },
        e => e,
    }
}

fn leaf(e: &Expr) -> Option<Leaf> {
    match *e {
        Expr::Num(x) => Some(Leaf::Const(x)),
        Expr::Input(i) => Some(Leaf::Input(i)),
        Expr::Time => Some(Leaf::Time),
        _ => None,
    }
}

/// The integer `n` of an exponent compiled as multiplications.
fn integer_power(e: &Expr) -> Option<i32> {
    match *e {
        Expr::Num(y) if y.fract() == 0.0 && y.abs() <= MAX_INTEGER_POWER => Some(y as i32),
        _ => None,
    }
}

/// Stack slots the evaluation of `e` needs beyond its entry (an estimate for ordering operands).
fn need(e: &Expr) -> usize {
    match e {
        Expr::Unary(_, a) => need(a),
        Expr::Binary(_, a, b) if leaf(b).is_some() => need(a),
        Expr::Binary(_, a, b) if leaf(a).is_some() => need(b),
        Expr::Binary(op, a, b) => {
            let (na, nb) = (need(a), need(b));
            if op.commutes() {
                na.max(1 + nb).min(nb.max(1 + na))
            } else {
                na.max(1 + nb)
            }
        }
        _ => 1,
    }
}

/// The program being written.
struct Emitter {
    start: Option<Leaf>,
    ops: Vec<Op>,
    sp: usize,
    depth: usize,
}

impl Emitter {
    fn load(&mut self, l: Leaf) {
        if self.start.is_none() {
            self.start = Some(l);
            return;
        }
        self.sp += 1;
        self.depth = self.depth.max(self.sp);
        self.ops.push(match l {
            Leaf::Const(c) => Op::PushConst(c),
            Leaf::Input(i) => Op::PushInput(i),
            Leaf::Time => Op::PushTime,
        });
    }

    fn emit(&mut self, e: &Expr) {
        match e {
            Expr::Unary(f, a) => {
                self.emit(a);
                self.ops.push(match f {
                    Func::Neg => Op::Neg,
                    f => Op::Unary(*f),
                });
            }
            Expr::Binary(op, a, b) => self.binary(*op, a, b),
            e => self.load(leaf(e).expect("a leaf")),
        }
    }

    fn binary(&mut self, op: Bin, a: &Expr, b: &Expr) {
        if let (Bin::Pow, Some(n)) = (op, integer_power(b)) {
            self.emit(a);
            match n {
                1 => {}
                2 => self.ops.push(Op::Square),
                3 => self.ops.push(Op::Cube),
                -1 => self.ops.push(Op::Recip),
                n => self.ops.push(Op::PowI(n)),
            }
            return;
        }
        let operands = match (leaf(a), leaf(b)) {
            (_, Some(Leaf::Const(c))) => {
                self.emit(a);
                Operands::AccConst(c)
            }
            (_, Some(Leaf::Input(i))) => {
                self.emit(a);
                Operands::AccInput(i)
            }
            (Some(Leaf::Const(c)), None) => {
                self.emit(b);
                if op.commutes() {
                    Operands::AccConst(c)
                } else {
                    Operands::ConstAcc(c)
                }
            }
            (Some(Leaf::Input(i)), None) => {
                self.emit(b);
                if op.commutes() {
                    Operands::AccInput(i)
                } else {
                    Operands::InputAcc(i)
                }
            }
            _ => {
                if op.commutes() && need(b) > need(a) {
                    self.emit(b);
                    self.emit(a);
                } else {
                    self.emit(a);
                    self.emit(b);
                }
                self.sp -= 1;
                Operands::Stack
            }
        };
        self.ops.push(instruction(op, operands));
    }
}

/// `x^n` by repeated squaring.
#[inline]
fn powi(x: f64, n: i32) -> f64 {
    let mut k = n.unsigned_abs();
    let (mut base, mut r) = (x, 1.0);
    while k > 0 {
        if k & 1 == 1 {
            r *= base;
        }
        base *= base;
        k >>= 1;
    }
    if n < 0 {
        1.0 / r
    } else {
        r
    }
}

impl Program {
    /// The program of the (folded) tree `e`.
    pub(super) fn compile(e: &Expr) -> Program {
        let mut w = Emitter {
            start: None,
            ops: Vec::new(),
            sp: 0,
            depth: 0,
        };
        w.emit(e);
        Program {
            start: w.start.expect("every expression reads a value"),
            ops: w.ops,
            depth: w.depth,
        }
    }

    /// Most values the program has on its stack at once.
    pub(super) fn depth(&self) -> usize {
        self.depth
    }

    /// The value for the input `u` at time `t`. `u` must have every element the program reads
    /// (checked at build).
    #[inline]
    pub(super) fn eval(&self, u: &[f64], t: f64) -> f64 {
        if self.depth <= SMALL_STACK {
            self.run::<SMALL_STACK>(u, t)
        } else {
            self.run::<MAX_STACK>(u, t)
        }
    }

    #[inline(always)]
    fn run<const N: usize>(&self, u: &[f64], t: f64) -> f64 {
        let mut stack = [0.0; N];
        let mut sp = 0;
        let mut acc = match self.start {
            Leaf::Const(c) => c,
            Leaf::Input(i) => u[i],
            Leaf::Time => t,
        };
        for op in &self.ops {
            let mut push = |x: f64| {
                stack[sp] = acc;
                sp += 1;
                x
            };
            acc = match *op {
                Op::PushConst(c) => push(c),
                Op::PushInput(i) => push(u[i]),
                Op::PushTime => push(t),
                Op::Neg => -acc,
                Op::Unary(f) => f.apply(acc),
                Op::Square => acc * acc,
                Op::Cube => acc * acc * acc,
                Op::Recip => 1.0 / acc,
                Op::PowI(n) => powi(acc, n),
                Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Bin(_) => {
                    sp -= 1;
                    let left = stack[sp];
                    match *op {
                        Op::Add => left + acc,
                        Op::Sub => left - acc,
                        Op::Mul => left * acc,
                        Op::Div => left / acc,
                        Op::Bin(b) => b.apply(left, acc),
                        _ => unreachable!(),
                    }
                }
                Op::AddConst(c) => acc + c,
                Op::SubConst(c) => acc - c,
                Op::MulConst(c) => acc * c,
                Op::DivConst(c) => acc / c,
                Op::BinConst(b, c) => b.apply(acc, c),
                Op::AddInput(i) => acc + u[i],
                Op::SubInput(i) => acc - u[i],
                Op::MulInput(i) => acc * u[i],
                Op::DivInput(i) => acc / u[i],
                Op::BinInput(b, i) => b.apply(acc, u[i]),
                Op::ConstSub(c) => c - acc,
                Op::ConstDiv(c) => c / acc,
                Op::ConstBin(b, c) => b.apply(c, acc),
                Op::InputSub(i) => u[i] - acc,
                Op::InputDiv(i) => u[i] / acc,
                Op::InputBin(b, i) => b.apply(u[i], acc),
            };
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::{fold, Leaf, Op, Program};
    use crate::expr::ast::{Bin, Func};

    fn program(text: &str) -> Program {
        Program::compile(&fold(parse(text, 2, &[("k", 2.0)]).unwrap()))
    }

    #[test]
    fn compiles_to_fused_instructions() {
        // The benchmark's expression: six instructions, one value waiting.
        let p = program("0.5 - u[0] - u[0]^3/6");
        assert_eq!(p.start, Leaf::Const(0.5));
        assert_eq!(
            p.ops,
            [
                Op::SubInput(0),
                Op::PushInput(0),
                Op::Cube,
                Op::DivConst(6.0),
                Op::Sub,
            ]
        );
        assert_eq!(p.depth, 1);
        // Constants fold, whole sub-expressions included.
        let p = program("2*PI*k + sin(PI/2)");
        assert_eq!(
            (p.start, p.ops.len()),
            (Leaf::Const(4.0 * std::f64::consts::PI + 1.0), 0)
        );
        // A constant or input on the left of a complex operand.
        let p = program("1 - u[1]^-1 + 2/sqrt(t)");
        assert_eq!(
            p.ops,
            [
                Op::Recip,
                Op::ConstSub(1.0),
                Op::PushTime,
                Op::Unary(Func::Sqrt),
                Op::ConstDiv(2.0),
                Op::Add,
            ]
        );
        // Other operators, and signs.
        let p = program("-(u[0] max 1) atan2 (t min u[1])");
        assert_eq!(
            p.ops,
            [
                Op::BinConst(Bin::Max, 1.0),
                Op::Neg,
                Op::PushTime,
                Op::BinInput(Bin::Min, 1),
                Op::Bin(Bin::Atan2),
            ]
        );
        // A commutative operator evaluates its deeper operand first.
        let p = program("sin(u[0]) * (cos(u[1]) + (t - u[0])^2)");
        assert_eq!(p.depth, 1);
    }
}
