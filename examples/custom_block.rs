//! A block type of your own, registered and used from a TOML model.
//!
//! `ChargingCapacitor` is an RC circuit's capacitor: one continuous state, the voltage v (V), with
//! v̇ = (u − v)/τ for the source voltage u (V) and τ = R·C (s); and one zero crossing, v reaching
//! `threshold` (V, rising), after which its `tripped` output is 1 (a mode kept in a work slot).
//! From v(0) = 0 and a constant u, v(t) = u·(1 − e^(−t/τ)), so the threshold u/2 is reached at
//! t = τ·ln 2: the solver locates that instant.
//!
//! Run: `cargo run --release --example custom_block`. `tests/custom_block.rs` runs the same code
//! and asserts its numbers.

use blockdyn::block::{
    Block, BlockError, BlockType, Ctx, Param, ParamDoc, PortDecl, PortDoc, Setup, Shape,
};
use blockdyn::library::Registry;
use blockdyn::params::{ParamError, Params};
use blockdyn::solver::Direction;
use blockdyn::{load_model_str_with, simulate, RunOptions};

/// The block as the loader builds it from its table.
struct ChargingCapacitor {
    /// τ = R·C, s.
    time_constant: f64,
    /// The voltage at which it trips, V.
    threshold: f64,
    /// v at t = 0, V.
    initial: f64,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

impl Block for ChargingCapacitor {
    fn inputs(&self) -> &[PortDecl] {
        &self.inputs
    }
    fn outputs(&self) -> &[PortDecl] {
        &self.outputs
    }
    /// One state (v), one work slot (tripped: 0 or 1), one rising crossing; no output reads the
    /// input at the same instant (no feedthrough).
    fn setup(&mut self, inputs: &[Shape], _outputs: &[Shape]) -> Result<Setup, BlockError> {
        // The shapes are final here. A block refuses those it cannot take with a `BlockError`:
        // one of the library's variants when one fits (the diagram locates it in the model and
        // adds the variant's hint), or `BlockError::other("...")` for a message of its own.
        // (`in` is declared 1×1, so the diagram has checked this already: it only shows how.)
        if !inputs[0].is_scalar() {
            return Err(BlockError::NotScalar {
                port: "in".into(),
                found: inputs[0],
            });
        }
        Ok(Setup {
            num_states: 1,
            num_work: 1,
            zero_crossings: vec![Direction::Rising],
            feedthrough: Vec::new(),
        })
    }
    fn initialize(&self, ctx: &mut Ctx) {
        ctx.states[0] = self.initial;
        ctx.work[0] = if self.initial >= self.threshold {
            1.0
        } else {
            0.0
        };
    }
    fn outputs_eval(&self, ctx: &mut Ctx) {
        let (v, tripped) = (ctx.states[0], ctx.work[0]);
        ctx.set_output_scalar(0, v);
        ctx.set_output_scalar(1, tripped);
    }
    fn derivatives(&self, ctx: &mut Ctx, dxdt: &mut [f64]) {
        dxdt[0] = (ctx.input_scalar(0) - ctx.states[0]) / self.time_constant;
    }
    fn zero_crossings(&self, ctx: &mut Ctx, g: &mut [f64]) {
        g[0] = ctx.states[0] - self.threshold;
    }
    /// At the located crossing: trip (a mode change, so the solver restarts there).
    fn handle_event(&self, ctx: &mut Ctx, crossed: &[bool], _time_event: bool) -> bool {
        let trips = crossed[0] && ctx.work[0] == 0.0;
        if trips {
            ctx.work[0] = 1.0;
        }
        trips
    }
}

/// The parameters with a default, each declared once: the default's text is what `blockdyn
/// blocks` prints, its value what `build` uses when the parameter is not written.
const TIME_CONSTANT: Param<f64> =
    blockdyn::param!("time_constant", "s", 1.0, "tau = R*C"; positive);
const INITIAL: Param<f64> = blockdyn::param!("initial", "V", 0.0, "v at t = 0");

/// Reads the block's table: every parameter through the reader, which locates errors (file,
/// line, block) and rejects parameters it was not asked for.
fn build(r: &Params) -> Result<Box<dyn Block>, ParamError> {
    let block = ChargingCapacitor {
        time_constant: TIME_CONSTANT.read(r)?,
        threshold: r.required_f64("threshold", "V")?,
        initial: INITIAL.read(r)?,
        inputs: vec![PortDecl::scalar("in").unit("V")],
        outputs: vec![PortDecl::scalar("v").unit("V"), PortDecl::scalar("tripped")],
    };
    r.finish()?;
    Ok(Box::new(block))
}

/// The declaration: the name models write, the documentation `blockdyn blocks` prints, and the
/// constructor.
pub static CHARGING_CAPACITOR: BlockType = BlockType {
    name: "ChargingCapacitor",
    category: "Examples",
    summary: "An RC circuit's capacitor charging from its input: v' = (in - v)/time_constant. \
              Locates the instant v reaches `threshold` and outputs tripped = 1 from then on.",
    params: &[
        TIME_CONSTANT.doc,
        ParamDoc {
            name: "threshold",
            unit: "V",
            default: "required",
            doc: "the voltage at which it trips",
        },
        INITIAL.doc,
    ],
    ports: &[
        PortDoc {
            name: "in",
            kind: "input",
            shape: "1×1",
            unit: "V",
            doc: "the source voltage",
        },
        PortDoc {
            name: "v",
            kind: "output",
            shape: "1×1",
            unit: "V",
            doc: "the capacitor's voltage",
        },
        PortDoc {
            name: "tripped",
            kind: "output",
            shape: "1×1",
            unit: "",
            doc: "0 before v reached the threshold, 1 after",
        },
    ],
    build,
};

/// A 5 V source charging the capacitor (τ = 0.5 s) past its 2.5 V threshold.
pub const MODEL: &str = r#"
connect = ["source.out -> cap.in", "cap.v -> scope.in1", "cap.tripped -> scope.in2"]

[model]
name = "rc_charge"
stop_time = 2.0

[solver]
rel_tol = 1e-10
abs_tol = 1e-12

[blocks.source]
type = "Constant"
value = 5.0

[blocks.cap]
type = "ChargingCapacitor"
time_constant = 0.5
threshold = 2.5

[blocks.scope]
type = "Scope"
inputs = 2
"#;

/// The standard library plus the capacitor.
pub fn registry() -> Registry {
    let mut registry = Registry::standard().clone();
    registry
        .register(CHARGING_CAPACITOR)
        .expect("a new, valid name");
    registry
}

/// Runs [`MODEL`]: returns the time the `tripped` output first reads 1 (the located crossing)
/// and v at the end of the run.
pub fn trip_time_and_final_voltage() -> (f64, f64) {
    let diagram =
        load_model_str_with("rc_charge.toml", MODEL, &[], &registry()).expect("the model loads");
    let run = simulate(&diagram, RunOptions::default()).expect("the model runs");
    let rec = &run.recording;
    let tripped = rec.column_index("cap.tripped").expect("recorded");
    let v = rec.column_index("cap.v").expect("recorded");
    let trip_row = (0..rec.len())
        .find(|&i| rec.row(i)[tripped] == 1.0)
        .expect("it trips");
    (rec.times[trip_row], rec.row(rec.len() - 1)[v])
}

#[allow(dead_code)]
fn main() {
    let registry = registry();
    // The type is listed with the library, as `blockdyn blocks` lists it.
    let listing = blockdyn::report::library_list(&registry);
    let line = listing
        .lines()
        .find(|l| l.contains("ChargingCapacitor"))
        .expect("listed");
    println!("{line}");
    let (t_trip, v_end) = trip_time_and_final_voltage();
    let tau = 0.5_f64;
    println!(
        "tripped at t = {t_trip:.12} s (τ·ln 2 = {:.12} s); v(2 s) = {v_end:.9} V (5·(1 − e^−4) = {:.9} V)",
        tau * 2f64.ln(),
        5.0 * (1.0 - (-4.0f64).exp())
    );
}
