//! Linear continuous systems: TransferFunction, StateSpace, PID.
//!
//! Each declares direct feedthrough only when its output really depends on the present input
//! (a nonzero D term), and then never reads the input in `outputs_eval` otherwise: an input that
//! is not yet evaluated in the schedule must not leak into the output, even multiplied by zero.

use super::common::{at, bad, check_input_is_output, column, param, port, read_matrix};
use crate::block::{Block, BlockError, BlockType, Ctx, Param, PortDecl, Required, Setup, Shape};
use crate::param;
use crate::params::{ParamError, Params};

// ---------------------------------------------------------------- TransferFunction

/// `G(s) = (b0·sⁿ + b1·sⁿ⁻¹ + … + bn) / (sⁿ + a1·sⁿ⁻¹ + … + an)` (after dividing by the leading
/// denominator coefficient), realised in controllable canonical form with states
/// `z = [v, v', …, v⁽ⁿ⁻¹⁾]` where `v = in / den(s)`:
///
/// `ż_j = z_{j+1}` (j < n), `ż_n = in − Σ_i a_i·z_{n−i+1}`,
/// `out = Σ_i r_i·z_{n−i+1} + D·in` with `D = b0`, `r_i = b_i − a_i·b0`.
///
/// States start at zero. Feedthrough only when D ≠ 0 (numerator degree = denominator degree).
struct TransferFunction {
    /// a1..an.
    a: Vec<f64>,
    /// r1..rn.
    r: Vec<f64>,
    d: f64,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Block for TransferFunction {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        let feedthrough = if self.d != 0.0 { vec![(0, 0)] } else { vec![] };
        Ok(Setup {
            num_states: self.a.len(),
            feedthrough,
            ..Default::default()
        })
    }
    fn initialize(&self, ctx: &mut Ctx) {
        ctx.states.fill(0.0);
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let n = self.a.len();
        let mut y: f64 = (0..n).map(|i| self.r[i] * ctx.states[n - 1 - i]).sum();
        if self.d != 0.0 {
            y += self.d * ctx.input_scalar(0);
        }
        ctx.set_output_scalar(0, y);
    }
    fn derivatives(&self, ctx: &mut Ctx, dxdt: &mut [f64]) {
        let n = self.a.len();
        if n == 0 {
            return;
        }
        let z = &ctx.states;
        dxdt[..n - 1].copy_from_slice(&z[1..]);
        dxdt[n - 1] = ctx.input_scalar(0) - (0..n).map(|i| self.a[i] * z[n - 1 - i]).sum::<f64>();
    }
    fn state_name(&self, k: usize) -> String {
        format!("z[{k}]")
    }
}

fn build_transfer_function(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let missing = |key: &str| {
        r.table_error(format!("missing parameter '{key}'")).hint(
            "add numerator = [1.0] and denominator = [1.0, 2.0, 1.0] (descending powers of s)",
        )
    };
    let num = r.vector("numerator")?.ok_or_else(|| missing("numerator"))?;
    let den = r
        .vector("denominator")?
        .ok_or_else(|| missing("denominator"))?;
    let num: Vec<f64> = num.iter().copied().skip_while(|&c| c == 0.0).collect();
    if den.first().is_none_or(|&c| c == 0.0) {
        return Err(bad(r, "denominator", "the leading 'denominator' coefficient must not be zero", "write the coefficients in descending powers of s, e.g. [1.0, 2.0, 1.0] for s² + 2s + 1"));
    }
    r.ensure(
        !num.is_empty(),
        "numerator",
        "must not be all zeros",
        "write e.g. numerator = [1.0]",
    )?;
    if num.len() > den.len() {
        return Err(bad(
            r,
            "numerator",
            format!("the transfer function is improper: numerator degree {} > denominator degree {}", num.len() - 1, den.len() - 1),
            "the numerator must not have more coefficients than the denominator (add a fast pole for a derivative)",
        ));
    }
    r.finish()?;
    let n = den.len() - 1;
    let a: Vec<f64> = den[1..].iter().map(|c| c / den[0]).collect();
    let mut b = vec![0.0; n + 1 - num.len()];
    b.extend(num.iter().map(|c| c / den[0]));
    let d = b[0];
    let r_coef = (0..n).map(|i| b[i + 1] - a[i] * d).collect();
    Ok(Box::new(TransferFunction {
        a,
        r: r_coef,
        d,
        inputs: vec![PortDecl::scalar("in")],
        outputs: vec![PortDecl::scalar("out")],
    }))
}

pub static TRANSFER_FUNCTION: BlockType = BlockType {
    name: "TransferFunction",
    category: "Continuous",
    summary: "A SISO transfer function num(s)/den(s) with coefficients in descending powers of s, \
              realised in controllable canonical form with zero initial state. Must be proper; the \
              input feeds the output directly only when the degrees are equal.",
    params: &[
        param(
            "numerator",
            "",
            "required",
            "coefficients of num(s), highest power first, e.g. [1.0]",
        ),
        param(
            "denominator",
            "",
            "required",
            "coefficients of den(s), highest power first, e.g. [1.0, 2.0, 1.0]",
        ),
    ],
    ports: &[
        port("in", "input", "1×1", "", "u"),
        port("out", "output", "1×1", "", "y = G(s)·u"),
    ],
    build: build_transfer_function,
};

// ---------------------------------------------------------------- StateSpace

/// `ẋ = A·x + B·u`, `y = C·x + D·u`, `x(t0) = initial`; A n×n, B n×m, C p×n, D p×m, stored
/// row-major. Feedthrough only when D has a nonzero entry.
struct StateSpace {
    n: usize,
    m: usize,
    p: usize,
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    d: Vec<f64>,
    has_d: bool,
    initial: Vec<f64>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Block for StateSpace {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn setup(&mut self, _: &[Shape], _: &[Shape]) -> Result<Setup, BlockError> {
        let feedthrough = if self.has_d { vec![(0, 0)] } else { vec![] };
        Ok(Setup {
            num_states: self.n,
            feedthrough,
            ..Default::default()
        })
    }
    fn initialize(&self, ctx: &mut Ctx) {
        ctx.states.copy_from_slice(&self.initial);
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let (n, m) = (self.n, self.m);
        for i in 0..self.p {
            let mut y: f64 = (0..n).map(|j| self.c[i * n + j] * ctx.states[j]).sum();
            if self.has_d {
                y += (0..m)
                    .map(|j| self.d[i * m + j] * ctx.input(0)[j])
                    .sum::<f64>();
            }
            ctx.output(0)[i] = y;
        }
    }
    fn derivatives(&self, ctx: &mut Ctx, dxdt: &mut [f64]) {
        let (n, m) = (self.n, self.m);
        let u = ctx.input(0);
        for (i, d) in dxdt.iter_mut().enumerate() {
            let ax: f64 = (0..n).map(|j| self.a[i * n + j] * ctx.states[j]).sum();
            let bu: f64 = (0..m).map(|j| self.b[i * m + j] * u[j]).sum();
            *d = ax + bu;
        }
    }
}

/// StateSpace's matrices that must be written (read by [`read_matrix`], which checks their
/// dimensions).
const SS_A: Required<Vec<Vec<f64>>> = param!(
    "A",
    "",
    required("[[0.0, 1.0], [-1.0, -2.0]] (an array of rows)"),
    "n×n state matrix"
);
const SS_B: Required<Vec<Vec<f64>>> = param!(
    "B",
    "",
    required("[[0.0], [1.0]] (an array of rows)"),
    "n×m input matrix"
);
const SS_C: Required<Vec<Vec<f64>>> = param!(
    "C",
    "",
    required("[[1.0, 0.0]] (an array of rows)"),
    "p×n output matrix"
);

fn build_state_space(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let (n, nc, a) =
        read_matrix(r, SS_A.name(), None, None)?.ok_or_else(|| SS_A.missing_error(r))?;
    if n != nc {
        return Err(bad(
            r,
            "A",
            format!("'A' must be square, but it is {n}×{nc}"),
            "write A as n rows of n numbers, e.g. A = [[0.0, 1.0], [-1.0, -2.0]]",
        ));
    }
    let (_, m, b) =
        read_matrix(r, SS_B.name(), Some(n), None)?.ok_or_else(|| SS_B.missing_error(r))?;
    let (p, _, c) =
        read_matrix(r, SS_C.name(), None, Some(n))?.ok_or_else(|| SS_C.missing_error(r))?;
    let d = read_matrix(r, "D", Some(p), Some(m))?.map_or(vec![0.0; p * m], |(_, _, d)| d);
    let initial = match r.vector("initial")? {
        None => vec![SS_INITIAL.default; n],
        Some(v) if v.len() == 1 => vec![v[0]; n],
        Some(v) if v.len() == n => v,
        Some(v) => {
            return Err(bad(
                r,
                "initial",
                format!("'initial' has {} elements but A is {n}×{n}", v.len()),
                format!("write {n} initial states (or one number for all)"),
            ))
        }
    };
    r.finish()?;
    let has_d = d.iter().any(|&x| x != 0.0);
    Ok(Box::new(StateSpace {
        n,
        m,
        p,
        a,
        b,
        c,
        d,
        has_d,
        initial,
        inputs: vec![PortDecl::signal("in", column(m))],
        outputs: vec![PortDecl::signal("out", column(p))],
    }))
}

const SS_INITIAL: Param<f64> = param!(
    "initial",
    "",
    0.0,
    "initial state: n numbers, or one for all"
);

pub static STATE_SPACE: BlockType = BlockType {
    name: "StateSpace",
    category: "Continuous",
    summary: "A linear state-space system ẋ = A·x + B·u, y = C·x + D·u. Matrices are arrays of rows; \
              a flat array is read as a column (as a row for C, and for D when it has one row). The \
              input feeds the output directly only when D is nonzero.",
    params: &[
        SS_A.doc,
        SS_B.doc,
        SS_C.doc,
        param("D", "", "zeros", "p×m feedthrough matrix"),
        SS_INITIAL.doc,
    ],
    ports: &[
        port("in", "input", "m×1", "", "u"),
        port("out", "output", "p×1", "", "y"),
    ],
    build: build_state_space,
};

// ---------------------------------------------------------------- PID

/// Continuous parallel PID, element-wise on the error `e = in`:
///
/// `out = kp·e + I + D`, `İ = ki·e` with `I(t0) = initial_integral`, and the filtered derivative
/// `D = N·(kd·e − x_f)`, `ẋ_f = D` with `x_f(t0) = initial_filter` — i.e. `D(s) = kd·N·s/(s + N)·e`
/// (Simulink's filter state, so `initial_filter = kd·e(t0)` starts without a derivative kick).
///
/// States: `[I_0..I_{n-1}, x_f,0..x_f,n-1]` (no filter states when kd = 0). Feedthrough when
/// kp ≠ 0 or kd ≠ 0.
struct Pid {
    kp: f64,
    ki: f64,
    kd: f64,
    filter: f64,
    initial_integral: f64,
    initial_filter: f64,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
    n: usize,
}

impl Pid {
    fn feeds_through(&self) -> bool {
        self.kp != 0.0 || self.kd != 0.0
    }
}

impl Block for Pid {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    fn setup(&mut self, inputs: &[Shape], outputs: &[Shape]) -> Result<Setup, BlockError> {
        check_input_is_output(&self.inputs[0], inputs[0], outputs[0])?;
        self.n = inputs[0].len();
        let feedthrough = if self.feeds_through() {
            vec![(0, 0)]
        } else {
            vec![]
        };
        let filters = if self.kd != 0.0 { self.n } else { 0 };
        Ok(Setup {
            num_states: self.n + filters,
            feedthrough,
            ..Default::default()
        })
    }
    fn initialize(&self, ctx: &mut Ctx) {
        let n = self.n;
        ctx.states[..n].fill(self.initial_integral);
        ctx.states[n..].fill(self.initial_filter);
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let n = self.n;
        for k in 0..n {
            let mut y = ctx.states[k];
            if self.feeds_through() {
                let e = at(ctx.input(0), k);
                y += self.kp * e;
                if self.kd != 0.0 {
                    y += self.filter * (self.kd * e - ctx.states[n + k]);
                }
            }
            ctx.output(0)[k] = y;
        }
    }
    fn derivatives(&self, ctx: &mut Ctx, dxdt: &mut [f64]) {
        let n = self.n;
        for k in 0..n {
            let e = at(ctx.input(0), k);
            dxdt[k] = self.ki * e;
            if self.kd != 0.0 {
                dxdt[n + k] = self.filter * (self.kd * e - ctx.states[n + k]);
            }
        }
    }
    fn state_name(&self, k: usize) -> String {
        if k < self.n {
            format!("integral[{k}]")
        } else {
            format!("filter[{}]", k - self.n)
        }
    }
}

const KP: Param<f64> = param!("kp", "", 1.0, "proportional gain");
const KI: Param<f64> = param!("ki", "1/s", 0.0, "integral gain");
const KD: Param<f64> = param!("kd", "s", 0.0, "derivative gain");
const FILTER: Param<f64> = param!(
    "filter",
    "rad/s",
    100.0,
    "derivative filter coefficient N (> 0)"; positive("rad/s (the derivative filter's cut-off N)"),
);
const INITIAL_INTEGRAL: Param<f64> = param!(
    "initial_integral",
    "",
    0.0,
    "initial value of the integral term (its contribution to out)"
);
const INITIAL_FILTER: Param<f64> = param!(
    "initial_filter",
    "",
    0.0,
    "initial filter state x_f; the derivative term is N·(kd·e − x_f)"
);

fn build_pid(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let b = Pid {
        kp: KP.read(r)?,
        ki: KI.read(r)?,
        kd: KD.read(r)?,
        filter: FILTER.read(r)?,
        initial_integral: INITIAL_INTEGRAL.read(r)?,
        initial_filter: INITIAL_FILTER.read(r)?,
        inputs: vec![PortDecl::inherited("in")],
        outputs: vec![PortDecl::inherited("out")],
        n: 0,
    };
    r.finish()?;
    Ok(Box::new(b))
}

pub static PID: BlockType = BlockType {
    name: "PID",
    category: "Continuous",
    summary: "Continuous parallel PID controller on the error `in`, element-wise: \
              out = kp·e + ki·∫e dt + kd·N·s/(s + N)·e, with a first-order derivative filter of cut-off N.",
    params: &[
        KP.doc,
        KI.doc,
        KD.doc,
        FILTER.doc,
        INITIAL_INTEGRAL.doc,
        INITIAL_FILTER.doc,
    ],
    ports: &[
        port("in", "input", "inherited", "", "the error e"),
        port("out", "output", "same as in", "", "the control signal"),
    ],
    build: build_pid,
};

#[cfg(test)]
mod tests {
    use super::super::harness::{build_error, Harness};
    use crate::block::Shape;

    #[test]
    fn transfer_function_controllable_canonical_form() {
        // 1/(s² + 2s + 1): ż0 = z1, ż1 = u − z0 − 2·z1, y = z0.
        let mut h = Harness::scalar(
            "TransferFunction",
            "numerator = [1.0]\ndenominator = [1.0, 2.0, 1.0]",
        );
        assert!(h.setup.feedthrough.is_empty());
        assert_eq!(h.setup.num_states, 2);
        h.initialize(0.0);
        h.states.copy_from_slice(&[0.5, -1.0]);
        h.set_input(0, &[3.0]);
        assert_eq!(h.out_at(0.0, 0), vec![0.5]);
        assert_eq!(h.derivatives(), vec![-1.0, 3.0 - 0.5 + 2.0]);
        // (2s² + 3)/(2s² + 4s + 2) = 1 + (−2s + 0.5)/(s² + 2s + 1): D = 1, y = 0.5·z0 − 2·z1 + u.
        let mut h = Harness::scalar(
            "TransferFunction",
            "numerator = [2.0, 0.0, 3.0]\ndenominator = [2.0, 4.0, 2.0]",
        );
        assert_eq!(h.setup.feedthrough, vec![(0, 0)]);
        h.states.copy_from_slice(&[1.0, 1.0]);
        h.set_input(0, &[4.0]);
        assert_eq!(h.out_at(0.0, 0), vec![0.5 - 2.0 + 4.0]);
        // Leading zeros in the numerator do not make it biproper.
        let h = Harness::scalar(
            "TransferFunction",
            "numerator = [0.0, 1.0]\ndenominator = [1.0, 1.0]",
        );
        assert!(h.setup.feedthrough.is_empty());
    }

    #[test]
    fn transfer_function_step_response_matches_closed_form() {
        // 1/(s + 1) step response 1 − e^{−t}; Euler with h = 1e-4 is accurate to ~h/2·max|ÿ| ≈ 5e-5.
        let mut h = Harness::scalar(
            "TransferFunction",
            "numerator = [1.0]\ndenominator = [1.0, 1.0]",
        );
        h.initialize(0.0);
        h.set_input(0, &[1.0]);
        h.euler(1e-4, 1.0);
        let y = h.out_at(1.0, 0)[0];
        assert!((y - (1.0 - (-1.0f64).exp())).abs() < 1e-4, "{y}");
    }

    #[test]
    fn transfer_function_bad_parameters() {
        assert!(build_error(
            "TransferFunction",
            "numerator = [1, 0, 0]\ndenominator = [1, 1]"
        )
        .contains("improper"));
        assert!(
            build_error("TransferFunction", "numerator = [1]\ndenominator = [0, 1]")
                .contains("leading 'denominator'")
        );
        assert!(build_error("TransferFunction", "numerator = [1]")
            .contains("missing parameter 'denominator'"));
    }

    #[test]
    fn state_space_matches_the_transfer_function() {
        // The same 1/(s² + 2s + 1) in companion form, with a nonzero initial state.
        let toml =
            "A = [[0.0, 1.0], [-1.0, -2.0]]\nB = [0.0, 1.0]\nC = [1.0, 0.0]\ninitial = [0.5, -1.0]";
        let mut h = Harness::new("StateSpace", toml, &[Shape::SCALAR]);
        assert!(h.setup.feedthrough.is_empty());
        h.initialize(0.0);
        h.set_input(0, &[3.0]);
        assert_eq!(h.out_at(0.0, 0), vec![0.5]);
        assert_eq!(h.derivatives(), vec![-1.0, 3.0 - 0.5 + 2.0]);
        // Two inputs, two outputs, D ≠ 0.
        let toml = "A = [[-1.0]]\nB = [[1.0, 2.0]]\nC = [[1.0], [3.0]]\nD = [[0.0, 1.0], [0.0, 0.0]]\ninitial = 2.0";
        let mut h = Harness::new("StateSpace", toml, &[Shape::vector(2)]);
        assert_eq!(h.setup.feedthrough, vec![(0, 0)]);
        assert_eq!(h.outputs[0], Shape::vector(2));
        h.initialize(0.0);
        h.set_input(0, &[1.0, 10.0]);
        assert_eq!(h.out_at(0.0, 0), vec![2.0 + 10.0, 6.0]);
        assert_eq!(h.derivatives(), vec![-2.0 + 1.0 + 20.0]);
    }

    #[test]
    fn state_space_dimension_errors() {
        assert!(
            build_error("StateSpace", "A = [[0, 1]]\nB = [1]\nC = [1]").contains("must be square")
        );
        let e = build_error(
            "StateSpace",
            "A = [[0, 1], [0, 0]]\nB = [1, 2, 3]\nC = [1, 0]",
        );
        assert!(e.contains("'B' is 3×1 but must be 2×any"), "{e}");
        let e = build_error(
            "StateSpace",
            "A = [[0, 1], [0, 0]]\nB = [0, 1]\nC = [[1, 0, 0]]",
        );
        assert!(e.contains("'C' is 1×3 but must be any×2"), "{e}");
        let e = build_error(
            "StateSpace",
            "A = [[0, 1], [0, 0]]\nB = [0, 1]\nC = [1, 0]\nD = [[1, 2]]",
        );
        assert!(e.contains("'D' is 1×2 but must be 1×1"), "{e}");
        assert!(build_error(
            "StateSpace",
            "A = [[-1]]\nB = [1]\nC = [1]\ninitial = [1, 2]"
        )
        .contains("'initial' has 2 elements"));
    }

    #[test]
    fn pid_terms_and_filter() {
        let mut h = Harness::scalar("PID", "kp = 2.0\nki = 3.0\nkd = 0.5\nfilter = 10.0\ninitial_integral = 1.0\ninitial_filter = 0.25");
        assert_eq!(h.setup.num_states, 2);
        assert_eq!(h.setup.feedthrough, vec![(0, 0)]);
        h.initialize(0.0);
        h.set_input(0, &[4.0]);
        // out = 2·4 + 1 + 10·(0.5·4 − 0.25) = 26.5; İ = 12; ẋ_f = 17.5
        assert_eq!(h.out_at(0.0, 0), vec![26.5]);
        assert_eq!(h.derivatives(), vec![12.0, 17.5]);
        assert_eq!(h.block.state_name(1), "filter[0]");
        // Pure I: no feedthrough, no filter state.
        let h = Harness::scalar("PID", "kp = 0.0\nki = 1.0");
        assert!(h.setup.feedthrough.is_empty());
        assert_eq!(h.setup.num_states, 1);
        assert!(build_error("PID", "filter = 0").contains("must be positive"));
    }
}
