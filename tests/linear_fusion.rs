//! Linear fusion gives what calling every block gives, NaN and infinity included, on random linear
//! diagrams; and it pays for itself on the shapes that used to make it slower (a chain of running
//! sums, a scalar Gain on a long vector).

use blockdyn::diagram::Diagram;
use blockdyn::sim::{Engine, Recorder};
use blockdyn::solver::System;
use proptest::prelude::*;

#[path = "linear_models/mod.rs"]
mod linear_models;

/// One memoryless block of a random diagram, reading earlier signals by index.
#[derive(Clone, Debug)]
enum Node {
    Gain(f64, usize),
    /// Signs (true = +) and the signals of its inputs.
    Sum(Vec<bool>, Vec<usize>),
    /// A called (non-linear) block: whatever it reads must be written.
    Abs(usize),
}

/// A random diagram: `states` scalar Integrators `x0..`, then the nodes `b0..`; signal `i`
/// is `x{i}` for `i < states`, else `b{i − states}`. Integrator `k` reads signal `inputs[k]`.
#[derive(Clone, Debug)]
struct Random {
    states: usize,
    nodes: Vec<Node>,
    inputs: Vec<usize>,
}

impl Random {
    /// The model text; with `absolute`, every gain and sign made positive (and Abs blocks kept),
    /// which evaluates Σ |c|·|leaf| over the same terms: the scale of the round-off.
    fn model(&self, absolute: bool) -> String {
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
                Node::Gain(k, from) => {
                    let k = if absolute { k.abs() } else { *k };
                    blocks.push_str(&format!("[blocks.b{j}]\ntype = \"Gain\"\ngain = {k:?}\n"));
                    connect.push(format!("\"{} -> b{j}.in\"", name(*from)));
                }
                Node::Sum(signs, from) => {
                    let signs: String = signs
                        .iter()
                        .map(|&s| if s || absolute { '+' } else { '-' })
                        .collect();
                    blocks.push_str(&format!(
                        "[blocks.b{j}]\ntype = \"Sum\"\nsigns = \"{signs}\"\n"
                    ));
                    for (p, f) in from.iter().enumerate() {
                        connect.push(format!("\"{} -> b{j}.in{}\"", name(*f), p + 1));
                    }
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

/// ẋ at `x`, fused or with every block called.
fn derivatives(d: &Diagram, fuse: bool, x: &[f64]) -> Vec<f64> {
    let mut engine = Engine::with_fusion(d, Recorder::new(d), fuse);
    engine.initialize(0.0);
    let mut dx = vec![0.0; x.len()];
    engine.derivatives(0.5, x, &mut dx);
    dx
}

/// Gains: exact ones (0, ±1), round-off-making ones, and a spread of magnitudes that keeps every
/// product of at most a dozen of them far from overflow.
fn gain() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(1.0),
        Just(-1.0),
        Just(-0.5),
        Just(1e-3),
        Just(1e3),
        -10.0..10.0f64,
    ]
}

/// States: NaN, both infinities, zeros of both signs, and ordinary numbers.
fn state() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(0.0),
        Just(-0.0),
        -1e3..1e3f64,
        -1e3..1e3f64,
        -1e3..1e3f64,
    ]
}

fn random_diagram() -> impl Strategy<Value = Random> {
    (1usize..5, 1usize..14).prop_flat_map(|(states, n)| {
        let nodes: Vec<_> = (0..n)
            .map(|j| {
                let earlier = states + j;
                prop_oneof![
                    3 => (gain(), 0..earlier).prop_map(|(k, f)| Node::Gain(k, f)),
                    4 => prop::collection::vec((any::<bool>(), 0..earlier), 2..4).prop_map(|v| {
                        let (signs, from) = v.into_iter().unzip();
                        Node::Sum(signs, from)
                    }),
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

    /// Fused and called agree on every derivative. Non-finite values must match exactly (NaN
    /// where the blocks give NaN, the same infinity where they give one): fusion drops and merges
    /// no term, so the same products of NaN, ±∞ and 0 are summed. Finite values may differ by
    /// round-off only, because fusion adds in another order and multiplies the coefficients of a
    /// path first: at most 1e-12 of Σ|c|·|leaf| over the terms (a dozen blocks deep, each
    /// rounding contributes at most 2⁻⁵³ of that sum; 1e-12 leaves a margin of about 50×). With
    /// gains of at most 1e3 and states of at most 1e3 over at most 13 blocks, no intermediate
    /// value can overflow, the one case where the blocks' order of operations could turn a finite
    /// value infinite where the fused order does not.
    #[test]
    fn fused_and_called_runs_agree(
        r in random_diagram(),
        x in prop::collection::vec(state(), 4),
    ) {
        let d = blockdyn::load_model_str("random.toml", &r.model(false), &[]).unwrap();
        let x = &x[..r.states];
        let fused = derivatives(&d, true, x);
        let called = derivatives(&d, false, x);
        let abs = blockdyn::load_model_str("abs.toml", &r.model(true), &[]).unwrap();
        let ax: Vec<f64> = x.iter().map(|v| v.abs()).collect();
        let scale = derivatives(&abs, false, &ax);
        for k in 0..r.states {
            let (a, b) = (fused[k], called[k]);
            if b.is_finite() {
                let tolerance = 1e-12 * scale[k];
                prop_assert!(a.is_finite() && (a - b).abs() <= tolerance,
                    "x{k}': fused {a}, called {b}, tolerance {tolerance}\n{}", r.model(false));
            } else {
                prop_assert!(a.is_nan() == b.is_nan() && (b.is_nan() || a == b),
                    "x{k}': fused {a}, called {b}\n{}", r.model(false));
            }
        }
    }
}

/// `u − u` of an infinite `u` is NaN called, and must be NaN fused (it used to be 0: the two
/// terms were merged and the zero dropped); a gain of 0 on an infinite input likewise.
#[test]
fn cancelled_terms_keep_nan() {
    let r = Random {
        states: 2,
        nodes: vec![Node::Sum(vec![true, false], vec![0, 0]), Node::Gain(0.0, 0)],
        inputs: vec![2, 3],
    };
    let d = blockdyn::load_model_str("cancel.toml", &r.model(false), &[]).unwrap();
    for fuse in [true, false] {
        let dx = derivatives(&d, fuse, &[f64::INFINITY, 1.0]);
        assert!(dx[0].is_nan() && dx[1].is_nan(), "fuse = {fuse}: {dx:?}");
        let dx = derivatives(&d, fuse, &[2.0, 1.0]);
        assert_eq!(dx, vec![0.0, 0.0], "fuse = {fuse}");
    }
}

/// The running-sums chain: fusion may not flatten it into k + 1 terms per stage (quadratic), and
/// never has more terms than the blocks' own forms (2 per Sum) plus one read per Integrator; the
/// derivatives equal the called ones. ẋ_k = 1 − Σ_{j≤k} x_j; at x_j = 1/(j+1) the partial sums
/// of the harmonic series give ẋ_k = 1 − H_{k+1} (exact to round-off of k additions).
#[test]
fn running_sums_are_not_flattened() {
    let n = 2000;
    let d = blockdyn::load_model_str("sums.toml", &linear_models::running_sums_model(n, 1.0), &[])
        .unwrap();
    let engine = Engine::new(&d, Recorder::new(&d));
    let plan = engine.linear_plan();
    assert_eq!(plan.fused, 2 * n);
    // Block by block: 2 terms per Sum, 1 per Integrator derivative.
    assert!(plan.terms() <= 3 * n, "{} terms", plan.terms());
    assert!(
        plan.materialized >= n / 2 - 1,
        "{} written",
        plan.materialized
    );
    let x: Vec<f64> = (0..n).map(|j| 1.0 / (j + 1) as f64).collect();
    // States are interleaved with nothing else: x_k is state k.
    let fused = derivatives(&d, true, &x);
    let called = derivatives(&d, false, &x);
    let mut harmonic = 0.0;
    for k in 0..n {
        harmonic += 1.0 / (k + 1) as f64;
        let exact = 1.0 - harmonic;
        // k + 1 additions of terms at most 1 in size, and as many in the closed form.
        let tolerance = 4.0 * (k + 1) as f64 * f64::EPSILON;
        assert!(
            (fused[k] - exact).abs() <= tolerance,
            "{k}: {} vs {exact}",
            fused[k]
        );
        assert!(
            (called[k] - exact).abs() <= tolerance,
            "{k}: {} vs {exact}",
            called[k]
        );
    }
}

/// A scalar Gain on an 8000-element vector is 8000 terms (it used to be a dense 8000 × 8000
/// matrix, 512 MB), inlined into the Integrator it feeds; read by a called block, it is written
/// as one banded sum. Either way ẋ = −2·x element by element, NaN staying NaN.
#[test]
fn a_scalar_gain_on_a_long_vector_stays_sparse() {
    let n = 8000;
    let initial: Vec<String> = (0..n).map(|i| format!("{:?}", i as f64)).collect();
    for read in [false, true] {
        let abs = if read { "\"k.out -> a.in\", " } else { "" };
        let text = format!(
            "connect = [\"x.out -> k.in\", {abs}\"k.out -> x.in\"]\n[model]\nstop_time = 1.0\n\
             [blocks.x]\ntype = \"Integrator\"\ninitial = [{}]\n\
             [blocks.k]\ntype = \"Gain\"\ngain = -2.0\n{}",
            initial.join(", "),
            if read {
                "[blocks.a]\ntype = \"Abs\"\n"
            } else {
                ""
            }
        );
        let d = blockdyn::load_model_str("vector.toml", &text, &[]).unwrap();
        let engine = Engine::new(&d, Recorder::new(&d));
        let plan = engine.linear_plan();
        // Inlined: one term per derivative; written: one per output and one read per derivative.
        let expected = if read { 2 * n } else { n };
        assert_eq!(plan.terms(), expected, "read = {read}");
        assert_eq!(plan.materialized, usize::from(read));
        let mut x: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
        x[17] = f64::NAN;
        let fused = derivatives(&d, true, &x);
        for (i, v) in fused.iter().enumerate() {
            if i == 17 {
                assert!(v.is_nan());
            } else {
                assert_eq!(*v, -2.0 * x[i], "{i}");
            }
        }
    }
}
