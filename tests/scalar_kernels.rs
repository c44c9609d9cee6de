//! Scalar kernels (Saturation, Product and Fcn evaluated in place by the engine instead of being
//! called)
//! give exactly the bits the blocks give when called, NaN, infinities and signed zeros included,
//! on random diagrams of such blocks; and a whole run of the non-linear benchmark diagram is the
//! same, bit for bit, with kernels (the default) and with every block called.

use blockdyn::diagram::Diagram;
use blockdyn::sim::{Engine, Recorder};
use blockdyn::solver::System;
use proptest::prelude::*;

#[path = "linear_models/mod.rs"]
mod linear_models;

/// One memoryless scalar block of a random diagram, reading earlier signals by index.
#[derive(Clone, Debug)]
enum Node {
    /// Lower and upper limits (either may be absent).
    Saturation(Option<f64>, Option<f64>, usize),
    /// `"**"`, `"*/"`, `"/*"` or `"//"`, and the two signals read.
    Product(&'static str, usize, usize),
    /// An Fcn of one input, and the signal read.
    Fcn(&'static str, usize),
    /// A block with no kernel (always called), between kernels.
    Abs(usize),
}

/// Expressions that make NaN, infinities and signed zeros from ordinary inputs, and read time.
const EXPRESSIONS: [&str; 8] = [
    "0.5 - u - u^3/6",
    "sin(u)*u + t",
    "1/u",
    "sqrt(u) - ln(u)",
    "u min 0.3",
    "-u^2",
    "2^-u * u^-2",
    "atan2(u, t) + signum(u)",
];

#[derive(Clone, Debug)]
struct Random {
    states: usize,
    nodes: Vec<Node>,
    /// The signal each Integrator reads.
    inputs: Vec<usize>,
}

impl Random {
    fn model(&self) -> String {
        let name = |i: usize| {
            if i < self.states {
                format!("x{i}.out")
            } else {
                format!("b{}.out", i - self.states)
            }
        };
        let mut connect = Vec::new();
        let mut blocks = String::new();
        for k in 0..self.states {
            blocks.push_str(&format!("[blocks.x{k}]\ntype = \"Integrator\"\n"));
            connect.push(format!("\"{} -> x{k}.in\"", name(self.inputs[k])));
        }
        for (j, node) in self.nodes.iter().enumerate() {
            match node {
                Node::Saturation(lower, upper, from) => {
                    blocks.push_str(&format!("[blocks.b{j}]\ntype = \"Saturation\"\n"));
                    if let Some(l) = lower {
                        blocks.push_str(&format!("lower = {l:?}\n"));
                    }
                    if let Some(u) = upper {
                        blocks.push_str(&format!("upper = {u:?}\n"));
                    }
                    connect.push(format!("\"{} -> b{j}.in\"", name(*from)));
                }
                Node::Product(ops, a, b) => {
                    blocks.push_str(&format!(
                        "[blocks.b{j}]\ntype = \"Product\"\ninputs = \"{ops}\"\n"
                    ));
                    connect.push(format!("\"{} -> b{j}.in1\"", name(*a)));
                    connect.push(format!("\"{} -> b{j}.in2\"", name(*b)));
                }
                Node::Fcn(expression, from) => {
                    blocks.push_str(&format!(
                        "[blocks.b{j}]\ntype = \"Fcn\"\nexpression = \"{expression}\"\n"
                    ));
                    connect.push(format!("\"{} -> b{j}.in\"", name(*from)));
                }
                Node::Abs(from) => {
                    blocks.push_str(&format!("[blocks.b{j}]\ntype = \"Abs\"\n"));
                    connect.push(format!("\"{} -> b{j}.in\"", name(*from)));
                }
            }
        }
        format!(
            "connect = [{}]\n[model]\nstop_time = 1.0\n{blocks}",
            connect.join(", ")
        )
    }
}

/// ẋ at `x`, with kernels (and fusion) or with every block called.
fn derivatives(d: &Diagram, kernels: bool, x: &[f64]) -> Vec<f64> {
    let mut engine = Engine::with_fusion(d, Recorder::new(d), kernels);
    engine.initialize(0.0);
    let mut dx = vec![0.0; x.len()];
    engine.derivatives(0.5, x, &mut dx);
    dx
}

/// Values that exercise every branch of the arithmetic: NaN, infinities, signed zeros, ordinary.
fn value() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(0.0),
        Just(-0.0),
        -1e3..1e3f64,
        -1e3..1e3f64,
    ]
}

fn limits() -> impl Strategy<Value = (Option<f64>, Option<f64>)> {
    (
        prop::option::of(-2.0..0.0f64),
        prop::option::of(0.0..2.0f64),
    )
        .prop_filter("Saturation needs a limit", |(l, u)| {
            l.is_some() || u.is_some()
        })
}

fn random_diagram() -> impl Strategy<Value = Random> {
    (1usize..5, 1usize..14).prop_flat_map(|(states, n)| {
        let nodes: Vec<_> = (0..n)
            .map(|j| {
                let earlier = states + j;
                prop_oneof![
                    3 => (limits(), 0..earlier).prop_map(|((l, u), f)| Node::Saturation(l, u, f)),
                    3 => (prop::sample::select(vec!["**", "*/", "/*", "//"]), 0..earlier, 0..earlier)
                        .prop_map(|(ops, a, b)| Node::Product(ops, a, b)),
                    3 => (prop::sample::select(EXPRESSIONS.to_vec()), 0..earlier)
                        .prop_map(|(e, f)| Node::Fcn(e, f)),
                    1 => (0..earlier).prop_map(Node::Abs),
                ]
                .boxed()
            })
            .collect();
        (
            Just(states),
            nodes,
            prop::collection::vec(0..states + n, states),
        )
            .prop_map(|(states, nodes, inputs)| Random {
                states,
                nodes,
                inputs,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A kernel computes what its block computes, with the same operations in the same order:
    /// the derivatives must have the same bits, NaN payloads included.
    #[test]
    fn kernels_give_the_blocks_bits(
        r in random_diagram(),
        x in prop::collection::vec(value(), 4),
    ) {
        let d = blockdyn::load_model_str("random.toml", &r.model(), &[]).unwrap();
        let x = &x[..r.states];
        // Every Saturation, Product and Fcn of the diagram is a kernel (their ports are scalars).
        let kernels = r.nodes.iter().filter(|n| !matches!(n, Node::Abs(_))).count();
        let engine = Engine::new(&d, Recorder::new(&d));
        prop_assert_eq!(engine.kernel_blocks(), kernels);
        let inline = derivatives(&d, true, x);
        let called = derivatives(&d, false, x);
        for k in 0..r.states {
            let (a, b) = (inline[k], called[k]);
            prop_assert!(a.to_bits() == b.to_bits(),
                "x{k}': kernels {a:?}, called {b:?}\n{}", r.model());
        }
    }
}

/// The non-linear benchmark diagram (Fcn → Saturation → Product → Integrator stages) run to its
/// end: the same steps, evaluations, times and values with kernels and with every block called.
#[test]
fn a_whole_run_is_the_same_with_kernels() {
    // Logged: one block of each kind, so that the rows compare their outputs too.
    let log = "output.log=[\"f0.out\", \"sat0.out\", \"p0.out\", \"f19.out\"]".to_string();
    let d = blockdyn::load_model_str(
        "nl.toml",
        &linear_models::nonlinear_model(20, 2.0),
        &[log.parse().unwrap()],
    )
    .unwrap();
    let inline = blockdyn::simulate(&d, blockdyn::RunOptions::default()).unwrap();
    let called = blockdyn::simulate(
        &d,
        blockdyn::RunOptions {
            unfused: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(inline.stats.steps, called.stats.steps);
    assert_eq!(
        inline.stats.function_evaluations,
        called.stats.function_evaluations
    );
    assert_eq!(inline.recording.times, called.recording.times);
    assert_eq!(inline.recording.values, called.recording.values);
    assert_eq!(inline.final_state, called.final_state);
    // The stages saturate: the first Fcn's input starts at 0, giving 0.5 − 0 − 0 = 0.5 < 0.8,
    // and x₀ grows at 0.5·1 until 0.5 − x₀ − x₀³/6 falls; every value stays finite.
    assert!(inline.final_state.iter().all(|v| v.is_finite()));
    assert_eq!(inline.recording.columns.len(), 4);
    assert!(
        inline.recording.times.len() > 100,
        "dense rows were recorded"
    );
    // 20 stages of Fcn, Saturation and Product: 60 kernels.
    let engine = Engine::new(&d, Recorder::new(&d));
    assert_eq!(engine.kernel_blocks(), 60);
}
