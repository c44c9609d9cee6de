//! Reference problems with closed-form solutions, shared by the solver's unit tests, the
//! integration tests (`tests/solver_problems.rs`) and the benchmarks. Time t in s, states
//! dimensionless unless stated.

use super::{Direction, EventOutcome, System};

/// A linear or forced ODE with a known exact solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// x' = −2x, x(0) = 1: x(t) = e^(−2t). Span [0, 2].
    ExponentialDecay,
    /// x' = v, v' = −x, (x, v)(0) = (1, 0): x = cos t, v = −sin t. Span [0, 10].
    HarmonicOscillator,
    /// x₁' = −x₁ + x₂, x₂' = −1000·x₂, x(0) = (1, 1): eigenvalues −1 and −1000 (stiff-ish:
    /// explicit methods are stability-limited to h ≈ 3/1000 but converge).
    /// x₂ = e^(−1000t), x₁ = (1 + 1/999)·e^(−t) − e^(−1000t)/999. Span [0, 1].
    StiffLinear,
    /// x' = cos t, x(0) = 0: x = sin t (explicitly time-dependent). Span [0, 10].
    Forced,
    /// A chain of 5 first-order lags: x₀' = −x₀, xᵢ' = −xᵢ + xᵢ₋₁, x(0) = (1, 0, …, 0):
    /// xᵢ = tⁱ·e^(−t)/i!. Span [0, 5].
    Chain,
}

/// Number of states of [`Problem::Chain`].
const CHAIN_LEN: usize = 5;

impl Problem {
    /// Every problem, for "every integrator on every problem" tests.
    pub const ALL: [Problem; 5] = [
        Problem::ExponentialDecay,
        Problem::HarmonicOscillator,
        Problem::StiffLinear,
        Problem::Forced,
        Problem::Chain,
    ];

    /// Number of states.
    pub fn dim(self) -> usize {
        match self {
            Problem::ExponentialDecay | Problem::Forced => 1,
            Problem::HarmonicOscillator | Problem::StiffLinear => 2,
            Problem::Chain => CHAIN_LEN,
        }
    }

    /// End of the test span (the start is 0).
    pub fn t_end(self) -> f64 {
        match self {
            Problem::ExponentialDecay => 2.0,
            Problem::HarmonicOscillator | Problem::Forced => 10.0,
            Problem::StiffLinear => 1.0,
            Problem::Chain => 5.0,
        }
    }

    /// Writes the exact solution at t into `x`.
    pub fn exact(self, t: f64, x: &mut [f64]) {
        match self {
            Problem::ExponentialDecay => x[0] = (-2.0 * t).exp(),
            Problem::HarmonicOscillator => {
                x[0] = t.cos();
                x[1] = -t.sin();
            }
            Problem::StiffLinear => {
                let fast = (-1000.0 * t).exp();
                x[0] = (1.0 + 1.0 / 999.0) * (-t).exp() - fast / 999.0;
                x[1] = fast;
            }
            Problem::Forced => x[0] = t.sin(),
            Problem::Chain => {
                let mut term = (-t).exp(); // tⁱ·e^(−t)/i! built up by recurrence
                for (i, xi) in x.iter_mut().enumerate().take(CHAIN_LEN) {
                    if i > 0 {
                        term *= t / i as f64;
                    }
                    *xi = term;
                }
            }
        }
    }
}

impl System for Problem {
    fn state_dim(&self) -> usize {
        self.dim()
    }
    fn zero_crossing_dim(&self) -> usize {
        0
    }
    fn zero_crossing_direction(&self, _index: usize) -> Direction {
        Direction::Either
    }
    fn derivatives(&mut self, t: f64, x: &[f64], dxdt: &mut [f64]) {
        match self {
            Problem::ExponentialDecay => dxdt[0] = -2.0 * x[0],
            Problem::HarmonicOscillator => {
                dxdt[0] = x[1];
                dxdt[1] = -x[0];
            }
            Problem::StiffLinear => {
                dxdt[0] = -x[0] + x[1];
                dxdt[1] = -1000.0 * x[1];
            }
            Problem::Forced => dxdt[0] = t.cos(),
            Problem::Chain => {
                dxdt[0] = -x[0];
                for i in 1..CHAIN_LEN {
                    dxdt[i] = -x[i] + x[i - 1];
                }
            }
        }
    }
    fn zero_crossings(&mut self, _t: f64, _x: &[f64], _g: &mut [f64]) {}
    fn handle_events(
        &mut self,
        _t: f64,
        _x: &mut [f64],
        _crossed: &[usize],
        _time_event: bool,
    ) -> EventOutcome {
        EventOutcome::default()
    }
    fn jacobian_sparsity(&self, pattern: &mut super::SparsityPattern) -> bool {
        let n = self.dim();
        let mut depends = |i: usize, j: usize| pattern.depends(i, j);
        match self {
            Problem::ExponentialDecay => depends(0, 0),
            Problem::HarmonicOscillator => {
                depends(0, 1);
                depends(1, 0);
            }
            Problem::StiffLinear => {
                depends(0, 0);
                depends(0, 1);
                depends(1, 1);
            }
            Problem::Forced => {}
            Problem::Chain => {
                for i in 0..n {
                    depends(i, i);
                    if i > 0 {
                        depends(i, i - 1);
                    }
                }
            }
        }
        true
    }
}

/// A ball dropped from height `h0` (m) onto a floor at height 0, state (height m, velocity m/s,
/// both along the upward vertical): x'' = −g. Zero-crossing 0 is the height, direction Falling;
/// the handler sets v ← −e·v (coefficient of restitution e) and counts impacts.
#[derive(Clone, Debug)]
pub struct BouncingBall {
    /// Gravitational acceleration g, m/s².
    pub gravity: f64,
    /// Coefficient of restitution e ∈ [0, 1].
    pub restitution: f64,
    /// Times of the impacts handled so far, s (capacity reserved by the constructor, so that
    /// recording does not allocate for up to `capacity` impacts).
    pub impact_times: Vec<f64>,
}

impl BouncingBall {
    /// g = 9.81 m/s², restitution `e`, room for `capacity` impact times.
    pub fn new(restitution: f64, capacity: usize) -> Self {
        Self {
            gravity: 9.81,
            restitution,
            impact_times: Vec::with_capacity(capacity),
        }
    }

    /// Closed-form impact times for a drop from rest at `h0`: t₁ = sqrt(2h₀/g), then flights of
    /// 2·eᵏ·v₁/g with v₁ = g·t₁ (k = 1, 2, …).
    pub fn exact_impact_times(&self, h0: f64, count: usize) -> Vec<f64> {
        let t1 = (2.0 * h0 / self.gravity).sqrt();
        let v1 = self.gravity * t1;
        let mut times = Vec::with_capacity(count);
        let mut t = t1;
        for k in 0..count {
            if k > 0 {
                t += 2.0 * self.restitution.powi(k as i32) * v1 / self.gravity;
            }
            times.push(t);
        }
        times
    }
}

impl System for BouncingBall {
    fn state_dim(&self) -> usize {
        2
    }
    fn zero_crossing_dim(&self) -> usize {
        1
    }
    fn zero_crossing_direction(&self, _index: usize) -> Direction {
        Direction::Falling
    }
    fn derivatives(&mut self, _t: f64, x: &[f64], dxdt: &mut [f64]) {
        dxdt[0] = x[1];
        dxdt[1] = -self.gravity;
    }
    fn zero_crossings(&mut self, _t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[0];
    }
    fn handle_events(
        &mut self,
        t: f64,
        x: &mut [f64],
        crossed: &[usize],
        _time_event: bool,
    ) -> EventOutcome {
        let impact = crossed.contains(&0);
        if impact {
            x[1] *= -self.restitution;
            if self.impact_times.len() < self.impact_times.capacity() {
                self.impact_times.push(t);
            }
        }
        EventOutcome {
            state_changed: impact,
            stop: false,
        }
    }
}

/// Robertson's chemical kinetics (H. H. Robertson 1966; Hairer & Wanner, *Solving ODE II*,
/// Section IV.1), the classic stiff test:
/// y₁' = −0.04·y₁ + 1e4·y₂·y₃, y₂' = 0.04·y₁ − 1e4·y₂·y₃ − 3e7·y₂², y₃' = 3e7·y₂², y(0) = (1, 0, 0).
/// Eigenvalues down to about −1e4 for all t > 0.01 while the solution varies on the scale of t:
/// an explicit method needs steps below about 3e-4 throughout.
#[derive(Clone, Copy, Debug, Default)]
pub struct Robertson;

impl Robertson {
    /// y(0).
    pub const INITIAL: [f64; 3] = [1.0, 0.0, 0.0];
    /// y(40): Hairer & Wanner's reference values, confirmed by scipy 1.17 `solve_ivp` (Radau and
    /// LSODA, rtol 1e-12, analytic Jacobian; they agree to 4e-12 relative).
    pub const AT_40: [f64; 3] = [0.715_827_068_7, 9.185_534_764e-6, 0.284_163_745_7];
    /// y(1e5) from scipy 1.17 `solve_ivp` (Radau, BDF and LSODA at rtol 1e-12, atol 1e-20 on y₁,
    /// y₃ and 1e-24 on y₂, analytic Jacobian; they agree to 1e-10 relative).
    pub const AT_1E5: [f64; 3] = [0.017_865_921_142_1, 7.274_751_468_4e-8, 0.982_134_006_110_4];
}

impl System for Robertson {
    fn state_dim(&self) -> usize {
        3
    }
    fn zero_crossing_dim(&self) -> usize {
        0
    }
    fn zero_crossing_direction(&self, _index: usize) -> Direction {
        Direction::Either
    }
    fn derivatives(&mut self, _t: f64, y: &[f64], dydt: &mut [f64]) {
        let (slow, fast) = (1e4 * y[1] * y[2], 3e7 * y[1] * y[1]);
        dydt[0] = -0.04 * y[0] + slow;
        dydt[1] = 0.04 * y[0] - slow - fast;
        dydt[2] = fast;
    }
    fn zero_crossings(&mut self, _t: f64, _y: &[f64], _g: &mut [f64]) {}
    fn handle_events(
        &mut self,
        _t: f64,
        _y: &mut [f64],
        _crossed: &[usize],
        _time_event: bool,
    ) -> EventOutcome {
        EventOutcome::default()
    }
}

/// Van der Pol's oscillator x'' = μ·(1 − x²)·x' − x as (x, y = x'), stiff for large μ: slow
/// phases on the time scale μ joined by jumps lasting about 1/μ. Zero-crossing 0 is y, Falling:
/// it fires at every maximum of x, so from (2, 0) (a maximum: leaving y = 0 does not fire) the
/// first event ends one period.
#[derive(Clone, Copy, Debug)]
pub struct VanDerPol {
    /// μ.
    pub mu: f64,
    /// Time of the first event, s (NaN before it).
    pub first_maximum: f64,
}

impl VanDerPol {
    /// For μ = 1000 from (2, 0): the period and x at its end, from scipy 1.17 `solve_ivp` with event
    /// location (Radau and LSODA at rtol 1e-12, atol 1e-14, analytic Jacobian; they agree to 1.4e-7
    /// in T and 2e-12 in x). The asymptotic period (3 − 2·ln 2)·μ + 7.014·μ^(−1/3) = 1614.4.
    pub const PERIOD_MU_1000: f64 = 1_614.291_673_4;
    /// x at the end of that period (the maximum after the jump overshoots 2 slightly).
    pub const X_MAX_MU_1000: f64 = 2.000_072_966_0;

    /// The oscillator with parameter `mu`.
    pub fn new(mu: f64) -> Self {
        Self {
            mu,
            first_maximum: f64::NAN,
        }
    }
}

impl System for VanDerPol {
    fn state_dim(&self) -> usize {
        2
    }
    fn zero_crossing_dim(&self) -> usize {
        1
    }
    fn zero_crossing_direction(&self, _index: usize) -> Direction {
        Direction::Falling
    }
    fn derivatives(&mut self, _t: f64, x: &[f64], dxdt: &mut [f64]) {
        dxdt[0] = x[1];
        dxdt[1] = self.mu * (1.0 - x[0] * x[0]) * x[1] - x[0];
    }
    fn zero_crossings(&mut self, _t: f64, x: &[f64], g: &mut [f64]) {
        g[0] = x[1];
    }
    fn handle_events(
        &mut self,
        t: f64,
        _x: &mut [f64],
        _crossed: &[usize],
        _time_event: bool,
    ) -> EventOutcome {
        self.first_maximum = t;
        EventOutcome {
            state_changed: false,
            stop: true,
        }
    }
}

/// The heat equation u_t = u_xx on (0, 1), u = 0 at both ends, by central differences on
/// `points` interior points (Δx = 1/(points + 1)): u' = A·u with A the second-difference matrix,
/// whose eigenvectors are v_k,i = sin(kπ·i·Δx) with eigenvalues −(4/Δx²)·sin²(kπΔx/2)
/// (k = 1..points; ρ ≈ 1.04e4 for 50 points). Stiff with real eigenvalues: the test of the
/// stabilised and linearly implicit methods.
#[derive(Clone, Copy, Debug)]
pub struct HeatEquation {
    /// Interior points (states).
    pub points: usize,
}

impl HeatEquation {
    fn dx(&self) -> f64 {
        1.0 / (self.points as f64 + 1.0)
    }

    /// The hat u(x, 0) = 1 − |2x − 1| at the interior points.
    pub fn hat(&self) -> Vec<f64> {
        let dx = self.dx();
        (1..=self.points)
            .map(|i| 1.0 - (2.0 * i as f64 * dx - 1.0).abs())
            .collect()
    }

    /// The exact u(t) of the discrete system from the hat: Σ c_k·e^{λ_k t}·v_k with c from the
    /// discrete sine transform (the v_k are orthogonal with ‖v_k‖² = (points + 1)/2).
    pub fn exact(&self, t: f64) -> Vec<f64> {
        let (n, dx) = (self.points, self.dx());
        let u0 = self.hat();
        let mode = |k: usize, i: usize| (k as f64 * std::f64::consts::PI * i as f64 * dx).sin();
        let mut u = vec![0.0; n];
        for k in 1..=n {
            let c: f64 =
                (1..=n).map(|i| u0[i - 1] * mode(k, i)).sum::<f64>() * 2.0 / (n as f64 + 1.0);
            let s = (k as f64 * std::f64::consts::PI * dx / 2.0).sin();
            let decay = (-4.0 / (dx * dx) * s * s * t).exp();
            for i in 1..=n {
                u[i - 1] += c * decay * mode(k, i);
            }
        }
        u
    }
}

impl System for HeatEquation {
    fn state_dim(&self) -> usize {
        self.points
    }
    fn zero_crossing_dim(&self) -> usize {
        0
    }
    fn zero_crossing_direction(&self, _index: usize) -> Direction {
        Direction::Either
    }
    fn derivatives(&mut self, _t: f64, u: &[f64], du: &mut [f64]) {
        let (n, dx) = (self.points, self.dx());
        for i in 0..n {
            let left = if i > 0 { u[i - 1] } else { 0.0 };
            let right = if i + 1 < n { u[i + 1] } else { 0.0 };
            du[i] = (left - 2.0 * u[i] + right) / (dx * dx);
        }
    }
    fn zero_crossings(&mut self, _t: f64, _u: &[f64], _g: &mut [f64]) {}
    fn handle_events(&mut self, _t: f64, _u: &mut [f64], _c: &[usize], _te: bool) -> EventOutcome {
        EventOutcome::default()
    }
}
